package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/local/daemon"
	"lwr/research/researchtest"
)

func TestDaemonAppliesChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.WriteTree(t, map[string]string{
		"規程/就業規則.md": "# 就業規則\n\n有給休暇の申請は三日前まで。\n",
		"メモ/会議.txt":  "会議室の予約は前日まで。\n",
	})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	d := startDaemonProc(t, env, root, cache)
	has := func(word string, want ...string) func() bool {
		return func() bool {
			got := lwrPaths(t, env, root, cache, "--mode", "fulltext", word)
			slices.Sort(got)
			return slices.Equal(got, want)
		}
	}
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		change func()
		word   string
		want   []string
	}{
		{"create", func() { write("メモ/新規.md", "# 新規\nユニコーン計画の概要。\n") }, "ユニコーン計画", []string{"メモ/新規.md"}},
		{"modify", func() { write("メモ/新規.md", "# 新規\nペガサス計画の概要。\n") }, "ペガサス計画", []string{"メモ/新規.md"}},
		{"modified text gone", func() {}, "ユニコーン計画", nil},
		{"delete", func() { os.Remove(filepath.Join(root, "メモ", "会議.txt")) }, "会議室", nil},
		{"rename", func() {
			os.Rename(filepath.Join(root, "メモ", "新規.md"), filepath.Join(root, "メモ", "改名.md"))
		}, "ペガサス計画", []string{"メモ/改名.md"}},
		{"new nested folder", func() {
			write("新部署/2026/第一課/手順.md", "# 手順\nグリフォン手順の説明。\n")
			write("新部署/2026/第一課/メモ.txt", "グリフォン手順の補足。\n")
		}, "グリフォン手順", []string{"新部署/2026/第一課/メモ.txt", "新部署/2026/第一課/手順.md"}},
		{"rename-over save", func() {
			tmp := filepath.Join(root, "規程", ".就業規則.md.swp")
			os.WriteFile(tmp, []byte("# 就業規則\n\nキメラ休暇の申請は三日前まで。\n"), 0o644)
			os.Rename(tmp, filepath.Join(root, "規程", "就業規則.md"))
		}, "キメラ休暇", []string{"規程/就業規則.md"}},
		{"renamed folder", func() {
			os.Rename(filepath.Join(root, "新部署"), filepath.Join(root, "旧部署"))
		}, "グリフォン手順", []string{"旧部署/2026/第一課/メモ.txt", "旧部署/2026/第一課/手順.md"}},
		{"file in the renamed folder", func() { write("旧部署/2026/第一課/追記.md", "スフィンクス追記。\n") }, "スフィンクス追記", []string{"旧部署/2026/第一課/追記.md"}},
		{"deleted folder", func() { os.RemoveAll(filepath.Join(root, "旧部署")) }, "グリフォン手順", nil},
	}
	for _, s := range steps {
		s.change()
		took := eventually(t, hangGuard, s.name+" to be searchable", has(s.word, s.want...))
		t.Logf("%s: searchable after %s", s.name, took.Round(time.Millisecond))
	}
	// lwr index stop stops it cleanly and removes the socket.
	if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "stop").CombinedOutput(); err != nil || !strings.Contains(string(out), "daemon stopped") {
		t.Fatalf("stop: %v %s", err, out)
	}
	select {
	case err := <-d.done:
		d.done <- err
		if err != nil {
			t.Errorf("daemon exit: %v", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("daemon did not exit")
	}
	if _, err := os.Stat(filepath.Join(d.dir, "daemon.sock")); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}

func TestDaemonKilledInABurstRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := configtest.TempDir(t)
	for i := range 50 {
		p := filepath.Join(root, fmt.Sprintf("初期/文書%03d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("# 文書%03d\n共通語彙 初期%03d\n", i, i)), 0o644)
	}
	env := testEnv(t)
	cache := configtest.TempDir(t)
	d := startDaemonProc(t, env, root, cache)
	// A burst of changes, the daemon killed in the middle of it.
	for i := range 400 {
		p := filepath.Join(root, fmt.Sprintf("追加/%02d/文書%03d.md", i%10, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("# 追加%03d\n共通語彙 バースト%03d\n", i, i)), 0o644)
		if i%50 == 0 {
			os.Remove(filepath.Join(root, fmt.Sprintf("初期/文書%03d.md", i/50)))
		}
		if i == 250 {
			_ = d.cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	<-d.done
	d.done <- nil
	startDaemonProc(t, env, root, cache)
	fresh := configtest.TempDir(t)
	for _, q := range [][]string{{"共通語彙", "--max-files", "500", "--max-chars", "60"}, {"--mode", "fulltext", "バースト399"}, {"--mode", "fulltext", "初期003"}, {"--mode", "fulltext", "初期001"}} {
		got := searchJSON(t, env, root, cache, q...)
		want := searchJSON(t, env, root, fresh, q...)
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Errorf("search %v after the restart differs from a fresh build at %d: %s vs %s", q, i, got[i], want[i])
					break
				}
			}
			t.Errorf("search %v after the restart differs from a fresh build: %d vs %d results", q, len(got), len(want))
		}
	}
}

func TestDaemonPollMode(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# a\n本文。\n"})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	startDaemonProc(t, env, root, cache, "--poll", "200ms")
	os.WriteFile(filepath.Join(root, "b.md"), []byte("# b\nポーリング検出語。\n"), 0o644)
	took := eventually(t, hangGuard, "a new file to be searchable in poll mode", func() bool {
		return slices.Equal(lwrPaths(t, env, root, cache, "--mode", "fulltext", "ポーリング検出語"), []string{"b.md"})
	})
	t.Logf("poll mode: searchable after %s", took.Round(time.Millisecond))
	out, _ := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "status").Output()
	if !strings.Contains(string(out), "poll") {
		t.Errorf("status does not say poll:\n%s", out)
	}
}

func TestDaemonDetachAndAutostart(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# a\n自動起動の確認。\n"})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	dir, _ := index.DirFor(cache, root)
	stop := func() {
		out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "stop").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "daemon stopped") {
			t.Errorf("stop: %v %s", err, out)
		}
	}
	out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "watch", "--detach").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "daemon started") {
		t.Fatalf("detach: %v %s", err, out)
	}
	if _, err := daemon.Dial(dir, "", 10*time.Second); err != nil {
		t.Fatalf("detached daemon does not answer: %v", err)
	}
	// A second one is refused with the first one's process, not announced.
	c := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "watch", "--detach")
	out, err = c.CombinedOutput()
	if err == nil || c.ProcessState.ExitCode() != exitBusy || !strings.Contains(string(out), "already running") || strings.Contains(string(out), "daemon started") {
		t.Errorf("second detach: exit %d: %s", c.ProcessState.ExitCode(), out)
	}
	stop()

	// With search.autostart, a search that finds no daemon leaves one.
	auto := append(slices.Clone(env), "LWR_SEARCH_AUTOSTART=true")
	if got := lwrPaths(t, auto, root, cache, "自動起動"); !slices.Equal(got, []string{"a.md"}) {
		t.Fatalf("search: %v", got)
	}
	eventually(t, hangGuard, "the autostarted daemon to answer", func() bool {
		cl, err := daemon.Dial(dir, "", 10*time.Second)
		if err != nil {
			return false
		}
		_, err = cl.Status(context.Background())
		return err == nil
	})
	stop()
}

// TestIndexBuildAsksTheDaemon: lwr index build while a daemon keeps the
// index asks it to sync now and waits, so that a script that builds and
// then searches finds what it just wrote; --force goes through too.
func TestIndexBuildAsksTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.WriteTree(t, map[string]string{"規程/就業規則.md": "# 就業規則\n\n有給休暇の申請は三日前まで。\n"})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	d := startDaemonProc(t, env, root, cache)
	researchtest.WriteFile(t, filepath.Join(root, "メモ", "新規.md"), "# 新規\n\nユニコーン計画の概要。\n")
	out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "build").CombinedOutput()
	if err != nil {
		t.Fatalf("index build with a daemon: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("the daemon (process %d) keeps this index", d.cmd.Process.Pid)) || !strings.Contains(string(out), "indexed ") {
		t.Errorf("index build printed:\n%s", out)
	}
	// No waiting: the build returned after the sync.
	if got := lwrPaths(t, env, root, cache, "--mode", "fulltext", "ユニコーン計画"); !slices.Equal(got, []string{"メモ/新規.md"}) {
		t.Errorf("search right after the build: %v", got)
	}
	out, err = lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "build", "--force").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "rebuilt: forced") || !strings.Contains(string(out), "2 added") {
		t.Errorf("index build --force with a daemon: %v\n%s", err, out)
	}
	if got := lwrPaths(t, env, root, cache, "有給休暇"); !slices.Equal(got, []string{"規程/就業規則.md"}) {
		t.Errorf("search after the forced build: %v", got)
	}
}
