package research

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/index"
	"lwr/policy"
	"lwr/web"
)

// section returns the text of section n (1–5) of a report.
func section(md string, n int) string {
	heads := SectionHeadings()
	i := strings.Index(md, heads[n-1])
	if i < 0 {
		return ""
	}
	rest := md[i+len(heads[n-1]):]
	if n < 5 {
		if j := strings.Index(rest, heads[n]); j >= 0 {
			return rest[:j]
		}
	}
	if j := strings.Index(rest, jsonMarker); j >= 0 {
		return rest[:j]
	}
	return rest
}

// comment decodes a report's JSON comment.
func comment(t testing.TB, md []byte) Comment {
	t.Helper()
	raw, p := ExtractComment(md)
	if p != nil {
		t.Fatalf("no JSON comment: %v", p)
	}
	var c Comment
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// runIn runs the pipeline into a fresh workspace.
func runIn(t *testing.T, opts Options) (*Outcome, string, error) {
	t.Helper()
	ws := t.TempDir()
	if opts.Now == nil {
		opts.Now = testNow
	}
	out, err := Run(context.Background(), opts, FinalizeOptions{Workspace: ws})
	return out, ws, err
}

// smallRoot is a source root of three documents: two match 有給休暇,
// one (経費.md) does not; 退避 (a deep-drill keyword) is only in 手順.md.
func smallRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "規程/休暇.md"), "# 休暇規程\n\n有給休暇の申請は3営業日前までに行う。\n")
	writeFile(t, filepath.Join(root, "手順/手順.md"), "# 申請手順\n\n有給休暇の申請は勤怠システムで行う。\nデータの退避は毎週金曜。\n")
	writeFile(t, filepath.Join(root, "メモ/経費.md"), "# 経費\n\n交通費の精算は月末締め。\n")
	return root
}

func TestDegradedPaths(t *testing.T) {
	sample := sampleRoot(t)
	sampleIx := openIndex(t, sample)
	small := smallRoot(t)
	smallIx := openIndex(t, small)
	twoFiles := t.TempDir()
	writeFile(t, filepath.Join(twoFiles, "a.md"), "# A\n\n有給休暇の申請期限。\n")
	writeFile(t, filepath.Join(twoFiles, "b.md"), "# B\n\n有給休暇の日数。\n")
	twoIx := openIndex(t, twoFiles)

	okWeb := func() *fakeProvider { return &fakeProvider{entries: goodEntries()} }
	tests := []struct {
		name     string
		query    string
		root     string
		local    LocalSearcher
		web      *fakeProvider
		noWeb    bool
		skipWeb  bool
		reason   string   // failure reason; "" = a report
		want     []string // sentences in the report
		section  int      // where the first sentence must be
		deep     string   // deep-drill skip reason, "" = not skipped
		webCalls int      // -1: not checked
	}{
		{name: "local empty, web ok", query: "xyzzy plugh", root: sample, local: localOf(sampleIx, sample), web: okWeb(),
			want: []string{SentenceLocalEmpty}, section: 1, webCalls: 1},
		{name: "web error", query: "随意契約 上限額", root: sample, local: localOf(sampleIx, sample), web: &fakeProvider{err: errors.New("HTTP 500")},
			want: []string{SentenceWebFailed}, section: 2, deep: DeepSkipWebError, webCalls: 1},
		{name: "both failing", query: "随意契約 上限額", root: sample, local: LocalFunc(failingLocal), web: &fakeProvider{err: errors.New("HTTP 500")},
			reason: ReasonSearchFailed, webCalls: 1},
		{name: "local failed, web ok", query: "随意契約 上限額", root: sample, local: LocalFunc(failingLocal), web: okWeb(),
			want: []string{SentenceLocalFailed, SentenceLocalEmpty}, section: 1, deep: DeepSkipLocalError, webCalls: 1},
		{name: "no source root", query: "随意契約 上限額", root: filepath.Join(t.TempDir(), "missing"), local: LocalFunc(failingLocal), web: okWeb(),
			want: []string{MissingRootSentence, SentenceLocalEmpty}, section: 1, deep: DeepSkipNoRoot, webCalls: 1},
		{name: "no source root, no web", query: "随意契約", root: filepath.Join(t.TempDir(), "missing"), local: LocalFunc(failingLocal), skipWeb: true,
			reason: ReasonNoEvidence, webCalls: -1},
		{name: "skip word in the query", query: "随意契約 上限額 ローカルのみ", root: sample, local: localOf(sampleIx, sample), web: okWeb(),
			want: []string{SentenceWebSkippedByUser, "クエリ中の「ローカルのみ」"}, section: 2, deep: DeepSkipUser, webCalls: 0},
		{name: "skip-web flag", query: "随意契約 上限額", root: sample, local: localOf(sampleIx, sample), web: okWeb(), skipWeb: true,
			want: []string{SentenceWebSkippedByUser}, section: 2, deep: DeepSkipUser, webCalls: 0},
		{name: "web unconfigured", query: "随意契約 上限額", root: sample, local: localOf(sampleIx, sample), noWeb: true,
			want: []string{SentenceWebUnconfigured}, section: 2, deep: DeepSkipWebNone, webCalls: -1},
		{name: "web empty", query: "随意契約 上限額", root: sample, local: localOf(sampleIx, sample), web: &fakeProvider{},
			want: []string{SentenceWebEmpty}, section: 2, deep: DeepSkipWebEmpty, webCalls: 1},
		{name: "every file already matched", query: "有給休暇", root: twoFiles, local: localOf(twoIx, twoFiles), web: okWeb(),
			deep: DeepSkipAllMatched, webCalls: 1},
		{name: "no new keyword in the index", query: "有給休暇", root: small, local: localOf(smallIx, small),
			web:  &fakeProvider{entries: []web.Entry{{Title: "有給休暇", URL: "https://example.com/a", Snippet: "ブロックチェーンと暗号資産の有給休暇"}}},
			deep: DeepSkipNoKeywords, webCalls: 1},
		{name: "deep-drill finds nothing new", query: "有給休暇", root: small, local: localOf(smallIx, small),
			web:  &fakeProvider{entries: []web.Entry{{Title: "データの退避", URL: "https://example.com/b", Snippet: "退避の手順"}}},
			want: []string{"深堀りキーワード: 退避", SentenceDeepNoNew}, section: 3, webCalls: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Query: tc.query, SourceRoot: tc.root, Local: tc.local, SkipWeb: tc.skipWeb, Timestamp: testNow()}
			if !tc.noWeb && tc.web != nil {
				opts.Web = webOf(t, tc.web)
			}
			out, ws, err := runIn(t, opts)
			if tc.webCalls >= 0 && tc.web != nil && tc.web.calls != tc.webCalls {
				t.Errorf("web provider called %d times, want %d", tc.web.calls, tc.webCalls)
			}
			if tc.reason != "" {
				var f *Failure
				if !errors.As(err, &f) || f.Reason != tc.reason {
					t.Fatalf("err = %v, want a failure %s", err, tc.reason)
				}
				if got := listFiles(t, filepath.Join(ws, DefaultOutputDir)); slices.ContainsFunc(got, func(s string) bool { return strings.HasSuffix(s, ".md") }) {
					t.Fatalf("a failed research wrote a report: %v", got)
				}
				checkFailureEvidence(t, ws, tc.query)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			md := string(out.Markdown)
			if ps := Validate(out.Markdown); len(ps) > 0 {
				t.Fatalf("invalid report: %v\n%s", ps, md)
			}
			for i, w := range tc.want {
				where := md
				if i == 0 && tc.section > 0 {
					where = section(md, tc.section)
				}
				if !strings.Contains(where, w) {
					t.Errorf("the report lacks %q (section %d):\n%s", w, tc.section, md)
				}
			}
			deep := section(md, 3)
			if tc.deep != "" {
				if !strings.Contains(deep, DeepSkippedSentence(tc.deep)) || out.Report.Deep.Status != StatusSkipped {
					t.Errorf("deep-drill: want %q, got status %s:\n%s", DeepSkippedSentence(tc.deep), out.Report.Deep.Status, deep)
				}
			} else if strings.Contains(deep, "深堀り再検索: スキップ") {
				t.Errorf("deep-drill skipped: %s", deep)
			}
		})
	}
}

// checkFailureEvidence checks that a failed run left its evidence with
// the fixed fields only, and no temp file.
func checkFailureEvidence(t *testing.T, ws, query string) {
	t.Helper()
	out := filepath.Join(ws, DefaultOutputDir)
	if tmp := tempFiles(t, ws); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	runs, _ := filepath.Glob(filepath.Join(out, ".run-state", "*", "failure-summary.json"))
	if len(runs) != 1 {
		t.Fatalf("want one failure summary, got %v (files %v)", runs, listFiles(t, ws))
	}
	data, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"reason", "run_id", "schema_version", "timestamp"}) {
		t.Errorf("failure summary fields = %v", keys)
	}
	if !slices.Contains(Reasons(), m["reason"].(string)) {
		t.Errorf("reason %v is not a fixed code", m["reason"])
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(runs[0]), "expected-artifacts.manifest.json")); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	// No user text anywhere in the evidence.
	for _, f := range listFiles(t, filepath.Join(out, ".run-state")) {
		b, _ := os.ReadFile(filepath.Join(out, ".run-state", f))
		for _, w := range strings.Fields(query) {
			if bytes.Contains(b, []byte(w)) {
				t.Errorf("%s holds the query text %q:\n%s", f, w, b)
			}
		}
	}
}

func TestResearchSampleOffline(t *testing.T) {
	root := sampleRoot(t)
	ix := openIndex(t, root)
	opts := Options{Query: "随意契約 上限額", SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Timestamp: testNow(), Now: testNow}
	ws := t.TempDir()
	out, err := Run(context.Background(), opts, FinalizeOptions{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	f := out.Finalized
	if f.Status != FinalizeOK || f.Name != "research_20260601T120000Z.md" {
		t.Fatalf("finalized %+v", f)
	}
	md, err := os.ReadFile(f.Report)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, md, root)
	checkHandOff(t, ws, f)
	// The same research again: the same bytes, skipped.
	again, err := Run(context.Background(), opts, FinalizeOptions{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	if again.Finalized.Status != FinalizeSkipped || again.Finalized.Report != f.Report {
		t.Fatalf("second run: %+v", again.Finalized)
	}
	if got := listFiles(t, filepath.Join(ws, DefaultOutputDir)); len(got) != 3 {
		t.Errorf("files after the second run: %v", got)
	}
}

// checkReport validates a report and checks every citation of it against
// the files: the quoted snippet is the text of the cited lines, and the
// sources of section 5 and of the JSON comment agree.
func checkReport(t *testing.T, md []byte, root string) {
	t.Helper()
	if ps := Validate(md); len(ps) > 0 {
		t.Fatalf("invalid report: %v", ps)
	}
	c := comment(t, md)
	lines := strings.Split(string(md), "\n")
	type cite struct {
		path       string
		start, end int
	}
	var cites []cite
	for i, l := range lines {
		m := citeRe.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(l, "[") {
			continue
		}
		a := anchorRe.FindStringSubmatch(strings.Trim(m[2], "<>"))
		var s, e int
		fmtSscan(a[2], &s)
		fmtSscan(a[3], &e)
		cites = append(cites, cite{a[1], s, e})
		// The quoted snippet follows, in a fenced block.
		j := i + 1
		for j < len(lines) && lines[j] == "" {
			j++
		}
		f := fenceOf(lines[j])
		if f == "" {
			t.Fatalf("no quoted snippet after line %d: %q", i+1, l)
		}
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) != f {
			k++
		}
		quoted := strings.Join(lines[j+1:k], "\n")
		data, err := os.ReadFile(a[1])
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := index.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		fl := index.Lines(text)
		if e > len(fl) {
			t.Fatalf("%s has %d lines, cited L%d-L%d", a[1], len(fl), s, e)
		}
		cited := strings.Join(fl[s-1:e], "\n")
		if strings.TrimSpace(cited) != strings.TrimSpace(quoted) {
			t.Errorf("%s L%d-L%d does not hold the quoted text:\ncited:\n%s\nquoted:\n%s", a[1], s, e, cited, quoted)
		}
		if !strings.HasPrefix(a[1], root) {
			t.Errorf("citation %s is outside the source root %s", a[1], root)
		}
	}
	var local []CommentSource
	for _, s := range c.Sources {
		if s.SourceType == "local" {
			local = append(local, s)
		}
	}
	if len(cites) != len(local) {
		t.Fatalf("%d citations, %d local sources in the JSON", len(cites), len(local))
	}
	for i, s := range local {
		if s.Path != cites[i].path || s.Lines.Start != cites[i].start || s.Lines.End != cites[i].end {
			t.Errorf("source %d: JSON %s L%d-L%d, citation %+v", i, s.Path, s.Lines.Start, s.Lines.End, cites[i])
		}
	}
}

func fmtSscan(s string, n *int) {
	v := 0
	for _, c := range s {
		v = v*10 + int(c-'0')
	}
	*n = v
}

// checkHandOff checks the context file, the schema-version log and the
// last-output pointer of a finalized report.
func checkHandOff(t *testing.T, ws string, f *Finalized) {
	t.Helper()
	md, err := os.ReadFile(f.Report)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.Context)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := compileStrict("urn:test:context", contextSchemaJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateJSON(sch, data); err != nil {
		t.Fatalf("context does not validate: %v\n%s", err, data)
	}
	c, err := ReadContext(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Report.SHA256 != sha256Hex(md) || c.Report.Path != f.Report {
		t.Errorf("context report = %+v, want sha %s", c.Report, sha256Hex(md))
	}
	var last map[string]string
	b, err := os.ReadFile(filepath.Join(ws, DefaultOutputDir, LastOutputFile))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &last)
	if last["status"] != "success" || last["path"] != f.Report {
		t.Errorf("last output = %v", last)
	}
	var log map[string]string
	b, err = os.ReadFile(f.Log)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &log)
	if log["schema_version"] != reportSchemaVersion(md) || log["output_file"] != DefaultOutputDir+"/"+f.Name {
		t.Errorf("schema-version log = %v", log)
	}
	if tmp := tempFiles(t, ws); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	if _, err := os.Stat(filepath.Join(ws, DefaultOutputDir, ".run-state")); err == nil {
		t.Errorf("a successful run left run state: %v", listFiles(t, ws))
	}
}

func TestResearchWithWebAndDeepDrill(t *testing.T) {
	root := sampleRoot(t)
	ix := openIndex(t, root)
	p := &fakeProvider{entries: append(goodEntries(), hostileEntry())}
	opts := Options{Query: "随意契約 上限額", SourceRoot: root, Local: localOf(ix, root), Web: webOf(t, p), Timestamp: testNow(), Now: testNow}
	out, _, err := runIn(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	md := string(out.Markdown)
	checkReport(t, out.Markdown, root)
	r := out.Report
	if r.Web.Status != StatusOK || len(r.Web.Hits) != 3 {
		t.Fatalf("web = %s, %d hits", r.Web.Status, len(r.Web.Hits))
	}
	if r.Deep.Status != StatusOK || len(r.Deep.Keywords) == 0 {
		t.Fatalf("deep = %+v\n%s", r.Deep, section(md, 3))
	}
	prior := map[string]bool{}
	for _, h := range r.Local.Hits {
		prior[h.Path] = true
	}
	for _, h := range r.Deep.Hits {
		if prior[h.Path] {
			t.Errorf("deep-drill returned a Phase B path: %s", h.Path)
		}
	}
	if !strings.Contains(section(md, 3), "深堀りキーワード: ") {
		t.Errorf("no keywords in section 3:\n%s", section(md, 3))
	}
	// The hostile result: sanitized, with the verdict.
	web := section(md, 2)
	for _, bad := range []string{"<script", "<iframe", "Ignore previous instructions", "前の指示を無視", "\u200b"} {
		if strings.Contains(md, bad) {
			t.Errorf("the report holds %q", bad)
		}
	}
	if !strings.Contains(web, "サニタイズ判定: 要確認") || !strings.Contains(web, "［REMOVED］") {
		t.Errorf("the web section lacks the verdict or the removal marks:\n%s", web)
	}
	// Sources: L#, W#, DL# in order, as in the JSON comment.
	c := comment(t, out.Markdown)
	var refs []string
	for _, l := range strings.Split(section(md, 5), "\n") {
		if strings.HasPrefix(l, "- [") {
			refs = append(refs, l[3:strings.Index(l, "]")])
		}
	}
	if len(refs) != len(c.Sources) {
		t.Fatalf("section 5 lists %v, the JSON %d sources", refs, len(c.Sources))
	}
	for i, ref := range refs {
		want := "local"
		if strings.HasPrefix(ref, "W") {
			want = "web"
			if c.Sources[i].URL != r.Web.Hits[i-len(r.Local.Hits)].Entry.URL {
				t.Errorf("source %d URL %s", i, c.Sources[i].URL)
			}
		}
		if c.Sources[i].SourceType != want {
			t.Errorf("source %d (%s) is %s in the JSON", i, ref, c.Sources[i].SourceType)
		}
	}
}

func TestResearchWebCache(t *testing.T) {
	root := sampleRoot(t)
	ix := openIndex(t, root)
	cacheDir := t.TempDir()
	opener := func(ro bool) (WebCache, error) {
		c, err := web.OpenCache(cacheDir, "web-cache.db", web.CacheOptions{ReadOnly: ro, Now: testNow})
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	kw := NewKeywordCache(filepath.Join(cacheDir, "kw"), testNow)
	p := &fakeProvider{entries: goodEntries()}
	opts := Options{Query: "随意契約 上限額", SourceRoot: root, Local: localOf(ix, root), Web: webOf(t, p), Cache: opener, Keywords: kw, Timestamp: testNow(), Now: testNow}
	first, _, err := runIn(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok := &countingTokenizer{}
	opts.Tokenizer = tok
	second, _, err := runIn(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 1 || first.Report.Web.Cache != "miss" || second.Report.Web.Cache != "hit" {
		t.Fatalf("provider calls %d, cache %s then %s", p.calls, first.Report.Web.Cache, second.Report.Web.Cache)
	}
	if tok.n != 0 {
		t.Errorf("the cached run tokenized %d texts; the keyword cache should answer", tok.n)
	}
	if !slices.Equal(first.Report.Deep.Keywords, second.Report.Deep.Keywords) || !bytes.Equal([]byte(section(string(first.Markdown), 3)), []byte(section(string(second.Markdown), 3))) {
		t.Errorf("cached run differs: %v vs %v", first.Report.Deep.Keywords, second.Report.Deep.Keywords)
	}
	// A failing provider is remembered as a negative entry.
	q := opts
	q.Query = "電子契約 押印"
	q.Web = webOf(t, &fakeProvider{err: errors.New("down")})
	q.Tokenizer = nil
	if _, _, err := runIn(t, q); err != nil {
		t.Fatal(err)
	}
	p2 := &fakeProvider{entries: goodEntries()}
	q.Web = webOf(t, p2)
	out, _, err := runIn(t, q)
	if err != nil {
		t.Fatal(err)
	}
	if p2.calls != 0 || out.Report.Web.Cache != "negative" || out.Report.Web.Status != StatusError && out.Report.Web.Status != StatusEmpty {
		t.Errorf("negative entry: calls %d, cache %s, status %s", p2.calls, out.Report.Web.Cache, out.Report.Web.Status)
	}
}

type countingTokenizer struct{ n int }

func (c *countingTokenizer) Tokens(text string) []analyzer.Token {
	c.n++
	return nil
}

func TestResearchPolicyFailures(t *testing.T) {
	root := sampleRoot(t)
	ix := openIndex(t, root)
	writeFile(t, policy.CurrentnessPath(root), `{"version": 1, "records": [{"id": "x", "paths": ["a.md"], "action": "guess"}]}`)
	p := &fakeProvider{entries: goodEntries()}
	opts := Options{Query: "随意契約 上限額", SourceRoot: root, Local: localOf(ix, root), Web: webOf(t, p), Timestamp: testNow()}
	_, ws, err := runIn(t, opts)
	var f *Failure
	if !errors.As(err, &f) || f.Reason != ReasonCurrentnessInvalid || !errors.Is(err, policy.ErrCurrentnessInvalid) {
		t.Fatalf("err = %v", err)
	}
	if p.calls != 0 {
		t.Errorf("the web was searched although the research had stopped")
	}
	checkFailureEvidence(t, ws, opts.Query)
	for _, f := range listFiles(t, ws) {
		if strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".context.json") {
			t.Errorf("wrote %s", f)
		}
	}
}
