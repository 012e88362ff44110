package index

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"

	"lwr/analyzer"
	"lwr/config/configtest"
)

// tree writes files (relative path → content) under a new temp folder.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := configtest.TempDir(t)
	for rel, body := range files {
		writeFile(t, root, rel, body)
	}
	return root
}

func writeFile(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testOptions(root, dir string) Options {
	return Options{
		Root:        root,
		Dir:         dir,
		Rules:       Rules{Extensions: []string{".md", ".txt", ".csv", ".yaml", ".json"}, MaxFileSize: 1 << 20},
		LockTimeout: 300 * time.Millisecond,
	}
}

func openTest(t testing.TB, root, dir string) *Index {
	t.Helper()
	ix, err := Open(context.Background(), testOptions(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func mustBuild(t testing.TB, ix *Index, opts BuildOptions) BuildStats {
	t.Helper()
	st, err := ix.Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func find(t testing.TB, ix *Index, q string, opts SearchOptions) *Result {
	t.Helper()
	pq, err := ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(context.Background(), pq, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func paths(res *Result) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Path)
	}
	return out
}

var baseTree = map[string]string{
	"規程/就業規則.md":    "# 就業規則\n\n## 有給休暇\n有給休暇の申請は取得日の三日前までに行う。\n",
	"手順/コピー手順.md":   "# ファイルの複製\n\nファイルをコピーする手順を示す。\n`cp --preserve=all src dst` を使う。\n",
	"メモ/コンピュータ.txt": "コンピュータの設定メモ。PATH を確認すること。\nsnake_case_identifier と config.yaml を編集した。\n",
	"メモ/カタカナ.txt":   "カタカナ表記の統一について。\n",
}

func TestBuildIncremental(t *testing.T) {
	root := tree(t, baseTree)
	ix := openTest(t, root, configtest.TempDir(t))
	st := mustBuild(t, ix, BuildOptions{})
	if st.Added != 4 || st.Files != 4 || st.Read != 4 {
		t.Fatalf("first build: %+v", st)
	}

	writeFile(t, root, "メモ/新規.md", "# 新規\n会議室の予約方法。\n")                   // add
	writeFile(t, root, "規程/就業規則.md", "# 就業規則\n\n## 特別休暇\n慶弔休暇について。\n")    // modify
	if err := os.Remove(filepath.Join(root, "メモ/カタカナ.txt")); err != nil { // delete
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "手順/コピー手順.md"), filepath.Join(root, "手順/複製手順.md")); err != nil { // rename
		t.Fatal(err)
	}
	st = mustBuild(t, ix, BuildOptions{})
	want := BuildStats{Added: 2, Updated: 1, Deleted: 2, Unchanged: 1, Files: 4}
	if st.Added != want.Added || st.Updated != want.Updated || st.Deleted != want.Deleted || st.Unchanged != want.Unchanged || st.Files != want.Files {
		t.Fatalf("second build: %+v, want %+v", st, want)
	}
	if got := paths(find(t, ix, "会議室", SearchOptions{})); !slices.Equal(got, []string{"メモ/新規.md"}) {
		t.Errorf("added file: %v", got)
	}
	if got := paths(find(t, ix, "有給", SearchOptions{})); len(got) != 0 {
		t.Errorf("old text still found: %v", got)
	}
	if got := paths(find(t, ix, "慶弔休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("modified file: %v", got)
	}
	if got := paths(find(t, ix, "カタカナ 表記", SearchOptions{})); len(got) != 0 {
		t.Errorf("deleted file found: %v", got)
	}
	if got := paths(find(t, ix, "コピー", SearchOptions{})); !slices.Equal(got, []string{"手順/複製手順.md"}) {
		t.Errorf("renamed file: %v", got)
	}

	// Touching a file without changing it re-reads it but re-indexes nothing.
	now := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(root, "メモ/新規.md"), now, now); err != nil {
		t.Fatal(err)
	}
	st = mustBuild(t, ix, BuildOptions{})
	if st.Changed() || st.Read != 1 || st.Unchanged != 4 {
		t.Errorf("touch: %+v", st)
	}
}

func TestNoopBuildReadsNoContent(t *testing.T) {
	root := tree(t, baseTree)
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	st := mustBuild(t, ix, BuildOptions{})
	if st.Read != 0 || st.Changed() || st.Unchanged != 4 {
		t.Errorf("no-op build: %+v", st)
	}
}

func TestAuditRehashesEveryFile(t *testing.T) {
	root := tree(t, baseTree)
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	later := func() time.Time { return time.Now().Add(25 * time.Hour) }
	st := mustBuild(t, ix, BuildOptions{Now: later})
	if !st.Audited || st.Read != 4 || st.Changed() {
		t.Errorf("audit: %+v", st)
	}
	st = mustBuild(t, ix, BuildOptions{Now: later})
	if st.Audited || st.Read != 0 {
		t.Errorf("after audit: %+v", st)
	}
	// Content changed behind an unchanged mtime and size is caught by an audit.
	p := filepath.Join(root, "メモ/カタカナ.txt")
	info, _ := os.Stat(p)
	if err := os.WriteFile(p, []byte("ひらがな表記の統一について。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, info.ModTime(), info.ModTime())
	st = mustBuild(t, ix, BuildOptions{Audit: true})
	if st.Updated != 1 {
		t.Errorf("audit after hidden change: %+v", st)
	}
}

func TestSidecarChangeReindexes(t *testing.T) {
	root := tree(t, map[string]string{"手順/経費.md": "# 経費\n本文。\n", "手順/経費.md.meta.yaml": "summary: 出張旅費の精算\n"})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	if got := paths(find(t, ix, "出張旅費", SearchOptions{})); !slices.Equal(got, []string{"手順/経費.md"}) {
		t.Fatalf("sidecar summary not searchable: %v", got)
	}
	writeFile(t, root, "手順/経費.md.meta.yaml", "summary: 交通費の立替\n")
	st := mustBuild(t, ix, BuildOptions{})
	if st.Updated != 1 {
		t.Errorf("sidecar change: %+v", st)
	}
	if got := paths(find(t, ix, "交通費", SearchOptions{})); !slices.Equal(got, []string{"手順/経費.md"}) {
		t.Errorf("new summary not searchable: %v", got)
	}
}

func TestAnalysisThroughSearch(t *testing.T) {
	root := tree(t, map[string]string{
		"a.md": "コンピュータの設定を行う。\n",
		"b.md": "コンピューターを再起動する。\n",
		"c.md": "PATH を設定する。\n",
		"d.md": "カタカナの表記。\n",
		"e.md": "ファイルをコピーする。\n",
		"f.md": "値は snake_case_identifier に入れる。\n設定は config.yaml に書く。\ncp --preserve=all を使う。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	tests := []struct {
		query string
		want  []string
	}{
		{"コンピューター", []string{"a.md", "b.md"}},
		{"コンピュータ", []string{"a.md", "b.md"}},
		{"ＰＡＴＨ", []string{"c.md"}},
		{"ｶﾀｶﾅ", []string{"d.md"}},
		{"コピーした", []string{"e.md"}},
		{"snake_case_identifier", []string{"f.md"}},
		{"config.yaml", []string{"f.md"}},
		{"--preserve", []string{"f.md"}},
		{"の", nil},
		{"を", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := paths(find(t, ix, tt.query, SearchOptions{}))
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("search %q = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

func TestEncodingsFound(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("旧規程：文書の保存年限は七年とする。押印簿を備える。\n")
	euc, _ := japanese.EUCJP.NewEncoder().String("古いメモ：稟議書の回覧順序について。\n")
	root := tree(t, map[string]string{"sjis.txt": sjis, "euc.txt": euc})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for q, want := range map[string]string{"押印簿": "sjis.txt", "保存年限": "sjis.txt", "稟議書": "euc.txt", "回覧順序": "euc.txt"} {
		res := find(t, ix, q, SearchOptions{})
		if got := paths(res); !slices.Equal(got, []string{want}) {
			t.Errorf("search %q = %v, want %s", q, got, want)
			continue
		}
		if m := res.Matches[0]; !strings.Contains(m.Snippet, q) {
			t.Errorf("snippet %q of %s lacks %q (decoded wrong?)", m.Snippet, want, q)
		}
	}
}

func TestSecretsNeverIndexed(t *testing.T) {
	const secret = "lwr-planted-secret-7f3a"
	root := tree(t, map[string]string{
		"ok.md":            "# 普通の文書\n公開してよい内容。\n",
		".env":             "API_TOKEN=" + secret + "\n",
		"config/.env":      "TOKEN=" + secret + "\n",
		"secrets.yaml":     "token: " + secret + "\n",
		"sub/secrets.json": `{"token": "` + secret + `"}`,
		".private/memo.md": "秘密 " + secret + "\n",
		"old.md.bak":       secret + "\n",
		"draft.md~":        secret + "\n",
		"bin.txt":          "\x00\x01\x02" + secret,
	})
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	st := mustBuild(t, ix, BuildOptions{})
	if st.Files != 1 {
		t.Errorf("indexed %d files, want only ok.md", st.Files)
	}
	res := find(t, ix, secret, SearchOptions{Mode: FullText})
	if len(res.Matches) != 0 {
		t.Errorf("full-text search found the secret in %v", paths(res))
	}
	ix.Close()
	// Nothing of the index may hold the secret, in any encoding of its words.
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, needle := range []string{secret, "planted", "7f3a"} {
			if bytes.Contains(b, []byte(needle)) {
				t.Errorf("%s holds %q", p, needle)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSecondWriterIsRefusedWithItsName(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	mustBuild(t, ix, BuildOptions{})
	opts := testOptions(root, dir)
	start := time.Now()
	_, err := Open(context.Background(), opts)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: %v", err)
	}
	if le.PID != os.Getpid() || !strings.Contains(err.Error(), "in use by process") {
		t.Errorf("error does not name the holder: %v", err)
	}
	// The wait ends at the timeout (a guard against waiting forever, not a
	// measure of it: a loaded machine only makes it longer).
	if time.Since(start) > time.Minute {
		t.Errorf("waited %s for a %s lock timeout", time.Since(start), opts.LockTimeout)
	}
	if _, err := OpenReader(context.Background(), opts); !errors.Is(err, ErrLocked) {
		t.Errorf("reader during a write: %v", err)
	}
	if h, ok := LockHolder(dir); !ok || h.PID != os.Getpid() || h.Role != RoleBuild || h.Daemon() {
		t.Errorf("LockHolder = %+v, %v; want this process, %s", h, ok, RoleBuild)
	}
	ix.Close()
	if h, ok := LockHolder(dir); ok {
		t.Errorf("LockHolder after close = %+v, want none", h)
	}
}

func TestReaderNeedsBuiltIndex(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	if _, err := OpenReader(context.Background(), testOptions(root, dir)); !errors.Is(err, ErrNotIndexed) {
		t.Fatalf("no index: %v", err)
	}
	if _, err := OpenReader(context.Background(), testOptions(filepath.Join(root, "missing"), dir)); !errors.Is(err, ErrNoRoot) {
		t.Fatalf("missing root: %v", err)
	}
	ix := openTest(t, root, dir)
	mustBuild(t, ix, BuildOptions{})
	ix.Close()
	r, err := OpenReader(context.Background(), testOptions(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := paths(find(t, r, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("reader search: %v", got)
	}
	// Two readers share the index.
	r2, err := OpenReader(context.Background(), testOptions(root, dir))
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	r2.Close()
}

func TestDamagedIndexIsRebuilt(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"root.bolt truncated", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, "bleve", "store", "root.bolt"), 100); err != nil {
				t.Fatal(err)
			}
		}},
		{"segments removed", func(t *testing.T, dir string) {
			m, _ := filepath.Glob(filepath.Join(dir, "bleve", "store", "*.zap"))
			if len(m) == 0 {
				t.Fatal("no segment files")
			}
			for _, p := range m {
				os.Remove(p)
			}
		}},
		{"index meta garbage", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "bleve", "index_meta.json"), []byte("{garbage"), 0o600)
		}},
		{"manifest garbage", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.db"), bytes.Repeat([]byte{0xAB}, 8192), 0o600)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, baseTree)
			dir := configtest.TempDir(t)
			ix := openTest(t, root, dir)
			mustBuild(t, ix, BuildOptions{})
			ix.Close()
			tt.damage(t, dir)
			if r, err := OpenReader(context.Background(), testOptions(root, dir)); err == nil {
				// A reader may still open a damaged manifest's index; the
				// index itself must be fine then.
				if tt.name != "manifest garbage" {
					t.Errorf("reader opened a damaged index")
				}
				r.Close()
			} else if !errors.Is(err, ErrNeedsRebuild) {
				t.Errorf("reader: %v, want ErrNeedsRebuild", err)
			}
			ix2 := openTest(t, root, dir)
			st := mustBuild(t, ix2, BuildOptions{})
			if st.Files != 4 || st.Added != 4 {
				t.Errorf("rebuild: %+v", st)
			}
			if got := paths(find(t, ix2, "有給休暇", SearchOptions{})); !slices.Equal(got, []string{"規程/就業規則.md"}) {
				t.Errorf("after rebuild: %v", got)
			}
		})
	}
}

func TestSchemaChangeRebuilds(t *testing.T) {
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	mustBuild(t, ix, BuildOptions{})
	if err := ix.setInternal(map[string]string{keySchema: "lwr-index-0"}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if _, err := OpenReader(context.Background(), testOptions(root, dir)); !errors.Is(err, ErrNeedsRebuild) {
		t.Fatalf("reader of an old schema: %v", err)
	}
	ix2 := openTest(t, root, dir)
	if ix2.Rebuilt == "" {
		t.Error("Open did not rebuild an index of another schema")
	}
	if st := mustBuild(t, ix2, BuildOptions{}); st.Added != 4 {
		t.Errorf("rebuild: %+v", st)
	}
}

func TestIndexInsideRootRefused(t *testing.T) {
	root := tree(t, baseTree)
	_, err := Open(context.Background(), testOptions(root, filepath.Join(root, "cache")))
	if err == nil || !strings.Contains(err.Error(), "inside the source root") {
		t.Errorf("index inside root: %v", err)
	}
}

// A no-op build of an unchanged tree must not load the dictionary (it costs
// a second and 145 MB). The check runs in a fresh process.
func TestNoopBuildLoadsNoDictionary(t *testing.T) {
	if dir := os.Getenv("LWR_TEST_NOOP_DIR"); dir != "" {
		ix, err := Open(context.Background(), testOptions(os.Getenv("LWR_TEST_NOOP_ROOT"), dir))
		if err != nil {
			t.Fatal(err)
		}
		st, err := ix.Build(context.Background(), BuildOptions{})
		ix.Close()
		if err != nil {
			t.Fatal(err)
		}
		if st.Read != 0 || analyzer.Default().Loaded() {
			t.Fatalf("no-op build read %d files, dictionary loaded: %v", st.Read, analyzer.Default().Loaded())
		}
		return
	}
	root := tree(t, baseTree)
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	mustBuild(t, ix, BuildOptions{})
	ix.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoopBuildLoadsNoDictionary$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LWR_TEST_NOOP_DIR="+dir, "LWR_TEST_NOOP_ROOT="+root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// Everyday words of a question find the formal words of the documents
// through the embedded paraphrases (持ち主 → 所有者, 変える → 変更).
func TestEverydayWordsFindFormalText(t *testing.T) {
	root := tree(t, map[string]string{
		"owner.md": "# 所有者の変更\n\nファイルの所有者を変更する手順。\n",
		"view.md":  "# 閲覧\n\nファイルの中身を表示する手順。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	q := "ファイルの持ち主を変えたい"
	if got := paths(find(t, ix, q, SearchOptions{Dictionary: analyzer.DefaultSynonyms()})); len(got) == 0 || got[0] != "owner.md" {
		t.Errorf("search %q = %v, want owner.md first", q, got)
	}
}

// A file skipped after it was read (binary, undecodable) is named with its
// reason, not read again by the next builds while it stays as it is, and
// indexed once it becomes text.
func TestSkippedFilesAreRemembered(t *testing.T) {
	root := tree(t, map[string]string{"a.md": "# 見出し\n有給休暇\n", "bin.md": "\x00\x01\x02binary\x00", "secrets.md": "pw"})
	ix := openTest(t, root, configtest.TempDir(t))
	st := mustBuild(t, ix, BuildOptions{})
	if st.Skipped != 2 {
		t.Fatalf("first build skipped %d files, want 2", st.Skipped)
	}
	again := mustBuild(t, ix, BuildOptions{})
	if again.Read != 0 || again.Skipped != 2 {
		t.Errorf("second build read %d files and skipped %d; want 0 and 2", again.Read, again.Skipped)
	}
	if n, err := ix.Changes(); err != nil || n != 0 {
		t.Errorf("Changes = %d, %v; want none", n, err)
	}
	skips, err := ix.Skipped()
	if err != nil || len(skips) != 2 || skips[0].Path != "bin.md" || skips[0].Why != "binary file" || skips[1].Path != "secrets.md" || skips[1].Why != "secret" {
		t.Errorf("Skipped = %+v, %v", skips, err)
	}
	writeFile(t, root, "bin.md", "# 直した\n本文\n")
	if n, _ := ix.Changes(); n != 1 {
		t.Errorf("Changes after an edit = %d, want 1", n)
	}
	if st := mustBuild(t, ix, BuildOptions{}); st.Added != 1 || st.Skipped != 1 {
		t.Errorf("build after the fix: %+v", st)
	}
}

// A file that cannot be opened is tried again at every build (its mode
// changes without its mtime): once readable it is indexed again.
func TestUnreadableFileIsTriedAgain(t *testing.T) {
	if !retry(Skip{Why: unreadablePrefix + "open: permission denied"}, Rules{}) || retry(Skip{Why: "binary file"}, Rules{}) {
		t.Fatal("retry: an unreadable file must be tried again, a binary one not")
	}
	root := tree(t, map[string]string{"a.md": "# 見出し\n有給休暇\n", "b.md": "# 規程\n慶弔見舞金\n"})
	abs := filepath.Join(root, "b.md")
	if err := os.Chmod(abs, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(abs, 0o644)
	if f, err := os.Open(abs); err == nil {
		f.Close()
		t.Skip("this user reads files whatever their mode")
	}
	ix := openTest(t, root, configtest.TempDir(t))
	if st := mustBuild(t, ix, BuildOptions{}); st.Skipped != 1 || st.Added != 1 {
		t.Fatalf("build with b.md unreadable: %+v", st)
	}
	if err := os.Chmod(abs, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := mustBuild(t, ix, BuildOptions{}); st.Added != 1 || st.Skipped != 0 {
		t.Errorf("build after chmod 644: %+v", st)
	}
	if got := paths(find(t, ix, "慶弔見舞金", SearchOptions{Limit: 3, MaxChars: 80})); len(got) != 1 || got[0] != "b.md" {
		t.Errorf("search after the file came back: %v", got)
	}
}
