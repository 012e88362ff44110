package research

import (
	"path"
	"time"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
	"lwr/research/report"
	"lwr/research/understand"
	"lwr/web"
)

// Hit is one local source of the report: a match of Phase B (L#) or of
// the deep-drill (DL#), with what the policies say of it.
type Hit struct {
	Ref   string      `json:"ref"`  // "L1", "DL2"
	Path  string      `json:"path"` // relative to the source root
	Abs   string      `json:"abs"`  // absolute path
	Match index.Match `json:"-"`
	Ext   policy.Ext  `json:"-"`
	// Location is where the match stands in a PDF or Office document.
	Location local.Location `json:"-"`
}

// Name is the file name shown in the citation.
func (h Hit) Name() string { return path.Base(h.Path) }

// Edition is the label of the document's edition, from its text.
func (h Hit) Edition() string {
	if h.Ext.Edition != "" {
		return h.Ext.Edition
	}
	return edition.Label(h.Match.Editions)
}

// WebHit is one web source of the report (W#).
type WebHit struct {
	Ref   string    `json:"ref"`
	Entry web.Entry `json:"-"`
}

// Official reports whether the entry is from an official domain.
func (w WebHit) Official() bool {
	for _, r := range w.Entry.TrustReasons {
		if len(r) >= 8 && r[:8] == "official" {
			return true
		}
	}
	return false
}

// LocalPhase is Phase B's local search.
type LocalPhase struct {
	Status  report.Status   `json:"status"`
	Hits    []Hit           `json:"-"`
	Scanned int             `json:"scanned_file_count"`
	Total   int             `json:"total"`
	Message string          `json:"-"`
	Error   string          `json:"-"`
	Policy  policy.Policies `json:"policies"`
	Took    time.Duration   `json:"-"`
	// Content are the question's content words as the search analyzed
	// them; Synonyms those it added.
	Content  []string `json:"-"`
	Synonyms []string `json:"-"`
}

// WebPhase is Phase B's web search.
type WebPhase struct {
	Status report.Status `json:"status"`
	// Cache is "hit", "negative", "miss", "off" or "error".
	Cache  string      `json:"cache"`
	Result *web.Result `json:"-"`
	Hits   []WebHit    `json:"-"`
	Error  string      `json:"-"`
	Took   time.Duration
}

// DeepPhase is Phase C.
type DeepPhase struct {
	Status     report.Status   `json:"status"`
	SkipReason report.DeepSkip `json:"skip_reason,omitempty"`
	Keywords   []string        `json:"keywords"`
	Hits       []Hit           `json:"-"`
	Error      string          `json:"-"`
	Took       time.Duration
}

// Report is everything Phase D renders.
type Report struct {
	Query         string
	SearchQuery   string
	Timestamp     time.Time
	SourceRoot    string
	SourceExists  bool
	SkipWeb       bool
	SkipWord      string
	Understanding understand.Result
	Local         LocalPhase
	Web           WebPhase
	Deep          DeepPhase
	Conclusion    Conclusion
	SchemaVersion string
	Model         string
	// IgnorePreference: the question is about a past time or an old
	// edition; old values are quoted as values of their time only.
	IgnorePreference bool
	// Historical: the question names a year or an old edition
	// (policy.Historical); old values are quoted as values of their time,
	// and the deep-drill searches keep relevance order too.
	Historical bool
}
