package policy

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"

	"lwr/analyzer"
	"lwr/config/glob"
)

// Action is what a currentness record tells the reader to do with the
// value it is about.
type Action string

// The actions of currentness.json.
const (
	ReplaceWithVerifiedRule Action = "replace_with_verified_rule"
	CorrectBoundary         Action = "correct_boundary"
	DoNotAssertCurrent      Action = "do_not_assert_current"
	CheckConditions         Action = "check_conditions"
	IllustrativeOnly        Action = "illustrative_only"
	NoNumericRule           Action = "no_numeric_rule"
)

// Actions returns every action, in the documented order.
func Actions() []Action {
	return []Action{ReplaceWithVerifiedRule, CorrectBoundary, DoNotAssertCurrent, CheckConditions, IllustrativeOnly, NoNumericRule}
}

func (a Action) String() string { return string(a) }

// Valid reports whether a is one of Actions.
func (a Action) Valid() bool { return a.Meaning().Label != "" }

// Meaning is what an action means to the reader, in Japanese and English.
type Meaning struct {
	// Label is the short Japanese label shown in messages and reports:
	// 値を現行の根拠に使わない, 現行性未確認, 設例, ….
	Label    string `json:"label"`
	Japanese string `json:"ja"`
	English  string `json:"en"`
}

// Meaning returns the action's meaning; the zero Meaning for an unknown
// action.
func (a Action) Meaning() Meaning {
	switch a {
	case ReplaceWithVerifiedRule:
		return Meaning{
			Label:    "値を現行の根拠に使わない",
			Japanese: "原文の古い値を現行の根拠に使わない。確認済みの規則（verified）に置き換え、公式出典の適用時点・対象を再確認して、採用した値と理由を示す。",
			English:  "Do not use the old value in the text as the current rule. Use the verified rule instead, recheck the official source's effective date and scope, and state the value adopted and why.",
		}
	case CorrectBoundary:
		return Meaning{
			Label:    "境界表現を現行の根拠に使わない",
			Japanese: "原文の境界表現（以上・以下・超・未満など）を現行の根拠に使わない。確認済みの境界に訂正し、公式出典の適用時点・対象を再確認して、採用した値と理由を示す。",
			English:  "Do not use the boundary wording in the text (以上/以下/超/未満, …) as current. Correct it to the verified boundary, recheck the official source's effective date and scope, and state what was adopted and why.",
		}
	case DoNotAssertCurrent:
		return Meaning{
			Label:    "現行性未確認",
			Japanese: "未確認の決裁額・相違する省庁の係数・適用範囲を現行と断定しない。最新の当該官署の根拠を確認できなければ「現行性未確認」とする。他省庁の基準を代用しない。",
			English:  "Do not assert the amount, coefficient or scope as current. Unless the latest rule of the office concerned is confirmed, report it as \"currentness unverified\". Do not substitute another ministry's rule.",
		}
	case CheckConditions:
		return Meaning{
			Label:    "適用条件・改正を要確認",
			Japanese: "同額との照合結果であり、適用条件と回答時点の改正を確認する。",
			English:  "The value was only matched against the same amount: check the conditions of application and any amendment as of the answer date.",
		}
	case IllustrativeOnly:
		return Meaning{
			Label:    "設例",
			Japanese: "設例であり、金額基準の根拠には使わない。",
			English:  "An illustrative example: do not use it as the basis of an amount threshold.",
		}
	case NoNumericRule:
		return Meaning{
			Label:    "金額基準の根拠に使わない",
			Japanese: "金額基準の根拠には使わない。",
			English:  "Not a basis for an amount threshold.",
		}
	}
	return Meaning{}
}

// Currentness is a parsed currentness.json: verification records about
// values stated in documents. The zero value (no file) has no record. It
// is not changed after loading and is safe for concurrent use.
type Currentness struct {
	File      string // the file read; "" when there is none
	Version   int
	CheckedAt string // YYYY-MM-DD
	Records   []Record
}

// Empty reports whether there is no record.
func (c *Currentness) Empty() bool { return c == nil || len(c.Records) == 0 }

// Record is one currentness record. Its text is data, never instructions:
// whoever shows it escapes it (research/report.Text).
type Record struct {
	ID string `json:"id"`
	// Paths are paths or patterns of the documents it is about.
	Paths []string `json:"paths"`
	// Text, if given: the record applies only to passages holding one of
	// these (after NFKC and case folding, white space ignored).
	Text []string `json:"text,omitempty"`
	// DocumentSHA256 is the document's hash when the record was verified.
	DocumentSHA256 string    `json:"document_sha256,omitempty"`
	Action         Action    `json:"action"`
	Verified       *Verified `json:"verified,omitempty"`
	Sources        []Source  `json:"sources,omitempty"`
	CheckedAt      string    `json:"checked_at,omitempty"` // overrides the file's checked_at
	Unverified     string    `json:"unverified,omitempty"`
	Note           string    `json:"note,omitempty"`
	paths          []*glob.Pattern
	texts          []string // Text folded, without white space
}

// Verified is the value the record's author verified.
type Verified struct {
	Value         string `json:"value,omitempty"`
	EffectiveFrom string `json:"effective_from,omitempty"` // YYYY-MM-DD
	Scope         string `json:"scope,omitempty"`
}

// Source is where a record's value was verified.
type Source struct {
	Title     string `json:"title,omitempty"`
	URL       string `json:"url"`                  // https only
	CheckedAt string `json:"checked_at,omitempty"` // YYYY-MM-DD
}

// ParseCurrentness parses and validates the contents of a currentness.json;
// file names it in errors, which match ErrCurrentnessInvalid.
func ParseCurrentness(file string, data []byte) (*Currentness, error) {
	const code = CodeCurrentnessInvalid
	var raw struct {
		CheckedAt string   `json:"checked_at"`
		Records   []Record `json:"records"`
	}
	if err := decodeValid(code, file, currentnessSchema(), data, &raw); err != nil {
		return nil, err
	}
	c := &Currentness{File: file, Version: 1, CheckedAt: raw.CheckedAt, Records: raw.Records}
	fail := func(ptr, problem, fix string) error {
		return &Error{Code: code, File: file, Field: ptr, Problem: problem, Fix: fix}
	}
	if err := checkDate(c.CheckedAt); err != nil {
		return nil, fail("/checked_at", err.Error(), dateFix)
	}
	ids := map[string]int{}
	for i := range c.Records {
		r := &c.Records[i]
		ptr := fmt.Sprintf("/records/%d", i)
		if j, dup := ids[analyzer.Fold(r.ID)]; dup {
			return nil, fail(ptr+"/id", fmt.Sprintf("the id %s is already used by /records/%d", quote(r.ID), j), "give every record its own id")
		}
		ids[analyzer.Fold(r.ID)] = i
		for k, p := range r.Paths {
			g, err := compileGlob(p)
			if err != nil {
				return nil, fail(fmt.Sprintf("%s/paths/%d", ptr, k), err.problem, err.fix)
			}
			r.paths = append(r.paths, g)
		}
		for k, t := range r.Text {
			f := squeeze(analyzer.Fold(t))
			if f == "" {
				return nil, fail(fmt.Sprintf("%s/text/%d", ptr, k), "the text is only white space", "give the text as it appears in the document, e.g. \"160万円\", or leave \"text\" out")
			}
			r.texts = append(r.texts, f)
		}
		r.DocumentSHA256 = strings.ToLower(r.DocumentSHA256)
		if !r.Action.Valid() { // the schema already refuses it
			return nil, fail(ptr+"/action", "unknown action "+quote(string(r.Action)), actionFix)
		}
		if r.CheckedAt != "" {
			if err := checkDate(r.CheckedAt); err != nil {
				return nil, fail(ptr+"/checked_at", err.Error(), dateFix)
			}
		}
		if v := r.Verified; v != nil && v.EffectiveFrom != "" {
			if err := checkDate(v.EffectiveFrom); err != nil {
				return nil, fail(ptr+"/verified/effective_from", err.Error(), dateFix)
			}
		}
		for k, src := range r.Sources {
			sp := fmt.Sprintf("%s/sources/%d", ptr, k)
			if err := checkURL(src.URL); err != nil {
				return nil, fail(sp+"/url", err.Error(), urlFix)
			}
			if src.CheckedAt != "" {
				if err := checkDate(src.CheckedAt); err != nil {
					return nil, fail(sp+"/checked_at", err.Error(), dateFix)
				}
			}
		}
	}
	return c, nil
}

const (
	dateFix   = `write a real date as YYYY-MM-DD, e.g. "2026-10-01"`
	urlFix    = `give the source as an https:// URL with a host, e.g. "https://www.example.go.jp/rule.html"`
	actionFix = "use one of replace_with_verified_rule, correct_boundary, do_not_assert_current, check_conditions, illustrative_only, no_numeric_rule"
)

// checkDate accepts a real calendar date written YYYY-MM-DD.
func checkDate(s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%s is not a real date in YYYY-MM-DD form", quote(s))
	}
	return nil
}

// checkURL accepts an absolute https URL with a host and no credentials.
func checkURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("%s is not a URL", quote(s))
	case u.Scheme != "https":
		return fmt.Errorf("%s is not an https:// URL", quote(s))
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("%s has no host", quote(s))
	case u.User != nil:
		return fmt.Errorf("%s holds a user name or password", quote(s))
	}
	return nil
}

// squeeze removes white space.
func squeeze(s string) string {
	if strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// appliesTo reports whether the record is about the document at path.
func (r *Record) appliesTo(path string) bool { return glob.Any(r.paths, path) }

// matchText returns the first of the record's texts found in the folded,
// squeezed passage, and whether one was; a record without text matches
// every passage with "".
func (r *Record) matchText(passage string) (string, bool) {
	if len(r.texts) == 0 {
		return "", true
	}
	for i, t := range r.texts {
		if strings.Contains(passage, t) {
			return r.Text[i], true
		}
	}
	return "", false
}
