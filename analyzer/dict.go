package analyzer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"
)

// The IPA dictionary's contents (inflection names, base form, reading,
// pronunciation of 392,127 words) take two thirds of its memory, and the
// analyzer reads only the base form of verbs and adjectives. So the
// dictionary is loaded without them and given back those base forms alone,
// from a file written from the dictionary itself (internal/basegen).

//go:generate go run ./internal/basegen -out baseforms.bin.gz

//go:embed baseforms.bin.gz
var baseForms []byte

// baseFeature is where the base form stands among a word's features (its
// part of speech of ipa.POSHierarchy levels, then the contents).
const baseFeature = ipa.POSHierarchy

// systemDict is the IPA dictionary with only the base forms of verbs and
// adjectives as contents, made once per process (every analyzer shares
// it). It shares all else with ipa.DictShrink.
var systemDict = sync.OnceValues(loadSystemDict)

func loadSystemDict() (*dict.Dict, error) {
	d := *ipa.DictShrink()
	contents, err := readBaseForms(baseForms, len(d.Morphs))
	if err != nil {
		return nil, fmt.Errorf("read the dictionary's base forms: %w", err)
	}
	d.Contents = contents
	d.ContentsMeta = dict.ContentsMeta{dict.BaseFormIndex: baseFeature}
	return &d, nil
}

// readBaseForms decodes the file basegen writes into the contents of n
// words: the base form alone for the words that have one, nil for others.
func readBaseForms(data []byte, n int) ([][]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(zr)
	magic := make([]byte, 8)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "lwrbase1" {
		return nil, errors.New("not a base form file")
	}
	count := func(limit int) (int, error) {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return 0, err
		}
		if v > uint64(limit) {
			return 0, fmt.Errorf("a count of %d is out of range", v)
		}
		return int(v), nil
	}
	nb, err := count(n)
	if err != nil {
		return nil, err
	}
	bases := make([]string, nb)
	for i := range bases {
		l, err := count(1 << 10)
		if err != nil {
			return nil, err
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		bases[i] = string(b)
	}
	nw, err := count(n)
	if err != nil {
		return nil, err
	}
	contents := make([][]string, n)
	one := make([]string, nw) // the words' one-element contents, in one block
	id := 0
	for k := range nw {
		d, err := count(n)
		if err != nil {
			return nil, err
		}
		b, err := count(nb - 1)
		if err != nil {
			return nil, err
		}
		if id += d; id >= n {
			return nil, fmt.Errorf("word %d is out of range", id)
		}
		one[k] = bases[b]
		contents[id] = one[k : k+1 : k+1]
	}
	return contents, nil
}
