package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"lwr/index"
	"lwr/research/local"
	"lwr/research/local/daemon"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Helpers of the tests that start lwr processes.

// daemonProc is an `lwr index watch` process started by a test.
type daemonProc struct {
	cmd  *exec.Cmd
	dir  string // index folder
	done chan error
}

func startDaemonProc(t *testing.T, env []string, root, cache string, extra ...string) *daemonProc {
	t.Helper()
	dir, err := index.DirFor(cache, root)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--source-root", root, "--cache-dir", cache, "index", "watch"}, extra...)
	c := lwrCmd(env, args...)
	// The daemon's log is shown when the test fails, not in every run.
	var buf bytes.Buffer
	log := &lockedWriter{w: &buf}
	c.Stderr = log
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemonProc{cmd: c, dir: dir, done: make(chan error, 1)}
	go func() { d.done <- c.Wait() }()
	t.Cleanup(func() {
		_ = c.Process.Kill()
		<-d.done
		if t.Failed() {
			log.mu.Lock()
			t.Logf("the daemon's log:\n%s", buf.String())
			log.mu.Unlock()
		}
	})
	// Wait until it answers and its first sync is done.
	eventually(t, hangGuard, "the daemon to start", func() bool {
		cl, err := daemon.Dial(dir, "", 10*time.Second)
		if err != nil {
			return false
		}
		st, err := cl.Status(context.Background())
		return err == nil && st.Daemon != nil && st.Daemon.Watch.Syncs > 0
	})
	return d
}

// hangGuard is how long the process tests wait for what must happen
// (a daemon to start, a change to be searchable): a guard against a hang,
// never a measure — a loaded machine only makes the wait longer.
const hangGuard = 3 * time.Minute

// eventually polls cond until it holds or the guard passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		if cond() {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("waited %s for %s", within, what)
		}
		<-time.After(20 * time.Millisecond)
	}
}

// lwrPaths runs lwr search --format json and returns the matched paths.
func lwrPaths(t *testing.T, env []string, root, cache string, args ...string) []string {
	t.Helper()
	var out []string
	for _, m := range searchJSON(t, env, root, cache, args...) {
		out = append(out, m[:strings.IndexByte(m, ':')])
	}
	return out
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
