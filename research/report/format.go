package report

import (
	"fmt"
	"strings"
)

// Status is the status of a research phase, as the report, the context
// file and --json give it.
type Status string

// The statuses of the phases.
const (
	StatusOK           Status = "ok"
	StatusPartial      Status = "partial"
	StatusEmpty        Status = "empty"
	StatusError        Status = "error"
	StatusSkipped      Status = "skipped"
	StatusUnconfigured Status = "skipped-unconfigured"
	// StatusUnknown is what the context file says of a phase an agent ran
	// and did not describe.
	StatusUnknown Status = "unknown"
)

func (s Status) String() string { return string(s) }

// Phase is a research phase whose status is recorded.
type Phase int

// The phases with a status.
const (
	PhaseLocal Phase = iota
	PhaseWeb
	PhaseDeep
)

var phaseStatuses = [...][]Status{
	PhaseLocal: {StatusOK, StatusEmpty, StatusError, StatusUnknown},
	PhaseWeb:   {StatusOK, StatusPartial, StatusEmpty, StatusError, StatusSkipped, StatusUnconfigured, StatusUnknown},
	PhaseDeep:  {StatusOK, StatusEmpty, StatusError, StatusSkipped, StatusUnknown},
}

var phaseNames = [...]string{PhaseLocal: "local", PhaseWeb: "web", PhaseDeep: "deep"}

func (p Phase) String() string { return phaseNames[p] }

// Statuses lists the statuses a phase can have.
func (p Phase) Statuses() []Status { return phaseStatuses[p] }

// ParseStatus reads the status of a phase.
func (p Phase) ParseStatus(s string) (Status, error) {
	names := make([]string, 0, len(phaseStatuses[p]))
	for _, st := range phaseStatuses[p] {
		if string(st) == s {
			return st, nil
		}
		names = append(names, string(st))
	}
	return "", fmt.Errorf("%q is not a status of the %s phase; use %s", s, p, strings.Join(names, ", "))
}

// Statuses are the phases' statuses.
type Statuses struct {
	Local Status `json:"local"`
	Web   Status `json:"web"`
	Deep  Status `json:"deep"`
}

// The fixed sentences of the skip and degraded paths (SPEC §7, seed 000).
// Tests and agents look for them verbatim; the validator knows
// SentenceLocalEmpty.
const (
	SentenceWebSkippedByUser = "Web検索: スキップ（ユーザー指示）"
	SentenceWebFailed        = "Web検索: 失敗"
	SentenceWebUnconfigured  = "Web検索: スキップ（Webプロバイダ未設定）"
	SentenceWebEmpty         = "Web検索: 該当なし"
	SentenceLocalEmpty       = "ローカル資料に該当情報なし"
	SentenceLocalFailed      = "ローカル検索: 失敗"
	SentenceDeepNoNew        = "深堀り再検索で追加資料なし"
)

// DeepSkip is why Phase C was skipped, shown as 深堀り再検索: スキップ（…）.
type DeepSkip string

// The reasons Phase C is skipped.
const (
	DeepSkipUser        DeepSkip = "ユーザー指示によりWeb検索なし"
	DeepSkipWebEmpty    DeepSkip = "Web検索結果が空"
	DeepSkipWebError    DeepSkip = "Web検索失敗"
	DeepSkipWebNone     DeepSkip = "Web検索未設定"
	DeepSkipNoRoot      DeepSkip = "ローカル資料ディレクトリなし"
	DeepSkipAllMatched  DeepSkip = "全対象ファイルがヒット済み"
	DeepSkipLocalError  DeepSkip = "ローカル検索失敗"
	DeepSkipNoKeywords  DeepSkip = "ローカル資料にある新規キーワードなし"
	DeepSkipSearchError DeepSkip = "深堀り再検索の検索失敗"
)

// Sentence is the report's sentence for a skipped Phase C.
func (d DeepSkip) Sentence() string { return "深堀り再検索: スキップ（" + string(d) + "）" }

// Schema versions of the report comment.
const (
	SchemaVersion10 = "1.0"
	SchemaVersion11 = "1.1"
)

// Models are the model ids schema 1.1 accepts (output-schema.json).
var Models = []string{"claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5-20251001"}

// Sections are the five sections of a report, in order.
var Sections = []Section{
	{ID: "local_info", Title: "1. ローカル情報"},
	{ID: "web_info", Title: "2. Web情報"},
	{ID: "deep_local_info", Title: "3. 深堀りローカル情報"},
	{ID: "conclusion", Title: "4. 結論"},
	{ID: "sources", Title: "5. 出典"},
}

// Section is one of the five sections.
type Section struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Heading is the section's Markdown heading.
func (s Section) Heading() string { return "## " + s.Title }

// Comment is the report's <!-- JSON: … --> comment (output-schema.json).
type Comment struct {
	Sections           []Section           `json:"sections"`
	Sources            []Source            `json:"sources"`
	ConflictResolution *ConflictResolution `json:"conflict_resolution,omitempty"`
	Metadata           Metadata            `json:"metadata"`
}

// Source is one source of the comment, in the order L#, W#, DL#.
type Source struct {
	// Ref is the source's label in a deep report's text (L1, W2).
	Ref        string `json:"ref,omitempty"`
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
