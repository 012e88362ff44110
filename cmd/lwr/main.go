// Command lwr indexes a folder of documents and answers searches and
// research questions over it and the web.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	g := &globalOptions{stdout: os.Stdout, stderr: os.Stderr}
	err := newRootCommand(g).ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err, g.stderr))
}
