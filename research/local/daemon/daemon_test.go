package daemon

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
	"lwr/research/local/localtest"
	"lwr/research/researchtest"
)

// serveWith starts a daemon's server on the index of root, in this
// process (a session on the index opened for writing, as the daemon's),
// with the options made from the open index (and the server changed by
// set before it serves); it returns a client of it (timeout 10s) and the
// server.
func serveWith(t *testing.T, root, dir string, opts func(*index.Index) ServerOptions, set ...func(*Server)) (*Client, *Server) {
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
	so.Token, so.Schema = token, ix.Schema()
	if so.Watch == nil {
		so.Watch = ix.WatchState
	}
	srv := NewServer(local.SessionOn(ix, nil, local.Options{}), true, so)
	for _, f := range set {
		f(srv)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, time.Second) }()
	t.Cleanup(func() {
		stop()
		<-done
		cleanup()
		ix.Close()
	})
	c, err := Dial(dir, ix.Schema(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

func serve(t *testing.T, root, dir string) *Client {
	t.Helper()
	c, _ := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} })
	return c
}

func mustQuery(t *testing.T, s string) index.Query {
	t.Helper()
	q, err := index.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestClientConformance: the daemon's client passes the tests every
// Searcher passes (its answers are the session's, through the wire).
func TestClientConformance(t *testing.T) {
	open := func(t *testing.T, root, dir string) local.Searcher { return serve(t, root, dir) }
	localtest.Suite(t, open)
	t.Run("invalid policies", func(t *testing.T) { localtest.InvalidPolicies(t, open) })
}

// TestRouterConformance: the router passes them through a daemon, and
// without one (a session in this process).
func TestRouterConformance(t *testing.T) {
	t.Run("through the daemon", func(t *testing.T) {
		localtest.Suite(t, func(t *testing.T, root, dir string) local.Searcher {
			serve(t, root, dir)
			s, err := Open(context.Background(), Options{Local: local.Options{Index: index.Options{Root: root, Dir: dir}}})
			if err != nil {
				t.Fatal(err)
			}
			if st, err := s.Status(context.Background()); err != nil || st.Daemon == nil {
				t.Fatalf("the router does not go through the daemon: %+v %v", st, err)
			}
			return s
		})
	})
	t.Run("without a daemon", func(t *testing.T) {
		localtest.Suite(t, func(t *testing.T, root, dir string) local.Searcher {
			s, err := Open(context.Background(), Options{Local: local.Options{Index: index.Options{Root: root, Dir: dir}}})
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
}

// The daemon reads the policy files at every search: a currentness file
// made invalid while it runs fails the next search with its code.
func TestDaemonReadsPoliciesAtEverySearch(t *testing.T) {
	root, dir := localtest.Build(t)
	c := serve(t, root, dir)
	if _, err := c.Search(context.Background(), local.Request{Query: mustQuery(t, "契約")}); err != nil {
		t.Fatal(err)
	}
	researchtest.WriteFile(t, policy.CurrentnessPath(root), `{"version": 1, "records": [`)
	if _, err := c.Search(context.Background(), local.Request{Query: mustQuery(t, "契約")}); !errors.Is(err, policy.ErrCurrentnessInvalid) {
		t.Errorf("search with an invalid currentness file: %v", err)
	}
}

// A token-guarded daemon refuses requests without its token.
func TestServerRefusesAWrongToken(t *testing.T) {
	root, dir := localtest.Build(t)
	s := local.NewSession(local.Options{Index: index.Options{Root: root, Dir: dir}})
	defer s.Close()
	srv := NewServer(s, true, ServerOptions{Token: "s3cret"})
	resp := srv.answerLine(context.Background(), []byte(fmt.Sprintf(`{"v":%d,"op":"status","token":"guess"}`, ProtocolVersion)))
	if resp.Code != codeDenied || resp.Status != nil {
		t.Errorf("a wrong token got %+v", resp)
	}
	resp = srv.answerLine(context.Background(), []byte(fmt.Sprintf(`{"v":%d,"op":"status","token":"s3cret"}`, ProtocolVersion)))
	if resp.Error != "" || resp.Status == nil {
		t.Errorf("the right token got %+v", resp)
	}
	resp = srv.answerLine(context.Background(), []byte(`{"v":2,"op":"status","token":"s3cret"}`))
	if resp.Code != codeBadRequest || !errors.Is(&remoteError{resp.Code, resp.Error}, errBadRequest) {
		t.Errorf("another protocol got %+v", resp)
	}
}

// Without a daemon, Open's searcher is a session, and a daemon that
// turned out to be gone (its socket left behind) is left for the session.
func TestOpenFallsBackToTheSession(t *testing.T) {
	root, dir := localtest.Build(t)
	opens := 0
	opts := Options{Local: local.Options{Index: index.Options{Root: root, Dir: dir}, OpenIndex: func(ctx context.Context, o index.Options) (*index.Index, error) {
		opens++
		return index.OpenReader(ctx, o)
	}}}
	researchtest.WriteFile(t, filepath.Join(dir, "daemon.sock"), "")
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 3 {
		res, err := s.Search(context.Background(), local.Request{Query: mustQuery(t, "有給休暇")})
		if err != nil || len(res.Matches) == 0 {
			t.Fatalf("search: %v %+v", err, res)
		}
	}
	if opens != 1 {
		t.Errorf("the index was opened %d times for three searches", opens)
	}
}

// TestSearchWaitsForTheFirstSync: a daemon still building its first
// index answers ErrSyncing; the client waits (search.sync_wait), says so
// once, and answers when the daemon is ready.
func TestSearchWaitsForTheFirstSync(t *testing.T) {
	root, dir := localtest.Build(t)
	c, srv := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} }, func(srv *Server) {
		srv.ready.Store(false) // as during the first sync
	})
	ctx := context.Background()
	req := local.Request{Query: mustQuery(t, "有給休暇"), Mode: index.Ranked}
	if _, err := c.Search(ctx, req); !errors.Is(err, local.ErrSyncing) {
		t.Fatalf("without a wait: %v, want ErrSyncing", err)
	}
	told := 0
	c.syncWait = time.Hour
	c.onSyncWait = func(local.Status) {
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
// returns what it did.
func TestSyncOnRequest(t *testing.T) {
	root, dir := localtest.Build(t)
	var asked SyncParams
	c, _ := serveWith(t, root, dir, func(ix *index.Index) ServerOptions {
		return ServerOptions{Sync: func(ctx context.Context, p SyncParams) (index.BuildStats, error) {
			asked = p
			return ix.Build(ctx, index.BuildOptions{Force: p.Force, Audit: p.Audit})
		}}
	})
	researchtest.WriteFile(t, filepath.Join(root, "新規/追加.md"), "# 追加\n\n新しく置いた文書。\n")
	st, err := c.Sync(context.Background(), SyncParams{Audit: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || !st.Audited || !asked.Audit {
		t.Errorf("sync: %+v (asked %+v), want one file added by an audit", st, asked)
	}
}

// standIn is a Searcher for the server whose searches the test shapes.
type standIn struct {
	local.Searcher
	search func(ctx context.Context) (*local.Result, error)
}

func (s standIn) Search(ctx context.Context, _ local.Request) (*local.Result, error) {
	return s.search(ctx)
}

// TestDaemonStopsAWorkItsClientGaveUp: a client that goes away (its
// context ends: an interrupt, its own timeout) ends the daemon's work on
// its request.
func TestDaemonStopsAWorkItsClientGaveUp(t *testing.T) {
	root, dir := localtest.Build(t)
	started, ended := make(chan struct{}), make(chan struct{})
	c, _ := serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{} }, func(srv *Server) {
		srv.s = standIn{Searcher: srv.s, search: func(ctx context.Context) (*local.Result, error) {
			close(started)
			<-ctx.Done()
			close(ended)
			return nil, ctx.Err()
		}}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Search(ctx, local.Request{Query: mustQuery(t, "有給休暇")})
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the client's search: %v; want context.Canceled", err)
	}
	select {
	case <-ended:
	case <-time.After(time.Minute): // a guard against a hang, not a measure
		t.Fatal("the daemon's search went on after its client went away")
	}
}

// TestSlowDaemonIsWaitedFor: search.daemon_timeout bounds the daemon's
// silence, not its work: a search that takes many times the timeout is
// waited for while the daemon says it works (as one slowed by a loaded
// machine), and answers; a daemon that says nothing is not.
func TestSlowDaemonIsWaitedFor(t *testing.T) {
	root, dir := localtest.Build(t)
	// The search ends after 400 heartbeats: two seconds, twice the
	// client's timeout.
	release, beats := make(chan struct{}), 0
	serveWith(t, root, dir, func(*index.Index) ServerOptions { return ServerOptions{Heartbeat: 5 * time.Millisecond} }, func(srv *Server) {
		srv.onBeat = func() {
			if beats++; beats == 400 {
				close(release)
			}
		}
		srv.s = standIn{Searcher: srv.s, search: func(ctx context.Context) (*local.Result, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &local.Result{Result: &index.Result{}}, nil
		}}
	})
	c, err := Dial(dir, "", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(context.Background(), local.Request{Query: mustQuery(t, "有給休暇")}); err != nil {
		t.Errorf("a search of twice the timeout: %v", err)
	}
}
