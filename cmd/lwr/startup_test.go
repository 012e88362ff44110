package main

import (
	"bytes"
	"log"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every lwr process pays for the package inits of everything it links
// before main runs; a search answered by the daemon is mostly that. Work
// that only some commands need belongs after main (third_party/vellum makes
// Bleve's Levenshtein automata, 1 MB built at init, lazy). The limit is on
// bytes allocated, which the runtime reports exactly, not on time.
func TestPackageInitsStayLight(t *testing.T) {
	cmd := exec.Command(lwrBin, "--help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("lwr --help: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes`)
	total, n := 0, 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		b, _ := strconv.Atoi(m[2])
		total += b
		n++
		if b > 256<<10 {
			t.Errorf("the init of %s allocates %d bytes (limit 256 KiB)", m[1], b)
		}
	}
	if n == 0 {
		t.Fatalf("no init trace in the output:\n%s", out)
	}
	if total > 1<<20 {
		t.Errorf("package inits allocate %d bytes in all (limit 1 MiB)", total)
	}
	t.Logf("%d package inits, %d bytes", n, total)
}

// Lines libraries write to the standard logger show with --verbose only,
// and in the daemon's log.
func TestLibraryLogIsVerboseOnly(t *testing.T) {
	var errb bytes.Buffer
	g := &globalOptions{stderr: &errb}
	defer log.SetOutput(os.Stderr)
	log.SetOutput(libraryLog{g, false})
	log.Print("got err removing file: 000000000020.zap")
	if errb.Len() != 0 {
		t.Errorf("quiet run printed %q", errb.String())
	}
	g.verbose = true
	log.Print("got err removing file: 000000000021.zap")
	if got := errb.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "000000000021.zap") {
		t.Errorf("verbose run printed %q", got)
	}
	// The daemon keeps them as warnings in its log, verbose or not.
	errb.Reset()
	g.verbose = false
	log.SetOutput(libraryLog{g, true})
	log.Print("unable to load snapshot, continuing")
	if got := errb.String(); !strings.Contains(got, "level=WARN") || !strings.Contains(got, "unable to load snapshot") {
		t.Errorf("daemon printed %q", got)
	}
}
