package policy

import (
	"regexp"

	"lwr/analyzer"
)

// historical finds what makes a question about a past text: a year
// (2024年, 令和6年度, 平成元年, R6, FY2024), or words for an old edition or a
// past time (旧版, 旧規程, 当時, 改正前, 以前の, 前の版).
var historical = regexp.MustCompile(`(?:^|[^0-9])(?:19|20)[0-9]{2}(?:[^0-9]|$)|(?:令和|平成|昭和)(?:[0-9]|元)|(?:^|[^a-z])(?:r|h|fy)[0-9]{1,4}(?:[^0-9]|$)|旧版|旧規程|旧制度|当時|改正前|改定前|改訂前|以前の|前の版|昔の|過去の`)

// Historical reports whether a question asks about a past text, not the
// current one: it names a year or an era, or an old edition or a past
// time. Such a question keeps pure relevance order (as with
// --ignore-source-preference); a question that names none wants the
// current rule.
func Historical(question string) bool {
	return historical.MatchString(analyzer.Fold(question))
}
