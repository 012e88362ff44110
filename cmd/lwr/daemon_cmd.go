package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/research"
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
		Use:   "watch",
		Short: "Run the daemon: keep the index current as files change and answer searches",
		Long: "Sync the index once, then watch the whole source root and apply changes within about a second;\n" +
			"rescan everything every 10 minutes, and when events overflow. Searches and status requests are\n" +
			"answered on a unix socket in the index folder (owner only). SIGINT or SIGTERM stop it cleanly.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Check(); err != nil {
				return err
			}
			cfg, _, err := g.load(cmd)
			if err != nil {
				return err
			}
			if opts.detach {
				return startDaemon(g, cfg, true, detachArgs(os.Args[1:])...)
			}
			return runWatch(cmd.Context(), opts, g, cfg)
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

func runWatch(ctx context.Context, opts watchOptions, g *globalOptions, cfg config.Config) error {
	// A daemon's log is read after the fact: Bleve's own warnings belong in it.
	g.libraryWarnings = true
	iopts, err := g.indexOptions(cfg, index.RoleWatch)
	if err != nil {
		return err
	}
	log := iopts.Logger
	ix, err := openWriter(ctx, iopts)
	if err != nil {
		var le *index.LockedError
		if errors.As(err, &le) && le.Daemon() {
			return busyf("a daemon for %s is already running (process %d); stop it with lwr index stop", cfg.SourceRoot, le.PID)
		}
		return err
	}
	defer ix.Close()
	ln, err := research.Listen(ix.Dir())
	if err != nil {
		return err
	}
	sock := ln.Addr().String()
	defer os.Remove(sock)
	dict, err := analyzer.LoadSynonyms(cfg.Search.SynonymFile)
	if err != nil {
		return usageError{err.Error()}
	}
	// Load the dictionary now: the first search must not pay for it.
	go func() { _ = analyzer.Default().Preload() }()
	// The first SIGINT/SIGTERM (ctx) stops accepting work; the watch
	// finishes its batch and the server drains; a second signal exits now.
	run, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
			log.Info("stopping")
			stop()
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
			<-sig
			os.Remove(sock)
			os.Exit(exitCanceled)
		case <-run.Done():
		}
	}()
	srv := research.NewServer(ix, research.ServerOptions{Root: ix.Root(), Dictionary: dict, Stop: stop, Render: render, Logger: log})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(run, ln, 5*time.Second) }()
	fmt.Fprintf(g.stderr, "lwr: daemon for %s (pid %d) on %s\n", ix.Root(), os.Getpid(), sock)
	werr := ix.Watch(run, index.WatchOptions{
		Poll: opts.poll,
		OnSync: func(st index.BuildStats, err error) {
			if err == nil {
				srv.MarkReady()
			}
			// A sync allocates a lot and then idles: give the memory back.
			debug.FreeOSMemory()
		},
	})
	srv.MarkReady()
	stop()
	if err := <-served; err != nil && werr == nil {
		werr = err
	}
	if werr != nil {
		return werr
	}
	log.Info("stopped")
	return nil
}

// startDaemon starts `lwr index watch` in the background, detached from
// the terminal, with its log in the index folder. With wait, it returns
// once the daemon answers and says so.
func startDaemon(g *globalOptions, cfg config.Config, wait bool, args ...string) error {
	iopts, err := g.indexOptions(cfg, "")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(iopts.Dir, 0o700); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"--source-root", cfg.SourceRoot, "--cache-dir", cfg.CacheDir}
		if g.configFile != "" {
			args = append(args, "--config", g.configFile)
		}
		args = append(args, "index", "watch")
	}
	logPath := filepath.Join(iopts.Dir, "daemon.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the daemon log %s: %w", logPath, err)
	}
	defer logf.Close()
	c := exec.Command(exe, args...)
	c.Stdin, c.Stdout, c.Stderr = nil, logf, logf
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if g.environ != nil {
		c.Env = g.environ
	}
	if err := c.Start(); err != nil {
		return fmt.Errorf("start the daemon: %w", err)
	}
	pid := c.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	if !wait {
		return nil
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("the daemon exited at once; its log %s says: %s", logPath, lastLine(logPath))
		case <-time.After(50 * time.Millisecond):
		}
		if cl, err := research.Dial(iopts.Dir, time.Second); err == nil {
			if _, err := cl.Status(context.Background()); err == nil {
				fmt.Fprintf(g.stdout, "lwr: daemon started for %s (pid %d, log %s)\n", cfg.SourceRoot, pid, logPath)
				return nil
			}
		}
	}
	return fmt.Errorf("the daemon (pid %d) did not answer within 30s; see %s", pid, logPath)
}

func lastLine(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// holderOf names the process that holds an index.
func holderOf(dir string) string {
	h, ok := index.LockHolder(dir)
	if !ok {
		return ""
	}
	return "(" + h.String() + ")"
}

func newIndexStopCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "stop",
		Short: "Stop the daemon of the source root",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := g.load(cmd)
			if err != nil {
				return err
			}
			return runIndexStop(cmd.Context(), g, cfg, g.stdout)
		},
	}
}

func runIndexStop(ctx context.Context, g *globalOptions, cfg config.Config, out io.Writer) error {
	iopts, err := g.indexOptions(cfg, "")
	if err != nil {
		return err
	}
	pid := lockPID(iopts.Dir)
	cl, err := research.Dial(iopts.Dir, cfg.Search.DaemonTimeout)
	if err == nil {
		if _, serr := cl.Status(ctx); errors.Is(serr, research.ErrNoDaemon) {
			err = serr
		}
	}
	switch {
	case errors.Is(err, research.ErrNoDaemon):
		if pid > 0 && isDaemon(pid) {
			// A daemon that does not listen: ask it to stop with a signal.
			if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
				return fmt.Errorf("stop the daemon (process %d): %w", pid, err)
			}
			return waitGone(ctx, out, iopts.Dir, pid)
		}
		fmt.Fprintf(out, "lwr: no daemon is running for %s\n", cfg.SourceRoot)
		return nil
	case err != nil:
		return err
	}
	if err := cl.Stop(ctx); err != nil {
		if pid > 0 && isDaemon(pid) {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		} else {
			return err
		}
	}
	return waitGone(ctx, out, iopts.Dir, pid)
}

// waitGone waits until the daemon released the index.
func waitGone(ctx context.Context, out io.Writer, dir string, pid int) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if !isDaemon(pid) {
			fmt.Fprintf(out, "lwr: daemon stopped (process %d)\n", pid)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("the daemon (process %d) did not stop within 15s; kill it with kill %d", pid, pid)
}

// lockPID is the pid of the daemon that holds the index, or 0.
func lockPID(dir string) int {
	h, ok := index.LockHolder(dir)
	if !ok || !h.Daemon() {
		return 0
	}
	return h.PID
}

// isDaemon reports whether a process is alive and is an lwr daemon.
func isDaemon(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return true // no /proc: trust the lock file
	}
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if f := strings.Fields(string(st)); len(f) > 2 && f[2] == "Z" {
			return false // exited, not yet reaped
		}
	}
	return strings.Contains(string(b), "watch")
}
