package index

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
	bolt "go.etcd.io/bbolt"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/config"
	"lwr/config/boltfile"
	"lwr/index/extract"
)

// SchemaVersion changes whenever an existing index can no longer be read
// as this code expects (mapping, fields, passages or analysis); an index of
// another version is rebuilt.
const SchemaVersion = "lwr-index-5+" + analyzer.Version + "+extract-" + extract.Version

// Schema is the schema an index of these options is built with: the
// version and, with a user dictionary (search.user_dict), its words'
// hash, so that an index cut with other words is rebuilt (and a daemon
// that analyzes with other words is told apart).
func (o Options) Schema() string {
	if id := o.AnalyzerOf().UserDictID(); id != "" {
		return SchemaVersion + "+user-" + id
	}
	return SchemaVersion
}

// Schema is the schema the index was opened with.
func (ix *Index) Schema() string { return ix.opts.Schema() }

// Bleve fields of a passage document.
const (
	fieldPath     = "path"      // the document's relative path (keyword)
	fieldBody     = "body"      // the passage text, Japanese analyzer
	fieldGram     = "gram"      // the passage text, bigram view
	fieldHead     = "head"      // file name, folders, title, summary, lead
	fieldHeadGram = "head_gram" // the same, bigram view
)

// Internal keys kept in the Bleve index itself.
const (
	keySchema     = "lwr.schema"
	keyGeneration = "lwr.generation"
	keyState      = "lwr.state" // "ready" or "building"
	keyFiles      = "lwr.files"
	keySynced     = "lwr.synced"
	keySkipped    = "lwr.skipped"
	keyStats      = "lwr.stats" // bm25Stats as JSON
	// keySeq counts the builds that changed the index. The manifest keeps
	// the same count: an index whose count is lower than the manifest's was
	// rolled back to an older snapshot (Bleve does that silently when the
	// newest one is damaged) and is rebuilt.
	keySeq = "lwr.seq"
)

// Sentinel errors of opening an index.
var (
	// ErrNotIndexed: the source root has no index yet.
	ErrNotIndexed = errors.New("the source root is not indexed yet")
	// ErrNeedsRebuild: the index exists but a build must run before it can
	// be searched (another schema version, an interrupted build, damage).
	ErrNeedsRebuild = errors.New("the index must be rebuilt")
	// ErrDamaged: a search found a segment of the index it cannot read
	// (its bytes were changed behind its back); a forced build mends it.
	ErrDamaged = errors.New("the index is damaged")
	// ErrNoRoot: the source root does not exist or is not a folder.
	ErrNoRoot = errors.New("the source root does not exist")
)

// Options configure an index.
type Options struct {
	Root          string // the source root; made absolute by Open
	Dir           string // the index folder, outside the source root
	Rules         Rules
	AuditInterval time.Duration
	LockTimeout   time.Duration
	BatchBytes    int
	// BuildMemoryLimit is the soft memory limit of the process while it
	// builds (config's index.build_memory_limit; 0: the default, negative:
	// none).
	BuildMemoryLimit int64
	Role             Role         // how a writer names itself to others (RoleBuild when empty)
	Logger           *slog.Logger // nil discards
	// Analyzer cuts the documents and the queries (nil: analyzer.Default,
	// without a user dictionary); its user dictionary is part of the
	// index's schema.
	Analyzer *analyzer.Analyzer
}

// AnalyzerOf is the analyzer of an index of these options.
func (o Options) AnalyzerOf() *analyzer.Analyzer {
	if o.Analyzer == nil {
		return analyzer.Default()
	}
	return o.Analyzer
}

// withDefaults fills what is zero from the configuration's defaults, so
// that the index used as a library behaves as the command line does.
func (o Options) withDefaults() Options {
	d := config.DefaultIndex()
	if o.AuditInterval <= 0 {
		o.AuditInterval = d.AuditInterval
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = d.LockTimeout
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = d.BatchBytes
	}
	if o.BuildMemoryLimit == 0 {
		o.BuildMemoryLimit = d.BuildMemoryLimit
	}
	o.Rules = o.Rules.withDefaults()
	if o.Rules.Extracted == "" && o.Dir != "" {
		o.Rules.Extracted = filepath.Join(o.Dir, "extracted")
	}
	if o.Role == "" {
		o.Role = RoleBuild
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// CanonicalRoot returns the absolute, cleaned, symlink-resolved form of a
// source root, which names its index.
func CanonicalRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return filepath.Clean(abs), nil
}

// within reports whether the folder p is dir or inside it.
func within(p, dir string) bool {
	p, dir = foldPath(filepath.ToSlash(p)), foldPath(filepath.ToSlash(dir))
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// DirFor returns the index folder of a source root inside a cache folder:
// <cache>/<first 16 hex digits of the SHA-256 of the canonical root>, the
// root with forward slashes (and in lower case on Windows, so that one
// folder spelled differently has one index).
func DirFor(cacheDir, root string) (string, error) {
	c, err := CanonicalRoot(root)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(foldPath(filepath.ToSlash(c))))
	return filepath.Join(cacheDir, hex.EncodeToString(sum[:])[:16]), nil
}

// Index is an open index of one source root.
type Index struct {
	opts Options
	// bmu guards b while a build replaces it (a forced rebuild, the end of
	// a first build): searches and status reads from other goroutines (the
	// daemon's requests) hold it for reading.
	bmu      sync.RWMutex
	b        bleve.Index
	man      *manifest // nil for readers
	lock     *fileLock
	writable bool
	fresh    bool // the Bleve index was created by this process and holds no passages yet
	// deferred: the Bleve index is open with the merge plan of a first
	// build (see firstBuildConfig), to be merged and opened again when
	// that build ends.
	deferred bool
	stats    atomic.Pointer[search.BM25Stats]
	watch    watchState
	// Rebuilt says why Open started a new index, "" when it did not.
	Rebuilt string
}

func (o Options) bleveDir() string     { return filepath.Join(o.Dir, "bleve") }
func (o Options) manifestPath() string { return filepath.Join(o.Dir, "manifest.db") }

// checkRoot makes Root canonical and checks that it is a folder.
func (o *Options) checkRoot() error {
	st, err := os.Stat(o.Root)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("%w: %s", ErrNoRoot, o.Root)
	}
	c, err := CanonicalRoot(o.Root)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrNoRoot, o.Root, err)
	}
	o.Root = c
	if c2, err := CanonicalRoot(o.Dir); err == nil && within(c2, c) {
		return fmt.Errorf("the index folder %s is inside the source root %s; set cache_dir to a folder outside it", o.Dir, c)
	}
	return nil
}

// Open opens the index of opts.Root for writing, creating it if needed,
// and takes the one-writer lock (waiting up to LockTimeout). A damaged
// index, an index of another schema version or one whose manifest does not
// belong to it is set aside and started anew; Rebuilt says so.
func Open(ctx context.Context, opts Options) (*Index, error) {
	opts = opts.withDefaults()
	if err := opts.checkRoot(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create index folder %s: %w", opts.Dir, err)
	}
	lk, err := acquireLock(opts.Dir, true, opts.LockTimeout, opts.Role)
	if err != nil {
		return nil, err
	}
	ix := &Index{opts: opts, lock: lk, writable: true}
	if err := ix.openWriter(ctx); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

func (ix *Index) openWriter(ctx context.Context) error {
	log := ix.opts.Logger
	man, err := openManifest(ix.opts.manifestPath(), ix.opts.LockTimeout, false)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return &LockedError{Dir: ix.opts.Dir, Holder: readOwner(ix.opts.Dir)}
		}
		log.Warn("manifest unreadable; starting anew", "path", ix.opts.manifestPath(), "err", err)
		if err := setAside(ix.opts.manifestPath()); err != nil {
			return err
		}
		if man, err = openManifest(ix.opts.manifestPath(), ix.opts.LockTimeout, false); err != nil {
			return err
		}
	}
	ix.man = man

	dir := ix.opts.bleveDir()
	if _, err := os.Stat(dir); err == nil {
		b, err := openBleve(dir, ix.writerConfig(), ix.opts.LockTimeout)
		switch {
		case err == nil:
			ix.b = b
			if v, _ := b.GetInternal([]byte(keySchema)); string(v) != ix.opts.Schema() {
				ix.Rebuilt = fmt.Sprintf("index schema %q is not %q", v, ix.opts.Schema())
			}
		case isTimeout(err):
			return &LockedError{Dir: ix.opts.Dir, Holder: readOwner(ix.opts.Dir)}
		default:
			// Bleve's text runs over lines (the mapping it could not
			// parse): its first line says enough.
			why, _, _ := strings.Cut(err.Error(), "\n")
			ix.Rebuilt = "the index is damaged (" + strings.TrimSpace(why) + ")"
		}
	} else {
		ix.Rebuilt = "new index"
	}
	if ix.Rebuilt != "" {
		if ix.Rebuilt != "new index" {
			log.Warn("rebuilding the index", "dir", dir, "reason", ix.Rebuilt)
		}
		// Another schema is sound, only old: removed, not kept.
		if err := ix.replace(!strings.HasPrefix(ix.Rebuilt, "index schema")); err != nil {
			return err
		}
	}
	gen, err := ix.b.GetInternal([]byte(keyGeneration))
	if err != nil {
		return fmt.Errorf("read index generation: %w", err)
	}
	mgen, err := ix.man.getMeta(metaGeneration)
	if err != nil {
		return fmt.Errorf("read manifest: %w", err)
	}
	if string(gen) != mgen {
		if mgen != "" {
			log.Warn("manifest belongs to another index; it will be rebuilt", "dir", ix.opts.Dir)
		}
		if err := ix.man.reset(string(gen)); err != nil {
			return fmt.Errorf("reset manifest: %w", err)
		}
	}
	ix.loadStats()
	if bs, ms := ix.internalInt(keySeq), ix.man.seq(); bs < ms {
		log.Warn("the index is older than its manifest (a damaged snapshot was skipped); rebuilding", "dir", ix.opts.Dir, "index", bs, "manifest", ms)
		ix.Rebuilt = "the index was rolled back to an older snapshot"
		if err := ix.create(); err != nil {
			return err
		}
		gen, _ := ix.b.GetInternal([]byte(keyGeneration))
		if err := ix.man.reset(string(gen)); err != nil {
			return fmt.Errorf("reset manifest: %w", err)
		}
	}
	return ctx.Err()
}

// create replaces the Bleve index with a new, empty one. A damaged index
// is set aside (bleve.damaged, the latest only) for inspection; a sound
// one (a forced rebuild, another schema) is removed.
func (ix *Index) create() error { return ix.replace(true) }

func (ix *Index) replace(damaged bool) error {
	ix.bmu.Lock()
	defer ix.bmu.Unlock()
	dir := ix.opts.bleveDir()
	if ix.b != nil {
		_ = ix.b.Close()
		ix.b = nil
	}
	if _, err := os.Stat(dir); err == nil {
		if damaged {
			if err := setAside(dir); err != nil {
				return err
			}
		} else if err := removeTree(dir); err != nil {
			return fmt.Errorf("remove the old index %s: %w", dir, err)
		}
	}
	b, err := bleve.NewUsing(dir, newMapping(), scorch.Name, scorch.Name, ix.firstBuildConfig())
	if err != nil {
		return fmt.Errorf("create index %s: %w", dir, err)
	}
	ix.deferred = true
	gen := make([]byte, 8)
	_, _ = rand.Read(gen)
	batch := b.NewBatch()
	batch.SetInternal([]byte(keySchema), []byte(ix.opts.Schema()))
	batch.SetInternal([]byte(keyGeneration), []byte(hex.EncodeToString(gen)))
	batch.SetInternal([]byte(keyState), []byte("building"))
	if err := b.Batch(batch); err != nil {
		b.Close()
		return fmt.Errorf("create index %s: %w", dir, err)
	}
	ix.b = b
	ix.fresh = true
	return nil
}

// writerConfig is the Bleve configuration of an index open for writing.
func (ix *Index) writerConfig() map[string]any {
	return map[string]any{"bolt_timeout": ix.opts.LockTimeout.String()}
}

// setAside moves a damaged file or folder out of the way, keeping only the
// latest such copy for inspection.
func setAside(p string) error {
	old := p + ".damaged"
	if err := removeTree(old); err != nil {
		return fmt.Errorf("remove %s: %w", old, err)
	}
	if err := os.Rename(p, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("set aside %s: %w", p, err)
	}
	return nil
}

// removeTree removes a file or folder tree. Where os.RemoveAll cannot
// (file systems without the calls it uses, as under Wine), the files are
// removed one by one, deepest first.
func removeTree(p string) error {
	err := os.RemoveAll(p)
	if err == nil {
		return nil
	}
	var paths []string
	_ = filepath.WalkDir(p, func(q string, _ fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, q)
		}
		return nil
	})
	for i := len(paths) - 1; i >= 0; i-- {
		_ = os.Remove(paths[i])
	}
	if _, lerr := os.Lstat(p); errors.Is(lerr, fs.ErrNotExist) {
		return nil
	}
	return err
}

// openBleve opens a Bleve index after checking its root.bolt; bbolt's
// panics are errors.
func openBleve(dir string, config map[string]any, timeout time.Duration) (b bleve.Index, err error) {
	if err := checkRootBolt(dir, bolt.Options{Timeout: timeout}); err != nil {
		return nil, err
	}
	err = boltfile.Guard(func() (err error) {
		b, err = bleve.OpenUsing(dir, config)
		return err
	})
	return b, err
}

// isTimeout reports a lock another process holds on a bbolt file (Bleve
// says "timeout").
func isTimeout(err error) bool {
	return err != nil && (errors.Is(err, ErrLocked) || strings.Contains(err.Error(), "timeout"))
}

// OpenReader opens an existing index for searching, sharing it with other
// readers. It never builds: ErrNotIndexed and ErrNeedsRebuild tell the
// caller to run a build first.
func OpenReader(ctx context.Context, opts Options) (*Index, error) {
	opts = opts.withDefaults()
	if err := opts.checkRoot(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(opts.bleveDir(), "index_meta.json")); err != nil {
		if _, err2 := os.Stat(opts.bleveDir()); err2 == nil {
			return nil, fmt.Errorf("%w: %s is incomplete", ErrNeedsRebuild, opts.bleveDir())
		}
		return nil, ErrNotIndexed
	}
	lk, err := acquireLock(opts.Dir, false, opts.LockTimeout, "")
	if err != nil {
		return nil, err
	}
	b, err := openBleve(opts.bleveDir(), map[string]any{"read_only": true, "bolt_timeout": opts.LockTimeout.String()}, opts.LockTimeout)
	if err != nil {
		lk.release()
		if isTimeout(err) {
			return nil, &LockedError{Dir: opts.Dir, Holder: readOwner(opts.Dir)}
		}
		return nil, fmt.Errorf("%w: open %s: %v", ErrNeedsRebuild, opts.bleveDir(), err)
	}
	ix := &Index{opts: opts, b: b, lock: lk}
	if v, _ := b.GetInternal([]byte(keySchema)); string(v) != opts.Schema() {
		ix.Close()
		why := "it was built by another version of lwr"
		if strings.Contains(string(v), "+user-") || opts.AnalyzerOf().UserDictID() != "" {
			why = "it was built with other words of search.user_dict (or another version of lwr)"
		}
		return nil, fmt.Errorf("%w: %s", ErrNeedsRebuild, why)
	}
	if v, _ := b.GetInternal([]byte(keyState)); string(v) != "ready" {
		ix.Close()
		return nil, fmt.Errorf("%w: its last build did not finish", ErrNeedsRebuild)
	}
	man, err := openManifest(opts.manifestPath(), opts.LockTimeout, true)
	if err != nil {
		ix.Close()
		return nil, fmt.Errorf("%w: %v", ErrNeedsRebuild, err)
	}
	ix.man = man
	gen, _ := b.GetInternal([]byte(keyGeneration))
	if mg, _ := man.getMeta(metaGeneration); mg != string(gen) || ix.internalInt(keySeq) < man.seq() {
		ix.Close()
		return nil, fmt.Errorf("%w: the index does not match its manifest", ErrNeedsRebuild)
	}
	ix.loadStats()
	return ix, ctx.Err()
}

// Close releases the index and its lock.
func (ix *Index) Close() error {
	var errs []error
	ix.bmu.Lock()
	if ix.b != nil {
		errs = append(errs, ix.b.Close())
		ix.b = nil
	}
	ix.bmu.Unlock()
	if ix.man != nil {
		errs = append(errs, ix.man.Close())
		ix.man = nil
	}
	errs = append(errs, ix.lock.release())
	return errors.Join(errs...)
}

// Root is the canonical source root of the index.
func (ix *Index) Root() string { return ix.opts.Root }

// Dir is the index folder.
func (ix *Index) Dir() string { return ix.opts.Dir }

// Rules are the rules the index reads files by.
func (ix *Index) Rules() Rules { return ix.opts.Rules }

// DocumentRules are the rules files are read by for o's index: its
// rules with the defaults and the folder of extracted text filled in.
func (o Options) DocumentRules() Rules { return o.withDefaults().Rules }

// Status describes an index.
type Status struct {
	Root     string
	Dir      string
	Schema   string
	Files    int
	Passages uint64
	Skipped  int
	LastSync time.Time
	Ready    bool
	Bytes    int64 // size on disk
}

// Status reports on the open index.
func (ix *Index) Status() (Status, error) {
	ix.bmu.RLock()
	defer ix.bmu.RUnlock()
	st := Status{Root: ix.opts.Root, Dir: ix.opts.Dir}
	v, err := ix.b.GetInternal([]byte(keySchema))
	if err != nil {
		return st, err
	}
	st.Schema = string(v)
	st.Passages, _ = ix.b.DocCount()
	st.Files = ix.internalInt(keyFiles)
	st.Skipped = ix.internalInt(keySkipped)
	st.LastSync = ix.lastSync()
	s, _ := ix.b.GetInternal([]byte(keyState))
	st.Ready = string(s) == "ready"
	st.Bytes = dirSize(ix.opts.Dir)
	return st, nil
}

// LastSync is when a build last brought the index up to date with the
// files (zero before the first).
func (ix *Index) LastSync() time.Time {
	ix.bmu.RLock()
	defer ix.bmu.RUnlock()
	return ix.lastSync()
}

func (ix *Index) lastSync() time.Time {
	v, _ := ix.b.GetInternal([]byte(keySynced))
	t, _ := time.Parse(time.RFC3339Nano, string(v))
	return t
}

func (ix *Index) internalInt(key string) int {
	v, _ := ix.b.GetInternal([]byte(key))
	n, _ := strconv.Atoi(string(v))
	return n
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// newMapping is the Bleve mapping of passage documents. Documents are built
// field by field (see passageDocument); the mapping records the analyzers and
// sets BM25, which can only be chosen when an index is created.
func newMapping() mapping.IndexMapping {
	im := bleve.NewIndexMapping()
	im.ScoringModel = bindex.BM25Scoring
	im.DefaultAnalyzer = analyzer.Name
	im.DefaultField = fieldBody
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	dm := bleve.NewDocumentStaticMapping()
	text := func(an string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = an
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	dm.AddFieldMappingsAt(fieldPath, text(keyword.Name))
	dm.AddFieldMappingsAt(fieldBody, text(analyzer.Name))
	dm.AddFieldMappingsAt(fieldGram, text(analyzer.BigramName))
	dm.AddFieldMappingsAt(fieldHead, text(analyzer.Name))
	dm.AddFieldMappingsAt(fieldHeadGram, text(analyzer.BigramName))
	im.DefaultMapping = dm
	return im
}

// bm25Stats are the collection statistics BM25 scores with: the number of
// passages and the total analyzed length of each field, kept by the build
// from the live documents only. Bleve would otherwise derive them from its
// segments, which still count deleted documents until they are merged, so
// that an updated index would rank differently from a fresh one.
type bm25Stats struct {
	Passages int            `json:"passages"`
	Fields   map[string]int `json:"fields"`
}

// loadStats reads the statistics of the index.
func (ix *Index) loadStats() {
	ix.stats.Store(nil)
	v, err := ix.b.GetInternal([]byte(keyStats))
	if err != nil || len(v) == 0 {
		return
	}
	var st bm25Stats
	if json.Unmarshal(v, &st) != nil || st.Passages == 0 {
		return
	}
	bs := &search.BM25Stats{DocCount: float64(st.Passages), FieldCardinality: map[string]int{}}
	for _, f := range []string{fieldPath, fieldBody, fieldGram, fieldHead, fieldHeadGram} {
		bs.FieldCardinality[f] = max(st.Fields[f], 1)
	}
	// Unscored searches merge postings into a searcher of the field "*".
	bs.FieldCardinality["*"] = 1
	ix.stats.Store(bs)
}

// searchRequest makes a Bleve request that scores with the index's own
// statistics.
func (ix *Index) searchRequest(q query.Query, size int, explain bool) *bleve.SearchRequest {
	req := bleve.NewSearchRequestOptions(q, size, 0, explain)
	if st := ix.stats.Load(); st != nil {
		req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: st}
	}
	return req
}

// describe fills a match's title and editions from the manifest, reading
// the editions from the current text when the file changed since it was
// indexed.
func (ix *Index) describe(m *Match, text string) {
	e, ok := ix.entry(m.Path)
	m.Title = e.Title
	if m.Title == "" {
		m.Title = path.Base(m.Path)
	}
	if ok && e.SHA256 == m.SHA256 {
		m.Editions = e.Editions
		return
	}
	m.Editions = edition.Find(text)
}

// entry returns what the manifest knows of a path.
func (ix *Index) entry(rel string) (entry, bool) {
	if ix.man == nil {
		return entry{}, false
	}
	e, ok, err := ix.man.get(rel)
	return e, ok && err == nil
}

// Titles returns the title of every indexed document by path.
func (ix *Index) Titles() (map[string]string, error) {
	if ix.man == nil {
		return map[string]string{}, nil
	}
	all, err := ix.man.all()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for p, e := range all {
		out[p] = e.Title
		if e.Title == "" {
			out[p] = path.Base(p)
		}
	}
	return out, nil
}
