package daemon

import (
	"crypto/subtle"
	"time"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/index/extract"
	"lwr/policy"
	"lwr/research/local"
)

// ProtocolVersion is the version of the daemon's requests and responses.
// A daemon answers only its own version; the client says how to fix a
// mismatch. Its messages are the types of this file, with their own JSON
// names: renaming a field of package index or local changes nothing on
// the wire (a round-trip test and a golden message hold it).
const ProtocolVersion = 4

// maxRequest bounds a request line.
const maxRequest = 1 << 20

// op is what a request asks of the daemon.
type op string

const (
	opSearch   op = "search"
	opPolicies op = "policies"
	opStatus   op = "status"
	opSkipped  op = "skipped"
	opStop     op = "stop"
	opSync     op = "sync"
)

// wireRequest is one call to the daemon, sent as one JSON line.
type wireRequest struct {
	V  int `json:"v"`
	Op op  `json:"op"`
	// Token proves the client may use the daemon where the transport
	// alone does not (loopback TCP on Windows).
	Token  string      `json:"token,omitempty"`
	Search *wireSearch `json:"search,omitempty"`
	// IgnorePreference is the policies request's.
	IgnorePreference bool `json:"ignore_preference,omitempty"`
	// Sync is the sync request's: sync now, as lwr index build would.
	Sync *SyncParams `json:"sync,omitempty"`
	// Schema is the index schema of the client (the version and the user
	// dictionary it analyzes with). A daemon of another one refuses
	// searches and syncs, which it would cut with other words.
	Schema string `json:"schema,omitempty"`
}

// SyncParams are the build options a sync request may ask for.
type SyncParams struct {
	Force bool `json:"force,omitempty"`
	Audit bool `json:"audit,omitempty"`
}

// wireSearch is a local.Request.
type wireSearch struct {
	Words            []wireWord `json:"words"`
	Mode             string     `json:"mode"`
	Limit            int        `json:"limit,omitempty"`
	MaxChars         int        `json:"max_chars,omitempty"`
	Synonyms         []string   `json:"synonyms,omitempty"`
	Exclude          []string   `json:"exclude,omitempty"`
	Only             []string   `json:"only,omitempty"`
	Explain          bool       `json:"explain,omitempty"`
	NoHighlights     bool       `json:"no_highlights,omitempty"`
	IgnorePreference bool       `json:"ignore_preference,omitempty"`
}

type wireWord struct {
	Text   string `json:"text"`
	Quoted bool   `json:"quoted,omitempty"`
}

// wireResponse is the daemon's answer, one JSON line (after the spaces
// it writes while it works).
type wireResponse struct {
	V        int               `json:"v"`
	OK       bool              `json:"ok"`
	Error    string            `json:"error,omitempty"`
	Code     string            `json:"code,omitempty"`
	Result   *wireResult       `json:"result,omitempty"`
	Status   *wireDaemonStatus `json:"status,omitempty"`
	Policies *policy.Policies  `json:"policies,omitempty"`
	Skipped  []index.Skip      `json:"skipped,omitempty"`
	Build    *wireBuild        `json:"build,omitempty"`
}

// The types of packages index, policy, edition and extract that the wire
// carries as they are are the JSON of lwr's own outputs (json-ext, index
// status --skipped), whose names are fixed already: policy.Ext,
// policy.Policies, edition.Edition, extract.Locator, index.Skip,
// index.WatchState.

// wireResult is a local.Result.
type wireResult struct {
	Root        string          `json:"root"`
	Mode        string          `json:"mode"`
	Matches     []wireMatch     `json:"matches"`
	Total       int             `json:"total"`
	Scanned     int             `json:"scanned"`
	Terms       []string        `json:"terms,omitempty"`
	Content     []string        `json:"content,omitempty"`
	Synonyms    []string        `json:"synonyms,omitempty"`
	Plan        string          `json:"plan,omitempty"`
	TookNS      int64           `json:"took_ns"`
	Words       []string        `json:"words,omitempty"`
	Annotations []policy.Ext    `json:"annotations"`
	Notes       []wireNote      `json:"notes"`
	Policies    policy.Policies `json:"policies"`
	Message     string          `json:"message"`
	Synced      time.Time       `json:"synced"`
	Stale       string          `json:"stale,omitempty"`
	Locations   []wireLocation  `json:"locations"`
}

// wireMatch is an index.Match.
type wireMatch struct {
	Path         string            `json:"path"`
	Score        float64           `json:"score"`
	Snippet      string            `json:"snippet"`
	StartLine    int               `json:"start_line"`
	EndLine      int               `json:"end_line"`
	ModTime      time.Time         `json:"mtime"`
	Highlights   [][2]int          `json:"highlights,omitempty"`
	Occurrences  int               `json:"occurrences,omitempty"`
	PassageStart int               `json:"passage_start,omitempty"`
	PassageEnd   int               `json:"passage_end,omitempty"`
	Passage      string            `json:"passage,omitempty"`
	Title        string            `json:"title,omitempty"`
	SHA256       string            `json:"sha256,omitempty"`
	Editions     []edition.Edition `json:"editions,omitempty"`
	Locator      *extract.Locator  `json:"locator,omitempty"`
	OwnMatch     bool              `json:"own_match,omitempty"`
	Also         []index.Excerpt   `json:"also,omitempty"`
	Kind         index.DocKind     `json:"kind,omitempty"`
	Answer       *index.Answer     `json:"answer,omitempty"`
	Explain      string            `json:"explain,omitempty"`
}

// wireNote is a local.Note.
type wireNote struct {
	Edition  string `json:"edition"`
	Relation string `json:"relation"`
	Records  string `json:"records,omitempty"`
}

// wireLocation is a local.Location.
type wireLocation struct {
	Format             string           `json:"format,omitempty"`
	Locator            *extract.Locator `json:"locator,omitempty"`
	Label              string           `json:"label,omitempty"`
	SuspiciousPatterns []string         `json:"suspicious_patterns,omitempty"`
}

// wireDaemonStatus is a local.DaemonStatus.
type wireDaemonStatus struct {
	PID     int              `json:"pid"`
	Started time.Time        `json:"started"`
	Root    string           `json:"root"`
	Dir     string           `json:"dir"`
	Index   wireIndexStatus  `json:"index"`
	Watch   index.WatchState `json:"watch"`
}

// wireIndexStatus is an index.Status.
type wireIndexStatus struct {
	Root     string    `json:"root"`
	Dir      string    `json:"dir"`
	Schema   string    `json:"schema"`
	Files    int       `json:"files"`
	Passages uint64    `json:"passages"`
	Skipped  int       `json:"skipped"`
	LastSync time.Time `json:"last_sync"`
	Ready    bool      `json:"ready"`
	Bytes    int64     `json:"bytes"`
}

// wireBuild is an index.BuildStats.
type wireBuild struct {
	Added     int    `json:"added"`
	Updated   int    `json:"updated"`
	Deleted   int    `json:"deleted"`
	Unchanged int    `json:"unchanged"`
	Skipped   int    `json:"skipped"`
	Read      int    `json:"read"`
	Files     int    `json:"files"`
	Passages  int    `json:"passages"`
	Audited   bool   `json:"audited,omitempty"`
	Rebuilt   string `json:"rebuilt,omitempty"`
	TookNS    int64  `json:"took_ns"`
}

// The conversions, both ways.

func toWireSearch(r local.Request) *wireSearch {
	w := &wireSearch{Mode: r.Mode.String(), Limit: r.Limit, MaxChars: r.MaxChars, Synonyms: r.Synonyms, Exclude: r.Exclude, Only: r.Only,
		Explain: r.Explain, NoHighlights: r.NoHighlights, IgnorePreference: r.IgnorePreference, Words: make([]wireWord, len(r.Query.Words))}
	for i, q := range r.Query.Words {
		w.Words[i] = wireWord(q)
	}
	return w
}

func fromWireSearch(w *wireSearch) (local.Request, error) {
	mode, err := index.ParseMode(w.Mode)
	if err != nil {
		return local.Request{}, local.Invalid(err)
	}
	r := local.Request{Mode: mode, Limit: w.Limit, MaxChars: w.MaxChars, Synonyms: w.Synonyms, Exclude: w.Exclude, Only: w.Only,
		Explain: w.Explain, NoHighlights: w.NoHighlights, IgnorePreference: w.IgnorePreference}
	for _, q := range w.Words {
		r.Query.Words = append(r.Query.Words, index.Word(q))
	}
	return r, nil
}

func toWireResult(r *local.Result) *wireResult {
	w := &wireResult{Root: r.Root, Words: r.Words, Annotations: r.Annotations, Policies: r.Policies, Message: r.Message, Synced: r.Synced, Stale: r.Stale}
	if ir := r.Result; ir != nil {
		w.Mode, w.Total, w.Scanned, w.Terms, w.Content, w.Synonyms, w.Plan, w.TookNS = ir.Mode.String(), ir.Total, ir.Scanned, ir.Terms, ir.Content, ir.Synonyms, ir.Plan, int64(ir.Took)
		for _, m := range ir.Matches {
			w.Matches = append(w.Matches, wireMatch(m))
		}
	}
	for _, n := range r.Notes {
		w.Notes = append(w.Notes, wireNote(n))
	}
	for _, l := range r.Locations {
		w.Locations = append(w.Locations, wireLocation{Format: l.Format, Locator: l.Locator, Label: l.Label, SuspiciousPatterns: l.SuspiciousPatterns})
	}
	return w
}

func fromWireResult(w *wireResult) (*local.Result, error) {
	mode, err := index.ParseMode(w.Mode)
	if err != nil {
		return nil, err
	}
	ir := &index.Result{Mode: mode, Total: w.Total, Scanned: w.Scanned, Terms: w.Terms, Content: w.Content, Synonyms: w.Synonyms, Plan: w.Plan, Took: time.Duration(w.TookNS)}
	for _, m := range w.Matches {
		ir.Matches = append(ir.Matches, index.Match(m))
	}
	r := &local.Result{Root: w.Root, Result: ir, Words: w.Words, Annotations: w.Annotations, Policies: w.Policies, Message: w.Message, Synced: w.Synced, Stale: w.Stale}
	for _, n := range w.Notes {
		r.Notes = append(r.Notes, local.Note(n))
	}
	for _, l := range w.Locations {
		r.Locations = append(r.Locations, local.Location{Format: l.Format, Locator: l.Locator, Label: l.Label, SuspiciousPatterns: l.SuspiciousPatterns})
	}
	return r, nil
}

func toWireStatus(d local.DaemonStatus) *wireDaemonStatus {
	return &wireDaemonStatus{PID: d.PID, Started: d.Started, Root: d.Root, Dir: d.Dir, Index: wireIndexStatus(d.Index), Watch: d.Watch}
}

func fromWireStatus(w *wireDaemonStatus) *local.DaemonStatus {
	return &local.DaemonStatus{PID: w.PID, Started: w.Started, Root: w.Root, Dir: w.Dir, Index: index.Status(w.Index), Watch: w.Watch}
}

func toWireBuild(s index.BuildStats) *wireBuild {
	return &wireBuild{Added: s.Added, Updated: s.Updated, Deleted: s.Deleted, Unchanged: s.Unchanged, Skipped: s.Skipped, Read: s.Read,
		Files: s.Files, Passages: s.Passages, Audited: s.Audited, Rebuilt: s.Rebuilt, TookNS: int64(s.Took)}
}

func fromWireBuild(w *wireBuild) index.BuildStats {
	return index.BuildStats{Added: w.Added, Updated: w.Updated, Deleted: w.Deleted, Unchanged: w.Unchanged, Skipped: w.Skipped, Read: w.Read,
		Files: w.Files, Passages: w.Passages, Audited: w.Audited, Rebuilt: w.Rebuilt, Took: time.Duration(w.TookNS)}
}

// tokenOK compares a request's token with the daemon's in constant time.
func tokenOK(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
