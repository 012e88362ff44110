package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/config/configtest"
	"lwr/research/deep"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// deepEnv is a source root (a copy of testdata/rules), its cache and a
// workspace for the deep research process tests.
type deepEnv struct {
	t               *testing.T
	env             []string
	root, cache, ws string
	extra           []string // more environment for the next command
}

func newDeepEnv(t *testing.T) *deepEnv {
	t.Helper()
	root := configtest.TempDir(t)
	researchtest.CopyTree(t, filepath.Join("..", "..", "testdata", "rules"), root)
	return &deepEnv{t: t, env: testEnv(t), root: root, cache: configtest.TempDir(t), ws: configtest.TempDir(t)}
}

// cmd is an lwr process of this environment.
func (d *deepEnv) cmd(args ...string) *exec.Cmd {
	c := lwrCmd(append(append([]string(nil), d.env...), d.extra...), append([]string{"--source-root", d.root, "--cache-dir", d.cache}, args...)...)
	c.Dir = d.ws
	return c
}

// lwr runs lwr and returns its output and exit code.
func (d *deepEnv) lwr(args ...string) (string, string, int) {
	d.t.Helper()
	c := d.cmd(args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		d.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// json runs lwr with --json and decodes its output.
func (d *deepEnv) json(into any, wantCode int, args ...string) {
	d.t.Helper()
	out, errOut, code := d.lwr(args...)
	if code != wantCode {
		d.t.Fatalf("lwr %v: exit %d, want %d\n%s%s", args, code, wantCode, out, errOut)
	}
	if err := json.Unmarshal([]byte(out), into); err != nil {
		d.t.Fatalf("lwr %v: %v\n%s", args, err, out)
	}
}

type deepStart struct {
	Slug  string     `json:"slug"`
	State deep.State `json:"state"`
	Plan  deep.Plan  `json:"plan"`
}

type deepRun struct {
	Slug     string           `json:"slug"`
	Phase    string           `json:"phase"`
	Status   string           `json:"status"`
	Report   string           `json:"report"`
	Attempts int              `json:"synthesis_attempts"`
	Problems []report.Problem `json:"problems"`
}

func (d *deepEnv) start(args ...string) deepStart {
	d.t.Helper()
	var s deepStart
	d.json(&s, 0, append([]string{"deep", "start", "--json"}, args...)...)
	if s.Slug == "" || s.State.Phase != deep.PhaseSearch || len(s.Plan.Subtopics) == 0 {
		d.t.Fatalf("start: %+v", s)
	}
	return s
}

func (d *deepEnv) dir(slug string) string {
	return filepath.Join(d.ws, "result", "research", "deep", slug)
}

// The check of deep research as a user makes it: start with two
// subtopics, search, look at the status, run to the end; the confirmed
// report validates, states both amounts, and finalizes without its JSON
// comment.
func TestDeepProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	d := newDeepEnv(t)
	s := d.start("--subtopic", "日当", "--subtopic", "宿泊料", "出張旅費の規程")
	if !strings.HasPrefix(s.Slug, "出張旅費の規程-") || len(s.Plan.Subtopics) != 2 || s.Plan.Subtopics[0].Name != "日当" {
		t.Fatalf("start: %+v", s)
	}
	for _, f := range []string{deep.PlanFile, deep.StateFile, deep.EventsFile} {
		if _, err := os.Stat(filepath.Join(d.dir(s.Slug), f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	var r deepRun
	d.json(&r, 0, "deep", "run", "--skip-web", "--until", "search", "--json", s.Slug)
	if r.Slug != s.Slug || r.Phase != "gaps" || r.Status != deep.StatusInProgress || r.Report != "" {
		t.Fatalf("run --until search: %+v", r)
	}
	var st deep.TopicStatus
	d.json(&st, 0, "deep", "status", "--json", s.Slug)
	if st.Phase != deep.PhaseGaps || st.Subtopics[0].Status != "done" || st.Subtopics[1].Status != "done" || st.Subtopics[1].Evidence == 0 {
		t.Fatalf("status between phases: %+v", st)
	}
	if out, _, code := d.lwr("deep", "status"); code != 0 || !strings.Contains(out, s.Slug+"  出張旅費の規程  phase=gaps") || !strings.Contains(out, "  - 宿泊料: done") {
		t.Errorf("status of every topic: %d\n%s", code, out)
	}
	d.json(&r, 0, "deep", "run", "--skip-web", "--json", s.Slug)
	if r.Status != deep.StatusConfirmed || r.Phase != "confirmed" || r.Report != filepath.Join(d.dir(s.Slug), deep.ReportFile) {
		t.Fatalf("run: %+v", r)
	}
	md, _ := os.ReadFile(r.Report)
	if !strings.Contains(string(md), "\nstatus: confirmed\n") || !strings.Contains(string(md), "2,000円") || !strings.Contains(string(md), "11,000円") {
		t.Fatalf("the report does not state both amounts:\n%s", md)
	}
	if out, errOut, code := d.lwr("validate", r.Report); code != 0 || !strings.HasPrefix(out, "valid: ") {
		t.Fatalf("validate: %d %s%s", code, out, errOut)
	}
	bare := filepath.Join(configtest.TempDir(t), "bare.md")
	os.WriteFile(bare, []byte(strings.Split(string(md), "<!-- JSON: ")[0]), 0o644)
	if _, errOut, code := d.lwr("validate", bare); code != 1 || !strings.Contains(errOut, report.ProblemJSONMissing) {
		t.Errorf("validate without the comment: %d %s", code, errOut)
	}
	out, errOut, code := d.lwr("finalize", "--markdown", bare, "--query", "出張旅費の規程", "--workspace", d.ws)
	if code != 0 || !strings.HasPrefix(out, "保存しました: [research_") {
		t.Fatalf("finalize without the comment: %d %s%s", code, out, errOut)
	}
	saved := strings.TrimSuffix(out[strings.Index(out, "](")+2:], ")\n")
	if b, _ := os.ReadFile(saved); !bytes.Equal(b, md) {
		t.Errorf("the finalized report is not the report with the comment it had:\n%s", b)
	}
	// A second start of the same topic shows the confirmed report.
	out, _, code = d.lwr("deep", "start", "出張旅費の規程")
	if code != 0 || !strings.HasPrefix(out, "確認済みのレポートがあります: [report.md](") || !strings.Contains(out, "--refresh") {
		t.Errorf("start of a confirmed topic: %d %s", code, out)
	}
}

func TestDeepCommandErrors(t *testing.T) {
	env := testEnv(t)
	ws := configtest.TempDir(t)
	root := researchtest.Sample(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"deep", "start"}, exitUsage, "the topic is empty"},
		{[]string{"deep", "start", "--subtopic", "a", "--subtopic", "Ａ", "x"}, exitUsage, "given twice"},
		{[]string{"deep", "run", "../../etc-20260601-abcd"}, exitUsage, "is not a topic's slug"},
		{[]string{"deep", "run", "x-20260601-abcd"}, exitUsage, "no deep research x-20260601-abcd in "},
		{[]string{"deep", "run", "--until", "verify", "x-20260601-abcd"}, exitUsage, "use search, gaps or synthesize"},
		{[]string{"deep", "run", "--until", "gaps", "--report", "r.md", "x-20260601-abcd"}, exitUsage, "contradict"},
		{[]string{"deep", "status", "CON"}, exitUsage, "is not a topic's slug"},
		{[]string{"deep", "start", "ローカルのみ"}, exitUsage, "only skip words"},
		{[]string{"deep", "start", "--subtopic", "a", "--subtopic", "b", "--subtopic", "c", "--subtopic", "d", "--subtopic", "e", "--subtopic", "f", "x"}, exitUsage, "give at most 5"},
	} {
		_, errOut, code := run(t, env, append([]string{"--source-root", root}, append(tc.args, "--workspace", ws)...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, want %d; %q", tc.args, code, tc.code, errOut)
		}
	}
	if files := researchtest.Files(t, ws); len(files) > 0 {
		t.Errorf("bad input wrote %v", files)
	}
	// --json: the error as JSON on stdout too.
	for _, args := range [][]string{{"deep", "start", "--json"}, {"deep", "run", "--json", "x-20260601-abcd"}, {"deep", "status", "--json", "CON"}} {
		out, errOut, code := run(t, env, append([]string{"--source-root", root}, append(args, "--workspace", ws)...)...)
		var e struct{ Status, Reason, Message string }
		if code != exitUsage || json.Unmarshal([]byte(out), &e) != nil || e.Status != "error" || e.Reason != "usage" || e.Message == "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// A workspace that cannot be written: one sentence.
	bad := configtest.TempDir(t)
	researchtest.WriteFile(t, filepath.Join(bad, "result"), "not a folder")
	_, errOut, code := run(t, env, "--source-root", root, "deep", "start", "--subtopic", "日当", "--workspace", bad, "出張旅費")
	if code != exitError || !strings.Contains(errOut, "cannot write") || !strings.Contains(errOut, "--workspace") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		t.Errorf("unwritable workspace: exit %d %q", code, errOut)
	}
	// A topic nothing was found for: blocked, and the way on names it.
	out, errOut, code := run(t, env, "--source-root", root, "deep", "start", "--json", "--subtopic", "希釈冷凍機", "--workspace", ws, "量子コンピュータの冷却")
	var st deepStart
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("start: %d %s %s", code, out, errOut)
	}
	_, errOut, code = run(t, env, "--source-root", root, "deep", "run", "--skip-web", "--workspace", ws, st.Slug)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if last := lines[len(lines)-1]; code != exitError || !strings.Contains(last, `lwr deep start --refresh --subtopic <word of the documents> "量子コンピュータの冷却"`) || !strings.Contains(last, "no subtopic found evidence") {
		t.Errorf("a topic without evidence: exit %d %q", code, errOut)
	}
}

// A topic another process works on is the busy exit code, as the index
// held by another process is.
func TestDeepBusyExitCode(t *testing.T) {
	if code := exitCode(fmt.Errorf("run x: %w", deep.ErrBusy), io.Discard); code != exitBusy {
		t.Errorf("exit %d, want %d", code, exitBusy)
	}
}

// A report with a changed quote or a number no cited line states fails
// verification; the third failure blocks the topic.
func TestDeepVerificationProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	d := newDeepEnv(t)
	s := d.start("--subtopic", "日当", "--subtopic", "宿泊料", "出張旅費の規程")
	var r deepRun
	d.json(&r, 0, "deep", "run", "--skip-web", "--until", "synthesize", "--json", s.Slug)
	if r.Status != deep.StatusDraft || r.Phase != "verify" {
		t.Fatalf("until synthesize: %+v", r)
	}
	draft, _ := os.ReadFile(r.Report)
	dir := configtest.TempDir(t)
	for i, tc := range []struct {
		from, to, code, status string
	}{
		{"```text\n第4条（日当）\n日当は1日につき2,000円", "```text\n第4条（日当）\n日当は1日につき2,500円", report.ProblemCitationQuote, deep.StatusVerifyFailed},
		{"課長以上は2,500円とする。 /", "課長以上は3,000円とする。 /", report.ProblemClaimNumber, deep.StatusVerifyFailed},
		{"一般従業員　11,000円 /", "一般従業員　12,000円 /", report.ProblemClaimNumber, deep.StatusBlocked},
	} {
		bad := strings.Replace(string(draft), tc.from, tc.to, 1)
		if bad == string(draft) {
			t.Fatalf("case %d: the edit did not apply", i)
		}
		p := filepath.Join(dir, "bad.md")
		os.WriteFile(p, []byte(bad), 0o644)
		d.json(&r, 1, "deep", "run", "--json", "--report", p, s.Slug)
		if r.Status != tc.status || r.Attempts != i+1 || len(r.Problems) == 0 || r.Problems[0].Code != tc.code {
			t.Fatalf("case %d: %+v", i, r)
		}
	}
	var st deep.TopicStatus
	d.json(&st, 0, "deep", "status", "--json", s.Slug)
	if st.Phase != deep.PhaseBlocked || st.Attempts != 3 || st.LastVerifierFeedback[0].Code != report.ProblemClaimNumber {
		t.Fatalf("status: %+v", st)
	}
	// Blocked stays blocked, with its problems on stderr.
	_, errOut, code := d.lwr("deep", "run", "--skip-web", s.Slug)
	if code != 1 || !strings.Contains(errOut, "blocked after 3 failed verifications") || !strings.Contains(errOut, report.ProblemClaimNumber) {
		t.Errorf("run of a blocked topic: %d %s", code, errOut)
	}
	if md, _ := os.ReadFile(filepath.Join(d.dir(s.Slug), deep.ReportFile)); !bytes.Equal(md, draft) {
		t.Error("report.md is not lwr's draft any more")
	}
}

// A deep run killed with kill -9 at each phase's points resumes to the
// same report, byte for byte. The process kills itself at a named
// checkpoint (LWR_DEEP_KILL_AT), so where it dies does not depend on
// timing.
func TestDeepKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	d := newDeepEnv(t)
	if _, errOut, code := d.lwr("index", "build"); code != 0 {
		t.Fatal(errOut)
	}
	s := d.start("--subtopic", "日当", "--subtopic", "宿泊料", "--subtopic", "宇宙旅行の手当", "出張旅費の規程")
	dir := d.dir(s.Slug)
	// The topic's folder at each phase boundary: a kill within a phase
	// starts from the boundary before it.
	snapshot := func() string {
		p := configtest.TempDir(t)
		researchtest.CopyTree(t, dir, p)
		return p
	}
	at := map[string]string{"search": snapshot()}
	var r deepRun
	for _, until := range []string{"search", "gaps", "synthesize"} {
		d.json(&r, 0, "deep", "run", "--skip-web", "--until", until, "--json", s.Slug)
		at[until+" done"] = snapshot()
	}
	d.json(&r, 0, "deep", "run", "--skip-web", "--json", s.Slug)
	want, _ := os.ReadFile(r.Report)
	if r.Status != deep.StatusConfirmed || !strings.Contains(string(want), report.SentenceInsufficient) || !strings.Contains(string(want), deep.FollowupTitle) {
		t.Fatalf("the run without a kill: %+v\n%s", r, want)
	}
	for _, k := range []struct{ point, from string }{
		{deep.PointFindingsWritten, "search"}, {deep.EventSubtopicDone + "#2", "search"},
		{deep.PointFindingsWritten, "search done"}, {deep.EventGapCheckComplete, "search done"}, // the _followup
		{deep.PointDraftWritten, "gaps done"}, {deep.EventReportDraft, "gaps done"},
		{deep.PointSentinelWritten, "synthesize done"}, {deep.EventReportConfirmed, "synthesize done"},
	} {
		point := k.point
		t.Run(point+" after "+k.from, func(t *testing.T) {
			os.RemoveAll(dir)
			researchtest.CopyTree(t, at[k.from], dir)
			d.extra = []string{killAtEnv + "=" + point}
			_, errOut, code := d.lwr("deep", "run", "--skip-web", s.Slug)
			d.extra = nil
			if code != -1 {
				t.Fatalf("the run was not killed at %s: exit %d %s", point, code, errOut)
			}
			d.json(&r, 0, "deep", "run", "--skip-web", "--json", s.Slug)
			got, _ := os.ReadFile(r.Report)
			if r.Status != deep.StatusConfirmed || !bytes.Equal(got, want) {
				t.Fatalf("resumed after a kill at %s: %+v\n%s", point, r, got)
			}
			if _, err := os.Stat(filepath.Join(dir, deep.StateFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the state was not cleared: %v", err)
			}
			es, _ := deep.ReadEvents(filepath.Join(dir, deep.EventsFile))
			if strings.HasPrefix(point, deep.PointSentinelWritten) || point == deep.EventReportConfirmed {
				if es[len(es)-1].Event != deep.EventRecovered {
					t.Errorf("no recovery logged: %+v", es[len(es)-1])
				}
			}
		})
	}
}

// Two topics run at once in one workspace, each by its own process.
func TestDeepTwoTopicsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	d := newDeepEnv(t)
	if _, errOut, code := d.lwr("index", "build"); code != 0 {
		t.Fatal(errOut)
	}
	a := d.start("--subtopic", "日当", "--subtopic", "宿泊料", "出張旅費の規程")
	b := d.start("--subtopic", "パスワード", "--subtopic", "USBメモリ", "情報セキュリティの社内ルール")
	var outs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for i, slug := range []string{a.Slug, b.Slug} {
		cmds[i] = d.cmd("deep", "run", "--skip-web", "--json", slug)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range cmds {
		if err := cmds[i].Wait(); err != nil {
			t.Fatalf("topic %d: %v\n%s", i, err, outs[i].String())
		}
		var r deepRun
		if err := json.Unmarshal(outs[i].Bytes(), &r); err != nil || r.Status != deep.StatusConfirmed {
			t.Fatalf("topic %d: %v %s", i, err, outs[i].String())
		}
		if out, errOut, code := d.lwr("validate", r.Report); code != 0 {
			t.Errorf("validate %s: %s%s", r.Report, out, errOut)
		}
	}
	var all struct {
		Topics []deep.TopicStatus `json:"topics"`
	}
	d.json(&all, 0, "deep", "status", "--json")
	if len(all.Topics) != 2 || all.Topics[0].Status != deep.StatusConfirmed || all.Topics[1].Status != deep.StatusConfirmed {
		t.Errorf("status: %+v", all)
	}
}

// The deep tools of `lwr mcp`, in the workspace the server runs in:
// every output validates against its declared schema, and lwr's own
// synthesis is confirmed through deep_finalize.
func TestDeepMCPProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	d := newDeepEnv(t)
	cmd := d.cmd("mcp")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lwr-test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	schemas := toolSchemas(t, cs)
	deepTools := 0
	for name := range schemas {
		if strings.HasPrefix(name, "deep_") {
			deepTools++
		}
	}
	if deepTools < 4 {
		t.Fatalf("tools/list has %d deep_ tools", deepTools)
	}
	var st deepStart
	if res := call(t, cs, schemas, "deep_start", map[string]any{"topic": "出張旅費の規程", "subtopics": []map[string]any{{"name": "日当"}, {"name": "宿泊料"}}}, &st); res.IsError {
		t.Fatal(errorText(res))
	}
	for range 2 {
		if res := call(t, cs, schemas, "deep_search", map[string]any{"slug": st.Slug, "skip_web": true}, nil); res.IsError {
			t.Fatal(errorText(res))
		}
	}
	if res := call(t, cs, schemas, "deep_gaps", map[string]any{"slug": st.Slug, "skip_web": true}, nil); res.IsError {
		t.Fatal(errorText(res))
	}
	var r deepRun
	if res := call(t, cs, schemas, "deep_finalize", map[string]any{"slug": st.Slug}, &r); res.IsError || r.Status != deep.StatusConfirmed {
		t.Fatalf("deep_finalize: %s %+v\n%s", errorText(res), r, stderr.String())
	}
	if !strings.HasPrefix(r.Report, d.dir(st.Slug)) {
		t.Errorf("the report is not in the server's workspace: %s", r.Report)
	}
	if res := call(t, cs, schemas, "deep_status", map[string]any{"slug": st.Slug}, nil); res.IsError {
		t.Fatal(errorText(res))
	}
}
