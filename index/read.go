package index

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"lwr/index/extract"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotDocument is returned for a path that is not a document of the
// source root: outside it, through a symbolic link, hidden, a secret,
// excluded or of a type that is not indexed.
var ErrNotDocument = errors.New("not a document of the source root")

// File is a document of a source root as it reads now, decoded as the
// index decodes it.
type File struct {
	Rel      string   // relative path, forward slashes
	Abs      string   // absolute path
	Lines    []string // the text's lines, without line ends
	Encoding string
	ModTime  time.Time
	Size     int64
	SHA256   string // of the file's bytes
	// Locators say where each line stands in a PDF or Office document
	// (nil for text files).
	Locators []extract.Locator
}

// ReadFile reads the document rel (relative to root, forward or back
// slashes) that the index would index under rules: a path outside the
// root, through a symbolic link, hidden, a secret, excluded, of another
// type or over the size limit is refused with ErrNotDocument, so that
// only what a search can cite can be read. An absolute path inside the
// root is read as the path relative to it.
func ReadFile(root string, rules Rules, rel string) (*File, error) {
	rules = rules.withDefaults()
	refuse := func(why string) (*File, error) {
		return nil, fmt.Errorf("%w: %s %s; give a path relative to the source root, as a search returns it", ErrNotDocument, rel, why)
	}
	croot, err := CanonicalRoot(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNoRoot, root, err)
	}
	clean, ok := relativeTo(root, croot, rel)
	if !ok {
		return refuse("is not inside the source root")
	}
	why := rules.Excluded(clean)
	sniff := why == "extension" && extensionless(clean)
	if why != "" && !sniff {
		return refuse("is never indexed (" + why + ")")
	}
	abs := Resolve(croot, clean)
	data, st, err := readInRoot(croot, abs, rules.MaxFileSize)
	var big *tooLargeError
	switch {
	case errors.As(err, &big):
		return refuse(fmt.Sprintf("is larger than index.max_file_size (%d bytes)", big.max))
	case errors.Is(err, ErrRefused):
		return refuse(refusal(err))
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	}
	if sniff {
		if why := sniffData(data); why != "" {
			return refuse("is never indexed (" + why + ")")
		}
	}
	h := sha256.Sum256(data)
	sum := hex.EncodeToString(h[:])
	text, enc, locs, err := rules.decodeDocument(clean, abs, data, sum)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	}
	return &File{Rel: ShownName(clean), Abs: abs, Lines: Lines(text), Encoding: enc, ModTime: st.ModTime(), Size: st.Size(), SHA256: sum, Locators: locs}, nil
}

// relativeTo is rel as a clean path relative to the root (forward
// slashes): a relative path as it is, an absolute one inside the root
// (as root is given or canonical) without the root; ok is false for a
// path outside it.
func relativeTo(root, croot, rel string) (string, bool) {
	if rel == "" {
		return "", false
	}
	p := filepath.ToSlash(rel)
	if filepath.IsAbs(rel) || path.IsAbs(p) || filepath.VolumeName(rel) != "" {
		cut := false
		for _, r := range []string{root, croot} {
			if abs, err := filepath.Abs(r); err == nil {
				r = abs
			}
			prefix := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(r)), "/") + "/"
			if len(p) > len(prefix) && foldPath(p[:len(prefix)]) == foldPath(prefix) {
				p, cut = p[len(prefix):], true
				break
			}
		}
		if !cut {
			return "", false
		}
	}
	clean := path.Clean(p)
	if clean == "." || clean == ".." || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || strings.Contains(clean, "\x00") {
		return "", false
	}
	return clean, true
}

// ErrRefused matches the errors of readInRoot that refuse a file: lwr
// reads only regular files inside the source root, reached without a
// symbolic link, up to a size.
var ErrRefused = errors.New("not read")

// ErrLink matches the refusals of a file reached through a symbolic link
// (or swapped for another while it was opened); they match ErrRefused too.
var ErrLink = errors.New("reached through a symbolic link")

// refusedError says why a file is not read.
type refusedError struct {
	why  string
	link bool // matches ErrLink
}

func (e *refusedError) Error() string { return e.why }
func (e *refusedError) Is(target error) bool {
	return target == ErrRefused || e.link && target == ErrLink
}

// refusal is the reason of a refused read.
func refusal(err error) string {
	var re *refusedError
	if errors.As(err, &re) {
		return re.why
	}
	var big *tooLargeError
	if errors.As(err, &big) {
		return big.Error()
	}
	return err.Error()
}

var (
	errLinked     = &refusedError{why: "is a symbolic link, or in a folder reached through one (only regular files inside the folder are read)", link: true}
	errNotRegular = &refusedError{why: "is not a regular file"}
	errOutside    = &refusedError{why: "is not inside the folder", link: true}
	errChanged    = &refusedError{why: "changed while it was opened", link: true}
)

// tooLargeError is a file over the bound of its read.
type tooLargeError struct{ max int64 }

func (e *tooLargeError) Error() string        { return fmt.Sprintf("is larger than %d bytes", e.max) }
func (e *tooLargeError) Is(target error) bool { return target == ErrRefused }

func tooLarge(max int64) error { return &tooLargeError{max} }

// readInRoot is how lwr reads every file of a source root (documents,
// sidecars, policy files): abs (an absolute path, or one relative to
// root) is read only if, opened now, it is a regular file inside root
// reached without a symbolic link — every folder on its way is a folder,
// the name itself no link (Lstat, then the opened file compared with it),
// the open confined to root by os.Root — and only up to max bytes, read
// through a limit (a size from Stat is never trusted: /proc files say 0).
// A refusal matches ErrRefused; other errors are the file system's.
func readInRoot(root, abs string, max int64) ([]byte, fs.FileInfo, error) {
	f, st, err := openInRoot(root, abs)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, tooLarge(max)
	}
	return data, st, nil
}

// headInRoot reads at most the first n bytes of a file under readInRoot's
// rule.
func headInRoot(root, abs string, n int64) ([]byte, error) {
	f, _, err := openInRoot(root, abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// openInRoot opens a file under readInRoot's rule; the caller closes it.
func openInRoot(root, abs string) (*os.File, fs.FileInfo, error) {
	rel := abs
	if filepath.IsAbs(abs) {
		r, err := filepath.Rel(root, abs)
		if err != nil {
			return nil, nil, errOutside
		}
		rel = r
	}
	if !filepath.IsLocal(rel) {
		return nil, nil, errOutside
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	segs := strings.Split(filepath.ToSlash(rel), "/")
	for i := 1; i < len(segs); i++ {
		st, err := r.Lstat(filepath.FromSlash(strings.Join(segs[:i], "/")))
		if err != nil {
			return nil, nil, err
		}
		if st.Mode().Type() != fs.ModeDir {
			return nil, nil, errLinked
		}
	}
	lst, err := r.Lstat(rel)
	switch {
	case err != nil:
		return nil, nil, err
	case lst.Mode()&fs.ModeSymlink != 0:
		return nil, nil, errLinked
	case !lst.Mode().IsRegular():
		return nil, nil, errNotRegular
	}
	f, err := r.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, err
	case !os.SameFile(lst, st):
		f.Close()
		return nil, nil, errChanged
	case !st.Mode().IsRegular():
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, st, nil
}

// pathless is an I/O error without its path, which the message names
// already as the user gave it.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// withCopy calls fn with the path of a temporary copy of data (in dir, or
// the system's temporary folder when dir is ""), named with ext, and
// removes it after: what was read under readInRoot's rule is what a
// program that opens files by name (pdftotext) reads, not whatever the
// source path names by then.
func withCopy(dir, ext string, data []byte, fn func(path string) error) error {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			dir = ""
		}
	}
	f, err := os.CreateTemp(dir, "read-*"+ext)
	if err != nil {
		return fmt.Errorf("copy the file for extraction: %w", err)
	}
	defer os.Remove(f.Name())
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("copy the file for extraction: %w", werr)
	}
	return fn(f.Name())
}

// SourceFS is the files of a source root as lwr reads them (readInRoot):
// Open reads a regular file reached without a symbolic link, up to max
// bytes (a larger one is an error), and Stat never follows a link (a name
// with a link on its way stats as that link). The policy files are read through it.
func SourceFS(root string, max int64) fs.FS { return sourceFS{root: root, max: max} }

type sourceFS struct {
	root string
	max  int64
}

func (s sourceFS) check(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.FromSlash(name), nil
}

func (s sourceFS) Open(name string) (fs.File, error) {
	data, st, err := s.read(name)
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(data), info: st}, nil
}

func (s sourceFS) ReadFile(name string) ([]byte, error) {
	data, _, err := s.read(name)
	return data, err
}

func (s sourceFS) read(name string) ([]byte, fs.FileInfo, error) {
	rel, err := s.check("open", name)
	if err != nil {
		return nil, nil, err
	}
	data, st, err := readInRoot(s.root, rel, s.max)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: pathless(err)}
	}
	return data, st, nil
}

// Stat is Lstat, on the way too: a name with a symbolic link on its way
// stats as that link.
func (s sourceFS) Stat(name string) (fs.FileInfo, error) {
	rel, err := s.check("stat", name)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if name == "." {
		return r.Stat(".")
	}
	segs := strings.Split(name, "/")
	for i := 1; i < len(segs); i++ {
		st, err := r.Lstat(filepath.FromSlash(strings.Join(segs[:i], "/")))
		if err != nil {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: pathless(err)}
		}
		if st.Mode().Type() != fs.ModeDir {
			return st, nil // a link (or a file) on the way
		}
	}
	st, err := r.Lstat(rel)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: pathless(err)}
	}
	return st, nil
}

// memFile is a file read whole.
type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }
