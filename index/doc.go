// Package index owns the local index of a source root: which files are
// read and how (encodings, exclusions, sidecar summaries), how each file is
// cut into passages with exact line ranges, the Bleve index and the bbolt
// manifest that make builds incremental and safe to interrupt, the one-writer
// lock, and ranked and literal (full-text) search with line-exact snippets.
package index
