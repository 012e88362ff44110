package index

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestBuildMemoryLimit: a build holds the soft memory limit while it
// runs, builds side by side share it, the last one lifts it, and a limit
// from the environment stands.
func TestBuildMemoryLimit(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set")
	}
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("a memory limit is set")
	}
	release := limitMemory(200 << 20)
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Fatalf("during a build the limit is %d", got)
	}
	second := limitMemory(300 << 20)
	release()
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Errorf("with a build still running the limit is %d", got)
	}
	second()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the builds the limit is %d", got)
	}
	limitMemory(0)()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit 0 set %d", got)
	}
}
