package config

import (
	"errors"
	"lwr/config/configtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(configtest.TempDir(t), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func origin(sources []Source, key string) string {
	for _, s := range sources {
		if s.Key == key {
			return s.Origin
		}
	}
	return ""
}

func TestLoadLayers(t *testing.T) {
	home := configtest.TempDir(t)
	file := write(t, "source_root: /from/file\nweb:\n  timeout: 3s\n  searxng:\n    base_url: http://file:1\nsearch:\n  max_files: 5\n")
	tests := []struct {
		name      string
		env       []string
		overrides []Override
		check     func(t *testing.T, c Config, s []Source)
	}{
		{
			name: "file over defaults",
			check: func(t *testing.T, c Config, s []Source) {
				if c.SourceRoot != "/from/file" || c.Web.Timeout != 3*time.Second || c.Search.MaxFiles != 5 || c.Search.MaxChars != 1200 {
					t.Errorf("got %+v", c)
				}
				if o := origin(s, "source_root"); o != "file "+file {
					t.Errorf("origin = %q", o)
				}
				if o := origin(s, "search.max_chars"); o != "default" {
					t.Errorf("origin = %q", o)
				}
			},
		},
		{
			name: "legacy env over file",
			env:  []string{"CC_LWR_SOURCE_ROOT=/legacy", "CC_LWR_QUERY_UNDERSTANDING=auto"},
			check: func(t *testing.T, c Config, s []Source) {
				if c.SourceRoot != "/legacy" || c.QueryUnderstanding != "auto" {
					t.Errorf("got %q %q", c.SourceRoot, c.QueryUnderstanding)
				}
				if o := origin(s, "source_root"); o != "env CC_LWR_SOURCE_ROOT" {
					t.Errorf("origin = %q", o)
				}
			},
		},
		{
			name: "LWR env over legacy env, nested keys and lists reach the struct",
			env:  []string{"CC_LWR_SOURCE_ROOT=/legacy", "LWR_SOURCE_ROOT=/new", "LWR_WEB_SEARXNG_BASE_URL=http://env:2", "LWR_WEB_PROVIDERS=searxng,exec", "LWR_INDEX_LOCK_TIMEOUT=5s"},
			check: func(t *testing.T, c Config, s []Source) {
				if c.SourceRoot != "/new" || c.Web.SearXNG.BaseURL != "http://env:2" || c.Index.LockTimeout != 5*time.Second {
					t.Errorf("got %+v", c)
				}
				if strings.Join(c.Web.Providers, "|") != "searxng|exec" {
					t.Errorf("providers = %q", c.Web.Providers)
				}
				if o := origin(s, "web.searxng.base_url"); o != "env LWR_WEB_SEARXNG_BASE_URL" {
					t.Errorf("origin = %q", o)
				}
			},
		},
		{
			name:      "flags over env",
			env:       []string{"LWR_SOURCE_ROOT=/new"},
			overrides: []Override{{Key: "source_root", Value: "/flag", Origin: "flag --source-root"}},
			check: func(t *testing.T, c Config, s []Source) {
				if c.SourceRoot != "/flag" || origin(s, "source_root") != "flag --source-root" {
					t.Errorf("got %q from %q", c.SourceRoot, origin(s, "source_root"))
				}
			},
		},
		{
			name: "home expanded, brave key read from the named variable and masked",
			env:  []string{"LWR_SOURCE_ROOT=~/docs", "MY_BRAVE=sekrit", "LWR_WEB_BRAVE_API_KEY_ENV=MY_BRAVE"},
			check: func(t *testing.T, c Config, s []Source) {
				if c.SourceRoot != filepath.Join(home, "docs") || c.Web.Brave.APIKey != "sekrit" {
					t.Errorf("got %q %q", c.SourceRoot, c.Web.Brave.APIKey)
				}
				for _, src := range s {
					if strings.Contains(src.Value, "sekrit") {
						t.Errorf("secret shown in %+v", src)
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := append([]string{"HOME=" + home}, tt.env...)
			c, s, err := Load(Options{File: file, Environ: env, Overrides: tt.overrides})
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c, s)
		})
	}
}

func TestLoadDefaultsWithoutFile(t *testing.T) {
	home := configtest.TempDir(t)
	c, _, err := Load(Options{Environ: []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "c")}})
	if err != nil {
		t.Fatal(err)
	}
	if c.SourceRoot != filepath.Join(home, "skill-source") || c.CacheDir != filepath.Join(home, "c", "lwr") {
		t.Errorf("got %q %q", c.SourceRoot, c.CacheDir)
	}
	if c.Research.OutputDir != "result/research" || c.Web.CacheFile == "" {
		t.Errorf("got %+v", c)
	}
}

func TestLoadErrors(t *testing.T) {
	home := configtest.TempDir(t)
	tests := []struct {
		name string
		file string
		env  []string
		want string
	}{
		{"bad yaml", "source_root: [\n", nil, "YAML"},
		{"unknown key", "sourc_root: /x\n", nil, "unknown key"},
		{"bad query understanding", "", []string{"CC_LWR_QUERY_UNDERSTANDING=maybe"}, "query_understanding"},
		{"bad duration", "", []string{"LWR_WEB_TIMEOUT=soon"}, "invalid configuration"},
		{"unknown provider", "", []string{"LWR_WEB_PROVIDERS=google"}, "unknown provider"},
		{"absolute output dir", "research:\n  output_dir: /abs\n", nil, "research.output_dir"},
		{"output dir outside the workspace", "research:\n  output_dir: ../elsewhere\n", nil, "research.output_dir"},
		{"bad exclude glob", "index:\n  exclude: ['[']\n", nil, "index.exclude"},
		{"no extraction budget", "index:\n  max_extracted_chars: 0\n", nil, "index.max_extracted_chars"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Environ: append([]string{"HOME=" + home}, tt.env...)}
			if tt.file != "" {
				opts.File = write(t, tt.file)
			}
			_, _, err := Load(opts)
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrInvalid mentioning %q", err, tt.want)
			}
		})
	}
	if _, _, err := Load(Options{File: filepath.Join(home, "missing.yaml"), Environ: []string{"HOME=" + home}}); err == nil {
		t.Error("an explicit missing config file must be an error")
	}
}
