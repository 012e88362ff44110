package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"lwr/index"
	"lwr/index/extract"
	"lwr/research/local"
	"lwr/research/local/daemon"
)

func newIndexCommand(g *globalOptions) *cobra.Command {
	c := group(&cobra.Command{Use: "index", Short: "Build and inspect the index of the source root",
		Example: "  lwr index build\n  lwr index status\n  lwr index watch --detach"})
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
		Use:     "build",
		Example: "  lwr --source-root ~/skill-source index build\n  lwr index build --audit\n  lwr index build --force",
		Short:   "Create or incrementally update the index of the source root",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIndexBuild(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runIndexBuild(ctx context.Context, opts buildOptions, g *globalOptions, out io.Writer) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	iopts, err := g.indexOptions(cfg, index.RoleBuild)
	if err != nil {
		return err
	}
	ix, err := index.Open(ctx, iopts)
	var le *index.LockedError
	if errors.As(err, &le) && le.Daemon() {
		return buildThroughDaemon(ctx, opts, g, out, cfg.SourceRoot, iopts.Dir, le)
	}
	if err != nil {
		return err
	}
	defer ix.Close()
	bo, finish := g.progress()
	bo.Force, bo.Audit = opts.force, opts.audit
	st, err := ix.Build(ctx, bo)
	finish()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, buildSummary(ix.Root(), st))
	return nil
}

// buildThroughDaemon asks the daemon that keeps the index to sync now and
// waits for it, showing its progress as a build of this process would.
func buildThroughDaemon(ctx context.Context, opts buildOptions, g *globalOptions, out io.Writer, root, dir string, le *index.LockedError) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	iopts, err := g.indexOptions(cfg, index.RoleBuild)
	if err != nil {
		return err
	}
	c, err := daemon.Dial(dir, iopts.Schema(), cfg.Search.DaemonTimeout)
	if err != nil {
		return le // the daemon holds the index but left no address
	}
	fmt.Fprintf(g.stderr, "lwr: the daemon (process %d) keeps this index; it syncs now…\n", le.PID)
	bo, finish := g.progress()
	started, done := false, 0
	st, err := c.Sync(ctx, daemon.SyncParams{Force: opts.force, Audit: opts.audit}, func(w index.WatchState) {
		if !w.Syncing || w.ToRead == 0 {
			return
		}
		if !started && bo.OnStart != nil {
			bo.OnStart(w.ToRead)
			started = true
		}
		for ; done < w.Done && bo.OnFile != nil; done++ {
			bo.OnFile("")
		}
	})
	finish()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, buildSummary(root, st))
	return nil
}

func buildSummary(root string, st index.BuildStats) string {
	s := fmt.Sprintf("indexed %s: %s (%d added, %d updated, %d deleted, %d unchanged", root, local.Files(st.Files), st.Added, st.Updated, st.Deleted, st.Unchanged)
	if st.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", st.Skipped)
	}
	s += fmt.Sprintf(") in %s", st.Took.Round(time.Millisecond))
	if st.Rebuilt != "" && st.Rebuilt != "new index" {
		s += "; rebuilt: " + st.Rebuilt
	}
	return s
}

type statusOptions struct {
	skipped bool
}

func newIndexStatusCommand(g *globalOptions) *cobra.Command {
	var opts statusOptions
	cmd := &cobra.Command{
		Use:     "status",
		Short:   "Show the source root, the index and its state",
		Example: "  lwr index status\n  lwr index status --skipped     # every file that is not indexed, and why",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIndexStatus(cmd.Context(), opts, g, g.stdout)
		},
	}
	cmd.Flags().BoolVar(&opts.skipped, "skipped", false, "list every file of the source root that is not indexed, with the reason")
	return cmd
}

func runIndexStatus(ctx context.Context, opts statusOptions, g *globalOptions, out io.Writer) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	lo, err := g.localOptions(cfg)
	if err != nil {
		return err
	}
	lo.Local.AutoBuild, lo.Autostart = nil, nil
	fmt.Fprintf(out, "source root:  %s\n", cfg.SourceRoot)
	if st, err := os.Stat(cfg.SourceRoot); err != nil || !st.IsDir() {
		fmt.Fprintf(out, "              (missing) %s\n", local.MissingRootSentence)
	}
	fmt.Fprintf(out, "index:        %s\n", lo.Local.Index.Dir)
	s, err := daemon.Open(ctx, lo)
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.Status(ctx)
	switch {
	case errors.Is(err, local.ErrNotAnswering):
		fmt.Fprintf(out, "daemon:       does not answer: %v\n", err)
		return nil
	case err != nil:
		return err
	}
	switch st.State {
	case local.StateNotIndexed:
		fmt.Fprintln(out, "state:        not indexed (run lwr index build)")
	case local.StateNeedsRebuild:
		fmt.Fprintf(out, "state:        %s; run lwr index build\n", st.Problem)
	case local.StateBusy:
		fmt.Fprintf(out, "state:        in use by %s\n", st.Holder)
		if st.Holder.Daemon() {
			fmt.Fprintln(out, "daemon:       running but does not answer; restart it with lwr index stop")
			return nil
		}
	}
	if st.Index != nil {
		printIndexStatus(out, *st.Index)
	}
	if st.Daemon == nil && st.Changed > 0 {
		fmt.Fprintf(out, "changes:      %s changed since the last sync; lwr index build (or the daemon) applies them\n", local.Files(st.Changed))
	}
	if st.Index != nil {
		sk, err := s.Skipped(ctx)
		if err != nil {
			return err
		}
		// What to install for the files a missing program keeps out.
		missing := 0
		for _, f := range sk {
			if extract.ToolMissingReason(f.Why) {
				missing++
			}
		}
		if missing > 0 {
			fmt.Fprintf(out, "not read:     %d PDF files: pdftotext is not installed; %s (then run lwr index build)\n", missing, extract.PDFInstall())
		}
		if opts.skipped {
			fmt.Fprintf(out, "skipped:      %s\n", local.Files(len(sk)))
			for _, f := range sk {
				fmt.Fprintf(out, "  %s  (%s)\n", f.Path, f.Why)
			}
		}
	}
	if st.Daemon == nil {
		fmt.Fprintln(out, "daemon:       not running")
		return nil
	}
	d, w := st.Daemon, st.Daemon.Watch
	fmt.Fprintf(out, "daemon:       running, pid %d, up %s, %s", d.PID, time.Since(d.Started).Round(time.Second), w.Mode)
	if w.Mode == "events" {
		fmt.Fprintf(out, ", %d folders watched", w.Watches)
	} else if w.Every > 0 {
		fmt.Fprintf(out, " every %s", w.Every)
	}
	fmt.Fprintf(out, ", %d changes queued", w.Pending)
	if w.Syncing {
		fmt.Fprint(out, ", syncing now")
	}
	fmt.Fprintln(out)
	if !w.LastChange.IsZero() {
		fmt.Fprintf(out, "last change:  %s (%s ago): %s\n", w.LastChange.Local().Format(time.RFC3339), time.Since(w.LastChange).Round(time.Second), w.Last)
	}
	if w.Why != "" {
		fmt.Fprintf(out, "polling:      %s\n", w.Why)
	}
	if w.Warning != "" {
		fmt.Fprintf(out, "warning:      %s\n", w.Warning)
	}
	return nil
}

func printIndexStatus(out io.Writer, st index.Status) {
	fmt.Fprintf(out, "schema:       %s\n", st.Schema)
	fmt.Fprintf(out, "documents:    %s, %d passages", local.Files(st.Files), st.Passages)
	if st.Skipped > 0 {
		fmt.Fprintf(out, " (%s skipped)", local.Files(st.Skipped))
	}
	fmt.Fprintln(out)
	if !st.LastSync.IsZero() {
		fmt.Fprintf(out, "last sync:    %s (%s ago)\n", st.LastSync.Local().Format(time.RFC3339), time.Since(st.LastSync).Round(time.Second))
	}
	fmt.Fprintf(out, "size on disk: %.1f MB\n", float64(st.Bytes)/1e6)
}
