package local

import (
	"context"
	"errors"
	"sync"

	"lwr/index"
	"lwr/policy"
)

// Open returns the Searcher of a source root: its daemon's when one
// answers, else a Session on the index opened in this process (built
// first when opts.AutoBuild allows). The daemon is asked first at every
// call and left for the session as soon as it turns out to be gone, so a
// search dials it once.
func Open(ctx context.Context, opts Options) (Searcher, error) {
	opts = opts.withDefaults()
	r := &router{opts: opts}
	c, err := Dial(opts.Index.Dir, opts.DaemonTimeout)
	switch {
	case err == nil:
		c.syncWait, c.onSyncWait = opts.SyncWait, opts.OnSyncWait
		r.client = c
	case !errors.Is(err, ErrNoDaemon):
		return nil, err
	}
	return r, ctx.Err()
}

// router sends requests to the daemon while it answers, else to a
// session.
type router struct {
	opts    Options
	mu      sync.Mutex
	client  *Client
	session *Session
}

// target returns the client, or the session when there is no daemon.
func (r *router) target() (*Client, *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.client != nil {
		return r.client, nil
	}
	if r.session == nil {
		r.session = NewSession(r.opts)
	}
	return nil, r.session
}

// gone forgets a daemon that turned out not to run.
func (r *router) gone(err error) bool {
	if !errors.Is(err, ErrNoDaemon) {
		return false
	}
	r.mu.Lock()
	r.client = nil
	r.mu.Unlock()
	return true
}

func (r *router) Search(ctx context.Context, req Request) (*Result, error) {
	if c, _ := r.target(); c != nil {
		res, err := c.Search(ctx, req)
		if !r.gone(err) {
			return res, err
		}
	}
	_, s := r.target()
	return s.Search(ctx, req)
}

func (r *router) Render(ctx context.Context, req Request, f Format, tty bool) (string, error) {
	if c, _ := r.target(); c != nil {
		out, err := c.Render(ctx, req, f, tty)
		if !r.gone(err) {
			return out, err
		}
	}
	_, s := r.target()
	return s.Render(ctx, req, f, tty)
}

func (r *router) Policies(ctx context.Context, ignorePreference bool) (policy.Policies, error) {
	if c, _ := r.target(); c != nil {
		p, err := c.Policies(ctx, ignorePreference)
		if !r.gone(err) {
			return p, err
		}
	}
	_, s := r.target()
	return s.Policies(ctx, ignorePreference)
}

func (r *router) Status(ctx context.Context) (Status, error) {
	if c, _ := r.target(); c != nil {
		st, err := c.Status(ctx)
		if !r.gone(err) {
			return st, err
		}
	}
	_, s := r.target()
	return s.Status(ctx)
}

func (r *router) Skipped(ctx context.Context) ([]index.Skip, error) {
	if c, _ := r.target(); c != nil {
		sk, err := c.Skipped(ctx)
		if !r.gone(err) {
			return sk, err
		}
	}
	_, s := r.target()
	return s.Skipped(ctx)
}

func (r *router) Close() error {
	r.mu.Lock()
	s := r.session
	r.mu.Unlock()
	if s != nil {
		return s.Close()
	}
	return nil
}
