package edition

import (
	"strings"
)

// AbolishedAt returns the date the document's own text says it was
// abolished (廃止 2015-03-31), if it says so.
func AbolishedAt(eds []Edition) (string, bool) {
	var self []Edition
	for _, e := range eds {
		if e.Self {
			self = append(self, e)
		}
	}
	e, ok := latest(self, Abolished)
	return e.Value, ok
}

// Label returns the label that stands for a document's edition in
// one line, from the editions stated about the document itself (Self):
// the fiscal year or year edition (the first found), the highest edition
// number and version, then the latest revision or effective
// date (else the latest enactment, issue or creation date), e.g.
// "2024年度 第2版 改訂2024-04-01". With none of these, the first plain date
// ("日付2024-04-01"); with nothing at all, Unknown (版不明).
func Label(eds []Edition) string {
	self := make([]Edition, 0, len(eds))
	for _, e := range eds {
		if e.Self {
			self = append(self, e)
		}
	}
	eds = self
	var parts []string
	first := func(k Kind) {
		for _, e := range eds {
			if e.Kind == k {
				parts = append(parts, e.Value)
				return
			}
		}
	}
	if !hasKind(eds, FiscalYear) {
		first(Year)
	} else {
		first(FiscalYear)
	}
	highest(eds, Number, &parts)
	highest(eds, Version, &parts)
	if e, ok := latest(eds, Revised, Effective); ok {
		parts = append(parts, e.Kind.Label()+e.Value)
	} else if e, ok := latest(eds, Enacted, Issued, Created); ok {
		parts = append(parts, e.Kind.Label()+e.Value)
	}
	if e, ok := latest(eds, Abolished); ok {
		parts = append(parts, e.Kind.Label()+e.Value)
	}
	if len(parts) == 0 {
		for _, e := range eds {
			if e.Kind == Date {
				return e.Kind.Label() + e.Value
			}
		}
		return Unknown
	}
	return strings.Join(parts, " ")
}

// highest appends the highest edition number or version of kind k (a
// revision history lists them all).
func highest(eds []Edition, k Kind, parts *[]string) {
	var best Edition
	for _, e := range eds {
		if e.Kind == k && (best.Value == "" || numbersLess(best.Value, e.Value)) {
			best = e
		}
	}
	if best.Value != "" {
		*parts = append(*parts, best.Value)
	}
}

// numbersLess compares the numbers in "第3版" or "v1.10.2" part by part.
func numbersLess(a, b string) bool {
	na, nb := numbers(a), numbers(b)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			return na[i] < nb[i]
		}
	}
	return len(na) < len(nb)
}

func numbers(s string) []int {
	var out []int
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		if c := s[i]; isDigitByte(c) {
			n, in = n*10+int(c-'0'), true
		} else if in {
			out, n, in = append(out, n), 0, false
		}
	}
	if in {
		out = append(out, n)
	}
	return out
}

func hasKind(eds []Edition, k Kind) bool {
	for _, e := range eds {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// latest returns the edition of one of the kinds with the latest value;
// on a tie the earlier kind in the list wins.
func latest(eds []Edition, kinds ...Kind) (Edition, bool) {
	var best Edition
	found := false
	rank := func(k Kind) int {
		for i, x := range kinds {
			if x == k {
				return i
			}
		}
		return -1
	}
	for _, e := range eds {
		r := rank(e.Kind)
		if r < 0 {
			continue
		}
		if !found || e.Value > best.Value || (e.Value == best.Value && r < rank(best.Kind)) {
			best, found = e, true
		}
	}
	return best, found
}
