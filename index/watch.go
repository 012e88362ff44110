package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Poll, when positive, rescans the tree at this interval instead of
	// listening for file system events (network and synced folders, where
	// events do not arrive).
	Poll time.Duration
	// RemotePoll is the interval of the rescans of a source root on a
	// network drive, Google Drive for desktop or another file system whose
	// change notifications cannot be trusted (30s when zero); Watch
	// detects them and polls without being told.
	RemotePoll time.Duration
	// Debounce is the quiet time after the last event before the changes
	// are applied (300 ms); MaxDelay bounds the wait under a steady stream
	// of events (2 s).
	Debounce, MaxDelay time.Duration
	// Reconcile rescans the tree even without events (10 min): events are
	// an accelerator, the rescan is the source of truth.
	Reconcile time.Duration
	// OnSync is told about every sync that changed the index or failed.
	OnSync func(BuildStats, error)
	// Requests are syncs asked for now (lwr index build while the daemon
	// runs); each is answered on its Done channel when it has run.
	Requests <-chan SyncRequest

	// volume looks at the volume of the root (volumeOf when nil; tests
	// put another drive under the root).
	volume func(string) volume
}

func (o WatchOptions) withDefaults() WatchOptions {
	if o.Debounce <= 0 {
		o.Debounce = 300 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 2 * time.Second
	}
	if o.Reconcile <= 0 {
		o.Reconcile = 10 * time.Minute
	}
	if o.RemotePoll <= 0 {
		o.RemotePoll = 30 * time.Second
	}
	if o.volume == nil {
		o.volume = volumeOf
	}
	return o
}

// WatchState is what a running watch reports.
type WatchState struct {
	Mode       string        `json:"mode"`            // "events" or "poll"
	Why        string        `json:"why,omitempty"`   // why it polls without being told
	Every      time.Duration `json:"every,omitempty"` // the interval of polling
	Watches    int           `json:"watches"`
	Pending    int           `json:"pending"` // changed paths not applied yet
	Started    time.Time     `json:"started"`
	LastSync   time.Time     `json:"last_sync"`
	LastChange time.Time     `json:"last_change"` // last sync that changed the index
	Last       string        `json:"last"`        // what it changed
	Syncs      int           `json:"syncs"`
	Syncing    bool          `json:"syncing"` // a sync is running
	// ToRead and Done are the running sync's progress: the files it
	// reads and those read so far.
	ToRead  int    `json:"to_read,omitempty"`
	Done    int    `json:"done,omitempty"`
	Warning string `json:"warning,omitempty"`
}

// watchState is the state shared between the watch loop and readers.
type watchState struct {
	mu sync.Mutex
	s  WatchState
}

func (w *watchState) update(f func(*WatchState)) {
	w.mu.Lock()
	f(&w.s)
	w.mu.Unlock()
}

func (w *watchState) get() WatchState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.s
}

// WatchState reports on the running watch (zero when none runs).
func (ix *Index) WatchState() WatchState { return ix.watch.get() }

// SyncRequest asks a watching index to sync now.
type SyncRequest struct {
	Force, Audit bool
	Done         chan<- SyncResult // buffered: the watch does not wait for the reader
}

// SyncResult is what a requested sync did.
type SyncResult struct {
	Stats BuildStats
	Err   error
}

// ErrWatchLimit is reported when the system's limit on watched folders is
// reached; the watch falls back to polling.
var ErrWatchLimit = errors.New("the inotify watch limit is reached")

// Watch keeps the index current until ctx ends: it syncs once, then
// listens for changes (every folder of the tree is watched, new ones as
// they appear) and applies them with an incremental build after a short
// quiet time, and rescans the whole tree every Reconcile. When events
// overflow it rescans; when the watch limit is hit it says so and polls.
func (ix *Index) Watch(ctx context.Context, opts WatchOptions) error {
	opts = opts.withDefaults()
	log := ix.opts.Logger
	ix.watch.update(func(s *WatchState) { *s = WatchState{Mode: "events", Started: time.Now()} })
	syncWith := func(why string, bo BuildOptions) (BuildStats, error) {
		ix.watch.update(func(s *WatchState) { s.Syncing, s.ToRead, s.Done = true, 0, 0 })
		bo.OnStart = func(n int) { ix.watch.update(func(s *WatchState) { s.ToRead = n }) }
		bo.OnFile = func(string) { ix.watch.update(func(s *WatchState) { s.Done++ }) }
		st, err := ix.Build(context.WithoutCancel(ctx), bo)
		// Tell the caller first: once the state says a sync is done, what
		// it changed must be visible (searches, the titles for relations).
		if err != nil || st.Changed() {
			if opts.OnSync != nil {
				opts.OnSync(st, err)
			}
		}
		now := time.Now()
		ix.watch.update(func(s *WatchState) {
			s.Syncing = false
			s.LastSync = now
			s.Syncs++
			if st.Changed() {
				s.LastChange = now
				s.Last = fmt.Sprintf("%d added, %d updated, %d deleted (%s)", st.Added, st.Updated, st.Deleted, why)
			}
		})
		if err == nil && st.Changed() {
			log.Info("synced", "why", why, "added", st.Added, "updated", st.Updated, "deleted", st.Deleted, "took", st.Took.Round(time.Millisecond))
		}
		return st, err
	}
	sync := func(why string) error {
		_, err := syncWith(why, BuildOptions{})
		return err
	}
	// answer runs a requested sync.
	answer := func(req SyncRequest) {
		st, err := syncWith("requested", BuildOptions{Force: req.Force, Audit: req.Audit})
		req.Done <- SyncResult{Stats: st, Err: err}
	}
	// pollAfter syncs once, then polls.
	pollAfter := func(every time.Duration, why string) error {
		if err := sync("start"); err != nil {
			return err
		}
		return ix.poll(ctx, every, why, sync, opts.Requests, answer)
	}
	if opts.Poll > 0 {
		return pollAfter(opts.Poll, "")
	}
	if why := pollReason(opts.volume(ix.opts.Root)); why != "" {
		log.Info("polling: no trustworthy change notifications", "why", why, "every", opts.RemotePoll)
		return pollAfter(opts.RemotePoll, why)
	}
	w, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		log.Warn("cannot watch for file changes; polling instead", "every", "2s", "err", err)
		return pollAfter(2*time.Second, "cannot watch for changes: "+err.Error())
	}
	defer w.Close()
	// The tree is watched before the first sync: a change made while it
	// runs (or right after it) is an event, not one lost until the next
	// rescan.
	tw := &treeWatch{w: w, root: ix.opts.Root, dirs: map[string]bool{}}
	if err := tw.add(ix.opts.Root); err != nil {
		if errors.Is(err, ErrWatchLimit) {
			msg := watchLimitMessage()
			log.Warn(msg)
			w.Close()
			return pollAfter(2*time.Second, msg)
		}
		return err
	}
	ix.watch.update(func(s *WatchState) { s.Watches = len(tw.dirs) })
	if err := sync("start"); err != nil {
		return err
	}

	pending := map[string]bool{}
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	reconcile := time.NewTicker(opts.Reconcile)
	defer reconcile.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !tw.relevant(ev) {
				continue
			}
			log.Debug("event", "op", ev.Op.String(), "path", ev.Name)
			if ev.Has(fsnotify.Create) {
				if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
					// Files created before the watch was added send no
					// events: the sync after the debounce picks them up.
					if err := tw.add(ev.Name); errors.Is(err, ErrWatchLimit) {
						ix.watch.update(func(s *WatchState) { s.Warning = watchLimitMessage() })
						log.Warn(watchLimitMessage())
					}
				}
			}
			if ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Remove) {
				tw.forget(ev.Name)
			}
			if len(pending) == 0 {
				first = time.Now()
			}
			pending[ev.Name] = true
			n, watches := len(pending), len(tw.dirs)
			ix.watch.update(func(s *WatchState) { s.Pending, s.Watches = n, watches })
			wait := opts.Debounce
			if d := opts.MaxDelay - time.Since(first); d < wait {
				wait = max(d, 0)
			}
			timer.Reset(wait)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				msg := "file events overflowed; the index may be stale until the rescan finishes"
				log.Warn(msg)
				ix.watch.update(func(s *WatchState) { s.Warning = msg })
				pending["*overflow*"] = true
				timer.Reset(0)
				continue
			}
			log.Warn("watch error", "err", err)
		case <-timer.C:
			pending = map[string]bool{}
			ix.watch.update(func(s *WatchState) { s.Pending = 0 })
			if err := sync("changes"); err != nil {
				log.Error("sync failed", "err", err)
			}
			ix.watch.update(func(s *WatchState) {
				if strings.HasPrefix(s.Warning, "file events overflowed") {
					s.Warning = ""
				}
			})
		case <-reconcile.C:
			if err := sync("reconcile"); err != nil {
				log.Error("sync failed", "err", err)
			}
		case req := <-opts.Requests:
			// What is pending is part of the requested sync.
			pending = map[string]bool{}
			timer.Stop()
			ix.watch.update(func(s *WatchState) { s.Pending = 0 })
			answer(req)
		}
	}
}

// poll rescans the tree every interval until ctx ends; why says why it
// polls when it was not asked to ("" for --poll).
func (ix *Index) poll(ctx context.Context, every time.Duration, why string, sync func(string) error, requests <-chan SyncRequest, answer func(SyncRequest)) error {
	ix.watch.update(func(s *WatchState) {
		s.Mode, s.Why, s.Every = "poll", why, every
		s.Watches = 0
	})
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if err := sync("poll"); err != nil {
				ix.opts.Logger.Error("sync failed", "err", err)
			}
		case req := <-requests:
			answer(req)
		}
	}
}

// treeWatch adds a watch for every folder of a tree (fsnotify does not
// recurse), skipping hidden folders.
type treeWatch struct {
	w    *fsnotify.Watcher
	root string
	dirs map[string]bool
}

func (t *treeWatch) add(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != t.root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if t.dirs[p] {
			return nil
		}
		if err := t.w.Add(p); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				return ErrWatchLimit
			}
			return nil // a folder that vanished meanwhile
		}
		t.dirs[p] = true
		return nil
	})
}

// forget drops the watches of a folder that was removed or renamed, and of
// everything under it; its new name, if any, arrives as a Create.
func (t *treeWatch) forget(p string) {
	for d := range t.dirs {
		if d == p || strings.HasPrefix(d, p+string(filepath.Separator)) {
			_ = t.w.Remove(d)
			delete(t.dirs, d)
		}
	}
}

// relevant reports whether an event may change the index: not a bare
// chmod, not inside a hidden folder, not an editor's temporary file.
func (t *treeWatch) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	rel, err := filepath.Rel(t.root, ev.Name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(seg, ".") && seg != "." {
			return false
		}
	}
	return !isTempName(filepath.Base(ev.Name))
}

func watchLimitMessage() string {
	cur := "unknown"
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches"); err == nil {
		cur = strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("the inotify watch limit is reached (fs.inotify.max_user_watches = %s); raise it with `sudo sysctl fs.inotify.max_user_watches=524288`; polling the tree every 2s meanwhile", cur)
}
