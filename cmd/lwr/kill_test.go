package main

import (
	"encoding/json"
	"fmt"
	"lwr/research/local"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

var sentences = []string{
	"有給休暇の申請は取得日の三日前までに所属長へ提出する。",
	"出張旅費の精算は帰着後一週間以内に行うこと。",
	"契約金額が上限を超える場合は入札とする。",
	"パスワードは九十日ごとに変更しなければならない。",
	"バックアップは毎晩二時に外部ストレージへ退避する。",
	"障害発生時はエラーログを確認し、例外の内容を記録する。",
	"会議室の予約はシステムから前日までに行う。",
	"コンピューターの再起動は業務時間外に実施する。",
	"設定ファイル config.yaml の snake_case_key を編集する。",
	"cp --preserve=all で属性を保ったままコピーした。",
	"個人情報を含む文書は施錠できる棚に保管する。",
	"新人研修では情報セキュリティの基礎を学ぶ。",
	"VPN 接続には多要素認証が必要である。",
	"経費精算の決裁基準は金額により異なる。",
	"テレワークの申請は月末までに提出する。",
	"ログ監視の閾値を超えた場合は担当者へ通知する。",
}

// writeCorpus writes n generated documents under root.
func writeCorpus(t *testing.T, root string, n int, r *rand.Rand) {
	t.Helper()
	for i := range n {
		writeDoc(t, root, i, r)
	}
}

func docPath(root string, i int) string {
	return filepath.Join(root, fmt.Sprintf("部署%02d", i%23), fmt.Sprintf("文書%04d.md", i))
}

func writeDoc(t *testing.T, root string, i int, r *rand.Rand) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# 文書%04d 第%d版\n\n", i, r.IntN(5)+1)
	lines := 40 + r.IntN(60)
	for l := range lines {
		if l%9 == 8 {
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "%s 番号%d。\n", sentences[r.IntN(len(sentences))], r.IntN(1000))
	}
	p := docPath(root, i)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lwrCmd(env []string, args ...string) *exec.Cmd {
	c := exec.Command(lwrBin, args...)
	c.Env = env
	return c
}

// searchJSON runs lwr search and returns the matches as comparable strings.
func searchJSON(t *testing.T, env []string, root, cache string, args ...string) []string {
	t.Helper()
	out, err := lwrCmd(env, append([]string{"--source-root", root, "--cache-dir", cache, "search", "--format", "json"}, args...)...).Output()
	if err != nil {
		t.Fatalf("search %v: %v\n%s", args, err, out)
	}
	var res local.AgentResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, fmt.Sprintf("%s:%d-%d %q %v", m.Path, m.SnippetStartLine, m.SnippetEndLine, m.Snippet, m.Score))
	}
	return got
}

// A build killed with SIGKILL at random points, again and again while the
// tree changes, must be followed by a build whose search results equal
// those of a fresh full build.
func TestKilledBuildsConvergeToAFreshBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	seed := uint64(1)
	if s := os.Getenv("LWR_TEST_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	root := t.TempDir()
	writeCorpus(t, root, 900, r)
	env := testEnv(t)
	cache := filepath.Join(t.TempDir(), "killed")

	// Time one build to choose kill points inside it.
	fresh := filepath.Join(t.TempDir(), "probe")
	start := time.Now()
	if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", fresh, "index", "build").CombinedOutput(); err != nil {
		t.Fatalf("probe build: %v\n%s", err, out)
	}
	full := time.Since(start)

	// Kill builds until at least four were killed: the first while it
	// creates the index, the others while they apply many changes.
	kills, round := 0, 0
	for ; kills < 4 && round < 20; round++ {
		c := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "build")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		delay := time.Duration(r.Int64N(int64(full) / 2))
		if round == 0 {
			delay = time.Duration(r.Int64N(int64(full)))
		}
		select {
		case <-done:
		case <-time.After(delay):
			_ = c.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
		}
		// Change the tree between rounds: edit a third of it, delete,
		// add and rename a few files.
		for range 300 {
			writeDoc(t, root, r.IntN(900), r)
		}
		os.Remove(docPath(root, r.IntN(900)))
		writeDoc(t, root, 900+round, r)
		a := docPath(root, r.IntN(900))
		_ = os.Rename(a, strings.TrimSuffix(a, ".md")+"-改.md")
	}
	if kills < 4 {
		t.Fatalf("only %d of %d builds were killed", kills, round)
	}
	if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "build").CombinedOutput(); err != nil {
		t.Fatalf("build after kills: %v\n%s", err, out)
	}
	fresh = filepath.Join(t.TempDir(), "fresh")
	if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", fresh, "index", "build").CombinedOutput(); err != nil {
		t.Fatalf("fresh build: %v\n%s", err, out)
	}
	queries := [][]string{
		{"有給休暇", "--max-files", "30"},
		{"パスワード 変更", "--max-files", "30"},
		{"コンピュータ 再起動", "--max-files", "30"},
		{"config.yaml"},
		{"文書0042"},
		{"第3版 バックアップ", "--max-files", "20"},
		{"--mode", "fulltext", "snake_case_key"},
		{"--mode", "fulltext", "番号77。"},
		{"--mode", "fulltext", "改"},
	}
	for _, q := range queries {
		got := searchJSON(t, env, root, cache, q...)
		want := searchJSON(t, env, root, fresh, q...)
		if !slices.Equal(got, want) {
			t.Errorf("search %v after %d killed builds differs from a fresh build\n got %d: %.300v\nwant %d: %.300v", q, kills, len(got), got, len(want), want)
		}
	}
	t.Logf("%d of %d builds killed (a full build takes %s); results equal a fresh build", kills, round, full.Round(time.Millisecond))
}
