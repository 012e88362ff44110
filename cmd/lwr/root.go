package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"lwr/config"
	"lwr/index"
)

// globalOptions are the flags every command has, and the process's streams.
type globalOptions struct {
	configFile string
	sourceRoot string
	cacheDir   string
	verbose    bool

	// libraryWarnings logs what libraries write to the standard logger as
	// warnings; otherwise they are debug records (see libraryLog).
	libraryWarnings bool

	stdout, stderr io.Writer
	// environ is the environment; nil means the process environment.
	environ []string
}

func (g *globalOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.configFile, "config", "", "configuration file (default $XDG_CONFIG_HOME/lwr/config.yaml)")
	fs.StringVar(&g.sourceRoot, "source-root", "", "folder of the documents (env CC_LWR_SOURCE_ROOT, default ~/skill-source)")
	fs.StringVar(&g.cacheDir, "cache-dir", "", "folder for the index and the web cache (env LWR_CACHE_DIR, default ~/.cache/lwr)")
	fs.BoolVarP(&g.verbose, "verbose", "v", false, "log what is done, file by file")
}

// load builds the configuration: file, environment, then these flags and
// the command's own overrides.
func (g *globalOptions) load(cmd *cobra.Command, extra ...config.Override) (config.Config, []config.Source, error) {
	var ov []config.Override
	if f := cmd.Flags().Lookup("source-root"); f != nil && f.Changed {
		ov = append(ov, config.Override{Key: "source_root", Value: g.sourceRoot, Origin: "flag --source-root"})
	}
	if f := cmd.Flags().Lookup("cache-dir"); f != nil && f.Changed {
		ov = append(ov, config.Override{Key: "cache_dir", Value: g.cacheDir, Origin: "flag --cache-dir"})
	}
	ov = append(ov, extra...)
	return config.Load(config.Options{File: g.configFile, Environ: g.environ, Overrides: ov})
}

// logger is quiet (warnings only) unless --verbose.
func (g *globalOptions) logger() *slog.Logger {
	level := slog.LevelWarn
	if g.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level}))
}

// indexOptions turns the configuration into the index's options.
func (g *globalOptions) indexOptions(cfg config.Config, role index.Role) (index.Options, error) {
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		return index.Options{}, fmt.Errorf("resolve the index folder of %s: %w", cfg.SourceRoot, err)
	}
	return index.Options{
		Root: cfg.SourceRoot,
		Dir:  dir,
		Rules: index.Rules{
			Extensions:  cfg.Index.Extensions,
			Exclude:     cfg.Index.Exclude,
			MaxFileSize: cfg.Index.MaxFileSize,
		},
		AuditInterval: cfg.Index.AuditInterval,
		LockTimeout:   cfg.Index.LockTimeout,
		BatchBytes:    cfg.Index.BatchBytes,
		Role:          role,
		Logger:        g.logger(),
	}, nil
}

// lockedWriter serialises writes: the research pipeline logs from its web
// goroutine while the local search reports on the same stream.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// stderrIsTerminal reports whether progress can be drawn.
func (g *globalOptions) stderrIsTerminal() bool {
	w := g.stderr
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (g *globalOptions) stdoutIsTerminal() bool {
	f, ok := g.stdout.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newRootCommand(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:           "lwr",
		Short:         "Search and research a folder of (Japanese) documents and the web",
		Long:          "lwr indexes a folder of documents with a Japanese morphological analyzer, answers ranked and\nexact searches with line-exact citations, and runs research that writes a validated report.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	if _, ok := g.stderr.(*lockedWriter); !ok {
		g.stderr = &lockedWriter{w: g.stderr}
	}
	root.SetOut(g.stdout)
	root.SetErr(g.stderr)
	g.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error() + "; see lwr --help"} })
	root.AddCommand(
		newIndexCommand(g),
		newSearchCommand(g),
		newConfigCommand(g),
		newWebCommand(g),
		newResearchCommand(g),
		newValidateCommand(g),
		newFinalizeCommand(g),
	)
	return root
}
