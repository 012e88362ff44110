// Package web owns lwr's web search: the providers (SearXNG, Brave, a
// command, a results file), merging their results by canonical URL with
// trust and freshness, sanitizing everything that comes from outside, and
// the bbolt cache of results.
//
// A search goes
//
//	s, err := web.New(cfg.Web, web.Options{Logger: log})
//	res, err := s.Search(ctx, web.Request{Query: q, Intent: "howto", MaxResults: 5, Locale: "ja"})
//
// Every configured Provider is asked at once, each within its timeout. The
// answers are sanitized (SanitizeText: markup, invisible characters,
// prompt-injection text; only https:// URLs to public hosts; at most
// MaxResults results and MaxSnippetRunes characters a snippet), merged by
// CanonicalURL with the engines that found each URL, scored (+2 several
// engines, +1 official domain, +1 dated recently), labelled and filtered by
// the freshness policy of the query's Topic, and ordered by trust, then
// rank. One provider failing makes the Result partial and names it in
// Result.Failed; all failing makes it an error. Result.Flags and
// Result.Verdict (安全 / 注意 / 要確認) sum up what sanitizing found.
// Result.WebResult is the web_result of agent-output-schema.json.
//
// The Cache keeps results in a bbolt file inside the cache folder, keyed
// by CacheKey, fresh for the intent's TTL (negative entries for errors and
// empty results: NegativeTTL). A locked, corrupt or unsafe cache file is
// an error the caller treats as a miss with a warning; a corrupt file is
// moved aside and replaced by an empty one.
//
// Nothing here prints or exits; the command line is in cmd/lwr.
package web
