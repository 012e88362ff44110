// Package research owns the research pipeline: preflight, local and web
// search, the deep-drill, the evidence-based report, its validation and the
// atomic finalize with its hand-off files.
package research
