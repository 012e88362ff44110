package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"lwr/config/boltfile"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
	"golang.org/x/text/unicode/norm"
)

// Cache errors; a caller treats every one of them as a cache miss and
// shows the error as a warning.
var (
	// ErrCacheLocked: another process holds the cache file longer than
	// the lock timeout.
	ErrCacheLocked = errors.New("the web cache is locked by another process")
	// ErrCacheUnsafe: the cache file is outside the cache folder, or a
	// symbolic link, or not a regular file.
	ErrCacheUnsafe = errors.New("the web cache path is not safe")
	// ErrCacheCorrupt: the cache file cannot be read.
	ErrCacheCorrupt = errors.New("the web cache file is corrupt")
)

// Cache TTLs (SPEC §6.4, seed 000 _web-cache-shared).
const (
	// NegativeTTL is how long an error or empty result is remembered.
	NegativeTTL = 5 * time.Minute
	// MaxCacheAge is the age past which Cleanup removes an entry.
	MaxCacheAge = 24 * time.Hour
	// DefaultCacheLockTimeout is how long opening waits for the file lock.
	DefaultCacheLockTimeout = 2 * time.Second
)

// normalizeQuery is the query as it enters the cache key: NFKC, lower
// case, trimmed, inner white space as one space (seed: Trim().ToLower()
// -replace '\s+',' ', plus NFKC).
func normalizeQuery(q string) string {
	q = strings.ToLower(norm.NFKC.String(strings.ToValidUTF8(q, "\uFFFD")))
	return strings.Join(strings.Fields(q), " ")
}

// CacheKey is the first 16 hex digits of the SHA-256 of
// "normalized query|intent|max_results|locale".
func CacheKey(req Request) string {
	req = req.normalized()
	sum := sha256.Sum256([]byte(normalizeQuery(req.Query) + "|" + string(req.Intent) + "|" + strconv.Itoa(req.MaxResults) + "|" + req.Locale))
	return hex.EncodeToString(sum[:])[:16]
}

var (
	entriesBucket = []byte("entries")
	metaBucket    = []byte("meta")
	lastCleanup   = []byte("last_cleanup")
)

// cacheRecord is the header of one stored value. A value is the header
// as JSON, a newline, and the Result as JSON, so that TTL checks, cleanup
// and stats never parse results.
type cacheRecord struct {
	Version    int       `json:"v"`
	Query      string    `json:"query"`
	Intent     Intent    `json:"intent"`
	MaxResults int       `json:"max_results"`
	Locale     string    `json:"locale"`
	CachedAt   time.Time `json:"cached_at"`
	Negative   bool      `json:"negative,omitempty"`
}

// encodeRecord joins a header and its data.
func encodeRecord(rec cacheRecord, data []byte) ([]byte, error) {
	head, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+1+len(data))
	out = append(append(append(out, head...), '\n'), data...)
	return out, nil
}

// decodeRecord reads the header of a value and returns its data; it
// reports false for a value it cannot read.
func decodeRecord(v []byte) (cacheRecord, []byte, bool) {
	var rec cacheRecord
	head, data, ok := bytes.Cut(v, []byte{'\n'})
	if !ok || json.Unmarshal(head, &rec) != nil || rec.Version != 1 {
		return cacheRecord{}, nil, false
	}
	return rec, data, true
}

// CacheOptions configure OpenCache. The zero value works.
type CacheOptions struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Timeout is how long to wait for another process's lock; 0 means
	// DefaultCacheLockTimeout.
	Timeout time.Duration
	// ReadOnly opens with a shared lock and never creates or repairs the
	// file; a missing file is an empty cache.
	ReadOnly bool
	// Logger receives warnings; nil discards them.
	Logger *slog.Logger
}

func (o CacheOptions) withDefaults() CacheOptions {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultCacheLockTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Cache is the bbolt web cache. It holds the file's lock while open, so
// open it for one step (a get, or a set) rather than across network I/O
// when other processes share the file. Methods are safe for concurrent use.
type Cache struct {
	path     string
	db       *bolt.DB // nil: read-only and the file does not exist
	opts     CacheOptions
	warnings []string
}

// OpenCache opens (or, unless read-only, creates with mode 0600) the cache
// file name inside the folder dir; a relative name is relative to dir.
// The file must stay inside dir and must not be a symbolic link
// (ErrCacheUnsafe). A file locked by another process for longer than the
// timeout gives ErrCacheLocked. A corrupt file is moved aside to
// <name>.corrupt-<UTC time> and an empty cache is started, with a warning
// in Warnings (read-only: ErrCacheCorrupt).
func OpenCache(dir, name string, opts CacheOptions) (*Cache, error) {
	opts = opts.withDefaults()
	path, err := cachePath(dir, name)
	if err != nil {
		return nil, err
	}
	c := &Cache{path: path, opts: opts}
	if opts.ReadOnly {
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return c, nil
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open web cache %s: %w", path, err)
	}
	before, _ := os.Lstat(path)
	err = c.open()
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, ErrCacheCorrupt) || opts.ReadOnly {
		return nil, err
	}
	// Move the corrupt file aside, unless someone replaced it meanwhile.
	if after, serr := os.Lstat(path); serr == nil && before != nil && os.SameFile(before, after) {
		aside := path + ".corrupt-" + opts.Now().UTC().Format("20060102T150405Z")
		if rerr := os.Rename(path, aside); rerr != nil {
			return nil, fmt.Errorf("%w; moving it aside failed: %v", err, rerr)
		}
		c.warn(fmt.Sprintf("%v; moved it to %s and started an empty cache", err, aside))
	}
	if err := c.open(); err != nil {
		return nil, err
	}
	return c, nil
}

// open opens the bbolt file guarded (boltfile.Open) and checks it: in
// full for a writer, which repairs what it finds; a reader, which cannot
// repair, checks only the size and relies on guard for the rest. It sets
// c.db on success.
func (c *Cache) open() error {
	bopts := bolt.Options{Timeout: c.opts.Timeout, ReadOnly: c.opts.ReadOnly, OpenFile: openNoFollow}
	db, err := boltfile.Open(c.path, 0o600, bopts, !c.opts.ReadOnly)
	if err != nil {
		var pe *fs.PathError
		switch {
		case errors.Is(err, berrors.ErrTimeout):
			return fmt.Errorf("open web cache %s: %w (waited %s)", c.path, ErrCacheLocked, c.opts.Timeout)
		case isSymlinkOpenError(err):
			return fmt.Errorf("open web cache %s: %w: it is a symbolic link", c.path, ErrCacheUnsafe)
		case errors.As(err, &pe) && (errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)):
			return fmt.Errorf("open web cache %s: %w", c.path, err)
		}
		return fmt.Errorf("open web cache %s: %w: %s", c.path, ErrCacheCorrupt, damageReason(err))
	}
	if !c.opts.ReadOnly {
		_ = os.Chmod(c.path, 0o600)
		err := db.Update(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{entriesBucket, metaBucket} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			db.Close()
			return fmt.Errorf("open web cache %s: %w", c.path, err)
		}
	}
	c.db = db
	return nil
}

// guard runs f, turning a panic or a memory fault (a damaged file read
// through mmap) into ErrCacheCorrupt.
func guard(f func() error) error {
	err := boltfile.Guard(f)
	if errors.Is(err, boltfile.ErrDamaged) {
		return fmt.Errorf("%w: %s", ErrCacheCorrupt, damageReason(err))
	}
	return err
}

// damageReason is what is wrong with the file, without boltfile's
// "the file is damaged" (the cache says "corrupt" itself).
func damageReason(err error) string {
	if d, ok := errors.AsType[*boltfile.Damage](err); ok {
		return d.Reason
	}
	return err.Error()
}

// cachePath resolves name inside dir and checks the boundary: the result
// must be inside dir, and neither it nor any folder between dir and it
// may be a symbolic link.
func cachePath(dir, name string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("%w: no cache folder given", ErrCacheUnsafe)
	}
	if name == "" {
		name = "web-cache.db"
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve cache folder %s: %w", dir, err)
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(absDir, p)
	}
	p = filepath.Clean(p)
	rel, err := filepath.Rel(absDir, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%w: %s is outside the cache folder %s; set web.cache_file to a name inside it", ErrCacheUnsafe, p, absDir)
	}
	// Every component from dir down to the file must be what it says.
	cur := absDir
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("check web cache path %s: %w", cur, err)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%w: %s is a symbolic link; lwr does not follow links out of the cache folder", ErrCacheUnsafe, cur)
		}
		last := i == len(parts)-1
		if last && !st.Mode().IsRegular() {
			return "", fmt.Errorf("%w: %s is not a regular file", ErrCacheUnsafe, cur)
		}
		if !last && !st.IsDir() {
			return "", fmt.Errorf("%w: %s is not a folder", ErrCacheUnsafe, cur)
		}
	}
	return p, nil
}

func (c *Cache) warn(msg string) {
	c.warnings = append(c.warnings, msg)
	c.opts.Logger.Warn("web cache", "warning", msg, "path", c.path)
}

// Path is the cache file.
func (c *Cache) Path() string { return c.path }

// Warnings are what OpenCache repaired.
func (c *Cache) Warnings() []string { return append([]string(nil), c.warnings...) }

// Close releases the file and its lock.
func (c *Cache) Close() error {
	if c.db == nil {
		return nil
	}
	err := c.db.Close()
	c.db = nil
	if err != nil {
		return fmt.Errorf("close web cache %s: %w", c.path, err)
	}
	return nil
}

// Hit is the answer of Get.
type Hit struct {
	// Found is false for a miss (none, expired, or unreadable).
	Found bool
	// Damaged says, for a miss, that the query's entry could not be read:
	// a sentence to show as a warning.
	Damaged string
	// Negative marks a remembered error or empty result: do not search
	// again, treat the web as empty.
	Negative bool
	// Age is how old the entry is.
	Age time.Duration
	// CachedAt is when it was stored.
	CachedAt time.Time
	// Result is the stored result.
	Result *Result
}

// Get looks req up. An expired, unreadable or colliding entry is a miss.
// An error means the file could not be read; treat it as a miss.
func (c *Cache) Get(req Request) (Hit, error) {
	if c.db == nil {
		return Hit{}, nil
	}
	req = req.normalized()
	key := []byte(CacheKey(req))
	var val []byte
	err := guard(func() error {
		return c.db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(entriesBucket)
			if b == nil {
				return nil
			}
			val = bytes.Clone(b.Get(key)) // valid only inside the transaction
			return nil
		})
	})
	if err != nil {
		return Hit{}, fmt.Errorf("read web cache %s: %w", c.path, err)
	}
	if val == nil {
		return Hit{}, nil
	}
	damaged := Hit{Damaged: fmt.Sprintf("the web cache entry of this query in %s is damaged and was treated as a miss; lwr web cache cleanup removes it", c.path)}
	rec, data, ok := decodeRecord(val)
	if !ok {
		return damaged, nil
	}
	if rec.Query != normalizeQuery(req.Query) || rec.Intent != req.Intent ||
		rec.MaxResults != req.MaxResults || rec.Locale != req.Locale {
		return Hit{}, nil
	}
	now := c.opts.Now()
	age := now.Sub(rec.CachedAt)
	if age < -time.Minute { // stored in the future: do not trust it
		return Hit{}, nil
	}
	age = max(age, 0)
	ttl := rec.Intent.TTL()
	if rec.Negative {
		ttl = NegativeTTL
	}
	if age > ttl {
		return Hit{}, nil
	}
	var res Result
	if err := json.Unmarshal(data, &res); err != nil {
		return damaged, nil
	}
	if res.Entries == nil {
		res.Entries = []Entry{}
	}
	return Hit{Found: true, Negative: rec.Negative, Age: age, CachedAt: rec.CachedAt, Result: &res}, nil
}

// Store keeps res under req the way the research pipeline does (SPEC
// §7.2): ok results for the intent's TTL, empty and error results as
// negative entries; a partial result is not stored (stored is false), so
// that one provider's passing failure is not remembered for hours.
func (c *Cache) Store(req Request, res *Result) (stored bool, err error) {
	switch res.Status {
	case StatusOK:
		return true, c.Set(req, res, false)
	case StatusEmpty, StatusError:
		return true, c.Set(req, res, true)
	}
	return false, nil
}

// Set stores res under req; negative marks an error or empty result,
// remembered for NegativeTTL. Results already sanitized are stored as
// they are. Now and then (at most hourly) Set also removes a few old
// entries, bounded as in Cleanup.
func (c *Cache) Set(req Request, res *Result, negative bool) error {
	if c.db == nil || c.opts.ReadOnly {
		return fmt.Errorf("write web cache %s: opened read-only", c.path)
	}
	req = req.normalized()
	data, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("write web cache %s: %w", c.path, err)
	}
	now := c.opts.Now()
	rec := cacheRecord{Version: 1, Query: normalizeQuery(req.Query), Intent: req.Intent, MaxResults: req.MaxResults,
		Locale: req.Locale, CachedAt: now.UTC(), Negative: negative}
	val, err := encodeRecord(rec, data)
	if err != nil {
		return fmt.Errorf("write web cache %s: %w", c.path, err)
	}
	err = guard(func() error {
		return c.db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(entriesBucket)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(CacheKey(req)), val); err != nil {
				return err
			}
			meta, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			var last time.Time
			_ = last.UnmarshalText(meta.Get(lastCleanup))
			if now.Sub(last) >= time.Hour || last.After(now) {
				if _, err := cleanupTx(context.Background(), tx, now, CleanupOptions{MaxDelete: 50, MaxDuration: 100 * time.Millisecond}.withDefaults()); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("write web cache %s: %w", c.path, err)
	}
	return nil
}

// CleanupOptions bound a cleanup.
type CleanupOptions struct {
	// MaxDelete is the most entries removed in one run; 0 means 200.
	MaxDelete int
	// MaxDuration is the most time one run takes; 0 means 2s.
	MaxDuration time.Duration
}

func (o CleanupOptions) withDefaults() CleanupOptions {
	if o.MaxDelete <= 0 {
		o.MaxDelete = 200
	}
	if o.MaxDuration <= 0 {
		o.MaxDuration = 2 * time.Second
	}
	return o
}

// CleanupReport mirrors the log line of the seed's Invoke-WebCacheCleanup.
type CleanupReport struct {
	Event        string `json:"event"`
	Reason       string `json:"reason"`
	DeletedCount int    `json:"deleted_count"`
	FailedCount  int    `json:"failed_count"`
	ScannedCount int    `json:"scanned_count"`
	ElapsedMS    int64  `json:"elapsed_ms"`
	MaxLimit     int    `json:"max_limit"`
	Truncated    bool   `json:"truncated"`
	Remaining    int    `json:"remaining"`
}

// Cleanup removes entries older than MaxCacheAge, and entries that cannot
// be read, at most opts.MaxDelete of them and for at most opts.MaxDuration
// (Truncated then says that more may remain).
func (c *Cache) Cleanup(ctx context.Context, opts CleanupOptions) (CleanupReport, error) {
	opts = opts.withDefaults()
	rep := CleanupReport{Event: "web_cache_cleanup", Reason: "ttl_expired", MaxLimit: opts.MaxDelete}
	if c.db == nil || c.opts.ReadOnly {
		return rep, nil
	}
	start := time.Now()
	err := guard(func() error {
		return c.db.Update(func(tx *bolt.Tx) error {
			var err error
			rep, err = cleanupTx(ctx, tx, c.opts.Now(), opts)
			return err
		})
	})
	rep.ElapsedMS = time.Since(start).Milliseconds()
	if err != nil {
		return rep, fmt.Errorf("clean up web cache %s: %w", c.path, err)
	}
	return rep, nil
}

// cleanupTx is Cleanup inside a write transaction.
func cleanupTx(ctx context.Context, tx *bolt.Tx, now time.Time, opts CleanupOptions) (CleanupReport, error) {
	rep := CleanupReport{Event: "web_cache_cleanup", Reason: "ttl_expired", MaxLimit: opts.MaxDelete}
	b := tx.Bucket(entriesBucket)
	if b == nil {
		return rep, nil
	}
	start := time.Now()
	// Collect first, delete after: deleting under a cursor can skip keys.
	var doomed [][]byte
	cur := b.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if rep.ScannedCount%64 == 0 {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			if time.Since(start) > opts.MaxDuration {
				rep.Truncated, rep.Reason = true, "timeout"
				break
			}
		}
		rep.ScannedCount++
		rec, _, ok := decodeRecord(v)
		stale := !ok || now.Sub(rec.CachedAt) > MaxCacheAge || rec.CachedAt.After(now.Add(time.Hour))
		if !stale {
			continue
		}
		if len(doomed) >= opts.MaxDelete {
			rep.Truncated = true
			break
		}
		doomed = append(doomed, bytes.Clone(k))
	}
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			rep.FailedCount++
			continue
		}
		rep.DeletedCount++
	}
	// Bucket.Stats sees only committed pages: count the keys left.
	cur = b.Cursor()
	for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
		rep.Remaining++
	}
	if meta, err := tx.CreateBucketIfNotExists(metaBucket); err == nil && !rep.Truncated {
		t, _ := now.UTC().MarshalText()
		if err := meta.Put(lastCleanup, t); err != nil {
			return rep, err
		}
	}
	rep.ElapsedMS = time.Since(start).Milliseconds()
	return rep, nil
}

// CacheStats describe the cache.
type CacheStats struct {
	Path        string         `json:"path"`
	Exists      bool           `json:"exists"`
	SizeBytes   int64          `json:"size_bytes"`
	Entries     int            `json:"entries"`
	Positive    int            `json:"positive"`
	Negative    int            `json:"negative"`
	Fresh       int            `json:"fresh"`
	Expired     int            `json:"expired"`
	OlderThan24 int            `json:"older_than_24h"`
	Unreadable  int            `json:"unreadable"`
	ByIntent    map[string]int `json:"by_intent"`
	Oldest      *time.Time     `json:"oldest,omitempty"`
	Newest      *time.Time     `json:"newest,omitempty"`
	LastCleanup *time.Time     `json:"last_cleanup,omitempty"`
}

// Stats counts the entries by kind and age.
func (c *Cache) Stats() (CacheStats, error) {
	st := CacheStats{Path: c.path, ByIntent: map[string]int{}}
	if fi, err := os.Stat(c.path); err == nil {
		st.Exists, st.SizeBytes = true, fi.Size()
	}
	if c.db == nil {
		return st, nil
	}
	now := c.opts.Now()
	err := guard(func() error {
		return c.db.View(func(tx *bolt.Tx) error {
			if meta := tx.Bucket(metaBucket); meta != nil {
				var t time.Time
				if t.UnmarshalText(meta.Get(lastCleanup)) == nil {
					st.LastCleanup = &t
				}
			}
			b := tx.Bucket(entriesBucket)
			if b == nil {
				return nil
			}
			return b.ForEach(func(_, v []byte) error {
				st.Entries++
				rec, _, ok := decodeRecord(v)
				if !ok {
					st.Unreadable++
					return nil
				}
				at := rec.CachedAt
				if st.Oldest == nil || at.Before(*st.Oldest) {
					st.Oldest = &at
				}
				if st.Newest == nil || at.After(*st.Newest) {
					st.Newest = &at
				}
				st.ByIntent[string(rec.Intent)]++
				ttl := rec.Intent.TTL()
				if rec.Negative {
					st.Negative++
					ttl = NegativeTTL
				} else {
					st.Positive++
				}
				age := now.Sub(at)
				if age > ttl {
					st.Expired++
				} else {
					st.Fresh++
				}
				if age > MaxCacheAge {
					st.OlderThan24++
				}
				return nil
			})
		})
	})
	if err != nil {
		return st, fmt.Errorf("read web cache %s: %w", c.path, err)
	}
	return st, nil
}
