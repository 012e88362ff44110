package report

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lwr/config"
	"lwr/policy"
	"lwr/research/understand"
)

// Hand-off files (SPEC §7.5).
const (
	// LogDir is the schema-version log, relative to the workspace.
	LogDir = "schema-version-log"
	// LastOutputFile points at the last report, in the output folder.
	LastOutputFile = ".last_research_output.json"
)

// The statuses of a finalize.
const (
	FinalizeOK      = "ok"
	FinalizeSkipped = "skipped" // the same content was finalized with this timestamp
)

// FS is what finalize does to files, so that tests can make a step fail.
// The zero value uses the real file system.
type FS struct {
	// Rename renames a file (os.Rename).
	Rename func(oldpath, newpath string) error
	// WriteFile creates name, writes data and syncs it (temp files only).
	WriteFile func(name string, data []byte) error
}

func (f FS) withDefaults() FS {
	if f.Rename == nil {
		f.Rename = os.Rename
	}
	if f.WriteFile == nil {
		f.WriteFile = writeSynced
	}
	return f
}

func writeSynced(name string, data []byte) error {
	file, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := file.Write(data)
	serr := file.Sync()
	cerr := file.Close()
	if err := firstErr(werr, serr, cerr); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// ContextInput is what the context file says besides the report itself.
type ContextInput struct {
	Query         string
	SourceRoot    string
	Statuses      Statuses
	SkipWeb       bool
	Policies      policy.Policies
	Understanding *understand.Result
	// Producer is "lwr research" or "lwr finalize".
	Producer string
}

// FinalizeOptions configure Finalize.
type FinalizeOptions struct {
	// Workspace is the folder the output folders are in (absolute).
	Workspace string
	// OutputDir is the report folder relative to Workspace
	// (config's research.output_dir default when empty).
	OutputDir string
	// Markdown is the report.
	Markdown []byte
	// Timestamp names the report (UTC seconds); zero means Now().
	Timestamp time.Time
	Context   ContextInput
	// Now is the clock of created_at; nil means time.Now.
	Now func() time.Time
	// LockTimeout bounds the wait for another finalize in the same
	// folder; 0 means 10s.
	LockTimeout time.Duration
	// Sources, when set, has the citations verified against the files
	// they cite (VerifySources) besides the format (Validate).
	Sources *Sources
	FS      FS
}

func (o FinalizeOptions) withDefaults() FinalizeOptions {
	if o.OutputDir == "" {
		o.OutputDir = config.DefaultResearch().OutputDir
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timestamp.IsZero() {
		o.Timestamp = o.Now()
	}
	o.Timestamp = o.Timestamp.UTC().Truncate(time.Second)
	if o.LockTimeout <= 0 {
		o.LockTimeout = 10 * time.Second
	}
	o.FS = o.FS.withDefaults()
	return o
}

// Finalized says where a report was finalized.
type Finalized struct {
	Status        string `json:"status"` // FinalizeOK or FinalizeSkipped
	Name          string `json:"name"`   // research_<ts>[-n].md
	Timestamp     string `json:"timestamp"`
	Report        string `json:"report"` // absolute paths
	Context       string `json:"context"`
	Log           string `json:"schema_version_log"`
	LastOutput    string `json:"last_output"`
	SHA256        string `json:"sha256"`
	SchemaVersion string `json:"schema_version"`
	// CommentComputed: the report had no <!-- JSON: … --> comment and
	// lwr wrote it from the text (Complete).
	CommentComputed bool `json:"comment_computed,omitempty"`
}

// SavedLine is the single line lwr prints: 保存しました: [name](<absolute path>).
func (f *Finalized) SavedLine() string {
	return fmt.Sprintf("保存しました: [%s](%s)", Text(f.Name), PathTarget(filepath.ToSlash(f.Report)))
}

// ValidationError is a report that failed validation.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, min(len(e.Problems), 5))
	for i, p := range e.Problems {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Problems)-5))
			break
		}
		parts = append(parts, p.String())
	}
	return "the report is not valid: " + strings.Join(parts, "; ") + " (lwr validate FILE lists every problem)"
}

// schemaLog is the content of schema-version-log/<ts>.json.
type schemaLog struct {
	Timestamp     string `json:"timestamp"`
	SchemaVersion string `json:"schema_version"`
	OutputFile    string `json:"output_file"`
}

// lastOutput is the content of .last_research_output.json.
type lastOutput struct {
	Status    string `json:"status"`
	Path      string `json:"path"`
	Context   string `json:"context"`
	Timestamp string `json:"timestamp"`
}

// Finalize validates a report and hands it on atomically (SPEC §7.5); a
// report without its <!-- JSON: … --> comment gets the one its text
// implies (Complete), research and deep reports alike:
// the report and its schema-version log are written to temp files and
// renamed into place (the first rename undone when the second fails),
// then research_<ts>.context.json and .last_research_output.json are
// written atomically. The same content with the same timestamp is
// skipped; a different report in the same second gets research_<ts>-2.md
// (and -3, …). A failure is a *Failure with a fixed reason code; it
// leaves no temp file, no half-finished pair, and the evidence in
// result/research/.run-state/<ts>/.
func Finalize(ctx context.Context, opts FinalizeOptions) (*Finalized, error) {
	opts = opts.withDefaults()
	var computed bool
	opts.Markdown, computed = Complete(opts.Markdown)
	ts := FormatTimestamp(opts.Timestamp)
	outDir := filepath.Join(opts.Workspace, opts.OutputDir)
	logDir := filepath.Join(opts.Workspace, LogDir)
	runID := newRunID()
	expected := expectedFor(opts.OutputDir, LogDir, "research_"+ts)
	fail := func(reason Reason, err error) (*Finalized, error) {
		return nil, &Failure{Reason: reason, Err: err, Evidence: writeFailure(outDir, ts, runID, reason, expected)}
	}
	if !filepath.IsAbs(opts.Workspace) {
		return nil, &Failure{Reason: ReasonInvalidInput, Err: fmt.Errorf("finalize: the workspace %q is not absolute", opts.Workspace)}
	}
	if !filepath.IsLocal(opts.OutputDir) {
		return nil, &Failure{Reason: ReasonInvalidInput, Err: fmt.Errorf("finalize: the output folder %q is not inside the workspace; set research.output_dir to a relative folder such as result/research", opts.OutputDir)}
	}
	for _, d := range []string{outDir, logDir} {
		if err := insideWorkspace(opts.Workspace, d); err != nil {
			return nil, &Failure{Reason: ReasonInvalidInput, Err: err}
		}
		if err := outsideSourceRoot(filepath.FromSlash(opts.Context.SourceRoot), d); err != nil {
			return nil, &Failure{Reason: ReasonInsideSourceRoot, Err: err}
		}
	}
	ps := Check(opts.Markdown, opts.Sources)
	if len(ps) > 0 {
		return fail(ReasonValidationFailed, &ValidationError{Problems: ps})
	}
	if err := ctx.Err(); err != nil {
		return fail(ReasonCanceled, err)
	}
	version, _ := reportMetadata(opts.Markdown)
	for _, d := range []string{outDir, logDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fail(ReasonWriteFailed, fmt.Errorf("create %s: %w", d, err))
		}
	}
	unlock, err := lockDir(ctx, outDir, opts.LockTimeout)
	if err != nil {
		return fail(ReasonWriteFailed, err)
	}
	defer unlock()

	sum := sha256.Sum256(opts.Markdown)
	digest := hex.EncodeToString(sum[:])
	// Choose the name: the first research_<ts>[-n].md that is free or
	// holds this very content.
	var base string
	for n := 1; ; n++ {
		base = "research_" + ts
		if n > 1 {
			base += fmt.Sprintf("-%d", n)
		}
		data, err := os.ReadFile(filepath.Join(outDir, base+".md"))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return fail(ReasonWriteFailed, fmt.Errorf("read %s: %w", base+".md", err))
		}
		if bytes.Equal(data, opts.Markdown) {
			f, err := finalizeAgain(opts, outDir, logDir, base, ts, digest, version, runID)
			if f != nil {
				f.CommentComputed = computed
			}
			return f, err
		}
	}
	stamp := strings.TrimPrefix(base, "research_")
	f := &Finalized{
		Status: FinalizeOK, Name: base + ".md", Timestamp: stamp, SHA256: digest, SchemaVersion: version,
		Report:     filepath.Join(outDir, base+".md"),
		Context:    filepath.Join(outDir, base+".context.json"),
		Log:        filepath.Join(logDir, stamp+".json"),
		LastOutput: filepath.Join(outDir, LastOutputFile),
	}
	expected = expectedFor(opts.OutputDir, LogDir, base)
	if err := startRun(outDir, ts, runID, expected); err != nil {
		return fail(ReasonWriteFailed, fmt.Errorf("write the run manifest: %w", err))
	}
	logJSON, _ := json.MarshalIndent(schemaLog{
		Timestamp: opts.Timestamp.Format(time.RFC3339), SchemaVersion: version,
		OutputFile: filepath.ToSlash(filepath.Join(opts.OutputDir, f.Name)),
	}, "", "  ")
	mdTmp := filepath.Join(outDir, "."+f.Name+".tmp-"+runID)
	logTmp := filepath.Join(logDir, "."+stamp+".json.tmp-"+runID)
	cleanup := func() { os.Remove(mdTmp); os.Remove(logTmp) }
	if err := opts.FS.WriteFile(mdTmp, opts.Markdown); err != nil {
		cleanup()
		return fail(ReasonWriteFailed, fmt.Errorf("write %s: %w", mdTmp, err))
	}
	if err := opts.FS.WriteFile(logTmp, append(logJSON, '\n')); err != nil {
		cleanup()
		return fail(ReasonWriteFailed, fmt.Errorf("write %s: %w", logTmp, err))
	}
	if err := opts.FS.Rename(mdTmp, f.Report); err != nil {
		cleanup()
		return fail(ReasonRenameFailed, fmt.Errorf("rename the report into place: %w", err))
	}
	if err := opts.FS.Rename(logTmp, f.Log); err != nil {
		// Undo the first rename: never a report without its log.
		if uerr := opts.FS.Rename(f.Report, mdTmp); uerr != nil {
			os.Remove(f.Report)
		}
		cleanup()
		return fail(ReasonRolledBack, fmt.Errorf("rename the schema-version log into place (the report was taken back): %w", err))
	}
	undo := func(paths ...string) {
		for _, p := range paths {
			os.Remove(p)
		}
	}
	ctxJSON, err := contextJSON(opts, f)
	if err == nil {
		err = writeAtomicFS(opts.FS, f.Context, ctxJSON, runID)
	}
	if err != nil {
		undo(f.Report, f.Log)
		return fail(ReasonContextFailed, fmt.Errorf("write the context file (the report is not handed on): %w", err))
	}
	if err := writeLastOutput(opts.FS, f, runID); err != nil {
		undo(f.Report, f.Log, f.Context)
		return fail(ReasonLastOutputFailed, fmt.Errorf("write %s: %w", LastOutputFile, err))
	}
	clearRunState(outDir, ts, runID)
	f.CommentComputed = computed
	return f, nil
}

// finalizeAgain is a finalize of content already finalized under base: it
// is skipped, but a context file a crash left unwritten is written, and
// the last-output pointer points at it.
func finalizeAgain(opts FinalizeOptions, outDir, logDir, base, ts, digest, version, runID string) (*Finalized, error) {
	stamp := strings.TrimPrefix(base, "research_")
	f := &Finalized{
		Status: FinalizeSkipped, Name: base + ".md", Timestamp: stamp, SHA256: digest, SchemaVersion: version,
		Report:     filepath.Join(outDir, base+".md"),
		Context:    filepath.Join(outDir, base+".context.json"),
		Log:        filepath.Join(logDir, stamp+".json"),
		LastOutput: filepath.Join(outDir, LastOutputFile),
	}
	expected := expectedFor(opts.OutputDir, LogDir, base)
	fail := func(reason Reason, err error) (*Finalized, error) {
		return nil, &Failure{Reason: reason, Err: err, Evidence: writeFailure(outDir, ts, runID, reason, expected)}
	}
	if _, err := os.Stat(f.Context); errors.Is(err, fs.ErrNotExist) {
		data, err := contextJSON(opts, f)
		if err == nil {
			err = writeAtomicFS(opts.FS, f.Context, data, runID)
		}
		if err != nil {
			return fail(ReasonContextFailed, fmt.Errorf("write the context file: %w", err))
		}
	}
	if cur, err := os.ReadFile(f.LastOutput); err != nil || !bytes.Contains(cur, []byte(jsonString(f.Report))) {
		if err := writeLastOutput(opts.FS, f, runID); err != nil {
			return fail(ReasonLastOutputFailed, fmt.Errorf("write %s: %w", LastOutputFile, err))
		}
	}
	return f, nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func writeLastOutput(fsys FS, f *Finalized, runID string) error {
	data, err := json.MarshalIndent(lastOutput{Status: "success", Path: f.Report, Context: f.Context, Timestamp: f.Timestamp}, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomicFS(fsys, f.LastOutput, append(data, '\n'), runID)
}

// writeAtomicFS writes name through a temp file and a rename, with the
// FS seam; nothing is left behind on failure.
func writeAtomicFS(fsys FS, name string, data []byte, runID string) error {
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-"+runID)
	if err := fsys.WriteFile(tmp, data); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := fsys.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// reportMetadata reads metadata.schema_version and metadata.model of a
// report ("" where it has none).
func reportMetadata(md []byte) (schemaVersion, model string) {
	raw, p := ExtractComment(md)
	if p != nil {
		return "", ""
	}
	var c struct {
		Metadata struct {
			SchemaVersion string `json:"schema_version"`
			Model         string `json:"model"`
		} `json:"metadata"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return "", ""
	}
	return c.Metadata.SchemaVersion, c.Metadata.Model
}
