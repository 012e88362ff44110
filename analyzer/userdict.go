package analyzer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
)

// ErrUserDict matches the errors of a user dictionary that cannot be
// used: the user fixes the file or the setting (search.user_dict).
var ErrUserDict = errors.New("the user dictionary cannot be used")

// Limits of a user dictionary.
const (
	maxUserWords    = 20000
	maxUserWordRune = 40
	// maxUserDictBytes is what maxUserWords lines could take, with room.
	maxUserDictBytes = 4 << 20
)

// UserDict is a user dictionary: in-house words the analyzer keeps whole
// (新規事業推進室 is never split once it is listed).
type UserDict struct {
	dict *dict.UserDict
	id   string
}

// ID identifies the dictionary by its words (a hash of them).
func (u *UserDict) ID() string { return u.id }

// LoadUserDict reads a user dictionary: one word a line ("word" or
// "word,reading"; # starts a comment); "" is none (nil). A file that
// cannot be used is an error matching ErrUserDict.
func LoadUserDict(path string) (*UserDict, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readBounded(path, maxUserDictBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: read %s: %v; fix search.user_dict", ErrUserDict, path, err)
	}
	recs, id, err := parseUserDict(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUserDict, path, err)
	}
	ud, err := recs.NewUserDict()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUserDict, path, err)
	}
	return &UserDict{dict: ud, id: id}, nil
}

// readBounded reads a file of at most max bytes (one byte more is read, so
// that a larger one is told from it).
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathless(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, pathless(err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("it is larger than %d bytes", max)
	}
	return data, nil
}

// pathless is an I/O error without its path, which the message names
// already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseUserDict reads the file's words, folded as the analyzer folds text
// before it cuts it, into kagome's records.
func parseUserDict(data []byte) (dict.UserDictRecords, string, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		return nil, "", errors.New("it is not UTF-8 text; save it as UTF-8")
	}
	var recs dict.UserDictRecords
	seen := map[string]bool{}
	sum := sha256.New()
	if len(data) > maxUserDictBytes {
		return nil, "", fmt.Errorf("it is %d bytes; a user dictionary holds at most %d words of %d characters", len(data), maxUserWords, maxUserWordRune)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		word, reading, _ := strings.Cut(l, ",")
		spaced := strings.ContainsFunc(strings.TrimSpace(word), unicode.IsSpace) // before Fold drops a space between kanji
		word, reading = Fold(strings.TrimSpace(word)), strings.TrimSpace(reading)
		switch {
		case strings.Contains(reading, ","):
			return nil, "", fmt.Errorf("line %d: %q: one comma at most (\"word\" or \"word,reading\")", n, l)
		case word == "":
			return nil, "", fmt.Errorf("line %d has no word before the comma", n)
		case spaced || strings.ContainsAny(reading, ", \t"):
			return nil, "", fmt.Errorf("line %d: %q: one word a line, no spaces (\"word\" or \"word,reading\")", n, l)
		case utf8.RuneCountInString(word) > maxUserWordRune:
			return nil, "", fmt.Errorf("line %d: a word of more than %d characters", n, maxUserWordRune)
		case strings.ContainsFunc(word, func(r rune) bool { return r < utf8.RuneSelf }):
			// The analyzer reads ASCII runs itself and gives kagome only
			// the rest: a word that mixes them could never be kept whole.
			return nil, "", fmt.Errorf("line %d: %q has Latin letters or digits, which the analyzer cuts apart from Japanese text itself; list words of Japanese characters only (for DX推進室, search \"DX推進室\" in quotes)", n, l)
		case seen[word]:
			continue
		}
		if reading == "" {
			reading = word
		}
		seen[word] = true
		recs = append(recs, dict.UserDicRecord{Text: word, Tokens: []string{word}, Yomi: []string{reading}, Pos: "名詞,固有名詞"})
		if len(recs) > maxUserWords {
			return nil, "", fmt.Errorf("more than %d words", maxUserWords)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("a line of more than 64 KB: one word a line (%v)", err)
	}
	if len(recs) == 0 {
		return nil, "", errors.New("it lists no word (one word a line)")
	}
	// The id is of the set of words: their order does not change the
	// analysis.
	words := make([]string, len(recs))
	for i, r := range recs {
		words[i] = r.Text
	}
	slices.Sort(words)
	for _, w := range words {
		fmt.Fprintf(sum, "%s\n", w)
	}
	return recs, hex.EncodeToString(sum.Sum(nil))[:16], nil
}
