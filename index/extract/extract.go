package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// Formats the package reads, by file name extension.
var formats = map[string]string{".pdf": "pdf", ".docx": "docx", ".xlsx": "xlsx", ".pptx": "pptx"}

// oldFormats are the binary Office formats, refused with what to do.
var oldFormats = map[string]string{
	".doc": "Word 97–2003 (.doc)", ".xls": "Excel 97–2003 (.xls)", ".ppt": "PowerPoint 97–2003 (.ppt)",
}

// Handles reports whether the extension (with the dot, any case) is a
// document this package reads or refuses.
func Handles(ext string) bool {
	ext = strings.ToLower(ext)
	_, ok := formats[ext]
	_, old := oldFormats[ext]
	return ok || old
}

// ToolMissingReason reports whether a skip reason (an error's sentence)
// says a program is missing.
func ToolMissingReason(why string) bool { return strings.HasPrefix(why, ErrToolMissing.Error()) }

// PDFReadable reports whether PDF files can be read here (pdftotext is on
// PATH).
func PDFReadable() bool {
	_, err := exec.LookPath("pdftotext")
	return err == nil
}

// Errors of an extraction; the index lists such files as skipped, with
// the error's sentence.
var (
	ErrOldFormat   = errors.New("an old binary Office format")
	ErrEncrypted   = errors.New("encrypted")
	ErrBroken      = errors.New("broken or not what its name says")
	ErrNoText      = errors.New("no text layer")
	ErrGarbled     = errors.New("the extracted text is garbled")
	ErrTooLarge    = errors.New("too large when unpacked")
	ErrToolMissing = errors.New("a program needed to read it is not installed")
	ErrTimeout     = errors.New("extraction took too long")
	ErrTooMuchText = errors.New("it holds more text than is indexed")
)

// Text is a document's text: one entry of Lines per line, and where each
// line stands.
type Text struct {
	Format   string    `json:"format"` // pdf, docx, xlsx or pptx
	Lines    []string  `json:"lines"`
	Locators []Locator `json:"locators"`
}

// String is the text, lines joined by newlines.
func (t *Text) String() string { return strings.Join(t.Lines, "\n") }

// Locator says where a line stands in its document.
type Locator struct {
	Page    int    `json:"page,omitempty"`    // PDF
	Sheet   string `json:"sheet,omitempty"`   // Excel
	Row     int    `json:"row,omitempty"`     // Excel
	Slide   int    `json:"slide,omitempty"`   // PowerPoint
	Heading string `json:"heading,omitempty"` // Word: the heading the line is under
}

// Label is the locator as people cite it: p.3, シート「単価表」 行12,
// スライド4, 見出し「第3条」; "" when it says nothing.
func (l Locator) Label() string {
	switch {
	case l.Page > 0:
		return fmt.Sprintf("p.%d", l.Page)
	case l.Sheet != "" && l.Row > 0:
		return fmt.Sprintf("シート「%s」 行%d", l.Sheet, l.Row)
	case l.Sheet != "":
		return fmt.Sprintf("シート「%s」", l.Sheet)
	case l.Slide > 0:
		return fmt.Sprintf("スライド%d", l.Slide)
	case l.Heading != "":
		return fmt.Sprintf("見出し「%s」", l.Heading)
	}
	return ""
}

// Options bound an extraction.
type Options struct {
	// Timeout bounds one file (30s when zero).
	Timeout time.Duration
	// MaxUnpacked bounds what an Office file may unpack to (64 MiB when
	// zero): a small zip that unpacks to gigabytes is refused.
	MaxUnpacked int64
	// PDFToText is the pdftotext program ("" looks it up on PATH).
	PDFToText string
	// MaxText bounds the characters a file's extraction may produce
	// (3 × 8 MiB when zero): a small file that expands to gigabytes of
	// text is refused with ErrTooMuchText.
	MaxText int64
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxUnpacked <= 0 {
		o.MaxUnpacked = 64 << 20
	}
	if o.MaxText <= 0 {
		o.MaxText = 3 * 8 << 20
	}
	return o
}

// Extract reads the document named name (its extension decides how) from
// data; path is the file itself, for the programs that read files.
func Extract(ctx context.Context, name, path string, data []byte, opts Options) (*Text, error) {
	opts = opts.withDefaults()
	ext := strings.ToLower(filepath.Ext(name))
	if what, ok := oldFormats[ext]; ok {
		return nil, fmt.Errorf("%w: %s is not read; save it as %sx to index it", ErrOldFormat, what, ext)
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	var t *Text
	var err error
	switch formats[ext] {
	case "pdf":
		t, err = pdf(ctx, path, opts)
	case "docx":
		t, err = docx(ctx, data, opts)
	case "xlsx":
		t, err = xlsx(ctx, data, opts)
	case "pptx":
		t, err = pptx(ctx, data, opts)
	default:
		return nil, fmt.Errorf("extract: %s is not a format this package reads", ext)
	}
	if errors.Is(err, context.DeadlineExceeded) || err == nil && ctx.Err() != nil {
		return nil, fmt.Errorf("%w (more than %s)", ErrTimeout, opts.Timeout)
	}
	if err != nil {
		return nil, err
	}
	t.trim()
	if len(t.Lines) == 0 {
		return nil, fmt.Errorf("%w: no text was found in it", ErrNoText)
	}
	if share := unreadableShare(t.Lines); share > 0.02 {
		return nil, fmt.Errorf("%w: %.0f%% of its characters are unreadable (replacement or private-use characters)", ErrGarbled, share*100)
	}
	return t, nil
}

// trim drops trailing empty lines and white space at line ends.
func (t *Text) trim() {
	for i, l := range t.Lines {
		t.Lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	n := len(t.Lines)
	for n > 0 && t.Lines[n-1] == "" {
		n--
	}
	t.Lines, t.Locators = t.Lines[:n], t.Locators[:n]
}

// add appends a line with its locator.
func (t *Text) add(line string, at Locator) {
	if strings.ContainsAny(line, "\r\n") {
		line = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line)
	}
	t.Lines = append(t.Lines, line)
	t.Locators = append(t.Locators, at)
}

// unreadableShare is the share of replacement and private-use characters
// among the characters that are not white space.
func unreadableShare(lines []string) float64 {
	bad, all := 0, 0
	for _, l := range lines {
		for _, r := range l {
			if unicode.IsSpace(r) {
				continue
			}
			all++
			if r == unicode.ReplacementChar || r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 {
				bad++
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(bad) / float64(all)
}

// openZip opens an Office file's zip, refusing one that unpacks to more
// than max bytes or is not a zip.
func openZip(data []byte, max int64) (*zip.Reader, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if isEncryptedOffice(data) {
			return nil, fmt.Errorf("%w: it is protected by a password", ErrEncrypted)
		}
		return nil, fmt.Errorf("%w: not a zip file (%v)", ErrBroken, err)
	}
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
	}
	if total > uint64(max) {
		return nil, fmt.Errorf("%w: it unpacks to %d bytes, more than the %d read", ErrTooLarge, total, max)
	}
	return z, nil
}

// isEncryptedOffice: a password-protected Office file is an OLE compound
// file (D0 CF 11 E0 …), not a zip.
func isEncryptedOffice(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
}

// part reads one file of a zip, at most max bytes.
func part(z *zip.Reader, name string, max int64) ([]byte, error) {
	f, err := z.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBroken, name, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: %s unpacks to more than %d bytes", ErrTooLarge, name, max)
	}
	return b, nil
}

// relationships reads an Office relationships part: target by id.
func relationships(rels []byte) map[string]string {
	targets := map[string]string{}
	dec := xml.NewDecoder(bytes.NewReader(rels))
	for {
		tok, err := dec.Token()
		if err != nil {
			return targets
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" {
			targets[attr(e, "Id")] = attr(e, "Target")
		}
	}
}
