package web

import (
	"fmt"
	"lwr/config/configtest"
	"slices"
	"strings"
	"testing"
	"time"
)

// reportMedian times each iteration of f and reports the median, which
// the targets are stated in, beside Go's mean ns/op.
func reportMedian(b *testing.B, f func()) {
	b.Helper()
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		f()
		ds = append(ds, time.Since(start))
	}
	if len(ds) > 0 {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds()), "median-ns/op")
	}
}

// benchSnippet is n characters of ordinary Japanese search-result text:
// mixed scripts, a few highlight tags and entities, the word システム.
func benchSnippet(n int) string {
	const para = "年次有給休暇の<b>申請</b>は、原則として取得予定日の5日前までに所属長へ提出します。" +
		"勤怠管理システムから申請する場合は、Webフォームの「休暇申請」を選び、理由欄は任意です。" +
		"Go 1.22 では range over int が使えます &amp; 互換性も保たれています。"
	var b strings.Builder
	for b.Len() < n*4 {
		b.WriteString(para)
	}
	r := []rune(b.String())
	return string(r[:n])
}

func benchEntries() []Entry {
	var es []Entry
	for i := range 10 {
		es = append(es, Entry{
			Title:   fmt.Sprintf("<strong>有給休暇</strong>の申請方法 %d", i),
			URL:     fmt.Sprintf("https://www.example.co.jp/docs/%d/?utm_source=x&id=%d", i, i),
			Snippet: benchSnippet(MaxSnippetRunes),
			Engines: []string{"brave"},
		})
	}
	return es
}

// BenchmarkSanitize10Results sanitizes 10 results with 2,000-character
// snippets (target: median under 1 ms).
func BenchmarkSanitize10Results(b *testing.B) {
	es := benchEntries()
	reportMedian(b, func() {
		var f Flags
		for _, e := range es {
			if _, _, ok := sanitizeEntry(e, &f); !ok {
				b.Fatal("dropped")
			}
		}
	})
}

// BenchmarkAssemble10Results is sanitizing plus merging, scoring and
// ordering 10 results from each of two providers.
func BenchmarkAssemble10Results(b *testing.B) {
	es := benchEntries()
	req := Request{Query: "有給休暇 申請", MaxResults: 5}.normalized()
	opts := Options{Now: func() time.Time { return testNow }}.withDefaults()
	outs := []outcome{{name: "a", resp: Response{Entries: es}}, {name: "b", resp: Response{Entries: es}}}
	reportMedian(b, func() {
		if res := assemble(req, outs, opts, testNow); len(res.Entries) != 5 {
			b.Fatal(len(res.Entries))
		}
	})
}

// BenchmarkCacheGetHit reads a cached result of 10 entries from an open
// cache (target: median under 1 ms).
func BenchmarkCacheGetHit(b *testing.B) {
	c, err := OpenCache(configtest.TempDir(b), "web-cache.db", CacheOptions{Now: func() time.Time { return testNow }})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := Request{Query: "有給休暇 申請", Intent: "howto", MaxResults: 5, Locale: "ja"}
	res := assemble(req.normalized(), []outcome{{name: "a", resp: Response{Entries: benchEntries()}}}, Options{Now: func() time.Time { return testNow }}.withDefaults(), testNow)
	res.Entries = nil
	for _, e := range benchEntries() {
		e.Snippet = benchSnippet(MaxSnippetRunes)
		res.Entries = append(res.Entries, e)
	}
	for i := range 200 { // some neighbours
		if err := c.Set(Request{Query: fmt.Sprintf("other %d", i)}, res, false); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Set(req, res, false); err != nil {
		b.Fatal(err)
	}
	reportMedian(b, func() {
		hit, err := c.Get(req)
		if err != nil || !hit.Found || len(hit.Result.Entries) != 10 {
			b.Fatal(hit.Found, err)
		}
	})
}

// BenchmarkCacheOpenGetClose is a cache hit as the CLI does it: open the
// file read-only, get, close.
func BenchmarkCacheOpenGetClose(b *testing.B) {
	dir := configtest.TempDir(b)
	c, err := OpenCache(dir, "web-cache.db", CacheOptions{Now: func() time.Time { return testNow }})
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Query: "有給休暇 申請"}
	res := &Result{Status: StatusOK, Entries: benchEntries()}
	if err := c.Set(req, res, false); err != nil {
		b.Fatal(err)
	}
	c.Close()
	reportMedian(b, func() {
		c, err := OpenCache(dir, "web-cache.db", CacheOptions{ReadOnly: true, Now: func() time.Time { return testNow }})
		if err != nil {
			b.Fatal(err)
		}
		if hit, err := c.Get(req); err != nil || !hit.Found {
			b.Fatal(err)
		}
		c.Close()
	})
}
