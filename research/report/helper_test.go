package report_test

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// testNow is the clock of the tests.
func testNow() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
