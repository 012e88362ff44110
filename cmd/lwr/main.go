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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	g := &globalOptions{stdout: os.Stdout, stderr: os.Stderr}
	// Bleve reports internal events (a segment file another cleanup already
	// removed, …) through the standard logger: details for --verbose.
	log.SetFlags(0)
	log.SetOutput(libraryLog{g})
	err := newRootCommand(g).ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err, g.stderr))
}

// libraryLog turns the standard logger's lines into debug records.
type libraryLog struct{ g *globalOptions }

func (l libraryLog) Write(p []byte) (int, error) {
	if l.g.verbose {
		l.g.logger().Debug("library: " + strings.TrimSpace(string(p)))
	}
	return len(p), nil
}
