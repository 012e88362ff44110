package daemon

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/index/extract"
	"lwr/policy"
	"lwr/research/local"
)

var update = flag.Bool("update", false, "rewrite testdata/wire/*.json")

// gen makes random values of the types the wire carries.
type gen struct{ r *rand.Rand }

func (g gen) str() string {
	words := []string{"有給休暇", "申請", "規程/就業規則.md", "a b", `"quoted"`, "", "𠮷野家", "\n", "100%"}
	return words[g.r.IntN(len(words))]
}

func (g gen) strs() []string {
	if g.r.IntN(3) == 0 {
		return nil
	}
	out := make([]string, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.str()
	}
	return out
}

func (g gen) time() time.Time {
	if g.r.IntN(4) == 0 {
		return time.Time{}
	}
	return time.Unix(1_700_000_000+g.r.Int64N(1e8), g.r.Int64N(1e9)).UTC()
}

func (g gen) locator() *extract.Locator {
	if g.r.IntN(2) == 0 {
		return nil
	}
	return &extract.Locator{Page: g.r.IntN(9), Sheet: g.str(), Row: g.r.IntN(99), Slide: g.r.IntN(9), Heading: g.str()}
}

func (g gen) request() local.Request {
	r := local.Request{Mode: index.Mode(g.r.IntN(2)), Limit: g.r.IntN(50), MaxChars: g.r.IntN(2000), Synonyms: g.strs(), Exclude: g.strs(), Only: g.strs(),
		Explain: g.r.IntN(2) == 0, NoHighlights: g.r.IntN(2) == 0, IgnorePreference: g.r.IntN(2) == 0}
	for range 1 + g.r.IntN(3) {
		r.Query.Words = append(r.Query.Words, index.Word{Text: g.str(), Quoted: g.r.IntN(2) == 0})
	}
	return r
}

func (g gen) result() *local.Result {
	ir := &index.Result{Mode: index.Mode(g.r.IntN(2)), Total: g.r.IntN(99), Scanned: g.r.IntN(999), Terms: g.strs(), Content: g.strs(), Synonyms: g.strs(), Plan: g.str(),
		Took: time.Duration(g.r.Int64N(1e10))}
	r := &local.Result{Root: g.str(), Result: ir, Words: g.strs(), Message: g.str(), Synced: g.time(), Stale: g.str(),
		Policies: policy.Policies{Preferences: g.str(), Preferred: g.r.IntN(5), PreferenceIgnored: g.r.IntN(2) == 0, Records: g.r.IntN(5)}}
	for range g.r.IntN(4) {
		m := index.Match{Path: g.str(), Score: g.r.Float64() * 10, Snippet: g.str(), StartLine: g.r.IntN(99), EndLine: g.r.IntN(99), ModTime: g.time(),
			Occurrences: g.r.IntN(9), PassageStart: g.r.IntN(9), PassageEnd: g.r.IntN(9), Passage: g.str(), Title: g.str(), SHA256: g.str(),
			Locator: g.locator(), OwnMatch: g.r.IntN(2) == 0, Explain: g.str()}
		if g.r.IntN(2) == 0 {
			m.Highlights = [][2]int{{g.r.IntN(9), g.r.IntN(9)}}
			m.Editions = []edition.Edition{{Kind: edition.Kind(g.r.IntN(5)), Raw: g.str(), Value: g.str(), Year: g.r.IntN(2030), Line: g.r.IntN(9)}}
			m.Also = []index.Excerpt{{StartLine: g.r.IntN(99), EndLine: g.r.IntN(99), Snippet: g.str()}}
			m.Kind = index.DocKind(g.str())
			m.Answer = &index.Answer{StartLine: g.r.IntN(99), EndLine: g.r.IntN(99), Text: g.str(), Kind: g.str(), Stated: g.r.Float64(),
				Coverage: g.r.Float64(), Asked: g.str(), Leads: g.r.IntN(2) == 0, Why: g.str()}
		}
		ir.Matches = append(ir.Matches, m)
		r.Annotations = append(r.Annotations, policy.Ext{Path: m.Path, Edition: g.str(), Message: g.str(), Relations: []policy.Relation{}, Currentness: []policy.ExtRecord{}, Editions: []edition.Edition{}})
		r.Locations = append(r.Locations, local.Location{Format: g.str(), Locator: g.locator(), Label: g.str(), SuspiciousPatterns: g.strs()})
		r.Notes = append(r.Notes, local.Note{Edition: g.str(), Relation: g.str(), Records: g.str()})
	}
	return r
}

// roundTrip sends v through JSON as its wire type does.
func roundTrip[W any](t *testing.T, w W) W {
	t.Helper()
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back W
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// TestWireRoundTrip: every request, result, status and build that goes
// over the wire reads back as it was, whatever it holds.
func TestWireRoundTrip(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for i := range 500 {
		req := g.request()
		back, err := fromWireSearch(roundTrip(t, toWireSearch(req)))
		if err != nil || !reflect.DeepEqual(back, req) {
			t.Fatalf("request %d reads back as\n%+v\n%v\nwant\n%+v", i, back, err, req)
		}
		res := g.result()
		got, err := fromWireResult(roundTrip(t, toWireResult(res)))
		if err != nil || !reflect.DeepEqual(got, res) {
			t.Fatalf("result %d reads back as\n%+v\n%v\nwant\n%+v", i, got, err, res)
		}
		ds := local.DaemonStatus{PID: g.r.IntN(9999), Started: g.time(), Root: g.str(), Dir: g.str(),
			Index: index.Status{Root: g.str(), Schema: g.str(), Files: g.r.IntN(9), Passages: g.r.Uint64N(99), LastSync: g.time(), Ready: g.r.IntN(2) == 0, Bytes: g.r.Int64N(1e9)},
			Watch: index.WatchState{Mode: g.str(), Pending: g.r.IntN(9), LastSync: g.time(), Syncs: g.r.IntN(9), Syncing: g.r.IntN(2) == 0}}
		if back := fromWireStatus(roundTrip(t, toWireStatus(ds))); !reflect.DeepEqual(*back, ds) {
			t.Fatalf("status %d reads back as\n%+v\nwant\n%+v", i, *back, ds)
		}
		bs := index.BuildStats{Added: g.r.IntN(9), Skipped: g.r.IntN(9), Files: g.r.IntN(99), Audited: g.r.IntN(2) == 0, Rebuilt: g.str(), Took: time.Duration(g.r.Int64N(1e10))}
		if back := fromWireBuild(roundTrip(t, toWireBuild(bs))); back != bs {
			t.Fatalf("build %d reads back as %+v, want %+v", i, back, bs)
		}
	}
}

// TestWireGolden pins the protocol: a request and an answer written as
// testdata/wire holds them (go test -update rewrites them). A change of
// the messages shows here, and must come with a new ProtocolVersion.
func TestWireGolden(t *testing.T) {
	q, _ := index.ParseQuery(`「申請"期限」 有給`)
	req := wireRequest{V: ProtocolVersion, Op: opSearch, Schema: "lwr-index-x", Search: toWireSearch(local.Request{
		Query: q, Mode: index.FullText, Limit: 3, MaxChars: 200, Synonyms: []string{"年休"}, Exclude: []string{"メモ/"}, Explain: true, IgnorePreference: true})}
	at := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	res := &local.Result{Root: "/r", Words: []string{"有給"}, Message: "mode=ranked", Synced: at, Locations: []local.Location{{}}, Notes: []local.Note{{Edition: "版不明", Relation: "なし"}},
		Annotations: []policy.Ext{{Path: "a.md", Edition: "版不明", Editions: []edition.Edition{}, Relations: []policy.Relation{}, Currentness: []policy.ExtRecord{}}},
		Result: &index.Result{Mode: index.Ranked, Total: 1, Scanned: 2, Terms: []string{"有給"}, Took: time.Millisecond,
			Matches: []index.Match{{Path: "a.md", Score: 1.5, Snippet: "有給休暇", StartLine: 2, EndLine: 2, ModTime: at, Title: "休暇", SHA256: "ab"}}}}
	resp := wireResponse{V: ProtocolVersion, OK: true, Result: toWireResult(res)}
	for name, v := range map[string]any{"search-request.json": req, "search-response.json": resp} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join("testdata", "wire", name)
		if *update {
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if strings.TrimSpace(string(want)) != string(b) {
			t.Errorf("%s changed (a protocol change needs a new ProtocolVersion; go test -update rewrites it):\n%s", name, b)
		}
	}
}
