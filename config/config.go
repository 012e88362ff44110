package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	"lwr/config/glob"
)

// Config is the effective configuration of one lwr invocation.
type Config struct {
	SourceRoot         string   `mapstructure:"source_root"`
	CacheDir           string   `mapstructure:"cache_dir"`
	QueryUnderstanding string   `mapstructure:"query_understanding"`
	Index              Index    `mapstructure:"index"`
	Search             Search   `mapstructure:"search"`
	Web                Web      `mapstructure:"web"`
	Research           Research `mapstructure:"research"`
}

// Index configures what is indexed and how the index is maintained.
type Index struct {
	// Extensions lists the file name extensions that are indexed.
	Extensions []string `mapstructure:"extensions"`
	// Exclude lists path patterns that are never indexed, in lwr's one
	// dialect (package config/glob, .gitignore's): "drafts" leaves out
	// every folder (and file) named drafts, "/drafts" the top one only,
	// "*.bak" every .bak file, "規程/**/旧*.md" old editions under 規程.
	Exclude []string `mapstructure:"exclude"`
	// MaxFileSize is the largest file, in bytes, that is indexed.
	MaxFileSize int64 `mapstructure:"max_file_size"`
	// MaxExtractedChars bounds the characters of text one PDF or Office
	// document may be extracted to (each shared string, slide and part
	// counted every time it is used); a document that makes more is
	// skipped, with why.
	MaxExtractedChars int64 `mapstructure:"max_extracted_chars"`
	// AuditInterval is how often a build re-hashes every file.
	AuditInterval time.Duration `mapstructure:"audit_interval"`
	// LockTimeout is how long a command waits for another writer.
	LockTimeout time.Duration `mapstructure:"lock_timeout"`
	// BatchBytes bounds the text analyzed in one index batch.
	BatchBytes int `mapstructure:"batch_bytes"`
	// BuildMemoryLimit is the soft limit of lwr's memory while it builds
	// (Go's runtime/debug.SetMemoryLimit): the collector works harder as
	// the build nears it, and it is restored afterwards; 0 leaves the
	// runtime's default, and GOMEMLIMIT in the environment wins.
	BuildMemoryLimit int64 `mapstructure:"build_memory_limit"`
	// RemotePoll is how often the daemon rescans a source root on a
	// network drive or Google Drive for desktop, which send no trustworthy
	// change notifications.
	RemotePoll time.Duration `mapstructure:"remote_poll"`
}

// Search holds the defaults of `lwr search`.
type Search struct {
	MaxFiles int `mapstructure:"max_files"`
	MaxChars int `mapstructure:"max_chars"`
	// SynonymFile is an optional user synonym dictionary (JSON object of
	// word → list of synonyms), merged with the embedded default one.
	SynonymFile string `mapstructure:"synonym_file"`
	// UserDict is an optional list of in-house words the analyzer must
	// not split (one word a line, "word,reading" too); changing it
	// rebuilds the index.
	UserDict string `mapstructure:"user_dict"`
	// Thesaurus adds SudachiDict's synonym groups below the dictionary's
	// synonyms (on by default).
	Thesaurus bool `mapstructure:"thesaurus"`
	// AutoBuild builds the index on the first search of a root that has none.
	AutoBuild bool `mapstructure:"auto_build"`
	// Autostart leaves a daemon (lwr index watch --detach) running after a
	// search that found none, so that the next searches are fast.
	Autostart bool `mapstructure:"autostart"`
	// DaemonTimeout bounds a search through the daemon.
	DaemonTimeout time.Duration `mapstructure:"daemon_timeout"`
	// SyncWait is how long a search waits for a daemon that is still
	// building the index (its first sync) before it gives up.
	SyncWait time.Duration `mapstructure:"sync_wait"`
}

// Web configures the web search providers and the web cache.
type Web struct {
	Providers       []string      `mapstructure:"providers"`
	Timeout         time.Duration `mapstructure:"timeout"`
	MaxResults      int           `mapstructure:"max_results"`
	Locale          string        `mapstructure:"locale"`
	SearXNG         SearXNG       `mapstructure:"searxng"`
	Brave           Brave         `mapstructure:"brave"`
	Exec            Exec          `mapstructure:"exec"`
	File            File          `mapstructure:"file"`
	OfficialDomains []string      `mapstructure:"official_domains"`
	// CacheFile is the bbolt web cache; relative names live in CacheDir.
	CacheFile string `mapstructure:"cache_file"`
}

// SearXNG configures the SearXNG JSON API provider.
type SearXNG struct {
	BaseURL string `mapstructure:"base_url"`
}

// Brave configures the Brave Search API provider.
type Brave struct {
	// APIKeyEnv names the environment variable that holds the API key.
	APIKeyEnv string `mapstructure:"api_key_env"`
	// APIKey is the key itself, read from APIKeyEnv by Load; never shown.
	APIKey  string `mapstructure:"-"`
	BaseURL string `mapstructure:"base_url"`
}

// Exec configures the provider that runs a command to search the web.
type Exec struct {
	// Command is an argv list; "{query}" in any element is replaced by the
	// query. It is never passed through a shell.
	Command  []string `mapstructure:"command"`
	MaxBytes int      `mapstructure:"max_bytes"`
}

// File configures the provider that reads results an agent already fetched.
type File struct {
	Path string `mapstructure:"path"`
}

// Research configures `lwr research`.
type Research struct {
	// OutputDir is where reports are written, relative to the workspace.
	OutputDir string `mapstructure:"output_dir"`
	// LocalMaxFiles and LocalMaxChars bound the local search of Phase B;
	// DeepMaxFiles and DeepMaxChars the deep-drill's search of Phase C.
	LocalMaxFiles int `mapstructure:"local_max_files"`
	LocalMaxChars int `mapstructure:"local_max_chars"`
	DeepMaxFiles  int `mapstructure:"deep_max_files"`
	DeepMaxChars  int `mapstructure:"deep_max_chars"`
}

// Override is one value set on the command line; it wins over everything else.
type Override struct {
	Key    string // configuration key, e.g. "source_root"
	Value  string
	Origin string // shown by `lwr config show`, e.g. "flag --source-root"
}

// Options says where Load looks.
type Options struct {
	// File is an explicit configuration file; empty means the default
	// location, which may be missing.
	File string
	// Environ is the environment as KEY=VALUE pairs; nil means os.Environ().
	Environ []string
	// Overrides are command-line values, applied last.
	Overrides []Override
}

// Source tells where one effective value came from.
type Source struct {
	Key    string
	Value  string
	Origin string
}

// legacyEnv maps the environment names kept for compatibility with the
// research skill to their keys. LWR_* names win over them.
var legacyEnv = map[string]string{
	"source_root":         "CC_LWR_SOURCE_ROOT",
	"cache_dir":           "CC_LWR_CACHE_DIR",
	"query_understanding": "CC_LWR_QUERY_UNDERSTANDING",
}

// ErrInvalid is wrapped by every validation error of Load.
var ErrInvalid = errors.New("invalid configuration")

// Defaults returns the configuration used when nothing else is set.
func Defaults(env Env) Config {
	return Config{
		SourceRoot:         filepath.Join(env.Home(), "skill-source"),
		CacheDir:           filepath.Join(env.CacheHome(), "lwr"),
		QueryUnderstanding: "off",
		Index:              DefaultIndex(),
		Search:             DefaultSearch(),
		Web:                DefaultWeb(),
		Research:           DefaultResearch(),
	}
}

// DefaultIndex is the index part of Defaults; the index package's zero
// options follow it.
func DefaultIndex() Index {
	return Index{
		Extensions:  []string{".md", ".markdown", ".txt", ".text", ".rst", ".json", ".csv", ".tsv", ".yaml", ".yml", ".pdf", ".docx", ".xlsx", ".pptx", ".doc", ".xls", ".ppt"},
		MaxFileSize: 8 << 20,
		// Twice max_file_size, in characters (six times its bytes
		// of Japanese text).
		MaxExtractedChars: 2 * 8 << 20,
		AuditInterval:     24 * time.Hour,
		LockTimeout:       2 * time.Second,
		BatchBytes:        1 << 20,
		BuildMemoryLimit:  176 << 20,
		RemotePoll:        30 * time.Second,
	}
}

// DefaultSearch is the search part of Defaults; a search's zero options
// follow it.
func DefaultSearch() Search {
	return Search{MaxFiles: 8, MaxChars: 1200, AutoBuild: true, Thesaurus: true, DaemonTimeout: 3 * time.Second, SyncWait: time.Minute}
}

// DefaultWeb is the web part of Defaults.
func DefaultWeb() Web {
	return Web{
		Timeout:         10 * time.Second,
		MaxResults:      5,
		Locale:          "ja",
		SearXNG:         SearXNG{BaseURL: "http://127.0.0.1:8888"},
		Brave:           Brave{APIKeyEnv: "BRAVE_API_KEY", BaseURL: "https://api.search.brave.com/res/v1/web/search"},
		Exec:            Exec{MaxBytes: 1 << 20},
		OfficialDomains: []string{"go.jp", "lg.jp"},
		CacheFile:       "web-cache.db",
	}
}

// DefaultResearch is the research part of Defaults: the limits of its
// local search (Phase B) and of the deep-drill (Phase C) are the research
// skill's.
func DefaultResearch() Research {
	return Research{OutputDir: "result/research", LocalMaxFiles: 8, LocalMaxChars: 800, DeepMaxFiles: 5, DeepMaxChars: 600}
}

// Load builds the effective configuration: defaults, then the file, then the
// environment, then the overrides. It returns the configuration and, for
// each key, where its value came from.
func Load(opts Options) (Config, []Source, error) {
	env := NewEnv(opts.Environ)
	def := Defaults(env)
	v := viper.New()
	v.SetConfigType("yaml")
	keys := keysOf(reflect.TypeOf(def), "")
	defMap := flatten(def)
	for _, k := range keys {
		v.SetDefault(k, defMap[k])
	}
	origin := make(map[string]string, len(keys))
	for _, k := range keys {
		origin[k] = "default"
	}

	file, explicit := opts.File, opts.File != ""
	if !explicit {
		file = env.Get("LWR_CONFIG")
		explicit = file != ""
	}
	if !explicit {
		file = filepath.Join(env.ConfigHome(), "lwr", "config.yaml")
	}
	file = env.ExpandHome(file)
	data, err := os.ReadFile(file)
	switch {
	case err == nil:
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return Config{}, nil, fmt.Errorf("%w: read config file %s: %v; fix the YAML syntax or pass another file with --config", ErrInvalid, file, err)
		}
		if unknown := unknownKeys(v.AllKeys(), keys); len(unknown) > 0 {
			return Config{}, nil, fmt.Errorf("%w: config file %s has unknown key %q; see `lwr config show` for the known keys", ErrInvalid, file, unknown[0])
		}
		for _, k := range keys {
			if v.InConfig(k) {
				origin[k] = "file " + file
			}
		}
	case errors.Is(err, os.ErrNotExist) && !explicit:
		// No file at the default place is the normal case.
	default:
		return Config{}, nil, fmt.Errorf("%w: read config file %s: %v", ErrInvalid, file, err)
	}

	for _, k := range keys {
		name := "LWR_" + strings.ToUpper(strings.ReplaceAll(k, ".", "_"))
		if val, ok := env.Lookup(name); ok {
			v.Set(k, val)
			origin[k] = "env " + name
			continue
		}
		if legacy, ok := legacyEnv[k]; ok {
			if val, ok := env.Lookup(legacy); ok {
				v.Set(k, val)
				origin[k] = "env " + legacy
			}
		}
	}
	for _, o := range opts.Overrides {
		if _, ok := origin[o.Key]; !ok {
			return Config{}, nil, fmt.Errorf("%w: unknown key %q", ErrInvalid, o.Key)
		}
		v.Set(o.Key, o.Value)
		origin[o.Key] = o.Origin
	}

	if err := checkTypes(v, flatten(def), origin); err != nil {
		return Config{}, nil, err
	}
	var cfg Config
	hook := mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(),
		mapstructure.StringToSliceHookFunc(","),
	)
	if err := v.Unmarshal(&cfg, viper.DecodeHook(hook)); err != nil {
		return Config{}, nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	cfg.SourceRoot = env.ExpandHome(cfg.SourceRoot)
	cfg.CacheDir = env.ExpandHome(cfg.CacheDir)
	cfg.Search.SynonymFile = env.ExpandHome(cfg.Search.SynonymFile)
	cfg.Search.UserDict = env.ExpandHome(cfg.Search.UserDict)
	cfg.Web.File.Path = env.ExpandHome(cfg.Web.File.Path)
	if cfg.Web.Brave.APIKeyEnv != "" {
		cfg.Web.Brave.APIKey = env.Get(cfg.Web.Brave.APIKeyEnv)
	}
	if err := cfg.validate(origin); err != nil {
		return Config{}, nil, err
	}

	eff := flatten(cfg)
	sources := make([]Source, 0, len(keys))
	for _, k := range keys {
		sources = append(sources, Source{Key: k, Value: display(k, eff[k]), Origin: origin[k]})
	}
	return cfg, sources, nil
}

func (c *Config) validate(origin map[string]string) error {
	bad := func(key, format string, args ...any) error {
		return fmt.Errorf("%w: %s (from %s) %s", ErrInvalid, key, origin[key], fmt.Sprintf(format, args...))
	}
	switch c.QueryUnderstanding {
	case "off", "auto", "always":
	default:
		return bad("query_understanding", "is %q; use off, auto or always", c.QueryUnderstanding)
	}
	if c.SourceRoot == "" {
		return bad("source_root", "is empty; set it to the folder of your documents")
	}
	if c.CacheDir == "" {
		return bad("cache_dir", "is empty; set it to a folder lwr may write to")
	}
	if c.Search.MaxFiles < 0 {
		return bad("search.max_files", "is %d; use a positive number", c.Search.MaxFiles)
	}
	if c.Search.MaxChars < 40 {
		return bad("search.max_chars", "is %d; use at least 40", c.Search.MaxChars)
	}
	if c.Search.DaemonTimeout <= 0 {
		return bad("search.daemon_timeout", "is %s; use a duration such as 3s", c.Search.DaemonTimeout)
	}
	if c.Search.SyncWait < 0 {
		return bad("search.sync_wait", "is %s; use a duration such as 1m (0: do not wait)", c.Search.SyncWait)
	}
	if c.Index.MaxFileSize <= 0 {
		return bad("index.max_file_size", "is %d; use a size in bytes", c.Index.MaxFileSize)
	}
	if c.Index.MaxExtractedChars <= 0 {
		return bad("index.max_extracted_chars", "is %d; use a number of characters, such as %d", c.Index.MaxExtractedChars, 2*c.Index.MaxFileSize)
	}
	if c.Index.LockTimeout <= 0 {
		return bad("index.lock_timeout", "is %s; use a duration such as 2s", c.Index.LockTimeout)
	}
	if c.Index.RemotePoll < time.Second {
		return bad("index.remote_poll", "is %s; use at least 1s, such as 30s", c.Index.RemotePoll)
	}
	if c.Index.BatchBytes < 64<<10 {
		return bad("index.batch_bytes", "is %d; use at least 65536", c.Index.BatchBytes)
	}
	if l := c.Index.BuildMemoryLimit; l != 0 && l < 64<<20 {
		return bad("index.build_memory_limit", "is %d; use 0 (none) or at least 67108864 (64 MiB)", l)
	}
	for i, e := range c.Index.Extensions {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			return bad("index.extensions", "has an empty entry")
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		c.Index.Extensions[i] = e
	}
	for _, p := range c.Index.Exclude {
		if err := glob.Check(p); err != nil {
			return bad("index.exclude", "has the pattern %v", err)
		}
	}
	if c.Web.Timeout <= 0 {
		return bad("web.timeout", "is %s; use a duration such as 10s", c.Web.Timeout)
	}
	if c.Web.MaxResults <= 0 || c.Web.MaxResults > 10 {
		return bad("web.max_results", "is %d; use 1 to 10", c.Web.MaxResults)
	}
	for _, p := range c.Web.Providers {
		switch p {
		case "searxng", "brave", "exec", "file":
		default:
			return bad("web.providers", "names the unknown provider %q; use searxng, brave, exec or file", p)
		}
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"research.local_max_files", c.Research.LocalMaxFiles}, {"research.deep_max_files", c.Research.DeepMaxFiles}} {
		if n.v < 1 || n.v > 50 {
			return bad(n.key, "is %d; use 1 to 50", n.v)
		}
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"research.local_max_chars", c.Research.LocalMaxChars}, {"research.deep_max_chars", c.Research.DeepMaxChars}} {
		if n.v < 40 {
			return bad(n.key, "is %d; use at least 40", n.v)
		}
	}
	if od := filepath.ToSlash(filepath.Clean(c.Research.OutputDir)); c.Research.OutputDir == "" || filepath.IsAbs(c.Research.OutputDir) ||
		filepath.VolumeName(c.Research.OutputDir) != "" || strings.HasPrefix(od, "/") || od == ".." || strings.HasPrefix(od, "../") {
		return bad("research.output_dir", "is %q; use a folder inside the workspace, relative to it", c.Research.OutputDir)
	}
	return nil
}

// keysOf lists the dotted keys of a config struct type, leaves only.
func keysOf(t reflect.Type, prefix string) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("mapstructure")
		if tag == "" || tag == "-" {
			continue
		}
		key := prefix + tag
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)) {
			keys = append(keys, keysOf(f.Type, key+".")...)
			continue
		}
		keys = append(keys, key)
	}
	return keys
}

// flatten returns the leaf values of a config struct by dotted key.
func flatten(c Config) map[string]any {
	out := map[string]any{}
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("mapstructure")
			if tag == "" || tag == "-" {
				continue
			}
			fv := v.Field(i)
			if f.Type.Kind() == reflect.Struct {
				walk(fv, prefix+tag+".")
				continue
			}
			out[prefix+tag] = fv.Interface()
		}
	}
	walk(reflect.ValueOf(c), "")
	return out
}

// checkTypes reads every text value (from the environment, a flag, or
// quoted in the file) as its key's type, so that a bad one is named with
// where it came from instead of the decoder's words.
func checkTypes(v *viper.Viper, defaults map[string]any, origin map[string]string) error {
	bad := func(key, val, what string, example any) error {
		return fmt.Errorf("%w: %s (from %s) is %q, not %s; use e.g. %s", ErrInvalid, key, origin[key], val, what, display(key, example))
	}
	keys := make([]string, 0, len(defaults))
	for k := range defaults {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		d := defaults[key]
		val, ok := v.Get(key).(string)
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch d.(type) {
		case time.Duration:
			if _, err := time.ParseDuration(val); err != nil {
				return bad(key, val, "a duration", d)
			}
		case int, int64:
			if _, err := strconv.ParseInt(val, 10, 64); err != nil {
				return bad(key, val, "a whole number", d)
			}
		case bool:
			if _, err := strconv.ParseBool(val); err != nil {
				return bad(key, val, "true or false", d)
			}
		}
	}
	return nil
}

func unknownKeys(have, known []string) []string {
	k := make(map[string]bool, len(known))
	for _, s := range known {
		k[s] = true
	}
	var out []string
	for _, s := range have {
		if !k[s] {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// display renders a value for `lwr config show`, masking secrets.
func display(key string, v any) string {
	lk := strings.ToLower(key)
	for _, w := range []string{"password", "secret", "token", "api_key"} {
		if strings.Contains(lk, w) && !strings.HasSuffix(lk, "_env") {
			if s := fmt.Sprint(v); s != "" {
				return "********"
			}
		}
	}
	switch x := v.(type) {
	case []string:
		return "[" + strings.Join(x, ", ") + "]"
	case time.Duration:
		return x.String()
	}
	return fmt.Sprint(v)
}
