package extract

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
)

// Bounds of an Office part's XML. Office programs nest elements a few
// dozen deep (a text box in a table in a text box is some forty) and
// write a few dozen attributes on an element (the namespaces of a root);
// Go's decoder keeps every open element and every attribute of the one
// it reads, so that 64 MiB of <w:p><w:r><w:drawing>… half a million
// deep, or of one element's attributes, take gigabytes. A part past
// either bound is not read (ErrTooComplex).
const (
	maxDepth = 1000
	maxAttrs = 1000
)

// xmlDecoder reads a part's XML tokens within maxDepth and maxAttrs.
type xmlDecoder struct {
	*xml.Decoder
	name  string // the part, for the error
	depth int
	err   error
}

// newDecoder is the decoder of a part (name: word/document.xml); its
// first Token is the error of a part with an element of more than
// maxAttrs attributes.
func newDecoder(b []byte, name string) *xmlDecoder {
	d := &xmlDecoder{Decoder: xml.NewDecoder(bytes.NewReader(b)), name: name}
	if !attrsWithin(b, maxAttrs) {
		d.err = fmt.Errorf("%w: its %s has an element of more than %s attributes, where office programs write a few dozen; if it is a real document, save it again from its program to index it", ErrTooComplex, name, thousands(maxAttrs))
	}
	return d
}

// Token is the next token, or the error of an element nested more than
// maxDepth deep.
func (d *xmlDecoder) Token() (xml.Token, error) {
	if d.err != nil {
		return nil, d.err
	}
	tok, err := d.Decoder.Token()
	if err != nil {
		return tok, err
	}
	switch tok.(type) {
	case xml.StartElement:
		if d.depth++; d.depth > maxDepth {
			d.err = fmt.Errorf("%w: its %s nests elements more than %s deep, where office programs nest a few dozen; if it is a real document, save it again from its program to index it", ErrTooComplex, d.name, thousands(maxDepth))
			return nil, d.err
		}
	case xml.EndElement:
		d.depth--
	}
	return tok, nil
}

// Skip reads on to the end of the element whose start was read last, as
// xml.Decoder.Skip does, within the bounds.
func (d *xmlDecoder) Skip() error {
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return nil
			}
			depth--
		}
	}
}

// attrsWithin reports whether no tag of the XML b has more than max
// attributes: the equals signs of each tag outside its quoted values,
// counted before the decoder reads (and keeps) them. Comments, CDATA
// sections and processing instructions are passed over.
func attrsWithin(b []byte, max int) bool {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return true
		}
		i += j + 1
		rest := b[i:]
		end := ""
		switch {
		case bytes.HasPrefix(rest, []byte("!--")):
			end = "-->"
		case bytes.HasPrefix(rest, []byte("![CDATA[")):
			end = "]]>"
		case bytes.HasPrefix(rest, []byte("?")):
			end = "?>"
		}
		if end != "" {
			k := bytes.Index(rest, []byte(end))
			if k < 0 {
				return true // unterminated: the decoder says so
			}
			i += k + len(end)
			continue
		}
		n := 0
		var quote byte
	tag:
		for ; i < len(b); i++ {
			c := b[i]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
				continue
			}
			switch c {
			case '"', '\'':
				quote = c
			case '=':
				if n++; n > max {
					return false
				}
			case '>':
				i++
				break tag
			}
		}
	}
	return true
}

// broken is the error of a part that cannot be read: ErrBroken naming
// it, or the error itself when it says why better (a part too complex,
// too much text, the time out).
func broken(name string, err error) error {
	if errors.Is(err, ErrTooComplex) || errors.Is(err, ErrTooMuchText) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: %s: %v", ErrBroken, name, err)
}
