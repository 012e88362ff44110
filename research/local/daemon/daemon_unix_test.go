//go:build unix

package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/research/local"
)

// (On Windows the endpoint of a daemon is its port and token, which a
// client reads only while the daemon holds the index.)

// TestSilentDaemonIsNamedOnce: a daemon that accepts a request and says
// nothing is local.ErrNotAnswering after the client's timeout, in one
// sentence that names it once.
func TestSilentDaemonIsNamedOnce(t *testing.T) {
	dir := configtest.TempDir(t)
	ln, cleanup, _, err := listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent
		}
	}()
	c, err := Dial(dir, "", 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Search(context.Background(), local.Request{Query: mustQuery(t, "有給休暇")})
	if !errors.Is(err, local.ErrNotAnswering) || strings.Count(err.Error(), "does not answer") != 1 || !strings.HasPrefix(err.Error(), "the daemon does not answer (nothing for 200ms") {
		t.Errorf("a silent daemon: %v", err)
	}
}
