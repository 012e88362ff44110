package research

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"lwr/research/report"
)

// Outcome is a finished research: the report's content, where it was
// finalized, and how long each phase took.
type Outcome struct {
	Report    *Report
	Markdown  []byte
	Finalized *report.Finalized
	Timings   Timings
}

// Run is the whole pipeline: Research (Phases A–C and the conclusion),
// Render (Phase D), and report.Finalize into fin.Workspace. fin's
// Markdown, Context and Timestamp are filled here. A failure is a
// *report.Failure whose reason code is also in the failure evidence.
func Run(ctx context.Context, opts Options, fin report.FinalizeOptions) (*Outcome, error) {
	start := time.Now()
	opts = opts.withDefaults()
	fin.Timestamp = opts.Timestamp
	if fin.Now == nil {
		fin.Now = opts.Now
	}
	r, tm, err := Research(ctx, opts)
	if err != nil {
		var f *report.Failure
		if errors.As(err, &f) && fin.Workspace != "" {
			f.Evidence = report.RecordFailure(fin, f.Reason)
		}
		return nil, err
	}
	t0 := time.Now()
	md, err := Render(r)
	tm.Report += time.Since(t0)
	if err != nil {
		f := &report.Failure{Reason: report.ReasonValidationFailed, Err: err}
		f.Evidence = report.RecordFailure(fin, f.Reason)
		return nil, f
	}
	fin.Markdown = md
	u := r.Understanding
	fin.Context = report.ContextInput{
		Query: r.Query, SourceRoot: filepath.ToSlash(r.SourceRoot),
		Statuses: report.Statuses{Local: r.Local.Status, Web: r.Web.Status, Deep: r.Deep.Status},
		SkipWeb:  r.SkipWeb, Policies: r.Local.Policy, Understanding: &u, Producer: "lwr research",
	}
	t0 = time.Now()
	f, err := report.Finalize(ctx, fin)
	tm.Finalize = time.Since(t0)
	tm.Total = time.Since(start)
	if err != nil {
		return nil, err
	}
	return &Outcome{Report: r, Markdown: md, Finalized: f, Timings: tm}, nil
}
