package analyzer

import "strings"

// eToU maps the kana before る of a potential verb (休める, 帰れる, 使える)
// to the ending of the godan verb it is made from (休む, 帰る, 使う).
var eToU = map[string]string{
	"え": "う", "け": "く", "げ": "ぐ", "せ": "す", "て": "つ",
	"ね": "ぬ", "べ": "ぶ", "め": "む", "れ": "る",
}

// PotentialBase returns the verb a potential form is made from: 休める →
// 休む, 帰れる → 帰る, 持ち帰れる → 持ち帰る. The dictionary lists such
// forms as verbs of their own, so a question's 休めますか would not find
// the rules' 休む. ok is false when term is no such form, that is when
// the derived word is not one verb the dictionary knows (決める gives no
// 決む). The base may be a stop word (もらえる → もらう).
func PotentialBase(term string) (base string, ok bool) {
	return potentialBase(term)
}

// Potential returns the verb a verb token is the potential form of (see
// PotentialBase); ok is false for any other token.
func (t Token) Potential() (base string, ok bool) {
	if t.POS != "動詞,自立" {
		return "", false
	}
	return potentialBase(t.Term)
}

func potentialBase(term string) (base string, ok bool) {
	stem, found := strings.CutSuffix(term, "る")
	if !found || stem == "" {
		return "", false
	}
	last := stem[len(stem)-len("え"):]
	u, found := eToU[last]
	if !found || len(stem) == len(last) {
		return "", false
	}
	base = stem[:len(stem)-len(last)] + u
	if IsStopWord(base) {
		return base, true // もらえる: もらう says as little
	}
	toks := Default().Tokens(base)
	if len(toks) != 1 || toks[0].Term != base || toks[0].POS != "動詞,自立" {
		return "", false
	}
	return base, true
}
