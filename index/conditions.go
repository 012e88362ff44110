package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Conditions a question's answer depends on, as rules write them: the
// asker's words (子ども, 親, 妻, パート, 海外) and the words of a table's row
// header or a list item (子, 父母, 配偶者, パートタイマー, 海外出張).
// conditionForms maps a folded word of the question to the forms the
// passage chooser also looks for.
var conditionForms = map[string][]string{
	"子ども": {"子", "子供"}, "子供": {"子", "子ども"}, "こども": {"子", "子供"}, "息子": {"子"}, "娘": {"子"},
	"親": {"父母", "両親", "実父母"}, "父": {"父母"}, "母": {"父母"}, "父親": {"父母"}, "母親": {"父母"}, "両親": {"父母"},
	"妻": {"配偶者"}, "夫": {"配偶者"}, "奥さん": {"配偶者"}, "旦那": {"配偶者"}, "嫁": {"配偶者"},
	"祖父": {"祖父母"}, "祖母": {"祖父母"}, "おじいちゃん": {"祖父母", "祖父"}, "おばあちゃん": {"祖父母", "祖母"},
	"兄": {"兄弟姉妹"}, "弟": {"兄弟姉妹"}, "姉": {"兄弟姉妹"}, "妹": {"兄弟姉妹"}, "兄弟": {"兄弟姉妹"},
	"自分": {"本人"}, "私": {"本人"},
	"パート": {"パートタイマー", "短時間勤務者", "パートタイム"}, "アルバイト": {"パートタイマー", "アルバイト"},
	"正社員": {"正社員", "正規"}, "契約社員": {"有期", "契約社員"}, "派遣": {"派遣社員", "派遣労働者"},
	"海外": {"外国"}, "外国": {"海外"}, "国内": {"国内"},
}

// conditionsOf are the condition forms of one word of the question, as
// forms that count only where a word starts (子 of 子（1人につき）, not of
// 電子).
func conditionsOf(words ...string) []form {
	var out []form
	for _, w := range words {
		for _, c := range conditionForms[w] {
			out = addForm(out, form{text: c, edge: true})
		}
	}
	return out
}

// edgeIn reports whether w stands in f as a word of its own (edgeAt).
func edgeIn(f, w string) bool {
	for off := 0; off < len(f); {
		i := strings.Index(f[off:], w)
		if i < 0 {
			return false
		}
		if edgeAt(f, off+i, off+i+len(w)) {
			return true
		}
		off += i + 1
	}
	return false
}

// edgeAt reports whether f[a:b] stands as a word of its own: not after a
// kanji or katakana (電子, 様子) nor before a kanji other than the ones
// that continue it as the same word (子供).
func edgeAt(f string, a, b int) bool {
	before, _ := utf8.DecodeLastRuneInString(f[:a])
	after, _ := utf8.DecodeRuneInString(f[b:])
	if a > 0 && (unicode.Is(unicode.Han, before) || isKatakanaRune(before)) {
		return false
	}
	return b == len(f) || !unicode.Is(unicode.Han, after) || after == '供'
}

func isKatakanaRune(r rune) bool { return r >= 0x30A1 && r <= 0x30FA }
