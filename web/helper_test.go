package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"lwr/web"
)

// The test binary doubles as the commands and processes the tests need:
// run with LWR_WEB_HELPER=<mode>, TestHelperProcess does that mode's job
// and exits.
const helperEnv = "LWR_WEB_HELPER"

// helperCommand is an exec command line that runs TestHelperProcess.
func helperCommand(extra ...string) []string {
	return append([]string{os.Args[0], "-test.run=^TestHelperProcess$", "--"}, extra...)
}

// helperEnviron is the environment of a helper in mode.
func helperEnviron(mode string, kv ...string) []string {
	return append(append(os.Environ(), helperEnv+"="+mode), kv...)
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(helper(mode, args))
}

func helper(mode string, args []string) int {
	switch mode {
	case "echo-args": // one result per argument, its text as the snippet
		var out []map[string]string
		for i, a := range args {
			out = append(out, map[string]string{"title": strconv.Itoa(i), "url": "https://example.com/" + strconv.Itoa(i), "snippet": a, "fetched_at": "2026-05-31T00:00:00Z", "status": "ok"})
		}
		b, _ := json.Marshal(map[string]any{"agent_type": "web", "status": "ok", "results": out})
		os.Stdout.Write(b)
	case "results": // print LWR_WEB_HELPER_JSON
		os.Stdout.WriteString(os.Getenv("LWR_WEB_HELPER_JSON"))
	case "hang": // start a grandchild, record both pids, never answer
		gc := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		gc.Env = helperEnviron("sleep")
		gc.Stdout = os.Stdout // holds the pipe open, as a stuck child would
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.WriteFile(os.Getenv("LWR_WEB_HELPER_PIDS"), fmt.Appendf(nil, "%d %d", os.Getpid(), gc.Process.Pid), 0o600)
		time.Sleep(time.Hour)
	case "sleep":
		time.Sleep(time.Hour)
	case "flood": // more output than any limit
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 1
			}
		}
	case "invalid":
		os.Stdout.WriteString("Here are the results: none\n")
	case "fail":
		fmt.Fprintln(os.Stderr, "search backend down")
		fmt.Fprintln(os.Stderr, "second line")
		return 3
	case "cache-hammer":
		return hammerCache(args)
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	return 0
}

// hammerCache opens, writes, reads and closes the cache in a loop, as two
// lwr processes would: args are the cache folder, this process's id and
// the number of rounds.
func hammerCache(args []string) int {
	dir, id := args[0], args[1]
	rounds, _ := strconv.Atoi(args[2])
	for i := range rounds {
		c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{Timeout: 30 * time.Second})
		if err != nil {
			fmt.Fprintln(os.Stderr, "open:", err)
			return 1
		}
		res := &web.Result{Query: "q", Status: web.StatusOK, Entries: []web.Entry{{Title: id, URL: "https://example.com/" + id, Snippet: strings.Repeat("s", i*37%2000)}}}
		// Keys of our own and keys both processes write.
		for _, q := range []string{fmt.Sprintf("own %s %d", id, i), fmt.Sprintf("shared %d", i%5)} {
			if err := c.Set(web.Request{Query: q}, res, i%3 == 0); err != nil {
				fmt.Fprintln(os.Stderr, "set:", err)
				return 1
			}
			if hit, err := c.Get(web.Request{Query: q}); err != nil || !hit.Found {
				fmt.Fprintln(os.Stderr, "get:", hit.Found, err)
				return 1
			}
		}
		if err := c.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "close:", err)
			return 1
		}
	}
	return 0
}
