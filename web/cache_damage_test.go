package web_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/web"
)

// TestCacheDamageTable damages a cache file in each way seen in the
// field and runs each operation on it, as writer and as reader: nothing
// panics; a writer moves a damaged file aside and goes on; a reader
// reports the damage as ErrCacheCorrupt (a miss for its callers).
func TestCacheDamageTable(t *testing.T) {
	for _, kind := range configtest.BoltDamage {
		for _, op := range []string{"get", "set", "cleanup", "stats", "ro-get", "ro-stats"} {
			t.Run(kind+"/"+op, func(t *testing.T) {
				dir := configtest.TempDir(t)
				clk := newClock()
				c := openCache(t, dir, clk)
				big := okResult("big")
				big.Entries[0].Snippet = strings.Repeat("長", 2000)
				for i := range 60 {
					if err := c.Set(web.Request{Query: fmt.Sprint("q", i)}, big, false); err != nil {
						t.Fatal(err)
					}
				}
				for i := range 30 { // rewrites leave free pages: a freelist
					if err := c.Set(web.Request{Query: fmt.Sprint("q", i*2)}, okResult("x"), false); err != nil {
						t.Fatal(err)
					}
				}
				c.Close()
				configtest.DamageBolt(t, filepath.Join(dir, "web-cache.db"), kind)

				ro := strings.HasPrefix(op, "ro-")
				err := func() (err error) {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("panic: %v", r)
						}
					}()
					c, err := web.OpenCache(dir, "web-cache.db", web.CacheOptions{Now: clk.Now, ReadOnly: ro, Timeout: time.Second})
					if err != nil {
						return err
					}
					defer c.Close()
					switch strings.TrimPrefix(op, "ro-") {
					case "get":
						for i := range 60 {
							if _, err = c.Get(web.Request{Query: fmt.Sprint("q", i)}); err != nil {
								return err
							}
						}
					case "set":
						err = c.Set(web.Request{Query: "new"}, okResult("n"), false)
					case "cleanup":
						_, err = c.Cleanup(context.Background(), web.CleanupOptions{})
					case "stats":
						_, err = c.Stats()
					}
					return err
				}()
				if ro {
					if err != nil && !errors.Is(err, web.ErrCacheCorrupt) {
						t.Fatalf("reader: %v, want nil or ErrCacheCorrupt", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("writer: %v", err)
				}
				// The writer left a cache that works.
				c = openCache(t, dir, clk)
				defer c.Close()
				if err := c.Set(web.Request{Query: "after"}, okResult("a"), false); err != nil {
					t.Fatal(err)
				}
				if hit, err := c.Get(web.Request{Query: "after"}); err != nil || !hit.Found {
					t.Fatalf("get after repair: %+v, %v", hit, err)
				}
			})
		}
	}
}
