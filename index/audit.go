package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// verify is the audit's check of the index against itself and its
// manifest: every segment file of the current snapshot holds the CRC-32
// its footer records (Bleve never checks it: damage at the head of a
// segment silently drops its documents from results), and the index
// holds as many passages as the manifest lists. It returns what is wrong,
// "" when nothing is.
func (ix *Index) verify() string {
	if why := ix.verifySegments(); why != "" {
		return why
	}
	entries, err := ix.man.all()
	if err != nil {
		return "cannot read the manifest: " + err.Error()
	}
	want := uint64(0)
	for _, e := range entries {
		want += uint64(len(e.IDs))
	}
	if got, err := ix.b.DocCount(); err != nil || got != want {
		return fmt.Sprintf("it holds %d passages, its manifest lists %d", got, want)
	}
	return ""
}

// verifySegments checks the index's own files: every segment reads and
// matches its checksum. "" when they do.
func (ix *Index) verifySegments() string {
	adv, err := ix.b.Advanced()
	if err != nil {
		return "cannot read the index: " + err.Error()
	}
	r, err := adv.Reader()
	if err != nil {
		return "cannot read the index: " + err.Error()
	}
	// The open reader keeps the snapshot's files from being removed by a
	// merge while they are read.
	defer r.Close()
	if snap, ok := r.(*scorch.IndexSnapshot); ok {
		for _, ss := range snap.Segments() {
			ps, ok := ss.Segment().(segment.PersistedSegment)
			if !ok {
				continue
			}
			if err := checkSegment(ps.Path()); err != nil {
				return fmt.Sprintf("segment %s: %v", filepath.Base(ps.Path()), err)
			}
		}
	}
	return ""
}

// checkSegment compares a zap segment's CRC-32 (IEEE, of everything
// before it, big-endian in the file's last four bytes) with its content.
func checkSegment(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < 4 {
		return errors.New("too short")
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size()-4)); err != nil {
		return err
	}
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], st.Size()-4); err != nil {
		return err
	}
	if want := binary.BigEndian.Uint32(tail[:]); h.Sum32() != want {
		return fmt.Errorf("its CRC-32 is %08x, its footer says %08x", h.Sum32(), want)
	}
	return nil
}
