package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// errDamaged marks a bbolt file (the manifest, Bleve's root.bolt) that
// cannot be read: truncated, garbled, or panicking when read.
var errDamaged = errors.New("the file is damaged")

// openBolt opens a bbolt file. bbolt panics on some damage while it opens
// (a garbled freelist page) and then leaves its file open and locked;
// openBolt recovers, closes the file and returns errDamaged, as it does
// for a file shorter than its data (which would fault when read) and,
// when full, for what bbolt's own consistency check finds.
func openBolt(p string, opts bolt.Options, full bool) (*bolt.DB, error) {
	if err := freelistSound(p); err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	var file *os.File
	opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	var db *bolt.DB
	err := guardBolt(func() (err error) {
		db, err = bolt.Open(p, 0o600, &opts)
		return err
	})
	switch {
	case err == nil:
	case errors.Is(err, berrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, errDamaged):
		if db == nil && file != nil {
			file.Close()
		}
		return nil, err
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrInvalidMapping):
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	default:
		return nil, err
	}
	if err := checkBolt(db, p, full); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// checkBolt finds truncation and, when full, the damage bbolt's
// consistency check finds.
func checkBolt(db *bolt.DB, p string, full bool) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	return guardBolt(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if tx.Size() > st.Size() {
				return fmt.Errorf("%w: it is %d bytes, its data needs %d (truncated)", errDamaged, st.Size(), tx.Size())
			}
			if !full {
				return nil
			}
			for err := range tx.Check() {
				return fmt.Errorf("%w: %v", errDamaged, err)
			}
			return nil
		})
	})
}

// checkRootBolt checks Bleve's root.bolt in full before Bleve opens it:
// Bleve's open cannot be made to release a file bbolt panicked on.
func checkRootBolt(bleveDir string, opts bolt.Options) error {
	p := filepath.Join(bleveDir, "store", "root.bolt")
	if _, err := os.Stat(p); err != nil {
		return nil // Bleve says what is missing
	}
	opts.ReadOnly = true
	db, err := openBolt(p, opts, true)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return db.Close()
}

// guardBolt runs f, turning a panic or a memory fault inside bbolt (a
// damaged file read through mmap) into errDamaged.
func guardBolt(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errDamaged, r)
		}
	}()
	return f()
}

// freelistSound checks, before bbolt opens the file p, that the freelist
// page its current meta page names is a freelist page inside the file:
// bbolt panics on one that is not while it opens, and cannot then release
// the file's memory mapping (on Windows the file cannot be removed until
// the process ends). Damage of other kinds is left to bbolt to report.
func freelistSound(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	// A meta page: the page header (16 bytes), then magic, version, page
	// size, flags (4 bytes each), the root bucket (16), the freelist page,
	// the high-water mark, the transaction id, the checksum of all that.
	meta := func(off int64) (freelist, high, txid uint64, pageSize int64, ok bool) {
		var b [80]byte
		if _, err := f.ReadAt(b[:], off); err != nil {
			return 0, 0, 0, 0, false
		}
		h := fnv.New64a()
		h.Write(b[16:72])
		if binary.LittleEndian.Uint32(b[16:]) != 0xED0CDAED || h.Sum64() != binary.LittleEndian.Uint64(b[72:]) {
			return 0, 0, 0, 0, false
		}
		return binary.LittleEndian.Uint64(b[48:]), binary.LittleEndian.Uint64(b[56:]), binary.LittleEndian.Uint64(b[64:]), int64(binary.LittleEndian.Uint32(b[24:])), true
	}
	fl, high, tx, ps, ok := meta(0)
	if fl1, high1, tx1, ps1, ok1 := meta(int64(ps)); ok1 && (!ok || tx1 > tx) {
		fl, high, ps, ok = fl1, high1, ps1, true
	}
	if !ok || ps < 512 || fl == ^uint64(0) { // bbolt reports an invalid file; no freelist
		return nil
	}
	if fl < 2 || fl >= high || int64(fl+1)*ps > st.Size() {
		return fmt.Errorf("its freelist page %d is outside the file", fl)
	}
	var head [16]byte
	if _, err := f.ReadAt(head[:], int64(fl)*ps); err != nil {
		return fmt.Errorf("its freelist page %d cannot be read", fl)
	}
	const freelistPageFlag = 0x10
	if id, flags := binary.LittleEndian.Uint64(head[:]), binary.LittleEndian.Uint16(head[8:]); id != fl || flags != freelistPageFlag {
		return fmt.Errorf("its freelist page %d is not a freelist page", fl)
	}
	return nil
}
