//go:build !windows

package main

import (
	"fmt"
	"lwr/config/configtest"
	"lwr/research/researchtest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestDaemonRefusalsAndFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# 見出し\n有給休暇の申請。\n"})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	d := startDaemonProc(t, env, root, cache)
	t.Cleanup(func() { _ = d.cmd.Process.Signal(syscall.SIGCONT) })

	// A second daemon for the same root refuses, naming the first.
	out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "watch").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBusy || !strings.Contains(string(out), fmt.Sprintf("already running (process %d)", d.cmd.Process.Pid)) {
		t.Errorf("second daemon: %v %s", err, out)
	}

	// A hung daemon: the search fails with a clear message (after
	// search.daemon_timeout of its silence).
	_ = d.cmd.Process.Signal(syscall.SIGSTOP)
	out, err = lwrCmd(env, "--source-root", root, "--cache-dir", cache, "search", "有給休暇").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBusy || !strings.Contains(string(out), "does not answer") {
		t.Errorf("search with a hung daemon: exit %v: %s", err, out)
	}
	// A build asks the daemon to sync: a hung one is reported, not waited
	// for forever.
	out, err = lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "build").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBusy || !strings.Contains(string(out), "does not answer") {
		t.Errorf("build with a hung daemon: exit %v: %s", err, out)
	}
	_ = d.cmd.Process.Signal(syscall.SIGCONT)

	// A killed daemon leaves a stale socket: search still works without
	// it, and the next daemon cleans it.
	_ = d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.done
	d.done <- nil
	if _, err := os.Stat(filepath.Join(d.dir, "daemon.sock")); err != nil {
		t.Fatalf("expected a stale socket: %v", err)
	}
	if got := lwrPaths(t, env, root, cache, "有給休暇"); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("search with a stale socket: %v", got)
	}
	// The search says that the index may be stale since.
	if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "search", "--format", "json", "有給休暇").Output(); err != nil || !strings.Contains(string(out), "索引が古い可能性") {
		t.Errorf("search after the daemon was killed does not say the index may be stale: %v %s", err, out)
	}
	startDaemonProc(t, env, root, cache)
	if got := lwrPaths(t, env, root, cache, "有給休暇"); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("search through the new daemon: %v", got)
	}
	info, err := os.Stat(filepath.Join(d.dir, "daemon.sock"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v %v", info.Mode(), err)
	}
}
