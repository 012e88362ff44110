package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/config"
	"lwr/index/extract"
)

// Mode is how a search matches documents.
type Mode int

// Search modes.
const (
	// Ranked scores documents by relevance (BM25 over the analyzed fields
	// with boosts and bonuses) and returns the best ones.
	Ranked Mode = iota
	// FullText returns every document whose text holds every query word
	// literally (after Fold), ordered by the number of occurrences.
	FullText
)

func (m Mode) String() string {
	if m == FullText {
		return "fulltext"
	}
	return "ranked"
}

// MarshalText writes the mode's name, as ParseMode reads it.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mode's name.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "", "ranked":
		return Ranked, nil
	case "fulltext", "full-text", "exact":
		return FullText, nil
	}
	return Ranked, fmt.Errorf("unknown search mode %q; use ranked or fulltext", s)
}

// SearchOptions are the knobs of one search.
type SearchOptions struct {
	Mode Mode
	// Limit is the number of files returned: config's search.max_files
	// (8) in ranked mode when zero;
	// in full-text mode zero means every matching file.
	Limit int
	// MaxChars bounds each snippet, in characters (search.max_chars, 1200,
	// when zero).
	MaxChars int
	// Synonyms are extra words, matched at a lower weight (ranked mode).
	Synonyms []string
	// Dictionary adds the synonyms of the query's words (ranked mode),
	// and with it those of SudachiDict's groups (analyzer/thesaurus)
	// unless the dictionary's thesaurus is off or NoThesaurus.
	Dictionary  *analyzer.Synonyms
	NoThesaurus bool
	// Exclude leaves out files: a relative path, a folder (every file
	// under it) or a glob on the relative path ("**" for any folders).
	Exclude []string
	// Only, when not empty, keeps the files that one of these names: the
	// same forms as Exclude.
	Only []string
	// Explain attaches to each match why it scored as it did.
	Explain bool
	// SkipHighlights leaves Match.Highlights empty, for outputs that do
	// not show them.
	SkipHighlights bool
	// Preferred are documents (relative paths) that a ranked search also
	// returns, after the Limit best, when they match the query at all, and
	// for which it says whether their own text holds every query word (see
	// Match.OwnMatch): the source preferences need both.
	Preferred []string
}

func (o SearchOptions) withDefaults() SearchOptions {
	d := config.DefaultSearch()
	if o.Limit <= 0 && o.Mode == Ranked {
		o.Limit = d.MaxFiles
	}
	if o.MaxChars <= 0 {
		o.MaxChars = d.MaxChars
	}
	return o
}

// Match is one file found by a search.
type Match struct {
	Path      string // relative to the source root, forward slashes
	Score     float64
	Snippet   string // the text of lines StartLine..EndLine exactly, indentation kept
	StartLine int
	EndLine   int
	ModTime   time.Time
	// Highlights are byte ranges of Snippet that hold query words.
	Highlights [][2]int
	// Occurrences counts the query words in the file (full-text mode).
	Occurrences int
	// Passage is the line range of the best passage (ranked mode) and
	// its text in the current file.
	PassageStart, PassageEnd int
	Passage                  string
	Title                    string
	SHA256                   string            // of the current file's bytes
	Editions                 []edition.Edition // read from the current text
	// Locator is where the snippet's first line stands in a PDF or Office
	// document (page, sheet and row, slide, heading); nil for text files.
	Locator *extract.Locator `json:",omitempty"`
	// OwnMatch: the document's own text holds every query word, not only
	// synonyms or bigrams (ranked mode: for SearchOptions.Preferred only).
	OwnMatch bool
	// Also are further passages of the file that state what the question
	// asks for (ranked mode), after the snippet's.
	Also []Excerpt `json:",omitempty"`
	// Kind is what kind of document the file is (ranked mode): a rule or
	// procedure (""), a form, an example, an FAQ, minutes, a translation.
	Kind DocKind `json:",omitempty"`
	// Answer is the unit of the snippet that best states what the
	// question asks for (ranked mode), nil when none holds a word.
	Answer  *Answer `json:",omitempty"`
	Explain string
}

// Result is the answer to a search.
type Result struct {
	Mode    Mode
	Matches []Match
	// Total is the number of matching files found (full-text: all of them;
	// ranked: those among the passages examined).
	Total int
	// Scanned is the number of files in the index.
	Scanned int
	// Terms are the analyzed words searched for (ranked) or the literal
	// words (full-text).
	Terms []string
	// Content are the content words among Terms (ranked: the nouns and
	// Latin words, which a preferred edition must hold; full-text: all).
	Content []string
	// Synonyms are the synonyms that were added.
	Synonyms []string
	// Plan is the ranked query's plan, its clauses and weights
	// (SearchOptions.Explain).
	Plan string `json:",omitempty"`
	Took time.Duration
}

// Search runs a query.
func (ix *Index) Search(ctx context.Context, q Query, opts SearchOptions) (*Result, error) {
	start := time.Now()
	opts = opts.withDefaults()
	var (
		res *Result
		err error
	)
	if opts.Mode == FullText {
		res, err = ix.fullText(ctx, q, opts)
	} else {
		res, err = ix.ranked(ctx, q, opts)
	}
	if err != nil {
		return nil, err
	}
	res.Mode = opts.Mode
	res.Scanned = ix.internalInt(keyFiles)
	res.Took = time.Since(start)
	return res, nil
}

// inScope reports whether a path is searched: named by Only (when it
// is given) and not by Exclude. Names compare as the file system compares
// them (without case on Windows).
func (o SearchOptions) inScope(p string) bool {
	return !pathIn(p, o.Exclude) && (len(o.Only) == 0 || pathIn(p, o.Only))
}

// pathIn reports whether one of the patterns names the path: the path
// itself, a folder above it, or a glob ("*", "?", "[…]" within a folder
// name, "**" for any folders).
func pathIn(p string, patterns []string) bool {
	p = foldPath(p)
	for _, e := range patterns {
		e = foldPath(strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(e, "./")), "/"))
		if e == "" {
			continue
		}
		if p == e || strings.HasPrefix(p, e+"/") {
			return true
		}
		if re := compiledGlob(e); re != nil && re.MatchString(p) {
			return true
		}
	}
	return false
}

// CheckPattern says what is wrong with a --path or --exclude-path
// pattern: nil for a path, a folder or a glob that compiles.
func CheckPattern(p string) error {
	g := foldPath(strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(p, "./")), "/"))
	switch {
	case strings.TrimSpace(g) == "":
		return errors.New("the pattern is empty; give a file, a folder or a glob relative to the source root")
	case strings.ContainsAny(g, "*?[") && globRegexp(g) == nil:
		return fmt.Errorf("%q is not a glob lwr reads (a \"[\" class is not closed?); use *, ?, [...] within a name and ** for any folders, e.g. \"規程/**/*.md\"", p)
	}
	return nil
}

// globs caches compiled globs: a search tests every hit.
var globs sync.Map // pattern → *regexp.Regexp (nil when it is no glob)

func compiledGlob(g string) *regexp.Regexp {
	if re, ok := globs.Load(g); ok {
		return re.(*regexp.Regexp)
	}
	re := globRegexp(g)
	globs.Store(g, re)
	return re
}

// globRegexp turns a path glob into a regular expression of the whole
// path (nil for a pattern that is not a glob, or a bad one).
func globRegexp(g string) *regexp.Regexp {
	if !strings.ContainsAny(g, "*?[") {
		return nil
	}
	var b strings.Builder
	b.WriteString("^")
	segs := strings.Split(g, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if last {
				b.WriteString(".*")
			} else {
				b.WriteString("(?:[^/]*/)*")
			}
			continue
		}
		for j := 0; j < len(seg); j++ {
			switch c := seg[j]; c {
			case '*':
				b.WriteString("[^/]*")
			case '?':
				b.WriteString("[^/]")
			case '[':
				k := strings.IndexByte(seg[j:], ']')
				if k < 0 {
					return nil
				}
				b.WriteString(seg[j : j+k+1])
				j += k
			default:
				b.WriteString(regexp.QuoteMeta(seg[j : j+1]))
			}
		}
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// current is a source file as it is now.
type current struct {
	text  string
	sum   string // SHA-256 of its bytes
	mtime time.Time
	locs  []extract.Locator // where each line stands (extracted documents)
}

// locator is where the first line of from..to (1-based) that holds one
// of the words stands (from's when none does); nil for a text file.
func (c current) locator(from, to int, words []string) *extract.Locator {
	if from < 1 || from > len(c.locs) {
		return nil
	}
	at := from
	lines := Lines(c.text)
	for n := from; n <= min(to, len(lines)); n++ {
		f := analyzer.Fold(lines[n-1])
		if slices.ContainsFunc(words, func(w string) bool { return w != "" && strings.Contains(f, w) }) {
			at = n
			break
		}
	}
	l := c.locs[at-1]
	return &l
}

// readCurrent reads a source file as it is now: its text, the SHA-256 of
// its bytes, its modification time and, for extracted documents, where
// each line stands.
func (ix *Index) readCurrent(rel string) (current, bool) {
	abs := Resolve(ix.opts.Root, rel)
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return current{}, false
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return current{}, false
	}
	c := current{mtime: st.ModTime()}
	// The manifest's hash stands while mtime and size do, as for builds.
	if e, ok := ix.entry(rel); ok && e.ModTime == st.ModTime().UnixNano() && e.Size == int64(len(data)) {
		c.sum = e.SHA256
	} else {
		h := sha256.Sum256(data)
		c.sum = hex.EncodeToString(h[:])
	}
	c.text, _, c.locs, err = ix.opts.Rules.decodeDocument(rel, abs, data, c.sum)
	if err != nil {
		return current{}, false
	}
	return c, true
}
