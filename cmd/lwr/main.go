// Command lwr indexes a folder of documents and answers searches and
// research questions over it and the web.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	restore := setupConsole()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	g := &globalOptions{stdout: os.Stdout, stderr: os.Stderr}
	// Bleve reports internal events (a segment file another cleanup already
	// removed, a snapshot it could not load, …) through the standard logger:
	// details for --verbose, and warnings in the daemon's log.
	log.SetFlags(0)
	log.SetOutput(libraryLog{g, false})
	err := newRootCommand(g).ExecuteContext(ctx)
	stop()
	code := exitCode(err, g.stderr)
	restore()
	os.Exit(code)
}

// libraryLog turns the standard logger's lines into log records: debug
// records with --verbose, or warnings (a daemon's log).
type libraryLog struct {
	g        *globalOptions
	warnings bool
}

func (l libraryLog) Write(p []byte) (int, error) {
	msg := "library: " + strings.TrimSpace(string(p))
	switch {
	case l.warnings:
		l.g.logger().Warn(msg)
	case l.g.verbose:
		l.g.logger().Debug(msg)
	}
	return len(p), nil
}
