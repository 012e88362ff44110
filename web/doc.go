// Package web owns lwr's web search: the providers (SearXNG, Brave, a
// command, a results file), merging their results by canonical URL with
// trust and freshness, sanitizing everything that comes from outside, and
// the bbolt cache of results.
package web
