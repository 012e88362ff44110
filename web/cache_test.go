package web_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lwr/config/configtest"
	"lwr/web"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: now} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func openCache(t *testing.T, dir string, clk *fakeClock) *web.Cache {
	t.Helper()
	c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{Now: clk.Now, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func okResult(title string) *web.Result {
	return &web.Result{Query: "q", Status: web.StatusOK, Verdict: web.Safe,
		Entries: []web.Entry{{Title: title, URL: "https://example.com/" + title, Snippet: "s", FetchedAt: now, Status: "ok", Freshness: web.FreshLatest, Engines: []string{"brave"}}}}
}

func TestCacheKey(t *testing.T) {
	base := web.Request{Query: "有給休暇 申請", Intent: "howto", MaxResults: 5, Locale: "ja"}
	key := web.CacheKey(base)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(key) {
		t.Fatalf("key %q is not 16 hex digits", key)
	}
	same := []web.Request{
		{Query: "  有給休暇　 申請 ", Intent: "howto", MaxResults: 5, Locale: "ja"},
		{Query: "有給休暇 申請", Intent: " HowTo", MaxResults: 5, Locale: "ja"},
	}
	for _, r := range same {
		if got := web.CacheKey(r); got != key {
			t.Errorf("CacheKey(%+v) = %s, want %s", r, got, key)
		}
	}
	if web.CacheKey(web.Request{Query: "ＡＢＣ"}) != web.CacheKey(web.Request{Query: "abc", Intent: "default", MaxResults: 5}) {
		t.Error("full-width, case and the defaults should not change the key")
	}
	differ := []web.Request{
		{Query: "有給休暇 申請", Intent: "definition", MaxResults: 5, Locale: "ja"},
		{Query: "有給休暇 申請", Intent: "howto", MaxResults: 3, Locale: "ja"},
		{Query: "有給休暇 申請", Intent: "howto", MaxResults: 5, Locale: "en"},
		{Query: "有給休暇", Intent: "howto", MaxResults: 5, Locale: "ja"},
	}
	for _, r := range differ {
		if web.CacheKey(r) == key {
			t.Errorf("CacheKey(%+v) equals the base key", r)
		}
	}
}

func TestCacheHitMissAndTTLPerIntent(t *testing.T) {
	tests := []struct {
		intent web.Intent
		ttl    time.Duration
	}{
		{"definition", 24 * time.Hour},
		{"howto", 4 * time.Hour},
		{"troubleshooting", time.Hour},
		{"factcheck", 30 * time.Minute},
		{"comparison", 2 * time.Hour},
		{"default", 2 * time.Hour},
		{"", 2 * time.Hour},
		{"unknown-intent", 2 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(string(tt.intent), func(t *testing.T) {
			if got := tt.intent.TTL(); got != tt.ttl {
				t.Fatalf("TTL(%q) = %s, want %s", tt.intent, got, tt.ttl)
			}
			clk := newClock()
			c := openCache(t, configtest.TempDir(t), clk)
			req := web.Request{Query: "有給休暇", Intent: tt.intent, MaxResults: 5, Locale: "ja"}
			if hit, err := c.Get(req); err != nil || hit.Found {
				t.Fatalf("empty cache: %+v, %v", hit, err)
			}
			if err := c.Set(req, okResult("a"), false); err != nil {
				t.Fatal(err)
			}
			clk.Add(tt.ttl - time.Second)
			hit, err := c.Get(req)
			if err != nil || !hit.Found || hit.Negative || hit.Age != tt.ttl-time.Second {
				t.Fatalf("just before the TTL: %+v, %v; want a hit aged %s", hit, err, tt.ttl-time.Second)
			}
			if e := hit.Result.Entries[0]; e.Title != "a" || e.Freshness != web.FreshLatest || e.Engines[0] != "brave" {
				t.Errorf("cached entry %+v", e)
			}
			if other, _ := c.Get(web.Request{Query: "有給休暇", Intent: tt.intent, MaxResults: 4, Locale: "ja"}); other.Found {
				t.Error("another max_results hit the entry")
			}
			clk.Add(2 * time.Second)
			if hit, err := c.Get(req); err != nil || hit.Found {
				t.Errorf("just after the TTL: %+v, %v; want a miss", hit, err)
			}
		})
	}
}

func TestCacheNegativeEntriesExpireAfterFiveMinutes(t *testing.T) {
	clk := newClock()
	c := openCache(t, configtest.TempDir(t), clk)
	req := web.Request{Query: "見つからない", Intent: "definition"} // 24 h for results, 5 min for failures
	res := &web.Result{Query: req.Query, Status: web.StatusEmpty, Entries: []web.Entry{}}
	if stored, err := c.Store(req, res); err != nil || !stored {
		t.Fatalf("Store(empty) = %v, %v", stored, err)
	}
	clk.Add(web.NegativeTTL - time.Second)
	hit, err := c.Get(req)
	if err != nil || !hit.Found || !hit.Negative || hit.Result.Status != web.StatusEmpty {
		t.Fatalf("at 4:59: %+v, %v; want a negative hit", hit, err)
	}
	clk.Add(2 * time.Second)
	if hit, _ := c.Get(req); hit.Found {
		t.Errorf("at 5:01: %+v; want a miss", hit)
	}
	// Store: error is negative too, partial is not stored.
	if stored, _ := c.Store(web.Request{Query: "e"}, &web.Result{Status: web.StatusError}); !stored {
		t.Error("an error result was not stored")
	}
	if hit, _ := c.Get(web.Request{Query: "e"}); !hit.Negative {
		t.Error("an error result is not negative")
	}
	if stored, _ := c.Store(web.Request{Query: "p"}, &web.Result{Status: web.StatusPartial}); stored {
		t.Error("a partial result was stored")
	}
}

func TestCacheCleanupIsBounded(t *testing.T) {
	clk := newClock()
	dir := configtest.TempDir(t)
	c := openCache(t, dir, clk)
	for i := range 10 {
		if err := c.Set(web.Request{Query: "old " + string(rune('a'+i))}, okResult("o"), false); err != nil {
			t.Fatal(err)
		}
	}
	clk.Add(25 * time.Hour)
	for i := range 3 {
		if err := c.Set(web.Request{Query: "new " + string(rune('a'+i))}, okResult("n"), false); err != nil {
			t.Fatal(err)
		}
	}
	// The first Set after 25 h ran the hourly background cleanup.
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 3 || st.LastCleanup == nil || !st.LastCleanup.Equal(clk.Now()) {
		t.Errorf("after the background cleanup: %+v; want the 3 new entries", st)
	}

	// Explicit cleanup, bounded in count, on a cache with no recent cleanup.
	c2 := openCache(t, configtest.TempDir(t), clk)
	old := clk.Now()
	for i := range 10 {
		c2.Set(web.Request{Query: "x" + string(rune('a'+i))}, okResult("x"), false)
	}
	clk.Add(30 * time.Minute) // not yet old
	rep, err := c2.Cleanup(context.Background(), web.CleanupOptions{})
	if err != nil || rep.DeletedCount != 0 || rep.ScannedCount != 10 {
		t.Fatalf("cleanup of young entries: %+v, %v", rep, err)
	}
	clk.t = old.Add(24*time.Hour + time.Minute)
	rep, err = c2.Cleanup(context.Background(), web.CleanupOptions{MaxDelete: 4})
	if err != nil || rep.DeletedCount != 4 || !rep.Truncated || rep.Remaining != 6 || rep.Event != "web_cache_cleanup" {
		t.Fatalf("bounded cleanup: %+v, %v; want 4 deleted, truncated", rep, err)
	}
	rep, err = c2.Cleanup(context.Background(), web.CleanupOptions{})
	if err != nil || rep.DeletedCount != 6 || rep.Truncated || rep.Remaining != 0 {
		t.Fatalf("second cleanup: %+v, %v; want the other 6", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c2.Set(web.Request{Query: "y"}, okResult("y"), false)
	if _, err := c2.Cleanup(ctx, web.CleanupOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled cleanup: %v", err)
	}
}

func TestCacheUnreadableEntryIsAMissAndCleanedUp(t *testing.T) {
	clk := newClock()
	dir := configtest.TempDir(t)
	req := web.Request{Query: "壊れた"}
	c := openCache(t, dir, clk)
	c.Close()
	db, err := bolt.Open(filepath.Join(dir, "web-cache.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("entries")).Put([]byte(web.CacheKey(req)), []byte("{not json"))
	})
	db.Close()
	c = openCache(t, dir, clk)
	if hit, err := c.Get(req); err != nil || hit.Found || !strings.Contains(hit.Damaged, "damaged") {
		t.Errorf("unreadable entry: %+v, %v; want a miss that says the entry is damaged", hit, err)
	}
	if st, _ := c.Stats(); st.Unreadable != 1 {
		t.Errorf("stats %+v; want 1 unreadable", st)
	}
	if rep, err := c.Cleanup(context.Background(), web.CleanupOptions{}); err != nil || rep.DeletedCount != 1 {
		t.Errorf("cleanup: %+v, %v; want the unreadable entry removed", rep, err)
	}
}

func TestCacheStats(t *testing.T) {
	clk := newClock()
	c := openCache(t, configtest.TempDir(t), clk)
	c.Set(web.Request{Query: "a", Intent: "factcheck"}, okResult("a"), false)
	c.Set(web.Request{Query: "b", Intent: "definition"}, okResult("b"), false)
	c.Set(web.Request{Query: "c"}, &web.Result{Status: web.StatusEmpty}, true)
	clk.Add(time.Hour)
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 3 || st.Positive != 2 || st.Negative != 1 || st.Fresh != 1 || st.Expired != 2 || st.ByIntent["definition"] != 1 || !st.Exists || st.SizeBytes == 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestCacheRefusesUnsafePaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows (and Wine makes them unix links)")
	}
	dir := configtest.TempDir(t)
	outside := configtest.TempDir(t)
	target := filepath.Join(outside, "target.db")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o700); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file string
	}{
		{"parent folder", "../web-cache.db"},
		{"absolute path outside", filepath.Join(outside, "web-cache.db")},
		{"the folder itself", "."},
		{"symbolic link file", "link.db"},
		{"through a linked folder", "sub/web-cache.db"},
		{"a folder", "adir"},
	}
	for _, tt := range tests {
		for _, ro := range []bool{false, true} {
			c, err := web.OpenCache(dir, tt.file, web.CacheOptions{ReadOnly: ro})
			if !errors.Is(err, web.ErrCacheUnsafe) {
				t.Errorf("%s (read-only %v): %v, want ErrCacheUnsafe", tt.name, ro, err)
				if c != nil {
					c.Close()
				}
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link target was changed: %q", b)
	}
	// Inside the folder, absolute or in a sub-folder, is fine.
	for _, name := range []string{filepath.Join(dir, "abs.db"), "nested/web-cache.db"} {
		c, err := web.OpenCache(dir, name, web.CacheOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		c.Close()
	}
}

func TestCacheFileIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no unix permission bits; the cache lives in the user's own profile")
	}
	dir := configtest.TempDir(t)
	path := filepath.Join(dir, "web-cache.db")
	c := openCache(t, dir, newClock())
	c.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	openCache(t, dir, newClock()).Close()
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
}

func TestCacheCorruptFileIsAMissWithAWarning(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("not a bolt file ", 2000)), 0o600)
		}},
		{"truncated", func(t *testing.T, path string) {
			st, _ := os.Stat(path)
			if err := os.Truncate(path, st.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"too short", func(t *testing.T, path string) {
			os.Truncate(path, 100)
		}},
		{"meta pages zeroed", func(t *testing.T, path string) {
			f, _ := os.OpenFile(path, os.O_WRONLY, 0)
			f.WriteAt(make([]byte, 8192), 0)
			f.Close()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := configtest.TempDir(t)
			path := filepath.Join(dir, "web-cache.db")
			clk := newClock()
			c := openCache(t, dir, clk)
			big := okResult("big")
			big.Entries[0].Snippet = strings.Repeat("長", 2000)
			for i := range 40 {
				if err := c.Set(web.Request{Query: "q" + string(rune('a'+i))}, big, false); err != nil {
					t.Fatal(err)
				}
			}
			c.Close()
			tt.corrupt(t, path)

			ro, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{ReadOnly: true, Now: clk.Now})
			if !errors.Is(err, web.ErrCacheCorrupt) {
				t.Errorf("read-only open: %v, want ErrCacheCorrupt", err)
				if ro != nil {
					ro.Close()
				}
			}
			c, err = web.OpenCache(dir, "web-cache.db", web.CacheOptions{Now: clk.Now})
			if err != nil {
				t.Fatalf("open after corruption: %v", err)
			}
			defer c.Close()
			w := c.Warnings()
			if len(w) != 1 || !strings.Contains(w[0], "corrupt") || !strings.Contains(w[0], ".corrupt-20260601T120000Z") {
				t.Errorf("warnings %q", w)
			}
			if _, err := os.Stat(path + ".corrupt-20260601T120000Z"); err != nil {
				t.Errorf("the corrupt file was not kept aside: %v", err)
			}
			if hit, err := c.Get(web.Request{Query: "qa"}); err != nil || hit.Found {
				t.Errorf("get after corruption: %+v, %v; want a miss", hit, err)
			}
			if err := c.Set(web.Request{Query: "qa"}, okResult("a"), false); err != nil {
				t.Errorf("set after corruption: %v", err)
			}
		})
	}
}

func TestCacheLockedIsAnError(t *testing.T) {
	dir := configtest.TempDir(t)
	holder := openCache(t, dir, newClock())
	defer holder.Close()
	for _, ro := range []bool{false, true} {
		c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{Timeout: 100 * time.Millisecond, ReadOnly: ro})
		if !errors.Is(err, web.ErrCacheLocked) {
			t.Errorf("read-only %v: %v, want ErrCacheLocked", ro, err)
			if c != nil {
				c.Close()
			}
		}
	}
}

func TestCacheReadOnlyMissingFile(t *testing.T) {
	dir := configtest.TempDir(t)
	c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if hit, err := c.Get(web.Request{Query: "q"}); err != nil || hit.Found {
		t.Errorf("%+v, %v", hit, err)
	}
	if err := c.Set(web.Request{Query: "q"}, okResult("a"), false); err == nil {
		t.Error("set on a read-only cache succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "web-cache.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a read-only open created the file: %v", err)
	}
}

func TestCacheTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := configtest.TempDir(t)
	const rounds = 40
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for _, id := range []string{"A", "B"} {
		cmd := exec.Command(os.Args[0], helperCommand(dir, id, "40")[1:]...)
		cmd.Env = helperEnviron("cache-hammer")
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i])
		}
	}
	db, err := bolt.Open(filepath.Join(dir, "web-cache.db"), 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatalf("bbolt check: %v", err)
	}
	c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if want := 2*rounds + 5; st.Entries != want || st.Unreadable != 0 {
		t.Errorf("stats %+v; want %d readable entries", st, want)
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
}
