// Package deep owns deep research (SPEC §14, the multi-phase research
// skill): a topic decomposed into subtopics with their queries (plan.md),
// each subtopic searched in the local documents and on the web through
// the research pipeline (findings/NN-<subtopic>.md, re-entrant), a gap
// check with two branches (none, or one _followup subtopic), a synthesis
// with a claim per evidence line and its citation (report.md, status:
// draft), and a verification of every citation's lines and quotes, every
// web citation against the results lwr fetched and every number of a
// claim against its cited lines (status: confirmed written first, the
// sentinel, then state.json cleared; three failures block). The state is
// on disk under <workspace>/result/research/deep/<slug>/ — written
// atomically, with events.jsonl — so a run stopped between any two
// phases, or killed within one, resumes where it stood; each topic has
// its own lock, so several run at once in one workspace.
package deep
