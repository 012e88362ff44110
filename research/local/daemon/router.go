package daemon

import (
	"context"
	"errors"
	"sync"
	"time"

	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
)

// Options say how a command reaches the index of one source root: its
// daemon when one answers, else a session in this process.
type Options struct {
	// Local is the session's options (the index, its dictionary, the
	// defaults of a request).
	Local local.Options
	// Timeout bounds the daemon's silence in a request (3s when zero):
	// a daemon that works writes a space every heartbeat, so only a stopped
	// or hung one runs into it.
	Timeout time.Duration
	// SyncWait is how long a search waits while the daemon builds the
	// index (its first sync); 0 does not wait. OnSyncWait, when set, is
	// told once that a search waits, with the daemon's status.
	SyncWait   time.Duration
	OnSyncWait func(local.Status)
	// Autostart starts the daemon when the router is closed after it
	// searched without one; nil never does.
	Autostart *StartOptions
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 3 * time.Second
	}
	return o
}

// Open returns the Searcher of a source root: its daemon's when one
// answers, else a Session on the index opened in this process (built
// first when opts.Local.AutoBuild allows). The daemon is asked first at
// every call and left for the session as soon as it turns out to be gone,
// so a search dials it once.
func Open(ctx context.Context, opts Options) (local.Searcher, error) {
	opts = opts.withDefaults()
	r := &router{opts: opts}
	c, err := Dial(opts.Local.Index.Dir, opts.Local.Index.Schema(), opts.Timeout)
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
	opts     Options
	mu       sync.Mutex
	client   *Client
	session  *local.Session
	searched bool // the session searched: a daemon may be started at Close
}

// target returns the client, or the session when there is no daemon.
func (r *router) target() local.Searcher {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.client != nil {
		return r.client
	}
	if r.session == nil {
		r.session = local.NewSession(r.opts.Local)
	}
	return r.session
}

// through calls fn on the daemon while it answers, else on the session.
func through[T any](r *router, fn func(local.Searcher) (T, error)) (T, error) {
	t := r.target()
	v, err := fn(t)
	if _, daemon := t.(*Client); daemon && errors.Is(err, ErrNoDaemon) {
		// The daemon turned out not to run (a socket left by a killed
		// one): the session from now on.
		r.mu.Lock()
		r.client = nil
		r.mu.Unlock()
		t = r.target()
		v, err = fn(t)
	}
	return v, err
}

func (r *router) Search(ctx context.Context, req local.Request) (*local.Result, error) {
	return through(r, func(s local.Searcher) (*local.Result, error) {
		res, err := s.Search(ctx, req)
		if _, session := s.(*local.Session); session && err == nil {
			r.mu.Lock()
			r.searched = true
			r.mu.Unlock()
		}
		return res, err
	})
}

func (r *router) Policies(ctx context.Context, ignorePreference bool) (policy.Policies, error) {
	return through(r, func(s local.Searcher) (policy.Policies, error) { return s.Policies(ctx, ignorePreference) })
}

func (r *router) Status(ctx context.Context) (local.Status, error) {
	return through(r, func(s local.Searcher) (local.Status, error) { return s.Status(ctx) })
}

func (r *router) Skipped(ctx context.Context) ([]index.Skip, error) {
	return through(r, func(s local.Searcher) ([]index.Skip, error) { return s.Skipped(ctx) })
}

// Close closes the session and, when it searched and opts.Autostart is
// set, starts the daemon (after the session released the index).
func (r *router) Close() error {
	r.mu.Lock()
	s, searched := r.session, r.searched
	r.session, r.searched = nil, false
	r.mu.Unlock()
	var err error
	if s != nil {
		err = s.Close()
	}
	if searched && r.opts.Autostart != nil {
		if _, serr := Start(context.Background(), *r.opts.Autostart); serr != nil && r.opts.Local.Logger != nil {
			r.opts.Local.Logger.Warn("could not start the daemon", "err", serr)
		}
	}
	return err
}

// Synced says when the index of opts was last synced with the files, and
// who says so (local.ViaDaemon, local.ViaProcess): the daemon's status
// when one answers, else the index opened for reading a moment. It never
// builds the index, nor walks the files; zero when nothing can say.
func Synced(ctx context.Context, opts Options) (time.Time, string) {
	opts = opts.withDefaults()
	if c, err := Dial(opts.Local.Index.Dir, "", opts.Timeout); err == nil {
		if st, err := c.Status(ctx); err == nil && st.Index != nil {
			return st.Index.LastSync, local.ViaDaemon
		}
	}
	open := opts.Local.OpenIndex
	if open == nil {
		open = index.OpenReader
	}
	ix, err := open(ctx, opts.Local.Index)
	if err != nil {
		return time.Time{}, ""
	}
	defer ix.Close()
	return ix.LastSync(), local.ViaProcess
}
