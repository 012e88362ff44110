package analyzer

import (
	"slices"
	"strings"
	"unicode"
)

// Okurigana returns the shorter spellings of a Japanese word written with
// okurigana (送り仮名) that rules and forms use for the same word: 申し出 →
// 申出, 取り扱い → 取扱い and 取扱, 届け出 → 届出, 申し込む → 申込む. The
// kana between two kanji go, and for a noun the kana at its end too; a
// spelling counts when the dictionary knows it as one word of the same part
// of speech, or when it is kanji alone. A word of fewer than two kanji has
// none (子ども is not 子).
func (a *Analyzer) Okurigana(t Token) []string {
	if t.Kind != KindJapanese || t.Unknown {
		return nil
	}
	rs := []rune(t.Term)
	kanji, kana := 0, false
	for i, r := range rs {
		switch {
		case unicode.Is(unicode.Han, r):
			kanji++
		case isHiragana(r) && i > 0:
			kana = true
		default:
			return nil
		}
	}
	if kanji < 2 || !kana {
		return nil
	}
	// Without the kana that stand between kanji: 申し込む → 申込む.
	var inner strings.Builder
	for i, r := range rs {
		if isHiragana(r) && followedByKanji(rs[i+1:]) {
			continue
		}
		inner.WriteRune(r)
	}
	cands := []string{inner.String()}
	if strings.HasPrefix(t.POS, "名詞") {
		// A noun without its final kana as well: 取り扱い → 取扱.
		cands = append(cands, strings.TrimRightFunc(cands[0], isHiragana))
	}
	first, _, _ := strings.Cut(t.POS, ",")
	var out []string
	for _, c := range cands {
		if c == t.Term || slices.Contains(out, c) {
			continue
		}
		toks := a.Tokens(c)
		switch {
		case len(toks) == 1 && !toks[0].Unknown && toks[0].Term == c && toks[0].End-toks[0].Start == len(c):
			if f, _, _ := strings.Cut(toks[0].POS, ","); f != first {
				continue
			}
		case !AllKanji(c):
			// Kanji alone (申出) count though the analyzer cuts them (申,
			// 出): they match where the text has them side by side.
			continue
		}
		out = append(out, c)
	}
	return out
}

// followedByKanji reports whether a kanji comes after the kana that start
// rs.
func followedByKanji(rs []rune) bool {
	for _, r := range rs {
		if unicode.Is(unicode.Han, r) {
			return true
		}
		if !isHiragana(r) {
			return false
		}
	}
	return false
}

// AllKanji reports a text of Han characters only.
func AllKanji(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return s != ""
}
