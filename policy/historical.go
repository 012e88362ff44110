package policy

import (
	"regexp"

	"lwr/analyzer"
)

// historical finds what makes a question about a past text: a year
// written as one (2024年, 2024年度, 2024年版, FY2024, 令和6年度, 平成元年,
// R6年度), or words for an old edition or a past time (旧版, 旧規程, 当時,
// 改正前, 前の版). A bare number (内線2001, 2000円, ポート2022) or a model
// name (H2, R2) is no year.
var historical = regexp.MustCompile(`(?:^|[^0-9])(?:19|20)[0-9]{2}\s*(?:年|年度|版)|(?:^|[^a-z])fy\s*(?:19|20)?[0-9]{2}(?:[^0-9]|$)|(?:令和|平成|昭和)\s*(?:[0-9]+|元)\s*年|(?:^|[^a-z])(?:r|h)[0-9]{1,2}\s*年|旧版|旧規程|旧制度|当時|改正前|改定前|改訂前|前の版|以前の版|昔の規程`)

// Historical reports whether a question asks about a past text, not the
// current one: it names a year or an era, or an old edition or a past
// time. Such a question keeps pure relevance order (as with
// --ignore-source-preference); a question that names none wants the
// current rule.
func Historical(question string) bool {
	return historical.MatchString(analyzer.Fold(question))
}
