package boltfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"lwr/config/boltfile"
	"lwr/config/configtest"
)

// sound writes a bbolt file of a hundred pages or so with a freelist.
func sound(t *testing.T) string {
	t.Helper()
	p := filepath.Join(configtest.TempDir(t), "x.db")
	db, err := bolt.Open(p, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	for round, n := range []int{2000, 10} { // the second round leaves a freelist
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			for i := range n {
				if err := b.Put(fmt.Appendf(nil, "key-%04d", i), fmt.Appendf(nil, "value %d of round %d, long enough to fill pages", i, round)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenSound(t *testing.T) {
	p := sound(t)
	for _, readOnly := range []bool{false, true} {
		db, err := boltfile.Open(p, 0o600, bolt.Options{ReadOnly: readOnly, Timeout: time.Second}, true)
		if err != nil {
			t.Fatalf("read-only %v: %v", readOnly, err)
		}
		db.Close()
	}
}

// Every kind of damage is ErrDamaged, and the file is released: it can be
// renamed (Windows cannot rename a file still mapped or open).
func TestOpenDamaged(t *testing.T) {
	for _, kind := range configtest.BoltDamage {
		t.Run(kind, func(t *testing.T) {
			p := sound(t)
			configtest.DamageBolt(t, p, kind)
			for _, readOnly := range []bool{true, false} {
				db, err := boltfile.Open(p, 0o600, bolt.Options{ReadOnly: readOnly, Timeout: time.Second}, true)
				if err == nil {
					db.Close()
					t.Fatalf("read-only %v: opened a file with %s", readOnly, kind)
				}
				if !errors.Is(err, boltfile.ErrDamaged) {
					t.Fatalf("read-only %v: %v; want ErrDamaged", readOnly, err)
				}
				var d *boltfile.Damage
				if !errors.As(err, &d) || d.Reason == "" {
					t.Fatalf("read-only %v: %v carries no reason", readOnly, err)
				}
			}
			if err := os.Rename(p, p+".aside"); err != nil {
				t.Fatalf("the damaged file is still held: %v", err)
			}
		})
	}
}

// A file that looks damaged while another holder has it locked (a writer
// in the middle of a commit looks just like that) is not called damaged:
// the open waits for the lock like bbolt and times out.
func TestDamageIsJudgedUnderTheLock(t *testing.T) {
	p := sound(t)
	holder, err := bolt.Open(p, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	configtest.DamageBolt(t, p, "freelist type")
	_, err = boltfile.Open(p, 0o600, bolt.Options{Timeout: 300 * time.Millisecond}, true)
	if !errors.Is(err, berrors.ErrTimeout) {
		t.Fatalf("opened while locked elsewhere: %v; want bbolt's ErrTimeout", err)
	}
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := boltfile.Open(p, 0o600, bolt.Options{Timeout: 300 * time.Millisecond}, true); !errors.Is(err, boltfile.ErrDamaged) {
		t.Fatalf("once released: %v; want ErrDamaged", err)
	}
}

func TestGuard(t *testing.T) {
	err := boltfile.Guard(func() error { panic("page 7: invalid page type") })
	if !errors.Is(err, boltfile.ErrDamaged) || err.Error() != "the file is damaged: page 7: invalid page type" {
		t.Fatalf("Guard: %v", err)
	}
	want := errors.New("plain")
	if err := boltfile.Guard(func() error { return want }); err != want {
		t.Fatalf("Guard changed an error: %v", err)
	}
}
