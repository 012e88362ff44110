package extract

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// pptx reads a PowerPoint deck: the slides in their order, a line per
// paragraph of text (titles, text boxes, SmartArt) and per row of a
// table, each located on its slide; then the slide's charts (titles,
// series and categories, located as グラフ) and its speaker notes
// (ノート). A hidden slide (show="0") is read, located as hidden
// (スライド3(非表示)). A slide listed again is read again, and counted
// again.
func pptx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked, ".pptx")
	if err != nil {
		return nil, err
	}
	slides, err := slideOrder(z, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	t := newText("pptx", opts)
	type piece struct {
		lines  []string
		part   string
		hidden bool
	}
	read := map[string][]piece{} // by slide part: a slide listed again is not parsed again
	for i, name := range slides {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pieces, ok := read[name]
		if !ok {
			b, err := part(z, name, opts.MaxUnpacked)
			if err != nil {
				return nil, fmt.Errorf("%w: slide %d (%s): %v", ErrBroken, i+1, name, err)
			}
			paras, err := drawingParagraphs(b, name, nil, t.room)
			if err != nil {
				return nil, slideError(i+1, name, err)
			}
			hidden := slideHidden(b)
			pieces = append(pieces, piece{lines: paras, hidden: hidden})
			rels := partRelationships(z, relsOf(name), opts.MaxUnpacked)
			for _, kind := range []struct{ typ, part string }{{"/diagramData", ""}, {"/chart", "グラフ"}, {"/notesSlide", "ノート"}} {
				for _, r := range rels {
					if !strings.HasSuffix(r.typ, kind.typ) {
						continue
					}
					b, err := part(z, r.target(path.Dir(name)), opts.MaxUnpacked)
					if err != nil {
						continue
					}
					var lines []string
					at := r.target(path.Dir(name))
					switch kind.typ {
					case "/chart":
						lines, err = chartText(b, at, t.room)
					case "/notesSlide":
						lines, err = drawingParagraphs(b, at, notesPlaceholders, t.room)
					default:
						lines, err = drawingParagraphs(b, at, nil, t.room)
					}
					if err != nil {
						return nil, slideError(i+1, at, err)
					}
					pieces = append(pieces, piece{lines: lines, part: kind.part, hidden: hidden})
				}
			}
			read[name] = pieces
		}
		for _, p := range pieces {
			for _, l := range p.lines {
				t.add(l, Locator{Slide: i + 1, Part: p.part, Hidden: p.hidden})
			}
		}
		if err := t.full(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// slideError is the error of a slide's part that cannot be read.
func slideError(n int, name string, err error) error {
	if errors.Is(err, ErrTooMuchText) || errors.Is(err, ErrTooComplex) {
		return err
	}
	return fmt.Errorf("%w: slide %d (%s): %v", ErrBroken, n, name, err)
}

// slideHidden reports whether a slide is hidden in the slide show: its
// root's show="0".
func slideHidden(b []byte) bool {
	dec := newDecoder(b, "")
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if e, ok := tok.(xml.StartElement); ok {
			v := attr(e, "show")
			return v == "0" || v == "false"
		}
	}
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
	dec := newDecoder(pres, "ppt/presentation.xml")
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, broken("ppt/presentation.xml", err)
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
