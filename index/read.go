package index

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
// only what a search can cite can be read.
func ReadFile(root string, rules Rules, rel string) (*File, error) {
	rules = rules.withDefaults()
	refuse := func(why string) (*File, error) {
		return nil, fmt.Errorf("%w: %s %s; give a path relative to the source root, as a search returns it", ErrNotDocument, rel, why)
	}
	clean := path.Clean(filepath.ToSlash(rel))
	if rel == "" || clean == "." || path.IsAbs(clean) || filepath.VolumeName(rel) != "" || clean == ".." || strings.HasPrefix(clean, "../") {
		return refuse("is not inside the source root")
	}
	why := rules.Excluded(clean)
	sniff := why == "extension" && extensionless(clean)
	if why != "" && !sniff {
		return refuse("is never indexed (" + why + ")")
	}
	croot, err := CanonicalRoot(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNoRoot, root, err)
	}
	abs := Resolve(croot, clean)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	}
	if foldPath(filepath.Clean(real)) != foldPath(abs) {
		return refuse("is reached through a symbolic link")
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	case !st.Mode().IsRegular():
		return refuse("is not a regular file")
	case st.Size() > rules.MaxFileSize:
		return refuse(fmt.Sprintf("is larger than index.max_file_size (%d bytes)", rules.MaxFileSize))
	}
	if sniff {
		if why := sniffText(abs); why != "" {
			return refuse("is never indexed (" + why + ")")
		}
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	}
	h := sha256.Sum256(data)
	sum := hex.EncodeToString(h[:])
	text, enc, locs, err := rules.decodeDocument(clean, abs, data, sum)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", clean, pathless(err))
	}
	return &File{Rel: ShownName(clean), Abs: abs, Lines: Lines(text), Encoding: enc, ModTime: st.ModTime(), Size: st.Size(), SHA256: sum, Locators: locs}, nil
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
