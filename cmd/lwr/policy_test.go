package main

import (
	"encoding/json"
	"lwr/config/configtest"
	"lwr/research/local"
	"lwr/research/researchtest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// extSearch runs lwr search --format json-ext in-process.
func extSearch(t *testing.T, env []string, root, cache string, args ...string) (local.ExtResult, int) {
	t.Helper()
	out, errOut, code := run(t, env, append([]string{"--source-root", root, "--cache-dir", cache, "search", "--format", "json-ext"}, args...)...)
	var r local.ExtResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v): %s %s", err, out, errOut)
	}
	return r, code
}

func matchPaths(r local.ExtResult) []string {
	var ps []string
	for _, m := range r.Matches {
		ps = append(ps, m.Path)
	}
	return ps
}

func TestSourcePreferenceOrder(t *testing.T) {
	filler := strings.Repeat("支給の手続きは人事課が行う。\n", 40)
	root := researchtest.WriteTree(t, map[string]string{
		"研修/2024/手当.md":                            "# 通勤手当（2024年度版）\n\n通勤手当の上限は月額三万円。\n通勤手当の上限を超える分は自己負担。\n通勤手当の上限は定期券代で判断する。\n",
		"研修/2026/手当.md":                            "# 通勤手当（2026年度版）\n\n" + filler + "通勤手当の上限は月額五万円。\n" + filler,
		"規程/給与規程.md":                               "# 給与規程\n\n通勤手当の上限は別表による。\n通勤手当は毎月支給する。\n",
		"メモ/メモ.md":                                 "# メモ\n\n" + filler + "通勤手当と上限について質問あり。\n",
		"研修/2024/別件.md":                            "# 別件\n\n通勤手当の上限は旧基準。\n",
		".research-policy/source-preferences.json": `{"version": 1, "preferred": [{"path": "研修/2026/手当.md", "label": "2026年度版", "supersedes": ["研修/2024/手当.md"]}]}`,
	})
	env := testEnv(t)
	cache := configtest.TempDir(t)
	const newer, older = "研修/2026/手当.md", "研修/2024/手当.md"

	pure, _ := extSearch(t, env, root, cache, "--ignore-source-preference", "通勤手当", "上限")
	pref, _ := extSearch(t, env, root, cache, "通勤手当", "上限")
	pp, rp := matchPaths(pure), matchPaths(pref)
	if !slices.Contains(pp, newer) || !slices.Contains(pp, older) || pp[0] == newer {
		t.Fatalf("the test needs both editions matched and the newer one not first by relevance: %v", pp)
	}
	if rp[0] != newer {
		t.Errorf("preferred edition not first: %v", rp)
	}
	// Every other result keeps its relative order.
	rest := slices.DeleteFunc(slices.Clone(pp), func(p string) bool { return p == newer })
	if got := rp[1:]; !slices.Equal(got, rest) {
		t.Errorf("others reordered:\n pure %v\n pref %v", pp, rp)
	}
	if !pref.Annotations[0].Promoted || !strings.Contains(pref.Message, "優先版") {
		t.Errorf("promotion not reported: %+v\n%s", pref.Annotations[0], pref.Message)
	}
	if !pure.Policies.PreferenceIgnored || !strings.Contains(pure.Message, "旧版") {
		t.Errorf("ignored preference: editions and relations must still be reported:\n%s", pure.Message)
	}
	for i, a := range pure.Annotations {
		if a.Promoted || pure.Matches[i].Path != pp[i] {
			t.Errorf("--ignore-source-preference promoted %s", a.Path)
		}
	}

	// A query only the older text answers does not promote the newer one.
	only, _ := extSearch(t, env, root, cache, "定期券代")
	if ps := matchPaths(only); len(ps) != 1 || ps[0] != older {
		t.Errorf("定期券代: %v, want only %s", ps, older)
	}
	only, _ = extSearch(t, env, root, cache, "三万円 通勤手当")
	for _, a := range only.Annotations {
		if a.Path == newer && a.Promoted {
			t.Errorf("%s promoted for a query its text does not answer", newer)
		}
	}
}

func TestCurrentnessRecords(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	const older = "研修/2024/契約事務.md"
	find := func(r local.ExtResult, p string) int {
		for i, m := range r.Matches {
			if m.Path == p {
				return i
			}
		}
		t.Fatalf("%s not among %v", p, matchPaths(r))
		return -1
	}
	r, _ := extSearch(t, env, root, cache, "160万円")
	a := r.Annotations[find(r, older)]
	if len(a.Currentness) != 1 || a.Currentness[0].ID != "keiyaku-zuikei-threshold" || a.Currentness[0].Action != "do_not_assert_current" || a.Currentness[0].Verified == nil || a.Currentness[0].Verified.Value != "200万円" || a.Currentness[0].Stale {
		t.Fatalf("record on the old amount: %+v", a.Currentness)
	}
	if !strings.Contains(r.Message, "現行性[keiyaku-zuikei-threshold]=do_not_assert_current") || !strings.Contains(r.Message, `値="200万円"`) {
		t.Errorf("message lacks the record:\n%s", r.Message)
	}
	// Same glob, but a passage without the text: no record.
	r, _ = extSearch(t, env, root, cache, "情報セキュリティ研修")
	for i, m := range r.Matches {
		if strings.HasPrefix(m.Path, "研修/2024/") && len(r.Annotations[i].Currentness) > 0 {
			t.Errorf("%s got a record though its passage lacks the text: %+v", m.Path, r.Annotations[i].Currentness)
		}
	}
	// Editing the document makes the record stale.
	p := filepath.Join(root, filepath.FromSlash(older))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n追記: 研修担当へ確認中。\n")
	f.Close()
	r, _ = extSearch(t, env, root, cache, "160万円")
	if a := r.Annotations[find(r, older)]; len(a.Currentness) != 1 || !a.Currentness[0].Stale || !strings.Contains(r.Message, "状態=stale") {
		t.Errorf("edited document: record not stale: %+v\n%s", a.Currentness, r.Message)
	}
}

// Every malformed policy file fails the search with its fixed code and
// exit code, and yields no results.
func TestMalformedPolicyFiles(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	if _, errOut, code := run(t, env, "--source-root", root, "--cache-dir", cache, "index", "build"); code != 0 {
		t.Fatal(errOut)
	}
	fixtures, err := filepath.Glob(filepath.Join("..", "..", "policy", "testdata", "invalid", "*.json"))
	if err != nil || len(fixtures) < 20 {
		t.Fatalf("%d fixtures: %v", len(fixtures), err)
	}
	polDir := filepath.Join(root, ".research-policy")
	origCur, _ := os.ReadFile(filepath.Join(polDir, "currentness.json"))
	origPref, _ := os.ReadFile(filepath.Join(polDir, "source-preferences.json"))
	schema := agentSchema(t)
	for _, fx := range fixtures {
		name := filepath.Base(fx)
		t.Run(name, func(t *testing.T) {
			bad, _ := os.ReadFile(fx)
			file, code, wantExit := "currentness.json", "currentness_policy_invalid", exitPolicy
			if strings.HasPrefix(name, "p-") {
				file, code, wantExit = "source-preferences.json", "source_preferences_invalid", exitUsage
			}
			os.WriteFile(filepath.Join(polDir, "currentness.json"), origCur, 0o644)
			os.WriteFile(filepath.Join(polDir, "source-preferences.json"), origPref, 0o644)
			os.WriteFile(filepath.Join(polDir, file), bad, 0o644)
			out, errOut, exit := run(t, env, "--source-root", root, "--cache-dir", cache, "search", "--format", "json", "契約")
			if exit != wantExit {
				t.Errorf("exit %d, want %d (%s)", exit, wantExit, errOut)
			}
			m := validateJSON(t, schema, out)
			if m["status"] != "error" || len(m["matches"].([]any)) != 0 {
				t.Errorf("status %v with %d matches", m["status"], len(m["matches"].([]any)))
			}
			if msg, _ := m["error_message"].(string); !strings.Contains(msg, code) || !strings.Contains(msg, file) {
				t.Errorf("error_message %q lacks %s or the file name", msg, code)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("more than one line on stderr: %q", errOut)
			}
		})
	}
}

// The daemon gives the same policy errors as a direct search.
func TestPolicyErrorThroughTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("process test")
	}
	root := researchtest.Sample(t)
	env := testEnv(t)
	cache := configtest.TempDir(t)
	startDaemonProc(t, env, root, cache)
	os.WriteFile(filepath.Join(root, ".research-policy", "currentness.json"), []byte(`{"version": 1, "records": [{"id": "x"`), 0o644)
	out, err := lwrCmd(env, "--source-root", root, "--cache-dir", cache, "search", "--format", "json", "契約").Output()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitPolicy || !strings.Contains(string(out), "currentness_policy_invalid") || strings.Contains(string(out), `"path"`) {
		t.Errorf("daemon search with a bad currentness file: %v\n%s", err, out)
	}
}
