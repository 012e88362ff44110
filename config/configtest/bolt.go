package configtest

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"
)

// BoltDamage lists the ways a bbolt file is found damaged, for
// DamageBolt: a garbled freelist page and a freelist page of the wrong
// type (bbolt panics while opening them), every page header garbled
// (bbolt's "page expected to be" assertion), garbage in the middle, half
// the file gone, and metadata claiming pages the file does not have.
var BoltDamage = []string{"freelist garbled", "freelist type", "page headers", "middle garbled", "half truncated", "page count"}

// DamageBolt damages the bbolt file at path in the way named (one of
// BoltDamage). The file should hold more than a few pages and a freelist
// (rewritten entries leave one).
func DamageBolt(t testing.TB, path, kind string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The two meta pages: a 16-byte page header, then magic, version,
	// page size, flags (4 bytes each), the root bucket (16), the freelist
	// page, the high-water mark. bbolt reads the one of the later
	// transaction; both are damaged alike.
	pageSize := int64(binary.LittleEndian.Uint32(b[16+8:]))
	var freelists []int64
	high := int64(0)
	for _, m := range []int64{0, pageSize} {
		freelists = append(freelists, int64(binary.LittleEndian.Uint64(b[m+16+32:])))
		high = max(high, int64(binary.LittleEndian.Uint64(b[m+16+40:])))
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	garble := func(off int64, n int) {
		r := rand.New(rand.NewPCG(1, uint64(off)))
		g := make([]byte, n)
		for i := range g {
			g[i] = byte(r.Uint32())
		}
		if _, err := f.WriteAt(g, off); err != nil {
			t.Fatal(err)
		}
	}
	switch kind {
	case "freelist garbled":
		for _, fl := range freelists {
			garble(fl*pageSize, 64)
		}
	case "freelist type":
		for _, fl := range freelists {
			if _, err := f.WriteAt([]byte{0x01, 0x00}, fl*pageSize+8); err != nil { // a branch page's flags
				t.Fatal(err)
			}
		}
	case "page headers":
		for p := int64(2); p < high; p++ {
			if p != freelists[0] && p != freelists[1] {
				garble(p*pageSize, 16)
			}
		}
	case "middle garbled":
		garble(int64(len(b))/2, 4096)
	case "half truncated":
		err = f.Truncate(int64(len(b)) / 2)
	case "page count":
		lie := binary.LittleEndian.AppendUint64(nil, 1<<40)
		for _, off := range []int64{16 + 40, pageSize + 16 + 40} {
			if _, err := f.WriteAt(lie, off); err != nil {
				t.Fatal(err)
			}
		}
	default:
		t.Fatalf("unknown damage %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}
