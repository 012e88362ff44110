// Package localtest holds the tests every local.Searcher passes — the
// session in this process, the daemon's client and the router that picks
// one of them — as restic runs one suite against every backend: the same
// requests answered as a session answers them (rendered alike in every
// format), the same policies, status and skipped files, and the same
// errors, matched by errors.Is.
package localtest

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/policy"
	"lwr/research/local"
	"lwr/research/researchtest"
)

// Open returns the Searcher under test on the index folder dir of the
// source root root (built by the suite, ready); the suite closes it.
type Open func(t *testing.T, root, dir string) local.Searcher

// Requests are the searches the suite compares: both modes, quotes,
// limits, synonyms, path patterns, preferences ignored, explained.
func Requests(t testing.TB) []local.Request {
	q := func(s string) index.Query {
		t.Helper()
		pq, err := index.ParseQuery(s)
		if err != nil {
			t.Fatal(err)
		}
		return pq
	}
	return []local.Request{
		{Query: q(`有給休暇 "申請"`), Mode: index.Ranked, Limit: 5, MaxChars: 300},
		{Query: q("有給休暇の申請"), Mode: index.Ranked},
		{Query: q("160万円"), Mode: index.FullText},
		{Query: q("契約事務"), Mode: index.Ranked, IgnorePreference: true, Exclude: []string{"研修/2024"}},
		{Query: q("契約"), Mode: index.Ranked, Only: []string{"研修/**"}, Synonyms: []string{"随意契約"}},
		{Query: q("年休"), Mode: index.Ranked, Synonyms: []string{"年次有給休暇"}, Explain: true},
		{Query: q("存在しない語ぜったいにない"), Mode: index.FullText},
	}
}

// Build copies the bundled sample and builds its index; it returns the
// root and the index folder.
func Build(t testing.TB) (root, dir string) {
	t.Helper()
	root = researchtest.Sample(t)
	dir = filepath.Join(configtest.TempDir(t), "ix")
	ix, err := index.Open(context.Background(), index.Options{Root: root, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(context.Background(), index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

// answers are what a session answers on an index, to compare with.
type answers struct {
	results  []*local.Result
	policies [2]policy.Policies
	skipped  []index.Skip
}

func reference(t *testing.T, root, dir string, reqs []local.Request) answers {
	t.Helper()
	s := local.NewSession(local.Options{Index: index.Options{Root: root, Dir: dir}})
	defer s.Close()
	ctx := context.Background()
	var a answers
	for _, r := range reqs {
		res, err := s.Search(ctx, r)
		if err != nil {
			t.Fatalf("the reference session: %v", err)
		}
		a.results = append(a.results, res)
	}
	var err error
	for i, ignore := range []bool{false, true} {
		if a.policies[i], err = s.Policies(ctx, ignore); err != nil {
			t.Fatal(err)
		}
	}
	if a.skipped, err = s.Skipped(ctx); err != nil {
		t.Fatal(err)
	}
	return a
}

// rendered are a result in every format, without what differs between two
// runs of one search (how long it took, who answered).
func rendered(r *local.Result) map[local.Format]string {
	out := map[local.Format]string{}
	for _, f := range []local.Format{local.FormatText, local.FormatJSON, local.FormatJSONExt, local.FormatGrep, local.FormatFiles, local.FormatCount} {
		s := local.Render(r, f, local.RenderOptions{Context: local.LineContext{Before: 1, After: 1}})
		if f == local.FormatText {
			if i := strings.LastIndex(strings.TrimRight(s, "\n"), "\n"); i >= 0 && strings.Contains(s[i:], " shown (") {
				s = s[:i]
			}
		}
		out[f] = s
	}
	return out
}

// Suite runs the tests on the Searchers open returns.
func Suite(t *testing.T, open Open) {
	root, dir := Build(t)
	reqs := Requests(t)
	want := reference(t, root, dir, reqs)
	s := open(t, root, dir)
	defer func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	ctx := context.Background()

	t.Run("search", func(t *testing.T) {
		for i, r := range reqs {
			got, err := s.Search(ctx, r)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			w := want.results[i]
			if got.Root != w.Root || got.Message != w.Message || got.Total != w.Total || got.Scanned != w.Scanned || got.Stale != w.Stale ||
				!reflect.DeepEqual(got.Terms, w.Terms) || !reflect.DeepEqual(got.Synonyms, w.Synonyms) || !reflect.DeepEqual(got.Words, w.Words) {
				t.Errorf("request %d: %d matches %q; the session: %d %q", i, len(got.Matches), got.Message, len(w.Matches), w.Message)
			}
			if len(got.Matches) != len(w.Matches) {
				t.Fatalf("request %d: %d matches, the session %d", i, len(got.Matches), len(w.Matches))
			}
			for k, m := range got.Matches {
				if wm := w.Matches[k]; !m.ModTime.Equal(wm.ModTime) || !reflect.DeepEqual(withoutTime(m), withoutTime(wm)) {
					t.Errorf("request %d match %d:\n%+v\nthe session's:\n%+v", i, k, m, wm)
				}
			}
			gr, wr := rendered(got), rendered(w)
			for f, text := range gr {
				if text != wr[f] {
					t.Errorf("request %d in %s:\n%s\nthe session's:\n%s", i, f, text, wr[f])
				}
			}
		}
	})
	t.Run("policies", func(t *testing.T) {
		for i, ignore := range []bool{false, true} {
			if p, err := s.Policies(ctx, ignore); err != nil || p != want.policies[i] {
				t.Errorf("Policies(%v) = %+v, %v; want %+v", ignore, p, err, want.policies[i])
			}
		}
	})
	t.Run("status", func(t *testing.T) {
		st, err := s.Status(ctx)
		if err != nil || st.Index == nil || st.Index.Files == 0 || st.Root != canonical(root) || st.State != local.StateReady && st.State != local.StateSyncing {
			t.Errorf("Status = %+v, %v", st, err)
		}
	})
	t.Run("skipped", func(t *testing.T) {
		if sk, err := s.Skipped(ctx); err != nil || len(sk) != len(want.skipped) || len(sk) > 0 && !reflect.DeepEqual(sk, want.skipped) {
			t.Errorf("Skipped = %v, %v; want %v", sk, err, want.skipped)
		}
	})
	t.Run("errors", func(t *testing.T) {
		q := reqs[0].Query
		long := index.Query{Words: []index.Word{{Text: strings.Repeat("申", index.MaxQueryChars+1)}}}
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		for _, c := range []struct {
			name string
			ctx  context.Context
			req  local.Request
			want error
		}{
			{"empty", ctx, local.Request{}, index.ErrEmptyQuery},
			{"too long", ctx, local.Request{Query: long}, index.ErrQueryTooLong},
			{"negative limit", ctx, local.Request{Query: q, Limit: -1}, local.ErrInvalidInput},
			{"short snippets", ctx, local.Request{Query: q, MaxChars: 3}, local.ErrInvalidInput},
			{"bad pattern", ctx, local.Request{Query: q, Only: []string{"規程/[旧"}}, local.ErrInvalidInput},
			{"canceled", canceled, local.Request{Query: q}, context.Canceled},
		} {
			if _, err := s.Search(c.ctx, c.req); !errors.Is(err, c.want) {
				t.Errorf("%s: %v; want %v", c.name, err, c.want)
			}
		}
	})
}

// InvalidPolicies runs the tests of a source root whose currentness file
// is invalid: every search and policies request fails with its code.
func InvalidPolicies(t *testing.T, open Open) {
	root, dir := Build(t)
	researchtest.WriteFile(t, policy.CurrentnessPath(root), `{"version": 1, "records": [`)
	s := open(t, root, dir)
	defer s.Close()
	ctx := context.Background()
	_, err := s.Search(ctx, Requests(t)[0])
	if !errors.Is(err, policy.ErrCurrentnessInvalid) || !strings.HasPrefix(err.Error(), policy.CodeCurrentnessInvalid) {
		t.Errorf("search with an invalid currentness file: %v", err)
	}
	if _, err := s.Policies(ctx, true); !errors.Is(err, policy.ErrCurrentnessInvalid) {
		t.Errorf("policies with an invalid currentness file: %v", err)
	}
}

func withoutTime(m index.Match) index.Match {
	m.ModTime = m.ModTime.UTC().Round(0)
	return m
}

func canonical(root string) string {
	if c, err := index.CanonicalRoot(root); err == nil {
		return c
	}
	return root
}
