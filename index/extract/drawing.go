package extract

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
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
func drawingParagraphs(b []byte, skip map[string]bool, room func(int64) bool) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var (
		out     []string
		para    strings.Builder
		cells   []string // the row's cells so far
		cell    []string // the cell's paragraphs so far
		inText  bool
		inCell  bool
		alt     []bool
		pending int64
	)
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
			case "tr":
				cells = cells[:0]
			case "tc":
				inCell, cell = true, cell[:0]
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
					cell = append(cell, strings.TrimSpace(s))
				default:
					out = append(out, s)
				}
			case "tc":
				inCell = false
				cells = append(cells, strings.ReplaceAll(strings.Join(cell, " "), "\t", " "))
			case "tr":
				if strings.TrimSpace(strings.Join(cells, "")) != "" {
					out = append(out, strings.Join(cells, "\t"))
				}
			}
		case xml.CharData:
			if inText {
				para.Write(e)
				if pending += int64(len([]rune(string(e)))); !room(pending) {
					return nil, ErrTooMuchText
				}
			}
		}
	}
}

// skipShape reads on to the end of the shape (<p:sp>) the decoder is in.
func skipShape(dec *xml.Decoder) error {
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
func chartText(b []byte, room func(int64) bool) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
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
			if pending += int64(len([]rune(string(e)))); !room(pending) {
				return nil, ErrTooMuchText
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
