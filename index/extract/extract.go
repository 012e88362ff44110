package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Version changes whenever the text extracted from a document changes
// (what is read, how lines are cut or located): text cached by another
// version is extracted again, and an index of another version rebuilt.
const Version = "4"

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

// BudgetReason reports whether a skip reason says the document makes
// more text than the budget (ErrTooMuchText).
func BudgetReason(why string) bool { return strings.HasPrefix(why, ErrTooMuchText.Error()) }

// TimeoutReason reports whether a skip reason says the extraction took
// too long (ErrTimeout).
func TimeoutReason(why string) bool { return strings.HasPrefix(why, ErrTimeout.Error()) }

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
	// ErrTooMuchText: the document makes more characters of text than
	// Options.MaxText (each shared string, slide or part counted every
	// time it is used), or more lines than a line for every linesPer of
	// them.
	ErrTooMuchText = errors.New("too much text")
	// ErrTooComplex: a part's XML nests elements deeper, or writes more
	// attributes on one element, than any office program does (see
	// maxDepth): such a file is made to exhaust the reader's memory.
	ErrTooComplex = errors.New("too complex to read")
)

// MaxTextSetting is the configuration key of Options.MaxText, named in
// the sentence of ErrTooMuchText.
const MaxTextSetting = "index.max_extracted_chars"

// Text is a document's text: one entry of Lines per line, and where each
// line stands.
type Text struct {
	Format   string    `json:"format"` // pdf, docx, xlsx or pptx
	Lines    []string  `json:"lines"`
	Locators []Locator `json:"locators"`
	Version  string    `json:"version,omitempty"` // the extractor's Version (set by Extract)

	chars int64    // characters added
	lines int64    // lines added
	max   int64    // the most characters add takes (0: no bound)
	runs  []locRun // where the lines stand, a run of lines at a time (see finish)
}

// locRun is where the lines from start on stand (to the next run's start).
type locRun struct {
	start int
	at    Locator
}

// linesPer is how many characters of the budget pay for a line: a line
// costs its string and its locator (some hundred bytes) even when it is
// empty, so that a part of 64 MiB of empty paragraphs (<w:p/>, eleven
// million of them) would take gigabytes; the lines are bounded by
// Options.MaxText / linesPer (1 Mi at the default, an Excel sheet's
// rows), and by minLines at least.
const (
	linesPer = 16
	minLines = 4096
)

// maxLines is the most lines an extraction under a budget of max
// characters (Options.MaxText) may make.
func maxLines(max int64) int64 { return max/linesPer + minLines }

// newText is the empty text of a format, bounded by opts.MaxText.
func newText(format string, opts Options) *Text {
	return &Text{Format: format, max: opts.MaxText}
}

// errTooManyLines is ErrTooMuchText of a text over its lines' bound.
var errTooManyLines = fmt.Errorf("%w (lines)", ErrTooMuchText)

// full is the error of a text that holds more characters or lines than
// its budget takes, nil for one within it.
func (t *Text) full() error { return t.room(0, 0) }

// room is the error of n more characters in lines more lines that do not
// fit in the budget (nil when they do); it is what the readers of parts
// count what they hold against.
func (t *Text) room(n, lines int64) error {
	switch {
	case t.max <= 0:
		return nil
	case t.lines+lines > maxLines(t.max):
		return errTooManyLines
	case t.chars+n > t.max:
		return ErrTooMuchText
	}
	return nil
}

// roomFunc is Text.room.
type roomFunc func(n, lines int64) error

// finish sets the lines' locators from their runs.
func (t *Text) finish() {
	t.Locators = make([]Locator, len(t.Lines))
	for i, r := range t.runs {
		end := len(t.Lines)
		if i+1 < len(t.runs) {
			end = min(t.runs[i+1].start, end)
		}
		for j := r.start; j < end; j++ {
			t.Locators[j] = r.at
		}
	}
	t.runs = nil
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
	// Part is the part of the document a line is in, besides its body:
	// ヘッダー, フッター, 脚注3, 文末脚注1, コメント2 (Word); 図形, B3のコメント
	// (Excel); ノート, グラフ (PowerPoint).
	Part string `json:"part,omitempty"`
	// Hidden: the line is on a hidden sheet (Excel) or slide
	// (PowerPoint).
	Hidden bool `json:"hidden,omitempty"`
}

// Label is the locator as people cite it: p.3, シート「単価表」 行12,
// シート「作業用」(非表示) 行2, シート「単価表」 図形, スライド4, スライド4 ノート,
// スライド3(非表示), 見出し「第3条」, 脚注3; "" when it says nothing.
func (l Locator) Label() string {
	var s string
	switch {
	case l.Page > 0:
		s = fmt.Sprintf("p.%d", l.Page)
	case l.Sheet != "":
		s = fmt.Sprintf("シート「%s」", l.Sheet)
		if l.Hidden {
			s += "(非表示)"
		}
		if l.Row > 0 && l.Part == "" {
			s += fmt.Sprintf(" 行%d", l.Row)
		}
	case l.Slide > 0:
		s = fmt.Sprintf("スライド%d", l.Slide)
		if l.Hidden {
			s += "(非表示)"
		}
	case l.Heading != "" && l.Part == "":
		s = fmt.Sprintf("見出し「%s」", l.Heading)
	}
	switch {
	case l.Part == "":
		return s
	case s == "":
		return l.Part
	}
	return s + " " + l.Part
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
	// MaxText bounds the characters of text an extraction may produce
	// (DefaultMaxText when zero): each shared string, slide, part and
	// cell counts every time it is used, so that a few kilobytes that
	// expand to gigabytes are refused with ErrTooMuchText.
	MaxText int64
}

// DefaultMaxText is Options.MaxText when it is zero: twice the default
// index.max_file_size, in characters (six times its bytes in Japanese).
const DefaultMaxText = 2 * 8 << 20

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxUnpacked <= 0 {
		o.MaxUnpacked = 64 << 20
	}
	if o.MaxText <= 0 {
		o.MaxText = DefaultMaxText
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
	if err == nil {
		err = t.full()
	}
	switch {
	case errors.Is(err, errTooManyLines):
		return nil, tooManyLines(opts.MaxText)
	case errors.Is(err, ErrTooMuchText):
		return nil, TooMuchText(opts.MaxText)
	case err != nil:
		return nil, err
	}
	if t.runs != nil || len(t.Locators) != len(t.Lines) {
		t.finish()
	}
	t.trim()
	t.Version = Version
	if len(t.Lines) == 0 {
		return nil, fmt.Errorf("%w: no text was found in it", ErrNoText)
	}
	if share := unreadableShare(t.Lines); share > 0.02 {
		return nil, fmt.Errorf("%w: %.0f%% of its characters are unreadable (replacement or private-use characters)", ErrGarbled, share*100)
	}
	return t, nil
}

// TooMuchText is the error of a document that makes more than max
// characters of text: what is wrong and how to index it anyway.
func TooMuchText(max int64) error {
	return fmt.Errorf("%w: it makes more than %s characters of text, the most an extraction may (%s); raise that setting to index it", ErrTooMuchText, thousands(max), MaxTextSetting)
}

// tooManyLines is the error of a document that makes more lines than a
// budget of max characters holds.
func tooManyLines(max int64) error {
	return fmt.Errorf("%w: it makes more than %s lines of text, the most an extraction may (one for every %d characters of %s); raise that setting to index it", ErrTooMuchText, thousands(maxLines(max)), linesPer, MaxTextSetting)
}

// thousands is a number as people read it: 16,777,216.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// size is a number of bytes as people read it: 512 bytes, 900 KiB,
// 16 MiB, 572 MiB, 1.5 GiB (a tenth shown under ten, else whole units,
// rounded down).
func size(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v < 10 && math.Floor(v*10) != math.Floor(v)*10 {
		return strconv.FormatFloat(math.Floor(v*10)/10, 'f', 1, 64) + " " + units[u]
	}
	return strconv.FormatFloat(math.Floor(v), 'f', 0, 64) + " " + units[u]
}

// Chars is the number of characters of the text's lines.
func (t *Text) Chars() int64 {
	var n int64
	for _, l := range t.Lines {
		n += int64(utf8.RuneCountInString(l))
	}
	return n
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

// maxLine is the most characters of one line: a longer paragraph is
// wrapped after a sentence's end or a space near the bound (or at it),
// so that no line is longer than a passage.
const maxLine = 4000

// add appends a line with its locator, counting its characters against
// the budget; a line over the budget is not kept (over says so).
func (t *Text) add(line string, at Locator) {
	if strings.ContainsAny(line, "\r\n") {
		line = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line)
	}
	n := int64(utf8.RuneCountInString(line))
	t.chars += n
	t.lines += 1 + n/maxLine
	if t.max > 0 && (t.chars > t.max || t.lines > maxLines(t.max)) {
		return
	}
	if len(t.runs) == 0 || t.runs[len(t.runs)-1].at != at {
		t.runs = append(t.runs, locRun{start: len(t.Lines), at: at})
	}
	for n > maxLine {
		cut := wrapAt(line)
		t.Lines = append(t.Lines, line[:cut])
		n -= int64(utf8.RuneCountInString(line[:cut]))
		line = line[cut:]
	}
	t.Lines = append(t.Lines, line)
}

// wrapAt is the byte offset where a line longer than maxLine characters
// is cut: after the last 。, ．, ! or ? or white space of the last quarter
// of its first maxLine characters, else after maxLine characters.
func wrapAt(line string) int {
	end, n := len(line), 0
	for i := range line {
		if n == maxLine {
			end = i
			break
		}
		n++
	}
	from := 0
	for i, n := 0, 0; i < end; n++ {
		if n == maxLine*3/4 {
			from = i
			break
		}
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	best := -1
	for i, r := range line[from:end] {
		if strings.ContainsRune("。．！？!?", r) || unicode.IsSpace(r) {
			best = from + i + utf8.RuneLen(r)
		}
	}
	if best > 0 && best < len(line) {
		return best
	}
	return end
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

// openZip opens an Office file's zip (ext names its format: ".docx"),
// refusing one that unpacks to more than max bytes or is not a zip, and
// telling a password-protected file and an old binary one apart from a
// broken one.
func openZip(data []byte, max int64, ext string) (*zip.Reader, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if bytes.HasPrefix(data, oleSignature) {
			return nil, oleError(data, ext)
		}
		return nil, fmt.Errorf("%w: not a zip file (%v)", ErrBroken, err)
	}
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
	}
	if total > uint64(max) {
		return nil, fmt.Errorf("%w: it unpacks to %s, more than the %s an Office file may; split it into smaller files to index it", ErrTooLarge, size(int64(min(total, math.MaxInt64))), size(max))
	}
	return z, nil
}

// part reads one file of a zip, at most max bytes, into a buffer of the
// size the zip declares (so that a big part is not copied as it grows).
func part(z *zip.Reader, name string, max int64) ([]byte, error) {
	f, err := z.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want := int64(512)
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		want = min(st.Size(), max) + 1
	}
	b, err := readAll(io.LimitReader(f, max+1), want)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBroken, name, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: its %s unpacks to more than %s, the most read of one part; split the file into smaller ones to index it", ErrTooLarge, name, size(max))
	}
	return b, nil
}

// readAll reads r to its end into a buffer of size bytes first, grown
// as append grows it when r holds more.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
