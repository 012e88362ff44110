package research

import (
	"strings"

	"lwr/index"
)

// asked is what a question asks for: the kinds of value that answer it
// and, for a count, its unit (何文字 → quantity in 文字).
type asked struct {
	kinds map[string]bool
	unit  string
}

// askedOf reads what the question asks for as the search reads it
// (index.AskedOf): the kinds of value, and the unit of a count.
func askedOf(q string) asked {
	ia := index.AskedOf(q)
	a := asked{kinds: map[string]bool{}, unit: ia.Unit}
	if ia.Has(index.AskAmount) {
		a.kinds[FactAmount] = true
	}
	if ia.Has(index.AskQuantity) {
		a.kinds[FactQuantity] = true
	}
	if ia.Has(index.AskDate) {
		a.kinds[FactDate] = true
	}
	return a
}

// answers reports whether a fact is of the kind the question asks for.
func (a asked) answers(f fact) bool {
	if !a.kinds[f.kind] {
		return false
	}
	return f.kind != FactQuantity || a.unit == "" || f.unit == a.unit
}

// about reports whether a conflict is about what the question asks for.
func (a asked) about(c Conflict) bool {
	if !a.kinds[c.Kind] {
		return false
	}
	if c.Kind != FactQuantity || a.unit == "" {
		return true
	}
	for _, s := range c.Sides {
		if strings.HasSuffix(s.Value, a.unit) {
			return true
		}
	}
	return false
}

// any reports whether the question asks for a value at all.
func (a asked) any() bool { return len(a.kinds) > 0 }

// holding counts the content words a folded text holds; each word is
// its forms (the search's analyzed terms: folded, base form).
func holding(f string, words [][]string) int {
	n := 0
	for _, forms := range words {
		for _, w := range forms {
			if strings.Contains(f, w) {
				n++
				break
			}
		}
	}
	return n
}
