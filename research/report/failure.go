package report

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Reason is the fixed code of a failed research or finalize. Failure
// evidence holds one of them and nothing the user wrote.
type Reason string

// The reason codes.
const (
	ReasonCurrentnessInvalid Reason = "currentness_policy_invalid"
	ReasonPreferencesInvalid Reason = "source_preferences_invalid"
	ReasonInvalidInput       Reason = "invalid_input"
	ReasonSearchFailed       Reason = "search_failed"
	ReasonIndexBusy          Reason = "index_busy"
	ReasonNoEvidence         Reason = "no_evidence"
	ReasonValidationFailed   Reason = "validation_failed"
	ReasonWriteFailed        Reason = "temp_write_failed"
	ReasonRenameFailed       Reason = "rename_failed"
	ReasonRolledBack         Reason = "second_rename_failed_rolled_back"
	ReasonContextFailed      Reason = "context_write_failed"
	ReasonLastOutputFailed   Reason = "last_output_write_failed"
	ReasonCanceled           Reason = "canceled"
	// ReasonInsideSourceRoot: the report would be written inside the
	// source root, where the next build would index it as a source.
	ReasonInsideSourceRoot Reason = "workspace_inside_source_root"
)

// Reasons lists every reason code.
func Reasons() []Reason {
	return []Reason{ReasonCurrentnessInvalid, ReasonPreferencesInvalid, ReasonInvalidInput, ReasonSearchFailed, ReasonIndexBusy, ReasonNoEvidence,
		ReasonValidationFailed, ReasonWriteFailed, ReasonRenameFailed, ReasonRolledBack, ReasonContextFailed, ReasonLastOutputFailed, ReasonCanceled, ReasonInsideSourceRoot}
}

// Failure is a failed research or finalize: a fixed reason code and the
// error (which may quote user text and is for the person at the terminal,
// never for the failure evidence). errors.Is sees through it.
type Failure struct {
	Reason Reason
	Err    error
	// Evidence is the run-state folder written for it, "" when none.
	Evidence string
}

func (f *Failure) Error() string { return f.Err.Error() }
func (f *Failure) Unwrap() error { return f.Err }

// FailureSchemaVersion is the version of the failure evidence files.
const FailureSchemaVersion = "1.0"

// FailureSummary is failure-summary.json: fixed fields only.
type FailureSummary struct {
	SchemaVersion string `json:"schema_version"`
	Timestamp     string `json:"timestamp"`
	RunID         string `json:"run_id"`
	Reason        Reason `json:"reason"`
}

// ExpectedArtifacts is expected-artifacts.manifest.json: the files the
// run meant to write, relative to the workspace.
type ExpectedArtifacts struct {
	SchemaVersion string   `json:"schema_version"`
	Timestamp     string   `json:"timestamp"`
	RunID         string   `json:"run_id"`
	Artifacts     []string `json:"artifacts"`
}

// newRunID returns 16 random hex digits.
func newRunID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return fmt.Sprintf("%016x", time.Now().UnixNano())
	}
	return hex.EncodeToString(b)
}

// TimestampFormat is the UTC form of report timestamps.
const TimestampFormat = "20060102T150405Z"

// FormatTimestamp formats t as a report timestamp (UTC).
func FormatTimestamp(t time.Time) string { return t.UTC().Format(TimestampFormat) }

// ParseTimestamp reads a report timestamp (yyyyMMddTHHmmssZ, UTC).
func ParseTimestamp(s string) (time.Time, error) {
	t, err := time.Parse(TimestampFormat, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q is not yyyyMMddTHHmmssZ (UTC), e.g. 20260601T120000Z", s)
	}
	return t.UTC(), nil
}

// runStateDir is result/research/.run-state/<ts>.
func runStateDir(outDir, ts string) string { return filepath.Join(outDir, ".run-state", ts) }

// expectedFor lists the artifacts of a report base name.
func expectedFor(outRel, logRel, base string) []string {
	return []string{
		filepath.ToSlash(filepath.Join(outRel, base+".md")),
		filepath.ToSlash(filepath.Join(logRel, base[len("research_"):]+".json")),
		filepath.ToSlash(filepath.Join(outRel, base+".context.json")),
		filepath.ToSlash(filepath.Join(outRel, LastOutputFile)),
	}
}

// writeManifest writes expected-artifacts.manifest.json at the start of a
// run, so that even a killed run leaves evidence of what it meant to do.
func writeManifest(outDir, ts, runID string, artifacts []string) error {
	dir := runStateDir(outDir, ts)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeJSONFile(filepath.Join(dir, "expected-artifacts.manifest.json"), ExpectedArtifacts{
		SchemaVersion: FailureSchemaVersion, Timestamp: ts, RunID: runID, Artifacts: artifacts,
	})
}

// startRun writes the manifest at the start of a run, unless the folder
// holds the evidence of an earlier failure (kept as it is).
func startRun(outDir, ts, runID string, artifacts []string) error {
	if _, err := os.Stat(filepath.Join(runStateDir(outDir, ts), "failure-summary.json")); err == nil {
		return nil
	}
	return writeManifest(outDir, ts, runID, artifacts)
}

// writeFailure writes the failure evidence: the manifest (again, in case
// it was not written) and failure-summary.json with the reason code only.
// It returns the run-state folder.
func writeFailure(outDir, ts, runID string, reason Reason, artifacts []string) string {
	dir := runStateDir(outDir, ts)
	if err := writeManifest(outDir, ts, runID, artifacts); err != nil {
		return ""
	}
	if err := writeJSONFile(filepath.Join(dir, "failure-summary.json"), FailureSummary{
		SchemaVersion: FailureSchemaVersion, Timestamp: ts, RunID: runID, Reason: reason,
	}); err != nil {
		return ""
	}
	return dir
}

// clearRunState removes the manifest a run wrote at its start, after it
// succeeded; the evidence of other runs stays.
func clearRunState(outDir, ts, runID string) {
	dir := runStateDir(outDir, ts)
	p := filepath.Join(dir, "expected-artifacts.manifest.json")
	var m ExpectedArtifacts
	if data, err := os.ReadFile(p); err == nil && json.Unmarshal(data, &m) == nil && m.RunID == runID {
		os.Remove(p)
	}
	os.Remove(dir)               // only when empty
	os.Remove(filepath.Dir(dir)) // only when empty
}

// writeJSONFile writes v as indented JSON through a temp file and a rename.
func writeJSONFile(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(name, append(data, '\n'), os.Rename)
}

// writeAtomic writes data to a temp file beside name, syncs it and
// renames it over name; nothing is left behind on failure.
func writeAtomic(name string, data []byte, rename func(string, string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := firstErr(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// RecordFailure writes the failure evidence of a research that failed
// before its report could be finalized (fin says where it would have
// gone); it returns the run-state folder, "" when none was written.
func RecordFailure(fin FinalizeOptions, reason Reason) string {
	fin = fin.withDefaults()
	if !filepath.IsAbs(fin.Workspace) || !filepath.IsLocal(fin.OutputDir) {
		return ""
	}
	ts := FormatTimestamp(fin.Timestamp)
	outDir := filepath.Join(fin.Workspace, fin.OutputDir)
	return writeFailure(outDir, ts, newRunID(), reason, expectedFor(fin.OutputDir, LogDir, "research_"+ts))
}
