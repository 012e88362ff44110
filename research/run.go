package research

import (
	"context"
	"errors"
	"path/filepath"
	"time"
)

// Outcome is a finished research: the report's content, where it was
// finalized, and how long each phase took.
type Outcome struct {
	Report    *Report
	Markdown  []byte
	Finalized *Finalized
	Timings   Timings
}

// Run is the whole pipeline: Research (Phases A–C and the conclusion),
// Render (Phase D), and Finalize into fin.Workspace. fin's Markdown,
// Context and Timestamp are filled here. A failure is a *Failure whose
// reason code is also in the failure evidence.
func Run(ctx context.Context, opts Options, fin FinalizeOptions) (*Outcome, error) {
	start := time.Now()
	opts = opts.withDefaults()
	fin.Timestamp = opts.Timestamp
	if fin.Now == nil {
		fin.Now = opts.Now
	}
	r, tm, err := Research(ctx, opts)
	if err != nil {
		var f *Failure
		if errors.As(err, &f) && fin.Workspace != "" {
			f.Evidence = recordFailure(fin, f.Reason)
		}
		return nil, err
	}
	t0 := time.Now()
	md, err := Render(r)
	tm.Report += time.Since(t0)
	if err != nil {
		f := &Failure{Reason: ReasonValidationFailed, Err: err}
		f.Evidence = recordFailure(fin, f.Reason)
		return nil, f
	}
	fin.Markdown = md
	u := r.Understanding
	fin.Context = ContextInput{
		Query: r.Query, SourceRoot: r.SourceRoot,
		Statuses: Statuses{Local: r.Local.Status, Web: r.Web.Status, Deep: r.Deep.Status},
		SkipWeb:  r.SkipWeb, Policies: r.Local.Policy, Understanding: &u, Producer: "lwr research",
	}
	t0 = time.Now()
	f, err := Finalize(ctx, fin)
	tm.Finalize = time.Since(t0)
	tm.Total = time.Since(start)
	if err != nil {
		return nil, err
	}
	return &Outcome{Report: r, Markdown: md, Finalized: f, Timings: tm}, nil
}

// recordFailure writes the failure evidence of a run that failed before
// finalize; it returns the run-state folder.
func recordFailure(fin FinalizeOptions, reason string) string {
	fin = fin.withDefaults()
	if !filepath.IsAbs(fin.Workspace) || !filepath.IsLocal(fin.OutputDir) {
		return ""
	}
	ts := FormatTimestamp(fin.Timestamp)
	outDir := filepath.Join(fin.Workspace, fin.OutputDir)
	return writeFailure(outDir, ts, newRunID(), reason, expectedFor(fin.OutputDir, LogDir, "research_"+ts))
}
