package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"lwr/config"
)

// Exec runs a configured command that searches the web and prints a
// web_result JSON document on its standard output — for example a wrapper
// around a coding agent's own search.
//
// The command is an argv list, never passed through a shell. In every
// element "{query}" is replaced by the query, "{max_results}",
// "{locale}" and "{intent}" by the request's values; when no element
// holds "{query}", the query is appended as the last argument. The query
// is always exactly one argument, whatever spaces, quotes or ; it holds.
// A query may begin with "-": put "--" before "{query}" if the command
// would read it as an option.
//
// The command runs in its own process group with standard input from
// /dev/null. When the search's context ends (the timeout), or the output
// passes the size limit, the whole group is killed.
type Exec struct {
	argv     []string
	maxBytes int
	environ  []string
	now      func() time.Time
}

// execWaitDelay is how long Wait waits for the output pipes after the
// command was killed or exited (a grandchild may hold them).
const execWaitDelay = 2 * time.Second

// NewExec returns the provider for cfg.Command.
func NewExec(cfg config.Exec, opts Options) (*Exec, error) {
	opts = opts.withDefaults()
	if len(cfg.Command) == 0 || strings.TrimSpace(cfg.Command[0]) == "" {
		return nil, errors.New(`web.exec.command is empty; set it to the argv of a search command, e.g. ["my-search", "--", "{query}"]`)
	}
	max := cfg.MaxBytes // config's default when not set
	if max <= 0 {
		max = config.DefaultWeb().Exec.MaxBytes
	}
	return &Exec{argv: append([]string(nil), cfg.Command...), maxBytes: max, environ: opts.Environ, now: opts.Now}, nil
}

// Name is "exec".
func (p *Exec) Name() string { return "exec" }

// Argv returns the command line for req, as it would be run.
func (p *Exec) Argv(req Request) []string {
	r := strings.NewReplacer("{query}", req.Query, "{max_results}", strconv.Itoa(req.MaxResults), "{locale}", req.Locale, "{intent}", string(req.Intent))
	out := make([]string, 0, len(p.argv)+1)
	hasQuery := false
	for i, a := range p.argv {
		if i > 0 && strings.Contains(a, "{query}") {
			hasQuery = true
		}
		if i == 0 {
			out = append(out, a)
			continue
		}
		out = append(out, r.Replace(a))
	}
	if !hasQuery {
		out = append(out, req.Query)
	}
	return out
}

// errOutputLimit cancels the command when its output is over the limit.
var errOutputLimit = errors.New("output over the limit")

// Search runs the command and reads its web_result.
func (p *Exec) Search(ctx context.Context, req Request) (Response, error) {
	argv := p.Argv(req)
	name := filepath.Base(argv[0])
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	if p.environ != nil {
		cmd.Env = p.environ
	}
	killGroup(cmd)
	cmd.WaitDelay = execWaitDelay
	stdout := &capWriter{max: p.maxBytes, onOver: func() { cancel(errOutputLimit) }}
	stderr := &capWriter{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return Response{}, fmt.Errorf("run %s: %w; check web.exec.command", name, err)
	}
	waitErr := cmd.Wait()
	switch {
	case context.Cause(cctx) == errOutputLimit:
		return Response{}, fmt.Errorf("command %s printed more than %d bytes and was killed; make it print less or raise web.exec.max_bytes: %w", name, p.maxBytes, ErrOutputTooLarge)
	case ctx.Err() != nil:
		return Response{}, fmt.Errorf("command %s did not finish and was killed: %w", name, ctx.Err())
	case waitErr != nil:
		var ee *exec.ExitError
		if errors.As(waitErr, &ee) {
			msg := firstLine(stderr.String())
			if msg != "" {
				msg = ": " + msg
			}
			return Response{}, fmt.Errorf("command %s exited with status %d%s", name, ee.ExitCode(), msg)
		}
		return Response{}, fmt.Errorf("command %s: %w", name, waitErr)
	}
	resp, err := ParseWebResult(stdout.Bytes(), p.now())
	if err != nil {
		return Response{}, fmt.Errorf("command %s: %w", name, err)
	}
	if resp.Status == "" {
		resp.Status = StatusOK
		if len(resp.Entries) == 0 {
			resp.Status = StatusEmpty
		}
	}
	return resp, nil
}

// firstLine is the first non-empty line of s, sanitized and short.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out, _ := SanitizeText(l, 200)
			return out
		}
	}
	return ""
}

// capWriter keeps the first max bytes written to it and calls onOver once
// when more arrive; the rest is discarded.
type capWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	max    int
	over   bool
	onOver func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return len(p), nil
	}
	if room := w.max - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:room])
		w.over = true
		if w.onOver != nil {
			w.onOver()
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}

func (w *capWriter) Bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Bytes()
}

func (w *capWriter) String() string { return string(w.Bytes()) }
