package boltfile_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// bbolt's consistency check runs in a goroutine of its own and reports
// on an unbuffered channel: Check reads all it reports, so that no
// checker is left blocked (or walking a file that is then closed: a fault
// there is fatal). A freelist that lists no page leaves every free page
// "unreachable unfreed": one error each.
func TestCheckLeavesNoChecker(t *testing.T) {
	p := sound(t)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	ps := int64(binary.LittleEndian.Uint32(b[16+8:]))
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int64{0, ps} { // both meta pages' freelists
		fl := int64(binary.LittleEndian.Uint64(b[m+16+32:]))
		if _, err := f.WriteAt([]byte{0, 0}, fl*ps+10); err != nil { // the page's count
			t.Fatal(err)
		}
	}
	f.Close()
	before := runtime.NumGoroutine()
	for range 20 {
		db, err := boltfile.Open(p, 0o600, bolt.Options{ReadOnly: true, Timeout: time.Second}, true)
		if err == nil {
			db.Close()
			t.Fatal("opened a file whose freelist lists no page")
		}
		if !strings.Contains(err.Error(), "unreachable") {
			t.Fatalf("%v; want bbolt's unreachable pages", err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before+2 {
		t.Errorf("%d goroutines before 20 opens, %d after", before, after)
	}
}
