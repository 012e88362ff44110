package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// TestDamagedFilesEveryCommand damages the manifest and the web cache in
// each way bbolt files are found damaged and runs every command that
// reads them: none panics, each exits 0, and the damage is said.
func TestDamagedFilesEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index per damage kind")
	}
	for _, kind := range configtest.BoltDamage {
		t.Run(kind, func(t *testing.T) {
			root := researchtest.Sample(t)
			url, _ := fakeSearXNG(t)
			cache := configtest.TempDir(t)
			env := testEnv(t, "LWR_WEB_PROVIDERS=searxng", "LWR_WEB_SEARXNG_BASE_URL="+url)
			lwr := func(args ...string) (string, string) {
				t.Helper()
				out, errOut, code := run(t, env, append([]string{"--source-root", root, "--cache-dir", cache}, args...)...)
				if code != 0 || strings.Contains(errOut, "goroutine ") {
					t.Fatalf("lwr %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
				}
				return out, errOut
			}
			// Fill both files, with rewrites so that they have freed pages.
			lwr("index", "build")
			for i := range 12 {
				q := fmt.Sprintf("照会%d", i)
				lwr("web", "cache", "set", "--query", q, "--data", `{"status":"ok","verdict":"安全","entries":[{"title":"t","url":"https://example.com/`+q+`","snippet":"`+strings.Repeat("長", 900)+`","fetched_at":"2026-06-01T12:00:00Z","status":"ok"}]}`)
			}
			for i := range 6 {
				lwr("web", "cache", "set", "--query", fmt.Sprintf("照会%d", i*2), "--data", `{"status":"ok","verdict":"安全","entries":[]}`)
			}
			manifests, _ := filepath.Glob(filepath.Join(cache, "*", "manifest.db"))
			if len(manifests) != 1 {
				t.Fatalf("manifests %v", manifests)
			}
			configtest.DamageBolt(t, manifests[0], kind)
			configtest.DamageBolt(t, filepath.Join(cache, "web-cache.db"), kind)

			out, _ := lwr("search", "--format", "json", "有給休暇")
			if !strings.Contains(out, "就業規則") {
				t.Errorf("search after the damage found no 就業規則:\n%s", out)
			}
			lwr("index", "build")
			lwr("index", "status")
			lwr("web", "cache", "get", "--query", "照会1")
			lwr("web", "cache", "cleanup")
			lwr("web", "cache", "set", "--query", "新規", "--data", `{"status":"ok","verdict":"安全","entries":[]}`)
			ws := configtest.TempDir(t)
			lwr("research", "--workspace", ws, "随意契約", "上限額")
			if reports, _ := filepath.Glob(filepath.Join(ws, "result", "research", "research_*.md")); len(reports) != 1 {
				t.Errorf("research wrote %v", reports)
			}
			if aside, _ := filepath.Glob(filepath.Join(cache, "web-cache.db.corrupt-*")); len(aside) == 0 {
				if _, err := os.Stat(filepath.Join(cache, "web-cache.db")); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// damageSegments changes a byte in every 997 of the first half of every
// segment file of the index in cache, as a disk or a sync tool that
// changed them would: Bleve's readers fail (or panic) on such a file.
func damageSegments(t *testing.T, cache string) {
	t.Helper()
	segs, _ := filepath.Glob(filepath.Join(cache, "*", "bleve", "store", "*.zap"))
	if len(segs) == 0 {
		t.Fatal("no segment files")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range segs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := 100; i < len(b)/2; i += 997 {
			b[i] = byte(r.UintN(256))
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDamagedSegmentsAreRebuilt: a search on an index whose segment files
// were changed behind its back does not crash: the index is built anew
// and the search answers, without a daemon and through one.
func TestDamagedSegmentsAreRebuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds indexes and starts a daemon")
	}
	root := researchtest.Sample(t)
	env := testEnv(t)
	for _, viaDaemon := range []bool{false, true} {
		cache := configtest.TempDir(t)
		lwr := func(args ...string) (string, string, int) {
			return run(t, env, append([]string{"--source-root", root, "--cache-dir", cache}, args...)...)
		}
		if _, errOut, code := lwr("index", "build"); code != 0 {
			t.Fatalf("build: exit %d %s", code, errOut)
		}
		if viaDaemon {
			if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "watch", "--detach").CombinedOutput(); err != nil {
				t.Fatalf("detach: %v %s", err, out)
			}
		}
		damageSegments(t, cache)
		out, errOut, code := lwr("search", "有給休暇")
		if code != 0 || strings.Contains(errOut, "goroutine ") || !strings.Contains(out, "就業規則") {
			t.Errorf("daemon %v: search on damaged segments: exit %d\n%s%s", viaDaemon, code, out, errOut)
		}
		if !viaDaemon && !strings.Contains(errOut, "damaged") {
			t.Errorf("the rebuild is not said: %s", errOut)
		}
		if viaDaemon {
			if out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "index", "stop").CombinedOutput(); err != nil {
				t.Errorf("stop: %v %s", err, out)
			}
		}
	}
}
