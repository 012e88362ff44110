package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
)

// TestDamagedBoltFiles damages the manifest and Bleve's root.bolt in each
// way bbolt files are found damaged: a reader never panics (it opens a
// sound index or asks for a rebuild) and the next build sets the damage
// aside and indexes every file again.
func TestDamagedBoltFiles(t *testing.T) {
	for _, file := range []string{"manifest.db", filepath.Join("bleve", "store", "root.bolt")} {
		for _, kind := range configtest.BoltDamage {
			t.Run(filepath.Base(file)+"/"+kind, func(t *testing.T) {
				files := map[string]string{}
				for k, v := range baseTree {
					files[k] = v
				}
				for i := range 40 {
					files[fmt.Sprintf("追加/メモ%02d.md", i)] = fmt.Sprintf("# メモ%d\n\n会議室の予約は前日まで。番号 %d。\n", i, i)
				}
				root := tree(t, files)
				dir := configtest.TempDir(t)
				ix := openTest(t, root, dir)
				mustBuild(t, ix, BuildOptions{})
				// Rewrite half the files so that both bbolt files have
				// freed pages (a freelist) as they do after use.
				for i := range 20 {
					p := filepath.Join(root, "追加", fmt.Sprintf("メモ%02d.md", i))
					if err := os.WriteFile(p, []byte(fmt.Sprintf("# メモ%d\n\n書き換えた。番号 %d。\n", i, i)), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				mustBuild(t, ix, BuildOptions{})
				ix.Close()
				configtest.DamageBolt(t, filepath.Join(dir, file), kind)

				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("reader panicked: %v", r)
						}
					}()
					r, err := OpenReader(context.Background(), testOptions(root, dir))
					if err != nil {
						if !errors.Is(err, ErrNeedsRebuild) {
							t.Errorf("reader: %v, want ErrNeedsRebuild", err)
						}
						return
					}
					defer r.Close()
					pq, _ := ParseQuery("有給休暇")
					if _, err := r.Search(context.Background(), pq, SearchOptions{}); err != nil {
						t.Logf("search of a damaged index: %v", err)
					}
				}()

				var ix2 *Index
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("writer panicked: %v", r)
						}
					}()
					ix2 = openTest(t, root, dir)
				}()
				st := mustBuild(t, ix2, BuildOptions{})
				if st.Files != len(files) {
					t.Errorf("after the damage: %d files indexed, want %d (%+v)", st.Files, len(files), st)
				}
				if got := paths(find(t, ix2, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
					t.Errorf("search after the damage: %v", got)
				}
				ix2.Close()
			})
		}
	}
}

// TestAuditFindsSegmentDamage garbles the head of a segment file, which
// Bleve opens without complaint while the file's documents drop out of
// the results: the audit finds it by the segment's CRC and rebuilds.
func TestAuditFindsSegmentDamage(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	segs := builtSegments(t, root, dir)
	for _, p := range segs {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(bytes.Repeat([]byte{0x5A}, 64), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	ix := openTest(t, root, dir)
	defer ix.Close()
	// An ordinary build trusts the index (nothing changed on disk).
	if st := mustBuild(t, ix, BuildOptions{}); st.Rebuilt != "" {
		t.Errorf("a build without audit rebuilt: %q", st.Rebuilt)
	}
	st := mustBuild(t, ix, BuildOptions{Audit: true})
	if !strings.Contains(st.Rebuilt, "audit found the index damaged") || !strings.Contains(st.Rebuilt, "CRC") {
		t.Fatalf("audit: Rebuilt = %q, want the damage named", st.Rebuilt)
	}
	if st.Added != len(baseTree) {
		t.Errorf("after the audit: %+v, want every file indexed again", st)
	}
	if got := paths(find(t, ix, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("search after the audit: %v", got)
	}
	if st := mustBuild(t, ix, BuildOptions{Audit: true}); st.Rebuilt != "" {
		t.Errorf("a second audit rebuilt again: %q", st.Rebuilt)
	}
}

// builtSegments builds the index of root in dir, closes it and returns
// its segment files.
func builtSegments(t *testing.T, root, dir string) []string {
	t.Helper()
	ix := openTest(t, root, dir)
	mustBuild(t, ix, BuildOptions{})
	ix.Close()
	segs, _ := filepath.Glob(filepath.Join(dir, "bleve", "store", "*.zap"))
	if len(segs) == 0 {
		t.Fatal("no segment files")
	}
	return segs
}

// TestBuildRebuildsDamagedSegments damages the segment files and changes
// a document: the build that cannot update the damaged index (its
// segments no longer read) builds it anew, says so, and fails nothing.
func TestBuildRebuildsDamagedSegments(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	segs := builtSegments(t, root, dir)
	for _, p := range segs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := 100; i < len(b)/2; i += 97 {
			b[i] ^= 0xA5
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel := range baseTree {
		p := filepath.Join(root, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, "\n追記した行。\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := openTest(t, root, dir)
	defer ix.Close()
	st := mustBuild(t, ix, BuildOptions{})
	if !strings.Contains(st.Rebuilt, "damaged") {
		t.Fatalf("Rebuilt = %q, want the damage named", st.Rebuilt)
	}
	if st.Added != len(baseTree) {
		t.Errorf("after the rebuild: %+v, want every file indexed again", st)
	}
	if got := paths(find(t, ix, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("search after the rebuild: %v", got)
	}
}

// TestAuditFindsMissingPassages deletes passages from the index behind
// the manifest's back: the audit's count finds it.
func TestAuditFindsMissingPassages(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	e, ok, err := ix.man.get("規程/就業規則.md")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	for _, id := range e.IDs {
		if err := ix.b.Delete(id); err != nil {
			t.Fatal(err)
		}
	}
	st := mustBuild(t, ix, BuildOptions{Audit: true})
	if !strings.Contains(st.Rebuilt, "passages") {
		t.Fatalf("audit: Rebuilt = %q, want the count named", st.Rebuilt)
	}
	if got := paths(find(t, ix, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("search after the audit: %v", got)
	}
}

// TestForceLeavesNoCopy: a forced rebuild removes the sound old index
// instead of keeping it as bleve.damaged (twice the disk, a wrong name);
// damage is still kept aside for inspection.
func TestForceLeavesNoCopy(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	if st := mustBuild(t, ix, BuildOptions{Force: true}); st.Rebuilt != "forced" || st.Added != len(baseTree) {
		t.Fatalf("forced build: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "bleve.damaged")); err == nil {
		t.Error("a forced rebuild kept the old index as bleve.damaged")
	}
}

// TestFileThatCannotBeReadIsSkippedNotDeleted: a document that turns
// unreadable (here binary) leaves the index as a skipped file with its
// reason, not as a deleted one.
func TestFileThatCannotBeReadIsSkippedNotDeleted(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	if err := os.WriteFile(filepath.Join(root, "規程", "就業規則.md"), []byte("\x00\x01\x02 binary\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := mustBuild(t, ix, BuildOptions{})
	if st.Deleted != 0 || st.Skipped != 1 || st.Files != len(baseTree)-1 {
		t.Errorf("build: %+v, want 1 skipped and none deleted", st)
	}
	sk, err := ix.Skipped()
	if err != nil || len(sk) != 1 || sk[0].Path != "規程/就業規則.md" || sk[0].Why == "" {
		t.Errorf("skipped: %+v, %v", sk, err)
	}
}
