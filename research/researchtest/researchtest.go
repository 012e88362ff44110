// Package researchtest holds what the tests of lwr's research packages and
// commands share: source trees in temp folders (written, copied, the
// bundled sample), and checks of reports that do not trust the code under
// test — every citation against the cited file's lines, the JSON comment
// against the citations, the hand-off files, the failure evidence.
package researchtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/index/extract"
	"lwr/research/report"
)

// Repo is the folder of the module, found from this file, absolute (on
// Windows the file's path as compiled has no drive letter).
func Repo() string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// WriteTree writes files (relative path → content) into a new temp folder
// and returns it.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := configtest.TempDir(t)
	for rel, body := range files {
		WriteFile(t, filepath.Join(root, filepath.FromSlash(rel)), body)
	}
	return root
}

// WriteFile writes a file, creating its folder.
func WriteFile(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// CopyTree copies a folder, hidden files included.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Sample copies the bundled sample corpus (testdata/sample) into a temp
// folder and returns the copy.
func Sample(t testing.TB) string {
	t.Helper()
	root := filepath.Join(configtest.TempDir(t), "sample")
	CopyTree(t, filepath.Join(Repo(), "testdata", "sample"), root)
	return root
}

// Files lists the files under dir, relative, with forward slashes, sorted;
// the lock file finalize keeps on Windows (which locks files, not
// folders) is left out.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != ".lwr-finalize.lock" {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// TempFiles are the temp files left under dir.
func TempFiles(t testing.TB, dir string) []string {
	var out []string
	for _, f := range Files(t, dir) {
		if strings.Contains(filepath.Base(f), ".tmp") {
			out = append(out, f)
		}
	}
	return out
}

// Comment decodes a report's JSON comment.
func Comment(t testing.TB, md []byte) report.Comment {
	t.Helper()
	raw, p := report.ExtractComment(md)
	if p != nil {
		t.Fatalf("no JSON comment: %v", p)
	}
	var c report.Comment
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// Section returns section n (1–5) of a report, its heading included.
func Section(md string, n int) string {
	heads := report.Sections
	i := strings.Index(md, heads[n-1].Heading())
	if i < 0 {
		return ""
	}
	rest := md[i:]
	end := len(rest)
	if n < 5 {
		if j := strings.Index(rest, heads[n].Heading()); j >= 0 {
			end = j
		}
	} else if j := strings.Index(rest, "<!-- JSON: "); j >= 0 {
		end = j
	}
	return rest[:end]
}

// Citation is one local citation of a report.
type Citation struct {
	Path       string
	Start, End int
}

var citationRe = regexp.MustCompile(`^\[[^\]]+\]\(<?(.+)#L(\d+)-L(\d+)>?\) \(L\d+-L\d+\) \[VS Codeで開く\]`)

// Citations reads the citations of a report (lines that start with one)
// and checks each against its file: the range is inside the file and,
// when a fenced quote follows, the quote is exactly the cited lines
// (trimmed at the edges). strict requires that quote (lwr's own reports);
// otherwise a citation without one is accepted (an agent's report).
func Citations(t testing.TB, md string, strict bool) []Citation {
	t.Helper()
	lines := strings.Split(md, "\n")
	var out []Citation
	for i, l := range lines {
		m := citationRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s, _ := strconv.Atoi(m[2])
		e, _ := strconv.Atoi(m[3])
		c := Citation{m[1], s, e}
		out = append(out, c)
		fl := fileLines(t, c.Path)
		if e > len(fl) || s < 1 || e < s {
			t.Fatalf("%s has %d lines; cited L%d-L%d", c.Path, len(fl), s, e)
		}
		j := i + 1
		for j < len(lines) && lines[j] == "" {
			j++
		}
		if j == len(lines) || !strings.HasPrefix(lines[j], "```") {
			if strict {
				t.Fatalf("no quoted snippet after %q", l)
			}
			continue
		}
		fence := strings.TrimSuffix(lines[j], "text")
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) != fence {
			k++
		}
		quoted := strings.Join(lines[j+1:k], "\n")
		if got := strings.TrimSpace(strings.Join(fl[s-1:e], "\n")); got != strings.TrimSpace(quoted) {
			t.Errorf("%s L%d-L%d:\n%s\nquoted:\n%s", c.Path, s, e, got, quoted)
		}
	}
	return out
}

func fileLines(t testing.TB, p string) []string {
	t.Helper()
	// A link's %XX are bytes (report.LinkPath).
	if dp, err := url.PathUnescape(p); err == nil {
		p = dp
	}
	p = filepath.FromSlash(p)
	if extract.Handles(filepath.Ext(p)) {
		// A PDF or Office document: its lines are the extracted text's.
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := extract.Extract(context.Background(), p, p, data, extract.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return txt.Lines
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := index.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return index.Lines(text)
}

// CheckReport checks a report: valid (report.Validate), every citation of
// sections 1 and 3 quoting its lines exactly (strict), inside root when
// root is not "", and the local sources of the JSON comment the same as
// the citations, in order.
func CheckReport(t testing.TB, md []byte, root string, strict bool) report.Comment {
	t.Helper()
	if ps := report.Validate(md); len(ps) > 0 {
		t.Fatalf("invalid report: %v", ps)
	}
	if root != "" {
		if ps := report.VerifySources(md, report.Sources{Root: root}); len(ps) > 0 {
			t.Fatalf("the report's citations do not hold: %v", ps)
		}
	}
	c := Comment(t, md)
	cites := Citations(t, Section(string(md), 1)+Section(string(md), 3), strict)
	var local []report.Source
	for _, s := range c.Sources {
		if s.SourceType == "local" {
			local = append(local, s)
		}
	}
	if len(local) != len(cites) {
		t.Fatalf("%d citations in sections 1 and 3, %d local sources in the JSON", len(cites), len(local))
	}
	for i, s := range local {
		if s.Path != cites[i].Path || s.Lines.Start != cites[i].Start || s.Lines.End != cites[i].End {
			t.Errorf("source %d: JSON %s L%d-L%d, citation %+v", i, s.Path, s.Lines.Start, s.Lines.End, cites[i])
		}
		if root != "" && !strings.HasPrefix(s.Path, filepath.ToSlash(root)) {
			t.Errorf("citation %s is outside the source root %s", s.Path, root)
		}
	}
	return c
}

// CheckHandOff checks the files a finalized report hands on: the context
// file (against its schema, with the report's SHA-256), the schema-version
// log, the last-output pointer, no temp file and no run state.
func CheckHandOff(t testing.TB, ws, outputDir string, f *report.Finalized) {
	t.Helper()
	md, err := os.ReadFile(f.Report)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.Context)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateJSON(t, report.ContextSchema(), data); err != nil {
		t.Fatalf("context does not validate: %v\n%s", err, data)
	}
	c, err := report.ReadContext(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Report.SHA256 != sha256Hex(md) || c.Report.Path != f.Report {
		t.Errorf("context report = %+v, want sha %s", c.Report, sha256Hex(md))
	}
	var last map[string]string
	b, err := os.ReadFile(filepath.Join(ws, outputDir, report.LastOutputFile))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &last)
	if last["status"] != "success" || last["path"] != f.Report {
		t.Errorf("last output = %v", last)
	}
	var log map[string]string
	b, err = os.ReadFile(f.Log)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &log)
	if log["schema_version"] != Comment(t, md).Metadata.SchemaVersion || log["output_file"] != filepath.ToSlash(outputDir)+"/"+f.Name {
		t.Errorf("schema-version log = %v", log)
	}
	if tmp := TempFiles(t, ws); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	if _, err := os.Stat(filepath.Join(ws, outputDir, ".run-state")); err == nil {
		t.Errorf("a successful run left run state: %v", Files(t, ws))
	}
}

// CheckFailureEvidence checks that a failed run left exactly one failure
// summary with the fixed fields only and a fixed reason code, its
// manifest, no temp file, and no word of the query anywhere in the
// evidence.
func CheckFailureEvidence(t testing.TB, ws, outputDir, query string) {
	t.Helper()
	out := filepath.Join(ws, outputDir)
	if tmp := TempFiles(t, ws); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	runs, _ := filepath.Glob(filepath.Join(out, ".run-state", "*", "failure-summary.json"))
	if len(runs) != 1 {
		t.Fatalf("want one failure summary, got %v (files %v)", runs, Files(t, ws))
	}
	data, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"reason", "run_id", "schema_version", "timestamp"}) {
		t.Errorf("failure summary fields = %v", keys)
	}
	if r, _ := m["reason"].(string); !slices.Contains(report.Reasons(), report.Reason(r)) {
		t.Errorf("reason %v is not a fixed code", m["reason"])
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(runs[0]), "expected-artifacts.manifest.json")); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	for _, f := range Files(t, filepath.Join(out, ".run-state")) {
		b, _ := os.ReadFile(filepath.Join(out, ".run-state", f))
		for _, w := range strings.Fields(query) {
			if bytes.Contains(b, []byte(w)) {
				t.Errorf("%s holds the query text %q:\n%s", f, w, b)
			}
		}
	}
}

// ValidateJSON validates data against a JSON Schema with a validator
// other than lwr's own (santhosh-tekuri/jsonschema).
func ValidateJSON(t testing.TB, schema, data []byte) error {
	t.Helper()
	return validateJSON(t, schema, data)
}

func validateJSON(t testing.TB, schema, data []byte) error {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("urn:lwr:test", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("urn:lwr:test")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
