package research

import (
	"slices"
	"strings"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
)

// The order of the key points within a tier: a rule before a form, an
// example, an FAQ or minutes (unless the question is about those); the
// newest edition of a family before the older ones, wherever the search
// ranked them; then the search's order.

// sameFamily reports whether two local sources are editions of one
// document: the policies relate them (titles equal but for years or
// editions), or their paths differ only in years, dates and version
// numbers.
func sameFamily(a, b *Hit) bool {
	if a.Path == b.Path {
		return false
	}
	for _, r := range a.Ext.Relations {
		if r.Path == b.Path && (r.Kind == policy.PossiblyRelated || r.Kind == policy.SupersededBy || r.Kind == policy.Supersedes) {
			return true
		}
	}
	return policy.FamilyKey(a.Path) == policy.FamilyKey(b.Path)
}

// newerCollection compares the collections two local sources stand in
// (policy.NewerCollection).
func newerCollection(a, b *Hit) int { return policy.NewerCollection(a.Path, b.Path) }

// newerEdition compares two editions of one document: +1 when a is the
// newer, -1 when b is, 0 when neither their texts (edition, revision and
// effective dates) nor their paths (the folders' years and versions) tell.
func newerEdition(a, b *Hit) int {
	if c, _ := newer(a, b); c != 0 {
		return c
	}
	if c := edition.Compare(a.Match.Editions, b.Match.Editions); c != 0 {
		return c
	}
	if policy.FamilyKey(a.Path) != policy.FamilyKey(b.Path) {
		return 0
	}
	return policy.ComparePaths(a.Path, b.Path)
}

// kindRank orders the kinds of document: rules first.
func kindRank(s source, query string) int {
	if !s.local() {
		return 0
	}
	if k := s.hit.Match.Kind; k != index.KindRule && !k.AsksAbout(query) {
		return 1
	}
	return 0
}

// exampleOnly reports a local source that is a form, a template or an
// example the question does not ask about.
func exampleOnly(s source, query string) bool {
	if !s.local() {
		return false
	}
	k := s.hit.Match.Kind
	return (k == index.KindForm || k == index.KindExample) && !k.AsksAbout(query)
}

// fullCoverage is the share of the question's words an answer holds
// (with what it stands under) from which on it answers the whole
// question.
const fullCoverage = 0.85

// partial is 1 for a local answer that holds less of the question than
// fullCoverage (看護休暇の5日 for 妻の出産の休暇), which follows the answers
// that hold all of it; else 0.
func partial(s source) int {
	if !s.local() {
		return 0
	}
	if a := s.hit.Match.Answer; a != nil && a.Coverage < fullCoverage {
		return 1
	}
	return 0
}

// blankFormOnly reports a local source that is a blank form (an
// ISSUE_TEMPLATE, 様式, 申請書) the question does not ask about: it says
// what a request asks for, not what holds.
func blankFormOnly(s source, query string) bool {
	if !s.local() {
		return false
	}
	m := s.hit.Match
	return m.Kind == index.KindForm && !m.Kind.AsksAbout(query) && index.BlankForm(s.hit.Path, m.Title)
}

// orderPoints orders the ranked points of one tier: among the answers,
// rules before other kinds of document (a form's or an FAQ's value is no
// rule's), among the others blank forms last; then the search's order,
// with the newest edition of a family moved up to just before the
// highest-ranked older one (else the first point of a newer edition of
// its collection) unless the question names a year or an old edition.
// It labels an older
// edition's point 旧版 when a newer one of its family or collection is
// among the points.
func orderPoints(rs []rankedPoint, query string, answers bool) []rankedPoint {
	if answers {
		slices.SortStableFunc(rs, func(a, b rankedPoint) int {
			if d := kindRank(a.src, query) - kindRank(b.src, query); d != 0 {
				return d
			}
			return partial(a.src) - partial(b.src)
		})
	} else {
		last := func(r rankedPoint) int {
			if blankFormOnly(r.src, query) {
				return 1
			}
			return 0
		}
		slices.SortStableFunc(rs, func(a, b rankedPoint) int { return last(a) - last(b) })
	}
	// A question that names a year or an old edition (2016年版では) wants
	// that edition's text: the search's order, which keeps relevance.
	historical := policy.Historical(query)
	for i := 0; i < len(rs) && !historical; i++ {
		if !rs[i].src.local() {
			continue
		}
		// The newest of the family ranked below i.
		best := -1
		for j := i + 1; j < len(rs); j++ {
			if !rs[j].src.local() || answers && kindRank(rs[j].src, query) != kindRank(rs[i].src, query) {
				continue
			}
			if sameFamily(rs[i].src.hit, rs[j].src.hit) {
				if newerEdition(rs[j].src.hit, rs[i].src.hit) > 0 && (best < 0 || newerEdition(rs[j].src.hit, rs[best].src.hit) > 0) {
					best = j
				}
				continue
			}
			// Else the first of the newer edition of the collection
			// (another document of a folder named by a later edition).
			if best < 0 && newerCollection(rs[j].src.hit, rs[i].src.hit) > 0 {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		n := rs[best]
		copy(rs[i+1:best+1], rs[i:best])
		rs[i] = n
	}
	for i := range rs {
		if !rs[i].src.local() || slices.Contains(rs[i].p.Labels, "旧版") {
			continue
		}
		for j := range rs {
			if j != i && rs[j].src.local() && (sameFamily(rs[i].src.hit, rs[j].src.hit) && newerEdition(rs[j].src.hit, rs[i].src.hit) > 0 || newerCollection(rs[j].src.hit, rs[i].src.hit) > 0) {
				rs[i].p.Labels = append(rs[i].p.Labels, "旧版")
				break
			}
		}
	}
	return rs
}

// organisation is the top-level folder of a local source's path, "" for
// a file at the root or a web source.
func organisation(s source) string {
	if !s.local() {
		return ""
	}
	if i := strings.IndexByte(s.hit.Path, '/'); i > 0 {
		return s.hit.Path[:i]
	}
	return ""
}

// byOrganisation puts first, when the points come from several top-level
// folders (organisations, departments), the best point of each folder in
// the order of their best points, then the rest in order: one answer line
// per organisation before more of one.
func byOrganisation(rs []rankedPoint) []rankedPoint {
	orgs := map[string]bool{}
	for _, r := range rs {
		if o := organisation(r.src); o != "" {
			orgs[o] = true
		}
	}
	if len(orgs) < 2 {
		return rs
	}
	var first, rest []rankedPoint
	seen := map[string]bool{}
	for _, r := range rs {
		o := organisation(r.src)
		if o != "" && !seen[o] && r.tier == tierAnswer {
			seen[o] = true
			first = append(first, r)
			continue
		}
		rest = append(rest, r)
	}
	return append(first, rest...)
}
