package index

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"lwr/config/configtest"
)

func TestLooksText(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("本ソフトウェアの著作権は株式会社に帰属します。")
	long := strings.Repeat("あ", sniffSize/3) // 4095 bytes, then a character cut after its first byte
	for _, c := range []struct {
		name string
		head string
		cut  bool
		want bool
	}{
		{"ascii", "MIT License\n\nCopyright (c) 2024\n", false, true},
		{"utf-8 Japanese", "# 説明\n\nこのフォルダには規程を置く。\n", false, true},
		{"a character cut at the end", long + "\xe3", true, true},
		{"shift_jis", sjis, false, true},
		{"NUL", "ELF\x7f\x02\x01\x01\x00\x00", false, false},
		{"latin-1", "caf\xe9 cr\xe8me br\xfbl\xe9e", false, false},
		{"control characters", "\x01\x02\x03\x04\x05abc", false, false},
		{"empty", "", false, false},
		{"utf-16 with BOM", "\xff\xfeR\x00E\x00", false, true},
	} {
		if got := looksText([]byte(c.head), c.cut); got != c.want {
			t.Errorf("%s: looksText = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestExtensionlessFiles: README, LICENSE and NOTICE are indexed when they
// are text; a program without an extension is listed as skipped.
func TestExtensionlessFiles(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("著作権表示：有給休暇管理ツールの利用条件。\n")
	root := tree(t, map[string]string{
		"README":       "# 有給休暇の手引き\n\n申請は三日前までに行う。\n",
		"docs/LICENSE": "MIT License\n\nPermission is hereby granted, free of charge.\n",
		"NOTICE":       sjis,
		"bin/tool":     "\x7fELF\x02\x01\x01\x00\x00\x00有給休暇",
		"規程/就業規則.md":   "# 就業規則\n\n有給休暇は年10日。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	var skips []string
	st := mustBuild(t, ix, BuildOptions{OnSkip: func(p, why string) { skips = append(skips, p+": "+why) }})
	if st.Files != 4 || !slices.Equal(skips, []string{"bin/tool: it has no extension and is not text"}) {
		t.Fatalf("build: %+v, skipped %q", st, skips)
	}
	for _, c := range []struct {
		q    string
		mode Mode
		want []string
	}{
		{"有給休暇", FullText, []string{"NOTICE", "README", "規程/就業規則.md"}},
		{"permission granted", Ranked, []string{"docs/LICENSE"}},
	} {
		got := paths(find(t, ix, c.q, SearchOptions{Mode: c.mode, Limit: 10}))
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.q, got, c.want)
		}
	}
	if f, err := ReadFile(root, Rules{}, "README"); err != nil || f.Lines[0] != "# 有給休暇の手引き" {
		t.Errorf("ReadFile(README): %v", err)
	}
	if _, err := ReadFile(root, Rules{}, "bin/tool"); err == nil || !strings.Contains(err.Error(), "not text") {
		t.Errorf("ReadFile(bin/tool): %v", err)
	}
	if sk, err := ix.Skipped(); err != nil || len(sk) != 1 || sk[0].Path != "bin/tool" {
		t.Errorf("Skipped: %+v, %v", sk, err)
	}
}
