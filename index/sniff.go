package index

import (
	"bytes"
	"errors"
	"path"
	"unicode/utf8"
)

// sniffSize is how much of a file without an extension is read to tell
// whether it is text.
const sniffSize = 4096

// extensionless reports a name without an extension (README, LICENSE,
// NOTICE), which is indexed when its bytes are text.
func extensionless(rel string) bool { return path.Ext(path.Base(rel)) == "" }

// sniffText tells whether the file at abs (under root, read under
// readInRoot's rule) reads as text by its first bytes: a byte order mark,
// or no NUL byte and valid UTF-8 or Shift_JIS (CP932). It returns "" for
// text, else why the file is not indexed.
func sniffText(root, abs string) string {
	head, err := headInRoot(root, abs, sniffSize)
	switch {
	case errors.Is(err, ErrRefused):
		return refusal(err)
	case err != nil:
		return unreadablePrefix + pathless(err).Error()
	}
	return sniffData(head)
}

// sniffData is sniffText on a file's bytes (its first sniffSize are read).
func sniffData(data []byte) string {
	head := data[:min(len(data), sniffSize)]
	if looksText(head, len(data) > len(head) || len(head) == sniffSize) {
		return ""
	}
	return "it has no extension and is not text"
}

// looksText is the test of sniffText on a file's first bytes; cut says
// the file goes on past them (its last character may be cut in two).
func looksText(head []byte, cut bool) bool {
	if bytes.HasPrefix(head, bomUTF8) || bytes.HasPrefix(head, bomUTF16LE) || bytes.HasPrefix(head, bomUTF16BE) {
		return true
	}
	if len(head) == 0 || bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	tries := [][]byte{head}
	if cut {
		for n := 1; n <= 3 && n < len(head); n++ {
			tries = append(tries, head[:len(head)-n])
		}
	}
	for _, h := range tries {
		if utf8.Valid(h) {
			return controlShare(string(h)) <= 0.05
		}
	}
	for _, h := range tries[:min(2, len(tries))] { // a Shift_JIS character is 1 or 2 bytes
		if s, err := cp932.NewDecoder().Bytes(h); err == nil && !bytes.ContainsRune(s, utf8.RuneError) {
			return controlShare(string(s)) <= 0.05 && japaneseShare(string(s)) >= 0.2
		}
	}
	return false
}
