package research

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"lwr/analyzer"
	"lwr/config"
	"lwr/research/understand"
	"lwr/web"
)

// Configure returns the options of a research as the configuration sets
// them: the source root, the limits, query understanding (with the user's
// synonym dictionary when it is on), the configured web providers with the
// web cache, and the deep-drill's keyword cache. The caller adds the query,
// the local searcher and what its command line says. environ is the
// environment the exec provider runs in (nil: this process's).
func Configure(cfg config.Config, environ []string, log *slog.Logger) (Options, error) {
	mode, err := understand.ParseMode(cfg.QueryUnderstanding)
	if err != nil {
		return Options{}, fmt.Errorf("%w: %v", config.ErrInvalid, err)
	}
	o := Options{
		SourceRoot:    cfg.SourceRoot,
		Understanding: mode,
		MaxResults:    cfg.Web.MaxResults,
		Locale:        cfg.Web.Locale,
		Logger:        log,
		LocalLimit:    Limit{Files: cfg.Research.LocalMaxFiles, Chars: cfg.Research.LocalMaxChars},
		DeepLimit:     Limit{Files: cfg.Research.DeepMaxFiles, Chars: cfg.Research.DeepMaxChars},
		Keywords:      NewKeywordCache(filepath.Join(cfg.CacheDir, "research-keywords"), nil),
	}
	// The analyzer of the configuration (its user dictionary): the
	// deep-drill's keywords and the understanding's synonyms are cut as
	// the index cuts them.
	a, err := analyzer.FromConfig(cfg.Search)
	if err != nil {
		return Options{}, err
	}
	o.Tokenizer = a
	if mode != understand.Off {
		if o.Dictionary, err = analyzer.LoadSynonyms(cfg.Search.SynonymFile, a); err != nil {
			return Options{}, err
		}
	}
	if len(cfg.Web.Providers) > 0 {
		s, err := web.New(cfg.Web, web.Options{Environ: environ, Logger: log})
		if err != nil {
			return Options{}, fmt.Errorf("%w: %v", config.ErrInvalid, err)
		}
		o.Web = s
		o.Cache = func(readOnly bool) (WebCache, error) {
			c, err := web.OpenCache(cfg.CacheDir, cfg.Web.CacheFile, web.CacheOptions{ReadOnly: readOnly, Timeout: web.DefaultCacheLockTimeout, Logger: log})
			if err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	return o, nil
}
