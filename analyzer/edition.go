package analyzer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// UnknownEdition is the label of a document whose text states no edition
// or date.
const UnknownEdition = "版不明"

// Where Editions looks for unmarked dates and versions: the head of a
// document, where titles and cover pages state them. Explicit markers
// (第N版, 令和6年度版, 改訂/施行/制定/発行/作成 dates) count anywhere, since
// 附則 and revision histories often stand at the end.
const (
	headLines   = 80
	headBytes   = 4096
	maxEditions = 32
)

// EditionKind says what an Edition states.
type EditionKind int

const (
	EditionUnknown    EditionKind = iota
	EditionFiscalYear             // 2024年度, 令和6年度版, FY2024
	EditionYear                   // 2024年版
	EditionNumber                 // 第3版, 初版, 2nd edition
	EditionVersion                // v1.2, Ver.1.2, バージョン2.0
	EditionRevised                // 改訂/改定/改正/更新 with a date
	EditionEffective              // 施行/発効/適用 with a date
	EditionEnacted                // 制定 with a date
	EditionIssued                 // 発行/公表 with a date, or 2025年4月版
	EditionCreated                // 作成 with a date
	EditionDate                   // a date without a marker, in the head
)

var editionKindNames = [...]string{"unknown", "fiscal_year", "year", "edition", "version", "revised", "effective", "enacted", "issued", "created", "date"}
var editionKindLabels = [...]string{"不明", "年度", "年版", "版", "バージョン", "改訂", "施行", "制定", "発行", "作成", "日付"}

// String returns the kind's identifier, as used in JSON: "fiscal_year",
// "edition", "revised", ….
func (k EditionKind) String() string {
	if k < 0 || int(k) >= len(editionKindNames) {
		return "unknown"
	}
	return editionKindNames[k]
}

// Label returns the kind's Japanese label: 年度, 版, 改訂, 施行, ….
func (k EditionKind) Label() string {
	if k < 0 || int(k) >= len(editionKindLabels) {
		return editionKindLabels[0]
	}
	return editionKindLabels[k]
}

// MarshalText writes the kind as its String form.
func (k EditionKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads the String form.
func (k *EditionKind) UnmarshalText(b []byte) error {
	for i, n := range editionKindNames {
		if n == string(b) {
			*k = EditionKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown edition kind %q", b)
}

// Edition is one edition or date statement found in a document's text.
type Edition struct {
	Kind EditionKind `json:"kind"`
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
	// EditionLabel uses only Self ones.
	Self bool `json:"self"`
}

// Editions returns the edition and date statements of a document's text,
// in text order, without repeats of the same kind and value, at most 32.
// Dates in Japanese eras (令和, 平成, 昭和, 大正, also R6/H31 and 元年,
// kanji numerals) are converted to Gregorian years; invalid dates are
// ignored. Unmarked dates, fiscal years and versions count only in the
// first 80 lines (4 KB); marked ones anywhere. Nothing but the text is
// read: a file's mtime never changes its editions.
func Editions(text string) []Edition {
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
			if e.Kind == EditionFiscalYear && !strings.HasSuffix(e.Raw, "版") && !title && !history {
				// 「令和7年度から…」 in prose is a time, not the edition.
				e.Self = false
			} else {
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
var selfRe = regexp.MustCompile(`^[\s　]*(?:[-*・]\s*)?(?:[0-9０-９]+[.．、)）]\s*)?(?:附\s*則\s*)?この(?:規程|規則|要領|要綱|細則|基準|手順書?|マニュアル|文書|資料|テキスト|ガイド(?:ライン)?|方針|通知|通達|案内|規約|契約書?)は`)

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
	case '版', '改', '更', '施', '発', '適', '制', '公', '作', '最', 'l', 'u', 'r', 'm', 'e', 'p', 'i', 'c':
		return true
	}
	return false
}

// EditionLabel returns the label that stands for a document's edition in
// one line, from the editions stated about the document itself (Self):
// the fiscal year or year edition (the first found), the highest edition
// number and version, then the latest revision or effective
// date (else the latest enactment, issue or creation date), e.g.
// "2024年度 第2版 改訂2024-04-01". With none of these, the first plain date
// ("日付2024-04-01"); with nothing at all, UnknownEdition (版不明).
func EditionLabel(eds []Edition) string {
	self := make([]Edition, 0, len(eds))
	for _, e := range eds {
		if e.Self {
			self = append(self, e)
		}
	}
	eds = self
	var parts []string
	first := func(k EditionKind) {
		for _, e := range eds {
			if e.Kind == k {
				parts = append(parts, e.Value)
				return
			}
		}
	}
	if !hasKind(eds, EditionFiscalYear) {
		first(EditionYear)
	} else {
		first(EditionFiscalYear)
	}
	highest(eds, EditionNumber, &parts)
	highest(eds, EditionVersion, &parts)
	if e, ok := latest(eds, EditionRevised, EditionEffective); ok {
		parts = append(parts, e.Kind.Label()+e.Value)
	} else if e, ok := latest(eds, EditionEnacted, EditionIssued, EditionCreated); ok {
		parts = append(parts, e.Kind.Label()+e.Value)
	}
	if len(parts) == 0 {
		for _, e := range eds {
			if e.Kind == EditionDate {
				return e.Kind.Label() + e.Value
			}
		}
		return UnknownEdition
	}
	return strings.Join(parts, " ")
}

// highest appends the highest edition number or version of kind k (a
// revision history lists them all).
func highest(eds []Edition, k EditionKind, parts *[]string) {
	var best Edition
	for _, e := range eds {
		if e.Kind == k && (best.Value == "" || numbersLess(best.Value, e.Value)) {
			best = e
		}
	}
	if best.Value != "" {
		*parts = append(*parts, best.Value)
	}
}

// numbersLess compares the numbers in "第3版" or "v1.10.2" part by part.
func numbersLess(a, b string) bool {
	na, nb := numbers(a), numbers(b)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			return na[i] < nb[i]
		}
	}
	return len(na) < len(nb)
}

func numbers(s string) []int {
	var out []int
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		if c := s[i]; isDigitByte(c) {
			n, in = n*10+int(c-'0'), true
		} else if in {
			out, n, in = append(out, n), 0, false
		}
	}
	if in {
		out = append(out, n)
	}
	return out
}

func hasKind(eds []Edition, k EditionKind) bool {
	for _, e := range eds {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// latest returns the edition of one of the kinds with the latest value;
// on a tie the earlier kind in the list wins.
func latest(eds []Edition, kinds ...EditionKind) (Edition, bool) {
	var best Edition
	found := false
	rank := func(k EditionKind) int {
		for i, x := range kinds {
			if x == k {
				return i
			}
		}
		return -1
	}
	for _, e := range eds {
		r := rank(e.Kind)
		if r < 0 {
			continue
		}
		if !found || e.Value > best.Value || (e.Value == best.Value && r < rank(best.Kind)) {
			best, found = e, true
		}
	}
	return best, found
}

// TitleKey returns a title with its years, fiscal years, era dates, edition
// numbers and versions removed, folded and without spaces or brackets, so
// that "契約事務研修テキスト（令和6年度版）" and "契約事務研修テキスト
// 2026年度版" have the same key. Titles with equal keys are possibly
// related documents; the key says nothing about which is newer.
func TitleKey(title string) string {
	f := Fold(title)
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

// The expressions below run on folded text: ASCII digits, lower case,
// half-width punctuation (：→:, （→(, full-width space → space).
const (
	kanjiNum = `[〇零一二三四五六七八九十百千]+`
	num      = `(?:[0-9]+|` + kanjiNum + `)`
	sp       = `[ \t]*`
	// monthDay is an optional " N月 N日" after 年.
	monthDay = `(?:` + sp + `(` + num + `)` + sp + `月(?:` + sp + `(` + num + `)` + sp + `日)?)?`
)

var (
	// 令和6年度, 令和6年4月1日, 平成31年, 令和元年.
	eraRe = regexp.MustCompile(`(令和|平成|昭和|大正)` + sp + `(元|` + num + `)` + sp + `年(?:` + sp + `(度)|` + monthDay + `)`)
	// R6年度, R6年4月1日, R6.4.1, H31/4/1.
	eraAbbrRe = regexp.MustCompile(`(?:^|[^a-z0-9])([rhs])([0-9]{1,2})(?:(年度)|年` + monthDay + `|[./]([0-9]{1,2})[./]([0-9]{1,2}))`)
	// 2024年度, 2024年4月1日, 二〇二四年.
	gregRe = regexp.MustCompile(`([0-9]{4}|[〇零一二三四五六七八九]{4})` + sp + `年(?:` + sp + `(度)|` + monthDay + `)`)
	// 2024/4/1, 2024-04-01, 2024.4.1, 2024/04.
	numDateRe = regexp.MustCompile(`(?:^|[^0-9.])([0-9]{4})([/.-])([0-9]{1,2})(?:([/.-])([0-9]{1,2}))?`)
	// FY2024, FY24.
	fyRe = regexp.MustCompile(`(?:^|[^a-z])fy` + sp + `([0-9]{4}|[0-9]{2})(?:[^0-9]|$)`)
	// 第3版, 初版, 改訂3版, 2nd edition, edition 2.
	editionRe = regexp.MustCompile(`第` + sp + `(` + num + `)` + sp + `版|(初)版|改訂` + sp + `([0-9]+)` + sp + `版|([0-9]+)(?:st|nd|rd|th)` + sp + `edition|edition` + sp + `([0-9]+)`)
	// v1.2 (not inside a word such as ipv4).
	versionRe = regexp.MustCompile(`(?:^|[^a-z0-9_])v([0-9]+(?:\.[0-9]+){0,3})`)
	// Ver.1.2, version 3, バージョン2.0.
	verWordRe = regexp.MustCompile(`(?:ver\.?|version|バージョン|ヴァージョン)[ \t:]*([0-9]+(?:\.[0-9]+){0,3})`)
	// 2024 on its own, for TitleKey.
	bareYearRe = regexp.MustCompile(`(?:^|[^0-9])(19[0-9]{2}|20[0-9]{2}|21[0-9]{2})(?:[^0-9]|$)`)
)

// kanjiDigits are the kanji numerals 0–9; 零 also reads as 0.
var kanjiDigits = [...]rune{'〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'}

var eraBase = map[string]int{"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911, "r": 2018, "h": 1988, "s": 1925}

// markers are the words that say what a date is, longest first.
var markers = []struct {
	word string
	kind EditionKind
}{
	{"最終更新日", EditionRevised}, {"最終更新", EditionRevised}, {"更新日", EditionRevised}, {"更新", EditionRevised},
	{"last updated", EditionRevised}, {"updated", EditionRevised}, {"revised", EditionRevised}, {"modified", EditionRevised},
	{"effective", EditionEffective}, {"published", EditionIssued}, {"issued", EditionIssued}, {"created", EditionCreated},
	{"改訂日", EditionRevised}, {"改定日", EditionRevised}, {"改正日", EditionRevised},
	{"改訂", EditionRevised}, {"改定", EditionRevised}, {"改正", EditionRevised},
	{"適用開始日", EditionEffective}, {"適用開始", EditionEffective}, {"適用日", EditionEffective},
	{"施行日", EditionEffective}, {"施行", EditionEffective}, {"発効日", EditionEffective}, {"発効", EditionEffective},
	{"制定日", EditionEnacted}, {"制定", EditionEnacted},
	{"発行日", EditionIssued}, {"発行", EditionIssued}, {"公表日", EditionIssued}, {"公表", EditionIssued},
	{"作成日", EditionCreated}, {"作成", EditionCreated},
}

// span is a match in the folded line.
type span struct {
	a, b int // byte range in the folded line
	kind EditionKind
	// for dates
	date     bool
	year     int
	month    int
	day      int
	fiscal   bool
	plainNum bool // 2024/04 without a day: only with a marker
	value    string
}

type markerAt struct {
	a, b int
	kind EditionKind
	used bool
}

// found is an edition with its byte range in the folded line.
type found struct {
	Edition
	a, b int
}

// lineEditions finds the editions on one line; head says whether unmarked
// dates and versions count.
func lineEditions(line string, head bool) []Edition {
	f, start, end := FoldMapped(line)
	fs := foldedEditions(f, head)
	out := make([]Edition, len(fs))
	for i, e := range fs {
		if start == nil {
			e.Raw = line[e.a:e.b]
		} else if e.b > e.a {
			e.Raw = line[start[e.a]:end[e.b-1]]
		}
		out[i] = e.Edition
	}
	return out
}

// foldedEditions finds the editions of a folded line.
func foldedEditions(f string, head bool) []found {
	spans := dateSpans(f)
	spans = append(spans, editionSpans(f, head)...)
	spans = dropOverlaps(spans)

	var ms []markerAt
	if len(spans) > 0 {
		for i := 0; i < len(f); {
			r, n := utf8.DecodeRuneInString(f[i:])
			if isMarkerStart(r) {
				for _, m := range markers {
					if strings.HasPrefix(f[i:], m.word) {
						ms = append(ms, markerAt{a: i, b: i + len(m.word), kind: m.kind})
						n = len(m.word)
						break
					}
				}
			}
			i += n
		}
	}
	// Bind dates to markers: "改訂：DATE" first, then "DATE 改訂" and
	// "DATEから施行", then "改訂 DATE".
	bound := make([]int, len(spans)) // index into ms + 1; 0 = none
	prevMarker := func(s span) int {
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].b <= s.a {
				if gapBefore(f[ms[j].b:s.a]) {
					return j
				}
				return -1
			}
		}
		return -1
	}
	nextMarker := func(s span) int {
		for j := range ms {
			if ms[j].a >= s.b {
				if gapAfter(f[s.b:ms[j].a]) {
					return j
				}
				return -1
			}
		}
		return -1
	}
	for pass := 0; pass < 3; pass++ {
		for i, s := range spans {
			if !s.date || bound[i] != 0 {
				continue
			}
			j := -1
			switch pass {
			case 0:
				if p := prevMarker(s); p >= 0 && strings.ContainsAny(f[ms[p].b:s.a], ":=は") {
					j = p
				}
			case 1:
				j = nextMarker(s)
			case 2:
				j = prevMarker(s)
			}
			if j >= 0 && !ms[j].used {
				ms[j].used = true
				bound[i] = j + 1
			}
		}
	}

	var out []found
	for i, s := range spans {
		if !s.date {
			out = append(out, found{Edition{Kind: s.kind, Value: s.value, Year: s.year}, s.a, s.b})
			continue
		}
		dv := dateValue(s)
		a, b := s.a, s.b
		if bound[i] != 0 {
			m := ms[bound[i]-1]
			a, b = min(a, m.a), max(b, m.b)
			out = append(out, found{Edition{Kind: m.kind, Value: dv, Year: s.year}, a, b})
			continue
		}
		versioned := strings.HasPrefix(strings.TrimLeft(f[s.b:], " \t"), "版")
		if versioned {
			b = s.b + strings.Index(f[s.b:], "版") + len("版")
		}
		switch {
		case s.fiscal && (head || versioned):
			out = append(out, found{Edition{Kind: EditionFiscalYear, Value: dv, Year: s.year}, a, b})
		case versioned && s.month == 0 && !s.plainNum:
			out = append(out, found{Edition{Kind: EditionYear, Value: fmt.Sprintf("%d年版", s.year), Year: s.year}, a, b})
		case versioned && !s.plainNum:
			out = append(out, found{Edition{Kind: EditionIssued, Value: dv, Year: s.year}, a, b})
		case head && !s.plainNum:
			out = append(out, found{Edition{Kind: EditionDate, Value: dv, Year: s.year}, a, b})
		}
	}
	return out
}

// gapBefore reports whether the text between a marker and the date after
// it joins them: "改訂：", "施行日は ", "改訂 (".
func gapBefore(g string) bool {
	if len(g) > 12 {
		return false
	}
	g = strings.TrimPrefix(g, "年月日")
	g = strings.TrimPrefix(g, "日")
	return onlyRunes(strings.ReplaceAll(g, "は", ""), " \t:=(【[「")
}

// gapAfter reports whether the text between a date and the marker after it
// joins them: "2025年4月1日改訂", "令和6年4月1日から施行", "2024/4/1 改訂".
func gapAfter(g string) bool {
	if len(g) > 15 {
		return false
	}
	for _, w := range []string{"から", "より", "付け", "付", "にて", "に", "で", "以降"} {
		g = strings.Replace(g, w, "", 1)
	}
	return onlyRunes(g, " \t:)】]」")
}

func onlyRunes(s, set string) bool {
	for _, r := range s {
		if !strings.ContainsRune(set, r) {
			return false
		}
	}
	return true
}

func dateValue(s span) string {
	switch {
	case s.fiscal:
		return fmt.Sprintf("%d年度", s.year)
	case s.day > 0:
		return fmt.Sprintf("%04d-%02d-%02d", s.year, s.month, s.day)
	case s.month > 0:
		return fmt.Sprintf("%04d-%02d", s.year, s.month)
	}
	return fmt.Sprintf("%04d", s.year)
}

// dateSpans finds the dates of a folded line.
func dateSpans(f string) []span {
	var out []span
	add := func(s span) {
		if validDate(s.year, s.month, s.day) {
			s.date = true
			out = append(out, s)
		}
	}
	hasYear := strings.Contains(f, "年")
	digits := strings.IndexAny(f, "0123456789") >= 0
	for _, m := range findAll(eraRe, f, hasYear) {
		y := 1
		if g := f[m[4]:m[5]]; g != "元" {
			y = parseNum(g)
		}
		if y < 1 || y > 99 {
			continue
		}
		s := span{a: m[0], b: m[1], year: eraBase[f[m[2]:m[3]]] + y, fiscal: m[6] >= 0}
		s.month, s.day = group(f, m, 4), group(f, m, 5)
		add(s)
	}
	for _, m := range findAll(eraAbbrRe, f, digits && strings.ContainsAny(f, "rhs")) {
		y := parseNum(f[m[4]:m[5]])
		if y < 1 {
			continue
		}
		s := span{a: m[2], b: m[1], year: eraBase[f[m[2]:m[3]]] + y, fiscal: m[6] >= 0}
		s.month, s.day = group(f, m, 4), group(f, m, 5)
		if m[12] >= 0 {
			s.month, s.day = group(f, m, 6), group(f, m, 7)
			if followsNumber(f, m[1]) {
				continue
			}
		}
		add(s)
	}
	for _, m := range findAll(gregRe, f, hasYear) {
		if m[0] > 0 && isDigitByte(f[m[0]-1]) {
			continue
		}
		s := span{a: m[0], b: m[1], year: parseNum(f[m[2]:m[3]]), fiscal: m[4] >= 0}
		s.month, s.day = group(f, m, 3), group(f, m, 4)
		add(s)
	}
	for _, m := range findAll(numDateRe, f, digits && strings.ContainsAny(f, "/.-")) {
		if followsNumber(f, m[1]) {
			continue
		}
		s := span{a: m[2], b: m[1], year: parseNum(f[m[2]:m[3]]), month: parseNum(f[m[6]:m[7]])}
		if m[8] >= 0 {
			if f[m[8]:m[9]] != f[m[4]:m[5]] {
				continue // 2024/04-01: mixed separators are not a date
			}
			s.day = parseNum(f[m[10]:m[11]])
		} else {
			if f[m[4]:m[5]] == "." {
				continue // 2024.4 reads as a number
			}
			s.plainNum = true
		}
		add(s)
	}
	for _, m := range findAll(fyRe, f, digits && strings.Contains(f, "fy")) {
		y := parseNum(f[m[2]:m[3]])
		if y < 100 {
			y += 2000
		}
		a := m[0] + strings.Index(f[m[0]:m[1]], "fy")
		add(span{a: a, b: m[3], year: y, fiscal: true})
	}
	return out
}

// findAll runs re on f when the quick test may says it can match.
func findAll(re *regexp.Regexp, f string, may bool) [][]int {
	if !may {
		return nil
	}
	return re.FindAllStringSubmatchIndex(f, -1)
}

// group returns the number in submatch i (1-based group), 0 when absent.
func group(f string, m []int, i int) int {
	if m[2*i] < 0 {
		return 0
	}
	return parseNum(f[m[2*i]:m[2*i+1]])
}

// followsNumber reports whether a match ending at i runs on into more
// digits or a dot and digits (a version or an address, not a date).
func followsNumber(f string, i int) bool {
	if i < len(f) && isDigitByte(f[i]) {
		return true
	}
	return i+1 < len(f) && f[i] == '.' && isDigitByte(f[i+1])
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

func validDate(y, m, d int) bool {
	if y < 1868 || y > 2199 || m < 0 || m > 12 || d < 0 || (m == 0 && d > 0) {
		return false
	}
	if d == 0 {
		return true
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d && int(t.Month()) == m
}

// editionSpans finds edition numbers everywhere and versions in the head.
func editionSpans(f string, head bool) []span {
	var out []span
	for _, m := range findAll(editionRe, f, strings.Contains(f, "版") || strings.Contains(f, "edition")) {
		n := 0
		switch {
		case m[2] >= 0:
			n = parseNum(f[m[2]:m[3]])
		case m[4] >= 0:
			n = 1
		case m[6] >= 0:
			n = parseNum(f[m[6]:m[7]])
		case m[8] >= 0:
			n = parseNum(f[m[8]:m[9]])
		case m[10] >= 0:
			n = parseNum(f[m[10]:m[11]])
		}
		if n < 1 || n > 999 {
			continue
		}
		out = append(out, span{a: m[0], b: m[1], kind: EditionNumber, value: fmt.Sprintf("第%d版", n)})
	}
	if !head {
		return out
	}
	for _, re := range []*regexp.Regexp{verWordRe, versionRe} {
		for _, m := range findAll(re, f, strings.IndexAny(f, "0123456789") >= 0 && (strings.Contains(f, "v") || strings.Contains(f, "ージョン"))) {
			a := m[0]
			if re == versionRe {
				a = m[2] - 1 // the "v"
			}
			if m[1] < len(f) && (isDigitByte(f[m[1]]) || ('a' <= f[m[1]] && f[m[1]] <= 'z')) {
				continue
			}
			v := f[m[2]:m[3]]
			if major := numbers(v)[0]; (re == versionRe && !strings.Contains(v, ".")) || major >= 1000 || (major == 0 && !strings.Contains(v, ".")) {
				continue // v86, V24, ver 15000: names and numbers, not versions
			}
			out = append(out, span{a: a, b: m[1], kind: EditionVersion, value: "v" + f[m[2]:m[3]]})
		}
	}
	return out
}

// dropOverlaps keeps, of spans that overlap, the one that starts first
// (the longer on a tie), in text order.
func dropOverlaps(s []span) []span {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (s[j].a < s[j-1].a || (s[j].a == s[j-1].a && s[j].b > s[j-1].b)); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	out := s[:0]
	end := -1
	for _, x := range s {
		if x.a < end {
			continue
		}
		out = append(out, x)
		end = x.b
	}
	return out
}

// parseNum reads ASCII digits or kanji numerals: 31, 三十一, 二〇二四, 十二.
func parseNum(s string) int {
	if s == "" {
		return 0
	}
	if isDigitByte(s[0]) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0
		}
		return n
	}
	digit := func(r rune) int {
		if r == '零' {
			return 0
		}
		for i, d := range kanjiDigits {
			if r == d {
				return i
			}
		}
		return -1
	}
	if !strings.ContainsAny(s, "十百千") {
		n := 0
		for _, r := range s {
			d := digit(r)
			if d < 0 {
				return 0
			}
			n = n*10 + d
		}
		return n
	}
	total, cur := 0, 0
	for _, r := range s {
		switch r {
		case '十', '百', '千':
			unit := 10
			if r == '百' {
				unit = 100
			} else if r == '千' {
				unit = 1000
			}
			if cur == 0 {
				cur = 1
			}
			total += cur * unit
			cur = 0
		default:
			d := digit(r)
			if d < 0 {
				return 0
			}
			cur = d
		}
	}
	return total + cur
}
