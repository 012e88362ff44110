package analyzer

import (
	"testing"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
)

// The analyzer's dictionary gives every word the base form the full IPA
// dictionary gives it, where the analyzer reads one (verbs, adjectives):
// the embedded file is current (go generate ./analyzer rewrites it).
func TestSystemDictBaseForms(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the full IPA dictionary")
	}
	ours, err := systemDict()
	if err != nil {
		t.Fatal(err)
	}
	full := ipa.Dict()
	if len(ours.Morphs) != len(full.Morphs) {
		t.Fatalf("%d words, the IPA dictionary has %d", len(ours.Morphs), len(full.Morphs))
	}
	fullBase := int(full.ContentsMeta[dict.BaseFormIndex])
	checked := 0
	for id := range full.Morphs {
		pos := full.POSTable.POSs[id]
		if len(pos) != ipa.POSHierarchy {
			t.Fatalf("word %d has %d levels of part of speech, not %d", id, len(pos), ipa.POSHierarchy)
		}
		name := full.POSTable.NameList[pos[0]]
		if name != "動詞" && name != "形容詞" {
			continue
		}
		want := full.Contents[id][fullBase-len(pos)]
		c := ours.Contents[id]
		if len(c) != 1 || c[0] != want {
			t.Fatalf("word %d (%s): base form %q, want %q", id, name, c, want)
		}
		checked++
	}
	if checked < 100000 {
		t.Fatalf("only %d verbs and adjectives checked", checked)
	}
}

// Tokens read base forms through the trimmed dictionary as through the
// full one.
func TestSystemDictTokens(t *testing.T) {
	ours, err := systemDict()
	if err != nil {
		t.Fatal(err)
	}
	tk, err := tokenizer.New(ours, tokenizer.OmitBosEos())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, surface, base string }{
		{"申請した", "申請", ""},
		{"コピーした", "し", "する"},
		{"休めますか", "休め", "休める"},
		{"高かった", "高かっ", "高い"},
	} {
		found := false
		for _, tok := range tk.Analyze(tc.text, tokenizer.Search) {
			if tok.Surface != tc.surface {
				continue
			}
			found = true
			b, ok := tok.BaseForm()
			if tc.base == "" && ok {
				t.Errorf("%s: %s has base form %q, want none", tc.text, tok.Surface, b)
			}
			if tc.base != "" && b != tc.base {
				t.Errorf("%s: %s has base form %q, want %q", tc.text, tok.Surface, b, tc.base)
			}
		}
		if !found {
			t.Errorf("%s: no token %s", tc.text, tc.surface)
		}
	}
}
