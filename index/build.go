package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"lwr/analyzer"
	"lwr/index/extract"
)

// BuildOptions are the knobs of one build.
type BuildOptions struct {
	// Force starts a new index from scratch.
	Force bool
	// Audit re-reads and re-hashes every file, whatever its mtime and size.
	Audit bool
	// OnStart is told how many files will be read; OnFile is called after
	// each. Both are optional and called from the build's goroutine.
	OnStart func(toRead int)
	OnFile  func(rel string)
	// OnSkip is told about every file that is not indexed and why.
	OnSkip func(rel, why string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// BuildStats tells what a build did.
type BuildStats struct {
	Added, Updated, Deleted, Unchanged int
	Skipped                            int // files not indexed: unreadable, binary, other encodings, too large
	Read                               int // files whose content was read
	Files                              int // files in the index afterwards
	Passages                           int // passages written
	Batches                            int // index batches written
	Audited                            bool
	Rebuilt                            string // why the index was started anew, "" if it was not
	Took                               time.Duration
}

// Changed reports whether the build changed the index.
func (s BuildStats) Changed() bool { return s.Added+s.Updated+s.Deleted > 0 }

// readResult is one file read by a build worker.
type readResult struct {
	f       fileInfo
	doc     *Document
	sha     string
	same    bool // content hash equals the manifest's: only stat data changed
	skipWhy string
	weight  int64 // bytes held for it (budget)
}

// budget is a count of bytes that goroutines take from and give back,
// waiting while what they ask for is taken (a request over the whole is
// taken as the whole).
type budget struct {
	mu         sync.Mutex
	cond       *sync.Cond
	used, most int64
}

func newBudget(most int64) *budget {
	b := &budget{most: most}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire takes n bytes, waiting for them; false when ctx ended first.
func (b *budget) acquire(ctx context.Context, n int64) bool {
	n = min(n, b.most)
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.cond.Broadcast()
		b.mu.Unlock()
	})
	defer stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+n > b.most {
		if ctx.Err() != nil {
			return false
		}
		b.cond.Wait()
	}
	if ctx.Err() != nil {
		return false
	}
	b.used += n
	return true
}

// release gives back n bytes taken with acquire.
func (b *budget) release(n int64) {
	n = min(n, b.most)
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// Changes counts the files a build would read or remove now: those whose
// mtime, size or sidecar differ from what the index holds, the new ones and
// the deleted ones. It reads no file's content, and works on an index open
// for reading.
func (ix *Index) Changes() (int, error) {
	if ix.man == nil {
		return 0, errors.New("changes: the index has no manifest")
	}
	files, err := walk(ix.opts.Root, ix.opts.Rules, func(string, string) {})
	if err != nil {
		return 0, fmt.Errorf("walk %s: %w", ix.opts.Root, err)
	}
	entries, err := ix.man.all()
	if err != nil {
		return 0, fmt.Errorf("read manifest: %w", err)
	}
	skips, err := ix.man.skips()
	if err != nil {
		return 0, fmt.Errorf("read manifest: %w", err)
	}
	n, present := 0, make(map[string]bool, len(files))
	for _, f := range files {
		present[f.Rel] = true
		if e, ok := entries[f.Rel]; ok && e.ModTime == f.ModTime && e.Size == f.Size && e.Meta == f.Meta {
			continue
		}
		if s, ok := skips[f.Rel]; ok && s.ModTime == f.ModTime && s.Size == f.Size && s.Meta == f.Meta {
			continue
		}
		n++
	}
	for p := range entries {
		if !present[p] {
			n++
		}
	}
	return n, nil
}

// auditDue reports whether a build audits: asked, or AuditInterval since
// the last audit of an index that holds files.
func (ix *Index) auditDue(asked bool, now time.Time) bool {
	if asked {
		return true
	}
	if n, err := ix.man.count(); err != nil || n == 0 {
		return false
	}
	last, _ := ix.man.getMeta(metaLastAudit)
	at, _ := time.Parse(time.RFC3339Nano, last)
	return now.Sub(at) >= ix.opts.AuditInterval
}

// Build brings the index up to date with the source root: new and changed
// files are (re)indexed, deleted ones removed. Only files whose mtime, size
// or sidecar changed are read, and only those whose content hash changed are
// analyzed, unless an audit is due (every AuditInterval) or asked for.
//
// Every batch is written to Bleve before the manifest learns of it, and the
// index is marked "building" until the end, so a build killed at any point
// is finished correctly by the next one.
//
// A build that fails on an index whose segment files were damaged behind
// its back (one no longer matches its checksum) builds it anew from the
// documents: the index is a copy of them. Any other failure (a full disk,
// a source root gone offline, a manifest behind its index) is returned
// and leaves the index as it was, for the next build to finish.
func (ix *Index) Build(ctx context.Context, opts BuildOptions) (BuildStats, error) {
	st, err := ix.build(ctx, opts)
	if err == nil || opts.Force || ctx.Err() != nil || !ix.writable || ix.b == nil {
		return st, err
	}
	if _, serr := os.Stat(ix.opts.Root); serr != nil {
		return st, err
	}
	why := ix.verifySegments()
	if why == "" {
		return st, err
	}
	ix.opts.Logger.Warn("the build found the index damaged; rebuilding", "dir", ix.opts.Dir, "why", why, "err", err)
	ix.Rebuilt = "the index is damaged (" + why + ")"
	opts.Force = true
	return ix.build(ctx, opts)
}

func (ix *Index) build(ctx context.Context, opts BuildOptions) (st BuildStats, err error) {
	start := time.Now()
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if !ix.writable {
		return st, errors.New("build: the index is open for reading only")
	}
	defer limitMemory(ix.opts.BuildMemoryLimit)()
	st.Rebuilt = ix.Rebuilt
	if !opts.Force && st.Rebuilt == "" && ix.auditDue(opts.Audit, now()) {
		// An audit checks the index itself first: damage it finds is
		// rebuilt from the files.
		if why := ix.verify(); why != "" {
			ix.opts.Logger.Warn("the audit found the index damaged; rebuilding", "dir", ix.opts.Dir, "why", why)
			opts.Force = true
			st.Rebuilt = "the audit found the index damaged: " + why
		}
	}
	if opts.Force {
		damaged := st.Rebuilt != ""
		if !damaged {
			st.Rebuilt = "forced"
		}
		if err := ix.replace(damaged); err != nil {
			return st, err
		}
		gen, _ := ix.b.GetInternal([]byte(keyGeneration))
		if err := ix.man.reset(string(gen)); err != nil {
			return st, fmt.Errorf("reset manifest: %w", err)
		}
	}
	ix.Rebuilt = ""
	prevSkips, err := ix.man.skips()
	if err != nil {
		return st, fmt.Errorf("read manifest: %w (remove %s to rebuild)", err, ix.opts.Dir)
	}
	skips := map[string]Skip{}
	skipFile := func(s Skip) {
		st.Skipped++
		skips[s.Path] = s
		if opts.OnSkip != nil {
			opts.OnSkip(s.Path, s.Why)
		}
	}
	skip := func(rel, why string) { skipFile(Skip{Path: rel, Why: why}) }
	files, err := walk(ix.opts.Root, ix.opts.Rules, skip)
	if err != nil {
		return st, fmt.Errorf("walk %s: %w", ix.opts.Root, err)
	}
	entries, err := ix.man.all()
	if err != nil {
		return st, fmt.Errorf("read manifest: %w (remove %s to rebuild)", err, ix.opts.Dir)
	}
	st.Audited = opts.Audit || len(entries) > 0 && ix.auditDue(false, now())
	state, _ := ix.b.GetInternal([]byte(keyState))
	// An interrupted build may have left passages the manifest does not
	// know of: look each changed path up in the index itself then.
	interrupted := string(state) != "ready"

	present := make(map[string]bool, len(files))
	var toRead []fileInfo
	for _, f := range files {
		present[f.Rel] = true
		e, ok := entries[f.Rel]
		if ok && !st.Audited && e.ModTime == f.ModTime && e.Size == f.Size && e.Meta == f.Meta {
			st.Unchanged++
			continue
		}
		// A file skipped after it was read is not read again while its
		// mtime, size and sidecar stand.
		if s, was := prevSkips[f.Rel]; !ok && was && !st.Audited && s.ModTime == f.ModTime && s.Size == f.Size && s.Meta == f.Meta && !retry(s, ix.opts.Rules) {
			skipFile(s)
			continue
		}
		toRead = append(toRead, f)
	}
	var deleted []string
	for p := range entries {
		if !present[p] {
			deleted = append(deleted, p)
		}
	}
	sort.Strings(deleted)

	// Compared when the build ends: reading files adds skips too.
	defer func() {
		if err == nil && !sameSkips(skips, prevSkips) {
			err = ix.man.setSkips(skips)
		}
	}()
	if len(toRead) == 0 && len(deleted) == 0 && !interrupted {
		st.Files = len(entries)
		st.Took = time.Since(start)
		return st, ix.finish(now(), st, false)
	}
	if err := ix.bumpSeq(map[string]string{keyState: "building"}); err != nil {
		return st, err
	}
	if opts.OnStart != nil {
		opts.OnStart(len(toRead))
	}

	w := &batchWriter{ix: ix, ctx: ctx, lookup: interrupted && !ix.fresh, st: &st, entries: entries, lengths: map[string]map[string]int{}}
	w.reset()
	for _, p := range deleted {
		if err := w.remove(p); err != nil {
			return st, err
		}
	}

	results := make(chan readResult, 64)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ahead := newBudget(readAhead)
	go readFiles(rctx, ix.opts.Root, toRead, entries, prevSkips, ix.opts.Rules, ahead, results)
	for r := range results {
		st.Read++
		if opts.OnFile != nil {
			opts.OnFile(r.f.Rel)
		}
		_, known := entries[r.f.Rel]
		switch {
		case r.skipWhy != "":
			s := Skip{Path: r.f.Rel, Why: r.skipWhy, ModTime: r.f.ModTime, Size: r.f.Size, Meta: r.f.Meta, SHA256: r.sha}
			if extract.BudgetReason(s.Why) {
				s.MaxText = ix.opts.Rules.MaxExtractedChars
			}
			skipFile(s)
			if known {
				// Out of the index, but not deleted: it is listed as
				// skipped, with why (unreadable, binary, …).
				err = w.remove(r.f.Rel)
				st.Deleted--
			}
		case r.same:
			st.Unchanged++
			e := entries[r.f.Rel]
			e.ModTime, e.Size = r.f.ModTime, r.f.Size
			w.puts[r.f.Rel] = e
		default:
			if known {
				st.Updated++
			} else {
				st.Added++
			}
			err = w.add(r)
		}
		ahead.release(r.weight)
		if err != nil {
			return st, err
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
	}
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if err := w.flush(); err != nil {
		return st, err
	}
	// A new index's segments are merged once, now (see firstBuildConfig).
	deferred := ix.deferred
	if deferred {
		if err := ix.mergeFirstBuild(ctx); err != nil {
			return st, err
		}
	}
	n, err := ix.man.count()
	if err != nil {
		return st, err
	}
	st.Files = n
	st.Took = time.Since(start)
	if err := ix.finish(now(), st, true); err != nil || !deferred {
		return st, err
	}
	return st, ix.reopen()
}

// retry reports whether a skipped file is read again though it did not
// change: a program it needed (pdftotext) is there now, or the text
// budget it was over was raised.
func retry(s Skip, rules Rules) bool {
	// An unreadable file (permission denied) is tried at every build: its
	// mode can change without its mtime, and a failed open costs nothing.
	return strings.HasPrefix(s.Why, unreadablePrefix) || extract.ToolMissingReason(s.Why) && extract.PDFReadable() ||
		extract.BudgetReason(s.Why) && rules.MaxExtractedChars > s.MaxText
}

// costlySkip reports whether a skipped document, whose bytes, mtime and
// size stand, is skipped again without its extraction: one that took too
// long, or made more text than a budget that was not raised. An audit
// re-hashes such a file; it does not extract it again.
func costlySkip(s Skip, rules Rules) bool {
	return extract.TimeoutReason(s.Why) || extract.BudgetReason(s.Why) && rules.MaxExtractedChars <= s.MaxText
}

// testHookDecode, when set, is told of each file a build decodes or
// extracts.
var testHookDecode func(rel string)

// unreadablePrefix starts the reason of a file that could not be opened.
const unreadablePrefix = "unreadable: "

// sameSkips reports whether two sets of skipped files are the same.
func sameSkips(a, b map[string]Skip) bool {
	if len(a) != len(b) {
		return false
	}
	for p, s := range a {
		if b[p] != s {
			return false
		}
	}
	return true
}

// Skipped lists the files of the source root that are not indexed, and
// why, by path.
func (ix *Index) Skipped() ([]Skip, error) {
	if ix.man == nil {
		return nil, errors.New("skipped: the index has no manifest")
	}
	m, err := ix.man.skips()
	if err != nil {
		return nil, err
	}
	out := make([]Skip, 0, len(m))
	for _, s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// finish records a completed build.
func (ix *Index) finish(t time.Time, st BuildStats, changed bool) error {
	kv := map[string]string{metaLastSync: t.UTC().Format(time.RFC3339Nano)}
	if st.Audited || st.Rebuilt != "" {
		kv[metaLastAudit] = kv[metaLastSync]
	}
	if last, _ := ix.man.getMeta(metaLastAudit); last == "" {
		kv[metaLastAudit] = kv[metaLastSync]
	}
	if err := ix.man.setMeta(kv); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	in := map[string]string{keySynced: kv[metaLastSync]}
	if changed {
		stats, err := ix.man.stats()
		if err != nil {
			return fmt.Errorf("read manifest: %w", err)
		}
		in[keyStats] = stats
		in[keyState] = "ready"
		in[keyFiles] = strconv.Itoa(st.Files)
		in[keySkipped] = strconv.Itoa(st.Skipped)
		if err := ix.bumpSeq(in); err != nil {
			return err
		}
		ix.loadStats()
		return nil
	}
	if prev := ix.internalInt(keySkipped); prev != st.Skipped {
		in[keySkipped] = strconv.Itoa(st.Skipped)
	}
	return ix.setInternal(in)
}

// bumpSeq writes internal keys with the next build count, to the index
// first and then to the manifest (see keySeq).
func (ix *Index) bumpSeq(kv map[string]string) error {
	n := max(ix.internalInt(keySeq), ix.man.seq()) + 1
	kv[keySeq] = strconv.Itoa(n)
	if err := ix.setInternal(kv); err != nil {
		return err
	}
	if err := ix.man.setMeta(map[string]string{metaSeq: kv[keySeq]}); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

func (ix *Index) setInternal(kv map[string]string) error {
	b := ix.b.NewBatch()
	for k, v := range kv {
		b.SetInternal([]byte(k), []byte(v))
	}
	if err := ix.b.Batch(b); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// readAhead bounds the bytes of the files read and parsed ahead of the
// batches (a file bigger than that is read alone; the analysis, not the
// reading, sets the pace: a few files ahead are enough), and extractSlots the
// PDF and Office documents extracted at once: what a build holds does
// not grow with the folder or with how much its files unpack to.
const (
	readAhead    = 8 << 20
	extractSlots = 2
)

// readFiles reads, hashes and parses files on a few goroutines, each
// result's weight taken from ahead before it is sent; the caller gives it
// back (ahead.release) once it holds the result no more.
func readFiles(ctx context.Context, root string, files []fileInfo, entries map[string]entry, skips map[string]Skip, rules Rules, ahead *budget, out chan<- readResult) {
	defer close(out)
	jobs := make(chan fileInfo)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), 4)
	extracting := make(chan struct{}, extractSlots)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				r := readOne(ctx, root, f, entries, skips, rules, extracting)
				if r.doc != nil {
					r.weight = f.Size
					for _, p := range r.doc.Passages {
						r.weight += int64(len(p.Text))
					}
				}
				if !ahead.acquire(ctx, r.weight) {
					return
				}
				select {
				case out <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	// Keep the walk order in the output as far as the workers allow: the
	// batches then hold neighbouring files.
	for _, f := range files {
		select {
		case jobs <- f:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
}

func readOne(ctx context.Context, root string, f fileInfo, entries map[string]entry, skips map[string]Skip, rules Rules, extracting chan struct{}) readResult {
	r := readResult{f: f}
	data, _, err := readInRoot(root, f.Abs, rules.MaxFileSize)
	if errors.Is(err, ErrRefused) {
		r.skipWhy = refusal(err)
		return r
	}
	if err != nil {
		r.skipWhy = unreadablePrefix + pathless(err).Error()
		return r
	}
	sum := sha256.Sum256(data)
	r.sha = hex.EncodeToString(sum[:])
	if e, ok := entries[f.Rel]; ok && e.SHA256 == r.sha && e.Meta == f.Meta {
		r.same = true
		return r
	}
	if s, ok := skips[f.Rel]; ok && s.SHA256 == r.sha && s.ModTime == f.ModTime && s.Size == f.Size && s.Meta == f.Meta && costlySkip(s, rules) {
		r.skipWhy = s.Why
		return r
	}
	if testHookDecode != nil {
		testHookDecode(f.Rel)
	}
	if extract.Handles(path.Ext(f.Rel)) {
		select {
		case extracting <- struct{}{}:
			defer func() { <-extracting }()
		case <-ctx.Done():
			r.skipWhy = ctx.Err().Error()
			return r
		}
	}
	text, enc, locs, err := rules.decodeDocument(f.Rel, f.Abs, data, r.sha)
	data = nil
	if err != nil {
		r.skipWhy = err.Error()
		return r
	}
	var side []byte
	if f.Meta != "" {
		side = readSidecar(root, f.Abs)
	}
	r.doc = parseDocument(f.Rel, text, enc, side, locs)
	return r
}

// batchWriter accumulates index operations and writes them in bounded batches.
type batchWriter struct {
	ix      *Index
	ctx     context.Context
	lookup  bool // find a path's passages in Bleve too (after an interrupted build)
	st      *BuildStats
	entries map[string]entry

	batch *bleve.Batch
	bytes int
	puts  map[string]entry
	dels  []string
	docs  map[string][]*document.Document // documents of the batch, by path
	// lengths are the analyzed lengths of the passages written so far of
	// a file not yet in the manifest (one written over several batches).
	lengths map[string]map[string]int
}

func (w *batchWriter) reset() {
	w.batch = w.ix.b.NewBatch()
	w.bytes = 0
	w.puts = map[string]entry{}
	w.dels = nil
	w.docs = map[string][]*document.Document{}
}

// oldIDs returns the passage ids a path has in the index.
func (w *batchWriter) oldIDs(p string) ([]string, error) {
	ids := append([]string(nil), w.entries[p].IDs...)
	if !w.lookup {
		return ids, nil
	}
	q := bleve.NewTermQuery(p)
	q.SetField(fieldPath)
	// Page by id: a big file has more passages than one page holds.
	const page = 10000
	for from := 0; ; from += page {
		req := bleve.NewSearchRequestOptions(q, page, from, false)
		req.Score = "none"
		req.SortBy([]string{"_id"})
		res, err := w.ix.b.SearchInContext(w.ctx, req)
		if err != nil {
			return nil, fmt.Errorf("find passages of %s: %w", p, err)
		}
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		if len(res.Hits) < page {
			return ids, nil
		}
	}
}

func (w *batchWriter) remove(p string) error {
	ids, err := w.oldIDs(p)
	if err != nil {
		return err
	}
	for _, id := range ids {
		w.batch.Delete(id)
	}
	w.dels = append(w.dels, p)
	w.st.Deleted++
	return w.maybeFlush()
}

func (w *batchWriter) add(r readResult) error {
	ids, err := w.oldIDs(r.f.Rel)
	if err != nil {
		return err
	}
	for _, id := range ids {
		w.batch.Delete(id)
	}
	d := r.doc
	head := d.Head()
	e := entry{ModTime: r.f.ModTime, Size: r.f.Size, SHA256: r.sha, Meta: r.f.Meta, Encoding: d.Encoding, Lines: d.Lines, Title: d.Title, Editions: d.Editions}
	e.IDs = make([]string, 0, len(d.Passages))
	// Every passage of the file has its head: analyzed once.
	a := w.ix.opts.AnalyzerOf()
	hs := heads{ja: &onceTerms{}, bi: &onceTerms{}}
	for i, p := range d.Passages {
		id := passageID(d.Path, p.Start, p.End)
		doc := passageDocument(a, id, d.Path, p.Text, head, hs)
		if err := w.batch.IndexAdvanced(doc); err != nil {
			return fmt.Errorf("index %s: %w", d.Path, err)
		}
		w.docs[d.Path] = append(w.docs[d.Path], doc)
		e.IDs = append(e.IDs, id)
		w.bytes += len(p.Text) + len(head)
		w.st.Passages++
		// A big file goes to Bleve in batches of the same bound as
		// small ones: the analysis of its passages is held a batch at a
		// time, not the whole file's. The manifest learns of the file
		// with its last batch (an interrupted build finds its passages
		// in the index).
		d.Passages[i].Text = ""
		if w.full() && i < len(d.Passages)-1 {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	w.puts[d.Path] = e
	return w.maybeFlush()
}

// full reports whether the batch holds as much as one batch may.
func (w *batchWriter) full() bool {
	return w.bytes >= w.ix.opts.BatchBytes || w.batch.Size() >= 4096
}

func (w *batchWriter) maybeFlush() error {
	if !w.full() {
		return nil
	}
	return w.flush()
}

// flush writes the batch to Bleve, then the manifest.
func (w *batchWriter) flush() error {
	if w.batch.Size() > 0 {
		if err := w.ix.b.Batch(w.batch); err != nil {
			return fmt.Errorf("write index batch: %w", err)
		}
		w.st.Batches++
		w.ix.fresh = false
		// Bleve analyzed the documents in place: keep their lengths
		// (a file written over several batches adds them up).
		for p, docs := range w.docs {
			l := w.lengths[p]
			if l == nil {
				l = map[string]int{}
				w.lengths[p] = l
			}
			for _, d := range docs {
				d.VisitFields(func(f index.Field) {
					if f.Name() != fieldPath {
						l[f.Name()] += f.AnalyzedLength()
					}
				})
			}
		}
	}
	for p, e := range w.puts {
		if l, ok := w.lengths[p]; ok {
			e.Lengths = l
			w.puts[p] = e
			delete(w.lengths, p)
		}
	}
	if len(w.puts) > 0 || len(w.dels) > 0 {
		if err := w.ix.man.apply(w.puts, w.dels); err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
	}
	w.reset()
	return w.ctx.Err()
}

// passageID is the Bleve id of a passage: path#start-end.
func passageID(p string, start, end int) string {
	return p + "#" + strconv.Itoa(start) + "-" + strconv.Itoa(end)
}

// parsePassageID splits a passage id.
func parsePassageID(id string) (p string, start, end int, ok bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return "", 0, 0, false
	}
	s, e, found := strings.Cut(id[i+1:], "-")
	if !found {
		return "", 0, 0, false
	}
	a, err1 := strconv.Atoi(s)
	b, err2 := strconv.Atoi(e)
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return id[:i], a, b, true
}

// heads hold the analysis of the head of one file's passages, made by the
// first passage that Bleve analyzes (nil fields: each passage analyzes it).
type heads struct{ ja, bi *onceTerms }

// passageDocument builds the Bleve document of one passage, analyzed with
// a (the head with hs).
func passageDocument(a *analyzer.Analyzer, id, p, text, head string, hs heads) *document.Document {
	doc := document.NewDocument(id)
	doc.AddField(document.NewTextFieldCustom(fieldPath, nil, []byte(p), index.IndexField, keywordAnalyzer{}))
	doc.AddField(&termField{name: fieldBody, text: text, terms: a.Terms, bytesPerTerm: textPerTerm})
	doc.AddField(&termField{name: fieldGram, text: text, terms: analyzer.BigramTerms, bytesPerTerm: textPerBigram})
	doc.AddField(&termField{name: fieldHead, text: head, terms: a.Terms, once: hs.ja})
	doc.AddField(&termField{name: fieldHeadGram, text: head, terms: analyzer.BigramTerms, once: hs.bi})
	return doc
}

// keywordAnalyzer indexes a whole value as one term.
type keywordAnalyzer struct{}

func (keywordAnalyzer) Analyze(input []byte) analysis.TokenStream {
	return analysis.TokenStream{&analysis.Token{Term: input, Start: 0, End: len(input), Position: 1, Type: analysis.AlphaNumeric}}
}

// The builds of this process that hold the memory limit, and whether
// they set it.
var memoryLimit struct {
	sync.Mutex
	builds int
	set    bool
}

// limitMemory sets the process's soft memory limit (runtime/debug) while
// a build runs and returns what lifts it when the last build ends: the
// collector works harder near it instead of letting the heap double (the
// bench corpus's peak 385 → about 225 MiB at 192 MiB, its cpu unchanged;
// about 220 MiB at 176 MiB once the first build's merges were deferred,
// which keep its segments mapped until its end).
// A limit the environment sets (GOMEMLIMIT) stands.
func limitMemory(limit int64) func() {
	if limit <= 0 {
		return func() {}
	}
	m := &memoryLimit
	m.Lock()
	defer m.Unlock()
	if m.builds++; m.builds == 1 && os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(limit)
		m.set = true
	}
	return func() {
		m.Lock()
		defer m.Unlock()
		if m.builds--; m.builds == 0 && m.set {
			debug.SetMemoryLimit(math.MaxInt64)
			m.set = false
		}
	}
}
