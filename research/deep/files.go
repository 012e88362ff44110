package deep

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"lwr/research/local"
)

// Errors callers branch on.
var (
	// ErrInput is input the caller must change (a topic, a subtopic, a
	// slug, a flag).
	ErrInput = errors.New("invalid input")
	// ErrNoTopic is a slug with no deep research in the workspace.
	ErrNoTopic = errors.New("no such deep research")
	// ErrBusy is a topic another process works on.
	ErrBusy = fmt.Errorf("the topic is %w", local.ErrInUse)
	// ErrOutsideWorkspace is a deep research folder that leads out of the
	// workspace (through a symbolic link).
	ErrOutsideWorkspace = errors.New("path outside the workspace")
	// ErrDamaged is a state, plan or findings file lwr cannot read.
	ErrDamaged = errors.New("damaged deep research file")
	// ErrUnwritable is a deep research folder lwr cannot write in (a
	// read-only workspace, a full disk).
	ErrUnwritable = errors.New("the deep research folder cannot be written")
)

// unwritable is the error of a file or folder p of the deep research
// folder that cannot be written: one sentence with the reason and what
// to do.
func unwritable(p string, err error) error {
	why := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		why = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		why = le.Err
	}
	return errorf(ErrUnwritable, "cannot write %s (%v); run lwr in a workspace you can write, or give --workspace a folder you can write", filepath.ToSlash(p), why)
}

// mkdir creates a folder of the deep research folder (and its parents).
func mkdir(p string) error {
	if err := os.MkdirAll(p, 0o755); err != nil {
		return unwritable(p, err)
	}
	return nil
}

// Bounds of the files read.
const (
	maxStateFile    = 1 << 20
	maxPlanFile     = 1 << 20
	maxFindingsFile = 16 << 20
	maxReportFile   = 16 << 20
)

// readBounded reads a regular file of at most max bytes.
func readBounded(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errorf(ErrDamaged, "%s is not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errorf(ErrDamaged, "%s is over %d bytes", p, max)
	}
	return data, nil
}

// writeAtomic replaces p with data: a temp file in its folder, synced,
// renamed over p, the folder synced; a failure leaves p as it was and no
// temp file.
func writeAtomic(p string, data []byte) error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp-"+hex.EncodeToString(b[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return unwritable(p, err)
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := cmpErr(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return unwritable(p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return unwritable(p, err)
	}
	syncDir(filepath.Dir(p))
	return nil
}

// syncDir makes a rename in dir durable (where the system allows it).
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// confine checks that p, as far as it exists, stays inside the workspace
// ws when symbolic links are followed.
func confine(ws, p string) error {
	rws, err := filepath.EvalSymlinks(ws)
	if err != nil {
		return fmt.Errorf("the workspace %s: %w", ws, err)
	}
	q := p
	for {
		if _, err := os.Lstat(q); err == nil {
			break
		}
		parent := filepath.Dir(q)
		if parent == q {
			return nil
		}
		q = parent
	}
	rq, err := filepath.EvalSymlinks(q)
	if err != nil {
		return fmt.Errorf("%s: %w", q, err)
	}
	a, b := rws, rq
	if runtime.GOOS == "windows" {
		a, b = strings.ToLower(a), strings.ToLower(b)
	}
	if rel, err := filepath.Rel(a, b); err != nil || rel != "." && !filepath.IsLocal(rel) {
		return errorf(ErrOutsideWorkspace, "%s leads to %s, outside the workspace %s; remove the link or choose another workspace", p, rq, ws)
	}
	return nil
}

// lock takes the lock file p, waiting up to timeout; what names what it
// guards in the message of a timeout.
func lock(ctx context.Context, p string, timeout time.Duration, what string) (func(), error) {
	lk := flock.New(p, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
	deadline := time.Now().Add(timeout)
	for {
		ok, err := lk.TryLock()
		if err != nil {
			return nil, unwritable(p, err)
		}
		if ok {
			return func() { _ = lk.Unlock() }, nil
		}
		if time.Now().After(deadline) {
			return nil, errorf(ErrBusy, "another lwr works on %s (a deep run or an agent's deep tool) for more than %s; wait for it to finish, or stop it", what, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// The events of events.jsonl.
const (
	EventStarted          = "STARTED"
	EventPlanWritten      = "PLAN_WRITTEN"
	EventSubtopicDone     = "SUBTOPIC_DONE"
	EventGapCheckComplete = "GAP_CHECK_COMPLETE"
	EventReportDraft      = "REPORT_DRAFT"
	EventVerifyFail       = "VERIFY_FAIL"
	EventSearchAgain      = "SEARCH_AGAIN" // a file cited changed: its subtopics are searched again
	EventReportConfirmed  = "REPORT_CONFIRMED"
	EventRecovered        = "REPORT_CONFIRMED_RECOVERED"
	EventBlocked          = "BLOCKED"
)

// Checkpoints besides the events: points between two writes of a phase,
// where a crash leaves one written and not the other.
const (
	PointFindingsWritten = "findings_written" // a subtopic's findings, before the state says it is done
	PointDraftWritten    = "draft_written"    // report.md as a draft, before the state says verify
	PointSentinelWritten = "sentinel_written" // status: confirmed, before the state is cleared
)

// Event is one line of events.jsonl: a decision or a phase change, never
// what was found.
type Event struct {
	Time    time.Time      `json:"time"`
	Event   string         `json:"event"`
	Slug    string         `json:"slug"`
	Session string         `json:"session_id,omitempty"`
	Fields  map[string]any `json:"fields,omitempty"`
}

// appendEvent adds an event to events.jsonl and syncs it.
func appendEvent(p string, e Event) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return unwritable(p, err)
	}
	_, werr := f.Write(append(line, '\n'))
	serr := f.Sync()
	cerr := f.Close()
	if err := cmpErr(werr, serr, cerr); err != nil {
		return unwritable(p, err)
	}
	return nil
}

// ReadEvents reads events.jsonl; a line a crash cut short is left out.
func ReadEvents(p string) ([]Event, error) {
	data, err := readBounded(p, maxFindingsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, l := range strings.Split(string(data), "\n") {
		var e Event
		if l != "" && json.Unmarshal([]byte(l), &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// kindError is an error of one of the kinds above: errors.Is sees the
// kind, the message is the sentence alone.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return errors.Is(e.kind, target) }

func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// cmpErr is the first error of a write, its sync and its close.
func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// cleanTemps removes the temp files a killed write left in dir (the
// topic's lock is held: no write of another process is under way).
func cleanTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") {
			os.Remove(filepath.Join(dir, n))
		}
	}
}
