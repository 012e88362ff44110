package main

import (
	"fmt"
	"lwr/config/configtest"
	"math/rand/v2"
	"os"
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
	root := configtest.TempDir(t)
	writeCorpus(t, root, 900, r)
	env := testEnv(t)
	cache := filepath.Join(configtest.TempDir(t), "killed")

	// Time one build to choose kill points inside it.
	fresh := filepath.Join(configtest.TempDir(t), "probe")
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
	fresh = filepath.Join(configtest.TempDir(t), "fresh")
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
