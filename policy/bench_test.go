package policy

import (
	"fmt"
	"io/fs"
	"lwr/analyzer/edition"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchTitles returns the titles of the bench corpus when LWR_BENCH_CORPUS
// names it (shared/bench/make-corpus.sh; titles of text files are their
// names, as the index makes them), else 1,800 made-up documents of the same
// shape plus the fixture tree.
func benchTitles(b *testing.B) map[string]string {
	titles := map[string]string{}
	if dir := os.Getenv("LWR_BENCH_CORPUS"); dir != "" {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			titles[filepath.ToSlash(rel)] = d.Name()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	} else {
		for i := 0; i < 1800; i++ {
			sec := i%8 + 1
			titles[fmt.Sprintf("manpages-ja/man%d/cmd%04d.%d.txt", sec, i, sec)] = fmt.Sprintf("cmd%04d.%d.txt", i, sec)
		}
	}
	for _, p := range []string{"研修/2024/契約事務.md", "研修/2025/契約事務.md", "研修/2026/契約事務.md", "規程/経費精算規程.md"} {
		titles[p] = strings.TrimPrefix(strings.SplitN(string(mustRead(b, p)), "\n", 2)[0], "# ")
	}
	return titles
}

// benchPolicies are realistic policies: 4 preferences and 24 records.
func benchPolicies(b *testing.B) (*Preferences, *Currentness) {
	var pe, re []string
	pe = append(pe, `{"path": "研修/2026/契約事務.md", "label": "2026年度版", "supersedes": ["研修/2024/契約事務.md", "研修/2025/*.md"]}`)
	for i := 0; i < 3; i++ {
		pe = append(pe, fmt.Sprintf(`{"path": "規程/%d/旅費規程.md", "supersedes": ["規程/**/旧旅費規程*.md", "manpages-ja/man%d/cmd00%d*.txt"]}`, i, i+1, i))
	}
	for i := 0; i < 24; i++ {
		re = append(re, fmt.Sprintf(`{"id": "r%d", "paths": ["研修/%d/*.md", "manpages-ja/**/cmd0%d*.txt"], "text": ["%d万円", "上限 %d"],
			"document_sha256": "07a0bd81458e8495b2f579bac11971f7f9ae58e00673dd3ec3a6cc54875b6f78", "action": "do_not_assert_current",
			"verified": {"value": "200万円以下", "effective_from": "2025-04-01", "scope": "物品の購入"},
			"sources": [{"title": "要領", "url": "https://www.example.go.jp/r%d", "checked_at": "2026-10-01"}],
			"unverified": "業務委託", "note": "注記"}`, i, 2000+i, i%10, 150+i, i, i))
	}
	prefs, err := ParsePreferences("p.json", []byte(`{"version": 1, "preferred": [`+strings.Join(pe, ",")+`]}`))
	if err != nil {
		b.Fatal(err)
	}
	cur, err := ParseCurrentness("c.json", []byte(`{"version": 1, "checked_at": "2026-10-01", "records": [`+strings.Join(re, ",")+`]}`))
	if err != nil {
		b.Fatal(err)
	}
	return prefs, cur
}

// BenchmarkApply measures what policies add to a warm search of 8 results:
// Apply and the message of every match (the corpus is built once, as the
// daemon keeps it).
func BenchmarkApply(b *testing.B) {
	corpus := NewCorpus(benchTitles(b))
	prefs, cur := benchPolicies(b)
	passage := strings.Repeat("物品の購入について、予定価格が160万円以下であれば、随意契約によることができます。", 10)
	cands := []Candidate{
		doc(b, "研修/2024/契約事務.md", "160万円以下", 9, true),
		doc(b, "研修/2025/契約事務.md", "200万円以下", 8, true),
		doc(b, "規程/経費精算規程.md", "", 7, true),
		doc(b, "研修/2026/契約事務.md", "200万円以下", 6, true),
	}
	for i := 0; len(cands) < 8; i++ {
		cands = append(cands, Candidate{Path: fmt.Sprintf("manpages-ja/man1/cmd%04d.1.txt", i*8), Title: fmt.Sprintf("cmd%04d.1.txt", i*8),
			Text: passage, SHA256: strings.Repeat("0", 64), OwnMatch: true, Editions: edition.Find(passage)})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range Apply(cands, corpus, prefs, cur, Options{}) {
			_ = a.Ext()
		}
	}
}

// BenchmarkLoad measures reading and validating both policy files, which
// a search without the daemon does once.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadPreferences(fixtureRoot); err != nil {
			b.Fatal(err)
		}
		if _, err := LoadCurrentness(fixtureRoot); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewCorpus measures the one-time cost of the title index.
func BenchmarkNewCorpus(b *testing.B) {
	titles := benchTitles(b)
	b.ReportAllocs()
	for b.Loop() {
		NewCorpus(titles)
	}
}
