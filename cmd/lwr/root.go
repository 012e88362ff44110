package main

import (
	"cmp"
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
	"lwr/research/local/daemon"
	"lwr/web"
)

// globalOptions are the flags every command has, and the process's streams.
type globalOptions struct {
	configFile string
	sourceRoot string
	cacheDir   string
	verbose    bool
	// daemon: the process is the daemon, whose log (daemon.log) is read
	// after the fact and says what it did (syncs, stops), not only warnings.
	daemon bool

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
	return config.Load(config.Options{File: g.configFile, Environ: g.environ, Overrides: ov})
}

// logger is quiet (warnings only) unless --verbose.
func (g *globalOptions) logger() *slog.Logger {
	level := slog.LevelWarn
	if g.daemon {
		level = slog.LevelInfo
	}
	if g.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level}))
}

// indexOptions turns the configuration into the index's options: its
// folder, its rules and the analyzer built from search.user_dict.
func (g *globalOptions) indexOptions(cfg config.Config, role index.Role) (index.Options, error) {
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		return index.Options{}, fmt.Errorf("resolve the index folder of %s: %w", cfg.SourceRoot, err)
	}
	a, err := analyzer.FromConfig(cfg.Search)
	if err != nil {
		return index.Options{}, err
	}
	return index.Options{
		Analyzer: a,
		Root:     cfg.SourceRoot,
		Dir:      dir,
		Rules: index.Rules{
			Extensions:        cfg.Index.Extensions,
			Exclude:           cfg.Index.Exclude,
			MaxFileSize:       cfg.Index.MaxFileSize,
			MaxExtractedChars: cfg.Index.MaxExtractedChars,
		},
		AuditInterval: cfg.Index.AuditInterval,
		LockTimeout:   cfg.Index.LockTimeout,
		BatchBytes:    cfg.Index.BatchBytes,
		// 0 in the configuration is no limit.
		BuildMemoryLimit: cmp.Or(cfg.Index.BuildMemoryLimit, -1),
		Role:             role,
		Logger:           g.logger(),
	}, nil
}

// localOptions is how local searches reach the index of the configured
// source root: the daemon when it runs, else the index opened here, built
// first (with its progress on stderr) when search.auto_build allows, and
// a daemon left running after it when search.autostart says so.
func (g *globalOptions) localOptions(cfg config.Config) (daemon.Options, error) {
	ix, err := g.indexOptions(cfg, index.RoleAutoBuild)
	if err != nil {
		return daemon.Options{}, err
	}
	lo := local.Options{Index: ix, SynonymFile: cfg.Search.SynonymFile, NoThesaurus: !cfg.Search.Thesaurus, Search: cfg.Search, Flag: instructions, Logger: g.logger()}
	o := daemon.Options{Local: lo, Timeout: cfg.Search.DaemonTimeout, SyncWait: cfg.Search.SyncWait}
	o.OnSyncWait = func(st local.Status) {
		fmt.Fprintf(g.stderr, "lwr: the daemon%s is still building the index of %s%s; waiting up to %s (search.sync_wait)…\n",
			daemonWho(st), cfg.SourceRoot, syncProgress(st), cfg.Search.SyncWait)
	}
	if cfg.Search.AutoBuild {
		bo, finish := g.progress()
		o.Local.AutoBuild = &local.AutoBuild{
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
			return daemon.Options{}, err
		}
		o.Autostart = &d
	}
	return o, nil
}

// instructions are the patterns of text that address an agent, as the
// web sanitizer finds them.
func instructions(text string) []string {
	_, f := web.SanitizeText(text, len([]rune(text))+1)
	return f.SuspiciousPatterns
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
func (g *globalOptions) daemonStart(cfg config.Config, args []string, wait bool) (daemon.StartOptions, error) {
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		return daemon.StartOptions{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return daemon.StartOptions{}, err
	}
	if len(args) == 0 {
		args = []string{"--source-root", cfg.SourceRoot, "--cache-dir", cfg.CacheDir}
		if g.configFile != "" {
			args = append(args, "--config", g.configFile)
		}
		args = append(args, "index", "watch")
	}
	return daemon.StartOptions{Exe: exe, Args: args, Env: g.environ, Dir: dir, Wait: wait}, nil
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

// Argument checks that fail as usage errors (exit 2, invalid_input), as
// cobra's own do with the text it gives them.
func noArgs(cmd *cobra.Command, args []string) error { return usage(cobra.NoArgs(cmd, args)) }
func exactArgs(n int) cobra.PositionalArgs           { return argsUsage(cobra.ExactArgs(n)) }
func maxArgs(n int) cobra.PositionalArgs             { return argsUsage(cobra.MaximumNArgs(n)) }
func argsUsage(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usagef("%v; see %s --help", err, cmd.CommandPath())
		}
		return nil
	}
}

// group makes a command that only holds others answer an unknown one as a
// usage error, and its bare name with its help.
func group(c *cobra.Command) *cobra.Command {
	c.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("unknown command %q for %q; see %s --help", args[0], cmd.CommandPath(), cmd.CommandPath())
		}
		return nil
	}
	c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	return c
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
	group(root)
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
		// pflag's text of a bad number names Go's parser: say what the
		// flag takes instead (invalid argument "abc" for "--max-files"
		// flag: strconv.ParseInt: …).
		if i := strings.Index(msg, " flag: strconv."); i >= 0 {
			msg = msg[:i] + " flag: not a number"
		}
		if strings.Contains(c.Use, "QUERY") && strings.HasPrefix(msg, "unknown") {
			// A word of the query that starts with "-" reads as a flag.
			return usagef("%s; to search for a word that starts with -, put -- before the words: %s -- -word", msg, c.CommandPath())
		}
		return usagef("%s; see %s --help", msg, c.CommandPath())
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
