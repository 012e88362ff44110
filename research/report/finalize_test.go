package report_test

import (
	"context"
	"errors"
	"fmt"
	"lwr/config"
	"lwr/config/configtest"
	"lwr/research/report"
	"lwr/research/researchtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// secretQuery is user text that must never reach the failure evidence.
const secretQuery = "極秘の人事異動について調べて"

func validReport(extra string) []byte {
	md := fixture(report.Citation("就業規則.md", rulesPath, 20, 24)+"\n\n"+extra, []map[string]any{localSource(rulesPath, 20, 24)}, nil)
	return []byte(strings.Replace(md, "# 調査結果", "# 調査結果: "+secretQuery, 1))
}

func finalizeIn(t *testing.T, ws string, md []byte, ts time.Time, fsys report.FS) (*report.Finalized, error) {
	t.Helper()
	return report.Finalize(context.Background(), report.FinalizeOptions{
		Workspace: ws, Markdown: md, Timestamp: ts, Now: testNow, FS: fsys,
		Context: report.ContextInput{Query: secretQuery, SourceRoot: "/home/u/skill-source", Producer: "lwr finalize",
			Statuses: report.Statuses{Local: report.StatusOK, Web: report.StatusSkipped, Deep: report.StatusSkipped}},
	})
}

func TestFinalizeFaults(t *testing.T) {
	failOn := func(match func(string) bool) func(string, string) error {
		return func(old, new string) error {
			if match(new) {
				return errors.New("injected rename failure")
			}
			return os.Rename(old, new)
		}
	}
	writeFailOn := func(match func(string) bool) func(string, []byte) error {
		return func(name string, data []byte) error {
			if match(name) {
				return errors.New("injected write failure")
			}
			return report.WriteSynced(name, data)
		}
	}
	isLog := func(p string) bool {
		return strings.Contains(p, report.LogDir) && !strings.Contains(filepath.Base(p), ".tmp")
	}
	tests := []struct {
		name   string
		md     []byte
		fs     report.FS
		reason report.Reason
	}{
		{name: "validation failure", md: []byte(strings.Replace(string(validReport("")), "(L20-L24) [VS", "(L20-L25) [VS", 1)), reason: report.ReasonValidationFailed},
		{name: "temp write fails", md: validReport(""), fs: report.FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, ".md.tmp") })}, reason: report.ReasonWriteFailed},
		{name: "first rename fails", md: validReport(""), fs: report.FS{Rename: failOn(func(p string) bool { return strings.HasSuffix(p, ".md") })}, reason: report.ReasonRenameFailed},
		{name: "second rename fails", md: validReport(""), fs: report.FS{Rename: failOn(isLog)}, reason: report.ReasonRolledBack},
		{name: "second rename and its undo fail", md: validReport(""), fs: report.FS{Rename: failOn(func(p string) bool { return isLog(p) || strings.Contains(p, ".md.tmp") })}, reason: report.ReasonRolledBack},
		{name: "context write fails", md: validReport(""), fs: report.FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, ".context.json") })}, reason: report.ReasonContextFailed},
		{name: "context rename fails", md: validReport(""), fs: report.FS{Rename: failOn(func(p string) bool { return strings.HasSuffix(p, ".context.json") })}, reason: report.ReasonContextFailed},
		{name: "last output write fails", md: validReport(""), fs: report.FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, report.LastOutputFile) })}, reason: report.ReasonLastOutputFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := configtest.TempDir(t)
			_, err := finalizeIn(t, ws, tc.md, testNow(), tc.fs)
			var f *report.Failure
			if !errors.As(err, &f) || f.Reason != tc.reason {
				t.Fatalf("err = %v, want reason %s", err, tc.reason)
			}
			for _, p := range researchtest.Files(t, ws) {
				if strings.HasSuffix(p, ".md") || strings.HasPrefix(p, report.LogDir+"/") || strings.HasSuffix(p, ".context.json") || strings.HasSuffix(p, report.LastOutputFile) {
					t.Errorf("left %s (files: %v)", p, researchtest.Files(t, ws))
				}
			}
			researchtest.CheckFailureEvidence(t, ws, outputDir, secretQuery)
			if f.Evidence == "" {
				t.Errorf("the failure does not name its evidence")
			}
			// The next attempt, with nothing failing, succeeds.
			ok, err := finalizeIn(t, ws, validReport(""), testNow(), report.FS{})
			if err != nil || ok.Status != report.FinalizeOK {
				t.Fatalf("retry: %v %+v", err, ok)
			}
		})
	}
}

func TestFinalizeIdempotentAndDistinct(t *testing.T) {
	ws := configtest.TempDir(t)
	a, b := validReport("A"), validReport("B")
	ts := testNow()
	fa, err := finalizeIn(t, ws, a, ts, report.FS{})
	if err != nil || fa.Status != report.FinalizeOK || fa.Name != "research_20260601T120000Z.md" {
		t.Fatalf("%v %+v", err, fa)
	}
	researchtest.CheckHandOff(t, ws, outputDir, fa)
	again, err := finalizeIn(t, ws, a, ts, report.FS{})
	if err != nil || again.Status != report.FinalizeSkipped || again.Report != fa.Report {
		t.Fatalf("same content again: %v %+v", err, again)
	}
	fb, err := finalizeIn(t, ws, b, ts, report.FS{})
	if err != nil || fb.Status != report.FinalizeOK || fb.Name != "research_20260601T120000Z-2.md" || !strings.HasSuffix(fb.Log, "20260601T120000Z-2.json") {
		t.Fatalf("another report in the same second: %v %+v", err, fb)
	}
	researchtest.CheckHandOff(t, ws, outputDir, fb)
	for _, md := range [][]byte{b, a} {
		f, err := finalizeIn(t, ws, md, ts, report.FS{})
		if err != nil || f.Status != report.FinalizeSkipped {
			t.Fatalf("re-finalize: %v %+v", err, f)
		}
	}
	got := researchtest.Files(t, ws)
	want := []string{
		"result/research/.last_research_output.json",
		"result/research/research_20260601T120000Z-2.context.json", "result/research/research_20260601T120000Z-2.md",
		"result/research/research_20260601T120000Z.context.json", "result/research/research_20260601T120000Z.md",
		"schema-version-log/20260601T120000Z-2.json", "schema-version-log/20260601T120000Z.json",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%v\nwant\n%v", got, want)
	}
	// A context a crash left unwritten is written by the next finalize.
	os.Remove(fa.Context)
	if f, err := finalizeIn(t, ws, a, ts, report.FS{}); err != nil || f.Status != report.FinalizeSkipped {
		t.Fatalf("%v %+v", err, f)
	}
	researchtest.CheckHandOff(t, ws, outputDir, fa)
}

func TestFinalizeConcurrentRunsInOneSecond(t *testing.T) {
	ws := configtest.TempDir(t)
	const n = 6
	var wg sync.WaitGroup
	names := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			f, err := finalizeIn(t, ws, validReport(fmt.Sprint("run ", i)), testNow(), report.FS{})
			errs[i] = err
			if err == nil {
				names[i] = f.Name
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(names)
	if len(slices.Compact(slices.Clone(names))) != n {
		t.Fatalf("names collide: %v", names)
	}
	for _, name := range names {
		md, err := os.ReadFile(filepath.Join(ws, outputDir, name))
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := os.ReadFile(filepath.Join(ws, outputDir, strings.TrimSuffix(name, ".md")+".context.json"))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := report.ReadContext(ctx)
		if c.Report.SHA256 != sha256Hex(md) {
			t.Errorf("%s: context sha %s", name, c.Report.SHA256)
		}
	}
}

func TestFinalizeSchemaVersions(t *testing.T) {
	ws := configtest.TempDir(t)
	v11 := map[string]any{"step_number": 4, "step_number_legacy": "4", "schema_version": "1.1", "model": "claude-sonnet-4-6"}
	md := []byte(fixture(report.Citation("就業規則.md", rulesPath, 20, 24), []map[string]any{localSource(rulesPath, 20, 24)}, v11))
	f, err := finalizeIn(t, ws, md, testNow(), report.FS{})
	if err != nil {
		t.Fatal(err)
	}
	if f.SchemaVersion != "1.1" {
		t.Errorf("schema version %s", f.SchemaVersion)
	}
	researchtest.CheckHandOff(t, ws, outputDir, f)
	data, _ := os.ReadFile(f.Context)
	c, _ := report.ReadContext(data)
	if c.Report.Model != "claude-sonnet-4-6" || c.Report.SchemaVersion != "1.1" {
		t.Errorf("context report %+v", c.Report)
	}
}

// outputDir is where reports go by default, relative to the workspace.
var outputDir = config.DefaultResearch().OutputDir

// TestFinalizeRefusesALinkOutOfTheWorkspace: result/research as a
// symbolic link to a folder elsewhere is refused, and nothing is written
// there, as an output_dir outside the workspace is.
func TestFinalizeRefusesALinkOutOfTheWorkspace(t *testing.T) {
	ws := configtest.TempDir(t)
	elsewhere := configtest.TempDir(t)
	if err := os.MkdirAll(filepath.Join(ws, "result"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(ws, filepath.FromSlash(outputDir))
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	if real, err := filepath.EvalSymlinks(link); err != nil || real == link {
		t.Skipf("symbolic links do not resolve here (%v)", err)
	}
	_, err := finalizeIn(t, ws, validReport(""), testNow(), report.FS{})
	var f *report.Failure
	if !errors.As(err, &f) || f.Reason != report.ReasonInvalidInput || !strings.Contains(err.Error(), "leads out of the workspace") {
		t.Fatalf("err = %v, want an invalid input that names the link", err)
	}
	if left := researchtest.Files(t, elsewhere); len(left) > 0 {
		t.Errorf("wrote outside the workspace: %v", left)
	}
}
