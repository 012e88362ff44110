package main

import (
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		arg        string
		path       string
		start, end int
		err        string
	}{
		{arg: "規程/就業規則.md:20-24", path: "規程/就業規則.md", start: 20, end: 24},
		{arg: "規程/就業規則.md:74", path: "規程/就業規則.md", start: 74},
		{arg: "規程/就業規則.md", path: "規程/就業規則.md"},
		{arg: `C:\資料\a.md`, path: `C:\資料\a.md`},
		{arg: "a.md:24-20", err: "START ≤ END"},
		{arg: "a.md:0", err: "count from 1"},
		{arg: "a.md:99999999999999999999", err: "lines count from 1 to 999999999"},
		{arg: "a.md:1-99999999999999999999", err: "lines count from 1 to 999999999"},
	} {
		path, start, end, err := parseRange(c.arg)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseRange(%q) = %q %d %d %v; want an error saying %q", c.arg, path, start, end, err, c.err)
			}
			continue
		}
		if err != nil || path != c.path || start != c.start || end != c.end {
			t.Errorf("parseRange(%q) = %q %d %d %v; want %q %d %d", c.arg, path, start, end, err, c.path, c.start, c.end)
		}
	}
}
