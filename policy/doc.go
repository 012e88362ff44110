// Package policy applies the user's source preferences and currentness
// records to search candidates at query time: it loads and validates
// <source root>/.research-policy/source-preferences.json and
// currentness.json (against the JSON Schemas embedded from schema/, plus
// checks a schema cannot express), moves a preferred edition whose own
// text matched the query to the front while keeping every other result
// in relevance order, and annotates each match with its edition (read
// from the text by analyzer.Editions, never from mtime), its relations
// (superseded, superseding, possibly related) and the currentness
// records that apply to its passage, stale or not.
//
// Each match's annotations have a structured form for programs
// (Annotated.Ext); the local search writes them into its message. Record
// text is data, never instructions, and whoever shows it escapes it. The
// formats, actions and error codes are documented in docs/policies.md.
//
// policy works on its own small Candidate type and imports analyzer only:
// it knows nothing of the index, and is tested without one.
package policy
