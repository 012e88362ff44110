package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"lwr/index"
	"lwr/policy"
	"lwr/research/understand"
)

// ContextSchemaVersion is the version of research_<ts>.context.json.
const ContextSchemaVersion = "1.0"

//go:embed schema/context.schema.json
var contextSchemaJSON []byte

// ContextSchema returns the JSON Schema (draft 2020-12) of the context
// file (research/schema/context.schema.json).
func ContextSchema() []byte { return bytes.Clone(contextSchemaJSON) }

// Context is research_<ts>.context.json: what a later step (another
// skill, an agent) needs to pick the report up without reading it — the
// original question, the source root, the phases' statuses, the policies
// applied, and the SHA-256 of the report it belongs to. The report's own
// JSON comment keeps its schema (1.0/1.1); these fields live here.
type Context struct {
	SchemaVersion    string             `json:"schema_version"`
	CreatedAt        string             `json:"created_at"`
	Timestamp        string             `json:"timestamp"`
	Producer         string             `json:"producer"`
	OriginalQuery    string             `json:"original_query"`
	SourceRoot       string             `json:"source_root"`
	Report           ContextReport      `json:"report"`
	SchemaVersionLog string             `json:"schema_version_log"`
	Statuses         Statuses           `json:"statuses"`
	SkipWeb          bool               `json:"skip_web"`
	Policies         policy.Policies    `json:"policies"`
	Understanding    *understand.Result `json:"query_understanding,omitempty"`
}

// ContextReport identifies the report.
type ContextReport struct {
	Path          string `json:"path"`
	File          string `json:"file"`
	SHA256        string `json:"sha256"`
	SchemaVersion string `json:"schema_version"`
	Model         string `json:"model,omitempty"`
}

// contextJSON builds the context file of a finalized report.
func contextJSON(opts FinalizeOptions, f *Finalized) ([]byte, error) {
	in := opts.Context
	st := in.Statuses
	for _, s := range []*Status{&st.Local, &st.Web, &st.Deep} {
		if *s == "" {
			*s = StatusUnknown
		}
	}
	_, model := reportMetadata(opts.Markdown)
	producer := in.Producer
	if producer == "" {
		producer = "lwr finalize"
	}
	c := Context{
		SchemaVersion: ContextSchemaVersion,
		CreatedAt:     opts.Now().UTC().Format(time.RFC3339),
		Timestamp:     f.Timestamp,
		Producer:      producer,
		OriginalQuery: in.Query,
		SourceRoot:    in.SourceRoot,
		Report: ContextReport{
			Path: f.Report, File: f.Name, SHA256: f.SHA256, SchemaVersion: f.SchemaVersion,
			Model: model,
		},
		SchemaVersionLog: f.Log,
		Statuses:         st,
		SkipWeb:          in.SkipWeb,
		Policies:         in.Policies,
		Understanding:    in.Understanding,
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode the context file: %w", err)
	}
	return append(data, '\n'), nil
}

// ReadContext reads a context file.
func ReadContext(data []byte) (*Context, error) {
	var c Context
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("read the research context: %w", err)
	}
	return &c, nil
}

// PoliciesAt says which policies of a source root are in force, for the
// context file of a report: an invalid currentness file is a Failure with
// currentness_policy_invalid (as it fails every search), an invalid
// preferences file one with source_preferences_invalid unless they are
// ignored. A missing source root has none.
func PoliciesAt(root string, ignorePreference bool) (policy.Policies, error) {
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return policy.Policies{}, nil
	}
	l := policy.Loader{Root: root, FS: index.SourceFS(root, policy.MaxFileSize)}
	cur, err := l.Currentness()
	if err != nil {
		return policy.Policies{}, &Failure{Reason: ReasonCurrentnessInvalid, Err: err}
	}
	prefs, err := l.Preferences()
	if err != nil && !ignorePreference {
		return policy.Policies{}, &Failure{Reason: ReasonPreferencesInvalid, Err: err}
	}
	return policy.Describe(prefs, cur, policy.Options{IgnorePreference: ignorePreference}), nil
}
