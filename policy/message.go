package policy

import (
	"fmt"
	"lwr/analyzer/edition"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes text from a policy file or a document path safe to show in
// the one-line message, Markdown and HTML: it is data, never instructions.
// Backslash and double quote are escaped with a backslash; newline, tab
// and carriage return become \n, \t, \r; other control characters, line
// and paragraph separators and invisible format characters (zero-width,
// bidi controls, BOM) become \uXXXX; and < > [ ] | ` become their
// full-width forms ＜ ＞ ［ ］ ｜ ｀, so no link, tag, table cell or code
// span can form.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '<':
			b.WriteRune('＜')
		case '>':
			b.WriteRune('＞')
		case '[':
			b.WriteRune('［')
		case ']':
			b.WriteRune('］')
		case '|':
			b.WriteRune('｜')
		case '`':
			b.WriteRune('｀')
		case utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			if invisible(r) {
				if r > 0xFFFF {
					fmt.Fprintf(&b, `\U%08X`, r)
				} else {
					fmt.Fprintf(&b, `\u%04X`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(r rune) bool {
	switch r {
	case '\\', '"', '<', '>', '[', ']', '|', '`', utf8.RuneError:
		return true
	}
	return invisible(r)
}

// invisible: control characters, separators other than the space, and
// format characters (zero-width, bidi controls, BOM, tags).
func invisible(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		(unicode.Is(unicode.Zs, r) && r != '\u3000' && r != '\u00a0')
}

// maxShown bounds each free-text value in the one-line message; the
// json-ext form carries the whole text.
const maxShown = 100

// shown is Escape plus the field separators of the message: ";" and "="
// become ＝ and ；, so that data never starts a field of its own.
func shown(s string) string {
	s = Escape(s)
	if strings.ContainsAny(s, ";=") {
		s = strings.NewReplacer(";", "；", "=", "＝").Replace(s)
	}
	return s
}

// quoted shows free text in the message: shown, cut short, in "".
func quoted(s string) string {
	if r := []rune(s); len(r) > maxShown {
		s = string(r[:maxShown]) + "…"
	}
	return `"` + shown(s) + `"`
}

// shownURL shows a validated https URL with the characters that could
// break the line or Markdown percent-encoded.
func shownURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		s = u.String()
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("\"<>[]|`\\", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return Escape(b.String())
}

// listed shows up to three paths and how many more.
func listed(paths []string) string {
	const show = 3
	var b strings.Builder
	for i, p := range paths {
		if i == show {
			fmt.Fprintf(&b, " 他%d件", len(paths)-show)
			break
		}
		if i > 0 {
			b.WriteString("、")
		}
		b.WriteString(shown(p))
	}
	return b.String()
}

// Message returns the match's line for the search JSON "message", in the
// fixed form documented in docs/policies.md:
//
//	<path>: 版=<edition>; 関係=<relations>[; 現行性[<id>]=<action>(<label>) 該当=".." 値=".." 施行=<date> 範囲=".." 確認=<date> 出典=".." <url> 未確認=".." 注記=".." 状態=stale(..)]...
//
// Every text from a policy file or a path is escaped (Escape, and ";" "="
// become full-width ；＝ so data never forms a field); free text is quoted
// and cut at 100 characters.
func (a Annotated) Message() string {
	var b strings.Builder
	b.WriteString(shown(a.Path))
	b.WriteString(": 版=")
	b.WriteString(shown(a.Edition))
	b.WriteString("; 関係=")
	b.WriteString(a.relationsText())
	for _, ap := range a.Records {
		b.WriteString("; ")
		ap.write(&b)
	}
	return b.String()
}

func (a Annotated) relationsText() string {
	var parts []string
	if a.Preferred != nil {
		s := "優先版"
		if a.Preferred.Label != "" {
			s += "(指定: " + shown(a.Preferred.Label) + ")"
		}
		parts = append(parts, s)
	}
	byKind := func(k RelationKind) []Relation {
		var rs []Relation
		for _, r := range a.Relations {
			if r.Kind == k {
				rs = append(rs, r)
			}
		}
		return rs
	}
	if rs := byKind(Supersedes); len(rs) > 0 {
		parts = append(parts, "旧版あり("+listed(relPaths(rs))+")")
	}
	for _, r := range byKind(SupersededBy) {
		parts = append(parts, "旧版(優先: "+shown(r.Path)+")")
	}
	if rs := byKind(PossiblyRelated); len(rs) > 0 {
		parts = append(parts, "関連の可能性(版関係不明: "+listed(relPaths(rs))+")")
	}
	if len(parts) == 0 {
		return "なし"
	}
	return strings.Join(parts, ", ")
}

func relPaths(rs []Relation) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Path
	}
	return out
}

func (ap Applied) write(b *strings.Builder) {
	r := ap.Record
	fmt.Fprintf(b, "現行性[%s]=%s(%s)", shown(r.ID), shown(string(r.Action)), r.Action.Meaning().Label)
	if ap.Matched != "" {
		b.WriteString(" 該当=" + quoted(ap.Matched))
	}
	if v := r.Verified; v != nil {
		if v.Value != "" {
			b.WriteString(" 値=" + quoted(v.Value))
		}
		if v.EffectiveFrom != "" {
			b.WriteString(" 施行=" + shown(v.EffectiveFrom))
		}
		if v.Scope != "" {
			b.WriteString(" 範囲=" + quoted(v.Scope))
		}
	}
	if ap.CheckedAt != "" {
		b.WriteString(" 確認=" + shown(ap.CheckedAt))
	}
	for i, s := range r.Sources {
		if i == 0 {
			b.WriteString(" 出典=")
		} else {
			b.WriteString(" / ")
		}
		if s.Title != "" {
			b.WriteString(quoted(s.Title) + " ")
		}
		b.WriteString(shownURL(s.URL))
	}
	if r.Unverified != "" {
		b.WriteString(" 未確認=" + quoted(r.Unverified))
	}
	if r.Note != "" {
		b.WriteString(" 注記=" + quoted(r.Note))
	}
	if ap.Stale {
		b.WriteString(" 状態=stale(照合後に資料が変更: 要再確認)")
	}
}

// PreferenceIgnoredLine is the first line of Messages when preferences
// were ignored.
const PreferenceIgnoredLine = "優先指定: 無視(--ignore-source-preference)"

// Messages returns the search "message" block: PreferenceIgnoredLine
// first when opts.IgnorePreference, then one Message line per match, in
// order, joined by newlines.
func Messages(as []Annotated, opts Options) string {
	lines := make([]string, 0, len(as)+1)
	if opts.IgnorePreference {
		lines = append(lines, PreferenceIgnoredLine)
	}
	for _, a := range as {
		lines = append(lines, a.Message())
	}
	return strings.Join(lines, "\n")
}

// Ext is the structured form of one match's annotations, for
// `lwr search --format json-ext` and other programs. Texts are as written
// in the files (JSON escapes them); a program that renders them must
// escape them itself (Escape does it for Markdown and HTML).
type Ext struct {
	Path        string            `json:"path"`
	Edition     string            `json:"edition"`
	Editions    []edition.Edition `json:"editions"`
	Preferred   *ExtPreferred     `json:"preferred,omitempty"`
	Promoted    bool              `json:"promoted"`
	Relations   []Relation        `json:"relations"`
	Currentness []ExtRecord       `json:"currentness"`
	Message     string            `json:"message"`
}

// ExtPreferred is the preference naming a match.
type ExtPreferred struct {
	Label      string   `json:"label,omitempty"`
	Supersedes []string `json:"supersedes"`
}

// ExtRecord is a currentness record applied to a match.
type ExtRecord struct {
	ID             string    `json:"id"`
	Action         Action    `json:"action"`
	Meaning        Meaning   `json:"meaning"`
	MatchedText    string    `json:"matched_text,omitempty"`
	Verified       *Verified `json:"verified,omitempty"`
	CheckedAt      string    `json:"checked_at,omitempty"`
	Sources        []Source  `json:"sources"`
	Unverified     string    `json:"unverified,omitempty"`
	Note           string    `json:"note,omitempty"`
	DocumentSHA256 string    `json:"document_sha256,omitempty"`
	Stale          bool      `json:"stale"`
}

// Ext returns the structured form of the annotations.
func (a Annotated) Ext() Ext {
	e := Ext{
		Path:        a.Path,
		Edition:     a.Edition,
		Editions:    a.Editions,
		Promoted:    a.Promoted,
		Relations:   a.Relations,
		Currentness: make([]ExtRecord, 0, len(a.Records)),
		Message:     a.Message(),
	}
	if e.Editions == nil {
		e.Editions = []edition.Edition{}
	}
	if e.Relations == nil {
		e.Relations = []Relation{}
	}
	if a.Preferred != nil {
		e.Preferred = &ExtPreferred{Label: a.Preferred.Label, Supersedes: append([]string{}, a.Preferred.Supersedes...)}
	}
	for _, ap := range a.Records {
		r := ap.Record
		x := ExtRecord{
			ID: r.ID, Action: r.Action, Meaning: r.Action.Meaning(), MatchedText: ap.Matched,
			CheckedAt: ap.CheckedAt, Sources: append([]Source{}, r.Sources...),
			Unverified: r.Unverified, Note: r.Note, DocumentSHA256: r.DocumentSHA256, Stale: ap.Stale,
		}
		if r.Verified != nil {
			v := *r.Verified
			x.Verified = &v
		}
		e.Currentness = append(e.Currentness, x)
	}
	return e
}

// Policies says which policies a search applied, for json-ext and the
// research context.
type Policies struct {
	Preferences          string `json:"preferences,omitempty"` // the file, "" when none
	Preferred            int    `json:"preferred"`
	PreferenceIgnored    bool   `json:"preference_ignored"`
	Currentness          string `json:"currentness,omitempty"` // the file, "" when none
	CurrentnessCheckedAt string `json:"currentness_checked_at,omitempty"`
	Records              int    `json:"records"`
}

// Describe summarizes the policies in force.
func Describe(prefs *Preferences, cur *Currentness, opts Options) Policies {
	p := Policies{PreferenceIgnored: opts.IgnorePreference}
	if prefs != nil {
		p.Preferences, p.Preferred = prefs.File, len(prefs.Preferred)
	}
	if cur != nil {
		p.Currentness, p.CurrentnessCheckedAt, p.Records = cur.File, cur.CheckedAt, len(cur.Records)
	}
	return p
}
