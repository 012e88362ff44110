package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"lwr/config"
	"lwr/index/extract"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// Errors of reading one source file. The build skips such files and counts
// them; search reports them.
var (
	ErrBinary   = errors.New("binary file")
	ErrEncoding = errors.New("text is not UTF-8, UTF-16, Shift_JIS (CP932) or EUC-JP")
)

// sidecarSuffix names the metadata file that sits beside a document.
const sidecarSuffix = ".meta.yaml"

// Rules decides which files of a source root are indexed.
type Rules struct {
	Extensions  []string // lower case, with the dot
	Exclude     []string // path patterns never indexed (package glob: .gitignore's dialect)
	MaxFileSize int64
	// MaxExtractedChars bounds the text of one PDF or Office document, in
	// characters (extract.Options.MaxText).
	MaxExtractedChars int64
	// Extracted is the folder of the text extracted from PDF and Office
	// documents, by content (in the index folder; "" extracts again).
	Extracted string
}

// withDefaults fills what is zero from the configuration's defaults.
func (r Rules) withDefaults() Rules {
	d := config.DefaultIndex()
	if r.MaxFileSize <= 0 {
		r.MaxFileSize = d.MaxFileSize
	}
	if r.MaxExtractedChars <= 0 {
		r.MaxExtractedChars = d.MaxExtractedChars
	}
	if len(r.Extensions) == 0 {
		r.Extensions = d.Extensions
	}
	return r
}

// fileInfo is what a walk learns of one file without reading it.
type fileInfo struct {
	Rel     string // relative path with forward slashes: the document id
	Abs     string
	Size    int64
	ModTime int64  // unix nanoseconds
	Meta    string // fingerprint of the sidecar, "" when there is none
}

// Excluded reports why a file (relative path, forward slashes) is never
// indexed, or "" when it may be.
func (r Rules) Excluded(rel string) string {
	base := path.Base(rel)
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return "hidden"
		}
	}
	lb := strings.ToLower(base)
	switch {
	case lb == ".env" || strings.HasPrefix(lb, ".env."):
		return "secret"
	case strings.HasPrefix(lb, "secrets.") || lb == "secrets":
		return "secret"
	case strings.HasSuffix(lb, sidecarSuffix):
		return "sidecar"
	case strings.HasSuffix(lb, ".bak"):
		return "backup"
	case isTempName(base):
		return "temporary"
	}
	if pathIn(rel, r.Exclude) {
		return "excluded"
	}
	ext := strings.ToLower(path.Ext(base))
	for _, e := range r.Extensions {
		if ext == e {
			return ""
		}
	}
	return "extension"
}

// isTempName matches the temporary files editors and office suites write.
func isTempName(base string) bool {
	switch {
	case strings.HasSuffix(base, "~"),
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swx"), strings.HasSuffix(base, ".swo"),
		strings.HasSuffix(base, ".tmp"), strings.HasSuffix(base, ".temp"), strings.HasSuffix(base, ".part"),
		strings.HasSuffix(base, ".crdownload"),
		strings.HasPrefix(base, ".#"), strings.HasPrefix(base, "~$"), strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"),
		base == "4913":
		return true
	}
	return false
}

// walk lists the indexable files under root. Symbolic links are not
// followed; hidden folders are not entered.
func walk(root string, rules Rules, skipped func(rel, why string)) ([]fileInfo, error) {
	var files []fileInfo
	sidecars := map[string]string{}
	shownBy := map[string]string{} // shown name → the file's own
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		raw, _ := filepath.Rel(root, p)
		raw = filepath.ToSlash(raw)
		rel := ShownName(raw)
		if err != nil {
			if p == root {
				return err
			}
			skipped(rel, unreadablePrefix+pathless(err).Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == root {
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
			return nil
		}
		why := rules.Excluded(rel)
		if why == "extension" && extensionless(rel) {
			if why = sniffText(root, p); why != "" {
				skipped(rel, why)
				return nil
			}
		}
		if why == "sidecar" {
			if info, err := d.Info(); err == nil {
				sidecars[strings.TrimSuffix(rel, sidecarSuffix)] = fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano())
			}
			return nil
		}
		if why != "" {
			if why != "extension" && why != "hidden" {
				skipped(rel, why)
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			skipped(rel, unreadablePrefix+pathless(err).Error())
			return nil
		}
		if info.Size() > rules.MaxFileSize {
			skipped(rel, fmt.Sprintf("larger than %d bytes", rules.MaxFileSize))
			return nil
		}
		if first, dup := shownBy[foldPath(rel)]; dup {
			skipped(rel, fmt.Sprintf("its name is shown as another file's, %s (on disk %+q and %+q): rename one of them", rel, first, raw))
			return nil
		}
		shownBy[foldPath(rel)] = raw
		files = append(files, fileInfo{Rel: rel, Abs: p, Size: info.Size(), ModTime: info.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range files {
		files[i].Meta = sidecars[files[i].Rel]
	}
	return files, nil
}

// decodeDocument turns a file's bytes into its text: PDF and Office
// documents through package extract (their text kept under r.Extracted by
// sum, the SHA-256 of data), with where each line stands — a program that
// reads a file (pdftotext) reads a copy of data, never the source path
// again; other files
// decoded from their encoding (locs is nil). enc names the encoding, or
// "extracted:<format>".
func (r Rules) decodeDocument(rel, abs string, data []byte, sum string) (text, enc string, locs []extract.Locator, err error) {
	if !extract.Handles(path.Ext(rel)) {
		text, enc, err = Decode(data)
		return text, enc, nil, err
	}
	c := extract.Cache{Dir: r.Extracted, MaxText: r.MaxExtractedChars}
	t, ok := c.Get(sum)
	if !ok {
		// Text over the budget is an error, never kept.
		err := withCopy(r.Extracted, path.Ext(rel), data, func(copied string) error {
			t, err = extract.Extract(context.Background(), rel, copied, data, extract.Options{MaxText: r.MaxExtractedChars})
			return err
		})
		if err != nil {
			return "", "", nil, err
		}
		c.Put(sum, t)
	}
	return t.String(), "extracted:" + t.Format, t.Locators, nil
}

// ReadText reads a source file and returns its text as valid UTF-8 and the
// encoding it was stored in.
func ReadText(p string) (text string, enc string, err error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", "", err
	}
	return Decode(data)
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// Decode turns the bytes of a text file into UTF-8: a byte order mark
// decides first, then UTF-8 validity, then whichever of Shift_JIS (CP932)
// and EUC-JP decodes cleanly and reads as Japanese. Binary data and text in
// any other encoding are errors: lwr never indexes mojibake.
func Decode(data []byte) (text string, enc string, err error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return strings.ToValidUTF8(string(data[3:]), "\uFFFD"), "utf-8-bom", nil
	case bytes.HasPrefix(data, bomUTF16LE):
		return decodeWith(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), data, "utf-16le")
	case bytes.HasPrefix(data, bomUTF16BE):
		return decodeWith(unicode.UTF16(unicode.BigEndian, unicode.UseBOM), data, "utf-16be")
	}
	head := data
	if len(head) > 8192 {
		head = head[:8192]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", "", ErrBinary
	}
	if utf8.Valid(data) {
		if controlShare(string(head)) > 0.05 {
			return "", "", ErrBinary
		}
		return string(data), "utf-8", nil
	}
	type cand struct {
		name string
		text string
		bad  int
		ja   float64
	}
	var best *cand
	for _, c := range []struct {
		name string
		e    encoding.Encoding
	}{{"shift_jis", japanese.ShiftJIS}, {"euc-jp", japanese.EUCJP}} {
		out, err := c.e.NewDecoder().Bytes(data)
		if err != nil {
			continue
		}
		s := string(out)
		x := &cand{name: c.name, text: s, bad: strings.Count(s, "\uFFFD"), ja: japaneseShare(s)}
		if best == nil || x.bad < best.bad || x.bad == best.bad && x.ja > best.ja {
			best = x
		}
	}
	if best == nil || best.bad > 0 || best.ja < 0.2 {
		if best != nil && controlShare(best.text) > 0.05 {
			return "", "", ErrBinary
		}
		return "", "", ErrEncoding
	}
	return best.text, best.name, nil
}

func decodeWith(e encoding.Encoding, data []byte, name string) (string, string, error) {
	out, err := e.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrEncoding, err)
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), name, nil
}

// japaneseShare is the share of non-ASCII characters that are hiragana,
// full-width katakana, CJK ideographs or Japanese punctuation: high for a
// right guess, low for mojibake (which is full of half-width katakana and
// rare symbols).
func japaneseShare(s string) float64 {
	var ja, other int
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		switch {
		case r >= 0x3040 && r <= 0x30FF, // hiragana, katakana
			r >= 0x4E00 && r <= 0x9FFF, // CJK ideographs
			r >= 0x3000 && r <= 0x303F, // CJK punctuation
			r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			ja++
		default:
			other++
		}
	}
	if ja+other == 0 {
		return 1
	}
	return float64(ja) / float64(ja+other)
}

// controlShare is the share of control characters other than white space.
func controlShare(s string) float64 {
	var ctl, n int
	for _, r := range s {
		n++
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != '\v' || r == 0x7f {
			ctl++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ctl) / float64(n)
}
