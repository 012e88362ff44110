package index

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

func TestReadFile(t *testing.T) {
	root := tree(t, map[string]string{
		"規程/就業規則.md":    "# 就業規則\r\n\r\n第1条\r\n",
		".env":          "TOKEN=x",
		"secrets.yaml":  "k: v",
		".private/a.md": "# 秘",
		"logo.png":      "\x89PNG",
	})
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("旧規程\n保存期間は五年\n")
	writeFile(t, root, "規程/旧規程.txt", sjis)
	f, err := ReadFile(root, Rules{}, "規程/就業規則.md")
	if err != nil || len(f.Lines) != 3 || f.Lines[2] != "第1条" || f.Rel != "規程/就業規則.md" || f.SHA256 == "" {
		t.Fatalf("ReadFile = %+v, %v", f, err)
	}
	if f, err := ReadFile(root, Rules{}, "規程/旧規程.txt"); err != nil || f.Lines[1] != "保存期間は五年" || f.Encoding != "shift_jis" {
		t.Errorf("Shift_JIS file: %+v, %v", f, err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(root, ".env"), filepath.Join(root, "link.md")); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"../outside.md", "/etc/passwd", "", ".", ".env", "secrets.yaml", ".private/a.md", "logo.png", "link.md", "規程/../../x.md"} {
		if runtime.GOOS == "windows" && rel == "link.md" {
			continue
		}
		if _, err := ReadFile(root, Rules{}, rel); !errors.Is(err, ErrNotDocument) {
			t.Errorf("ReadFile(%q) = %v, want ErrNotDocument", rel, err)
		}
	}
	if _, err := ReadFile(root, Rules{}, "規程/ない.md"); err == nil || errors.Is(err, ErrNotDocument) {
		t.Errorf("a missing document: %v", err)
	}
}
