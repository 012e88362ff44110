package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
)

// ErrNoDaemon is returned when no daemon is running for the index.
var ErrNoDaemon = errors.New("no daemon is running for this source root")

// Client is a Searcher served by the daemon of one index folder.
type Client struct {
	dir, addr, token string
	schema           string
	timeout          time.Duration
	// syncWait and onSyncWait: see Options.
	syncWait   time.Duration
	onSyncWait func(local.Status)
}

// Dial returns a client of the daemon of the index folder dir, or
// ErrNoDaemon when there is none. It does not connect: a request to an
// endpoint nobody listens on (left by a killed daemon) fails with
// ErrNoDaemon too. timeout bounds the daemon's silence in every request
// (not its work: a daemon that works says so). schema is the index schema
// the client's searches expect (index.Options.Schema; "" accepts any).
func Dial(dir, schema string, timeout time.Duration) (*Client, error) {
	addr, token, err := endpoint(dir)
	if err != nil {
		return nil, err
	}
	return &Client{dir: dir, addr: addr, token: token, schema: schema, timeout: timeout}, nil
}

func (c *Client) call(ctx context.Context, req wireRequest) (*wireResponse, error) {
	return c.callWithin(ctx, req, c.timeout)
}

// callWithin sends one request and reads the answer, giving up after
// timeout of silence (0: as long as ctx allows).
func (c *Client) callWithin(ctx context.Context, req wireRequest, timeout time.Duration) (*wireResponse, error) {
	req.V, req.Token, req.Schema = ProtocolVersion, c.token, c.schema
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
		return nil, c.failed(ctx, err, "send to the daemon")
	}
	var resp wireResponse
	if err := json.NewDecoder(silence{conn, timeout}).Decode(&resp); err != nil {
		return nil, c.failed(ctx, err, "read the daemon's answer")
	}
	if !resp.OK {
		return nil, &remoteError{code: resp.Code, msg: resp.Error}
	}
	return &resp, nil
}

// failed is the error of a request whose connection failed: ctx's, a
// silent daemon's, or what the connection says.
func (c *Client) failed(ctx context.Context, err error, what string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return c.notAnswering()
	}
	return fmt.Errorf("%s: %w", what, err)
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

// notAnsweringError is a daemon that is silent; it matches
// local.ErrNotAnswering.
type notAnsweringError struct {
	who string
	d   time.Duration
}

func (e *notAnsweringError) Error() string {
	return fmt.Sprintf("%s does not answer (nothing for %s, search.daemon_timeout); restart it with lwr index stop and lwr index watch --detach", e.who, e.d)
}

func (e *notAnsweringError) Is(target error) bool { return target == local.ErrNotAnswering }

// whileSyncing sends req again while the daemon answers that it is still
// building the index, for up to syncWait.
func (c *Client) whileSyncing(ctx context.Context, req wireRequest) (*wireResponse, error) {
	resp, err := c.call(ctx, req)
	if !errors.Is(err, local.ErrSyncing) || c.syncWait <= 0 {
		return resp, err
	}
	if c.onSyncWait != nil {
		st, _ := c.Status(ctx)
		c.onSyncWait(st)
	}
	deadline := time.Now().Add(c.syncWait)
	for errors.Is(err, local.ErrSyncing) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		resp, err = c.call(ctx, req)
	}
	if errors.Is(err, local.ErrSyncing) {
		return nil, fmt.Errorf("%w after %s of waiting (search.sync_wait); lwr index status shows its progress", local.ErrSyncing, c.syncWait)
	}
	return resp, err
}

// Search runs a search in the daemon.
func (c *Client) Search(ctx context.Context, req local.Request) (*local.Result, error) {
	resp, err := c.whileSyncing(ctx, wireRequest{Op: opSearch, Search: toWireSearch(req)})
	if err != nil {
		return nil, err
	}
	if resp.Result == nil {
		return nil, errors.New("the daemon answered without a result")
	}
	res, err := fromWireResult(resp.Result)
	if err != nil {
		return nil, fmt.Errorf("read the daemon's answer: %w", err)
	}
	res.Via = local.ViaDaemon
	return res, nil
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
func (c *Client) Status(ctx context.Context) (local.Status, error) {
	resp, err := c.call(ctx, wireRequest{Op: opStatus})
	if err != nil {
		return local.Status{Dir: c.dir, Changed: -1}, err
	}
	if resp.Status == nil {
		return local.Status{Dir: c.dir, Changed: -1}, errors.New("the daemon answered without its status")
	}
	ds := fromWireStatus(resp.Status)
	is := ds.Index
	// The daemon applies changes as they come: what is pending is changed.
	st := local.Status{Root: ds.Root, Dir: ds.Dir, State: local.StateReady, Index: &is, Daemon: ds, Changed: ds.Watch.Pending}
	if !is.Ready {
		st.State = local.StateSyncing
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
// daemon that stops answering meanwhile is local.ErrNotAnswering.
func (c *Client) Sync(ctx context.Context, p SyncParams, progress func(index.WatchState)) (index.BuildStats, error) {
	type answer struct {
		resp *wireResponse
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		// The daemon writes a space every heartbeat while it syncs: its
		// silence, not the length of the sync, ends the wait.
		resp, err := c.callWithin(ctx, wireRequest{Op: opSync, Sync: &p}, c.timeout)
		done <- answer{resp, err}
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case a := <-done:
			if a.err != nil {
				if errors.Is(a.err, errBadRequest) {
					return index.BuildStats{}, fmt.Errorf("%v; restart the daemon with this lwr (lwr index stop, then lwr index watch --detach)", a.err)
				}
				return index.BuildStats{}, a.err
			}
			if a.resp.Build == nil {
				return index.BuildStats{}, errors.New("the daemon answered without what it synced")
			}
			return fromWireBuild(a.resp.Build), nil
		case <-tick.C:
			if progress == nil {
				continue
			}
			if resp, err := c.call(ctx, wireRequest{Op: opStatus}); err == nil && resp.Status != nil {
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
