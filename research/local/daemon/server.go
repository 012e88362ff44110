package daemon

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

	"lwr/index"
	"lwr/research/local"
)

// ServerOptions configure a Server.
type ServerOptions struct {
	// Schema is the index schema the served searcher analyzes with
	// (index.Options.Schema); a request of another is refused as stale.
	Schema string
	// Watch is the state of the watch that keeps the index current (nil:
	// none).
	Watch func() index.WatchState
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

// Server answers the requests of the daemon's clients with a Searcher
// (the daemon's session): a few lines per request, the Searcher does the
// work.
type Server struct {
	s       local.Searcher
	opts    ServerOptions
	started time.Time
	ready   atomic.Bool
	wg      sync.WaitGroup
	onBeat  func() // called after each heartbeat (tests)
}

// NewServer serves s. Until MarkReady is called, searches fail with
// local.ErrSyncing unless ready says the index is ready already.
func NewServer(s local.Searcher, ready bool, opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 250 * time.Millisecond
	}
	srv := &Server{s: s, opts: opts, started: time.Now()}
	srv.ready.Store(ready)
	return srv
}

// MarkReady lets searches in (after a sync).
func (srv *Server) MarkReady() { srv.ready.Store(true) }

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
	_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxRequest), 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
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
	stopBeat, beating := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(beating)
		write([]byte{' '})
		t := time.NewTicker(srv.opts.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				write([]byte{' '})
				if srv.onBeat != nil {
					srv.onBeat()
				}
			case <-stopBeat:
				return
			}
		}
	}()
	resp := srv.answerLine(rctx, line)
	close(stopBeat)
	<-beating
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(wireResponse{V: ProtocolVersion, Code: codeFailed, Error: "encode the answer: " + err.Error()})
	}
	write(append(b, '\n'))
}

// answerLine answers one request line.
func (srv *Server) answerLine(ctx context.Context, line []byte) wireResponse {
	resp := wireResponse{V: ProtocolVersion}
	var req wireRequest
	switch {
	case json.Unmarshal(line, &req) != nil:
		resp.Code, resp.Error = codeBadRequest, "the request is not JSON"
	case !tokenOK(req.Token, srv.opts.Token):
		resp.Code, resp.Error = codeDenied, "the request does not carry this daemon's token"
	case req.V != ProtocolVersion:
		resp.Code, resp.Error = codeBadRequest, fmt.Sprintf("the daemon speaks protocol %d, the request %d; restart the daemon with this lwr (lwr index stop, then lwr index watch --detach)", ProtocolVersion, req.V)
	case (req.Op == opSearch || req.Op == opSync) && req.Schema != "" && req.Schema != srv.opts.Schema:
		// Started before search.user_dict changed (or by another lwr):
		// its index and its analysis of the query hold the old words.
		resp.Code, resp.Error = codeOf(local.ErrStaleDaemon), "the daemon analyzes with other words of search.user_dict (or is another lwr) than this command; restart it: lwr index stop, then lwr index watch --detach"
	default:
		srv.opts.Logger.Debug("request", "op", req.Op)
		if err := srv.answer(ctx, req, &resp); err != nil {
			resp.Code, resp.Error = codeOf(err), err.Error()
		}
	}
	resp.OK = resp.Error == ""
	return resp
}

// answer is the server's few lines per request.
func (srv *Server) answer(ctx context.Context, req wireRequest, resp *wireResponse) error {
	switch req.Op {
	case opStatus:
		st, err := srv.s.Status(ctx)
		if err != nil {
			return err
		}
		d := local.DaemonStatus{PID: os.Getpid(), Started: srv.started, Root: st.Root, Dir: st.Dir}
		if st.Index != nil {
			d.Index = *st.Index
		}
		if srv.opts.Watch != nil {
			d.Watch = srv.opts.Watch()
		}
		resp.Status = toWireStatus(d)
	case opSkipped:
		sk, err := srv.s.Skipped(ctx)
		resp.Skipped = sk
		return err
	case opStop:
		if srv.opts.Stop != nil {
			srv.opts.Stop()
		}
	case opSync:
		if srv.opts.Sync == nil {
			return local.Invalidf("this daemon does not sync on request")
		}
		var p SyncParams
		if req.Sync != nil {
			p = *req.Sync
		}
		st, err := srv.opts.Sync(ctx, p)
		if err != nil {
			return err
		}
		resp.Build = toWireBuild(st)
	case opPolicies:
		p, err := srv.s.Policies(ctx, req.IgnorePreference)
		resp.Policies = &p
		return err
	case opSearch:
		if !srv.ready.Load() {
			return local.ErrSyncing
		}
		if req.Search == nil {
			return index.ErrEmptyQuery
		}
		r, err := fromWireSearch(req.Search)
		if err != nil {
			return err
		}
		res, err := srv.s.Search(ctx, r)
		if errors.Is(err, index.ErrDamaged) && srv.opts.Sync != nil {
			// The index is a copy of the documents: build it anew and
			// search again, once.
			srv.opts.Logger.Warn("a search found the index damaged; rebuilding", "why", err)
			if _, err = srv.opts.Sync(ctx, SyncParams{Force: true}); err == nil {
				res, err = srv.s.Search(ctx, r)
			}
		}
		if err != nil {
			return err
		}
		resp.Result = toWireResult(res)
	default:
		return fmt.Errorf("%w: unknown operation %q", errBadRequest, req.Op)
	}
	return nil
}
