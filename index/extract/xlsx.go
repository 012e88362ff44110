package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
)

// xlsx reads an Excel workbook: every sheet in the workbook's order, a
// line per row that holds anything (its cells' values, tab-separated;
// dates as dates), located by sheet and row number. Phonetic guides
// (furigana) of Japanese cells are left out.
func xlsx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	sheets, date1904, err := workbookSheets(z, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	var shared []string
	if b, err := part(z, "xl/sharedStrings.xml", opts.MaxUnpacked); err == nil {
		if shared, err = sharedStrings(b); err != nil {
			return nil, fmt.Errorf("%w: xl/sharedStrings.xml: %v", ErrBroken, err)
		}
	}
	var dates map[int]bool
	if b, err := part(z, "xl/styles.xml", opts.MaxUnpacked); err == nil {
		dates = dateStyles(b)
	}
	t := &Text{Format: "xlsx"}
	for _, sh := range sheets {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b, err := part(z, sh.part, opts.MaxUnpacked)
		if err != nil {
			return nil, fmt.Errorf("%w: sheet %s (%s): %v", ErrBroken, sh.name, sh.part, err)
		}
		if err := sheetRows(b, shared, dates, date1904, func(row int, cells []string) {
			t.add(strings.Join(cells, "\t"), Locator{Sheet: sh.name, Row: row})
		}); err != nil {
			return nil, fmt.Errorf("%w: sheet %s: %v", ErrBroken, sh.name, err)
		}
	}
	return t, nil
}

type sheet struct{ name, part string }

// workbookSheets reads the sheets' names and parts in the workbook's
// order, and whether dates count from 1904.
func workbookSheets(z *zip.Reader, max int64) ([]sheet, bool, error) {
	wb, err := part(z, "xl/workbook.xml", max)
	if err != nil {
		return nil, false, fmt.Errorf("%w: no xl/workbook.xml (%v)", ErrBroken, err)
	}
	rels, _ := part(z, "xl/_rels/workbook.xml.rels", max)
	targets := relationships(rels)
	var out []sheet
	date1904 := false
	dec := xml.NewDecoder(bytes.NewReader(wb))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, date1904, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("%w: xl/workbook.xml: %v", ErrBroken, err)
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "workbookPr":
			v := attr(e, "date1904")
			date1904 = v == "1" || v == "true"
		case "sheet":
			for _, a := range e.Attr {
				if a.Name.Local == "id" && a.Name.Space != "" {
					if tg := targets[a.Value]; tg != "" {
						p := strings.TrimPrefix(tg, "/")
						if !strings.HasPrefix(p, "xl/") {
							p = path.Join("xl", p)
						}
						out = append(out, sheet{name: attr(e, "name"), part: path.Clean(p)})
					}
				}
			}
		}
	}
}

// sharedStrings reads the shared string table: each <si>'s text runs,
// without its phonetic runs (<rPh>).
func sharedStrings(b []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var out []string
	var cur strings.Builder
	inT, phonetic := false, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "si":
				cur.Reset()
			case "t":
				inT = true
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "si":
				out = append(out, cur.String())
			case "t":
				inT = false
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if inT && phonetic == 0 {
				cur.Write(e)
			}
		}
	}
}

// dateStyles reads which cell styles (indexes of <cellXfs>) show dates:
// the built-in date formats and custom ones made of date parts.
func dateStyles(b []byte) map[int]bool {
	custom := map[int]string{}
	out := map[int]bool{}
	dec := xml.NewDecoder(bytes.NewReader(b))
	inXfs, n := false, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "numFmt":
				id, _ := strconv.Atoi(attr(e, "numFmtId"))
				custom[id] = attr(e, "formatCode")
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs {
					id, _ := strconv.Atoi(attr(e, "numFmtId"))
					if isDateFormat(id, custom[id]) {
						out[n] = true
					}
					n++
				}
			}
		case xml.EndElement:
			if e.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
	}
}

// isDateFormat: the built-in date and time formats (14–22, 45–47, and
// the Japanese 27–36, 50–58), or a format code with date parts outside
// quotes and brackets.
func isDateFormat(id int, code string) bool {
	switch {
	case id >= 14 && id <= 22, id >= 27 && id <= 36, id >= 45 && id <= 47, id >= 50 && id <= 58:
		return true
	case code == "":
		return false
	}
	quoted, bracket := false, false
	for _, r := range strings.ToLower(code) {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '[':
			bracket = true
		case r == ']':
			bracket = false
		case !bracket && strings.ContainsRune("ymdhs", r):
			return true
		}
	}
	return false
}

// sheetRows reads a sheet's rows, calling row with the row's number and
// its cells' values (rows with nothing are not passed).
func sheetRows(b []byte, shared []string, dates map[int]bool, date1904 bool, row func(int, []string)) error {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var (
		cells      []string
		rowN, auto int
		typ        string
		style      int
		val        strings.Builder
		inV, inIs  bool
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				auto++
				if r, err := strconv.Atoi(attr(e, "r")); err == nil {
					auto = r
				}
				rowN, cells = auto, cells[:0]
			case "c":
				typ = attr(e, "t")
				style, _ = strconv.Atoi(attr(e, "s"))
				val.Reset()
			case "v":
				inV = true
			case "is":
				inIs = true
			case "t":
				if inIs {
					inV = true
				}
			case "rPh":
				inV = false
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "v", "t":
				inV = false
			case "is":
				inIs = false
			case "c":
				if s := cellValue(typ, strings.TrimSpace(val.String()), style, shared, dates, date1904); s != "" {
					cells = append(cells, strings.NewReplacer("\r\n", " ", "\n", " ", "\t", " ").Replace(s))
				}
			case "row":
				if len(cells) > 0 {
					row(rowN, cells)
				}
			}
		case xml.CharData:
			if inV {
				val.Write(e)
			}
		}
	}
}

// cellValue is what a cell shows: shared and inline strings, booleans,
// errors, dates and numbers.
func cellValue(typ, v string, style int, shared []string, dates map[int]bool, date1904 bool) string {
	switch typ {
	case "s":
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(shared) {
			return ""
		}
		return shared[i]
	case "inlineStr", "str", "e":
		return v
	case "b":
		if v == "1" {
			return "TRUE"
		}
		return "FALSE"
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	if dates[style] {
		return serialDate(f, date1904)
	}
	// 15 significant digits, as Excel shows them (0.1, not 0.1000000001).
	return strconv.FormatFloat(roundSignificant(f, 15), 'f', -1, 64)
}

// serialDate turns an Excel serial date into 2026-04-01 (and its time,
// when it has one).
func serialDate(f float64, date1904 bool) string {
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	days := math.Floor(f)
	secs := math.Round((f - days) * 86400)
	t := base.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Second)
	if secs == 0 {
		return t.Format("2006-01-02")
	}
	if days == 0 {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}

func roundSignificant(f float64, n int) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}
