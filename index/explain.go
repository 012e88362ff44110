package index

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blevesearch/bleve/v2/search"
)

var weightMsg = regexp.MustCompile(`^weight\((\w+):(.*?)\^([0-9.]+) in `)

// explain renders Bleve's score explanation as a compact tree: each term
// clause as field:term with its weight, each compound with its rule and its
// coord factor, leaving out what did not match.
func explain(e *search.Explanation) string {
	var b strings.Builder
	var walk func(e *search.Explanation, depth int)
	walk = func(e *search.Explanation, depth int) {
		if e == nil {
			return
		}
		ind := strings.Repeat("  ", depth)
		if m := weightMsg.FindStringSubmatch(e.Message); m != nil {
			fmt.Fprintf(&b, "%s%.3f %s:%s (boost %s)\n", ind, e.Value, m[1], m[2], strings.TrimRight(strings.TrimRight(m[3], "0"), "."))
			return
		}
		msg := strings.TrimSuffix(e.Message, ":")
		if strings.HasPrefix(msg, "coord(") || len(e.Children) == 0 {
			fmt.Fprintf(&b, "%s%.3f %s\n", ind, e.Value, msg)
			return
		}
		fmt.Fprintf(&b, "%s%.3f %s\n", ind, e.Value, msg)
		for _, c := range e.Children {
			walk(c, depth+1)
		}
	}
	walk(e, 0)
	return strings.TrimRight(b.String(), "\n")
}
