package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"lwr/index"
	"lwr/policy"
)

// ErrNoDaemon is returned when no daemon is running for the index.
var ErrNoDaemon = errors.New("no daemon is running for this source root")

// ErrStaleDaemon is returned when the daemon analyzes with another user
// dictionary or version than the client (it must be restarted).
var ErrStaleDaemon = errors.New("the daemon analyzes with other words")

// Client is a Searcher served by the daemon of one index folder.
type Client struct {
	dir, addr, token string
	timeout          time.Duration
	// syncWait and onSyncWait: see Options.
	syncWait   time.Duration
	onSyncWait func(Status)
}

// Dial returns a client of the daemon of the index folder dir, or
// ErrNoDaemon when there is none. It does not connect: a request to an
// endpoint nobody listens on (left by a killed daemon) fails with
// ErrNoDaemon too. timeout bounds every request.
func Dial(dir string, timeout time.Duration) (*Client, error) {
	addr, token, err := endpoint(dir)
	if err != nil {
		return nil, err
	}
	return &Client{dir: dir, addr: addr, token: token, timeout: timeout}, nil
}

func (c *Client) call(ctx context.Context, req wireRequest) (*wireResponse, error) {
	return c.callWithin(ctx, req, c.timeout)
}

// callWithin sends one request and reads the answer within timeout (0:
// as long as ctx allows).
func (c *Client) callWithin(ctx context.Context, req wireRequest, timeout time.Duration) (*wireResponse, error) {
	req.V, req.Token = ProtocolVersion, c.token
	if req.Schema == "" {
		req.Schema = index.Schema()
	}
	conn, err := dial(ctx, c.addr, net.Dialer{Timeout: max(c.timeout, time.Second)})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// The connection ends with ctx (an interrupt, the caller's deadline):
	// the daemon then stops working on the request.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		_ = conn.SetWriteDeadline(time.Now().Add(timeout))
	}
	if _, err := conn.Write(append(b, '\n')); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, c.notAnswering()
		}
		return nil, fmt.Errorf("send to the daemon: %w", err)
	}
	// timeout bounds the daemon's silence, not its work: a daemon that
	// works writes a space every heartbeat.
	var resp wireResponse
	if err := json.NewDecoder(silence{conn, timeout}).Decode(&resp); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, c.notAnswering()
		}
		return nil, fmt.Errorf("read the daemon's answer: %w", err)
	}
	if !resp.OK {
		return nil, c.remote(resp.Code, resp.Error)
	}
	return &resp, nil
}

// silence reads a connection, giving up after d without a byte (0: no
// limit).
type silence struct {
	c net.Conn
	d time.Duration
}

func (s silence) Read(p []byte) (int, error) {
	if s.d > 0 {
		_ = s.c.SetReadDeadline(time.Now().Add(s.d))
	}
	return s.c.Read(p)
}

// notAnswering names the daemon that holds the index but is silent.
func (c *Client) notAnswering() error {
	who := "the daemon"
	if h, ok := index.LockHolder(c.dir); ok && h.PID > 0 {
		who = fmt.Sprintf("the daemon (process %d)", h.PID)
	}
	return &notAnsweringError{who: who, d: c.timeout}
}

// notAnsweringError is a daemon that is silent; it matches ErrNotAnswering.
type notAnsweringError struct {
	who string
	d   time.Duration
}

func (e *notAnsweringError) Error() string {
	return fmt.Sprintf("%s does not answer (nothing for %s, search.daemon_timeout); restart it with lwr index stop and lwr index watch --detach", e.who, e.d)
}

func (e *notAnsweringError) Is(target error) bool { return target == ErrNotAnswering }

func (c *Client) remote(code, msg string) error {
	if code == codeSyncing {
		return ErrSyncing
	}
	return &remoteError{code: code, msg: msg}
}

// whileSyncing sends req again while the daemon answers that it is still
// building the index, for up to syncWait.
func (c *Client) whileSyncing(ctx context.Context, req wireRequest) (*wireResponse, error) {
	resp, err := c.call(ctx, req)
	if !errors.Is(err, ErrSyncing) || c.syncWait <= 0 {
		return resp, err
	}
	if c.onSyncWait != nil {
		st, _ := c.Status(ctx)
		c.onSyncWait(st)
	}
	deadline := time.Now().Add(c.syncWait)
	for errors.Is(err, ErrSyncing) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		resp, err = c.call(ctx, req)
	}
	if errors.Is(err, ErrSyncing) {
		return nil, fmt.Errorf("%w after %s of waiting (search.sync_wait); lwr index status shows its progress", ErrSyncing, c.syncWait)
	}
	return resp, err
}

// Search runs a search in the daemon.
func (c *Client) Search(ctx context.Context, req Request) (*Result, error) {
	resp, err := c.whileSyncing(ctx, wireRequest{Op: opSearch, Search: &req})
	if err != nil {
		return nil, err
	}
	if resp.Result == nil || resp.Result.Result == nil {
		return nil, errors.New("the daemon answered without a result")
	}
	resp.Result.Via = ViaDaemon
	return resp.Result, nil
}

// Render runs a search in the daemon, which renders it.
func (c *Client) Render(ctx context.Context, req Request, f Format, tty bool) (string, error) {
	resp, err := c.whileSyncing(ctx, wireRequest{Op: opSearch, Search: &req, Format: &f, TTY: tty})
	if err != nil {
		return "", err
	}
	if resp.Output == "" {
		return "", errors.New("the daemon answered without output")
	}
	return resp.Output, nil
}

// Policies asks the daemon which policies are in force.
func (c *Client) Policies(ctx context.Context, ignorePreference bool) (policy.Policies, error) {
	resp, err := c.call(ctx, wireRequest{Op: opPolicies, IgnorePreference: ignorePreference})
	if err != nil {
		return policy.Policies{}, err
	}
	if resp.Policies == nil {
		return policy.Policies{}, errors.New("the daemon answered without the policies")
	}
	return *resp.Policies, nil
}

// Status asks the daemon how it is.
func (c *Client) Status(ctx context.Context) (Status, error) {
	resp, err := c.call(ctx, wireRequest{Op: opStatus})
	if err != nil {
		return Status{Dir: c.dir}, err
	}
	ds := resp.Status
	if ds == nil {
		return Status{Dir: c.dir}, errors.New("the daemon answered without its status")
	}
	is := ds.Index
	// The daemon applies changes as they come: what is pending is changed.
	st := Status{Root: ds.Root, Dir: ds.Dir, State: StateReady, Index: &is, Daemon: ds, Changed: ds.Watch.Pending}
	if !is.Ready {
		st.State = StateSyncing
	}
	return st, nil
}

// Skipped asks the daemon which files are not indexed.
func (c *Client) Skipped(ctx context.Context) ([]index.Skip, error) {
	resp, err := c.call(ctx, wireRequest{Op: opSkipped})
	if err != nil {
		return nil, err
	}
	return resp.Skipped, nil
}

// Sync asks the daemon to sync now, as lwr index build would, and waits
// for it; progress, when not nil, is told the daemon's state about twice a
// second meanwhile (its ToRead and Done count the files of the sync). A
// daemon that stops answering meanwhile is ErrNotAnswering.
func (c *Client) Sync(ctx context.Context, p SyncParams, progress func(index.WatchState)) (index.BuildStats, error) {
	type answer struct {
		resp *wireResponse
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := c.callWithin(ctx, wireRequest{Op: opSync, Sync: &p}, 0)
		done <- answer{resp, err}
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case a := <-done:
			if a.err != nil {
				var re *remoteError
				if errors.As(a.err, &re) && re.code == codeBadRequest {
					return index.BuildStats{}, fmt.Errorf("%v; restart the daemon with this lwr (lwr index stop, then lwr index watch --detach)", a.err)
				}
				return index.BuildStats{}, a.err
			}
			if a.resp.Build == nil {
				return index.BuildStats{}, errors.New("the daemon answered without what it synced")
			}
			return *a.resp.Build, nil
		case <-tick.C:
			// A daemon that stops answering its status (hung) ends the
			// wait; one that syncs answers it between files.
			resp, err := c.call(ctx, wireRequest{Op: opStatus})
			switch {
			case errors.Is(err, ErrNotAnswering):
				return index.BuildStats{}, err
			case err == nil && resp.Status != nil && progress != nil:
				progress(resp.Status.Watch)
			}
		}
	}
}

// Stop asks the daemon to stop.
func (c *Client) Stop(ctx context.Context) error {
	_, err := c.call(ctx, wireRequest{Op: opStop})
	return err
}

// Close does nothing: every request is a connection of its own.
func (c *Client) Close() error { return nil }
