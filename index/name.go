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
	"golang.org/x/text/unicode/norm"
)

// A file's name is shown (in results, citations, reports, JSON) as valid
// UTF-8 without control characters, so that it can be read and quoted;
// names that are not are shown, segment by segment:
//
//   - a segment of valid UTF-8 in Unicode NFC: the decomposed names of
//     macOS, zip archives and git (ひ + U+3099) are composed, so that the
//     name reads, compares and is typed as people write it;
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
		return nfc(rel)
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

// nfc is s in Unicode NFC.
func nfc(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

func shownSegment(s string) string {
	if plainName(s) {
		return nfc(s)
	}
	if !utf8.ValidString(s) {
		if d, err := cp932.NewDecoder().String(s); err == nil && plainName(d) && !strings.ContainsRune(d, utf8.RuneError) {
			if back, err := cp932.NewEncoder().String(d); err == nil && back == s {
				return nfc(d)
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
// form it is (its decomposed form, its bytes before %XX or Shift_JIS, or
// else the folder's entry shown so). A name no file stands for is
// returned as it is (opening it then fails as it should).
func Resolve(root, rel string) string {
	literal := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Lstat(literal); !errors.Is(err, fs.ErrNotExist) || onlyItself(rel) {
		return literal
	}
	dir := root
	for _, seg := range strings.Split(rel, "/") {
		next := filepath.Join(dir, seg)
		if _, err := os.Lstat(next); errors.Is(err, fs.ErrNotExist) {
			if raw, ok := rawSegment(dir, seg); ok {
				next = filepath.Join(dir, raw)
			}
		}
		dir = next
	}
	return dir
}

// maxScan bounds the entries of a folder read to find a shown name.
const maxScan = 100_000

// rawSegment finds the entry of dir that a shown segment stands for.
func rawSegment(dir, seg string) (string, bool) {
	want := seg
	if plainName(seg) {
		want = nfc(seg) // a name typed decomposed stands for the composed one too
	}
	for _, c := range rawCandidates(seg) {
		if _, err := os.Lstat(filepath.Join(dir, c)); err == nil && shownSegment(c) == want {
			return c, true
		}
	}
	// A name in another mix of composed and decomposed characters than
	// either form: the folder's entries, read in bounded steps.
	f, err := os.Open(dir)
	if err != nil {
		return "", false
	}
	defer f.Close()
	for n := 0; n < maxScan; {
		names, err := f.Readdirnames(1024)
		for _, name := range names {
			if name != seg && shownSegment(name) == want {
				return name, true
			}
		}
		n += len(names)
		if err != nil {
			break
		}
	}
	return "", false
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
// undone, its decomposed form (NFD) and its Shift_JIS encoding.
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
	if d := norm.NFD.String(seg); d != seg {
		out = append(out, d)
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
