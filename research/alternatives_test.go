package research

import (
	"context"
	"testing"
)

// Alternatives are searched with the question's words: a question whose
// words no document holds finds the rule written in the documents' own.
func TestAlternatives(t *testing.T) {
	root := smallRoot(t)
	ix := openIndex(t, root)
	opts := Options{Query: "ぴよぴよ", SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Now: testNow}
	if r, _, err := Research(context.Background(), opts); err == nil {
		t.Fatalf("found %+v without alternatives", r.Local.Hits)
	}
	opts.Alternatives = []string{"有給休暇"}
	r, _, err := Research(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Local.Hits) == 0 || (r.Local.Hits[0].Path != "規程/休暇.md" && r.Local.Hits[0].Path != "手順/手順.md") {
		t.Fatalf("with alternatives: %+v", r.Local.Hits)
	}
}
