package local

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/policy"
	"lwr/research/researchtest"
)

// builtSample builds the index of a copy of the bundled sample and
// returns the root and the index folder.
func builtSample(t *testing.T) (root, dir string) {
	t.Helper()
	root = researchtest.Sample(t)
	dir = filepath.Join(configtest.TempDir(t), "ix")
	ix, err := index.Open(context.Background(), index.Options{Root: root, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(context.Background(), index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

func TestProtocolCarriesTypedRequests(t *testing.T) {
	q, err := index.ParseQuery(`「申請"期限」 有給 "a b"`)
	if err != nil {
		t.Fatal(err)
	}
	f := FormatJSONExt
	in := wireRequest{V: ProtocolVersion, Op: opSearch, Format: &f, Search: &Request{
		Query: q, Mode: index.FullText, Limit: 3, MaxChars: 200, Synonyms: []string{"年休"},
		Exclude: []string{"メモ/"}, Explain: true, NoHighlights: true, IgnorePreference: true,
	}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out wireRequest
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("the request reads back as\n%+v\nwant\n%+v\n(JSON %s)", out, in, b)
	}
	if !strings.Contains(string(b), `"mode":"fulltext"`) || !strings.Contains(string(b), `"format":"json-ext"`) || !strings.Contains(string(b), `"quoted":true`) {
		t.Errorf("the wire form is not typed JSON: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"v":2,"op":"search","search":{"query":{"words":[{"text":"x"}]},"mode":"fuzzy"}}`), &out); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// serve starts a daemon's server on the index of root, in this process,
// and returns a client of it.
func serve(t *testing.T, root, dir string) *Client {
	t.Helper()
	c, _ := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} })
	return c
}

// serveWith is serve with the server's options (made from the open
// index); it returns the server too.
func serveWith(t *testing.T, root, dir string, opts func(*index.Index) ServerOptions) (*Client, *Server) {
	t.Helper()
	ix, err := index.Open(context.Background(), index.Options{Root: root, Dir: dir, Role: index.RoleWatch})
	if err != nil {
		t.Fatal(err)
	}
	ln, cleanup, token, err := listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	so := opts(ix)
	so.Token = token
	srv := NewServer(ix, nil, so)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, time.Second) }()
	t.Cleanup(func() {
		stop()
		<-done
		cleanup()
		ix.Close()
	})
	c, err := Dial(dir, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

// The daemon answers a typed request exactly as a session on the same
// index does: the same matches, lines, scores and message.
func TestClientAnswersAsTheSession(t *testing.T) {
	root, dir := builtSample(t)
	reqs := []Request{
		{Query: mustQuery(t, `有給休暇 "申請"`), Mode: index.Ranked, Limit: 5, MaxChars: 300},
		{Query: mustQuery(t, "160万円"), Mode: index.FullText},
		{Query: mustQuery(t, "契約事務"), Mode: index.Ranked, IgnorePreference: true, Exclude: []string{"研修/2024"}},
	}
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}})
	var want []*Result
	for _, r := range reqs {
		res, err := s.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, res)
	}
	s.Close()
	c := serve(t, root, dir)
	for i, r := range reqs {
		got, err := c.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Matches) != len(want[i].Matches) || got.Message != want[i].Message || got.Total != want[i].Total {
			t.Fatalf("request %d: daemon %d matches %q, session %d %q", i, len(got.Matches), got.Message, len(want[i].Matches), want[i].Message)
		}
		for k, m := range got.Matches {
			w := want[i].Matches[k]
			if m.Path != w.Path || m.StartLine != w.StartLine || m.EndLine != w.EndLine || m.Score != w.Score || m.Snippet != w.Snippet {
				t.Errorf("request %d match %d: daemon %s:%d-%d %v, session %s:%d-%d %v", i, k, m.Path, m.StartLine, m.EndLine, m.Score, w.Path, w.StartLine, w.EndLine, w.Score)
			}
		}
		text, err := c.Render(context.Background(), r, FormatJSON, false)
		if err != nil || text != Render(want[i], FormatJSON, false) {
			t.Errorf("request %d: rendered by the daemon:\n%s\nby the session:\n%s", i, text, Render(want[i], FormatJSON, false))
		}
	}
	st, err := c.Status(context.Background())
	if err != nil || st.Daemon == nil || st.Index == nil || st.Index.Files == 0 {
		t.Errorf("status = %+v, %v", st, err)
	}
	if p, err := c.Policies(context.Background(), false); err != nil || p.Preferred == 0 {
		t.Errorf("policies = %+v, %v", p, err)
	}
}

func mustQuery(t *testing.T, s string) index.Query {
	t.Helper()
	q, err := index.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// The daemon reads the policy files at every search: an invalid
// currentness file fails the next search with its code, and the client
// matches the sentinel.
func TestClientReportsPolicyErrors(t *testing.T) {
	root, dir := builtSample(t)
	c := serve(t, root, dir)
	researchtest.WriteFile(t, policy.CurrentnessPath(root), `{"version": 1, "records": [`)
	_, err := c.Search(context.Background(), Request{Query: mustQuery(t, "契約")})
	if !errors.Is(err, policy.ErrCurrentnessInvalid) || !strings.HasPrefix(err.Error(), policy.CodeCurrentnessInvalid) {
		t.Errorf("search with an invalid currentness file: %v", err)
	}
	_, err = c.Search(context.Background(), Request{})
	if !errors.Is(err, index.ErrEmptyQuery) {
		t.Errorf("empty request: %v", err)
	}
}

// A token-guarded daemon refuses requests without its token.
func TestServerRefusesAWrongToken(t *testing.T) {
	root, dir := builtSample(t)
	ix, err := index.Open(context.Background(), index.Options{Root: root, Dir: dir, Role: index.RoleWatch})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	srv := NewServer(ix, nil, ServerOptions{Token: "s3cret"})
	var resp wireResponse
	srv.answerLine(context.Background(), []byte(`{"v":2,"op":"status","token":"guess"}`), &resp)
	if resp.Code != codeDenied || resp.Status != nil {
		t.Errorf("a wrong token got %+v", resp)
	}
	resp = wireResponse{}
	srv.answerLine(context.Background(), []byte(`{"v":2,"op":"status","token":"s3cret"}`), &resp)
	if resp.Error != "" || resp.Status == nil {
		t.Errorf("the right token got %+v", resp)
	}
}

// Without a daemon, Open's searcher is a session, and a daemon that
// turned out to be gone (its socket left behind) is left for the session.
func TestOpenFallsBackToTheSession(t *testing.T) {
	root, dir := builtSample(t)
	opens := 0
	opts := Options{Index: index.Options{Root: root, Dir: dir}, OpenIndex: func(ctx context.Context, o index.Options) (*index.Index, error) {
		opens++
		return index.OpenReader(ctx, o)
	}}
	researchtest.WriteFile(t, filepath.Join(dir, "daemon.sock"), "")
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 3 {
		res, err := s.Search(context.Background(), Request{Query: mustQuery(t, "有給休暇")})
		if err != nil || len(res.Matches) == 0 {
			t.Fatalf("search: %v %+v", err, res)
		}
	}
	if opens != 1 {
		t.Errorf("the index was opened %d times for three searches", opens)
	}
}

// A file with CRLF line ends (as Windows editors save them) is cited with
// the exact lines of its hit, in both modes.
func TestCRLFLinesAreExact(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"規程/旅費.md": "# 旅費規程\r\n\r\n第1条 目的\r\n本規程は出張の旅費を定める。\r\n\r\n第2条 宿泊料\r\n宿泊料の上限は一泊12,000円とする。\r\n",
	})
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	lines := strings.Split("# 旅費規程\n\n第1条 目的\n本規程は出張の旅費を定める。\n\n第2条 宿泊料\n宿泊料の上限は一泊12,000円とする。", "\n")
	for _, mode := range []index.Mode{index.Ranked, index.FullText} {
		res, err := s.Search(context.Background(), Request{Query: mustQuery(t, "12,000円"), Mode: mode})
		if err != nil || len(res.Matches) != 1 {
			t.Fatalf("%s: %v %+v", mode, err, res)
		}
		m := res.Matches[0]
		if got := strings.Join(lines[m.StartLine-1:m.EndLine], "\n"); strings.TrimSpace(got) != m.Snippet || !strings.Contains(m.Snippet, "12,000円") || strings.Contains(m.Snippet, "\r") {
			t.Errorf("%s: L%d-L%d snippet %q, lines %q", mode, m.StartLine, m.EndLine, m.Snippet, got)
		}
	}
}

// TestSearchWaitsForTheFirstSync: a daemon still building its first
// index answers ErrSyncing; the client waits (search.sync_wait), says so
// once, and answers when the daemon is ready.
func TestSearchWaitsForTheFirstSync(t *testing.T) {
	root, dir := builtSample(t)
	c, srv := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} })
	srv.ready.Store(false) // as during the first sync
	ctx := context.Background()
	req := Request{Query: mustQuery(t, "有給休暇"), Mode: index.Ranked}
	if _, err := c.Search(ctx, req); !errors.Is(err, ErrSyncing) {
		t.Fatalf("without a wait: %v, want ErrSyncing", err)
	}
	told := 0
	c.syncWait = time.Hour
	c.onSyncWait = func(Status) {
		told++
		srv.MarkReady() // the sync ends while the search waits
	}
	res, err := c.Search(ctx, req)
	if err != nil || len(res.Matches) == 0 {
		t.Fatalf("after the wait: %v, %v", res, err)
	}
	if told != 1 {
		t.Errorf("told %d times that the search waits, want 1", told)
	}
}

// TestSyncOnRequest: a sync request runs a build in the daemon and
// returns what it did; progress is reported meanwhile.
func TestSyncOnRequest(t *testing.T) {
	root, dir := builtSample(t)
	var asked SyncParams
	c, _ := serveWith(t, root, dir, func(ix *index.Index) ServerOptions {
		return ServerOptions{Sync: func(ctx context.Context, p SyncParams) (index.BuildStats, error) {
			asked = p
			return ix.Build(ctx, index.BuildOptions{Force: p.Force, Audit: p.Audit})
		}}
	})
	ctx := context.Background()
	researchtest.WriteFile(t, filepath.Join(root, "新規/追加.md"), "# 追加\n\n新しく置いた文書。\n")
	st, err := c.Sync(ctx, SyncParams{Audit: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || !st.Audited || !asked.Audit {
		t.Errorf("sync: %+v (asked %+v), want one file added by an audit", st, asked)
	}
}

// blockingSearch stands in for the server's session: a search runs until
// its context ends, and says so.
type blockingSearch struct {
	started, ended chan struct{}
}

func (b blockingSearch) Search(ctx context.Context, _ Request) (*Result, error) {
	close(b.started)
	<-ctx.Done()
	close(b.ended)
	return nil, ctx.Err()
}

func (blockingSearch) Policies(context.Context, bool) (policy.Policies, error) {
	return policy.Policies{}, nil
}

// TestDaemonStopsAWorkItsClientGaveUp: a client that goes away (its
// context ends: an interrupt, its own timeout) ends the daemon's work on
// its request.
func TestDaemonStopsAWorkItsClientGaveUp(t *testing.T) {
	root, dir := builtSample(t)
	c, srv := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} })
	b := blockingSearch{started: make(chan struct{}), ended: make(chan struct{})}
	srv.search = b
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Search(ctx, Request{Query: mustQuery(t, "有給休暇")})
		done <- err
	}()
	<-b.started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the client's search: %v; want context.Canceled", err)
	}
	select {
	case <-b.ended:
	case <-time.After(time.Minute): // a guard against a hang, not a measure
		t.Fatal("the daemon's search went on after its client went away")
	}
}

// TestKilledDaemonMakesSearchesSayStale: after the daemon that kept an
// index was killed (its owner file is left behind, no lock is held), a
// search in this process says the index may be stale, and why.
func TestKilledDaemonMakesSearchesSayStale(t *testing.T) {
	root, dir := builtSample(t)
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}})
	defer s.Close()
	req := Request{Query: mustQuery(t, "有給休暇")}
	res, err := s.Search(context.Background(), req)
	if err != nil || res.Stale != "" {
		t.Fatalf("a search of a built index: stale %q, %v", res.Stale, err)
	}
	// What `kill -9` of lwr index watch leaves.
	if err := os.WriteFile(filepath.Join(dir, "lock.owner"), []byte("4242 lwr index watch\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err = s.Search(context.Background(), req)
	if err != nil || !strings.Contains(res.Stale, "process 4242") || !strings.Contains(res.Message, "索引が古い可能性") {
		t.Errorf("a search after the daemon was killed: stale %q, message %q, %v", res.Stale, res.Message, err)
	}
}

// slowSearch answers after a while.
type slowSearch struct{ took time.Duration }

func (s slowSearch) Search(ctx context.Context, _ Request) (*Result, error) {
	select {
	case <-time.After(s.took):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &Result{Result: &index.Result{}}, nil
}

func (slowSearch) Policies(context.Context, bool) (policy.Policies, error) {
	return policy.Policies{}, nil
}

// TestSlowDaemonIsWaitedFor: search.daemon_timeout bounds the daemon's
// silence, not its work: a search that takes many times the timeout is
// waited for while the daemon says it works (as one slowed by a loaded
// machine), and answers.
func TestSlowDaemonIsWaitedFor(t *testing.T) {
	root, dir := builtSample(t)
	_, srv := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{Heartbeat: 10 * time.Millisecond} })
	srv.search = slowSearch{took: time.Second}
	c, err := Dial(dir, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(context.Background(), Request{Query: mustQuery(t, "有給休暇")}); err != nil {
		t.Errorf("a search of three times the timeout: %v", err)
	}
}
