package policy

import (
	"fmt"
	"slices"

	"lwr/analyzer"
	"lwr/analyzer/edition"
)

// Candidate is one search result as policy sees it.
type Candidate struct {
	Path  string  // relative to the source root, forward slashes
	Title string  // the document's title
	Score float64 // relevance; Apply never changes it
	// Text is the cited passage (the snippet); currentness records with
	// text match against it.
	Text string
	// SHA256 is the hex SHA-256 of the document's current bytes.
	SHA256 string
	// OwnMatch says the document's own text matched the query words, not
	// only synonyms or character bigrams. Only such a preferred document
	// is moved first.
	OwnMatch bool
	// Editions are the document's editions (analyzer.Editions of its text).
	Editions []edition.Edition
}

// Options are the per-search knobs of Apply. The zero value applies every
// policy.
type Options struct {
	// IgnorePreference keeps pure relevance order (--ignore-source-preference,
	// for historical or explicitly old-edition questions). Editions,
	// relations and currentness records are still reported.
	IgnorePreference bool
	// Historical: the question names a year, an era or an old edition
	// (see Historical); it keeps relevance order too, and says why.
	Historical bool
}

// keepsOrder says the preferences do not reorder the matches.
func (o Options) keepsOrder() bool { return o.IgnorePreference || o.Historical }

// RelationKind is how a match relates to another document.
type RelationKind int

// RelationKinds lists every kind of relation.
func RelationKinds() []RelationKind { return []RelationKind{SupersededBy, Supersedes, PossiblyRelated} }

const (
	// SupersededBy: a preferred document supersedes this one (旧版).
	SupersededBy RelationKind = iota + 1
	// Supersedes: this preferred document supersedes the other (旧版あり).
	Supersedes
	// PossiblyRelated: the titles are equal but for years or editions; the
	// relation is unknown (関連の可能性, 版関係不明), never a version claim.
	PossiblyRelated
)

func (k RelationKind) String() string {
	switch k {
	case SupersededBy:
		return "superseded_by"
	case Supersedes:
		return "supersedes"
	case PossiblyRelated:
		return "possibly_related"
	}
	return fmt.Sprintf("RelationKind(%d)", int(k))
}

// Label returns the Japanese label used in messages.
func (k RelationKind) Label() string {
	switch k {
	case SupersededBy:
		return "旧版"
	case Supersedes:
		return "旧版あり"
	case PossiblyRelated:
		return "関連の可能性"
	}
	return "不明"
}

// MarshalText writes the String form, for JSON.
func (k RelationKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads the String form.
func (k *RelationKind) UnmarshalText(b []byte) error {
	for _, c := range RelationKinds() {
		if string(b) == c.String() {
			*k = c
			return nil
		}
	}
	return fmt.Errorf("unknown relation kind %q", b)
}

// Relation is one relation of a match to another document.
type Relation struct {
	Kind RelationKind `json:"kind"`
	Path string       `json:"path"`
	// Label is the preferred edition's label, for SupersededBy.
	Label string `json:"label,omitempty"`
}

// Applied is a currentness record that applies to a match.
type Applied struct {
	Record *Record
	// Matched is the record text found in the passage; "" for a record
	// without text (it applies to every passage of its documents).
	Matched string
	// CheckedAt is the record's check date, else the file's.
	CheckedAt string
	// Stale says the document changed since the record was verified: its
	// SHA-256 differs from the record's document_sha256 (or is unknown).
	Stale bool
}

// Annotated is a candidate with what the policies say about it.
type Annotated struct {
	Candidate
	// Edition is edition.Label of the editions: "2024年度 第2版
	// 改訂2024-04-01", or 版不明.
	Edition string
	// Preferred is the preference naming this document, nil if none.
	Preferred *Preferred
	// Promoted says the document was moved first: it is preferred, its own
	// text matched, and preferences were not ignored.
	Promoted  bool
	Relations []Relation
	Records   []Applied
}

// maxListed bounds the documents listed per relation kind.
const maxListed = 50

// Apply annotates candidates (in relevance order) with their editions,
// relations and currentness records, and moves the preferred documents
// whose own text matched to the front; all others keep their relative
// order. corpus, prefs and cur may be nil. It changes neither cands nor
// the policies.
func Apply(cands []Candidate, corpus *Corpus, prefs *Preferences, cur *Currentness, opts Options) []Annotated {
	out := make([]Annotated, len(cands))
	for i, c := range cands {
		c.Path = nfc(c.Path)
		a := Annotated{Candidate: c, Edition: edition.Label(c.Editions)}
		if pr, ok := prefs.Lookup(c.Path); ok {
			a.Preferred = pr
			a.Promoted = c.OwnMatch && !opts.keepsOrder()
			n := 0
			for _, p := range superseded(pr, corpus, cands) {
				if n == maxListed {
					break
				}
				a.Relations = append(a.Relations, Relation{Kind: Supersedes, Path: p})
				n++
			}
		}
		for _, pr := range prefs.SupersededBy(c.Path) {
			a.Relations = append(a.Relations, Relation{Kind: SupersededBy, Path: pr.Path, Label: pr.Label})
		}
		n := 0
		for _, p := range corpus.related(c.Path, c.Title) {
			if n == maxListed {
				break
			}
			if declared(prefs, c.Path, p) {
				continue
			}
			a.Relations = append(a.Relations, Relation{Kind: PossiblyRelated, Path: p})
			n++
		}
		a.Records = records(cur, c)
		out[i] = a
	}
	if opts.keepsOrder() {
		return out
	}
	return abolishedLast(newestNext(newerFirst(promotedFirst(out))))
}

// aliveShare is the least share of an older edition's score a newer
// edition must score to be moved above it: about as well, so that it
// answers as the old one does. One that scores less comes next to the old
// one (newestNext) when the corpus relates the two.
const aliveShare = 0.8

// newerThan compares two documents as editions: of one document (paths
// that differ only in years, dates and versions, or equal titles the
// corpus relates) by their texts' editions, then their paths; of one
// collection (folders that differ only so: owasp/asvs/4.0/…, owasp/asvs/5.0/…)
// by those folders. +1 when a is the newer, 0 when they are no editions
// of one thing or nothing tells.
func newerThan(a, b Annotated) int {
	related := slices.ContainsFunc(b.Relations, func(r Relation) bool { return r.Path == a.Path })
	if related || FamilyKey(a.Path) == FamilyKey(b.Path) {
		if c := edition.Compare(a.Editions, b.Editions); c != 0 {
			return c
		}
		if FamilyKey(a.Path) == FamilyKey(b.Path) {
			return ComparePaths(a.Path, b.Path)
		}
		return 0
	}
	return NewerCollection(a.Path, b.Path)
}

// newerFirst moves a newer edition of a document or of its collection up
// to just above the highest-ranked older one, when both matched in their
// own text, it scores at least aliveShare of the older one and nothing
// newer ranks above the older one already: a question that names no year
// wants the current text first. A collection's files are often named and
// cut otherwise from edition to edition (0x11-V2-Authentication.md,
// 0x15-V6-Authentication.md), so nothing but their folders relates them.
func newerFirst(out []Annotated) []Annotated {
	for i := 0; i < len(out); i++ {
		old := out[i]
		if !old.OwnMatch || old.Promoted {
			continue
		}
		if slices.ContainsFunc(out[:i], func(a Annotated) bool { return newerThan(a, old) > 0 }) {
			continue
		}
		best := -1
		for j := i + 1; j < len(out); j++ {
			n := out[j]
			if !n.OwnMatch || n.Score < aliveShare*old.Score || newerThan(n, old) <= 0 {
				continue
			}
			if best < 0 || newerThan(n, out[best]) > 0 {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		n := out[best]
		copy(out[i+1:best+1], out[i:best])
		out[i] = n
	}
	return out
}

// abolishedLast moves a document whose own text says it was abolished
// (廃止 平成27年3月31日) down to just below the last document ranked under
// it that is in force and holds the query's content words too: a
// question that names no year wants the rule in force; a word only the
// abolished rule has still finds it first.
func abolishedLast(out []Annotated) []Annotated {
	for i := len(out) - 1; i >= 0; i-- {
		a := out[i]
		if _, ok := edition.AbolishedAt(a.Editions); !ok || a.Promoted {
			continue
		}
		last := -1
		for j := i + 1; j < len(out); j++ {
			if _, dead := edition.AbolishedAt(out[j].Editions); out[j].OwnMatch && !dead {
				last = j
			}
		}
		if last < 0 {
			continue
		}
		copy(out[i:last], out[i+1:last+1])
		out[last] = a
	}
	return out
}

// promotedFirst is a stable partition: promoted first, each part in
// relevance order.
func promotedFirst(out []Annotated) []Annotated {
	moved := 0
	for _, a := range out {
		if a.Promoted {
			moved++
		}
	}
	if moved == 0 || moved == len(out) {
		return out
	}
	sorted := make([]Annotated, 0, len(out))
	for _, a := range out {
		if a.Promoted {
			sorted = append(sorted, a)
		}
	}
	for _, a := range out {
		if !a.Promoted {
			sorted = append(sorted, a)
		}
	}
	return sorted
}

// newestNext moves the newest edition of a family the preferences do not
// declare (possibly related: equal titles but for years or editions) up
// to just below the highest-ranked older one of the family, when both
// matched in their own text, it ranked lower and no newer one of the
// family ranks above the old one: a question that names no year wants the
// current text at least next to the old one. Editions the texts do not
// order stay where they are.
func newestNext(out []Annotated) []Annotated {
	at := map[string]int{}
	for i, a := range out {
		at[a.Path] = i
	}
	for i := 0; i < len(out); i++ {
		old := out[i]
		if !old.OwnMatch || old.Promoted {
			continue
		}
		// A newer one of the family ranks above it already.
		if slices.ContainsFunc(old.Relations, func(r Relation) bool {
			j, ok := at[r.Path]
			return ok && j < i && edition.Compare(out[j].Editions, old.Editions) > 0
		}) {
			continue
		}
		// The newest ranked below old, of those its relations name.
		best := -1
		for _, r := range old.Relations {
			j, ok := at[r.Path]
			if r.Kind != PossiblyRelated || !ok || j <= i+1 || !out[j].OwnMatch || edition.Compare(out[j].Editions, old.Editions) <= 0 {
				continue
			}
			if best < 0 || edition.Compare(out[j].Editions, out[best].Editions) > 0 {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		n := out[best]
		copy(out[i+2:best+1], out[i+1:best])
		out[i+1] = n
		for k := i + 1; k <= best; k++ {
			at[out[k].Path] = k
		}
	}
	return out
}

// superseded lists the documents a preferred one supersedes: from the
// corpus when there is one, else among the candidates.
func superseded(pr *Preferred, corpus *Corpus, cands []Candidate) []string {
	var out []string
	if corpus.Len() > 0 {
		for _, p := range corpus.paths {
			if pr.covers(pathKey(p)) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, c := range cands {
		if p := nfc(c.Path); pr.covers(pathKey(p)) {
			out = append(out, p)
		}
	}
	return out
}

// declared reports whether the preferences state how a and b relate.
func declared(prefs *Preferences, a, b string) bool {
	if pr, ok := prefs.Lookup(a); ok && pr.covers(pathKey(b)) {
		return true
	}
	if pr, ok := prefs.Lookup(b); ok && pr.covers(pathKey(a)) {
		return true
	}
	return false
}

// records returns the currentness records that apply to a candidate.
func records(cur *Currentness, c Candidate) []Applied {
	if cur.Empty() {
		return nil
	}
	var out []Applied
	passage, folded := "", false
	for i := range cur.Records {
		r := &cur.Records[i]
		if !r.appliesTo(c.Path) {
			continue
		}
		if len(r.texts) > 0 && !folded {
			passage, folded = squeeze(analyzer.Fold(c.Text)), true
		}
		m, ok := r.matchText(passage)
		if !ok {
			continue
		}
		at := r.CheckedAt
		if at == "" {
			at = cur.CheckedAt
		}
		stale := r.DocumentSHA256 != "" && !equalFoldASCII(r.DocumentSHA256, c.SHA256)
		out = append(out, Applied{Record: r, Matched: m, CheckedAt: at, Stale: stale})
	}
	return out
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
