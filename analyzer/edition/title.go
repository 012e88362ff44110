package edition

import (
	"strings"

	"lwr/analyzer"
)

// TitleKey returns a title with its years, fiscal years, era dates, edition
// numbers and versions removed, folded and without spaces or brackets, so
// that "契約事務研修テキスト（令和6年度版）" and "契約事務研修テキスト
// 2026年度版" have the same key. Titles with equal keys are possibly
// related documents; the key says nothing about which is newer.
func TitleKey(title string) string {
	f := analyzer.Fold(title)
	var spans []span
	for _, e := range foldedEditions(f, true) {
		spans = append(spans, span{a: e.a, b: e.b})
	}
	for _, m := range findAll(bareYearRe, f, strings.IndexAny(f, "0123456789") >= 0) {
		spans = append(spans, span{a: m[2], b: m[3]})
	}
	spans = dropOverlaps(spans)
	var b strings.Builder
	keep := func(s string) {
		for _, r := range s {
			if !strings.ContainsRune(" \t()[]{}<>【】「」『』〔〕・,、。.:;-_~/|\"'", r) {
				b.WriteRune(r)
			}
		}
	}
	at := 0
	for _, s := range spans {
		keep(f[at:s.a])
		at = s.b
		if rest := strings.TrimLeft(f[at:], " \t"); strings.HasPrefix(rest, "版") {
			at = len(f) - len(rest) + len("版")
		}
	}
	keep(f[at:])
	k := b.String()
	if strings.Contains(k, "新版") || strings.Contains(k, "改訂版") {
		for _, w := range []string{"改訂版", "最新版", "新版"} {
			k = strings.ReplaceAll(k, w, "")
		}
	}
	return k
}
