package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"lwr/config"
	"lwr/config/configtest"
	"lwr/web"
	"lwr/web/webtest"
)

var conformanceOpts = web.Options{Now: webtest.Now}

func TestSearXNGConformance(t *testing.T) {
	webtest.Provider(t, func(t *testing.T, fix webtest.Fixture) web.Provider {
		var results []searxngResult
		for _, r := range fix.Results {
			sr := searxngResult{URL: r.URL, Title: r.Title, Content: r.Snippet, Engines: []string{"google"}}
			if !r.Published.IsZero() {
				sr.PublishedDate = date(r.Published)
			}
			results = append(results, sr)
		}
		srv, _ := fakeSearXNG(t, results)
		p, err := web.NewSearXNG(config.SearXNG{BaseURL: srv.URL}, conformanceOpts)
		if err != nil {
			t.Fatal(err)
		}
		return p
	})
}

func TestBraveConformance(t *testing.T) {
	webtest.Provider(t, func(t *testing.T, fix webtest.Fixture) web.Provider {
		var results []braveResult
		for _, r := range fix.Results {
			br := braveResult{Title: r.Title, URL: r.URL, Description: r.Snippet}
			if !r.Published.IsZero() {
				br.PageAge = r.Published.Format("2006-01-02T15:04:05")
			}
			results = append(results, br)
		}
		srv := fakeBrave(t, "k", results, false)
		p, err := web.NewBrave(config.Brave{APIKey: "k", BaseURL: srv.URL}, conformanceOpts)
		if err != nil {
			t.Fatal(err)
		}
		return p
	})
}

func TestExecConformance(t *testing.T) {
	webtest.Provider(t, func(t *testing.T, fix webtest.Fixture) web.Provider {
		opts := conformanceOpts
		opts.Environ = helperEnviron("results", "LWR_WEB_HELPER_JSON="+string(fix.WebResult()))
		p, err := web.NewExec(config.Exec{Command: helperCommand("{query}")}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return p
	})
}

func TestFileConformance(t *testing.T) {
	webtest.Provider(t, func(t *testing.T, fix webtest.Fixture) web.Provider {
		path := filepath.Join(configtest.TempDir(t), "results.json")
		if err := os.WriteFile(path, fix.WebResult(), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := web.NewFile(config.File{Path: path}, conformanceOpts)
		if err != nil {
			t.Fatal(err)
		}
		return p
	})
}
