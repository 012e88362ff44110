package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"lwr/config/configtest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// install copies a fixture to <new root>/.research-policy/<name>.
func install(t *testing.T, fixture, name string) string {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	root := configtest.TempDir(t)
	if err := os.MkdirAll(filepath.Join(root, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, Dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestInvalidPolicyFiles(t *testing.T) {
	tests := []struct {
		file    string // in testdata/invalid; c-* currentness, p-* preferences
		field   string // JSON pointer of the error, "" for the top level
		line    int    // line of a JSON syntax error, else 0
		problem string // part of the problem
	}{
		{file: "c-bad-json.json", line: 5, problem: "invalid JSON"},
		{file: "c-truncated.json", line: 5, problem: "ends before the JSON value is complete"},
		{file: "c-empty.json", problem: "the file is empty"},
		{file: "c-not-object.json", problem: "is a list, not an object"},
		{file: "c-trailing-text.json", line: 2, problem: "more text after the end"},
		{file: "c-not-utf8.json", line: 1, problem: "not UTF-8"},
		{file: "c-unknown-action.json", field: "/records/0/action", problem: `unknown action "assert_current"`},
		{file: "c-missing-action.json", field: "/records/0/action", problem: `missing required field "action"`},
		{file: "c-missing-checked-at.json", field: "/checked_at", problem: `missing required field "checked_at"`},
		{file: "c-http-url.json", field: "/records/0/sources/0/url", problem: "is not an https:// URL"},
		{file: "c-file-url.json", field: "/records/0/sources/0/url", problem: "is not an https:// URL"},
		{file: "c-source-no-host.json", field: "/records/0/sources/0/url", problem: "has no host"},
		{file: "c-bad-date-format.json", field: "/checked_at", problem: "is not a date in YYYY-MM-DD form"},
		{file: "c-impossible-date.json", field: "/records/0/verified/effective_from", problem: `"2025-02-29" is not a real date`},
		{file: "c-wrong-version.json", field: "/version", problem: "version 2 is not supported"},
		{file: "c-version-string.json", field: "/version", problem: `version "1" is not supported`},
		{file: "c-paths-string.json", field: "/records/0/paths", problem: "is a string, not a list"},
		{file: "c-empty-paths.json", field: "/records/0/paths", problem: "the list is empty"},
		{file: "c-empty-path.json", field: "/records/0/paths/0", problem: "the text is empty"},
		{file: "c-bad-glob.json", field: "/records/0/paths/1", problem: `"[" class`},
		{file: "c-absolute-path.json", field: "/records/0/paths/0", problem: "absolute path"},
		{file: "c-backslash-path.json", field: "/records/0/paths/0", problem: "backslash"},
		{file: "c-dotdot-path.json", field: "/records/0/paths/0", problem: `".." name`},
		{file: "c-duplicate-id.json", field: "/records/1/id", problem: `the id "r1" is already used by /records/0`},
		{file: "c-unknown-field.json", field: "/records/0/acton", problem: `unknown field "acton"`},
		{file: "c-duplicate-key.json", field: "/records/0/action", problem: `the key "action" occurs twice`},
		{file: "c-replace-without-verified.json", field: "/records/0/verified", problem: `missing required field "verified"`},
		{file: "c-replace-without-sources.json", field: "/records/0/sources", problem: `missing required field "sources"`},
		{file: "c-bad-sha.json", field: "/records/0/document_sha256", problem: "invalid value"},
		{file: "c-blank-text.json", field: "/records/0/text/0", problem: "only white space"},
		{file: "c-text-string.json", field: "/records/0/text", problem: "is a string, not a list"},
		{file: "c-records-null.json", field: "/records", problem: "is null, not a list"},
		{file: "c-bad-id.json", field: "/records/0/id", problem: "invalid value"},
		{file: "p-bad-json.json", line: 1, problem: "invalid JSON"},
		{file: "p-not-object.json", problem: "is a string, not an object"},
		{file: "p-missing-preferred.json", field: "/preferred", problem: `missing required field "preferred"`},
		{file: "p-missing-path.json", field: "/preferred/0/path", problem: `missing required field "path"`},
		{file: "p-wildcard-preferred.json", field: "/preferred/0/path", problem: "invalid value"},
		{file: "p-duplicate-path.json", field: "/preferred/1/path", problem: "is already preferred in /preferred/0"},
		{file: "p-bad-glob.json", field: "/preferred/0/supersedes/0", problem: `"[" class`},
		{file: "p-double-star-in-segment.json", field: "/preferred/0/supersedes/0", problem: `"**" inside a name`},
		{file: "p-mutual.json", field: "/preferred/1/supersedes", problem: "supersede each other"},
		{file: "p-unknown-field.json", field: "/preferred/0/supercedes", problem: `unknown field "supercedes"`},
		{file: "p-wrong-version.json", field: "/version", problem: "version 2 is not supported"},
		{file: "p-supersedes-string.json", field: "/preferred/0/supersedes", problem: "is a string, not a list"},
		{file: "p-absolute.json", field: "/preferred/0/path", problem: "absolute path"},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.file, ".json"), func(t *testing.T) {
			if tt.problem == "backslash" && runtime.GOOS == "windows" {
				t.Skip("a backslash is a separator on Windows (config/glob)")
			}
			currentness := strings.HasPrefix(tt.file, "c-")
			name, code, sentinel, other := PreferencesFile, CodePreferencesInvalid, ErrPreferencesInvalid, ErrCurrentnessInvalid
			if currentness {
				name, code, sentinel, other = CurrentnessFile, CodeCurrentnessInvalid, ErrCurrentnessInvalid, ErrPreferencesInvalid
			}
			root := install(t, filepath.Join("testdata", "invalid", tt.file), name)
			var err error
			if currentness {
				var c *Currentness
				c, err = LoadCurrentness(root)
				if c != nil {
					t.Errorf("LoadCurrentness returned records with the error")
				}
			} else {
				var p *Preferences
				p, err = LoadPreferences(root)
				if p != nil {
					t.Errorf("LoadPreferences returned preferences with the error")
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !errors.Is(err, sentinel) || errors.Is(err, other) {
				t.Errorf("errors.Is: want only %v; got %v", sentinel, err)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("not a *policy.Error: %T", err)
			}
			file := filepath.Join(root, Dir, name)
			if !strings.HasPrefix(msg, code+": "+file+": ") {
				t.Errorf("message does not start with the code and the file:\n%s", msg)
			}
			if pe.File != file {
				t.Errorf("File = %q, want %q", pe.File, file)
			}
			if tt.line > 0 {
				if pe.Line != tt.line || !strings.Contains(msg, ": line ") {
					t.Errorf("Line = %d, want %d: %s", pe.Line, tt.line, msg)
				}
			} else if pe.Field != tt.field {
				t.Errorf("Field = %q, want %q: %s", pe.Field, tt.field, msg)
			}
			if tt.field != "" && !strings.Contains(msg, ": "+tt.field+": ") {
				t.Errorf("message does not name the field %s: %s", tt.field, msg)
			}
			if !strings.Contains(pe.Problem, tt.problem) {
				t.Errorf("Problem = %q, want it to contain %q", pe.Problem, tt.problem)
			}
			if pe.Fix == "" || !strings.Contains(msg, "; fix: ") {
				t.Errorf("no fix: %s", msg)
			}
			if strings.ContainsAny(msg, "\n\r") {
				t.Errorf("message is not one line: %q", msg)
			}
		})
	}
	// Every fixture is in the table.
	files, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.json"))
	if len(files) != len(tests) {
		t.Errorf("%d fixtures, %d cases", len(files), len(tests))
	}
}

func TestLoadMissingIsEmpty(t *testing.T) {
	for _, root := range []string{configtest.TempDir(t), filepath.Join(configtest.TempDir(t), "no-such-root")} {
		p, err := LoadPreferences(root)
		if err != nil || !p.Empty() {
			t.Errorf("LoadPreferences(%s) = %v, %v; want empty", root, p, err)
		}
		c, err := LoadCurrentness(root)
		if err != nil || !c.Empty() {
			t.Errorf("LoadCurrentness(%s) = %v, %v; want empty", root, c, err)
		}
	}
}

func TestLoadUnreadable(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, root string)
		problem string
	}{
		{
			name: "folder instead of file",
			setup: func(t *testing.T, root string) {
				mkdir(t, filepath.Join(root, Dir, CurrentnessFile))
			},
			problem: "is a folder",
		},
		{
			name: "policy folder is a file",
			setup: func(t *testing.T, root string) {
				if err := os.WriteFile(filepath.Join(root, Dir), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			problem: "cannot read the file",
		},
		{
			name: "no permission",
			setup: func(t *testing.T, root string) {
				if os.Geteuid() == 0 || runtime.GOOS == "windows" {
					t.Skip("root reads any file; Windows has no permission bits")
				}
				mkdir(t, filepath.Join(root, Dir))
				p := filepath.Join(root, Dir, CurrentnessFile)
				if err := os.WriteFile(p, []byte(`{}`), 0o000); err != nil {
					t.Fatal(err)
				}
			},
			problem: "cannot read the file",
		},
		{
			name: "too large",
			setup: func(t *testing.T, root string) {
				mkdir(t, filepath.Join(root, Dir))
				big := make([]byte, MaxFileSize+1)
				for i := range big {
					big[i] = ' '
				}
				if err := os.WriteFile(filepath.Join(root, Dir, CurrentnessFile), big, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			problem: "more than",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := configtest.TempDir(t)
			tt.setup(t, root)
			c, err := LoadCurrentness(root)
			if c != nil || !errors.Is(err, ErrCurrentnessInvalid) {
				t.Fatalf("LoadCurrentness = %v, %v; want ErrCurrentnessInvalid", c, err)
			}
			if !strings.HasPrefix(err.Error(), CodeCurrentnessInvalid+": ") || !strings.Contains(err.Error(), tt.problem) {
				t.Errorf("message %q, want the code and %q", err, tt.problem)
			}
		})
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestLoadFixtures(t *testing.T) {
	p, err := LoadPreferences(filepath.Join("testdata", "root"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Preferred) != 1 || p.Preferred[0].Label != "2026年度版" {
		t.Errorf("preferences = %+v", p.Preferred)
	}
	c, err := LoadCurrentness(filepath.Join("testdata", "root"))
	if err != nil {
		t.Fatal(err)
	}
	if c.CheckedAt != "2026-10-01" || len(c.Records) != 2 || c.Records[0].Verified.Value != "200万円以下" {
		t.Errorf("currentness = %+v", c)
	}
}

// The sample corpus's policies (testdata/sample at the repository root)
// must load.
func TestLoadSamplePolicies(t *testing.T) {
	root := filepath.Join("..", "testdata", "sample")
	if _, err := os.Stat(filepath.Join(root, Dir)); err != nil {
		t.Skip("no sample policy folder")
	}
	if _, err := LoadPreferences(root); err != nil {
		t.Error(err)
	}
	if _, err := LoadCurrentness(root); err != nil {
		t.Error(err)
	}
}

func TestByteOrderMarkAccepted(t *testing.T) {
	data := append([]byte("\ufeff"), []byte(`{"version": 1, "checked_at": "2026-10-01", "records": []}`)...)
	if _, err := ParseCurrentness("currentness.json", data); err != nil {
		t.Error(err)
	}
}

// The schemas compile, validate the fixtures, and list exactly the
// actions the code knows.
func TestSchemas(t *testing.T) {
	for _, s := range []*schema{preferencesSchema(), currentnessSchema()} {
		if s.res == nil {
			t.Fatal("schema did not compile")
		}
	}
	for _, tt := range []struct {
		s    *schema
		file string
	}{
		{preferencesSchema(), "testdata/root/.research-policy/source-preferences.json"},
		{currentnessSchema(), "testdata/root/.research-policy/currentness.json"},
	} {
		f, err := os.Open(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		err = json.NewDecoder(f).Decode(&inst)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := tt.s.res.Validate(inst); err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
	enum, _ := currentnessSchema().node("/$defs/action")["enum"].([]any)
	var got []string
	for _, a := range enum {
		got = append(got, a.(string))
	}
	var want []string
	for _, a := range Actions() {
		want = append(want, string(a))
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema actions %v, code actions %v", got, want)
	}
	if len(PreferencesSchema()) == 0 || len(CurrentnessSchema()) == 0 {
		t.Error("empty schema")
	}
}

func TestActionMeanings(t *testing.T) {
	for _, a := range Actions() {
		m := a.Meaning()
		if !a.Valid() || m.Label == "" || m.Japanese == "" || m.English == "" {
			t.Errorf("%s: %+v", a, m)
		}
	}
	if Action("assert_current").Valid() {
		t.Error("unknown action is valid")
	}
	want := map[Action]string{DoNotAssertCurrent: "現行性未確認", IllustrativeOnly: "設例", NoNumericRule: "金額基準の根拠に使わない", ReplaceWithVerifiedRule: "値を現行の根拠に使わない"}
	for a, l := range want {
		if got := a.Meaning().Label; got != l {
			t.Errorf("%s label %q, want %q", a, got, l)
		}
	}
}

// The validator lwr runs agrees with a second, independent implementation
// of JSON Schema 2020-12 on every fixture: the valid ones pass both, the
// malformed ones that are well-formed JSON fail both.
func TestSchemasAgreeWithAnotherValidator(t *testing.T) {
	compile := func(name string, data []byte) *jsonschema.Schema {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(name)
		if err != nil {
			t.Fatal(err)
		}
		return sch
	}
	other := map[string]*jsonschema.Schema{
		"c": compile("urn:c", CurrentnessSchema()),
		"p": compile("urn:p", PreferencesSchema()),
	}
	ours := map[string]*schema{"c": currentnessSchema(), "p": preferencesSchema()}
	files, _ := filepath.Glob("testdata/invalid/*.json")
	files = append(files, "testdata/root/.research-policy/currentness.json", "testdata/root/.research-policy/source-preferences.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		if json.Unmarshal(data, &inst) != nil {
			continue // not JSON: the decoder rejects it before any schema
		}
		kind := "c"
		if strings.HasPrefix(filepath.Base(f), "p-") || strings.HasSuffix(f, "preferences.json") {
			kind = "p"
		}
		inst2, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		a := ours[kind].res.Validate(inst) == nil
		b := other[kind].Validate(inst2) == nil
		if a != b {
			t.Errorf("%s: lwr's validator says valid=%v, the other %v", f, a, b)
		}
	}
}
