package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
)

// On Windows one folder spelled in another case or with other separators
// has one index, and exclusions ignore case.
func TestWindowsPathsIgnoreCase(t *testing.T) {
	root := filepath.Join(configtest.TempDir(t), "Skill-Source")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	cache := `C:\cache`
	a, err := DirFor(cache, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{strings.ToUpper(root), strings.ToLower(root), strings.ReplaceAll(root, `\`, "/"), root + `\`} {
		b, err := DirFor(cache, other)
		if err != nil || b != a {
			t.Errorf("DirFor(%q) = %q, %v; want %q as for %q", other, b, err, a, root)
		}
	}
	if !within(`C:\Users\U\Docs\.cache\lwr`, `c:\users\u\docs`) || within(`C:\Users\U\Docs2`, `C:\Users\U\Docs`) {
		t.Error("within does not compare Windows paths without case")
	}
	r := Rules{Extensions: []string{".md"}, Exclude: []string{"Drafts/*", "*.TMP.md"}}
	for _, rel := range []string{"drafts/a.md", "DRAFTS/b.md", "メモ/x.tmp.md"} {
		if r.Excluded(rel) == "" {
			t.Errorf("%s is not excluded by %v", rel, r.Exclude)
		}
	}
	if !pathIn("規程/Old/a.md", []string{`規程\old`}) {
		t.Error("a search's --exclude-path with backslashes and another case does not exclude")
	}
}
