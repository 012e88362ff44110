package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"lwr/index"
	"lwr/research/local/daemon"
)

type watchOptions struct {
	poll   time.Duration
	detach bool
}

func (o *watchOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&o.poll, "poll", 0, "rescan the tree at this interval instead of listening for events (network and synced folders), e.g. 5s")
	cmd.Flags().BoolVar(&o.detach, "detach", false, "run in the background; the log goes to daemon.log in the index folder")
}

func (o *watchOptions) Check() error {
	if o.poll < 0 || o.poll > 0 && o.poll < 100*time.Millisecond {
		return usagef("--poll is %s; use at least 100ms", o.poll)
	}
	return nil
}

func newIndexWatchCommand(g *globalOptions) *cobra.Command {
	var opts watchOptions
	cmd := &cobra.Command{
		Use:     "watch",
		Example: "  lwr index watch --detach\n  lwr index watch --poll 5s\n  lwr --source-root G:/マイドライブ/資料 index watch --detach",
		Short:   "Run the daemon: keep the index current as files change and answer searches",
		Long: "Sync the index once, then watch the whole source root and apply changes within about a second;\n" +
			"rescan everything every 10 minutes, and when events overflow. Searches and status requests are\n" +
			"answered on a local socket in the index folder (owner only). SIGINT or SIGTERM stop it cleanly.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWatch(cmd.Context(), opts, *g, g.stdout, os.Args[1:])
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

// detachArgs are the arguments of the detached daemon: these, without --detach.
func detachArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if a != "--detach" && a != "--detach=true" {
			out = append(out, a)
		}
	}
	return out
}

// runWatch runs the daemon in the foreground, or with --detach starts it
// in the background (with the arguments of this command line) and returns
// once it answers.
func runWatch(ctx context.Context, opts watchOptions, g globalOptions, out io.Writer, cmdline []string) error {
	if err := opts.Check(); err != nil {
		return err
	}
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	if opts.detach {
		d, err := g.daemonStart(cfg, detachArgs(cmdline), true)
		if err != nil {
			return err
		}
		pid, err := daemon.Start(ctx, d)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "lwr: daemon started for %s (pid %d, log %s)\n", cfg.SourceRoot, pid, d.Dir+string(os.PathSeparator)+"daemon.log")
		return nil
	}
	// A daemon's log is read after the fact: Bleve's own warnings belong
	// in it.
	log.SetOutput(libraryLog{&g, true})
	g.daemon = true
	lo, err := g.localOptions(cfg)
	if err != nil {
		return err
	}
	lo.Local.Index.Role = index.RoleWatch
	// The first SIGINT/SIGTERM (ctx) stops the daemon cleanly; a second
	// one stops it at once.
	abort, stopAbort := context.WithCancel(context.Background())
	defer stopAbort()
	go func() {
		select {
		case <-ctx.Done():
		case <-abort.Done():
			return
		}
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
		select {
		case <-sig:
			stopAbort()
		case <-abort.Done():
		}
	}()
	err = daemon.Run(ctx, daemon.RunOptions{
		Local: lo.Local, Poll: opts.poll, RemotePoll: cfg.Index.RemotePoll, Logger: lo.Local.Logger, Abort: abort,
		Listening: func(root, endpoint string) {
			fmt.Fprintf(g.stderr, "lwr: daemon for %s (pid %d) on %s\n", root, os.Getpid(), endpoint)
		},
	})
	switch {
	case errors.Is(err, daemon.ErrAborted):
		return context.Canceled
	case errors.Is(err, context.Canceled):
		return nil
	}
	return err
}

func newIndexStopCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "stop",
		Example: "  lwr index stop\n  lwr --source-root G:/マイドライブ/資料 index stop",
		Short:   "Stop the daemon of the source root",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIndexStop(cmd.Context(), g, g.stdout)
		},
	}
}

func runIndexStop(ctx context.Context, g *globalOptions, out io.Writer) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	dir, err := index.DirFor(cfg.CacheDir, cfg.SourceRoot)
	if err != nil {
		return err
	}
	pid, err := daemon.Stop(ctx, dir, cfg.Search.DaemonTimeout)
	switch {
	case errors.Is(err, daemon.ErrNoDaemon):
		fmt.Fprintf(out, "lwr: no daemon is running for %s\n", cfg.SourceRoot)
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "lwr: daemon stopped (process %d)\n", pid)
	return nil
}
