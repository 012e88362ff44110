package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/local"
	"lwr/research/researchtest"
)

// rankedLines checks -l, -c and --format grep of a ranked question
// against the ranked search's JSON: the ranked files in rank order, their
// snippets' lines.
func rankedLines(t *testing.T, search func(args ...string) (string, string, int), question string) {
	t.Helper()
	out, errOut, code := search("--format", "json", question)
	var res local.AgentResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Matches) == 0 {
		t.Fatalf("search %s: exit %d %s %s", question, code, out, errOut)
	}
	var want []string
	for _, m := range res.Matches {
		want = append(want, m.Path)
	}
	out, errOut, code = search("-l", question)
	if got := strings.Fields(out); code != 0 || !slices.Equal(got, want) {
		t.Errorf("-l %s: exit %d %q %s; want the ranked files %v", question, code, got, errOut, want)
	}
	out, _, code = search("-c", question)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != len(want) {
		t.Errorf("-c %s: exit %d\n%s", question, code, out)
	}
	for i, l := range lines {
		if i < len(want) && !strings.HasPrefix(l, want[i]+":") {
			t.Errorf("-c line %d: %q, want %s:N", i, l, want[i])
		}
	}
	out, _, code = search("--format", "grep", question)
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Fatalf("--format grep %s: exit %d %q", question, code, out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		p, rest, _ := strings.Cut(l, ":")
		n, _, _ := strings.Cut(rest, ":")
		k := slices.Index(want, p)
		ln, err := strconv.Atoi(n)
		if k < 0 || err != nil || ln < res.Matches[k].SnippetStartLine || ln > res.Matches[k].SnippetEndLine {
			t.Errorf("--format grep line %q is no line of a hit's snippet", l)
		}
	}
}

// TestRankedQuestionLineFormats: -l, -c and --format grep of a question
// without spaces (有給休暇の申請, found through its analysis) list the
// ranked files, in this process and through the daemon, and a daemon's
// search that finds nothing prints nothing and exits 0, as a process's.
func TestRankedQuestionLineFormats(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	inProcess := func(args ...string) (string, string, int) {
		return run(t, env, append([]string{"--source-root", root, "--cache-dir", cache, "search"}, args...)...)
	}
	rankedLines(t, inProcess, "有給休暇の申請")
	for _, args := range [][]string{{"-l", "存在しないぜったいの語"}, {"--mode", "fulltext", "-l", "存在しないぜったいの語"}} {
		if out, errOut, code := inProcess(args...); code != 0 || out != "" {
			t.Errorf("no match %v in this process: exit %d %q %s", args, code, out, errOut)
		}
	}
	// An error of a line format is said on stderr alone, as grep says it:
	// stdout stays empty for the script that reads paths from it.
	for _, args := range [][]string{{"-l", ""}, {"-c", ""}, {"--format", "grep", ""}} {
		if out, errOut, code := inProcess(args...); code != exitUsage || out != "" || !strings.Contains(errOut, "query is empty") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if out, errOut, code := run(t, env, "--source-root", filepath.Join(root, "ない"), "--cache-dir", cache, "search", "-l", "有給"); code != exitUsage || out != "" {
		t.Errorf("-l with a missing root: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if testing.Short() {
		return
	}
	startDaemonProc(t, env, root, cache)
	throughDaemon := func(args ...string) (string, string, int) {
		c := lwrCmd(env, append([]string{"--source-root", root, "--cache-dir", cache, "search"}, args...)...)
		var out, errb strings.Builder
		c.Stdout, c.Stderr = &out, &errb
		_ = c.Run()
		return out.String(), errb.String(), c.ProcessState.ExitCode()
	}
	rankedLines(t, throughDaemon, "有給休暇の申請")
	for _, args := range [][]string{{"-l", "存在しないぜったいの語"}, {"--mode", "fulltext", "-l", "存在しないぜったいの語"}} {
		if out, errOut, code := throughDaemon(args...); code != 0 || out != "" {
			t.Errorf("no match %v through the daemon: exit %d %q %s", args, code, out, errOut)
		}
	}
}

// TestReadAbsoluteAndOpenEndedRanges: a path inside the root may be given
// absolute (as reports cite it), and PATH:START reads 200 lines from START
// (to the end when there are fewer).
func TestReadAbsoluteAndOpenEndedRanges(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"規程/長い規程.md": strings.Repeat("行\n", 300)})
	env := testEnv(t)
	abs := filepath.Join(root, "規程", "長い規程.md")
	out, errOut, code := run(t, env, "--source-root", root, "read", abs+":63-70")
	if code != 0 || strings.Count(out, "\n") != 8 || !strings.HasPrefix(strings.TrimSpace(out), "63") {
		t.Errorf("read of an absolute path inside the root: exit %d %q %s", code, out, errOut)
	}
	out, _, code = run(t, env, "--source-root", root, "read", "規程/長い規程.md:74")
	if code != 0 || strings.Count(out, "\n") != 200 || !strings.HasPrefix(strings.TrimSpace(out), "74") {
		t.Errorf("read PATH:74: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	out, _, code = run(t, env, "--source-root", root, "read", "規程/長い規程.md:250")
	if code != 0 || strings.Count(out, "\n") != 51 {
		t.Errorf("read PATH:250 of 300 lines: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	if _, errOut, code := run(t, env, "--source-root", root, "read", filepath.Join(filepath.Dir(root), "x.md")); code != exitUsage || !strings.Contains(errOut, "not inside the source root") {
		t.Errorf("read outside the root: exit %d %s", code, errOut)
	}
}
