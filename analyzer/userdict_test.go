package analyzer

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
)

func TestParseUserDict(t *testing.T) {
	recs, id, err := parseUserDict([]byte("\ufeff# 社内用語\r\n新規事業推進室,シンキジギョウスイシンシツ\r\n\r\nアオバ推進課\n新規事業推進室\n"))
	if err != nil || len(recs) != 2 || id == "" {
		t.Fatalf("recs %+v, id %q, err %v", recs, id, err)
	}
	if recs[1].Text != "アオバ推進課" {
		t.Errorf("read as %q", recs[1].Text)
	}
	_, id2, _ := parseUserDict([]byte("アオバ推進課\n新規事業推進室\n"))
	if id2 != id {
		t.Errorf("the same words give another id: %s, %s", id, id2)
	}
	for body, want := range map[string]string{
		"新規 事業\n":                      "no spaces",
		"新規事業推進室,a,b,c\n":              "one comma at most",
		",よみ\n":                        "no word before the comma",
		"# only comments\n":            "lists no word",
		"\x93\xfa\x96\x7b\n":           "not UTF-8",
		strings.Repeat("あ", 41) + "\n": "more than 40 characters",
		strings.Repeat("x", 70<<10):    "more than 64 KB",
		strings.Repeat("語\n", 5<<20):   "at most",
	} {
		if _, _, err := parseUserDict([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v, want %q", body, err, want)
		}
	}
}

// TestUserDictIsPerAnalyzer: a user dictionary belongs to the analyzer
// built with it — no process-wide setting: the analyzer without one, used
// before and after, still cuts the word apart.
func TestUserDictIsPerAnalyzer(t *testing.T) {
	p := filepath.Join(configtest.TempDir(t), "words.txt")
	if err := os.WriteFile(p, []byte("新規事業推進室\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	terms := func(a *Analyzer) []string {
		var out []string
		for _, tk := range a.Tokens("新規事業推進室の担当") {
			out = append(out, tk.Term)
		}
		return out
	}
	before := terms(Default())
	ud, err := LoadUserDict(p)
	if err != nil {
		t.Fatal(err)
	}
	with := New(WithUserDict(ud))
	if got := terms(with); len(got) == 0 || got[0] != "新規事業推進室" {
		t.Errorf("with the user dictionary: %v", got)
	}
	if got := terms(Default()); !slices.Equal(got, before) || slices.Contains(got, "新規事業推進室") {
		t.Errorf("the default analyzer changed: %v, before %v", got, before)
	}
	if with.UserDictID() == "" || with.UserDictID() != ud.ID() || Default().UserDictID() != "" {
		t.Errorf("ids: %q %q %q", with.UserDictID(), ud.ID(), Default().UserDictID())
	}
	if _, err := LoadUserDict(filepath.Join(configtest.TempDir(t), "none.txt")); !errors.Is(err, ErrUserDict) {
		t.Errorf("a missing file: %v", err)
	}
}
