package lazyre

import (
	"sync"
	"testing"
)

// TestCompiledAtFirstUse: nothing is compiled until a method runs, then
// once for every goroutine; a bad expression panics at that first use.
func TestCompiledAtFirstUse(t *testing.T) {
	re := New(`第([0-9]+)条`)
	if re.re != nil {
		t.Fatal("compiled by New")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := re.FindStringSubmatch("第12条（目的）"); len(m) != 2 || m[1] != "12" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		}()
	}
	wg.Wait()
	if re.Get() != re.Get() {
		t.Error("compiled twice")
	}
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic at its first use")
		}
	}()
	bad.MatchString("x")
}
