package extract

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// Cache keeps extracted text by the SHA-256 of the document's bytes, as
// JSON files in a folder: a document is extracted once for its content,
// whatever its name or how often it is read.
type Cache struct {
	Dir string
	// MaxText is the extraction budget (Options.MaxText; DefaultMaxText
	// when zero): kept text of more characters, or of another Version,
	// is not returned.
	MaxText int64
}

func (c Cache) path(sum string) string {
	return filepath.Join(c.Dir, sum[:2], sum+"-v"+Version+".json")
}

// Get returns the text of the content sum, if it is kept.
func (c Cache) Get(sum string) (*Text, bool) {
	if c.Dir == "" || len(sum) < 2 {
		return nil, false
	}
	max := c.MaxText
	if max <= 0 {
		max = DefaultMaxText
	}
	f, err := os.Open(c.path(sum))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	// A character is at most 6 bytes of JSON (\u001f), a line's locator
	// some dozens: a bigger file is not the text of this budget.
	b, err := io.ReadAll(io.LimitReader(f, 8*max+1))
	if err != nil || int64(len(b)) > 8*max {
		return nil, false
	}
	var t Text
	if json.Unmarshal(b, &t) != nil || len(t.Lines) != len(t.Locators) || t.Version != Version || t.Chars() > max || int64(len(t.Lines)) > maxLines(max) {
		return nil, false
	}
	return &t, true
}

// Put keeps the text of the content sum (written whole or not at all).
// A cache that cannot be written is no error: the text is extracted again
// next time.
func (c Cache) Put(sum string, t *Text) {
	if c.Dir == "" || len(sum) < 2 || t.Version != Version {
		return
	}
	b, err := json.Marshal(t)
	if err != nil {
		return
	}
	p := c.path(sum)
	if os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".extract-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
