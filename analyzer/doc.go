// Package analyzer owns lwr's text analysis: Unicode folding, the Japanese
// morphological analyzer on kagome v2 with the IPA dictionary, the
// character-bigram view used for recall and literal search, stop words and
// synonyms. Both analyzers are registered with Bleve once, under Name and
// BigramName, and every token carries exact byte offsets into the original
// text, whatever its width.
//
// The IPA dictionary is loaded lazily, once per process, the first time
// Japanese text is analyzed: opening an index or building an unchanged tree
// does not pay for it.
package analyzer
