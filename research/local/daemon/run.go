package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"lwr/index"
	"lwr/research/local"
)

// RunOptions configure the daemon of one source root.
type RunOptions struct {
	// Local is its session's options: the index it keeps (its Role is set
	// to index.RoleWatch), its dictionary.
	Local local.Options
	// Poll rescans at this interval instead of listening for events;
	// RemotePoll is the interval on a volume without trustworthy change
	// notifications (network drives, Google Drive for desktop).
	Poll, RemotePoll time.Duration
	// Drain bounds the wait for requests in flight at shutdown (5s when
	// zero).
	Drain time.Duration
	// Listening is called once the daemon answers requests, with where.
	Listening func(root, endpoint string)
	// Abort, when it ends, stops the daemon at once: the batch it writes
	// and the requests in flight are left (as a kill would leave them,
	// which the next open of the index repairs), and Run returns
	// ErrAborted.
	Abort  context.Context
	Logger *slog.Logger
}

// ErrAborted is Run's error when Abort ended.
var ErrAborted = errors.New("the daemon was stopped at once")

// runningError names the daemon that runs already; it matches
// local.ErrDaemonRunning.
type runningError struct {
	root string
	pid  int
}

func (e *runningError) Error() string {
	return fmt.Sprintf("a daemon for %s is already running (process %d); stop it with lwr index stop", e.root, e.pid)
}

func (e *runningError) Unwrap() error { return local.ErrDaemonRunning }

// Run is the daemon (lwr index watch): it opens the index for writing,
// answers requests, syncs once and then keeps the index current as files
// change, until ctx ends or a stop request comes; it then finishes its
// batch, drains the requests in flight and closes the index.
func Run(ctx context.Context, opts RunOptions) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Drain <= 0 {
		opts.Drain = 5 * time.Second
	}
	wo := opts.Local.Index
	wo.Role, wo.Logger = index.RoleWatch, log
	ix, err := index.Open(ctx, wo)
	if err != nil {
		var le *index.LockedError
		if errors.As(err, &le) && le.Daemon() {
			return &runningError{root: wo.Root, pid: le.PID}
		}
		return err
	}
	aborted := false
	defer func() {
		if !aborted {
			ix.Close()
		}
	}()
	lo := opts.Local
	lo.Logger = log
	session := local.SessionOn(ix, nil, lo)
	// The synonym dictionary now (a file it cannot use fails the start),
	// the analyzer's in the background: the daemon answers at once, and the
	// first search does not pay for them.
	if err := session.LoadDictionary(); err != nil {
		return err
	}
	go func() { _ = lo.Index.AnalyzerOf().Preload() }()
	ln, cleanup, token, err := listen(ix.Dir())
	if err != nil {
		return err
	}
	defer cleanup()
	run, stop := context.WithCancel(ctx)
	defer stop()
	requests := make(chan index.SyncRequest)
	syncNow := func(ctx context.Context, p SyncParams) (index.BuildStats, error) {
		done := make(chan index.SyncResult, 1)
		stopping := errors.New("the daemon is stopping; run lwr index build again")
		select {
		case requests <- index.SyncRequest{Force: p.Force, Audit: p.Audit, Done: done}:
		case <-ctx.Done():
			return index.BuildStats{}, ctx.Err()
		case <-run.Done():
			return index.BuildStats{}, stopping
		}
		select {
		case r := <-done:
			return r.Stats, r.Err
		case <-ctx.Done():
			return index.BuildStats{}, ctx.Err()
		}
	}
	ready := false
	if st, err := ix.Status(); err == nil && st.Ready {
		ready = true
	}
	srv := NewServer(session, ready, ServerOptions{Schema: ix.Schema(), Watch: ix.WatchState, Stop: stop, Sync: syncNow, Token: token, Logger: log})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(run, ln, opts.Drain) }()
	if opts.Listening != nil {
		opts.Listening(ix.Root(), ln.Addr().String())
	}
	watched := make(chan error, 1)
	go func() {
		watched <- ix.Watch(run, index.WatchOptions{
			Poll: opts.Poll, RemotePoll: opts.RemotePoll, Requests: requests,
			OnSync: func(st index.BuildStats, err error) {
				if err == nil {
					// The titles for relations are read again.
					session.Refresh()
					srv.MarkReady()
				}
				// A sync allocates a lot and then idles: give the memory back.
				debug.FreeOSMemory()
			},
		})
	}()
	abort := opts.Abort
	if abort == nil {
		abort = context.Background()
	}
	var werr error
	select {
	case werr = <-watched:
	case <-abort.Done():
		aborted = true
		log.Warn("stopped at once")
		return ErrAborted
	}
	log.Info("stopping")
	stop()
	select {
	case err := <-served:
		if err != nil && werr == nil {
			werr = err
		}
	case <-abort.Done():
		aborted = true
		return ErrAborted
	}
	if errors.Is(werr, context.Canceled) {
		werr = nil
	}
	if werr != nil {
		return werr
	}
	log.Info("stopped")
	return nil
}

// StartOptions are how to start a daemon in the background.
type StartOptions struct {
	// Exe and Args are the command (lwr … index watch); Env its
	// environment (nil: this process's).
	Exe  string
	Args []string
	Env  []string
	// Dir is the index folder; the daemon's log goes to daemon.log there.
	Dir string
	// Wait returns only once the daemon answers (or failed).
	Wait bool
}

// Start starts a daemon detached from this process and its terminal, its
// output appended to daemon.log in the index folder. It returns the
// process id.
func Start(ctx context.Context, d StartOptions) (int, error) {
	if err := os.MkdirAll(d.Dir, 0o700); err != nil {
		return 0, err
	}
	// One that answers already is named, not started again.
	if st, ok := answering(ctx, d.Dir); ok {
		return 0, &runningError{root: st.Root, pid: st.PID}
	}
	logPath := filepath.Join(d.Dir, "daemon.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, fmt.Errorf("open the daemon log %s: %w", logPath, err)
	}
	defer logf.Close()
	c := exec.Command(d.Exe, d.Args...)
	c.Stdin, c.Stdout, c.Stderr = nil, logf, logf
	c.SysProcAttr = detached()
	c.Env = d.Env
	if err := c.Start(); err != nil {
		return 0, fmt.Errorf("start the daemon: %w", err)
	}
	pid := c.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	if !d.Wait {
		return pid, nil
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return pid, fmt.Errorf("the daemon exited at once; its log %s says: %s", logPath, lastLine(logPath))
		case <-ctx.Done():
			return pid, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		// Our daemon answers; another one that started meanwhile makes
		// ours exit (already running), which the next turn reports.
		if st, ok := answering(ctx, d.Dir); ok {
			if st.PID == pid {
				return pid, nil
			}
			select {
			case <-exited:
				return 0, &runningError{root: st.Root, pid: st.PID}
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return pid, fmt.Errorf("the daemon (pid %d) did not answer within 30s; see %s", pid, logPath)
}

// answering returns the status of the daemon that answers for an index
// folder, if one does.
func answering(ctx context.Context, dir string) (*local.DaemonStatus, bool) {
	cl, err := Dial(dir, "", 3*time.Second)
	if err != nil {
		return nil, false
	}
	st, err := cl.Status(ctx)
	if err != nil || st.Daemon == nil {
		return nil, false
	}
	return st.Daemon, true
}

func lastLine(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// Stop stops the daemon of an index folder: it asks it over its transport
// (a daemon that holds the index but does not listen is terminated), then
// waits until it released the index. It returns the daemon's process id,
// or ErrNoDaemon when none runs.
func Stop(ctx context.Context, dir string, timeout time.Duration) (int, error) {
	h, held := index.LockHolder(dir)
	if !held || !h.Daemon() {
		return 0, ErrNoDaemon
	}
	asked := false
	if cl, err := Dial(dir, "", timeout); err == nil {
		asked = cl.Stop(ctx) == nil
	}
	if !asked {
		if err := terminate(h.PID); err != nil {
			return h.PID, fmt.Errorf("stop the daemon (process %d): %w", h.PID, err)
		}
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if now, held := index.LockHolder(dir); !held || now.PID != h.PID {
			return h.PID, nil
		}
		select {
		case <-ctx.Done():
			return h.PID, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return h.PID, fmt.Errorf("the daemon (process %d) did not stop within 15s; end it with kill %d (taskkill /PID %d on Windows)", h.PID, h.PID, h.PID)
}
