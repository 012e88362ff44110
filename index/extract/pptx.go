package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// pptx reads a PowerPoint deck: the slides in their order, a line per
// paragraph of text (titles, text boxes, tables), each located on its
// slide.
func pptx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	slides, err := slideOrder(z, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	t := &Text{Format: "pptx"}
	for i, name := range slides {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b, err := part(z, name, opts.MaxUnpacked)
		if err != nil {
			return nil, fmt.Errorf("%w: slide %d (%s): %v", ErrBroken, i+1, name, err)
		}
		paras, err := drawingParagraphs(b)
		if err != nil {
			return nil, fmt.Errorf("%w: slide %d: %v", ErrBroken, i+1, err)
		}
		for _, p := range paras {
			t.add(p, Locator{Slide: i + 1})
		}
	}
	return t, nil
}

// slideOrder reads the slides' part names in the deck's order: the
// presentation's slide list, through its relationships.
func slideOrder(z *zip.Reader, max int64) ([]string, error) {
	pres, err := part(z, "ppt/presentation.xml", max)
	if err != nil {
		return nil, fmt.Errorf("%w: no ppt/presentation.xml (%v)", ErrBroken, err)
	}
	rels, err := part(z, "ppt/_rels/presentation.xml.rels", max)
	if err != nil {
		return nil, fmt.Errorf("%w: no ppt/_rels/presentation.xml.rels (%v)", ErrBroken, err)
	}
	targets := relationships(rels)
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(pres))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: ppt/presentation.xml: %v", ErrBroken, err)
		}
		e, ok := tok.(xml.StartElement)
		if !ok || e.Name.Local != "sldId" {
			continue
		}
		// r:id (the relationship), not id (the slide's number).
		for _, a := range e.Attr {
			if a.Name.Local == "id" && a.Name.Space != "" {
				if tg := targets[a.Value]; tg != "" {
					out = append(out, path.Clean(path.Join("ppt", strings.TrimPrefix(tg, "/ppt/"))))
				}
			}
		}
	}
	return out, nil
}

// drawingParagraphs reads the text of DrawingML paragraphs (<a:p>,
// runs <a:t>, breaks <a:br>).
func drawingParagraphs(b []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var out []string
	var para strings.Builder
	inText := false
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
			case "p":
				para.Reset()
			case "t":
				inText = true
			case "br":
				out = append(out, para.String())
				para.Reset()
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "t":
				inText = false
			case "p":
				if s := para.String(); strings.TrimSpace(s) != "" {
					out = append(out, s)
				}
				para.Reset()
			}
		case xml.CharData:
			if inText {
				para.Write(e)
			}
		}
	}
}
