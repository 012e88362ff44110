package index

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/config"
	"lwr/config/glob"
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
	// literally (after FoldText), ordered by the number of occurrences.
	FullText
)

// Modes lists every mode.
func Modes() []Mode { return []Mode{Ranked, FullText} }

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
	// Exclude leaves out the files these path patterns name (package
	// glob: .gitignore's dialect; a folder's name leaves out the folder,
	// "**" any folders).
	Exclude []string
	// Only, when not empty, keeps the files one of these patterns names.
	Only []string
	// Explain attaches to each match why it scored as it did.
	Explain bool
	// SkipHighlights leaves Match.Highlights empty, for outputs that do
	// not show them.
	SkipHighlights bool
	// analyzer cuts the query (the index's; nil: analyzer.Default).
	analyzer *analyzer.Analyzer
	// Preferred are documents (relative paths) that a ranked search also
	// returns, after the Limit best, when they match the query at all, and
	// for which it says whether their own text holds every query word (see
	// Match.OwnMatch): the source preferences need both.
	Preferred []string
}

// analyzerOf is the analyzer that cuts the query.
func (o SearchOptions) analyzerOf() *analyzer.Analyzer {
	if o.analyzer == nil {
		return analyzer.Default()
	}
	return o.analyzer
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
	// Locator is where the snippet stands in a PDF or Office document
	// (page, sheet and row, slide, heading): its first line holding a query
	// word, or the first line of Answer in ranked mode; nil for text files.
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

// Bounds of a search's words. The analysis of a query, what the
// dictionary and the thesaurus add for it and the Bleve query made of it
// all grow with it; a question, even one pasted with its context, is far
// shorter than MaxQueryChars (about 16 ms to plan at this bound, where a
// 130,000-character query took seconds).
const (
	MaxQueryChars   = 1000
	MaxSynonyms     = 32
	MaxSynonymChars = 100
)

// ErrQueryTooLong matches a query (or its synonyms) over the bounds.
var ErrQueryTooLong = errors.New("query too long")

// tooLongError says which bound a query is over.
type tooLongError struct{ msg string }

func (e *tooLongError) Error() string        { return e.msg }
func (e *tooLongError) Is(target error) bool { return target == ErrQueryTooLong }

// checkLength refuses a query text over MaxQueryChars.
func checkLength(text string) error {
	if n := utf8.RuneCountInString(text); n > MaxQueryChars {
		return &tooLongError{fmt.Sprintf("query longer than %d characters (%d); search with the question's words, not a passage of a document", MaxQueryChars, n)}
	}
	return nil
}

// CheckQuery says what is wrong with a query and its extra words: nil
// within the bounds (MaxQueryChars, MaxSynonyms of MaxSynonymChars each).
func CheckQuery(q Query, synonyms []string) error {
	if err := checkLength(q.Text()); err != nil {
		return err
	}
	if len(synonyms) > MaxSynonyms {
		return &tooLongError{fmt.Sprintf("%d synonyms (alternatives) given; give at most %d, the documents' own words for the question's", len(synonyms), MaxSynonyms)}
	}
	for _, w := range synonyms {
		if n := utf8.RuneCountInString(w); n > MaxSynonymChars {
			return &tooLongError{fmt.Sprintf("a synonym of %d characters; give words of at most %d", n, MaxSynonymChars)}
		}
	}
	return nil
}

// Search runs a query. A query over the bounds (CheckQuery) is refused
// with ErrQueryTooLong; ctx ends the search.
func (ix *Index) Search(ctx context.Context, q Query, opts SearchOptions) (res *Result, err error) {
	start := time.Now()
	ix.bmu.RLock()
	defer ix.bmu.RUnlock()
	defer func() {
		// Bleve's segment readers trust their files: bytes changed on
		// disk panic there. The search fails, the process goes on.
		if r := recover(); r != nil {
			res, err = nil, ix.damaged(r)
		}
	}()
	if err := CheckQuery(q, opts.Synonyms); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	opts.analyzer = ix.opts.AnalyzerOf()
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

// searchIn runs a Bleve search of the index. The queries lwr makes
// cannot fail, so an error that is not the context's is Bleve's files
// not reading as written: ErrDamaged.
func (ix *Index) searchIn(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	sr, err := ix.b.SearchInContext(ctx, req)
	if err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return nil, ix.damaged(err)
	}
	return sr, err
}

// damaged is ErrDamaged with what could not be read.
func (ix *Index) damaged(why any) error {
	return fmt.Errorf("%w (a segment of %s cannot be read: %v); rebuild it with lwr index build --force", ErrDamaged, ix.opts.Dir, why)
}

// inScope reports whether a path is searched: named by Only (when it
// is given) and not by Exclude, patterns of package glob's dialect.
func (o SearchOptions) inScope(p string) bool {
	return !pathIn(p, o.Exclude) && (len(o.Only) == 0 || pathIn(p, o.Only))
}

// pathIn reports whether one of the patterns (package glob's dialect)
// names the path; a pattern that does not compile names nothing.
func pathIn(p string, patterns []string) bool {
	for _, e := range patterns {
		if g := compiledGlob(e); g != nil && g.Match(p) {
			return true
		}
	}
	return false
}

// CheckPattern says what is wrong with a path pattern (--path,
// --exclude-path, an MCP tool's paths, index.exclude): nil for one that
// compiles (package glob).
func CheckPattern(p string) error { return glob.Check(p) }

// globs keeps the patterns compiled last: a search tests every hit, and
// the next searches (an agent's) often give the same. It is bounded — its
// entries, and the length of a pattern it keeps — so that a long-running
// daemon or MCP server never holds more for patterns it was once given.
var globs = newGlobCache(128, 1024)

func compiledGlob(g string) *glob.Pattern { return globs.get(g) }

// globCache is a least-recently-used cache of compiled patterns.
type globCache struct {
	mu       sync.Mutex
	max      int // entries
	maxLen   int // patterns longer than this are compiled, not kept
	order    *list.List
	entries  map[string]*list.Element
	compiles int // patterns compiled (for tests)
}

type globEntry struct {
	pattern string
	g       *glob.Pattern // nil when the pattern does not compile
}

func newGlobCache(max, maxLen int) *globCache {
	return &globCache{max: max, maxLen: maxLen, order: list.New(), entries: map[string]*list.Element{}}
}

// get returns the compiled pattern p, from the cache or compiled now.
func (c *globCache) get(p string) *glob.Pattern {
	c.mu.Lock()
	if e, ok := c.entries[p]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(globEntry).g
	}
	c.compiles++
	c.mu.Unlock()
	g, err := glob.Compile(p)
	if err != nil {
		g = nil
	}
	if len(p) > c.maxLen {
		return g
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[p]; !ok {
		c.entries[p] = c.order.PushFront(globEntry{p, g})
		for c.order.Len() > c.max {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.entries, last.Value.(globEntry).pattern)
		}
	}
	return g
}

// size is the number of patterns kept.
func (c *globCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
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
		f := analyzer.FoldText(lines[n-1])
		if slices.ContainsFunc(words, func(w string) bool { return w != "" && strings.Contains(f, w) }) {
			at = n
			break
		}
	}
	l := c.locs[at-1]
	return &l
}

// readCurrent reads a source file as it is now (as readInRoot allows:
// no symbolic link, a regular file inside the root, bounded): its text, the SHA-256 of
// its bytes, its modification time and, for extracted documents, where
// each line stands.
func (ix *Index) readCurrent(rel string) (current, bool) {
	abs := Resolve(ix.opts.Root, rel)
	data, st, err := readInRoot(ix.opts.Root, abs, ix.opts.Rules.withDefaults().MaxFileSize)
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
