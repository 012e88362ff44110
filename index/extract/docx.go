package extract

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// docx reads a Word document: a line per paragraph (a line break inside
// one starts another line), tabs as tabs, table cells paragraph by
// paragraph; each line is located under the heading it follows.
func docx(ctx context.Context, data []byte, opts Options) (*Text, error) {
	z, err := openZip(data, opts.MaxUnpacked)
	if err != nil {
		return nil, err
	}
	doc, err := part(z, "word/document.xml", opts.MaxUnpacked)
	if err != nil {
		return nil, fmt.Errorf("%w: no word/document.xml (%v)", ErrBroken, err)
	}
	// styles.xml is read only for a style id that does not say itself
	// what it is (Word's 見出し 1 may be id "1"); it is most of a small
	// document's bytes.
	var headings map[string]bool
	isHeading := func(id string) bool {
		if id == "" {
			return false
		}
		if l := strings.ToLower(id); strings.HasPrefix(l, "heading") || l == "title" {
			return true
		}
		if headings == nil {
			headings = map[string]bool{}
			if styles, err := part(z, "word/styles.xml", opts.MaxUnpacked); err == nil {
				headings = headingStyles(styles)
			}
		}
		return headings[id]
	}
	t := &Text{Format: "docx"}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var (
		para    strings.Builder
		lines   []string
		inText  bool
		style   string
		heading string
		n       int
	)
	for {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: word/document.xml: %v", ErrBroken, err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "p":
				para.Reset()
				lines, style = lines[:0], ""
			case "t":
				inText = true
			case "tab":
				para.WriteByte('\t')
			case "br", "cr":
				lines = append(lines, para.String())
				para.Reset()
			case "pStyle":
				style = attr(e, "val")
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "t":
				inText = false
			case "p":
				lines = append(lines, para.String())
				text := strings.TrimSpace(strings.Join(lines, " "))
				if isHeading(style) && text != "" {
					heading = text
				}
				for _, l := range lines {
					t.add(l, Locator{Heading: heading})
				}
				lines = lines[:0]
			}
		case xml.CharData:
			if inText {
				para.Write(e)
			}
		}
	}
	return t, nil
}

// headingStyles reads styles.xml: the ids of the styles named as
// headings (heading 1…, 見出し 1…, Title).
func headingStyles(styles []byte) map[string]bool {
	out := map[string]bool{}
	dec := xml.NewDecoder(bytes.NewReader(styles))
	id := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if e, ok := tok.(xml.StartElement); ok {
			switch e.Name.Local {
			case "style":
				id = attr(e, "styleId")
			case "name":
				name := strings.ToLower(attr(e, "val"))
				if id != "" && (strings.HasPrefix(name, "heading") || strings.HasPrefix(name, "見出し") || name == "title" || name == "表題") {
					out[id] = true
				}
			}
		}
	}
}

// attr is an attribute's value by its local name.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
