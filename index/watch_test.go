package index

import (
	"context"
	"runtime"
	"testing"
	"time"

	"lwr/config/configtest"
)

// TestWatchSeesAChangeDuringTheFirstSync: the tree is watched before the
// first sync, so a file written while it runs (or right after it, before
// anything else happens) is indexed at once, not at the next rescan.
func TestWatchSeesAChangeDuringTheFirstSync(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file events under Wine are not those of Windows")
	}
	root := tree(t, map[string]string{"a.md": "# a\n本文。\n"})
	ix := openTest(t, root, configtest.TempDir(t))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	synced := make(chan BuildStats, 8)
	first := true
	done := make(chan error, 1)
	go func() {
		done <- ix.Watch(ctx, WatchOptions{Reconcile: time.Hour, volume: func(string) volume { return volume{Kind: "fixed", FS: "ext4"} },
			OnSync: func(st BuildStats, err error) {
				if first {
					// The first sync is done: a file written now.
					first = false
					writeFile(t, root, "新規.md", "# 新規\nユニコーン計画。\n")
				}
				synced <- st
			}})
	}()
	for {
		select {
		case st := <-synced:
			if res := find(t, ix, "ユニコーン計画", SearchOptions{Mode: FullText}); len(res.Matches) == 1 {
				return
			}
			_ = st
		case err := <-done:
			t.Fatalf("the watch ended: %v", err)
		case <-time.After(time.Minute): // a guard against a hang, not a measure
			t.Fatal("the file written right after the first sync was not indexed (the next rescan is an hour away)")
		}
	}
}
