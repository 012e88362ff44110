package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/local"
	"lwr/research/researchtest"
)

// search.user_dict keeps in-house words whole (the analyzer is process
// wide, so each step is a process of its own): 新規事業推進室 is one word,
// so a document that only has its parts apart no longer matches; a change
// of the words rebuilds the index; a bad file is one sentence and exit 2.
func TestUserDictKeepsWordsWhole(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"組織.md": "# 組織\n\n新規事業推進室の担当者は毎週月曜に集まる。\n",
		"議事.md": "# 議事\n\n新規の案件について、事業部が推進する。会議室は3階。\n",
	})
	cache := configtest.TempDir(t)
	dictFile := filepath.Join(configtest.TempDir(t), "words.txt")
	search := func(env []string) ([]string, string) {
		t.Helper()
		out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "search", "--format", "json", "新規事業推進室").CombinedOutput()
		if err != nil {
			t.Fatalf("search: %v\n%s", err, out)
		}
		i := strings.Index(string(out), "{")
		var res local.AgentResult
		if i < 0 || json.Unmarshal(out[i:], &res) != nil {
			t.Fatalf("not JSON: %s", out)
		}
		var ps []string
		for _, m := range res.Matches {
			ps = append(ps, m.Path)
		}
		return ps, string(out[:i])
	}
	plain := testEnv(t)
	if ps, _ := search(plain); !slices.Contains(ps, "議事.md") {
		t.Fatalf("without a user dictionary the parts match apart: %v", ps)
	}
	if err := os.WriteFile(dictFile, []byte("# 社内用語\n新規事業推進室,シンキジギョウスイシンシツ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withDict := append(slices.Clone(plain), "LWR_SEARCH_USER_DICT="+dictFile)
	ps, stderr := search(withDict)
	if !slices.Equal(ps, []string{"組織.md"}) {
		t.Errorf("with 新規事業推進室 in the user dictionary: %v, want only 組織.md", ps)
	}
	if !strings.Contains(stderr, "user_dict") && !strings.Contains(stderr, "index") {
		t.Logf("stderr: %s", stderr)
	}
	// The same words again: no rebuild (the index is current).
	out, err := lwrCmd(withDict, "--source-root", root, "--cache-dir", cache, "index", "status").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "+user-") {
		t.Errorf("index status does not name the user dictionary: %v\n%s", err, out)
	}
	// Back without it: the index is rebuilt and the parts match again.
	if ps, _ := search(plain); !slices.Contains(ps, "議事.md") {
		t.Errorf("after the user dictionary was removed: %v", ps)
	}
	for name, body := range map[string]string{
		"spaces":   "新規 事業\n",
		"empty":    "# nothing\n",
		"not UTF8": "\x93\xfa\x96\x7b\n",
	} {
		bad := filepath.Join(configtest.TempDir(t), name+".txt")
		if err := os.WriteFile(bad, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		c := lwrCmd(append(slices.Clone(plain), "LWR_SEARCH_USER_DICT="+bad), "--source-root", root, "--cache-dir", cache, "search", "新規")
		out, err := c.CombinedOutput()
		if code := c.ProcessState.ExitCode(); err == nil || code != exitUsage || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 || !strings.Contains(string(out), "user") {
			t.Errorf("%s: exit %d: %s", name, code, out)
		}
	}
	c := lwrCmd(append(slices.Clone(plain), "LWR_SEARCH_USER_DICT="+filepath.Join(root, "missing.txt")), "--source-root", root, "--cache-dir", cache, "search", "新規")
	if out, err := c.CombinedOutput(); err == nil || c.ProcessState.ExitCode() != exitUsage || !strings.Contains(string(out), "search.user_dict") {
		t.Errorf("missing file: exit %d: %s", c.ProcessState.ExitCode(), out)
	}
}

// A daemon started before search.user_dict changed would answer with the
// old words: it refuses the search, in one sentence that says how to
// restart it, and still answers its status.
func TestDaemonWithOtherWordsIsNamed(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"組織.md": "# 組織\n\n新規事業推進室の担当者は毎週月曜に集まる。\n",
	})
	cache := configtest.TempDir(t)
	plain := testEnv(t)
	startDaemonProc(t, plain, root, cache)
	dictFile := filepath.Join(configtest.TempDir(t), "words.txt")
	if err := os.WriteFile(dictFile, []byte("新規事業推進室,シンキジギョウスイシンシツ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withDict := append(slices.Clone(plain), "LWR_SEARCH_USER_DICT="+dictFile)
	c := lwrCmd(withDict, "--source-root", root, "--cache-dir", cache, "search", "新規事業推進室")
	out, err := c.CombinedOutput()
	if code := c.ProcessState.ExitCode(); err == nil || code != exitBusy || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 || !strings.Contains(string(out), "lwr index stop") {
		t.Errorf("search through a daemon of other words: exit %d: %s", code, out)
	}
	if out, err := lwrCmd(withDict, "--source-root", root, "--cache-dir", cache, "index", "status").CombinedOutput(); err != nil {
		t.Errorf("status: %v\n%s", err, out)
	}
	// With the words the daemon has, it answers.
	if out, err := lwrCmd(plain, "--source-root", root, "--cache-dir", cache, "search", "新規事業推進室").CombinedOutput(); err != nil {
		t.Errorf("search with the daemon's words: %v\n%s", err, out)
	}
}
