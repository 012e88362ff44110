package extract

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// notesPlaceholders are the placeholders of a notes page that hold no
// note: the slide's picture, its number, the header, footer and date.
var notesPlaceholders = map[string]bool{"sldImg": true, "sldNum": true, "hdr": true, "ftr": true, "dt": true}

// drawingParagraphs reads the text of DrawingML paragraphs (<a:p>, runs
// <a:t>, breaks <a:br>) of a slide, a notes page, an Excel drawing or a
// SmartArt's data: a line per paragraph, a table's row (<a:tr>) as one
// line of its cells, tab-separated; one rendering of each
// mc:AlternateContent. skip leaves out the shapes that are placeholders
// of those types (<p:ph type="sldNum"/>). Each paragraph's characters
// are counted by room, which stops the reading when it says no.
func drawingParagraphs(b []byte, name string, skip map[string]bool, room roomFunc) ([]string, error) {
	dec := newDecoder(b, name)
	var (
		out     []string
		para    strings.Builder
		row     strings.Builder // the row's cells so far, tab-separated
		cell    strings.Builder // the cell's paragraphs so far
		cells   int
		inText  bool
		inCell  bool
		alt     []bool
		pending int64
	)
	// more counts characters read (a cell's tab among them) and the lines
	// so far against the budget: a part of empty cells or lines is bounded
	// as its text is.
	more := func(chars int64) error {
		pending += chars
		return room(pending, int64(len(out)))
	}
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
			case "AlternateContent":
				alt = append(alt, false)
			case "Choice", "Fallback":
				if len(alt) == 0 {
					break
				}
				if alt[len(alt)-1] {
					if err := dec.Skip(); err != nil {
						return nil, err
					}
					break
				}
				alt[len(alt)-1] = true
			case "ph":
				if skip[attr(e, "type")] {
					// The placeholder's shape: its properties are read;
					// skip the rest of the shape (<p:sp>), which holds
					// its text.
					if err := skipShape(dec); err != nil {
						return nil, err
					}
				}
			case "p":
				para.Reset()
			case "t":
				inText = true
			case "br":
				out = append(out, para.String())
				para.Reset()
				if err := more(0); err != nil {
					return nil, err
				}
			case "tr":
				row.Reset()
				cells = 0
			case "tc":
				inCell = true
				cell.Reset()
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "AlternateContent":
				if len(alt) > 0 {
					alt = alt[:len(alt)-1]
				}
			case "t":
				inText = false
			case "p":
				s := para.String()
				para.Reset()
				switch {
				case strings.TrimSpace(s) == "":
				case inCell:
					if cell.Len() > 0 {
						cell.WriteByte(' ')
					}
					cell.WriteString(strings.TrimSpace(s))
				default:
					out = append(out, s)
					if err := more(0); err != nil {
						return nil, err
					}
				}
			case "tc":
				inCell = false
				if cells++; cells > 1 {
					row.WriteByte('\t')
				}
				row.WriteString(strings.ReplaceAll(cell.String(), "\t", " "))
				cell.Reset()
				if err := more(1); err != nil {
					return nil, err
				}
			case "tr":
				if r := row.String(); strings.TrimSpace(r) != "" {
					out = append(out, r)
					if err := more(0); err != nil {
						return nil, err
					}
				}
				row.Reset()
				cells = 0
			}
		case xml.CharData:
			if inText {
				para.Write(e)
				if err := more(int64(utf8.RuneCount(e))); err != nil {
					return nil, err
				}
			}
		}
	}
}

// skipShape reads on to the end of the shape (<p:sp>) the decoder is in.
func skipShape(dec *xmlDecoder) error {
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "txBody" {
				if err := dec.Skip(); err != nil {
					return err
				}
			}
		case xml.EndElement:
			if e.Name.Local == "sp" {
				return nil
			}
		}
	}
}

// chartText reads a chart's words (ppt/charts/chartN.xml,
// xl/charts/chartN.xml): its title and the axes' titles a line each, then
// a line of the series' names and one of the categories' labels, each
// tab-separated.
func chartText(b []byte, name string, room roomFunc) ([]string, error) {
	dec := newDecoder(b, name)
	var (
		titles, series, cats []string
		para                 strings.Builder
		title                []string
		inTitle, inTx, inCat int
		inText, inV          bool
		pending              int64
	)
	seenCat := map[string]bool{}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "title":
				inTitle++
				title = title[:0]
			case "tx":
				if inTitle == 0 {
					inTx++
				}
			case "cat":
				inCat++
			case "p":
				para.Reset()
			case "t":
				inText = true
			case "v":
				inV = true
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "title":
				inTitle--
				if t := strings.TrimSpace(strings.Join(title, " ")); t != "" {
					titles = append(titles, t)
					if err := room(pending, int64(len(titles))); err != nil {
						return nil, err
					}
				}
			case "tx":
				if inTitle == 0 && inTx > 0 {
					inTx--
				}
			case "cat":
				inCat--
			case "p":
				if inTitle > 0 {
					title = append(title, para.String())
				}
			case "t":
				inText = false
			case "v":
				inV = false
			}
		case xml.CharData:
			s := strings.TrimSpace(string(e))
			switch {
			case inText:
				para.Write(e)
			case inV && inTx > 0 && s != "":
				series = append(series, s)
			case inV && inCat > 0 && s != "" && !seenCat[s]:
				// Every series repeats the categories.
				seenCat[s] = true
				cats = append(cats, s)
			default:
				continue
			}
			pending += int64(utf8.RuneCount(e)) + 1
			if err := room(pending, int64(len(titles))); err != nil {
				return nil, err
			}
		}
	}
	out := titles
	for _, l := range [][]string{series, cats} {
		if len(l) > 0 {
			out = append(out, strings.Join(l, "\t"))
		}
	}
	return out, nil
}
