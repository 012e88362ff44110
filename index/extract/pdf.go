package extract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// PDFInstall says how to install pdftotext, by operating system.
func PDFInstall() string {
	switch runtime.GOOS {
	case "windows":
		return "install Poppler (winget install oschwartz10612.Poppler, or scoop install poppler) and put its bin folder on PATH"
	case "darwin":
		return "install Poppler: brew install poppler"
	}
	return "install Poppler: sudo apt install poppler-utils poppler-data (Debian, Ubuntu), sudo dnf install poppler-utils poppler-data (Fedora)"
}

// pdf reads a PDF with Poppler's pdftotext: the words of each page with
// their boxes (-bbox-layout), put in reading order by pageLines, each line
// located on its page. poppler-data gives Japanese CID fonts their
// characters. The output is read as it comes and the program is stopped
// once its text passes opts.MaxText.
func pdf(ctx context.Context, path string, opts Options) (*Text, error) {
	tool := opts.PDFToText
	if tool == "" {
		p, err := exec.LookPath("pdftotext")
		if err != nil {
			return nil, fmt.Errorf("%w: PDF files are read with pdftotext; %s", ErrToolMissing, PDFInstall())
		}
		tool = p
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, tool, "-bbox-layout", "-enc", "UTF-8", "-eol", "unix", path, "-")
	cmd.Stderr = &limitedBuffer{buf: &errOut, max: 4096}
	cmd.WaitDelay = time.Second // what it started ends with it
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("pdftotext: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: pdftotext: %v", ErrToolMissing, err)
	}
	t, perr := readBBox(stdout, opts.MaxText)
	if perr != nil {
		stop() // kill pdftotext: its output is not read further
	}
	werr := cmd.Wait()
	switch {
	case errors.Is(perr, ErrTooMuchText):
		return nil, perr
	case ctx.Err() != nil && perr == nil:
		return nil, ctx.Err()
	case werr != nil:
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(errOut.String())
		var ee *exec.ExitError
		switch {
		case strings.Contains(strings.ToLower(msg), "password") || errors.As(werr, &ee) && ee.ExitCode() == 3:
			// pdftotext exits 3 on a permission or password error.
			return nil, fmt.Errorf("%w: it is protected by a password", ErrEncrypted)
		case msg != "":
			return nil, fmt.Errorf("%w: pdftotext: %s", ErrBroken, firstLine(msg))
		}
		return nil, fmt.Errorf("%w: pdftotext: %v", ErrBroken, werr)
	case perr != nil:
		return nil, fmt.Errorf("%w: pdftotext's output: %v", ErrBroken, perr)
	}
	if strings.TrimSpace(t.String()) == "" {
		return nil, fmt.Errorf("%w: the PDF holds no text (a scan without OCR?)", ErrNoText)
	}
	return t, nil
}

// maxPageWords bounds the words of one page held at once.
const maxPageWords = 1 << 20

// readBBox reads pdftotext's -bbox-layout XHTML: pages of flows, blocks,
// lines and words with their boxes. Each page's words become its lines in
// reading order, each under the last line before it that reads as a
// heading (第3章 総則, 第4条（宿泊料）, 1.2 目的; see textHeading), as a
// Word document without heading styles is. More than max characters of
// words is ErrTooMuchText.
func readBBox(r io.Reader, max int64) (*Text, error) {
	t := &Text{Format: "pdf"}
	dec := xml.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	var (
		page, line int
		heading    string // the article or chapter the lines are under
		chars      int64
		words      []pdfWord
		in         *pdfWord
		text       strings.Builder
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "page":
				page++
				words = words[:0]
			case "word":
				w := pdfWord{line: line}
				w.x0, w.y0 = num(e, "xMin"), num(e, "yMin")
				w.x1, w.y1 = num(e, "xMax"), num(e, "yMax")
				in = &w
				text.Reset()
			}
		case xml.CharData:
			if in != nil {
				text.Write(e)
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "word":
				if in == nil {
					continue
				}
				in.text = strings.ReplaceAll(text.String(), "\n", " ")
				chars += int64(utf8.RuneCountInString(in.text)) + 1
				if chars > max {
					return nil, fmt.Errorf("%w: its PDF text runs past %d characters", ErrTooMuchText, max)
				}
				if len(words) >= maxPageWords {
					return nil, fmt.Errorf("%w: a page holds more than %d words", ErrTooMuchText, maxPageWords)
				}
				if strings.TrimSpace(in.text) != "" {
					words = append(words, *in)
				}
				in = nil
			case "line":
				line++
			case "page":
				lines := pageLines(words)
				if len(lines) == 0 {
					lines = []string{""} // a page without text still counts
				}
				for _, l := range lines {
					if h := textHeading(l); h != "" {
						heading = h
					}
					t.add(l, Locator{Page: page, Heading: heading})
				}
			}
		}
	}
}

// num is a number attribute of a word's box (0 when it is not one).
func num(e xml.StartElement, name string) float64 {
	f, err := strconv.ParseFloat(attr(e, name), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// limitedBuffer keeps the first max bytes written to it and drops the
// rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
