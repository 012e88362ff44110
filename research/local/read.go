package local

import (
	"fmt"
	"time"

	"lwr/index"
	"lwr/research/report"
)

// Excerpt is lines of a document as it reads now, with their numbers.
type Excerpt struct {
	Path       string `json:"path" jsonschema:"the document's path relative to the source root"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	Lines      []Line `json:"lines"`
	More       bool   `json:"more" jsonschema:"true when the document goes on after end_line"`
	Encoding   string `json:"encoding" jsonschema:"how the file was decoded: utf-8, shift_jis, euc-jp, …"`
	ModifiedAt string `json:"modified_at"`
	SHA256     string `json:"sha256"`
}

// Line is one numbered line of a document.
type Line struct {
	N    int    `json:"n" jsonschema:"the line number, 1-based, as citations use it"`
	Text string `json:"text"`
	// Where is, for a PDF or Office document, where the line stands in it:
	// p.3, シート「単価表」 行12, スライド4, 見出し「第3条」.
	Where string `json:"where,omitempty" jsonschema:"PDF and Office documents: where the line stands in the document (page, sheet and row, slide, heading); the line numbers count in the extracted text"`
}

// The lines one read returns: 200 by default, 500 at the most.
const (
	readDefault = 200
	readMost    = 500
)

// ErrBadRange is returned for lines a document does not have.
var ErrBadRange = fmt.Errorf("no such lines")

// Read returns lines start–end of the document rel of root (index.ReadFile
// decides what may be read): from line 1 when start is 0, 200 lines when
// end is 0, at most 500.
func Read(root string, rules index.Rules, rel string, start, end int) (*Excerpt, error) {
	if start < 0 || end < 0 || start > report.MaxLine || end > report.MaxLine {
		return nil, fmt.Errorf("%w: lines count from 1 to %d", ErrBadRange, report.MaxLine)
	}
	f, err := index.ReadFile(root, rules, rel)
	if err != nil {
		return nil, err
	}
	n := len(f.Lines)
	start = max(start, 1)
	if start > n {
		return nil, fmt.Errorf("%w: line %d is past the end of %s, which has %d lines", ErrBadRange, start, f.Rel, n)
	}
	if end <= 0 {
		end = start + readDefault - 1
	}
	if end < start {
		return nil, fmt.Errorf("%w: the last line %d is before the first %d", ErrBadRange, end, start)
	}
	end = min(end, n, start+readMost-1)
	e := &Excerpt{Path: f.Rel, StartLine: start, EndLine: end, TotalLines: n, More: end < n, Encoding: f.Encoding,
		ModifiedAt: f.ModTime.UTC().Format(time.RFC3339), SHA256: f.SHA256, Lines: make([]Line, 0, end-start+1)}
	for i := start; i <= end; i++ {
		l := Line{N: i, Text: f.Lines[i-1]}
		if i <= len(f.Locators) {
			l.Where = f.Locators[i-1].Label()
		}
		e.Lines = append(e.Lines, l)
	}
	return e, nil
}
