// Package policy applies the user's source preferences and currentness
// records to search candidates at query time: preferred-first ordering,
// superseded and related documents, editions, and currentness annotations.
package policy
