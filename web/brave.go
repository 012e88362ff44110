package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"lwr/config"
)

// Brave asks the Brave Search API (web search endpoint).
type Brave struct {
	endpoint *url.URL
	key      string
	client   *http.Client
	now      func() time.Time
}

// NewBrave returns the Brave provider. The key is cfg.APIKey, which
// config.Load reads from the variable cfg.APIKeyEnv names.
func NewBrave(cfg config.Brave, opts Options) (*Brave, error) {
	opts = opts.withDefaults()
	if strings.TrimSpace(cfg.APIKey) == "" {
		env := cfg.APIKeyEnv
		if env == "" {
			env = "BRAVE_API_KEY"
		}
		return nil, fmt.Errorf("the brave web provider has no API key; set the environment variable %s (named by web.brave.api_key_env)", env)
	}
	base := cfg.BaseURL
	if base == "" {
		base = "https://api.search.brave.com/res/v1/web/search"
	}
	u, err := httpEndpoint(base, "web.brave.base_url")
	if err != nil {
		return nil, err
	}
	return &Brave{endpoint: u, key: strings.TrimSpace(cfg.APIKey), client: opts.HTTPClient, now: opts.Now}, nil
}

// Name is "brave".
func (p *Brave) Name() string { return "brave" }

type braveAnswer struct {
	Query struct {
		Original string `json:"original"`
	} `json:"query"`
	Web struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
			Age         string `json:"age"`
			PageAge     string `json:"page_age"`
		} `json:"results"`
	} `json:"web"`
}

// braveLanguages maps locales to Brave's search_lang codes where they differ.
var braveLanguages = map[string]string{"ja": "jp", "zh": "zh-hans", "zh-cn": "zh-hans", "zh-tw": "zh-hant", "pt": "pt-br"}

// Search asks for up to MaxResults results in req.Locale.
func (p *Brave) Search(ctx context.Context, req Request) (Response, error) {
	u := *p.endpoint
	q := u.Query()
	q.Set("q", req.Query)
	q.Set("count", strconv.Itoa(MaxResults))
	if loc := strings.ToLower(req.Locale); loc != "" {
		lang, country, _ := strings.Cut(loc, "-")
		if l, ok := braveLanguages[loc]; ok {
			q.Set("search_lang", l)
		} else if l, ok := braveLanguages[lang]; ok {
			q.Set("search_lang", l)
		} else {
			q.Set("search_lang", lang)
		}
		if lang == "ja" && country == "" {
			country = "jp"
		}
		if country != "" {
			q.Set("country", strings.ToUpper(country))
		}
	}
	u.RawQuery = q.Encode()
	var ans braveAnswer
	h := http.Header{}
	h.Set("X-Subscription-Token", p.key)
	if err := getJSON(ctx, p.client, u.String(), h, &ans); err != nil {
		return Response{}, fmt.Errorf("%s: %w", p.endpoint.Host, err)
	}
	now := p.now()
	resp := Response{Status: StatusOK, Query: ans.Query.Original}
	for _, r := range ans.Web.Results {
		e := Entry{Title: r.Title, URL: r.URL, Snippet: r.Description, FetchedAt: now, Status: EntryOK, Engines: []string{p.Name()}}
		if t, ok := parseTime(r.PageAge); ok {
			e.Published = t
		} else if t, ok := parseAge(r.Age, now); ok {
			e.Published = t
		}
		e.Rank = len(resp.Entries) + 1
		resp.Entries = append(resp.Entries, e)
		if len(resp.Entries) == MaxResults {
			break
		}
	}
	if len(resp.Entries) == 0 {
		resp.Status = StatusEmpty
	}
	return resp, nil
}

var relativeAge = regexp.MustCompile(`^(\d+)\s+(minute|hour|day|week|month|year)s?\s+ago$`)

// parseAge reads Brave's age: "3 days ago" or a date.
func parseAge(s string, now time.Time) (time.Time, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if m := relativeAge.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n > 10000 {
			return time.Time{}, false
		}
		unit := map[string]time.Duration{"minute": time.Minute, "hour": time.Hour, "day": day, "week": 7 * day, "month": month, "year": year}[m[2]]
		return now.Add(-time.Duration(n) * unit).UTC(), true
	}
	if s == "" {
		return time.Time{}, false
	}
	return parseTime(strings.ToUpper(s[:1]) + s[1:])
}
