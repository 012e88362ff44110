package local

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"lwr/analyzer"
	"lwr/index"
	"lwr/policy"
)

// ServerOptions configure a Server.
type ServerOptions struct {
	// Stop is called by a stop request.
	Stop func()
	// Sync runs a sync now and returns what it did (nil: sync requests
	// are refused).
	Sync func(ctx context.Context, p SyncParams) (index.BuildStats, error)
	// Token is what every request must carry ("" when the transport
	// admits only the owner).
	Token string
	// Heartbeat is how often the server writes a space to a client while
	// it works on its request (250ms when zero).
	Heartbeat time.Duration
	Logger    *slog.Logger
}

// Server answers the requests of one open index: searches (through a
// Session that reads the policies at every search), policies, status and
// stop.
type Server struct {
	ix      *index.Index
	s       *Session
	search  searchService // s, unless a test stands in for it
	opts    ServerOptions
	started time.Time
	ready   atomic.Bool
	wg      sync.WaitGroup
}

// searchService is what the server asks for searches and policies.
type searchService interface {
	Search(ctx context.Context, req Request) (*Result, error)
	Policies(ctx context.Context, ignorePreference bool) (policy.Policies, error)
}

// NewServer serves ix with the synonym dictionary dict. Until MarkReady
// is called, searches fail with ErrSyncing unless the index was ready
// when it was opened.
func NewServer(ix *index.Index, dict *analyzer.Synonyms, opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 250 * time.Millisecond
	}
	srv := &Server{ix: ix, s: serving(ix, dict, Options{Logger: opts.Logger}), opts: opts, started: time.Now()}
	srv.search = srv.s
	if st, err := ix.Status(); err == nil && st.Ready {
		srv.ready.Store(true)
	}
	return srv
}

// MarkReady lets searches in after a sync, and refreshes what the server
// keeps of the index (the titles for relations).
func (srv *Server) MarkReady() {
	srv.s.Refresh()
	srv.ready.Store(true)
}

// Serve answers connections until ctx ends, then waits up to drain for the
// requests in flight.
func (srv *Server) Serve(ctx context.Context, ln net.Listener, drain time.Duration) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accept: %w", err)
		}
		srv.wg.Add(1)
		go func() {
			defer srv.wg.Done()
			srv.handle(ctx, c)
		}()
	}
	done := make(chan struct{})
	go func() { srv.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(drain):
		srv.opts.Logger.Warn("requests still running at shutdown", "after", drain)
	}
	return nil
}

func (srv *Server) handle(ctx context.Context, c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxRequest), 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
	}
	// A sync runs as long as the build does (the first of a large tree
	// takes minutes); the client bounds its own wait.
	var head struct {
		Op op `json:"op"`
	}
	if json.Unmarshal(line, &head) == nil && head.Op == opSync {
		_ = c.SetDeadline(time.Time{})
	}
	// The request runs on at shutdown (it is drained), but ends when its
	// client goes away: the client sends nothing after its line, so a read
	// that returns means it closed the connection (it gave up, or was
	// interrupted).
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	_ = c.SetReadDeadline(time.Time{})
	go func() {
		var b [1]byte
		_, _ = c.Read(b[:])
		cancel()
	}()
	// While it works, the server says it is alive: a space at once and
	// then every Heartbeat, which the client's JSON decoder skips. A client
	// gives up after silence (a stopped or hung daemon), never because a
	// loaded machine made the answer slow.
	var wmu sync.Mutex
	write := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_ = c.SetWriteDeadline(time.Now().Add(30 * time.Second))
		_, _ = c.Write(b)
	}
	stopBeat := make(chan struct{})
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		write([]byte{' '})
		t := time.NewTicker(srv.opts.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				write([]byte{' '})
			case <-stopBeat:
				return
			}
		}
	}()
	var resp wireResponse
	srv.answerLine(rctx, line, &resp)
	close(stopBeat)
	<-beating
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(wireResponse{V: ProtocolVersion, Code: codeFailed, Error: "encode the answer: " + err.Error()})
	}
	write(append(b, '\n'))
}

// answerLine answers one request line.
func (srv *Server) answerLine(ctx context.Context, line []byte, resp *wireResponse) {
	resp.V = ProtocolVersion
	var req wireRequest
	switch {
	case json.Unmarshal(line, &req) != nil:
		resp.Code, resp.Error = codeBadRequest, "the request is not JSON"
	case !tokenOK(req.Token, srv.opts.Token):
		resp.Code, resp.Error = codeDenied, "the request does not carry this daemon's token"
	case req.V != ProtocolVersion:
		resp.Code, resp.Error = codeBadRequest, fmt.Sprintf("the daemon speaks protocol %d, the request %d; restart the daemon with this lwr (lwr index stop, then lwr index watch --detach)", ProtocolVersion, req.V)
	case (req.Op == opSearch || req.Op == opSync) && req.Schema != "" && req.Schema != index.Schema():
		// Started before search.user_dict changed (or by another lwr):
		// its index and its analysis of the query hold the old words.
		resp.Code, resp.Error = codeStale, "the daemon analyzes with other words of search.user_dict (or is another lwr) than this command; restart it: lwr index stop, then lwr index watch --detach"
	default:
		srv.opts.Logger.Debug("request", "op", req.Op)
		srv.answer(ctx, req, resp)
	}
	resp.OK = resp.Error == ""
}

func (srv *Server) answer(ctx context.Context, req wireRequest, resp *wireResponse) {
	fail := func(code string, err error) { resp.Code, resp.Error = code, err.Error() }
	switch req.Op {
	case opStatus:
		st, err := srv.ix.Status()
		if err != nil {
			fail(codeFailed, err)
			return
		}
		resp.Status = &DaemonStatus{PID: os.Getpid(), Started: srv.started, Root: srv.ix.Root(), Dir: srv.ix.Dir(), Index: st, Watch: srv.ix.WatchState()}
	case opSkipped:
		sk, err := srv.ix.Skipped()
		if err != nil {
			fail(codeFailed, err)
			return
		}
		resp.Skipped = sk
	case opStop:
		if srv.opts.Stop != nil {
			srv.opts.Stop()
		}
	case opSync:
		if srv.opts.Sync == nil {
			fail(codeBadRequest, errors.New("this daemon does not sync on request"))
			return
		}
		var p SyncParams
		if req.Sync != nil {
			p = *req.Sync
		}
		st, err := srv.opts.Sync(ctx, p)
		if err != nil {
			fail(codeFailed, err)
			return
		}
		resp.Build = &st
	case opPolicies:
		p, err := srv.search.Policies(ctx, req.IgnorePreference)
		if err != nil {
			fail(errorCode(err), err)
			return
		}
		resp.Policies = &p
	case opSearch:
		if !srv.ready.Load() {
			fail(codeSyncing, ErrSyncing)
			return
		}
		if req.Search == nil || len(req.Search.Query.Words) == 0 {
			fail(codeEmptyQuery, index.ErrEmptyQuery)
			return
		}
		res, err := srv.search.Search(ctx, *req.Search)
		if err != nil {
			fail(errorCode(err), err)
			return
		}
		if f := req.Format; f != nil && f.lineFormat() {
			resp.Output = renderLines(res, srv.ix.Rules(), *f, req.Search.Context, queryWords(req.Search.Query), req.TTY)
			return
		}
		if req.Format != nil {
			resp.Output = Render(res, *req.Format, req.TTY)
			return
		}
		resp.Result = res
	default:
		fail(codeBadRequest, fmt.Errorf("unknown operation %q", req.Op))
	}
}
