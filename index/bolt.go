package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"lwr/config/boltfile"
)

// errDamaged marks a bbolt file (the manifest, Bleve's root.bolt) that
// cannot be read: truncated, garbled, or panicking when read.
var errDamaged = boltfile.ErrDamaged

// openBolt opens a bbolt file guarded (boltfile.Open); a lock held too
// long is ErrLocked.
func openBolt(p string, opts bolt.Options, full bool) (*bolt.DB, error) {
	db, err := boltfile.Open(p, 0o600, opts, full)
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, ErrLocked
	}
	return db, err
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
