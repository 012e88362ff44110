package analyzer

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// Names under which the analyzers are registered with Bleve.
const (
	Name       = "lwr_ja"
	BigramName = "lwr_ja_bigram"
)

// bleveJapanese adapts Analyzer to Bleve.
type bleveJapanese struct{ a *Analyzer }

func (b bleveJapanese) Analyze(input []byte) analysis.TokenStream {
	var ts analysis.TokenStream
	b.a.each(string(input), true, func(t Token) {
		typ := analysis.Ideographic
		if t.Kind == KindLatin {
			typ = analysis.AlphaNumeric
		}
		ts = append(ts, &analysis.Token{
			Term:     []byte(t.Term),
			Start:    t.Start,
			End:      t.End,
			Position: t.Position,
			Type:     typ,
		})
	})
	return ts
}

// bleveBigram adapts the bigram view to Bleve: the text's lines joined
// (JoinLines), so that a phrase wrapped over two lines has its bigrams.
// Its offsets are into the folded text: the field keeps no term vectors,
// so nothing reads them.
type bleveBigram struct{}

func (bleveBigram) Analyze(input []byte) analysis.TokenStream {
	var ts analysis.TokenStream
	pos := 0
	eachBigram(FoldText(JoinLines(string(input))), func(g string, a, b int) {
		pos++
		ts = append(ts, &analysis.Token{Term: []byte(g), Start: a, End: b, Position: pos, Type: analysis.Double})
	})
	return ts
}

func init() {
	if err := registry.RegisterAnalyzer(Name, func(map[string]any, *registry.Cache) (analysis.Analyzer, error) {
		return Default().ForBleve(), nil
	}); err != nil {
		panic(fmt.Sprintf("register analyzer %s: %v", Name, err))
	}
	if err := registry.RegisterAnalyzer(BigramName, func(map[string]any, *registry.Cache) (analysis.Analyzer, error) {
		return BigramForBleve(), nil
	}); err != nil {
		panic(fmt.Sprintf("register analyzer %s: %v", BigramName, err))
	}
}

// ForBleve returns the analyzer as a Bleve analyzer (registered under Name
// is Default's: the index builds its documents with its own).
func (a *Analyzer) ForBleve() analysis.Analyzer { return bleveJapanese{a: a} }

// BigramForBleve returns the bigram view as a Bleve analyzer, the one
// registered under BigramName.
func BigramForBleve() analysis.Analyzer { return bleveBigram{} }
