package local

import (
	"fmt"
	"strings"

	"lwr/analyzer"
	"lwr/index"
)

// renderLines prints the lines of the matching files that hold one of
// words as written (files without such a line are left out) (FormatGrep, with ctx lines around them; compared
// folded), the files (FormatFiles) or their counts of such lines
// (FormatCount), in match order. The lines are read from the files now,
// as lwr read shows them.
func renderLines(r *Result, rules index.Rules, f Format, ctx LineContext, words []string, tty bool) string {
	terms := make([]string, 0, len(words))
	for _, w := range words {
		if t := strings.TrimSpace(analyzer.Fold(w)); t != "" {
			terms = append(terms, t)
		}
	}
	var b strings.Builder
	name, num, hl, reset := "", "", "", ""
	if tty {
		name, num, hl, reset = "\x1b[35m", "\x1b[32m", "\x1b[1;31m", "\x1b[0m"
	}
	for _, m := range r.Matches {
		file, err := index.ReadFile(r.Root, rules, m.Path)
		if err != nil {
			continue // gone since the search
		}
		// As grep: a file without a line that holds a word as written (a
		// ranked match through synonyms or parts) is not listed.
		hits := matchingLines(file.Lines, terms)
		if len(hits) == 0 {
			continue
		}
		if f == FormatFiles {
			fmt.Fprintf(&b, "%s%s%s\n", name, m.Path, reset)
			continue
		}
		if f == FormatCount {
			fmt.Fprintf(&b, "%s%s%s:%d\n", name, m.Path, reset, len(hits))
			continue
		}
		last := 0 // the last line printed
		for k, n := range hits {
			from, to := max(n-ctx.Before, last+1, 1), min(n+ctx.After, len(file.Lines))
			if k+1 < len(hits) {
				// Context runs into the next match: it is printed as a match.
				to = min(to, hits[k+1]-1)
				if to < n {
					to = n
				}
			}
			if last > 0 && from > last+1 && (ctx.Before > 0 || ctx.After > 0) {
				b.WriteString("--\n")
			}
			for i := from; i <= to; i++ {
				sep, text := "-", file.Lines[i-1]
				if i == n {
					sep = ":"
					if tty {
						text = highlight(text, words, hl, reset)
					}
				}
				fmt.Fprintf(&b, "%s%s%s%s%s%d%s%s%s\n", name, m.Path, reset, sep, num, i, reset, sep, text)
			}
			last = to
		}
	}
	return b.String()
}

// matchingLines are the numbers of the lines that hold a term (compared
// folded, as the index compares them).
func matchingLines(lines, terms []string) []int {
	var out []int
	for i, l := range lines {
		f := analyzer.Fold(l)
		for _, t := range terms {
			if t != "" && strings.Contains(f, t) {
				out = append(out, i+1)
				break
			}
		}
	}
	return out
}

// highlight marks the terms in a line where they occur as written.
func highlight(line string, terms []string, on, off string) string {
	for _, t := range terms {
		if t != "" && strings.Contains(line, t) {
			line = strings.ReplaceAll(line, t, on+t+off)
		}
	}
	return line
}

// queryWords are the words of a query as written.
func queryWords(q index.Query) []string {
	out := make([]string, len(q.Words))
	for i, w := range q.Words {
		out[i] = w.Text
	}
	return out
}
