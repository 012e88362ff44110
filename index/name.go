package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
)

// A file's name is shown (in results, citations, reports, JSON) as valid
// UTF-8 without control characters, so that it can be read and quoted;
// names that are not are shown, segment by segment:
//
//   - a segment that is valid Shift_JIS (CP932) and reads back to the same
//     bytes (a Japanese Windows zip unpacked on Linux or macOS) as the
//     text it encodes: 規程.md;
//   - any other as its valid characters with every other byte, control
//     character and "%" written %XX: bad%FF%FE.md, new%0Aline.md. The
//     %XX are what a file: URL means by them, so a link to the shown name
//     opens the file.
//
// Resolve finds the file a shown name stands for. Two names that show
// alike are one too many: the second is skipped, named.

// ShownName is how a file's path relative to the source root (forward
// slashes, the bytes the file system gave) is shown.
func ShownName(rel string) string {
	if plainName(rel) {
		return rel
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = shownSegment(s)
	}
	return strings.Join(segs, "/")
}

// plainName reports a name shown as it is: valid UTF-8 without control
// characters.
func plainName(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += n
	}
	return true
}

var cp932 = japanese.ShiftJIS

func shownSegment(s string) string {
	if plainName(s) {
		return s
	}
	if !utf8.ValidString(s) {
		if d, err := cp932.NewDecoder().String(s); err == nil && plainName(d) && !strings.ContainsRune(d, utf8.RuneError) {
			if back, err := cp932.NewEncoder().String(d); err == nil && back == s {
				return d
			}
		}
	}
	return EscapeBytes(s)
}

// EscapeBytes writes "%", control characters, line and paragraph
// separators and bytes that are not UTF-8 as %XX, the rest as it is: a
// name as text that a file: URL reads back as the name's bytes.
func EscapeBytes(s string) string {
	escape := func(r rune, n int) bool {
		return r == '%' || r == utf8.RuneError && n == 1 || unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if escape(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if escape(r, n) {
			for k := 0; k < n; k++ {
				fmt.Fprintf(&b, "%%%02X", s[i+k])
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Resolve returns the file (an absolute path in the file system's bytes)
// that rel, a name as ShownName shows it, stands for under root: the name
// itself when it exists, else, segment by segment, the one whose shown
// form it is. A name no file stands for is returned as it is (opening it
// then fails as it should).
func Resolve(root, rel string) string {
	literal := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Lstat(literal); !errors.Is(err, fs.ErrNotExist) || onlyItself(rel) {
		return literal
	}
	dir := root
	for _, seg := range strings.Split(rel, "/") {
		next := filepath.Join(dir, seg)
		if _, err := os.Lstat(next); errors.Is(err, fs.ErrNotExist) {
			for _, c := range rawCandidates(seg) {
				if _, err := os.Lstat(filepath.Join(dir, c)); err == nil && shownSegment(c) == seg {
					next = filepath.Join(dir, c)
					break
				}
			}
		}
		dir = next
	}
	return dir
}

// onlyItself reports a name that no other name is shown as: one with
// neither "%" nor any character beyond ASCII.
func onlyItself(rel string) bool {
	for i := 0; i < len(rel); i++ {
		if rel[i] == '%' || rel[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rawCandidates are the names a shown segment may stand for: its %XX
// undone, and its Shift_JIS encoding.
func rawCandidates(seg string) []string {
	var out []string
	if strings.Contains(seg, "%") {
		var b []byte
		ok := true
		for i := 0; i < len(seg); i++ {
			if seg[i] == '%' {
				if i+2 >= len(seg) || !isHex(seg[i+1]) || !isHex(seg[i+2]) {
					ok = false
					break
				}
				b = append(b, unhex(seg[i+1])<<4|unhex(seg[i+2]))
				i += 2
				continue
			}
			b = append(b, seg[i])
		}
		if ok {
			out = append(out, string(b))
		}
	}
	if e, err := cp932.NewEncoder().String(seg); err == nil && e != seg {
		out = append(out, e)
	}
	return out
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' || 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
