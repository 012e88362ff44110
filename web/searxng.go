package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"lwr/config"
)

// maxHTTPBody bounds what an HTTP provider reads.
const maxHTTPBody = 4 << 20

// SearXNG asks a SearXNG instance's JSON API (format=json must be enabled
// in its settings.yml).
type SearXNG struct {
	endpoint *url.URL
	client   *http.Client
	now      func() time.Time
}

// NewSearXNG returns the provider for cfg.BaseURL.
func NewSearXNG(cfg config.SearXNG, opts Options) (*SearXNG, error) {
	opts = opts.withDefaults()
	u, err := httpEndpoint(cfg.BaseURL, "web.searxng.base_url")
	if err != nil {
		return nil, err
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/search"
	return &SearXNG{endpoint: u, client: opts.HTTPClient, now: opts.Now}, nil
}

// Name is "searxng".
func (p *SearXNG) Name() string { return "searxng" }

type searxngAnswer struct {
	Query   string `json:"query"`
	Results []struct {
		URL           string   `json:"url"`
		Title         string   `json:"title"`
		Content       string   `json:"content"`
		Engine        string   `json:"engine"`
		Engines       []string `json:"engines"`
		PublishedDate *string  `json:"publishedDate"`
	} `json:"results"`
	UnresponsiveEngines [][]any `json:"unresponsive_engines"`
}

// Search asks for the first page of results in req.Locale.
func (p *SearXNG) Search(ctx context.Context, req Request) (Response, error) {
	u := *p.endpoint
	q := u.Query()
	q.Set("q", req.Query)
	q.Set("format", "json")
	q.Set("pageno", "1")
	if req.Locale != "" {
		q.Set("language", req.Locale)
	}
	u.RawQuery = q.Encode()
	var ans searxngAnswer
	if err := getJSON(ctx, p.client, u.String(), nil, &ans); err != nil {
		return Response{}, fmt.Errorf("%s: %w", p.endpoint.Host, err)
	}
	now := p.now()
	resp := Response{Status: StatusOK, Query: ans.Query}
	for _, r := range ans.Results {
		e := Entry{Title: r.Title, URL: r.URL, Snippet: r.Content, FetchedAt: now, Status: EntryOK}
		engines := r.Engines
		if len(engines) == 0 && r.Engine != "" {
			engines = []string{r.Engine}
		}
		for _, en := range engines {
			e.Engines = addEngine(e.Engines, p.Name()+":"+en)
		}
		if len(e.Engines) == 0 {
			e.Engines = []string{p.Name()}
		}
		if r.PublishedDate != nil {
			if t, ok := parseTime(*r.PublishedDate); ok {
				e.Published = t
			}
		}
		e.Rank = len(resp.Entries) + 1
		resp.Entries = append(resp.Entries, e)
		if len(resp.Entries) == MaxResults {
			break
		}
	}
	var down []string
	for _, ue := range ans.UnresponsiveEngines {
		if len(ue) > 0 {
			down = append(down, fmt.Sprint(ue...))
		}
	}
	switch {
	case len(resp.Entries) > 0:
		if len(down) > 0 {
			resp.Message = "unresponsive engines: " + strings.Join(down, ", ")
		}
	case len(down) > 0:
		resp.Status = StatusError
		resp.Message = "no results; unresponsive engines: " + strings.Join(down, ", ")
	default:
		resp.Status = StatusEmpty
	}
	return resp, nil
}

// httpEndpoint checks a configured base URL.
func httpEndpoint(raw, key string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, fmt.Errorf("%s is empty; set it to the URL of the service", key)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s is %q; set it to an http:// or https:// URL", key, raw)
	}
	return u, nil
}

// errHTTPStatus is wrapped for a non-2xx answer.
var errHTTPStatus = errors.New("unexpected HTTP status")

// getJSON GETs u and decodes a JSON answer of at most maxHTTPBody bytes.
func getJSON(ctx context.Context, client *http.Client, u string, header http.Header, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "lwr (local web research)")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said by the caller
		}
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody+1))
	if err != nil {
		return fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%w %s: %s", errHTTPStatus, resp.Status, statusHint(resp.StatusCode))
	}
	if len(body) > maxHTTPBody {
		return fmt.Errorf("answer over %d bytes: %w", maxHTTPBody, ErrOutputTooLarge)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: answer is not the expected JSON: %v", ErrInvalidOutput, err)
	}
	return nil
}

func statusHint(code int) string {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return "the service refused the request; check the API key or that the JSON format is enabled"
	case http.StatusTooManyRequests:
		return "rate limited; try again later"
	case http.StatusNotFound:
		return "no search endpoint there; check the base URL"
	}
	if code >= 500 {
		return "the service failed; try again later"
	}
	return "unexpected answer"
}
