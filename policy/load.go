package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Where the policy files live, relative to the source root. Hidden
// folders are never indexed, so the policy folder is not a document.
const (
	Dir             = ".research-policy"
	PreferencesFile = "source-preferences.json"
	CurrentnessFile = "currentness.json"
)

// MaxFileSize bounds a policy file; a larger one is refused as invalid
// (the file system a Loader reads from bounds its reads with it too).
const MaxFileSize = 4 << 20

// maxDepth bounds how deeply a policy file's JSON nests (its schemas nest
// four levels). Checked before anything is decoded, so that a small file
// of nested brackets cannot make decoding or validation big.
const maxDepth = 32

// PreferencesPath and CurrentnessPath return where the policy files of a
// source root are.
func PreferencesPath(root string) string { return filepath.Join(root, Dir, PreferencesFile) }
func CurrentnessPath(root string) string { return filepath.Join(root, Dir, CurrentnessFile) }

// Loader reads the policy files of a source root. FS is where they are
// read from (their names relative to it are .research-policy/…): the
// source root's files as lwr reads them (index.SourceFS: no symbolic
// link, regular files only, reads bounded), which this package cannot
// open itself. Errors name the files under Root.
type Loader struct {
	Root string
	FS   fs.FS
}

// Preferences reads <root>/.research-policy/source-preferences.json.
// A missing file (or folder) is no preference: an empty *Preferences and
// no error. An unreadable or invalid file is an *Error that matches
// ErrPreferencesInvalid and names the file, the field and the fix.
func (l Loader) Preferences() (*Preferences, error) {
	file := PreferencesPath(l.Root)
	data, ok, err := l.read(CodePreferencesInvalid, file, path.Join(Dir, PreferencesFile))
	if err != nil || !ok {
		if err != nil {
			return nil, err
		}
		return &Preferences{}, nil
	}
	return ParsePreferences(file, data)
}

// Currentness reads <root>/.research-policy/currentness.json. A missing
// file (or folder) is no record: an empty *Currentness and no error. An
// unreadable or invalid file is an *Error that matches
// ErrCurrentnessInvalid, whose message starts with
// currentness_policy_invalid and names the file, the field and the fix;
// the caller must then fail the search with no results.
func (l Loader) Currentness() (*Currentness, error) {
	file := CurrentnessPath(l.Root)
	data, ok, err := l.read(CodeCurrentnessInvalid, file, path.Join(Dir, CurrentnessFile))
	if err != nil || !ok {
		if err != nil {
			return nil, err
		}
		return &Currentness{}, nil
	}
	return ParseCurrentness(file, data)
}

// read reads a policy file (file under Root, name in FS); ok is false
// when it does not exist.
func (l Loader) read(code, file, name string) (data []byte, ok bool, err error) {
	fail := func(problem, fix string, err error) ([]byte, bool, error) {
		return nil, false, &Error{Code: code, File: file, Problem: problem, Fix: fix, Err: err, noPlace: true}
	}
	fsys := l.FS
	if fsys == nil {
		return fail("cannot read the file: no file system was given to read it from", "report this as a bug of lwr", nil)
	}
	// Stat before opening: opening a FIFO would block. The source's file
	// system does not follow links: a link stats as one.
	st, err := fs.Stat(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		// No file is no policy, unless the policy folder is not a folder
		// (which Windows reports as a missing file).
		if d, derr := fs.Stat(fsys, Dir); derr == nil && !d.IsDir() {
			return fail("cannot read the file: "+Dir+" is a file, not a folder", "remove it, or make it the folder of the policy files", nil)
		}
		return nil, false, nil
	}
	if err != nil {
		return fail("cannot read the file: "+errText(err), "make the file and the policy folder readable by this user, or remove them", err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return fail("is a symbolic link, or in a folder reached through one: policy files are read only as regular files inside the source root", "replace the link with the file (or the folder) itself", nil)
	}
	if st.IsDir() {
		return fail("is a folder, not a file", "remove the folder; the policy is one JSON file", nil)
	}
	if !st.Mode().IsRegular() {
		return fail("is not a regular file", "make it a regular JSON file", nil)
	}
	if st.Size() > MaxFileSize {
		return fail(fmt.Sprintf("the file is %d bytes, more than the %d allowed", st.Size(), MaxFileSize), "check that it is the right file; remove records that are not needed", nil)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return fail("cannot read the file: "+errText(err), "make the file readable by this user, or remove it", err)
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return fail("cannot read the file: "+errText(err), "make the file readable by this user, or remove it", err)
	}
	if len(data) > MaxFileSize {
		return fail(fmt.Sprintf("the file is more than %d bytes", MaxFileSize), "check that it is the right file", nil)
	}
	return data, true, nil
}

// errText is an I/O error without the path, which the message already names.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// decode checks that data is one well-formed JSON value in UTF-8 without
// duplicate object keys, and returns it decoded.
func decode(code, file string, s *schema, data []byte) (any, []byte, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		line, col := lineCol(data, i)
		return nil, nil, &Error{Code: code, File: file, Line: line, Column: col,
			Problem: "the file is not UTF-8 text", Fix: "save it as UTF-8 (Shift_JIS and other encodings are not read)"}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, &Error{Code: code, File: file, Problem: "the file is empty", Fix: s.fix("")}
	}
	if off := tooDeep(data, maxDepth); off >= 0 {
		line, col := lineCol(data, off)
		return nil, nil, &Error{Code: code, File: file, Line: line, Column: col,
			Problem: fmt.Sprintf("the JSON nests more than %d levels deep", maxDepth),
			Fix:     "check that it is the right file; " + s.fix("")}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walkJSON(dec, nil); err != nil {
		return nil, nil, syntaxError(code, file, data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := lineCol(data, int(dec.InputOffset()))
		return nil, nil, &Error{Code: code, File: file, Line: line, Column: col,
			Problem: "invalid JSON: more text after the end of the top-level object", Fix: "remove the extra text, or join the objects into one"}
	}
	var inst any
	if err := json.Unmarshal(data, &inst); err != nil {
		return nil, nil, &Error{Code: code, File: file, Problem: "invalid JSON: " + err.Error(), Fix: "correct the JSON syntax"}
	}
	return inst, data, nil
}

// decodeValid decodes a policy file into v after checking that it is
// well-formed JSON and valid against its schema.
func decodeValid(code, file string, s *schema, data []byte, v any) error {
	inst, data, err := decode(code, file, s, data)
	if err != nil {
		return err
	}
	if err := s.validate(code, file, inst); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Error{Code: code, File: file, Problem: "cannot decode: " + err.Error(), Fix: "see docs/policies.md"}
	}
	return nil
}

// tooDeep returns the offset of the first bracket that opens a level
// deeper than limit, outside strings; -1 when there is none.
func tooDeep(data []byte, limit int) int {
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return i
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}

// dupKeyError is a key that occurs twice in one object.
type dupKeyError struct{ ptr []string }

func (e *dupKeyError) Error() string { return "duplicate key" }

// walkJSON reads one value, failing on a key repeated within an object
// (encoding/json would silently keep the last one).
func walkJSON(dec *json.Decoder, ptr []string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		keys := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			p := append(ptr[:len(ptr):len(ptr)], k)
			if keys[k] {
				return &dupKeyError{ptr: p}
			}
			keys[k] = true
			if err := walkJSON(dec, p); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, append(ptr[:len(ptr):len(ptr)], strconv.Itoa(i))); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

func syntaxError(code, file string, data []byte, dec *json.Decoder, err error) *Error {
	var dup *dupKeyError
	if errors.As(err, &dup) {
		return &Error{Code: code, File: file, Field: pointer(dup.ptr),
			Problem: "the key " + quote(dup.ptr[len(dup.ptr)-1]) + " occurs twice in the same object",
			Fix:     "keep one of them (JSON readers disagree on which one wins)"}
	}
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	msg := withoutCharacter(err.Error())
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg = "the file ends before the JSON value is complete"
		off = len(data)
	}
	line, col := lineCol(data, off)
	return &Error{Code: code, File: file, Line: line, Column: col, Problem: "invalid JSON: " + msg,
		Fix: "correct the JSON syntax there (a missing comma, quote or bracket, or a trailing comma, is the usual cause)"}
}

// withoutCharacter drops the character encoding/json quotes from a syntax
// error ("invalid character 'r' looking for beginning of value"): the
// line and column say where it is, and an error never shows what a file
// holds.
func withoutCharacter(msg string) string {
	rest, ok := strings.CutPrefix(msg, "invalid character '")
	if !ok {
		return msg
	}
	// The character is quoted as strconv quotes a rune: 'x', '\'', '\u00e9'.
	if i := strings.Index(rest[1:], "' "); i >= 0 {
		return "unexpected character " + rest[i+3:]
	}
	return "unexpected character"
}

// lineCol returns the 1-based line and character column of a byte offset.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(data[start:off])
}
