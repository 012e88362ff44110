package policy

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// nested is a policy file whose records field holds depth nested arrays
// (or objects): 41 KB at depth 20,000.
func nested(depth int, objects bool) []byte {
	open, close := "[", "]"
	if objects {
		open, close = `{"a":`, "}"
	}
	return []byte(`{"version": 1, "checked_at": "2026-10-01", "records": ` +
		strings.Repeat(open, depth) + `1` + strings.Repeat(close, depth) + `}`)
}

// TestDeeplyNestedPolicyFails checks that deep nesting fails closed with
// the file's code, fast and in bounded memory, whatever the depth.
func TestDeeplyNestedPolicyFails(t *testing.T) {
	// Compile the schemas first, so that only the parse is measured.
	_, _ = ParseCurrentness("p.json", nested(1, false))
	_, _ = ParsePreferences("p.json", nested(1, false))
	for _, depth := range []int{33, 1_000, 5_000, 20_000, 50_000} {
		for _, objects := range []bool{false, true} {
			for _, c := range []struct {
				name  string
				parse func(string, []byte) error
				want  error
			}{
				{"currentness", func(f string, b []byte) error { _, err := ParseCurrentness(f, b); return err }, ErrCurrentnessInvalid},
				{"preferences", func(f string, b []byte) error { _, err := ParsePreferences(f, b); return err }, ErrPreferencesInvalid},
			} {
				t.Run(fmt.Sprintf("%s/%d/objects=%v", c.name, depth, objects), func(t *testing.T) {
					data := nested(depth, objects)
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					err := c.parse("p.json", data)
					runtime.ReadMemStats(&after)
					if !errors.Is(err, c.want) {
						t.Fatalf("err = %v, want %v", err, c.want)
					}
					if !strings.Contains(err.Error(), "nests more than") {
						t.Errorf("the error does not say the file nests too deep: %v", err)
					}
					// Before the bound, depth 20,000 allocated 3.1 GiB.
					if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(data))+1<<20 {
						t.Errorf("allocated %d bytes for a %d-byte file", alloc, len(data))
					}
				})
			}
		}
	}
	// A file just within the bound is read as JSON (and then judged by
	// its schema): the bound is not where valid files fail.
	if _, err := ParseCurrentness("p.json", nested(30, false)); err == nil || strings.Contains(err.Error(), "nests more than") {
		t.Errorf("depth 31: %v, want a schema error", err)
	}
	// Brackets inside strings do not count.
	s := []byte(`{"version": 1, "checked_at": "2026-10-01", "records": [], "$schema": "` + strings.Repeat("[{", 100) + `\"]"}`)
	if _, err := ParseCurrentness("p.json", s); err != nil {
		t.Errorf("brackets in a string: %v", err)
	}
}

func BenchmarkNestedPolicy(b *testing.B) {
	for _, depth := range []int{1_000, 20_000, 50_000} {
		data := nested(depth, false)
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseCurrentness("p.json", data); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}
