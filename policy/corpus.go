package policy

import (
	"sort"
	"unicode/utf8"

	"lwr/analyzer"
	"lwr/analyzer/edition"
)

// Corpus is what Apply knows of the whole index besides the candidates:
// every document's path and title, grouped by title key to find possibly
// related documents. Build it once per state of the index (it costs a few
// microseconds per document) and share it: it is read-only and safe for
// concurrent use.
type Corpus struct {
	docs   map[string]corpusDoc
	groups map[string][]string // title key → paths, sorted
	paths  []string            // all paths, sorted
	byKey  map[string]string   // pathKey → path
}

type corpusDoc struct {
	title    string // folded
	titleKey string
	// pathKey is TitleKey of the path, kept only for documents whose title
	// another document of the group shares.
	pathKey string
}

// minKeyRunes is the shortest title key that relates documents: a title
// that is nearly all year or edition ("2024年度版") says nothing.
const minKeyRunes = 2

// NewCorpus indexes titles: document path (relative, forward slashes) →
// title.
func NewCorpus(titles map[string]string) *Corpus {
	c := &Corpus{docs: make(map[string]corpusDoc, len(titles)), groups: map[string][]string{}, byKey: make(map[string]string, len(titles))}
	for p, t := range titles {
		p = nfc(p)
		c.byKey[pathKey(p)] = p
		d := corpusDoc{title: analyzer.Fold(t), titleKey: edition.TitleKey(t)}
		c.docs[p] = d
		c.paths = append(c.paths, p)
		if utf8.RuneCountInString(d.titleKey) >= minKeyRunes {
			c.groups[d.titleKey] = append(c.groups[d.titleKey], p)
		}
	}
	sort.Strings(c.paths)
	for _, g := range c.groups {
		sort.Strings(g)
		same := map[string]int{}
		for _, p := range g {
			same[c.docs[p].title]++
		}
		for _, p := range g {
			if d := c.docs[p]; same[d.title] > 1 {
				d.pathKey = edition.TitleKey(p)
				c.docs[p] = d
			}
		}
	}
	return c
}

// Path returns the path of the indexed document that a path from a policy
// file names (in another normalization, or another case on Windows), or
// the path itself when no document has it.
func (c *Corpus) Path(p string) string {
	if c != nil {
		if q, ok := c.byKey[pathKey(p)]; ok {
			return q
		}
	}
	return p
}

// Len returns the number of documents.
func (c *Corpus) Len() int {
	if c == nil {
		return 0
	}
	return len(c.paths)
}

// related returns the documents possibly related to the one at path with
// title: their titles are equal once years, fiscal years, era dates,
// editions and versions are removed, and either the titles differ (only
// in those) or the paths do (only in those, as in 研修/2024/契約事務.md and
// 研修/2026/契約事務.md). Nothing says which is newer.
func (c *Corpus) related(path, title string) []string {
	if c == nil {
		return nil
	}
	d, ok := c.docs[path]
	if !ok {
		d = corpusDoc{title: analyzer.Fold(title), titleKey: edition.TitleKey(title)}
	}
	var out []string
	for _, p := range c.groups[d.titleKey] {
		if p == path {
			continue
		}
		o := c.docs[p]
		if o.title != d.title {
			out = append(out, p)
			continue
		}
		// Same title: related only if the paths differ by years or
		// editions alone.
		if d.pathKey == "" {
			d.pathKey = edition.TitleKey(path)
		}
		if o.pathKey == d.pathKey {
			out = append(out, p)
		}
	}
	return out
}
