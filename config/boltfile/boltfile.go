// Package boltfile opens the bbolt files lwr keeps (the index manifest,
// Bleve's root.bolt, the web cache) so that a damaged file is an error,
// ErrDamaged, never a panic, a memory fault or a file left mapped and
// locked.
package boltfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged marks a bbolt file that cannot be read: truncated, garbled,
// or panicking when read.
var ErrDamaged = errors.New("the file is damaged")

// Damage is the error Open, Check and Guard return for a damaged file;
// it is ErrDamaged.
type Damage struct {
	Reason string // what is wrong, e.g. "its freelist page 7 is outside the file"
}

func (d *Damage) Error() string        { return ErrDamaged.Error() + ": " + d.Reason }
func (d *Damage) Is(target error) bool { return target == ErrDamaged }

func damaged(why any) error { return &Damage{Reason: fmt.Sprint(why)} }

// retry is how often a lock held by another process is tried again
// (bbolt's own interval).
const retry = 50 * time.Millisecond

// Open opens the bbolt file p with opts (opts.OpenFile, when set, opens
// the file). bbolt panics on some damage while it opens (a garbled
// freelist page) and then leaves its file open, locked and mapped: Open
// checks the freelist first, recovers from what bbolt panics on anyway,
// closes the file, and returns ErrDamaged, as it does for a file shorter
// than its data (which would fault when read) and, when full, for what
// bbolt's own consistency check finds. A lock held by another process for
// longer than opts.Timeout gives bbolt's ErrTimeout.
func Open(p string, mode os.FileMode, opts bolt.Options, full bool) (*bolt.DB, error) {
	open := opts.OpenFile
	if open == nil {
		open = os.OpenFile
	}
	start := time.Now()
	if err := checkFreelist(p, open, !opts.ReadOnly, opts.Timeout); err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		// One wait in all: what the second look waited is not waited again.
		opts.Timeout = max(opts.Timeout-time.Since(start), retry)
	}
	var file *os.File
	opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := open(name, flag, perm)
		file = f
		return f, err
	}
	var db *bolt.DB
	err := Guard(func() (err error) {
		db, err = bolt.Open(p, mode, &opts)
		return err
	})
	switch {
	case err == nil:
	case errors.Is(err, ErrDamaged):
		if db == nil && file != nil {
			file.Close()
		}
		return nil, err
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrInvalidMapping):
		return nil, damaged(err)
	default:
		return nil, err
	}
	if err := Check(db, p, full); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Check finds truncation in the open file db (at p) before anything reads
// its pages and, when full, the damage bbolt's consistency check finds.
func Check(db *bolt.DB, p string, full bool) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	return Guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if tx.Size() > st.Size() {
				return damaged(fmt.Sprintf("it is %d bytes, its data needs %d (truncated)", st.Size(), tx.Size()))
			}
			if !full {
				return nil
			}
			// Read the channel to its end: bbolt's checker goes on
			// walking pages in its own goroutine, and a file closed
			// under it would fault there, outside any guard.
			var first error
			for err := range tx.Check() {
				if first == nil {
					first = damaged(err)
				}
			}
			return first
		})
	})
}

// Guard runs f, turning a panic or a memory fault inside bbolt (a damaged
// file read through mmap) into ErrDamaged.
func Guard(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = damaged(r)
		}
	}()
	return f()
}

// checkFreelist checks, before bbolt opens the file p, that the freelist
// page its current meta page names is a freelist page inside the file:
// bbolt panics on one that is not while it opens, and cannot then release
// the file's memory mapping (on Windows the file cannot be removed or
// renamed until the process ends). Damage of other kinds is left to bbolt.
//
// Another process may be writing the file meanwhile, so a first look that
// finds fault is taken again holding the file's lock, as bbolt takes it
// (exclusive for a writer), before the file is called damaged.
func checkFreelist(p string, open func(string, int, os.FileMode) (*os.File, error), exclusive bool, timeout time.Duration) error {
	f, err := open(p, os.O_RDONLY, 0)
	if err != nil {
		return nil // bbolt creates it or says why it cannot
	}
	defer f.Close()
	if freelistFault(f) == nil {
		return nil
	}
	start := time.Now()
	for {
		held, err := tryLock(f, exclusive)
		if err != nil {
			break // no lock to be had here: the second look is unlocked
		}
		if held {
			defer unlock(f)
			break
		}
		if timeout != 0 && time.Since(start) > timeout-retry {
			return berrors.ErrTimeout
		}
		time.Sleep(retry)
	}
	if err := freelistFault(f); err != nil {
		return damaged(err)
	}
	return nil
}

// freelistFault reads the meta pages of f, then the freelist page the
// newer valid one names, and says what is wrong with it, if anything.
func freelistFault(f *os.File) error {
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
	// The size after the meta pages: a writer grows the file before it
	// writes the meta page that names the new pages.
	st, err := f.Stat()
	if err != nil {
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
