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

// Client is a Searcher served by the daemon of one index folder.
type Client struct {
	dir, addr, token string
	timeout          time.Duration
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
	req.V, req.Token = ProtocolVersion, c.token
	conn, err := dial(ctx, c.addr, net.Dialer{Timeout: min(c.timeout, time.Second)})
	if err != nil {
		return nil, err
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
	var resp wireResponse
	if err := json.NewDecoder(conn).Decode(&resp); err != nil {
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

// notAnswering names the daemon that holds the index but is silent.
func (c *Client) notAnswering() error {
	who := "the lwr daemon"
	if h, ok := index.LockHolder(c.dir); ok {
		who += " (" + h.String() + ")"
	}
	return fmt.Errorf("%s %w within %s; restart it with lwr index stop and lwr index watch --detach", who, ErrNotAnswering, c.timeout)
}

func (c *Client) remote(code, msg string) error {
	if code == codeSyncing {
		return fmt.Errorf("%w; try again in a moment (lwr index status shows it)", ErrSyncing)
	}
	return &remoteError{code: code, msg: msg}
}

// Search runs a search in the daemon.
func (c *Client) Search(ctx context.Context, req Request) (*Result, error) {
	resp, err := c.call(ctx, wireRequest{Op: opSearch, Search: &req})
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
	resp, err := c.call(ctx, wireRequest{Op: opSearch, Search: &req, Format: &f, TTY: tty})
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

// Stop asks the daemon to stop.
func (c *Client) Stop(ctx context.Context) error {
	_, err := c.call(ctx, wireRequest{Op: opStop})
	return err
}

// Close does nothing: every request is a connection of its own.
func (c *Client) Close() error { return nil }
