package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"lwr/analyzer"
	"lwr/config"
	"lwr/index"
	"lwr/policy"
)

// Options say how to reach the index of one source root.
type Options struct {
	// Index is the index of the source root (Root and Dir at least).
	Index index.Options
	// SynonymFile is the user's synonym dictionary, merged with the
	// embedded one; "" for none.
	SynonymFile string
	// NoThesaurus leaves SudachiDict's synonym groups out.
	NoThesaurus bool
	// Search holds the defaults a request is checked with (config's
	// search section; its zero value is config's defaults).
	Search config.Search
	// AutoBuild builds the index when there is none or it must be
	// rebuilt; nil fails the search with index.ErrNotIndexed instead.
	AutoBuild *AutoBuild
	// OpenIndex opens the index for searching; nil means index.OpenReader.
	OpenIndex func(context.Context, index.Options) (*index.Index, error)
	// Flag finds in a snippet of a PDF or Office document the patterns of
	// text that address an agent (the web sanitizer's: a document from
	// outside can); nil flags nothing.
	Flag func(snippet string) []string
	// PolicyFS is where the policy files are read from; nil means the
	// source root, as index.SourceFS reads it.
	PolicyFS fs.FS
	// Logger receives debug records; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Search.MaxFiles <= 0 || o.Search.MaxChars <= 0 {
		d := config.DefaultSearch()
		o.Search.MaxFiles, o.Search.MaxChars = d.MaxFiles, d.MaxChars
	}
	if o.OpenIndex == nil {
		o.OpenIndex = index.OpenReader
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Index.Logger == nil {
		o.Index.Logger = o.Logger
	}
	return o
}

// AutoBuild is how a session builds an index it does not find.
type AutoBuild struct {
	// Before is called as the build starts, with why it is needed.
	Before func(root string, why error)
	// Progress holds the build's callbacks (OnStart, OnFile, OnSkip).
	Progress index.BuildOptions
	// After is called with what the build did.
	After func(root string, st index.BuildStats)
}

// Session is a Searcher on the index opened in this process. The index
// is opened at the first search and kept until Close; the synonym
// dictionary and the policy files are read once (a session serving the
// daemon reads the policy files at every search, since they change while
// it runs).
type Session struct {
	opts Options

	mu     sync.Mutex
	ix     *index.Index
	owned  bool // Close closes ix
	live   bool // policies read at every search
	dict   *analyzer.Synonyms
	pols   *policySet
	corpus *policy.Corpus
}

// NewSession returns a session on the index of opts; nothing is opened
// before the first search.
func NewSession(opts Options) *Session {
	return &Session{opts: opts.withDefaults(), owned: true}
}

// SessionOn returns the session a daemon serves: on its open index (which
// the session never closes), with its dictionary (nil loads it from
// opts), reading the policy files at every search since they change while
// it runs.
func SessionOn(ix *index.Index, dict *analyzer.Synonyms, opts Options) *Session {
	opts.Index.Root, opts.Index.Rules = ix.Root(), ix.Rules()
	return &Session{opts: opts.withDefaults(), ix: ix, dict: dict, live: true}
}

// open opens the index once, building it first when needed and allowed.
func (s *Session) open(ctx context.Context) (*index.Index, error) {
	if s.ix != nil {
		return s.ix, nil
	}
	o := s.opts
	ix, err := o.OpenIndex(ctx, o.Index)
	if (errors.Is(err, index.ErrNotIndexed) || errors.Is(err, index.ErrNeedsRebuild)) && o.AutoBuild != nil {
		if err = s.build(ctx, err, false); err == nil {
			ix, err = o.OpenIndex(ctx, o.Index)
		}
	}
	if err != nil {
		return nil, s.explain(err)
	}
	s.ix = ix
	return ix, nil
}

// rebuild closes the session's index and builds it anew (a forced
// build), after a search found it damaged; the next search opens it again.
func (s *Session) rebuild(ctx context.Context, why error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix != nil {
		s.ix.Close()
		s.ix, s.corpus = nil, nil
	}
	return s.build(ctx, why, true)
}

// build builds the index (from nothing when force is set) with a writer
// that it closes again, so that the session then holds only a reader's
// shared lock.
func (s *Session) build(ctx context.Context, why error, force bool) error {
	o := s.opts
	if o.AutoBuild.Before != nil {
		o.AutoBuild.Before(o.Index.Root, why)
	}
	wo := o.Index
	wo.Role = index.RoleAutoBuild
	w, err := index.Open(ctx, wo)
	if err != nil {
		return err
	}
	bo := o.AutoBuild.Progress
	bo.Force = force
	st, err := w.Build(ctx, bo)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if o.AutoBuild.After != nil {
		o.AutoBuild.After(w.Root(), st)
	}
	return nil
}

// explain says what the user can do about an error opening the index.
func (s *Session) explain(err error) error {
	var le *index.LockedError
	switch {
	case errors.As(err, &le) && le.Daemon():
		return fmt.Errorf("%w: the daemon (process %d) holds the index of %s but answers on no socket; wait for it to start, or restart it with lwr index stop and lwr index watch --detach", ErrNotAnswering, le.PID, s.opts.Index.Root)
	case errors.Is(err, index.ErrNotIndexed), errors.Is(err, index.ErrNeedsRebuild):
		return fmt.Errorf("%w; run lwr index build first", err)
	}
	return err
}

func (s *Session) dictionary() (*analyzer.Synonyms, error) {
	if s.dict == nil {
		d, err := loadDictionary(s.opts.SynonymFile, s.opts.NoThesaurus, s.opts.Index.AnalyzerOf())
		if err != nil {
			return nil, err
		}
		s.dict = d
	}
	return s.dict, nil
}

// policies returns the policy files as a search uses them: read once, or
// at every call for a daemon's session.
func (s *Session) policies() policySet {
	if s.live {
		return loadPolicies(s.policyLoader())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pols == nil {
		p := loadPolicies(s.policyLoader())
		s.pols = &p
	}
	return *s.pols
}

// policyLoader reads the policy files from opts.PolicyFS, else as the
// source root's files are read (index.SourceFS).
func (s *Session) policyLoader() policy.Loader {
	root := s.root()
	fsys := s.opts.PolicyFS
	if fsys == nil {
		fsys = index.SourceFS(root, policy.MaxFileSize)
	}
	return policy.Loader{Root: root, FS: fsys}
}

func (s *Session) root() string {
	if s.ix != nil {
		return s.ix.Root()
	}
	if c, err := index.CanonicalRoot(s.opts.Index.Root); err == nil {
		return c
	}
	return s.opts.Index.Root
}

func (s *Session) corpusOf(ix *index.Index) (*policy.Corpus, error) {
	if s.corpus == nil {
		titles, err := ix.Titles()
		if err != nil {
			return nil, fmt.Errorf("read the titles of the index: %w", err)
		}
		s.corpus = policy.NewCorpus(titles)
	}
	return s.corpus, nil
}

// LoadDictionary loads the synonym dictionary now rather than at the
// first search (a daemon fails at its start on a file it cannot use).
func (s *Session) LoadDictionary() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.dictionary()
	return err
}

// Refresh forgets what the session keeps of the index's contents (the
// titles of its documents), after a build changed them.
func (s *Session) Refresh() {
	s.mu.Lock()
	s.corpus = nil
	s.mu.Unlock()
}

// Search runs a search on the index: the request is checked first
// (Request.Check, with opts.Search's defaults).
func (s *Session) Search(ctx context.Context, req Request) (*Result, error) {
	if err := req.Check(s.opts.Search, s.opts.Index.Root); err != nil {
		return nil, err
	}
	// An invalid currentness file fails the search before anything is
	// opened.
	pols := s.policies()
	if _, _, err := pols.forRequest(req.IgnorePreference); err != nil {
		return nil, err
	}
	ix, corpus, dict, err := s.prepare(ctx)
	if err != nil {
		return nil, err
	}
	res, err := run(ctx, ix, corpus, pols, req, dict, s.opts.Flag)
	if errors.Is(err, index.ErrDamaged) && !s.live && s.owned && s.opts.AutoBuild != nil {
		// The index is a copy of the documents: build it anew and search
		// again, once.
		if err = s.rebuild(ctx, errors.New("a search found the index damaged")); err != nil {
			return nil, err
		}
		if ix, corpus, dict, err = s.prepare(ctx); err != nil {
			return nil, err
		}
		res, err = run(ctx, ix, corpus, pols, req, dict, s.opts.Flag)
	}
	if err == nil && !s.live {
		if h, killed := index.Killed(ix.Dir()); killed && h.Daemon() {
			res.Stale = fmt.Sprintf("the daemon that kept the index (process %d) ended without stopping (killed, or crashed): files changed since the last sync (%s) are not in it; start it again (lwr index watch --detach) or run lwr index build",
				h.PID, res.Synced.Local().Format(time.RFC3339))
			res.Message += "\n索引が古い可能性: " + res.Stale
		}
	}
	return res, err
}

// prepare opens what a search needs, once: the index, the titles of its
// documents and the synonym dictionary.
func (s *Session) prepare(ctx context.Context) (*index.Index, *policy.Corpus, *analyzer.Synonyms, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dict, err := s.dictionary()
	if err != nil {
		return nil, nil, nil, err
	}
	ix, err := s.open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	corpus, err := s.corpusOf(ix)
	if err != nil {
		return nil, nil, nil, err
	}
	return ix, corpus, dict, nil
}

// Policies says which policies are in force.
func (s *Session) Policies(_ context.Context, ignorePreference bool) (policy.Policies, error) {
	prefs, cur, err := s.policies().forRequest(ignorePreference)
	if err != nil {
		return policy.Policies{}, err
	}
	return policy.Describe(prefs, cur, policy.Options{IgnorePreference: ignorePreference}), nil
}

// Status reports on the index; it never builds one.
func (s *Session) Status(ctx context.Context) (Status, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Root: s.root(), Dir: s.opts.Index.Dir, Changed: -1}
	ix := s.ix
	if ix == nil {
		var err error
		ix, err = s.opts.OpenIndex(ctx, s.opts.Index)
		var le *index.LockedError
		switch {
		case errors.Is(err, index.ErrNoRoot):
			return st, err
		case errors.Is(err, index.ErrNotIndexed):
			st.State = StateNotIndexed
			return st, nil
		case errors.Is(err, index.ErrNeedsRebuild):
			st.State, st.Problem = StateNeedsRebuild, err.Error()
			return st, nil
		case errors.As(err, &le):
			st.State, st.Holder = StateBusy, le.Holder
			return st, nil
		case err != nil:
			return st, err
		}
		defer ix.Close()
	}
	is, err := ix.Status()
	if err != nil {
		return st, err
	}
	st.State, st.Index = StateReady, &is
	if n, err := ix.Changes(); err == nil {
		st.Changed = n
	}
	return st, nil
}

// Skipped lists the files that are not indexed, and why.
func (s *Session) Skipped(ctx context.Context) ([]index.Skip, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ix := s.ix
	if ix == nil {
		var err error
		if ix, err = s.opts.OpenIndex(ctx, s.opts.Index); err != nil {
			return nil, s.explain(err)
		}
		defer ix.Close()
	}
	return ix.Skipped()
}

// Close closes the index the session opened (not one it was given).
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.ix != nil && s.owned {
		err = s.ix.Close()
		s.ix = nil
	}
	return err
}

// loadDictionary loads the synonym dictionary (the embedded one and the
// user's file) for the index's analyzer, with or without SudachiDict's
// groups.
func loadDictionary(file string, noThesaurus bool, a *analyzer.Analyzer) (*analyzer.Synonyms, error) {
	d, err := analyzer.LoadSynonyms(file, a)
	if err == nil && noThesaurus {
		d.DisableThesaurus()
	}
	return d, err
}
