package edition

import (
	"fmt"
	"strings"

	"lwr/analyzer/lazyre"
)

// Unknown is the label of a document whose text states no edition
// or date.
const Unknown = "版不明"

// Where Find looks for unmarked dates and versions: the head of a
// document, where titles and cover pages state them. Explicit markers
// (第N版, 令和6年度版, 改訂/施行/制定/発行/作成 dates) count anywhere, since
// 附則 and revision histories often stand at the end.
const (
	headLines   = 80
	headBytes   = 4096
	maxEditions = 32
)

// Kind says what an Edition states.
type Kind int

const (
	KindUnknown Kind = iota
	FiscalYear       // 2024年度, 令和6年度版, FY2024
	Year             // 2024年版
	Number           // 第3版, 初版, 2nd edition
	Version          // v1.2, Ver.1.2, バージョン2.0
	Revised          // 改訂/改定/改正/更新 with a date
	Effective        // 施行/発効/適用 with a date
	Enacted          // 制定 with a date
	Issued           // 発行/公表 with a date, or 2025年4月版
	Created          // 作成 with a date
	Date             // a date without a marker, in the head
	Abolished        // 廃止 with a date: the rule is no longer in force
)

var kindNames = [...]string{"unknown", "fiscal_year", "year", "edition", "version", "revised", "effective", "enacted", "issued", "created", "date", "abolished"}
var kindLabels = [...]string{"不明", "年度", "年版", "版", "バージョン", "改訂", "施行", "制定", "発行", "作成", "日付", "廃止"}

// Kinds lists every kind, KindUnknown first.
func Kinds() []Kind {
	out := make([]Kind, len(kindNames))
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// String returns the kind's identifier, as used in JSON: "fiscal_year",
// "edition", "revised", ….
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// Label returns the kind's Japanese label: 年度, 版, 改訂, 施行, ….
func (k Kind) Label() string {
	if k < 0 || int(k) >= len(kindLabels) {
		return kindLabels[0]
	}
	return kindLabels[k]
}

// MarshalText writes the kind as its String form.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads the String form.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown edition kind %q", b)
}

// Edition is one edition or date statement found in a document's text.
type Edition struct {
	Kind Kind `json:"kind"`
	// Raw is the text as written, e.g. "令和6年度版" or "改訂：2025年4月1日".
	Raw string `json:"raw"`
	// Value is the normalized form: "2024年度", "2024年版", "第3版",
	// "v1.2", or a date "2025-04-01" (or "2025-04", "2025" when the text
	// gives no more; "2024年度" for a fiscal year with a marker).
	Value string `json:"value"`
	// Year is the Gregorian year stated, 0 for edition numbers and versions.
	Year int `json:"year,omitempty"`
	// Line is the 1-based line of the text it was found on.
	Line int `json:"line"`
	// Self says the statement is about this document: it stands in the
	// cover block (the lines before the first "##" heading, or the first
	// two blocks of lines, at most 15; a fiscal year without 版 only in
	// the title), in a revision
	// history or 附則 section, or in a sentence such as 「この規程は、…から
	// 施行する」. Other editions are mentions, perhaps of other documents;
	// Label uses only Self ones.
	Self bool `json:"self"`
}

// Find returns the edition and date statements of a document's text,
// in text order, without repeats of the same kind and value, at most 32.
// Dates in Japanese eras (令和, 平成, 昭和, 大正, also R6/H31 and 元年,
// kanji numerals) are converted to Gregorian years; invalid dates are
// ignored. Unmarked dates, fiscal years and versions count only in the
// first 80 lines (4 KB); marked ones anywhere. Nothing but the text is
// read: a file's mtime never changes its editions.
func Find(text string) []Edition {
	var out []Edition
	seen := map[[2]string]int{}
	off := 0
	coverEnd := coverEnd(text)
	history, seenText := false, false
	for n := 1; off < len(text) && len(out) < maxEditions; n++ {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := strings.TrimSuffix(text[off:end], "\r")
		head := n <= headLines && off < headBytes
		off = end + 1
		if h := strings.TrimLeft(line, " \t　"); strings.HasPrefix(h, "#") || isSupplementary(h) {
			history = isSupplementary(h) || containsAny(h, "履歴", "沿革", "附則", "附　則")
		}
		cover := n <= coverEnd
		if !head && !mayHoldMarker(line) {
			continue
		}
		title := false
		if t := strings.TrimSpace(line); t != "" && (!seenText || strings.HasPrefix(t, "# ")) {
			title, seenText = true, true
		}
		self := cover || history || (strings.Contains(line, "この") && selfRe.MatchString(line))
		for _, e := range lineEditions(line, head) {
			switch {
			case e.Kind == FiscalYear && !strings.HasSuffix(e.Raw, "版") && !title && !history:
				// 「令和7年度から…」 in prose is a time, not the edition.
				e.Self = false
			case e.Kind == Abolished:
				// Only the cover says the document itself was abolished
				// (廃止 平成27年3月31日); 附則 abolish other rules.
				e.Self = cover || strings.Contains(line, "この") && selfRe.MatchString(line)
			default:
				e.Self = self
			}
			k := [2]string{e.Kind.String(), e.Value}
			if i, ok := seen[k]; ok {
				out[i].Self = out[i].Self || e.Self
				continue
			}
			seen[k] = len(out)
			e.Line = n
			out = append(out, e)
			if len(out) == maxEditions {
				break
			}
		}
	}
	return out
}

// coverLines bounds the cover block.
const coverLines = 15

// coverEnd returns the last line of the cover block: the lines before the
// first "##" heading when one starts within the first 15 lines, else the
// first two blocks of non-blank lines (a title and its metadata), at most
// 15 lines.
func coverEnd(text string) int {
	blocks, blank, last := 0, true, 0
	for n := 1; n <= coverLines && text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		t := strings.TrimSpace(line)
		if n > 1 && strings.HasPrefix(t, "##") {
			return n - 1
		}
		switch {
		case t == "" || t == "---":
			blank = true
		case blank:
			blank = false
			blocks++
			if blocks > 2 && last == 0 {
				last = n - 1
			}
		}
	}
	if last == 0 {
		return coverLines
	}
	return last
}

// selfRe finds sentences about the document itself: この規程は、….
var selfRe = lazyre.New(`^[\s　]*(?:[-*・]\s*)?(?:[0-9０-９]+[.．、)）]\s*)?(?:附\s*則\s*)?この(?:規程|規則|要領|要綱|細則|基準|手順書?|マニュアル|文書|資料|テキスト|ガイド(?:ライン)?|方針|通知|通達|案内|規約|契約書?)は`)

// isSupplementary reports whether a line is a 附則 heading standing alone.
func isSupplementary(h string) bool {
	h = strings.Trim(h, " \t　#")
	return h == "附則" || h == "附　則" || h == "附 則"
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// mayHoldMarker is a quick filter for lines past the head: only lines with
// one of the marker characters can state an explicit edition.
func mayHoldMarker(line string) bool {
	for _, r := range line {
		switch r {
		case '版', '改', '更', '施', '発', '適', '制', '公', '作', '最', '附':
			return true
		}
	}
	return strings.Contains(line, "dition")
}

// isMarkerStart reports whether r (folded) can start a marker word.
func isMarkerStart(r rune) bool {
	switch r {
	case '版', '改', '更', '施', '発', '適', '制', '公', '作', '最', '廃', 'l', 'u', 'r', 'm', 'e', 'p', 'i', 'c', 'a':
		return true
	}
	return false
}
