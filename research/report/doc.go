// Package report owns the research report's format and what is done with
// a report once written: its five sections and fixed sentences, the JSON
// comment (output-schema.json, schema 1.0 and 1.1), the one escaper of
// data shown in Markdown and one-line messages, the citation and VS Code
// link forms, validation, the atomic finalize with its context file and
// schema-version log, and the failure evidence with its fixed reason
// codes. It knows nothing of how a report is researched: lwr validate and
// lwr finalize use it without the pipeline.
package report
