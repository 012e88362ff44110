package research

import (
	"context"
	"errors"
	"fmt"
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
	md := fixture(Citation("就業規則.md", rulesPath, 20, 24)+"\n\n"+extra, []map[string]any{localSource(rulesPath, 20, 24)}, nil)
	return []byte(strings.Replace(md, "# 調査結果", "# 調査結果: "+secretQuery, 1))
}

func finalizeIn(t *testing.T, ws string, md []byte, ts time.Time, fsys FS) (*Finalized, error) {
	t.Helper()
	return Finalize(context.Background(), FinalizeOptions{
		Workspace: ws, Markdown: md, Timestamp: ts, Now: testNow, FS: fsys,
		Context: ContextInput{Query: secretQuery, SourceRoot: "/home/u/skill-source", Producer: "lwr finalize",
			Statuses: Statuses{Local: StatusOK, Web: StatusSkipped, Deep: StatusSkipped}},
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
			return writeSynced(name, data)
		}
	}
	isLog := func(p string) bool { return strings.Contains(p, LogDir) && !strings.Contains(filepath.Base(p), ".tmp") }
	tests := []struct {
		name   string
		md     []byte
		fs     FS
		reason string
	}{
		{name: "validation failure", md: []byte(strings.Replace(string(validReport("")), "(L20-L24) [VS", "(L20-L25) [VS", 1)), reason: ReasonValidationFailed},
		{name: "temp write fails", md: validReport(""), fs: FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, ".md.tmp") })}, reason: ReasonWriteFailed},
		{name: "first rename fails", md: validReport(""), fs: FS{Rename: failOn(func(p string) bool { return strings.HasSuffix(p, ".md") })}, reason: ReasonRenameFailed},
		{name: "second rename fails", md: validReport(""), fs: FS{Rename: failOn(isLog)}, reason: ReasonRolledBack},
		{name: "second rename and its undo fail", md: validReport(""), fs: FS{Rename: failOn(func(p string) bool { return isLog(p) || strings.Contains(p, ".md.tmp") })}, reason: ReasonRolledBack},
		{name: "context write fails", md: validReport(""), fs: FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, ".context.json") })}, reason: ReasonContextFailed},
		{name: "context rename fails", md: validReport(""), fs: FS{Rename: failOn(func(p string) bool { return strings.HasSuffix(p, ".context.json") })}, reason: ReasonContextFailed},
		{name: "last output write fails", md: validReport(""), fs: FS{WriteFile: writeFailOn(func(p string) bool { return strings.Contains(p, LastOutputFile) })}, reason: ReasonLastOutputFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			_, err := finalizeIn(t, ws, tc.md, testNow(), tc.fs)
			var f *Failure
			if !errors.As(err, &f) || f.Reason != tc.reason {
				t.Fatalf("err = %v, want reason %s", err, tc.reason)
			}
			for _, p := range listFiles(t, ws) {
				if strings.HasSuffix(p, ".md") || strings.HasPrefix(p, LogDir+"/") || strings.HasSuffix(p, ".context.json") || strings.HasSuffix(p, LastOutputFile) {
					t.Errorf("left %s (files: %v)", p, listFiles(t, ws))
				}
			}
			checkFailureEvidence(t, ws, secretQuery)
			if f.Evidence == "" {
				t.Errorf("the failure does not name its evidence")
			}
			// The next attempt, with nothing failing, succeeds.
			ok, err := finalizeIn(t, ws, validReport(""), testNow(), FS{})
			if err != nil || ok.Status != FinalizeOK {
				t.Fatalf("retry: %v %+v", err, ok)
			}
		})
	}
}

func TestFinalizeIdempotentAndDistinct(t *testing.T) {
	ws := t.TempDir()
	a, b := validReport("A"), validReport("B")
	ts := testNow()
	fa, err := finalizeIn(t, ws, a, ts, FS{})
	if err != nil || fa.Status != FinalizeOK || fa.Name != "research_20260601T120000Z.md" {
		t.Fatalf("%v %+v", err, fa)
	}
	checkHandOff(t, ws, fa)
	again, err := finalizeIn(t, ws, a, ts, FS{})
	if err != nil || again.Status != FinalizeSkipped || again.Report != fa.Report {
		t.Fatalf("same content again: %v %+v", err, again)
	}
	fb, err := finalizeIn(t, ws, b, ts, FS{})
	if err != nil || fb.Status != FinalizeOK || fb.Name != "research_20260601T120000Z-2.md" || !strings.HasSuffix(fb.Log, "20260601T120000Z-2.json") {
		t.Fatalf("another report in the same second: %v %+v", err, fb)
	}
	checkHandOff(t, ws, fb)
	for _, md := range [][]byte{b, a} {
		f, err := finalizeIn(t, ws, md, ts, FS{})
		if err != nil || f.Status != FinalizeSkipped {
			t.Fatalf("re-finalize: %v %+v", err, f)
		}
	}
	got := listFiles(t, ws)
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
	if f, err := finalizeIn(t, ws, a, ts, FS{}); err != nil || f.Status != FinalizeSkipped {
		t.Fatalf("%v %+v", err, f)
	}
	checkHandOff(t, ws, fa)
}

func TestFinalizeConcurrentRunsInOneSecond(t *testing.T) {
	ws := t.TempDir()
	const n = 6
	var wg sync.WaitGroup
	names := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			f, err := finalizeIn(t, ws, validReport(fmt.Sprint("run ", i)), testNow(), FS{})
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
		md, err := os.ReadFile(filepath.Join(ws, DefaultOutputDir, name))
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := os.ReadFile(filepath.Join(ws, DefaultOutputDir, strings.TrimSuffix(name, ".md")+".context.json"))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := ReadContext(ctx)
		if c.Report.SHA256 != sha256Hex(md) {
			t.Errorf("%s: context sha %s", name, c.Report.SHA256)
		}
	}
}

func TestFinalizeSchemaVersions(t *testing.T) {
	ws := t.TempDir()
	v11 := map[string]any{"step_number": 4, "step_number_legacy": "4", "schema_version": "1.1", "model": "claude-sonnet-4-6"}
	md := []byte(fixture(Citation("就業規則.md", rulesPath, 20, 24), []map[string]any{localSource(rulesPath, 20, 24)}, v11))
	f, err := finalizeIn(t, ws, md, testNow(), FS{})
	if err != nil {
		t.Fatal(err)
	}
	if f.SchemaVersion != "1.1" {
		t.Errorf("schema version %s", f.SchemaVersion)
	}
	checkHandOff(t, ws, f)
	data, _ := os.ReadFile(f.Context)
	c, _ := ReadContext(data)
	if c.Report.Model != "claude-sonnet-4-6" || c.Report.SchemaVersion != "1.1" {
		t.Errorf("context report %+v", c.Report)
	}
}
