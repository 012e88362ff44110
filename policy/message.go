package policy

import (
	"lwr/analyzer/edition"
)

// Ext is the structured form of one match's annotations, for
// `lwr search --format json-ext` and other programs. Texts are as written
// in the files (JSON escapes them); a program that renders them must
// escape them itself. Message is left for the caller that writes the
// search's message.
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
	Preferences       string `json:"preferences,omitempty"` // the file, "" when none
	Preferred         int    `json:"preferred"`
	PreferenceIgnored bool   `json:"preference_ignored"`
	// HistoricalQuestion: the question names a year or an old edition, so
	// the preferences did not reorder (see Historical).
	HistoricalQuestion   bool   `json:"historical_question,omitempty"`
	Currentness          string `json:"currentness,omitempty"` // the file, "" when none
	CurrentnessCheckedAt string `json:"currentness_checked_at,omitempty"`
	Records              int    `json:"records"`
}

// Describe summarizes the policies in force.
func Describe(prefs *Preferences, cur *Currentness, opts Options) Policies {
	p := Policies{PreferenceIgnored: opts.IgnorePreference, HistoricalQuestion: opts.Historical && !opts.IgnorePreference}
	if prefs != nil {
		p.Preferences, p.Preferred = prefs.File, len(prefs.Preferred)
	}
	if cur != nil {
		p.Currentness, p.CurrentnessCheckedAt, p.Records = cur.File, cur.CheckedAt, len(cur.Records)
	}
	return p
}
