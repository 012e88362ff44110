package deep_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"lwr/config"
	"lwr/config/configtest"
	"lwr/index"
	"lwr/index/extract"
	"lwr/policy"
	"lwr/research"
	"lwr/research/deep"
	"lwr/research/local"
	"lwr/research/report"
	"lwr/research/researchtest"
	"lwr/web/webtest"
)

var travel = []deep.Subtopic{{Name: "日当"}, {Name: "宿泊料"}}

func start(t *testing.T, o deep.Options, topic string, subs []deep.Subtopic) *deep.Started {
	t.Helper()
	st, err := deep.Start(context.Background(), o, deep.StartInput{Topic: topic, Subtopics: subs})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func run(t *testing.T, o deep.Options, slug string, ro deep.RunOptions) *deep.Result {
	t.Helper()
	res, err := deep.Run(context.Background(), o, slug, ro)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func events(t *testing.T, dir string) []string {
	t.Helper()
	es, err := deep.ReadEvents(filepath.Join(dir, deep.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Event)
	}
	return out
}

// checkConfirmed checks a confirmed report without trusting the code
// under test: it validates, every citation holds against the files, and
// it is the sentinel.
func checkConfirmed(t *testing.T, root, path string, strict bool) string {
	t.Helper()
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(md, []byte("---\nkind: deep\nstatus: confirmed\n")) {
		t.Fatalf("the report is not confirmed:\n%.300s", md)
	}
	if ps := report.Validate(md); ps != nil {
		t.Fatalf("the confirmed report does not validate: %v", ps)
	}
	if ps := report.VerifySources(md, report.Sources{Root: root, Rules: rules}); ps != nil {
		t.Fatalf("the confirmed report's citations: %v", ps)
	}
	// Citations fails the test on a quote that is not the file's lines
	// (strict: lwr's reports quote every citation).
	researchtest.Citations(t, string(md), strict)
	// A claim is said once, but in a section that has no other.
	d, _ := report.ParseDeep(md)
	said := map[string]bool{}
	for _, sec := range d.Sections {
		for _, c := range sec.Claims {
			k := c.Text + fmt.Sprint(c.Refs)
			if said[k] && len(sec.Claims) > 1 {
				t.Errorf("%q is said again in %q", c.Text, sec.Title)
			}
			said[k] = true
		}
	}
	raw, p := report.ExtractComment(md)
	if p != nil {
		t.Fatal(p)
	}
	if err := researchtest.ValidateJSON(t, report.DeepOutputSchema(), raw); err != nil {
		t.Fatalf("the comment against deep-output-schema.json: %v", err)
	}
	return string(md)
}

func TestStartRunConfirm(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	st := start(t, o, "出張旅費の規程", travel)
	if err := deep.CheckSlug(st.Slug); err != nil || !strings.HasPrefix(st.Slug, "出張旅費の規程-20260601-") {
		t.Fatalf("slug %q: %v", st.Slug, err)
	}
	dir := filepath.Join(ws, "result", "research", "deep", st.Slug)
	if st.Dir != dir || st.State.Phase != deep.PhaseSearch || len(st.Plan.Subtopics) != 2 || len(st.Plan.Subtopics[1].Queries) != 2 {
		t.Fatalf("started %+v", st)
	}
	plan, _ := os.ReadFile(filepath.Join(dir, deep.PlanFile))
	if !strings.HasPrefix(string(plan), "---\nstatus: planning\ntopic: 出張旅費の規程\nslug: "+st.Slug+"\nsubtopics:\n    - name: 日当\n      queries:\n") {
		t.Errorf("plan.md:\n%s", plan)
	}

	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true, Until: deep.PhaseSearch})
	if res.Phase != deep.PhaseGaps || res.Status != deep.StatusInProgress || res.Report != "" {
		t.Fatalf("after --until search: %+v", res)
	}
	s, err := deep.Status(o, st.Slug)
	if err != nil {
		t.Fatal(err)
	}
	if s.Phase != deep.PhaseGaps || len(s.Subtopics) != 2 || s.Subtopics[0].Status != "done" || s.Subtopics[1].Evidence == 0 ||
		filepath.Base(s.Subtopics[1].Findings) != "02-宿泊料.md" {
		t.Fatalf("status between phases: %+v", s)
	}
	res = run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	if res.Phase != deep.PhaseConfirmed || res.Status != deep.StatusConfirmed || res.Attempts != 0 {
		t.Fatalf("run: %+v", res)
	}
	md := checkConfirmed(t, root, res.Report, true)
	for _, want := range []string{"## 1. 日当\n\n- 日当は1日につき2,000円とする。", "## 2. 宿泊料\n\n- 宿泊料は、1泊につき次の額を上限として実費を支給する。 / 一般従業員　11,000円"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report does not state %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, deep.StateFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state was not cleared: %v", err)
	}
	want := []string{deep.EventStarted, deep.EventPlanWritten, deep.EventSubtopicDone, deep.EventSubtopicDone, deep.EventGapCheckComplete, deep.EventReportDraft, deep.EventReportConfirmed}
	if got := events(t, dir); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	// Once confirmed: status says so, a run does nothing, a start of the
	// same topic points at it.
	if s, err := deep.Status(o, st.Slug); err != nil || s.Status != deep.StatusConfirmed || s.Subtopics[0].Status != "done" {
		t.Errorf("status after: %+v %v", s, err)
	}
	if again := run(t, o, st.Slug, deep.RunOptions{}); again.Status != deep.StatusConfirmed {
		t.Errorf("run again: %+v", again)
	}
	same := start(t, o, " 出張旅費の規程 ", nil)
	if same.Slug != st.Slug || same.Existing != "confirmed" || same.Report != res.Report {
		t.Errorf("start of a confirmed topic: %+v", same)
	}
	fresh, err := deep.Start(context.Background(), o, deep.StartInput{Topic: "出張旅費の規程", Subtopics: travel, Refresh: true})
	if err != nil || fresh.Slug == st.Slug || fresh.Existing != "" {
		t.Fatalf("refresh: %+v %v", fresh, err)
	}
	if active := start(t, o, "出張旅費の規程", nil); active.Slug != fresh.Slug || active.Existing != "active" {
		t.Errorf("start of a topic in progress: %+v", active)
	}
	all, err := deep.List(o)
	if err != nil || len(all) != 2 {
		t.Fatalf("list: %+v %v", all, err)
	}
}

// Without subtopics, lwr proposes 3–5 from the documents' headings.
func TestProposedSubtopics(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", nil)
	var names []string
	for _, s := range st.Plan.Subtopics {
		names = append(names, s.Name)
		if len(s.Queries) < 1 || len(s.Queries) > 3 {
			t.Errorf("subtopic %q has queries %v", s.Name, s.Queries)
		}
	}
	if want := []string{"出張の申請", "交通費", "日当", "宿泊料", "出張報告と精算"}; !slices.Equal(names, want) {
		t.Errorf("proposed %v, want %v", names, want)
	}
	// Another company's rules: the topic's own document is not the first
	// found (経費精算手順 is), its articles are still the subtopics.
	rb := configtest.TempDir(t)
	researchtest.CopyTree(t, filepath.Join(researchtest.Repo(), "testdata", "rulesb"), rb)
	ob := options(t, rb, configtest.TempDir(t))
	st = start(t, ob, "出張旅費の規程", nil)
	names = nil
	for _, s := range st.Plan.Subtopics {
		names = append(names, s.Name)
	}
	if want := []string{"出張の命令", "旅費の種類", "交通費", "日当", "宿泊料"}; !slices.Equal(names, want) {
		t.Errorf("rulesb: proposed %v, want %v", names, want)
	}
	res := run(t, ob, st.Slug, deep.RunOptions{SkipWeb: true})
	md := checkConfirmed(t, rb, res.Report, true)
	// The rule's table of amounts is the 日当 claim, with its rows; a row
	// of another table is that row with its column headers.
	if !strings.Contains(md, "## 4. 日当\n\n- 日当は、出張中の食事代その他の諸雑費に充てるため、次の区分により支給する。 / ｜ 区分 ｜ 宿泊出張（1日につき） ｜ 日帰り出張（1日につき） ｜ / ｜ 役員 ｜ 4,000円 ｜ 2,000円 ｜") ||
		!strings.Contains(md, "- ｜ 経費の区分 ｜ 例 ｜ 備考 ｜ / ｜ 出張旅費 ｜ 出張時の交通費、宿泊料、日当 ｜ 旅費規程による ｜ [") {
		t.Errorf("rulesb report:\n%s", md)
	}

	// A topic whose words a document's title holds in part: its articles,
	// and a line several of them find said once.
	st = start(t, ob, "情報セキュリティの社内ルール", nil)
	if len(st.Plan.Subtopics) != 5 || st.Plan.Subtopics[0].Name != "情報機器の貸与" {
		t.Errorf("rulesb security: %+v", st.Plan.Subtopics)
	}
	res = run(t, ob, st.Slug, deep.RunOptions{SkipWeb: true})
	checkConfirmed(t, rb, res.Report, true)

	// A request (全部まとめて, 教えて) is no facet, and a と inside a word
	// (まとめて, こと, ひととおり, とりまとめる) splits nothing.
	for _, topic := range []string{"出張の旅費規程を全部まとめて", "出張旅費のことを教えて"} {
		st = start(t, o, topic, nil)
		names = nil
		for _, s := range st.Plan.Subtopics {
			names = append(names, s.Name)
			for _, q := range s.Queries {
				if strings.Contains(q, "まとめ") || strings.Contains(q, "教え") {
					t.Errorf("%s: the query %q of %q holds the request", topic, q, s.Name)
				}
			}
		}
		if want := []string{"出張の申請", "交通費", "日当", "宿泊料", "出張報告と精算"}; !slices.Equal(names, want) {
			t.Errorf("%s: proposed %v, want %v", topic, names, want)
		}
	}
	res = run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	md = checkConfirmed(t, root, res.Report, true)
	if !strings.Contains(md, "## 4. 宿泊料\n\n- 宿泊料は、1泊につき次の額を上限として実費を支給する。 / 一般従業員　11,000円 / 課長以上　14,000円") || strings.Contains(md, report.SentenceInsufficient) {
		t.Errorf("出張旅費のことを教えて:\n%s", md)
	}
	for _, topic := range []string{"経費精算のやり方をひととおり知りたい", "社用車の利用ルールをとりまとめる", "日当と宿泊料について調べて"} {
		st = start(t, o, topic, nil)
		for _, s := range st.Plan.Subtopics {
			if strings.Contains(s.Name, "とおり") || strings.Contains(s.Name, "まとめ") || strings.Contains(s.Name, "調べ") {
				t.Errorf("%s: the subtopic %q is a piece of a word or the request", topic, s.Name)
			}
		}
		if topic == "日当と宿泊料について調べて" && (st.Plan.Subtopics[0].Name != "日当" || st.Plan.Subtopics[1].Name != "宿泊料") {
			t.Errorf("%s: %+v", topic, st.Plan.Subtopics)
		}
	}

	// The question's own facets come first; generic ones fill up.
	st = start(t, o, "慶弔見舞金と慶弔休暇", nil)
	if len(st.Plan.Subtopics) < 3 || st.Plan.Subtopics[0].Name != "慶弔見舞金" || st.Plan.Subtopics[1].Name != "慶弔休暇" {
		t.Errorf("facets: %+v", st.Plan.Subtopics)
	}
}

// Evidence is the subtopic's own passages, whole: the article a subtopic
// names (第5条（交通費）, not only the line a search found best), run on
// to its end across its table (第7条2–5項); a list item with its heading;
// nothing off the topic (年末調整 is no 精算 of 出張旅費).
func TestEvidenceUnits(t *testing.T) {
	rb := configtest.TempDir(t)
	researchtest.CopyTree(t, filepath.Join(researchtest.Repo(), "testdata", "rulesb"), rb)
	o := options(t, rb, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", []deep.Subtopic{{Name: "日当"}, {Name: "宿泊料"}, {Name: "交通費"}, {Name: "仮払"}, {Name: "精算"}})
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	md := checkConfirmed(t, rb, res.Report, true)
	section := func(title string) string {
		_, rest, _ := strings.Cut(md, "## "+title+"\n")
		body, _, _ := strings.Cut(rest, "\n## ")
		return body
	}
	for _, want := range []struct{ section, text string }{
		{"1. 日当", "- 近距離外出については、日当を支給しない。 ["},
		{"1. 日当", "- 宿泊出張の出発日及び帰着日は、それぞれ宿泊出張の日当を支給する。 ["},
		{"2. 宿泊料", "宿泊雑費として1泊につき2,000円を支給する。 ["},
		{"2. 宿泊料", "- 夜行列車、夜行バス又は機中泊の場合は、宿泊料を支給しない。 ["},
		{"3. 交通費", "- 交通費は、最も経済的かつ合理的な経路及び方法による実費を支給する。 ["},
		{"5. 精算", "- 出張者は、帰着後2週間以内に、経費精算システムにより出張旅費精算書を作成し"},
	} {
		if !strings.Contains(section(want.section), want.text) {
			t.Errorf("%s does not state %q:\n%s", want.section, want.text, section(want.section))
		}
	}
	for _, off := range []string{"年末調整", "確定申告"} {
		if strings.Contains(section("5. 精算"), off) {
			t.Errorf("精算 states %s:\n%s", off, section("5. 精算"))
		}
	}
	d, _ := report.ParseDeep([]byte(md))
	for _, sec := range d.Sections {
		for _, c := range sec.Claims {
			if strings.Contains(c.Text, "申請している") && !strings.Contains(c.Text, "よくある差戻しの理由") {
				t.Errorf("the list item %q is stated without its heading", c.Text)
			}
		}
	}
}

// crash runs the topic until the checkpoint point passes for the n-th
// time, and stops there as a killed process would: nothing after it runs.
func crash(t *testing.T, o deep.Options, slug, point string, n int) {
	t.Helper()
	seen := 0
	o.Checkpoint = func(p string) {
		if p == point {
			if seen++; seen == n {
				panic(errCrash)
			}
		}
	}
	defer func() {
		if r := recover(); r != errCrash {
			t.Fatalf("the run did not pass %s #%d (%v)", point, n, r)
		}
	}()
	deep.Run(context.Background(), o, slug, deep.RunOptions{SkipWeb: true})
}

var errCrash = errors.New("crash")

// A run stopped at any point between two writes resumes to the same
// report, byte for byte.
func TestResumeAfterEveryPoint(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	// A subtopic with no evidence, so that the gap check searches too.
	st := start(t, o, "出張旅費の規程", append(travel, deep.Subtopic{Name: "宇宙旅行の手当"}))
	dir := st.Dir
	saved := configtest.TempDir(t)
	researchtest.CopyTree(t, dir, saved)
	restore := func() {
		configtest.RemoveAll(t, dir)
		researchtest.CopyTree(t, saved, dir)
	}
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	want, _ := os.ReadFile(res.Report)
	if res.Status != deep.StatusConfirmed || !strings.Contains(string(want), report.SentenceInsufficient) || !strings.Contains(string(want), deep.FollowupTitle) {
		t.Fatalf("the uninterrupted run: %+v\n%s", res, want)
	}
	for _, p := range []struct {
		point string
		n     int
	}{
		{deep.PointFindingsWritten, 1}, {deep.EventSubtopicDone, 1}, {deep.PointFindingsWritten, 3}, {deep.EventSubtopicDone, 3},
		{deep.PointFindingsWritten, 4}, {deep.EventGapCheckComplete, 1},
		{deep.PointDraftWritten, 1}, {deep.EventReportDraft, 1},
		{deep.PointSentinelWritten, 1}, {deep.EventReportConfirmed, 1},
	} {
		t.Run(p.point, func(t *testing.T) {
			restore()
			crash(t, o, st.Slug, p.point, p.n)
			got := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
			md, _ := os.ReadFile(got.Report)
			if got.Status != deep.StatusConfirmed || !bytes.Equal(md, want) {
				t.Fatalf("resumed after %s #%d: %+v\n%s", p.point, p.n, got, md)
			}
			if _, err := os.Stat(filepath.Join(dir, deep.StateFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("state left: %v", err)
			}
			es := events(t, dir)
			if p.point == deep.PointSentinelWritten || p.point == deep.EventReportConfirmed {
				if es[len(es)-1] != deep.EventRecovered {
					t.Errorf("events %v: the confirmed report was not recovered", es)
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".*.tmp-*"))
			more, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
			if len(leftovers)+len(more) > 0 {
				t.Errorf("temp files left: %v %v", leftovers, more)
			}
		})
	}
}

// lwrReport is the draft lwr writes for the travel topic (a copy of the
// one it verifies).
func lwrDraft(t *testing.T, o deep.Options, slug string) string {
	t.Helper()
	res := run(t, o, slug, deep.RunOptions{SkipWeb: true, Until: deep.PhaseSynthesize})
	if res.Status != deep.StatusDraft || res.Phase != deep.PhaseVerify {
		t.Fatalf("until synthesize: %+v", res)
	}
	md, err := os.ReadFile(res.Report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "\nstatus: draft\n") {
		t.Fatalf("not a draft:\n%s", md)
	}
	return string(md)
}

func TestVerificationFailsAndBlocks(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	st := start(t, o, "出張旅費の規程", travel)
	draft := lwrDraft(t, o, st.Slug)
	bad := []struct {
		name, md string
		code     string
	}{
		{"a changed quote", strings.Replace(draft, "```text\n第4条（日当）\n日当は1日につき2,000円", "```text\n第4条（日当）\n日当は1日につき3,000円", 1), report.ProblemCitationQuote},
		{"an unsupported number", strings.Replace(draft, "課長以上は2,500円とする。 /", "課長以上は3,500円とする。 /", 1), report.ProblemClaimNumber},
		{"a claim without its source", strings.Replace(draft, "日当を支給しない。 [L1]", "日当を支給しない。", 1), report.ProblemClaimUncited},
	}
	for i, b := range bad {
		if b.md == draft {
			t.Fatalf("%s: the edit did not apply", b.name)
		}
		res := run(t, o, st.Slug, deep.RunOptions{Report: []byte(b.md)})
		wantStatus := deep.StatusVerifyFailed
		if i == 2 {
			wantStatus = deep.StatusBlocked
		}
		if res.Status != wantStatus || res.Attempts != i+1 || len(res.Problems) == 0 || res.Problems[0].Code != b.code {
			t.Fatalf("%s: %+v", b.name, res)
		}
	}
	// Blocked: the state is kept, nothing runs, the report on disk is
	// lwr's draft (never a failed report marked confirmed).
	if res := run(t, o, st.Slug, deep.RunOptions{Report: []byte(draft)}); res.Status != deep.StatusBlocked {
		t.Errorf("a blocked topic ran: %+v", res)
	}
	s, _ := deep.Status(o, st.Slug)
	if s.Phase != deep.PhaseBlocked || s.Attempts != 3 || len(s.LastVerifierFeedback) == 0 {
		t.Errorf("status %+v", s)
	}
	if md, _ := os.ReadFile(filepath.Join(st.Dir, deep.ReportFile)); string(md) != draft {
		t.Error("report.md changed")
	}
	es := events(t, st.Dir)
	if n := strings.Count(strings.Join(es, " "), deep.EventVerifyFail); n != 3 || es[len(es)-1] != deep.EventBlocked {
		t.Errorf("events %v", es)
	}
	// A new start of the blocked topic is a new topic.
	if again := start(t, o, "出張旅費の規程", travel); again.Slug == st.Slug || again.Existing != "" {
		t.Errorf("start after blocked: %+v", again)
	}
}

// An agent's report: its own words, its own subtopic order, no JSON
// comment; confirmed when every citation and number holds.
func TestAgentReport(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", travel)
	abs := filepath.ToSlash(filepath.Join(root, "規程", "旅費規程.md"))
	agent := "---\nkind: deep\nstatus: draft\ntopic: 出張旅費の規程\nslug: " + st.Slug + "\n---\n\n# 出張旅費の規程のまとめ\n\n" +
		"## 1. 日当\n\n- 一般は1日2,000円、課長以上は2,500円。 [L1]\n\n## 2. 宿泊料\n\n- 一般従業員は1泊11,000円まで、東京23区・大阪市は2,000円を加算。 [L2]\n\n" +
		"## 出典\n\n### [L1] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 21, 21) + "\n\n> 日当は1日につき2,000円とする。課長以上は2,500円とする。\n\n" +
		"### [L2] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 25, 28) + "\n\n> 宿泊料は、1泊につき…上限として実費を支給する。\n> 一般従業員　11,000円\n> …上限に2,000円を加える。\n"
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true, Report: []byte(agent)})
	if res.Status != deep.StatusConfirmed {
		t.Fatalf("agent report: %+v", res)
	}
	md := checkConfirmed(t, root, res.Report, false)
	if !strings.Contains(md, "一般従業員は1泊11,000円まで") || !strings.Contains(md, "<!-- JSON: ") {
		t.Errorf("the confirmed report is not the agent's with its comment:\n%s", md)
	}
	// The findings were searched on the way.
	if s, _ := deep.Status(o, st.Slug); s.Subtopics[1].Status != "done" {
		t.Errorf("status %+v", s)
	}
}

// A draft edited on disk fails its verification and is synthesized
// again; a cited file that changed since the search leaves its evidence
// out of the next synthesis.
func TestOwnDraftFails(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", travel)
	draft := lwrDraft(t, o, st.Slug)
	p := filepath.Join(st.Dir, deep.ReportFile)
	os.WriteFile(p, []byte(strings.Replace(draft, "課長以上は2,500円とする。 /", "課長以上は3,500円とする。 /", 1)), 0o644)
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	md, _ := os.ReadFile(p)
	if res.Status != deep.StatusConfirmed || strings.Replace(string(md), "status: confirmed", "status: draft", 1) != draft {
		t.Fatalf("after an edited draft: %+v\n%s", res, md)
	}
	es := events(t, st.Dir)
	if !slices.Contains(es, deep.EventVerifyFail) {
		t.Errorf("events %v", es)
	}

	st = start(t, o, "日当", []deep.Subtopic{{Name: "日当"}})
	lwrDraft(t, o, st.Slug)
	rule := filepath.Join(root, "規程", "旅費規程.md")
	b, _ := os.ReadFile(rule)
	os.WriteFile(rule, bytes.Replace(b, []byte("2,000円とする"), []byte("2,200円とする"), 1), 0o644)
	// A cited file changed between the search and the verification: the
	// subtopic is searched again, its findings rewritten, and the report
	// states what the file says now; the failed verification is counted.
	res = run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	md, _ = os.ReadFile(res.Report)
	if res.Status != deep.StatusConfirmed || res.Attempts != 1 || !slices.Equal(res.SearchedAgain, []string{"日当"}) ||
		strings.Contains(string(md), report.SentenceInsufficient) || !strings.Contains(string(md), "日当は1日につき2,200円とする。") ||
		!strings.Contains(string(md), "- 再検索: 日当") || strings.Contains(string(md), "2,000円") || strings.Contains(string(md), "検証で除いた") {
		t.Fatalf("after a cited file changed: %+v\n%s", res, md)
	}
	checkConfirmed(t, root, res.Report, true)
	if s, err := deep.Status(o, st.Slug); err != nil || s.Attempts != 1 {
		t.Errorf("status of the confirmed topic: %+v %v", s, err)
	}
	es = events(t, st.Dir)
	n := 0
	for _, e := range es {
		if e == deep.EventSubtopicDone {
			n++
		}
	}
	if n != 2 || !slices.Contains(es, deep.EventVerifyFail) || !slices.Contains(es, deep.EventSearchAgain) {
		t.Errorf("events %v", es)
	}
	f, _ := os.ReadFile(filepath.Join(st.Dir, deep.FindingsDir, "01-日当.md"))
	if !strings.Contains(string(f), "2,200円") || strings.Contains(string(f), "2,000円とする") {
		t.Errorf("the findings were not rewritten:\n%s", f)
	}
}

// Topics run at once in one workspace; one topic is worked on by one
// process at a time.
func TestTopicsAtOnce(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	a := start(t, o, "出張旅費の規程", travel)
	b := start(t, o, "情報セキュリティの社内ルール", []deep.Subtopic{{Name: "パスワード"}, {Name: "USBメモリ"}})
	var wg sync.WaitGroup
	results := make([]*deep.Result, 2)
	errs := make([]error, 2)
	for i, slug := range []string{a.Slug, b.Slug} {
		wg.Go(func() { results[i], errs[i] = deep.Run(context.Background(), o, slug, deep.RunOptions{SkipWeb: true}) })
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil || results[i].Status != deep.StatusConfirmed {
			t.Fatalf("topic %d: %+v %v", i, results[i], errs[i])
		}
		checkConfirmed(t, root, results[i].Report, true)
	}
	md, _ := os.ReadFile(results[1].Report)
	if !strings.Contains(string(md), "## 1. パスワード") || !strings.Contains(string(md), "12文字") {
		t.Errorf("the security topic's report:\n%s", md)
	}

	// While one call works on a topic, another waits for it and gives up
	// after its timeout.
	c := start(t, o, "慶弔見舞金", []deep.Subtopic{{Name: "結婚祝い"}})
	held, release := make(chan struct{}), make(chan struct{})
	busy := o
	var once sync.Once
	busy.Checkpoint = func(p string) {
		if p == deep.PointFindingsWritten {
			once.Do(func() {
				close(held)
				<-release
			})
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := deep.Run(context.Background(), busy, c.Slug, deep.RunOptions{SkipWeb: true})
		done <- err
	}()
	<-held
	quick := o
	quick.LockTimeout = 50e6
	if _, err := deep.Run(context.Background(), quick, c.Slug, deep.RunOptions{SkipWeb: true}); !errors.Is(err, deep.ErrBusy) {
		t.Errorf("a second run of a topic in use: %v", err)
	}
	if s, err := deep.Status(o, c.Slug); err != nil || s.Phase != deep.PhaseSearch {
		t.Errorf("status of a topic in use: %+v %v", s, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Web sources: the pages lwr fetched are cited with their snippets, and
// an agent's web citation is checked against them.
func TestWebSources(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	fix := webtest.Fixture{Query: "日当", Results: []webtest.Result{
		{Title: "出張旅費の日当と所得税", URL: "https://www.nta.go.jp/taxanswer/gensen/2508.htm", Snippet: "出張の日当は、通常必要と認められる範囲なら非課税です。1日2,000円程度が目安とされることがあります。"},
	}}
	results := filepath.Join(configtest.TempDir(t), "web.json")
	os.WriteFile(results, fix.WebResult(), 0o644)
	env := configtest.Env(t, "LWR_WEB_PROVIDERS=file", "LWR_WEB_FILE_PATH="+results, "LWR_SOURCE_ROOT="+root)
	cfg, _, err := config.Load(config.Options{Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := research.Configure(cfg, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := options(t, root, ws)
	o.Research = ro
	for _, b := range []struct {
		name, from, to string
		code           string
	}{
		{"a page lwr did not fetch", "(https://www.nta.go.jp/taxanswer/gensen/2508.htm)", "(https://example.com/other)", report.ProblemWebCitation},
		{"a changed snippet", "> 出張の日当は、通常必要と認められる範囲なら非課税です。", "> 出張の日当は、いつでも非課税です。", report.ProblemWebCitation},
		{"a changed title", "[出張旅費の日当と所得税](https", "[日当は非課税](https", report.ProblemWebCitation},
		{"a number the snippet does not state", "- 出張の日当は、通常必要と認められる範囲なら非課税です。【公式一次情報】 [W1]", "- 出張の日当は、1日5,000円まで非課税です。 [W1]", report.ProblemClaimNumber},
	} {
		st, err := deep.Start(context.Background(), o, deep.StartInput{Topic: "出張旅費の規程", Subtopics: []deep.Subtopic{{Name: "日当"}}, Refresh: true})
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, o, st.Slug, deep.RunOptions{Until: deep.PhaseSynthesize})
		draft, _ := os.ReadFile(res.Report)
		if !strings.Contains(string(draft), "### [W1] 出張旅費の日当と所得税\n\n[出張旅費の日当と所得税](https://www.nta.go.jp/taxanswer/gensen/2508.htm)（参照日: 2026-05-31）") {
			t.Fatalf("no web source in the draft:\n%s", draft)
		}
		md := strings.Replace(string(draft), b.from, b.to, 1)
		if md == string(draft) {
			t.Fatalf("%s: the edit did not apply:\n%s", b.name, draft)
		}
		md = strings.Split(md, "<!-- JSON")[0]
		if got := run(t, o, st.Slug, deep.RunOptions{Report: []byte(md)}); got.Status != deep.StatusVerifyFailed || got.Problems[0].Code != b.code {
			t.Errorf("%s: %+v", b.name, got)
		}
		if b.code != report.ProblemClaimNumber {
			continue
		}
		res = run(t, o, st.Slug, deep.RunOptions{})
		if res.Status != deep.StatusConfirmed {
			t.Fatalf("lwr's draft with a web source: %+v", res)
		}
		checkConfirmed(t, root, res.Report, true)
	}

}

func TestConfinementAndBadInput(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	ctx := context.Background()
	for _, slug := range []string{"../x-20260601-abcd", "a/b-20260601-abcd", "出張-2026060-abcd", "CON", "", "出張-20260601-ABCD", "x-20260601-abcd."} {
		if _, err := deep.Run(ctx, o, slug, deep.RunOptions{}); !errors.Is(err, deep.ErrInput) {
			t.Errorf("slug %q: %v", slug, err)
		}
	}
	if _, err := deep.Run(ctx, o, "出張-20260601-abcd", deep.RunOptions{}); !errors.Is(err, deep.ErrNoTopic) {
		t.Errorf("unknown slug: %v", err)
	}
	for _, in := range []deep.StartInput{
		{Topic: "  "},
		{Topic: "x", Subtopics: []deep.Subtopic{{Name: "a"}, {Name: "Ａ"}}},
		{Topic: "x", Subtopics: []deep.Subtopic{{Name: deep.Followup}}},
		{Topic: "x", Subtopics: []deep.Subtopic{{Name: "a", Queries: []string{"1", "2", "3", "4"}}}},
		{Topic: strings.Repeat("長", 501)},
		// Only skip words: nothing to research.
		{Topic: "ローカルのみ"},
		{Topic: " オフライン 社内資料のみ "},
		// More than 5 subtopics: a deep research is made for 3–5.
		{Topic: "x", Subtopics: []deep.Subtopic{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}}},
	} {
		if _, err := deep.Start(ctx, o, in); !errors.Is(err, deep.ErrInput) {
			t.Errorf("start %+v: %v", in, err)
		}
	}
	// Fewer than 3 given by the caller are fine.
	if _, err := deep.Start(ctx, options(t, root, configtest.TempDir(t)), deep.StartInput{Topic: "出張旅費の規程", Subtopics: []deep.Subtopic{{Name: "日当"}}}); err != nil {
		t.Errorf("one subtopic: %v", err)
	}
	if _, err := deep.Run(ctx, o, "x-20260601-abcd", deep.RunOptions{Until: deep.PhaseSearch, Report: []byte("x")}); !errors.Is(err, deep.ErrInput) {
		t.Errorf("--until with a report: %v", err)
	}
	// The deep folder through a link to elsewhere: nothing is written.
	outside := configtest.TempDir(t)
	os.MkdirAll(filepath.Join(ws, "result", "research"), 0o755)
	configtest.Symlink(t, outside, filepath.Join(ws, "result", "research", "deep"))
	if _, err := deep.Start(ctx, o, deep.StartInput{Topic: "出張旅費", Subtopics: travel}); !errors.Is(err, deep.ErrOutsideWorkspace) {
		t.Errorf("start through a link: %v", err)
	}
	if _, err := deep.List(o); !errors.Is(err, deep.ErrOutsideWorkspace) {
		t.Errorf("list through a link: %v", err)
	}
	if files := researchtest.Files(t, outside); len(files) > 0 {
		t.Errorf("written outside the workspace: %v", files)
	}
}

// A damaged state file is a clear error, not a crash or a silent restart.
func TestDamagedState(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", travel)
	os.WriteFile(filepath.Join(st.Dir, deep.StateFile), []byte(`{"version": 1, "phase": "sear`), 0o644)
	_, err := deep.Run(context.Background(), o, st.Slug, deep.RunOptions{SkipWeb: true})
	if !errors.Is(err, deep.ErrDamaged) || !strings.Contains(err.Error(), "remove it") {
		t.Errorf("damaged state: %v", err)
	}
	// A start that stopped before its state was written goes on.
	os.Remove(filepath.Join(st.Dir, deep.StateFile))
	if res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true}); res.Status != deep.StatusConfirmed {
		t.Errorf("without a state: %+v", res)
	}
}

// An invalid currentness file stops the search: no findings, the state
// as it was, and the policy's error for the caller.
func TestInvalidPolicyStopsTheSearch(t *testing.T) {
	root := rulesRoot(t)
	o := options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", travel)
	researchtest.WriteFile(t, filepath.Join(root, ".research-policy", "currentness.json"), `{"version": 1, "records": [`)
	_, err := deep.Run(context.Background(), o, st.Slug, deep.RunOptions{SkipWeb: true})
	if !errors.Is(err, policy.ErrCurrentnessInvalid) {
		t.Fatalf("run with an invalid currentness file: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(st.Dir, deep.FindingsDir, "*")); len(files) > 0 {
		t.Errorf("findings written: %v", files)
	}
	if s, _ := deep.Status(o, st.Slug); s.Phase != deep.PhaseSearch || s.Subtopics[0].Status != "pending" {
		t.Errorf("status %+v", s)
	}
}

// A start that fails (here: no index to propose subtopics from) leaves
// no topic behind.
func TestFailedStartLeavesNothing(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	o.OpenLocal = func(context.Context) (local.Searcher, error) { return nil, errors.New("open index: disk on fire") }
	if _, err := deep.Start(context.Background(), o, deep.StartInput{Topic: "出張旅費の規程"}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("start: %v", err)
	}
	if all, err := deep.List(o); err != nil || len(all) != 0 {
		t.Errorf("topics after a failed start: %+v %v", all, err)
	}
	ents, _ := os.ReadDir(o.Root())
	for _, e := range ents {
		if e.IsDir() {
			t.Errorf("left %s", e.Name())
		}
	}
}

// Evidence from PDF and Office files stops at its article (a caption
// over 第N条), a row left empty, a sheet and a part (a chart, a comment),
// and shows a row's cells as people read them.
func TestOfficeEvidence(t *testing.T) {
	if !extract.PDFReadable() {
		if os.Getenv("LWR_TEST_REQUIRE_PDF") != "" {
			t.Fatal("pdftotext is not installed and LWR_TEST_REQUIRE_PDF is set")
		}
		t.Skip("pdftotext is not installed")
	}
	root := configtest.TempDir(t)
	for _, name := range []string{"経費申請.xlsx", "就業規則_Word.pdf"} {
		data, err := os.ReadFile(filepath.Join(researchtest.Repo(), "index", "extract", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		researchtest.WriteFile(t, filepath.Join(root, name), string(data))
	}
	office := index.Rules{Extensions: []string{".md", ".pdf", ".xlsx"}}
	ctx := context.Background()
	dir := filepath.Join(testIndexDir, "office")
	ix, err := index.Open(ctx, index.Options{Root: root, Dir: dir, Rules: office})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(ctx, index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	o := options(t, root, configtest.TempDir(t))
	o.Sources.Rules = office
	o.OpenLocal = func(context.Context) (local.Searcher, error) {
		return local.NewSession(local.Options{Index: index.Options{Root: root, Dir: dir, Rules: office}}), nil
	}
	st := start(t, o, "経費申請と旅費", []deep.Subtopic{{Name: "宿泊費", Queries: []string{"宿泊費"}}, {Name: "宿泊料", Queries: []string{"宿泊料 日当"}}})
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	md, err := os.ReadFile(res.Report)
	if err != nil || res.Status != deep.StatusConfirmed {
		t.Fatalf("%+v %v", res, err)
	}
	d, _ := report.ParseDeep(md)
	var claims []string
	for _, sec := range d.Sections {
		for _, c := range sec.Claims {
			claims = append(claims, c.Text)
		}
	}
	all := strings.Join(claims, "\n")
	// (Compared without spaces: how a PDF spaces 3,000 円 is the reader's.)
	for _, want := range []string{"費目｜金額｜数量｜備考｜税率/宿泊費｜¥60,000｜｜領収書あり｜10%", "区分日当宿泊料/役員3,000円15,000円/一般社員2,000円12,000円"} {
		if !strings.Contains(strings.ReplaceAll(all, " ", ""), want) {
			t.Errorf("no claim states %q:\n%s", want, all)
		}
	}
	for _, off := range []string{`\t`, "\t", "上限は一泊", "費目別の金額", "換算レート", "雑 則", "改廃"} {
		if strings.Contains(all, off) {
			t.Errorf("a claim runs on into %q:\n%s", off, all)
		}
	}
}

// A topic whose subtopics found no evidence is refused, as lwr research
// refuses a question without evidence: blocked, no report written, the
// problem saying what to do.
func TestNoEvidenceBlocks(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	o := options(t, root, ws)
	st := start(t, o, "量子コンピュータの冷却方式", []deep.Subtopic{{Name: "希釈冷凍機"}, {Name: "超伝導量子ビット"}})
	res := run(t, o, st.Slug, deep.RunOptions{SkipWeb: true})
	if res.Status != deep.StatusBlocked || res.Report != "" || len(res.Problems) != 1 || res.Problems[0].Code != report.ProblemNoEvidence || res.Topic != "量子コンピュータの冷却方式" {
		t.Fatalf("run: %+v", res)
	}

	dir := filepath.Join(ws, "result", "research", "deep", st.Slug)
	if _, err := os.Stat(filepath.Join(dir, deep.ReportFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a report was written: %v", err)
	}
	if ev := events(t, dir); ev[len(ev)-1] != deep.EventBlocked {
		t.Errorf("events %v", ev)
	}
	if s, err := deep.Status(o, st.Slug); err != nil || s.Status != deep.StatusBlocked {
		t.Errorf("status %+v %v", s, err)
	}
	// Subtopics lwr proposes are of the topic: a document the topic's
	// search finds that does not speak of it (a guide that has 規程 in
	// it) is neither a subtopic nor evidence.
	other := researchtest.WriteTree(t, map[string]string{
		"ガイド/Checkstyle利用ガイド.md": "# Checkstyle利用ガイド\n\n静的解析の規程です。チェック違反は3日以内に直す。\n",
		"ガイド/Slack利用ガイドライン.md":   "# Slack利用ガイドライン\n\n出張中はステータスに出張と書く。海外出張では時差を書く。\n",
	})
	oo := options(t, other, configtest.TempDir(t))
	st = start(t, oo, "出張旅費の規程", nil)
	for _, s := range st.Plan.Subtopics {
		if strings.Contains(s.Name, "Checkstyle") {
			t.Errorf("proposed %q", s.Name)
		}
	}
	res = run(t, oo, st.Slug, deep.RunOptions{SkipWeb: true})
	if md, _ := os.ReadFile(res.Report); strings.Contains(string(md), "静的解析") {
		t.Errorf("evidence of a document that does not speak of the topic:\n%s", md)
	}
}

// A workspace that cannot be written is one sentence saying what to do;
// the temp files a killed write left are cleaned when the topic is next
// opened.
func TestUnwritableAndTemps(t *testing.T) {
	root := rulesRoot(t)
	ws := configtest.TempDir(t)
	// result is a file: the deep research folder cannot be made.
	researchtest.WriteFile(t, filepath.Join(ws, "result"), "not a folder")
	o := options(t, root, ws)
	_, err := deep.Start(context.Background(), o, deep.StartInput{Topic: "出張旅費の規程", Subtopics: travel})
	if !errors.Is(err, deep.ErrUnwritable) || !strings.Contains(err.Error(), "cannot write") || !strings.Contains(err.Error(), "--workspace") || strings.Contains(err.Error(), "mkdir") {
		t.Errorf("start in an unwritable workspace: %v", err)
	}

	o = options(t, root, configtest.TempDir(t))
	st := start(t, o, "出張旅費の規程", travel)
	stale := []string{filepath.Join(st.Dir, ".state.json.tmp-0123456789ab"), filepath.Join(st.Dir, deep.FindingsDir, ".01-日当.md.tmp-0123456789ab")}
	for _, p := range stale {
		researchtest.WriteFile(t, p, "{")
	}
	run(t, o, st.Slug, deep.RunOptions{SkipWeb: true, Until: deep.PhaseSearch})
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left: %v", filepath.Base(p), err)
		}
	}
}
