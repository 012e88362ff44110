// Command basegen writes the base forms of the IPA dictionary's verbs and
// adjectives (the one feature of a word's contents lwr reads) into the
// analyzer's embedded file, so that the analyzer loads the dictionary
// without its contents (readings, pronunciations, inflection names) and
// keeps only these. go generate ./analyzer runs it.
//
// The file is gzip of: the magic "lwrbase1", the number of distinct base
// forms and each as a uvarint length and its bytes, then the number of
// words and, for each in order of their dictionary id, the uvarint
// difference from the previous id and the uvarint index of its base form.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"log"
	"os"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"
)

func main() {
	out := flag.String("out", "baseforms.bin.gz", "the file to write")
	flag.Parse()
	d := ipa.Dict()
	baseAt, ok := d.ContentsMeta["_base"]
	if !ok {
		log.Fatal("the IPA dictionary has no base form feature")
	}
	type word struct{ id, base int }
	var words []word
	index := map[string]int{}
	var bases []string
	for id := range d.Morphs {
		if !predicate(d.POSTable.NameList, d.POSTable.POSs[id]) {
			continue
		}
		// Features are the part of speech, then the contents.
		c, at := d.Contents[id], int(baseAt)-len(d.POSTable.POSs[id])
		if at < 0 || at >= len(c) {
			continue
		}
		b := c[at]
		i, seen := index[b]
		if !seen {
			i = len(bases)
			index[b] = i
			bases = append(bases, b)
		}
		words = append(words, word{id, i})
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	var buf [binary.MaxVarintLen64]byte
	uvarint := func(v int) {
		n := binary.PutUvarint(buf[:], uint64(v))
		w.Write(buf[:n])
	}
	w.WriteString("lwrbase1")
	uvarint(len(bases))
	for _, b := range bases {
		uvarint(len(b))
		w.WriteString(b)
	}
	uvarint(len(words))
	prev := 0
	for _, x := range words {
		uvarint(x.id - prev)
		uvarint(x.base)
		prev = x.id
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d words, %d base forms", *out, len(words), len(bases))
}

// predicate reports a verb or an adjective: the words whose base form the
// analyzer indexes instead of their surface.
func predicate(names []string, pos dict.POS) bool {
	if len(pos) == 0 || int(pos[0]) >= len(names) {
		return false
	}
	n := names[pos[0]]
	return n == "動詞" || n == "形容詞"
}
