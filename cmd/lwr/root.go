package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/research/local"
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

	stdin          io.Reader
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

// load builds the configuration: file, environment, then the global
// flags and the command's own overrides.
func (g *globalOptions) load(extra ...config.Override) (config.Config, []config.Source, error) {
	var ov []config.Override
	if g.sourceRoot != "" {
		ov = append(ov, config.Override{Key: "source_root", Value: g.sourceRoot, Origin: "flag --source-root"})
	}
	if g.cacheDir != "" {
		ov = append(ov, config.Override{Key: "cache_dir", Value: g.cacheDir, Origin: "flag --cache-dir"})
	}
	ov = append(ov, extra...)
	cfg, src, err := config.Load(config.Options{File: g.configFile, Environ: g.environ, Overrides: ov})
	if err != nil {
		return cfg, src, err
	}
	// The in-house words the analyzer keeps whole, before it analyzes.
	if err := analyzer.UseUserDict(cfg.Search.UserDict); err != nil {
		return cfg, src, err
	}
	return cfg, src, nil
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
			Extensions:        cfg.Index.Extensions,
			Exclude:           cfg.Index.Exclude,
			MaxFileSize:       cfg.Index.MaxFileSize,
			MaxExtractedChars: cfg.Index.MaxExtractedChars,
		},
		AuditInterval: cfg.Index.AuditInterval,
		LockTimeout:   cfg.Index.LockTimeout,
		BatchBytes:    cfg.Index.BatchBytes,
		Role:          role,
		Logger:        g.logger(),
	}, nil
}

// localOptions is how local searches reach the index of the configured
// source root: the daemon when it runs, else the index opened here, built
// first (with its progress on stderr) when search.auto_build allows, and
// a daemon left running after it when search.autostart says so.
func (g *globalOptions) localOptions(cfg config.Config) (local.Options, error) {
	ix, err := g.indexOptions(cfg, index.RoleAutoBuild)
	if err != nil {
		return local.Options{}, err
	}
	o := local.Options{Index: ix, SynonymFile: cfg.Search.SynonymFile, NoThesaurus: !cfg.Search.Thesaurus, DaemonTimeout: cfg.Search.DaemonTimeout, SyncWait: cfg.Search.SyncWait, Logger: g.logger()}
	o.OnSyncWait = func(st local.Status) {
		fmt.Fprintf(g.stderr, "lwr: the daemon%s is still building the index of %s%s; waiting up to %s (search.sync_wait)…\n",
			daemonWho(st), cfg.SourceRoot, syncProgress(st), cfg.Search.SyncWait)
	}
	if cfg.Search.AutoBuild {
		bo, finish := g.progress()
		o.AutoBuild = &local.AutoBuild{
			Before: func(root string, why error) {
				fmt.Fprintf(g.stderr, "lwr: indexing %s first (%v)…\n", root, why)
			},
			Progress: bo,
			After: func(root string, st index.BuildStats) {
				finish()
				fmt.Fprintln(g.stderr, "lwr: "+buildSummary(root, st))
			},
		}
	}
	if cfg.Search.Autostart {
		d, err := g.daemonStart(cfg, nil, false)
		if err != nil {
			return local.Options{}, err
		}
		o.Autostart = &d
	}
	return o, nil
}

// daemonWho names the daemon of a status: " (process N)".
func daemonWho(st local.Status) string {
	if st.Daemon == nil {
		return ""
	}
	return fmt.Sprintf(" (process %d)", st.Daemon.PID)
}

// syncProgress is a daemon's sync progress: " (120 of 1,814 files read)".
func syncProgress(st local.Status) string {
	if st.Daemon == nil || st.Daemon.Watch.ToRead == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of %d files read)", st.Daemon.Watch.Done, st.Daemon.Watch.ToRead)
}

// daemonStart is how this lwr starts the daemon of the configured root:
// `lwr index watch` with args (by default the root, the cache folder and
// the configuration file of this command).
func (g *globalOptions) daemonStart(cfg config.Config, args []string, wait bool) (local.DaemonStart, error) {
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		return local.DaemonStart{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return local.DaemonStart{}, err
	}
	if len(args) == 0 {
		args = []string{"--source-root", cfg.SourceRoot, "--cache-dir", cfg.CacheDir}
		if g.configFile != "" {
			args = append(args, "--config", g.configFile)
		}
		args = append(args, "index", "watch")
	}
	return local.DaemonStart{Exe: exe, Args: args, Env: g.environ, Dir: dir, Wait: wait}, nil
}

// progress draws a build's progress bar on a terminal, and logs the files
// with --verbose; finish takes the bar away.
func (g *globalOptions) progress() (bo index.BuildOptions, finish func()) {
	var bar *progressbar.ProgressBar
	log := g.logger()
	bo.OnSkip = func(rel, why string) { log.Debug("skipped", "path", rel, "why", why) }
	switch {
	case g.stderrIsTerminal():
		bo.OnStart = func(n int) {
			if n < 50 {
				return
			}
			bar = progressbar.NewOptions(n,
				progressbar.OptionSetWriter(g.stderr),
				progressbar.OptionSetDescription("indexing"),
				progressbar.OptionShowCount(),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		bo.OnFile = func(string) {
			if bar != nil {
				_ = bar.Add(1)
			}
		}
	case g.verbose:
		bo.OnFile = func(rel string) { log.Debug("read", "path", rel) }
	}
	return bo, func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
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

// stdoutIsTerminal reports whether the output goes to a terminal that
// shows colour (a Windows console with VT sequences on).
func (g *globalOptions) stdoutIsTerminal() bool {
	f, ok := g.stdout.(*os.File)
	return ok && colorTerminal(f)
}

func newRootCommand(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:           "lwr",
		Short:         "Search and research a folder of (Japanese) documents and the web",
		Long:          "lwr indexes a folder of documents with a Japanese morphological analyzer, answers ranked and\nexact searches with line-exact citations, and runs research that writes a validated report.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
	}
	root.SetVersionTemplate("lwr {{.Version}}\n")
	if _, ok := g.stderr.(*lockedWriter); !ok {
		g.stderr = &lockedWriter{w: g.stderr}
	}
	if g.stdin == nil {
		g.stdin = os.Stdin
	}
	root.SetIn(g.stdin)
	root.SetOut(g.stdout)
	root.SetErr(g.stderr)
	g.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		msg := err.Error()
		if strings.Contains(c.Use, "QUERY") && strings.HasPrefix(msg, "unknown") {
			// A word of the query that starts with "-" reads as a flag.
			return usageError{msg + "; to search for a word that starts with -, put -- before the words: " + c.CommandPath() + " -- -word"}
		}
		return usageError{msg + "; see " + c.CommandPath() + " --help"}
	})
	root.AddCommand(
		newIndexCommand(g),
		newSearchCommand(g),
		newConfigCommand(g),
		newWebCommand(g),
		newResearchCommand(g),
		newDeepCommand(g),
		newValidateCommand(g),
		newFinalizeCommand(g),
		newReadCommand(g),
		newMCPCommand(g),
		newSkillCommand(g),
	)
	return root
}
