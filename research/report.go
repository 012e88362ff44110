package research

import (
	"path/filepath"
	"time"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
	"lwr/web"
)

// The statuses of the phases, as the report, the context file and --json
// give them.
const (
	StatusOK           = "ok"
	StatusPartial      = "partial"
	StatusEmpty        = "empty"
	StatusError        = "error"
	StatusSkipped      = "skipped"
	StatusUnconfigured = "skipped-unconfigured"
)

// The fixed sentences of the skip and degraded paths (SPEC §7, seed 000).
// Tests and agents look for them verbatim.
const (
	SentenceWebSkippedByUser = "Web検索: スキップ（ユーザー指示）"
	SentenceWebFailed        = "Web検索: 失敗"
	SentenceWebUnconfigured  = "Web検索: スキップ（Webプロバイダ未設定）"
	SentenceWebEmpty         = "Web検索: 該当なし"
	SentenceLocalEmpty       = "ローカル資料に該当情報なし"
	SentenceLocalFailed      = "ローカル検索: 失敗"
	SentenceDeepNoNew        = "深堀り再検索で追加資料なし"
	MissingRootSentence      = "設定されたローカル資料ディレクトリが見つかりません。--source-root または CC_LWR_SOURCE_ROOT と資料配置を確認してください"
)

// The reasons Phase C is skipped, shown as 深堀り再検索: スキップ（reason）.
const (
	DeepSkipUser        = "ユーザー指示によりWeb検索なし"
	DeepSkipWebEmpty    = "Web検索結果が空"
	DeepSkipWebError    = "Web検索失敗"
	DeepSkipWebNone     = "Web検索未設定"
	DeepSkipNoRoot      = "ローカル資料ディレクトリなし"
	DeepSkipAllMatched  = "全対象ファイルがヒット済み"
	DeepSkipLocalError  = "ローカル検索失敗"
	DeepSkipNoKeywords  = "ローカル資料にある新規キーワードなし"
	DeepSkipSearchError = "深堀り再検索の検索失敗"
)

// DeepSkippedSentence is the report's sentence for a skipped Phase C.
func DeepSkippedSentence(reason string) string {
	return "深堀り再検索: スキップ（" + reason + "）"
}

// Hit is one local source of the report: a match of Phase B (L#) or of
// the deep-drill (DL#), with what the policies say of it.
type Hit struct {
	Ref   string      `json:"ref"`  // "L1", "DL2"
	Path  string      `json:"path"` // relative to the source root
	Abs   string      `json:"abs"`  // absolute path
	Match index.Match `json:"-"`
	Ext   policy.Ext  `json:"-"`
}

// Name is the file name shown in the citation.
func (h Hit) Name() string { return filepath.Base(h.Abs) }

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
	Status  string          `json:"status"`
	Hits    []Hit           `json:"-"`
	Scanned int             `json:"scanned_file_count"`
	Total   int             `json:"total"`
	Message string          `json:"-"`
	Error   string          `json:"-"`
	Policy  policy.Policies `json:"policies"`
	Took    time.Duration   `json:"-"`
}

// WebPhase is Phase B's web search.
type WebPhase struct {
	Status string `json:"status"`
	// Cache is "hit", "negative", "miss", "off" or "error".
	Cache  string      `json:"cache"`
	Result *web.Result `json:"-"`
	Hits   []WebHit    `json:"-"`
	Error  string      `json:"-"`
	Took   time.Duration
}

// DeepPhase is Phase C.
type DeepPhase struct {
	Status     string   `json:"status"`
	SkipReason string   `json:"skip_reason,omitempty"`
	Keywords   []string `json:"keywords"`
	Hits       []Hit    `json:"-"`
	Error      string   `json:"-"`
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
	Understanding Understanding
	Local         LocalPhase
	Web           WebPhase
	Deep          DeepPhase
	Conclusion    Conclusion
	SchemaVersion string
	Model         string
	// IgnorePreference: the question is about a past time or an old
	// edition; old values are quoted as values of their time only.
	IgnorePreference bool
}

// The JSON comment at the end of the report (output-schema.json).

// Comment is the report's <!-- JSON: … --> comment.
type Comment struct {
	Sections           []CommentSection    `json:"sections"`
	Sources            []CommentSource     `json:"sources"`
	ConflictResolution *ConflictResolution `json:"conflict_resolution,omitempty"`
	Metadata           Metadata            `json:"metadata"`
}

// CommentSection is one of the five sections.
type CommentSection struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// CommentSource is one source, in the order L#, W#, DL#.
type CommentSource struct {
	Title      string `json:"title"`
	SourceType string `json:"source_type"` // "local" or "web"
	URL        string `json:"url,omitempty"`
	Path       string `json:"path,omitempty"`
	Lines      *Lines `json:"lines,omitempty"`
}

// Lines is a cited line range.
type Lines struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// ConflictResolution says whether conflicts were found and how they were
// resolved.
type ConflictResolution struct {
	Detected    bool   `json:"detected"`
	AppliedRule string `json:"applied_rule,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// Metadata is the comment's metadata.
type Metadata struct {
	StepNumber       int    `json:"step_number"`
	StepNumberLegacy string `json:"step_number_legacy"`
	SchemaVersion    string `json:"schema_version"`
	Model            string `json:"model,omitempty"`
}

// Schema versions of the report comment.
const (
	SchemaVersion10 = "1.0"
	SchemaVersion11 = "1.1"
)

// Models are the model ids schema 1.1 accepts (output-schema.json).
var Models = []string{"claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5-20251001"}

// Section ids and titles, in order.
var sections = []CommentSection{
	{ID: "local_info", Title: "1. ローカル情報"},
	{ID: "web_info", Title: "2. Web情報"},
	{ID: "deep_local_info", Title: "3. 深堀りローカル情報"},
	{ID: "conclusion", Title: "4. 結論"},
	{ID: "sources", Title: "5. 出典"},
}

// SectionHeadings are the five headings of a report, in order.
func SectionHeadings() []string {
	out := make([]string, len(sections))
	for i, s := range sections {
		out[i] = "## " + s.Title
	}
	return out
}
