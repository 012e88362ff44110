package index

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"lwr/analyzer"
)

// A passage's fields hold what Bleve's own text field makes of the token
// streams of the analyzers registered for them: the same terms, counts and
// lengths, so the index is the same as one built through the registry.
func TestTermFieldMatchesTokenStream(t *testing.T) {
	a := analyzer.Default()
	texts := []string{
		"",
		"有給休暇の申請は前日までに行う。",
		"ＰＡＴＨを設定\nsnake_case_id と config.yaml、コンピューター",
		"ｶﾀｶﾅとｶﾞｷﾞ 令和６年度版 --preserve=mode\n\n第１章　総　　則\n就業に関\nする規程",
		"the file of a user することができる の を",
	}
	root := filepath.Join("..", "testdata", "sample")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		doc := parseDocument(filepath.ToSlash(rel), string(data), "utf-8", nil, nil)
		texts = append(texts, doc.Head())
		for _, ps := range doc.Passages {
			texts = append(texts, ps.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	views := []struct {
		name  string
		terms termsFunc
		per   int
		bleve analysis.Analyzer
	}{
		{"japanese", a.Terms, textPerTerm, a.ForBleve()},
		{"bigram", analyzer.BigramTerms, textPerBigram, analyzer.BigramForBleve()},
		// Blocks too small for the terms: more of them are made.
		{"japanese, small blocks", a.Terms, 1 << 20, a.ForBleve()},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			shared := &onceTerms{}
			for i, text := range texts {
				want := document.NewTextFieldCustom("f", nil, []byte(text), index.IndexField, v.bleve)
				want.Analyze()
				for _, once := range []*onceTerms{nil, shared} {
					if once == shared && i > 0 {
						// A shared analysis is only ever of one text.
						shared = &onceTerms{}
						once = shared
					}
					got := &termField{name: "f", text: text, terms: v.terms, bytesPerTerm: v.per, once: once}
					got.Analyze()
					if got.AnalyzedLength() != want.AnalyzedLength() {
						t.Errorf("text %d (shared %v): length %d, want %d", i, once != nil, got.AnalyzedLength(), want.AnalyzedLength())
					}
					gf, wf := got.AnalyzedTokenFrequencies(), want.AnalyzedTokenFrequencies()
					if len(gf) != len(wf) {
						t.Errorf("text %d (shared %v): %d terms, want %d", i, once != nil, len(gf), len(wf))
					}
					for term, w := range wf {
						g, ok := gf[term]
						switch {
						case !ok:
							t.Errorf("text %d (shared %v): term %q missing", i, once != nil, term)
						case g.Frequency() != w.Frequency() || string(g.Term) != term || len(g.Locations) != 0:
							t.Errorf("text %d (shared %v): term %q: %q ×%d, want ×%d", i, once != nil, term, g.Term, g.Frequency(), w.Frequency())
						}
					}
				}
			}
		})
	}
}
