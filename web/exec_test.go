//go:build !windows

package web_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"lwr/config"
	"lwr/config/configtest"
	"lwr/web"
)

func newExec(t *testing.T, mode string, command []string, maxBytes int, env ...string) *web.Exec {
	t.Helper()
	p, err := web.NewExec(config.Exec{Command: command, MaxBytes: maxBytes}, web.Options{Now: clock, Environ: helperEnviron(mode, env...)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExecQueryIsOneArgument(t *testing.T) {
	queries := []string{
		`有給休暇 申請`,
		`a b 'c' "d"; rm -rf / && echo $(whoami) | cat > x; ` + "`id`",
		`--help`,
		`*.go ~ $HOME %PATH% \n \`,
	}
	for _, q := range queries {
		p := newExec(t, "echo-args", helperCommand("{query}"), 0)
		resp, err := p.Search(context.Background(), web.Request{Query: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(resp.Entries) != 1 || resp.Entries[0].Snippet != q {
			var got []string
			for _, e := range resp.Entries {
				got = append(got, e.Snippet)
			}
			t.Errorf("query %q reached the command as %q", q, got)
		}
	}
}

func TestExecArgv(t *testing.T) {
	p, err := web.NewExec(config.Exec{Command: []string{"search", "--n={max_results}", "--lang", "{locale}", "--", "q:{query}"}}, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.Argv(web.Request{Query: "a b", MaxResults: 5, Locale: "ja"})
	if want := []string{"search", "--n=5", "--lang", "ja", "--", "q:a b"}; !slices.Equal(got, want) {
		t.Errorf("Argv = %q, want %q", got, want)
	}
	p, _ = web.NewExec(config.Exec{Command: []string{"search", "--json"}}, web.Options{})
	if got, want := p.Argv(web.Request{Query: "x y"}), []string{"search", "--json", "x y"}; !slices.Equal(got, want) {
		t.Errorf("Argv without a placeholder = %q, want %q", got, want)
	}
	if _, err := web.NewExec(config.Exec{}, web.Options{}); err == nil || !strings.Contains(err.Error(), "web.exec.command") {
		t.Errorf("empty command: %v", err)
	}
}

func TestExecHangingCommandIsKilled(t *testing.T) {
	pids := filepath.Join(configtest.TempDir(t), "pids")
	p := newExec(t, "hang", helperCommand("{query}"), 0, "LWR_WEB_HELPER_PIDS="+pids)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := p.Search(ctx, web.Request{Query: "q"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("Search: %v; want a deadline error saying the command was killed", err)
	}
	data, rerr := os.ReadFile(pids)
	if rerr != nil {
		t.Skipf("the helper did not record its pids before the deadline: %v", rerr)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if !processGone(pid) {
			t.Errorf("process %d survived the timeout", pid)
		}
	}
}

// processGone waits a little for a killed process to disappear or become
// a zombie (its parent may be gone and nobody reaps it).
func processGone(pid int) bool {
	for range 100 {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if runtime.GOOS == "linux" {
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if err != nil {
				return true
			}
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestExecErrors(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		command  []string
		maxBytes int
		is       error
		contains []string
	}{
		{"output over the limit", "flood", helperCommand(), 1000, web.ErrOutputTooLarge, []string{"more than 1000 bytes", "web.exec.max_bytes"}},
		{"invalid JSON", "invalid", helperCommand(), 0, web.ErrInvalidOutput, []string{"not JSON"}},
		{"non-zero exit", "fail", helperCommand(), 0, nil, []string{"exited with status 3", "search backend down"}},
		{"missing command", "echo-args", []string{"/nonexistent/lwr-search"}, 0, os.ErrNotExist, []string{"run lwr-search", "web.exec.command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newExec(t, tt.mode, tt.command, tt.maxBytes)
			_, err := p.Search(context.Background(), web.Request{Query: "q"})
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			for _, c := range tt.contains {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("error %q lacks %q", err, c)
				}
			}
		})
	}
}

// A failing exec provider next to a working one gives a partial result.
func TestExecFailureIsPartial(t *testing.T) {
	sxSrv, _ := fakeSearXNG(t, []searxngResult{{URL: "https://example.com/", Title: "t", Content: "c"}})
	sx, _ := web.NewSearXNG(config.SearXNG{BaseURL: sxSrv.URL}, web.Options{})
	s, err := web.NewSearcher([]web.Provider{sx, newExec(t, "fail", helperCommand(), 0)}, web.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), web.Request{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != web.StatusPartial || len(res.Failed) != 1 || res.Failed[0].Provider != "exec" || len(res.Entries) != 1 {
		t.Errorf("status %s failed %v entries %d; want partial naming exec", res.Status, res.Failed, len(res.Entries))
	}
}
