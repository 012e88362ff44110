package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"lwr/config"
)

// Check is the whole check of a report, as lwr validate and lwr finalize
// run it: its form (Validate) and, when src is given, its citations
// against the files (VerifySources), every problem listed once. A report
// without its JSON comment is checked with the comment lwr finalize would
// compute for it (Complete): json_comment_missing comes first, then what
// finalize would still refuse. The citation of a file that does not
// exist is said to be that (citation_file_missing, with the nearest
// names that do exist), not a link text to change to the wrong name.
func Check(md []byte, src *Sources) []Problem {
	if !utf8.Valid(md) {
		return Validate(md)
	}
	full, computed := Complete(md)
	var out []Problem
	if computed {
		if _, p := ExtractComment(md); p != nil {
			out = append(out, *p)
		}
	}
	form := Validate(full)
	var files []Problem
	if src != nil {
		files = VerifySources(full, *src)
	}
	missing := map[int]bool{}
	for _, p := range files {
		if p.Code == ProblemCitationFileMissing {
			missing[p.Line] = true
		}
	}
	for _, p := range form {
		// The name and path they would have written are the missing file's.
		if missing[p.Line] && (p.Code == ProblemCitationFormat && strings.HasPrefix(p.Message, linkTextProblem) ||
			p.Code == ProblemVSCodeLink && strings.HasPrefix(p.Message, vscodePathProblem)) {
			continue
		}
		out = append(out, p)
	}
	out = append(out, files...)
	// Once each, in the order found.
	var once []Problem
	for _, p := range out {
		if !slices.Contains(once, p) {
			once = append(once, p)
		}
	}
	return once
}

// The starts of the messages of a citation whose link text is not its
// file's name, and of a VS Code link to another path than the citation's.
const (
	linkTextProblem   = "the citation's link text"
	vscodePathProblem = "the VS Code link's path"
)

// Bounds of the search for the names nearest a missing file's.
const (
	maxNearestEntries = 50_000
	maxNearest        = 3
)

// missingFile is the message of a citation whose file does not exist in
// the source root: the names nearest it that do (旅費規程.md for
// 旅費規定.md), found in a bounded walk of the root.
func missingFile(src Sources, p string, nearest func(rel string) []string) string {
	root := strings.TrimSuffix(filepath.ToSlash(src.Root), "/")
	rel, ok := relOf(src, p)
	if !ok {
		return fmt.Sprintf("the citation of %s: the file is not in the source root %s; cite a document of the source root by its absolute path, as lwr search gives it", Cut(p, 120), Cut(root, 120))
	}
	names := nearest(rel)
	if len(names) == 0 {
		return fmt.Sprintf("the citation of %s: no such file in the source root %s; cite a document lwr search finds there", Cut(rel, 120), Cut(root, 120))
	}
	for i, n := range names {
		names[i] = root + "/" + n
	}
	return fmt.Sprintf("the citation of %s: no such file in the source root; the nearest names that exist are %s — write the path of the one you mean", Cut(rel, 120), strings.Join(names, ", "))
}

// nearestNames returns, for a relative path that does not exist, the
// documents of the source root whose names are nearest it (at most
// maxNearest; by the edit distance of the file names, then of the
// folders), from a walk of at most maxNearestEntries entries that skips
// hidden folders and what the index never reads.
func nearestNames(src Sources) func(rel string) []string {
	var docs []string
	walked := false
	return func(rel string) []string {
		if !walked {
			walked = true
			docs = walkDocuments(src)
		}
		want := foldName(path.Base(rel))
		wantDir := foldName(path.Dir(rel))
		limit := max(1, utf8.RuneCountInString(want)/3)
		type cand struct {
			rel       string
			base, dir int
		}
		var cs []cand
		for _, d := range docs {
			b := editDistance(want, foldName(path.Base(d)), limit)
			if b > limit {
				continue
			}
			cs = append(cs, cand{d, b, editDistance(wantDir, foldName(path.Dir(d)), 64)})
		}
		slices.SortStableFunc(cs, func(x, y cand) int {
			if x.base != y.base {
				return x.base - y.base
			}
			return x.dir - y.dir
		})
		var out []string
		for _, c := range cs {
			if len(out) == maxNearest {
				break
			}
			out = append(out, c.rel)
		}
		return out
	}
}

// walkDocuments lists the documents of the source root (relative paths,
// forward slashes), without following links out of it.
func walkDocuments(src Sources) []string {
	if src.Root == "" {
		return nil
	}
	root, err := os.OpenRoot(src.Root)
	if err != nil {
		return nil
	}
	defer root.Close()
	rules := src.Rules
	if len(rules.Extensions) == 0 {
		rules.Extensions = config.DefaultIndex().Extensions
	}
	var out []string
	n := 0
	stop := errors.New("enough")
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if n++; n > maxNearestEntries {
			return stop
		}
		if err != nil {
			return nil
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && rules.Excluded(p) == "" {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func foldName(s string) string { return strings.ToLower(norm.NFKC.String(s)) }

// editDistance is the Levenshtein distance of two strings in runes,
// limit+1 when it is over limit.
func editDistance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	if d := len(x) - len(y); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(y); j++ {
			c := prev[j-1]
			if x[i-1] != y[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
			best = min(best, c)
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(y)]
}
