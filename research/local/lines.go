package local

import (
	"fmt"
	"strings"

	"lwr/analyzer"
	"lwr/index"
)

// renderLines prints FormatGrep, FormatFiles or FormatCount. A ranked
// result is its hits in rank order: their paths, the lines of their
// snippets (with context lines read from the file when asked), the count
// of those lines that hold a searched word — so a question whose words are
// found through their analysis (有給休暇の申請) lists the files a ranked
// search finds. A full-text result is every line of its files that holds
// a query word as written (compared folded), read from the files now, as
// lwr read shows them; a file without such a line is left out.
func renderLines(r *Result, f Format, o RenderOptions) string {
	var b strings.Builder
	name, num, hl, reset := "", "", "", ""
	if o.TTY {
		name, num, hl, reset = "\x1b[35m", "\x1b[32m", "\x1b[1;31m", "\x1b[0m"
	}
	words := r.Words
	terms := folded(words)
	if r.Mode == index.Ranked {
		terms = folded(append(append(append([]string(nil), words...), r.Terms...), r.Synonyms...))
	}
	for _, m := range r.Matches {
		if f == FormatFiles && r.Mode == index.Ranked {
			fmt.Fprintf(&b, "%s%s%s\n", name, m.Path, reset)
			continue
		}
		var lines []string // the file's lines, numbered from first
		first := 1
		var hits []int
		if r.Mode == index.Ranked {
			lines, first = strings.Split(m.Snippet, "\n"), m.StartLine
			if f == FormatGrep {
				for i := range lines {
					hits = append(hits, first+i)
				}
				if o.Context.Before > 0 || o.Context.After > 0 {
					if file, err := index.ReadFile(r.Root, o.Rules, m.Path); err == nil {
						lines, first = file.Lines, 1
					}
				}
			} else {
				hits = matchingLines(lines, terms, first)
			}
		} else {
			file, err := index.ReadFile(r.Root, o.Rules, m.Path)
			if err != nil {
				continue // gone since the search
			}
			lines = file.Lines
			// As grep: a file without a line that holds a word as
			// written is not listed.
			if hits = matchingLines(lines, terms, 1); len(hits) == 0 {
				continue
			}
		}
		switch f {
		case FormatFiles:
			fmt.Fprintf(&b, "%s%s%s\n", name, m.Path, reset)
			continue
		case FormatCount:
			fmt.Fprintf(&b, "%s%s%s:%d\n", name, m.Path, reset, len(hits))
			continue
		}
		last := 0 // the last line printed
		lineAt := func(n int) (string, bool) {
			if n < first || n >= first+len(lines) {
				return "", false
			}
			return lines[n-first], true
		}
		for k, n := range hits {
			from, to := max(n-o.Context.Before, last+1, first), min(n+o.Context.After, first+len(lines)-1)
			if k+1 < len(hits) {
				// Context runs into the next match: it is printed as a match.
				to = min(to, hits[k+1]-1)
				if to < n {
					to = n
				}
			}
			if last > 0 && from > last+1 && (o.Context.Before > 0 || o.Context.After > 0) {
				b.WriteString("--\n")
			}
			for i := from; i <= to; i++ {
				text, ok := lineAt(i)
				if !ok {
					continue
				}
				sep := "-"
				if i == n {
					sep = ":"
					if o.TTY {
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

// folded are the words folded as the index folds text, without blanks.
func folded(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if t := strings.TrimSpace(analyzer.FoldText(w)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// matchingLines are the numbers (lines[0] is first) of the lines that
// hold a term (compared folded, as the index compares them).
func matchingLines(lines, terms []string, first int) []int {
	var out []int
	for i, l := range lines {
		f := analyzer.FoldText(l)
		for _, t := range terms {
			if t != "" && strings.Contains(f, t) {
				out = append(out, first+i)
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
