//go:build !windows

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// TestFIFOInputsAreRefused names a FIFO at every option that reads a
// file: each command refuses it with one sentence instead of blocking in
// open until something writes to it.
func TestFIFOInputsAreRefused(t *testing.T) {
	root := researchtest.Sample(t)
	dir := configtest.TempDir(t)
	fifo := filepath.Join(dir, "input.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ws := configtest.TempDir(t)
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"validate", nil, []string{"validate", fifo}},
		{"finalize --markdown", nil, []string{"finalize", "--markdown", fifo, "--query", "q", "--workspace", ws}},
		{"web cache set --data-file", nil, []string{"web", "cache", "set", "--query", "q", "--data-file", fifo}},
		{"research --web-results", nil, []string{"research", "--workspace", ws, "--web-results", fifo, "随意契約"}},
		{"the file provider", []string{"LWR_WEB_PROVIDERS=file", "LWR_WEB_FILE_PATH=" + fifo}, []string{"web", "search", "随意契約"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, c.env...)
			type answer struct {
				out, errOut string
				code        int
			}
			done := make(chan answer, 1)
			go func() {
				out, errOut, code := run(t, env, append([]string{"--source-root", root}, c.args...)...)
				done <- answer{out, errOut, code}
			}()
			var a answer
			select {
			case a = <-done:
			case <-time.After(2 * time.Minute):
				// Unblock the command so that the test can end.
				if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatalf("lwr %s blocked on the FIFO", strings.Join(c.args, " "))
			}
			if a.code == 0 {
				t.Fatalf("exit 0 for a FIFO:\n%s%s", a.out, a.errOut)
			}
			if !strings.Contains(a.out+a.errOut, "not a regular file") {
				t.Errorf("the error does not say the input is not a regular file:\n%s%s", a.out, a.errOut)
			}
		})
	}
}

// TestReadInputEndsWithTheContext reads standard input that never ends:
// cancelling the context (an interrupt, SIGTERM) ends the read.
func TestReadInputEndsWithTheContext(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := readInput(ctx, r, "-", 1<<20)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("readInput after cancel: %v, want context.Canceled", err)
	}
}

// TestSIGTERMWhileReadingStandardInput sends SIGTERM to lwr validate
// reading a standard input that stays open: lwr exits (130).
func TestSIGTERMWhileReadingStandardInput(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	cmd := exec.Command(lwrBin, "validate", "-")
	cmd.Env = testEnv(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// A pipe for the child to say it started reading: its first line on
	// standard error would be late; wait for the process to exist instead
	// and signal until it is gone.
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitCanceled && !ee.Exited() {
				// Killed by the signal before lwr installed its handler
				// is also an exit; anything else is not.
				if ee == nil {
					t.Fatalf("lwr validate -: %v", err)
				}
			}
			return
		case <-time.After(time.Second):
		}
	}
}
