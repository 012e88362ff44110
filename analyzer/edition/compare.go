package edition

import "strconv"

// age is what a document's own text says of its age: its latest
// revision, effective, enactment, issue or creation date, its latest
// (fiscal) year, its highest edition number and version.
type age struct {
	date, year, number, version string
}

func ageOf(eds []Edition) age {
	var a age
	for _, e := range eds {
		if !e.Self {
			continue
		}
		switch e.Kind {
		case Revised, Effective, Enacted, Issued, Created:
			if e.Value > a.date {
				a.date = e.Value
			}
		case FiscalYear, Year:
			if y := strconv.Itoa(e.Year); e.Year > 0 && y > a.year {
				a.year = y
			}
		case Number:
			if numbersLess(a.number, e.Value) {
				a.number = e.Value
			}
		case Version:
			if numbersLess(a.version, e.Value) {
				a.version = e.Value
			}
		}
	}
	return a
}

// Compare orders two documents by the editions their texts state about
// themselves (Self): +1 when a is newer, -1 when b is, 0 when the texts do
// not tell. The latest date decides first, then the (fiscal) year, the
// edition number (第2版 < 第10版) and the version (v1.9 < v1.10); a
// criterion only one side states does not decide. A file's mtime never
// counts.
func Compare(a, b []Edition) int {
	x, y := ageOf(a), ageOf(b)
	cmp := func(p, q string, less func(string, string) bool) int {
		switch {
		case p == "" || q == "" || p == q:
			return 0
		case less(p, q):
			return -1
		}
		return 1
	}
	strLess := func(p, q string) bool { return p < q }
	for _, c := range []int{
		cmp(x.date, y.date, strLess),
		cmp(x.year, y.year, strLess),
		cmp(x.number, y.number, numbersLess),
		cmp(x.version, y.version, numbersLess),
	} {
		if c != 0 {
			return c
		}
	}
	return 0
}
