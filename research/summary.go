package research

import (
	"errors"

	"lwr/research/report"
)

// Summary is what scripts and agents need of a research or a finalize
// (lwr research --json, the MCP research tool): where the report went,
// the phases' statuses and sources, and on failure its fixed reason.
type Summary struct {
	Status        string             `json:"status"` // ok, skipped (the same report again) or error
	Name          string             `json:"name,omitempty"`
	Report        string             `json:"report,omitempty"`
	Context       string             `json:"context,omitempty"`
	Log           string             `json:"schema_version_log,omitempty"`
	LastOutput    string             `json:"last_output,omitempty"`
	Timestamp     string             `json:"timestamp,omitempty"`
	SHA256        string             `json:"sha256,omitempty"`
	SchemaVersion string             `json:"schema_version,omitempty"`
	Workspace     string             `json:"workspace,omitempty"`
	SourceRoot    string             `json:"source_root,omitempty"`
	Statuses      *report.Statuses   `json:"statuses,omitempty"`
	WebCache      string             `json:"web_cache,omitempty"`
	Sources       map[string]int     `json:"sources,omitempty"`
	DeepKeywords  []string           `json:"deep_keywords,omitempty"`
	Conflicts     *int               `json:"conflicts,omitempty"`
	ForceReview   *bool              `json:"force_review,omitempty"`
	TimingsMS     map[string]float64 `json:"timings_ms,omitempty"`
	Reason        report.Reason      `json:"reason,omitempty"`
	Message       string             `json:"message,omitempty"`
	Evidence      string             `json:"failure_evidence,omitempty"`
}

// Summary is the summary of a finished research.
func (o *Outcome) Summary(workspace string) Summary {
	f := o.Finalized
	s := Summary{Status: f.Status, Name: f.Name, Report: f.Report, Context: f.Context, Log: f.Log, LastOutput: f.LastOutput,
		Timestamp: f.Timestamp, SHA256: f.SHA256, SchemaVersion: f.SchemaVersion, Workspace: workspace}
	r := o.Report
	st := report.Statuses{Local: r.Local.Status, Web: r.Web.Status, Deep: r.Deep.Status}
	conflicts, force := len(r.Conclusion.Conflicts), r.Conclusion.ForceReview != nil
	s.SourceRoot, s.Statuses, s.WebCache = r.SourceRoot, &st, r.Web.Cache
	s.Sources = map[string]int{"local": len(r.Local.Hits), "web": len(r.Web.Hits), "deep": len(r.Deep.Hits)}
	s.DeepKeywords, s.Conflicts, s.ForceReview, s.TimingsMS = r.Deep.Keywords, &conflicts, &force, o.Timings.Millis()
	return s
}

// Failed is the summary of a failed research or finalize: its reason code
// (invalid_input when it has none) and the sentence of the error.
func Failed(err error, sentence string) Summary {
	s := Summary{Status: "error", Reason: report.ReasonInvalidInput, Message: sentence}
	var f *report.Failure
	if errors.As(err, &f) {
		s.Reason, s.Evidence = f.Reason, f.Evidence
	}
	return s
}
