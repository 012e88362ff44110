//go:build unix

package index

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"lwr/config/configtest"
)

// TestSwappedForALinkShowsNothingOutside: a document indexed, then
// replaced by a symbolic link (to a file outside the root, to a folder
// outside it, to /proc/self/pagemap) or by a file too large or a FIFO: no
// search shows the link's target, and none blocks or reads without bound.
func TestSwappedForALinkShowsNothingOutside(t *testing.T) {
	outside := tree(t, map[string]string{
		"shadow":      "有給休暇 root:*:20228:0:99999:7::: 秘密の値\n",
		"docs/b.md":   "# 外\n有給休暇 秘密の値 外のフォルダ\n",
		"grown/c.md":  "x",
		"pagemap/d.x": "x",
	})
	root := tree(t, map[string]string{
		"a.md":      "# 休暇\n有給休暇の申請は三日前まで。\n",
		"docs/b.md": "# 規程\n有給休暇の付与日数。\n",
		"c.md":      "# 大\n有給休暇の繰越。\n",
		"d.md":      "# 別\n有給休暇の時季変更。\n",
		"e.md":      "# 管\n有給休暇の管理簿。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	swap := func(rel string, make func(p string) error) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		if err := make(p); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target string) func(string) error {
		return func(p string) error { return os.Symlink(target, p) }
	}
	swap("a.md", link(filepath.Join(outside, "shadow")))
	swap("docs", link(filepath.Join(outside, "docs")))
	// Larger than index.max_file_size (1 MiB here) since the build.
	swap("c.md", func(p string) error {
		return os.WriteFile(p, []byte(strings.Repeat("有給休暇 秘密の値\n", 80000)), 0o644)
	})
	if runtime.GOOS == "linux" {
		swap("d.md", link("/proc/self/pagemap"))
	}
	swap("e.md", func(p string) error { return syscall.Mkfifo(p, 0o644) })
	for _, mode := range []Mode{Ranked, FullText} {
		res := find(t, ix, "有給休暇", SearchOptions{Mode: mode, Limit: 20})
		for _, m := range res.Matches {
			if strings.Contains(m.Snippet+m.Passage+m.Title, "秘密") || strings.Contains(m.Snippet, "root:") {
				t.Errorf("%s search shows %s's target: %q", mode, m.Path, m.Snippet)
			}
			if m.Path != "a.md" && m.Path != "docs/b.md" && m.Path != "c.md" && m.Path != "d.md" && m.Path != "e.md" {
				t.Errorf("%s search: unexpected %s", mode, m.Path)
			}
		}
	}
	for _, rel := range []string{"a.md", "docs/b.md", "c.md", "d.md", "e.md"} {
		if runtime.GOOS != "linux" && rel == "d.md" {
			continue
		}
		if f, err := ReadFile(root, Rules{MaxFileSize: 1 << 20}, rel); err == nil {
			t.Errorf("ReadFile(%s) read %d lines; want a refusal", rel, len(f.Lines))
		}
	}
}
