package index

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

func TestDecode(t *testing.T) {
	const ja = "有給休暇の申請は、取得日の三日前までに所属長へ提出すること。"
	sjis, err := japanese.ShiftJIS.NewEncoder().String(ja)
	if err != nil {
		t.Fatal(err)
	}
	euc, err := japanese.EUCJP.NewEncoder().String(ja)
	if err != nil {
		t.Fatal(err)
	}
	u16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(ja)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      []byte
		want    string
		enc     string
		wantErr error
	}{
		{"utf-8", []byte(ja), ja, "utf-8", nil},
		{"utf-8 with BOM", append([]byte{0xEF, 0xBB, 0xBF}, ja...), ja, "utf-8-bom", nil},
		{"shift_jis", []byte(sjis), ja, "shift_jis", nil},
		{"euc-jp", []byte(euc), ja, "euc-jp", nil},
		{"utf-16 with BOM", []byte(u16), ja, "utf-16le", nil},
		{"empty", nil, "", "utf-8", nil},
		{"binary with NUL", []byte{0x89, 'P', 'N', 'G', 0, 0, 0, 13}, "", "", ErrBinary},
		{"latin-1 is not guessed", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e na\xefve \xe0 la carte"), "", "", ErrEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, enc, err := Decode(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want || enc != tt.enc {
				t.Errorf("Decode = %q (%s), want %q (%s)", got, enc, tt.want, tt.enc)
			}
		})
	}
}

func TestExcluded(t *testing.T) {
	r := Rules{Extensions: []string{".md", ".txt", ".yaml"}, Exclude: []string{"drafts/*", "*.private.md"}, MaxFileSize: 1 << 20}
	tests := []struct {
		rel, want string
	}{
		{"規程/就業規則.md", ""},
		{"notes.txt", ""},
		{".env", "hidden"},
		{"a/.env", "hidden"},
		{"env/.env.local", "hidden"},
		{"secrets.yaml", "secret"},
		{"dir/secrets.yaml", "secret"},
		{".private/メモ.md", "hidden"},
		{"a/.git/config.md", "hidden"},
		{"手順/経費.md.meta.yaml", "sidecar"},
		{"古い.md.bak", "backup"},
		{"下書き.md~", "temporary"},
		{"手順/.#下書き.md", "hidden"},
		{"x.swp", "temporary"},
		{"4913", "temporary"},
		{"~$報告.md", "temporary"},
		{"drafts/a.md", "excluded"},
		{"b.private.md", "excluded"},
		{"logo.png", "extension"},
		{"script.ps1", "extension"},
	}
	for _, tt := range tests {
		if got := r.Excluded(tt.rel); got != tt.want {
			t.Errorf("Excluded(%q) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

// TestGlobCacheIsBounded: distinct long patterns (a client's) do not stay
// in memory: the cache keeps at most its entries, patterns of at most its
// length, and the most recently used.
func TestGlobCacheIsBounded(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 300 {
		long := fmt.Sprintf("%d/%s*.md", i, strings.Repeat("規程/*/", 1000))
		pathIn("規程/a.md", []string{long})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 32<<20 {
		t.Errorf("300 searches with distinct 7 KB globs keep %d MB", grown>>20)
	}
	c := newGlobCache(3, 100)
	for _, g := range []string{"a/*", "b/*", "c/*", "a/*", "d/*"} {
		c.get(g)
	}
	if c.size() != 3 || c.compiles != 4 {
		t.Errorf("kept %d, compiled %d; want 3 kept, 4 compiled", c.size(), c.compiles)
	}
	c.get("a/*") // still kept: used after b
	if c.compiles != 4 {
		t.Errorf("the glob used last was dropped")
	}
	c.get("b/*") // dropped: the least recently used
	if c.compiles != 5 {
		t.Errorf("the least recently used glob was kept")
	}
}

// TestExcludeIsGitignoreLike: index.exclude reads patterns as .gitignore
// does: a folder's name (drafts) leaves out the folder at any depth and
// all it holds, drafts/* and drafts/** all the top folder holds, /drafts
// the top one only, *.bak any such file.
func TestExcludeIsGitignoreLike(t *testing.T) {
	for _, c := range []struct {
		pattern string
		out     []string
		in      []string
	}{
		{"drafts", []string{"drafts/x.md", "drafts/sub/x.md", "規程/drafts/y.md"}, []string{"drafts.md", "規程/x.md"}},
		{"drafts/*", []string{"drafts/x.md", "drafts/sub/x.md"}, []string{"規程/drafts/y.md"}},
		{"drafts/**", []string{"drafts/x.md", "drafts/sub/x.md"}, []string{"規程/drafts/y.md"}},
		{"/drafts", []string{"drafts/x.md", "drafts/sub/x.md"}, []string{"規程/drafts/y.md"}},
		{"規程/**/旧*.md", []string{"規程/旧規程.md", "規程/2024/旧版.md"}, []string{"規程/新規程.md", "旧規程.md"}},
	} {
		r := Rules{Exclude: []string{c.pattern}}.withDefaults()
		for _, p := range c.out {
			if r.Excluded(p) != "excluded" {
				t.Errorf("index.exclude %q: %s is indexed", c.pattern, p)
			}
		}
		for _, p := range c.in {
			if why := r.Excluded(p); why != "" {
				t.Errorf("index.exclude %q: %s is left out (%s)", c.pattern, p, why)
			}
		}
	}
}
