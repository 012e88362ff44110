package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"lwr/config"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Sentinel errors; callers branch on them with errors.Is.
var (
	// ErrEmptyQuery is returned for a query with no words.
	ErrEmptyQuery = errors.New("the web query is empty")
	// ErrNoProviders is returned when no web provider is configured.
	ErrNoProviders = errors.New("no web providers are configured")
	// ErrOutputTooLarge is wrapped when a provider's answer is over its size limit.
	ErrOutputTooLarge = errors.New("output too large")
	// ErrInvalidOutput is wrapped when a provider's answer is not what it should be.
	ErrInvalidOutput = errors.New("invalid output")
)

// Limits that apply to everything that comes from outside (SPEC §6.3).
const (
	// MaxResults is the most results a provider may return and a Result holds.
	MaxResults = 10
	// MaxSnippetRunes is the longest snippet, in characters.
	MaxSnippetRunes = 2000
	// MaxTitleRunes is the longest title, in characters.
	MaxTitleRunes = 300
)

// Request is one web search. The same four fields make the cache key.
type Request struct {
	Query string
	// Intent sets the cache TTL; "" means IntentDefault.
	Intent Intent
	// MaxResults is how many merged results to keep (1–10; 0 means
	// config's web.max_results default, 5).
	MaxResults int
	// Locale is the language of the results, e.g. "ja".
	Locale string
}

// normalized returns the request with its defaults filled and the query
// cleaned of control characters and surrounding space.
func (r Request) normalized() Request {
	r.Query = strings.Join(strings.FieldsFunc(r.Query, func(c rune) bool {
		return unicode.IsSpace(c) || unicode.IsControl(c)
	}), " ")
	r.Intent = r.Intent.Normalized()
	if r.MaxResults <= 0 {
		r.MaxResults = config.DefaultWeb().MaxResults
	}
	r.MaxResults = min(r.MaxResults, MaxResults)
	r.Locale = strings.TrimSpace(r.Locale)
	return r
}

// Status is the outcome of a search, as in web_result.status.
type Status string

// The statuses of agent-output-schema.json web_result.
const (
	StatusOK      Status = "ok"      // every provider answered and there are results
	StatusPartial Status = "partial" // some provider failed or said its answer is partial
	StatusEmpty   Status = "empty"   // every provider answered, no usable result
	StatusError   Status = "error"   // every provider failed
)

func (s Status) String() string { return string(s) }

func (s Status) valid() bool {
	switch s {
	case StatusOK, StatusPartial, StatusEmpty, StatusError:
		return true
	}
	return false
}

// Entry statuses of agent-output-schema.json WebEntry.status.
const (
	EntryOK          = "ok"
	EntryFetchFailed = "fetch_failed"
)

// Entry is one web result. Title, URL, Snippet, FetchedAt and Status are
// the fields of the schema's WebEntry; the others are lwr's own.
type Entry struct {
	Title     string    `json:"title"`
	URL       string    `json:"url"`
	Snippet   string    `json:"snippet"`
	FetchedAt time.Time `json:"fetched_at"`
	Status    string    `json:"status"`

	// Published is when the page says it was published or updated, as the
	// provider reported it; zero when unknown. Never the fetch time.
	Published time.Time `json:"published_at,omitzero"`
	// Engines names every engine that found the URL: the provider's name,
	// or "provider:engine" when a meta-search provider (SearXNG) says which
	// of its engines found it.
	Engines []string `json:"engines,omitempty"`
	// Rank is the best 1-based position the URL had in a provider's list.
	Rank int `json:"rank,omitempty"`
	// Trust is the §6.2 score: +2 several engines, +1 official domain,
	// +1 dated recently.
	Trust int `json:"trust"`
	// TrustReasons explains Trust, e.g. "engines=2(+2)", "official(+1)".
	TrustReasons []string `json:"trust_reasons,omitempty"`
	// Freshness is the label of the topic's freshness policy.
	Freshness Freshness `json:"freshness"`
}

// Failure says which provider failed and why.
type Failure struct {
	Provider string `json:"provider"`
	Reason   string `json:"reason"`
}

func (f Failure) String() string { return f.Provider + ": " + f.Reason }

// Result is a merged, sanitized web search.
type Result struct {
	Query  string `json:"query"`
	Intent Intent `json:"intent,omitempty"`
	Status Status `json:"status"`
	// Entries are ordered by trust, then rank.
	Entries []Entry `json:"results"`
	// Providers are the providers that were asked, in order.
	Providers []string `json:"providers,omitempty"`
	// Failed lists the providers that failed or answered only in part.
	Failed []Failure `json:"failed,omitempty"`
	// Flags are the aggregate findings of sanitizing.
	Flags Flags `json:"aggregate_flags"`
	// Verdict is Flags.Verdict(), kept for the report.
	Verdict Verdict `json:"verdict"`
	// Topic chose the freshness policy.
	Topic Topic `json:"topic"`
	// StaleDropped counts results the freshness policy dropped.
	StaleDropped int `json:"stale_dropped,omitempty"`
	// Message is a provider's own error message, sanitized, when every
	// provider failed.
	Message string `json:"message,omitempty"`
	// SearchedAt is when the providers were asked.
	SearchedAt time.Time `json:"searched_at"`
}

// ErrorMessage is the web_result error_message: which providers failed and
// why, or "".
func (r *Result) ErrorMessage() string {
	var parts []string
	for _, f := range r.Failed {
		parts = append(parts, f.String())
	}
	if r.Message != "" && len(parts) == 0 {
		parts = append(parts, r.Message)
	}
	return strings.Join(parts, "; ")
}

// WebResult is exactly the web_result of agent-output-schema.json.
type WebResult struct {
	AgentType    string     `json:"agent_type"`
	Status       Status     `json:"status"`
	Results      []WebEntry `json:"results"`
	ErrorMessage string     `json:"error_message,omitempty"`
}

// WebEntry is exactly the WebEntry of agent-output-schema.json.
type WebEntry struct {
	Title     string `json:"title"`
	URL       string `json:"url"`
	Snippet   string `json:"snippet"`
	FetchedAt string `json:"fetched_at"`
	Status    string `json:"status"`
}

// WebResult returns the result in the schema's web_result form, with no
// property the schema does not allow.
func (r *Result) WebResult() WebResult {
	w := WebResult{AgentType: "web", Status: r.Status, Results: []WebEntry{}, ErrorMessage: r.ErrorMessage()}
	for _, e := range r.Entries {
		st := e.Status
		if st != EntryFetchFailed {
			st = EntryOK
		}
		w.Results = append(w.Results, WebEntry{
			Title:     e.Title,
			URL:       e.URL,
			Snippet:   e.Snippet,
			FetchedAt: e.FetchedAt.UTC().Format(time.RFC3339),
			Status:    st,
		})
	}
	return w
}

// Response is what one provider returns before sanitizing and merging.
type Response struct {
	// Status is the provider's own status; "" is derived from Entries.
	Status Status
	// Entries are in the provider's order, unsanitized.
	Entries []Entry
	// Query is the query the provider says it searched for; "" when it
	// does not say. A different query sets Flags.QueryMismatch.
	Query string
	// Message is the provider's error or partial message, unsanitized.
	Message string
	// Malformed counts entries that could not be read; they count as
	// dropped results.
	Malformed int
}

// wireResult is a web_result as agents write it; read leniently.
type wireResult struct {
	AgentType     string            `json:"agent_type"`
	Status        string            `json:"status"`
	Results       []json.RawMessage `json:"results"`
	ErrorMessage  string            `json:"error_message"`
	Query         string            `json:"query"`
	ReportedQuery string            `json:"reported_query"`
}

type wireEntry struct {
	Title         string `json:"title"`
	URL           string `json:"url"`
	Snippet       string `json:"snippet"`
	FetchedAt     string `json:"fetched_at"`
	Status        string `json:"status"`
	PublishedAt   string `json:"published_at"`
	PublishedDate string `json:"publishedDate"`
	Date          string `json:"date"`
}

// ParseWebResult reads a web_result JSON document (as printed by an agent
// or an exec command) into a Response. It is lenient where it can be: a
// bare array of entries is accepted, unknown properties are ignored, an
// entry that cannot be read (or whose fetched_at is not a date) is counted
// in Malformed; a missing fetched_at is now. It fails when the
// document is not JSON, not an object or array, or names another agent type.
func ParseWebResult(data []byte, now time.Time) (Response, error) {
	data = bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\xef\xbb\xbf"))
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Response{}, fmt.Errorf("%w: no JSON (empty output)", ErrInvalidOutput)
	}
	var w wireResult
	switch data[0] {
	case '[':
		if err := json.Unmarshal(data, &w.Results); err != nil {
			return Response{}, fmt.Errorf("%w: not a JSON array of results: %v", ErrInvalidOutput, err)
		}
	case '{':
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&w); err != nil {
			return Response{}, fmt.Errorf("%w: not web_result JSON: %v", ErrInvalidOutput, err)
		}
		if dec.More() {
			return Response{}, fmt.Errorf("%w: more than one JSON value; print one web_result object", ErrInvalidOutput)
		}
	default:
		return Response{}, fmt.Errorf("%w: not JSON (starts with %q); print one web_result object", ErrInvalidOutput, firstRunes(string(data), 20))
	}
	if w.AgentType != "" && w.AgentType != "web" {
		return Response{}, fmt.Errorf("%w: agent_type is %q, not \"web\"", ErrInvalidOutput, firstRunes(w.AgentType, 40))
	}
	resp := Response{Status: Status(w.Status), Query: w.Query, Message: w.ErrorMessage}
	if resp.Query == "" {
		resp.Query = w.ReportedQuery
	}
	if w.Status != "" && !resp.Status.valid() {
		return Response{}, fmt.Errorf("%w: status %q is not ok, partial, empty or error", ErrInvalidOutput, firstRunes(w.Status, 40))
	}
	for _, raw := range w.Results {
		var we wireEntry
		if err := json.Unmarshal(raw, &we); err != nil {
			resp.Malformed++
			continue
		}
		e := Entry{Title: we.Title, URL: we.URL, Snippet: we.Snippet, Status: we.Status, FetchedAt: now}
		if t, ok := parseTime(we.FetchedAt); ok {
			e.FetchedAt = t
		} else if strings.TrimSpace(we.FetchedAt) != "" {
			// A date that cannot be read is not replaced by today's: the
			// report would show a reference date nobody gave.
			resp.Malformed++
			continue
		}
		for _, d := range []string{we.PublishedAt, we.PublishedDate, we.Date} {
			if t, ok := parseTime(d); ok {
				e.Published = t
				break
			}
		}
		resp.Entries = append(resp.Entries, e)
	}
	return resp, nil
}

// parseTime reads the date forms providers use.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05",
		"2006-01-02 15:04:05",
		"2006-01-02T15:04:05.999999",
		"2006-01-02",
		"2006/01/02",
		"January 2, 2006",
		"Jan 2, 2006",
		"2 January 2006",
		"2006年1月2日",
	} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func firstRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// addEngine appends name to list unless it is there.
func addEngine(list []string, names ...string) []string {
	for _, n := range names {
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}
