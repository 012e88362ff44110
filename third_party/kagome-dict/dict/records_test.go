package dict

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ikawaha/kagome-dict/dict/trie"
)

// The readers take their records a buffer at a time: tables that span
// several buffers, and one cut short, read as written.
func TestReadRecordsAcrossBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	morphs := make(Morphs, 3*recordChunk/6+5)
	for i := range morphs {
		morphs[i] = Morph{LeftID: int16(rng.Uint32()), RightID: int16(rng.Uint32()), Weight: int16(rng.Uint32())}
	}
	var b bytes.Buffer
	if _, err := morphs.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	full := b.Bytes()
	got, err := ReadMorphs(bytes.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, morphs) {
		t.Error("morphs read differ from those written")
	}
	if _, err := ReadMorphs(bytes.NewReader(full[:len(full)-1])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("morphs cut short: err = %v, want io.ErrUnexpectedEOF", err)
	}

	idx := IndexTable{Da: make(trie.DoubleArray, 2*recordChunk/8+3), Dup: map[int32]int32{}}
	for i := range idx.Da {
		idx.Da[i].Base, idx.Da[i].Check = int32(rng.Uint32()), int32(rng.Uint32())
	}
	for range recordChunk/8 + 7 {
		idx.Dup[int32(rng.Uint32())] = int32(rng.Uint32())
	}
	b.Reset()
	if _, err := idx.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	gotIdx, err := ReadIndexTable(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotIdx, idx) {
		t.Error("index table read differs from the one written")
	}
}
