// Package understand owns the research's query understanding without a
// model (SPEC §7.1): the skip words that keep a research off the web, the
// intent of a query (which sets the web cache TTL), up to five synonyms
// from the dictionary, an ambiguity score, and whether an agent's model
// should reinterpret the query (needs_llm).
package understand
