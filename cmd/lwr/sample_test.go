package main

import (
	"bytes"
	"encoding/json"
	"lwr/config/configtest"
	"lwr/research/local"
	"os"
	"path/filepath"
	"testing"
)

// The bundled sample corpus: legacy encodings, sidecar and front-matter
// summaries are searchable; the files that must never be indexed are not.
func TestSampleCorpus(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t)
	cache := configtest.TempDir(t)
	if _, errOut, code := run(t, env, "--source-root", root, "--cache-dir", cache, "index", "build"); code != 0 {
		t.Fatalf("build: %d %s", code, errOut)
	}
	found := func(mode, word string) []string {
		out, errOut, code := run(t, env, "--source-root", root, "--cache-dir", cache, "search", "--format", "json", "--mode", mode, word)
		if code != 0 {
			t.Fatalf("search %q: %d %s", word, code, errOut)
		}
		var res local.AgentResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, m := range res.Matches {
			ps = append(ps, m.Path)
		}
		return ps
	}
	for word, want := range map[string]string{
		"書庫搬出簿":  "規程/旧規程_文書保存.txt",      // Shift_JIS
		"謄写版":    "メモ/古いメモ_euc.txt",      // EUC-JP
		"早見表":    "手順/経費精算の手順.md",        // sidecar summary
		"在宅初日":   "手順/テレワーク開始チェックリスト.md", // front matter summary
		"リマインダー": "手順/パスワード変更手順.md",      // half-width katakana in the text
	} {
		got := found("ranked", word)
		if len(got) == 0 || got[0] != want {
			t.Errorf("search %q = %v, want %s first", word, got, want)
		}
	}
	for _, word := range []string{"lwr-planted-secret-7f3a", "極秘人事案", "没原稿", "書きかけ草稿", "旧日当表", "pngonlymarker", "binzipmarker", "keiyaku-zuikei-threshold"} {
		if got := found("fulltext", word); len(got) != 0 {
			t.Errorf("%q must never be indexed, found in %v", word, got)
		}
	}
	// No file of the index holds the planted secret.
	err = filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte("lwr-planted-secret-7f3a")) {
			t.Errorf("%s holds the planted secret", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
