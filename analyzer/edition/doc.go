// Package edition owns what lwr reads of a document's editions and dates
// from its text — 令和6年度版, 2024年度, 第3版, v1.2, 改訂/施行/制定 dates,
// never the file's mtime — the one-line label that stands for a
// document's edition, the title key of possibly related documents, and
// the order of two documents by what their texts say of their age.
package edition
