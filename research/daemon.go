package research

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
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"lwr/analyzer"
	"lwr/index"
	"lwr/policy"
)

// ProtocolVersion is the version of the daemon's requests and responses.
// A daemon answers only its own version; the client says how to fix a
// mismatch.
const ProtocolVersion = 1

// SocketName is the daemon's socket in the index folder.
const SocketName = "daemon.sock"

// maxRequest bounds a request line.
const maxRequest = 1 << 20

// Request is one call to the daemon, sent as one JSON line.
type Request struct {
	V                int        `json:"v"`
	Op               string     `json:"op"` // "search", "status" or "stop"
	Query            string     `json:"query,omitempty"`
	Search           WireSearch `json:"search"`
	IgnorePreference bool       `json:"ignore_preference,omitempty"`
	// Format asks the daemon to render the result itself (see
	// ServerOptions.Render), so that the client only prints it; TTY says
	// the client's output is a terminal.
	Format string `json:"format,omitempty"`
	TTY    bool   `json:"tty,omitempty"`
}

// WireSearch is index.SearchOptions as sent to the daemon; the daemon uses
// its own synonym dictionary.
type WireSearch struct {
	Mode     string   `json:"mode,omitempty"`
	Limit    int      `json:"limit,omitempty"`
	MaxChars int      `json:"max_chars,omitempty"`
	Synonyms []string `json:"synonyms,omitempty"`
	Exclude  []string `json:"exclude,omitempty"`
	Explain  bool     `json:"explain,omitempty"`
	// NoHighlights: the output does not show highlighted words.
	NoHighlights bool `json:"no_highlights,omitempty"`
}

// Response is the daemon's answer, one JSON line.
type Response struct {
	V      int           `json:"v"`
	OK     bool          `json:"ok"`
	Error  string        `json:"error,omitempty"`
	Code   string        `json:"code,omitempty"` // see errorCode
	Local  *Local        `json:"local,omitempty"`
	Output string        `json:"output,omitempty"` // the rendered result, when a Format was asked
	Status *DaemonStatus `json:"status,omitempty"`
}

// DaemonStatus is what `lwr index status` shows of a running daemon.
type DaemonStatus struct {
	PID     int              `json:"pid"`
	Started time.Time        `json:"started"`
	Root    string           `json:"root"`
	Dir     string           `json:"dir"`
	Index   index.Status     `json:"index"`
	Watch   index.WatchState `json:"watch"`
}

// Error codes of a failed request.
const (
	codeCurrentness = policy.CodeCurrentnessInvalid
	codePreferences = policy.CodePreferencesInvalid
	codeEmptyQuery  = "empty_query"
	codeSyncing     = "syncing"
	codeBadRequest  = "bad_request"
	codeFailed      = "failed"
)

// ErrSyncing is returned while a daemon builds an index that was not ready.
var ErrSyncing = errors.New("the daemon is still building the index")

// ServerOptions configure a Server.
type ServerOptions struct {
	Root       string
	Dictionary *analyzer.Synonyms
	// Stop is called by a "stop" request.
	Stop func()
	// Render turns a result into the output of a format, for requests
	// that name one.
	Render func(l *Local, format string, tty bool) (string, error)
	Logger *slog.Logger
}

// Server answers search and status requests for one open index.
type Server struct {
	ix      *index.Index
	opts    ServerOptions
	started time.Time
	corpus  atomic.Pointer[policy.Corpus]
	ready   atomic.Bool
	wg      sync.WaitGroup
}

// NewServer serves ix. Until MarkReady is called, searches fail with
// ErrSyncing unless the index was ready when it was opened.
func NewServer(ix *index.Index, opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{ix: ix, opts: opts, started: time.Now()}
	if st, err := ix.Status(); err == nil && st.Ready {
		s.MarkReady()
	}
	return s
}

// MarkReady refreshes what the server caches of the index (the titles for
// relations) after a sync, and lets searches in.
func (s *Server) MarkReady() {
	if titles, err := s.ix.Titles(); err == nil {
		s.corpus.Store(policy.NewCorpus(titles))
	}
	s.ready.Store(true)
}

// Listen opens the daemon's socket in the index folder, owner only. A
// socket left by a killed daemon is removed first: the caller holds the
// index's write lock, so no other daemon can be using it.
func Listen(dir string) (net.Listener, error) {
	p := filepath.Join(dir, SocketName)
	if len(p) >= 104 {
		return nil, fmt.Errorf("the socket path %s is too long for a unix socket; set cache_dir to a shorter folder", p)
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale socket %s: %w", p, err)
	}
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", p)
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", p, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("chmod %s: %w", p, err)
	}
	return ln, nil
}

// Serve answers connections until ctx ends, then waits up to drain for the
// requests in flight.
func (s *Server) Serve(ctx context.Context, ln net.Listener, drain time.Duration) error {
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
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(ctx, c)
		}()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(drain):
		s.opts.Logger.Warn("requests still running at shutdown", "after", drain)
	}
	return nil
}

func (s *Server) handle(ctx context.Context, c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	var req Request
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxRequest), 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
	}
	resp := Response{V: ProtocolVersion}
	switch {
	case json.Unmarshal(line, &req) != nil:
		resp.Code, resp.Error = codeBadRequest, "the request is not JSON"
	case req.V != ProtocolVersion:
		resp.Code, resp.Error = codeBadRequest, fmt.Sprintf("the daemon speaks protocol %d, the request %d; restart the daemon with this lwr (lwr index stop, then lwr index watch --detach)", ProtocolVersion, req.V)
	default:
		s.opts.Logger.Debug("request", "op", req.Op, "query", req.Query)
		s.answer(context.WithoutCancel(ctx), req, &resp)
	}
	resp.OK = resp.Error == ""
	enc := json.NewEncoder(c)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(resp)
}

func (s *Server) answer(ctx context.Context, req Request, resp *Response) {
	switch req.Op {
	case "status":
		st, err := s.ix.Status()
		if err != nil {
			resp.Code, resp.Error = codeFailed, err.Error()
			return
		}
		resp.Status = &DaemonStatus{PID: os.Getpid(), Started: s.started, Root: s.ix.Root(), Dir: s.ix.Dir(), Index: st, Watch: s.ix.WatchState()}
	case "stop":
		if s.opts.Stop != nil {
			s.opts.Stop()
		}
	case "search":
		if !s.ready.Load() {
			resp.Code, resp.Error = codeSyncing, ErrSyncing.Error()
			return
		}
		q, err := index.ParseQuery(req.Query)
		if err != nil {
			resp.Code, resp.Error = errorCode(err), err.Error()
			return
		}
		mode, err := index.ParseMode(req.Search.Mode)
		if err != nil {
			resp.Code, resp.Error = codeBadRequest, err.Error()
			return
		}
		opts := LocalOptions{
			Search: index.SearchOptions{
				Mode: mode, Limit: req.Search.Limit, MaxChars: req.Search.MaxChars,
				Synonyms: req.Search.Synonyms, Exclude: req.Search.Exclude, Explain: req.Search.Explain,
				SkipHighlights: req.Search.NoHighlights, Dictionary: s.opts.Dictionary,
			},
			IgnorePreference: req.IgnorePreference,
		}
		l, err := LocalSearch(ctx, s.ix, s.opts.Root, s.corpus.Load(), q, opts)
		if err != nil {
			resp.Code, resp.Error = errorCode(err), err.Error()
			return
		}
		if req.Format != "" && s.opts.Render != nil {
			out, err := s.opts.Render(l, req.Format, req.TTY)
			if err != nil {
				resp.Code, resp.Error = codeBadRequest, err.Error()
				return
			}
			resp.Output = out
			return
		}
		resp.Local = l
	default:
		resp.Code, resp.Error = codeBadRequest, fmt.Sprintf("unknown operation %q", req.Op)
	}
}

func errorCode(err error) string {
	switch {
	case errors.Is(err, policy.ErrCurrentnessInvalid):
		return codeCurrentness
	case errors.Is(err, policy.ErrPreferencesInvalid):
		return codePreferences
	case errors.Is(err, index.ErrEmptyQuery):
		return codeEmptyQuery
	}
	return codeFailed
}

// ErrNoDaemon is returned by Dial when no daemon answers for the index.
var ErrNoDaemon = errors.New("no daemon is running for this source root")

// Client talks to the daemon of one index folder.
type Client struct {
	sock    string
	timeout time.Duration
}

// Dial returns a client of the daemon of the index folder dir, or
// ErrNoDaemon when there is no socket. It does not connect: a request to a
// socket nobody listens on (left by a killed daemon) fails with
// ErrNoDaemon too. timeout bounds every request.
func Dial(dir string, timeout time.Duration) (*Client, error) {
	p := filepath.Join(dir, SocketName)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, ErrNoDaemon
		}
		return nil, fmt.Errorf("look for the daemon's socket %s: %w", p, err)
	}
	return &Client{sock: p, timeout: timeout}, nil
}

// remoteError is an error the daemon reported; it matches the sentinel
// of its code with errors.Is.
type remoteError struct {
	code, msg string
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Unwrap() error {
	switch e.code {
	case codeCurrentness:
		return policy.ErrCurrentnessInvalid
	case codePreferences:
		return policy.ErrPreferencesInvalid
	case codeEmptyQuery:
		return index.ErrEmptyQuery
	case codeSyncing:
		return ErrSyncing
	}
	return nil
}

// ErrNotAnswering is returned when the daemon accepts a request but does
// not answer within the timeout.
var ErrNotAnswering = errors.New("the daemon does not answer")

func (c *Client) call(ctx context.Context, req Request) (*Response, error) {
	req.V = ProtocolVersion
	d := net.Dialer{Timeout: min(c.timeout, time.Second)}
	conn, err := d.DialContext(ctx, "unix", c.sock)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return nil, ErrNoDaemon
		}
		return nil, fmt.Errorf("connect to the daemon at %s: %w", c.sock, err)
	}
	defer conn.Close()
	deadline := time.Now().Add(c.timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	_ = conn.SetDeadline(deadline)
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("send to the daemon: %w", err)
	}
	var resp Response
	if err := json.NewDecoder(conn).Decode(&resp); err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("%w within %s", ErrNotAnswering, c.timeout)
		}
		return nil, fmt.Errorf("read the daemon's answer: %w", err)
	}
	if !resp.OK {
		return nil, &remoteError{code: resp.Code, msg: resp.Error}
	}
	return &resp, nil
}

// Search runs a local search in the daemon.
func (c *Client) Search(ctx context.Context, query string, ws WireSearch, ignorePreference bool) (*Local, error) {
	resp, err := c.call(ctx, Request{Op: "search", Query: query, Search: ws, IgnorePreference: ignorePreference})
	if err != nil {
		return nil, err
	}
	if resp.Local == nil {
		return nil, errors.New("the daemon answered without a result")
	}
	return resp.Local, nil
}

// Render runs a local search in the daemon and returns it rendered in a
// format the daemon's Render knows.
func (c *Client) Render(ctx context.Context, query string, ws WireSearch, ignorePreference bool, format string, tty bool) (string, error) {
	resp, err := c.call(ctx, Request{Op: "search", Query: query, Search: ws, IgnorePreference: ignorePreference, Format: format, TTY: tty})
	if err != nil {
		return "", err
	}
	if resp.Output == "" {
		return "", errors.New("the daemon answered without output")
	}
	return resp.Output, nil
}

// Status asks the daemon how it is.
func (c *Client) Status(ctx context.Context) (*DaemonStatus, error) {
	resp, err := c.call(ctx, Request{Op: "status"})
	if err != nil {
		return nil, err
	}
	return resp.Status, nil
}

// Stop asks the daemon to stop.
func (c *Client) Stop(ctx context.Context) error {
	_, err := c.call(ctx, Request{Op: "stop"})
	return err
}
