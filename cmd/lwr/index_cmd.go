package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/index"
	"lwr/research"
)

// missingRootMessage is the guidance for a source root that does not exist.
const missingRootMessage = "設定されたローカル資料ディレクトリが見つかりません。--source-root または CC_LWR_SOURCE_ROOT と資料配置を確認してください"

func newIndexCommand(g *globalOptions) *cobra.Command {
	c := &cobra.Command{Use: "index", Short: "Build and inspect the index of the source root"}
	c.AddCommand(newIndexBuildCommand(g), newIndexStatusCommand(g), newIndexWatchCommand(g), newIndexStopCommand(g))
	return c
}

type buildOptions struct {
	force bool
	audit bool
}

func (o *buildOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.force, "force", false, "rebuild the index from scratch")
	cmd.Flags().BoolVar(&o.audit, "audit", false, "re-read and re-hash every file, whatever its mtime and size")
}

func newIndexBuildCommand(g *globalOptions) *cobra.Command {
	var opts buildOptions
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Create or incrementally update the index of the source root",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := g.load(cmd)
			if err != nil {
				return err
			}
			return runIndexBuild(cmd.Context(), opts, g, cfg, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runIndexBuild(ctx context.Context, opts buildOptions, g *globalOptions, cfg config.Config, out io.Writer) error {
	iopts, err := g.indexOptions(cfg, index.RoleBuild)
	if err != nil {
		return err
	}
	ix, err := openWriter(ctx, iopts)
	if err != nil {
		return err
	}
	defer ix.Close()
	st, err := build(ctx, g, ix, index.BuildOptions{Force: opts.force, Audit: opts.audit})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, buildSummary(ix.Root(), st))
	return nil
}

// openWriter opens the index for writing, with the user-facing errors.
func openWriter(ctx context.Context, iopts index.Options) (*index.Index, error) {
	ix, err := index.Open(ctx, iopts)
	if errors.Is(err, index.ErrNoRoot) {
		return nil, usageError{missingRootMessage + " (" + iopts.Root + ")"}
	}
	return ix, err
}

// build runs a build with a progress bar on a terminal.
func build(ctx context.Context, g *globalOptions, ix *index.Index, bo index.BuildOptions) (index.BuildStats, error) {
	var bar *progressbar.ProgressBar
	log := g.logger()
	bo.OnSkip = func(rel, why string) { log.Debug("skipped", "path", rel, "why", why) }
	if g.stderrIsTerminal() {
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
	} else if g.verbose {
		bo.OnFile = func(rel string) { log.Debug("read", "path", rel) }
	}
	st, err := ix.Build(ctx, bo)
	if bar != nil {
		_ = bar.Finish()
	}
	return st, err
}

func buildSummary(root string, st index.BuildStats) string {
	s := fmt.Sprintf("indexed %s: %d files (%d added, %d updated, %d deleted, %d unchanged", root, st.Files, st.Added, st.Updated, st.Deleted, st.Unchanged)
	if st.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", st.Skipped)
	}
	s += fmt.Sprintf(") in %s", st.Took.Round(time.Millisecond))
	if st.Rebuilt != "" && st.Rebuilt != "new index" {
		s += "; rebuilt: " + st.Rebuilt
	}
	return s
}

func newIndexStatusCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the source root, the index and its state",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := g.load(cmd)
			if err != nil {
				return err
			}
			return runIndexStatus(cmd.Context(), g, cfg, g.stdout)
		},
	}
}

func runIndexStatus(ctx context.Context, g *globalOptions, cfg config.Config, out io.Writer) error {
	iopts, err := g.indexOptions(cfg, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "source root:  %s\n", cfg.SourceRoot)
	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		fmt.Fprintf(out, "              (missing) %s\n", missingRootMessage)
	}
	fmt.Fprintf(out, "index:        %s\n", iopts.Dir)
	if cl, err := research.Dial(iopts.Dir, cfg.Search.DaemonTimeout); err == nil {
		ds, err := cl.Status(ctx)
		if err != nil && !errors.Is(err, research.ErrNoDaemon) {
			fmt.Fprintf(out, "daemon:       does not answer %s: %v\n", holderOf(iopts.Dir), err)
			return nil
		}
		if err == nil {
			printIndexStatus(out, ds.Index)
			w := ds.Watch
			fmt.Fprintf(out, "daemon:       running, pid %d, up %s, %s", ds.PID, time.Since(ds.Started).Round(time.Second), w.Mode)
			if w.Mode == "events" {
				fmt.Fprintf(out, ", %d folders watched", w.Watches)
			}
			fmt.Fprintf(out, ", %d changes queued", w.Pending)
			if w.Syncing {
				fmt.Fprint(out, ", syncing now")
			}
			fmt.Fprintln(out)
			if !w.LastChange.IsZero() {
				fmt.Fprintf(out, "last change:  %s (%s ago): %s\n", w.LastChange.Local().Format(time.RFC3339), time.Since(w.LastChange).Round(time.Second), w.Last)
			}
			if w.Warning != "" {
				fmt.Fprintf(out, "warning:      %s\n", w.Warning)
			}
			return nil
		}
	}
	ix, err := index.OpenReader(ctx, iopts)
	var le *index.LockedError
	switch {
	case errors.Is(err, index.ErrNoRoot):
		return usageError{missingRootMessage + " (" + cfg.SourceRoot + ")"}
	case errors.Is(err, index.ErrNotIndexed):
		fmt.Fprintln(out, "state:        not indexed (run lwr index build)")
		fmt.Fprintln(out, "daemon:       not running")
		return nil
	case errors.Is(err, index.ErrNeedsRebuild):
		fmt.Fprintf(out, "state:        %v; run lwr index build\n", err)
		fmt.Fprintln(out, "daemon:       not running")
		return nil
	case errors.As(err, &le):
		fmt.Fprintf(out, "state:        in use by process %d (%s)\n", le.PID, le.Role)
		if le.Daemon() {
			fmt.Fprintln(out, "daemon:       running but does not answer; restart it with lwr index stop")
		}
		return nil
	case err != nil:
		return err
	}
	defer ix.Close()
	st, err := ix.Status()
	if err != nil {
		return err
	}
	printIndexStatus(out, st)
	fmt.Fprintln(out, "daemon:       not running")
	return nil
}

func printIndexStatus(out io.Writer, st index.Status) {
	fmt.Fprintf(out, "schema:       %s\n", st.Schema)
	fmt.Fprintf(out, "documents:    %d files, %d passages", st.Files, st.Passages)
	if st.Skipped > 0 {
		fmt.Fprintf(out, " (%d files skipped)", st.Skipped)
	}
	fmt.Fprintln(out)
	if !st.LastSync.IsZero() {
		fmt.Fprintf(out, "last sync:    %s (%s ago)\n", st.LastSync.Local().Format(time.RFC3339), time.Since(st.LastSync).Round(time.Second))
	}
	fmt.Fprintf(out, "size on disk: %.1f MB\n", float64(st.Bytes)/1e6)
}
