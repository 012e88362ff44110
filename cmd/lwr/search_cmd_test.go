package main

import (
	"lwr/research/researchtest"
	"path/filepath"
	"strings"
	"testing"
)

var docs = map[string]string{
	"規程/就業規則.md":    "# 就業規則\n\n## 有給休暇\n有給休暇の申請は取得日の三日前までに行う。\n<script>alert(1)</script> & \"引用\"\n",
	"手順/コピー手順.md":   "# ファイルの複製\n\nファイルをコピーする手順。\n",
	"メモ/会議.txt":     "会議室の予約は前日まで。\n",
	"メモ/secrets.md": "# 普通のメモ\n",
}

func TestSearchJSONValidatesAgainstTheAgentSchema(t *testing.T) {
	root := researchtest.WriteTree(t, docs)
	env := testEnv(t)
	schema := agentSchema(t)
	tests := []struct {
		name       string
		args       []string
		wantStatus string
		wantCode   int
		check      func(t *testing.T, m map[string]any)
	}{
		{
			name: "ok", args: []string{"--source-root", root, "search", "--format", "json", "有給休暇"},
			wantStatus: "ok",
			check: func(t *testing.T, m map[string]any) {
				ms := m["matches"].([]any)
				if len(ms) != 1 || ms[0].(map[string]any)["path"] != "規程/就業規則.md" {
					t.Errorf("matches = %v", ms)
				}
				if m["scanned_file_count"].(float64) != 3 || m["sourceRoot"] == "" {
					t.Errorf("result = %v", m)
				}
			},
		},
		{
			name: "fulltext", args: []string{"--source-root", root, "search", "--format", "json", "--mode", "fulltext", "<script>"},
			wantStatus: "ok",
		},
		{
			name: "empty", args: []string{"--source-root", root, "search", "--format", "json", "存在しない語彙"},
			wantStatus: "empty",
		},
		{
			name: "particles only", args: []string{"--source-root", root, "search", "--format", "json", "の"},
			wantStatus: "empty",
			check: func(t *testing.T, m map[string]any) {
				if !strings.Contains(m["message"].(string), "検索語がありません") {
					t.Errorf("message = %v", m["message"])
				}
			},
		},
		{
			name: "missing root", args: []string{"--source-root", filepath.Join(root, "nowhere"), "search", "--format", "json", "有給休暇"},
			wantStatus: "empty",
			check: func(t *testing.T, m map[string]any) {
				if !strings.Contains(m["message"].(string), "ローカル資料ディレクトリが見つかりません") {
					t.Errorf("message = %v", m["message"])
				}
			},
		},
		{
			name: "empty query", args: []string{"--source-root", root, "search", "--format", "json", "  "},
			wantStatus: "error", wantCode: exitUsage,
		},
		{
			name: "bad mode", args: []string{"--source-root", root, "search", "--format", "json", "--mode", "fuzzy", "x"},
			wantStatus: "error", wantCode: exitUsage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, env, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.wantCode, errOut)
			}
			m := validateJSON(t, schema, out)
			if m["status"] != tt.wantStatus {
				t.Errorf("status %v, want %s", m["status"], tt.wantStatus)
			}
			if tt.check != nil {
				tt.check(t, m)
			}
		})
	}
}

func TestSearchTextAndErrors(t *testing.T) {
	root := researchtest.WriteTree(t, docs)
	env := testEnv(t)
	out, _, code := run(t, env, "--source-root", root, "search", "コピーした")
	if code != 0 || !strings.Contains(out, "手順/コピー手順.md:") || !strings.Contains(out, "**コピーする**") && !strings.Contains(out, "**コピー**") {
		t.Errorf("text output (exit %d):\n%s", code, out)
	}
	out, _, code = run(t, env, "--source-root", root, "search", "--explain", "有給休暇")
	if code != 0 || !strings.Contains(out, "body:") {
		t.Errorf("explain output (exit %d):\n%s", code, out)
	}
	// --path keeps a part of the tree; -l lists the files.
	out, _, code = run(t, env, "--source-root", root, "search", "--mode", "fulltext", "-l", "--path", "規程/**", "有給休暇")
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Errorf("--path (exit %d):\n%s", code, out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "規程/") {
			t.Errorf("--path 規程/** listed %s", l)
		}
	}
	if out, _, code = run(t, env, "--source-root", root, "search", "--mode", "fulltext", "-l", "--path", "メモ", "有給休暇"); code != 0 || out != "" {
		t.Errorf("--path メモ found files outside it (exit %d):\n%s", code, out)
	}
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"empty query", []string{"--source-root", root, "search"}, exitUsage, "the query is empty"},
		{"missing root", []string{"--source-root", filepath.Join(root, "x"), "search", "a"}, exitUsage, "ローカル資料ディレクトリが見つかりません"},
		{"bad format", []string{"--source-root", root, "search", "--format", "xml", "a"}, exitUsage, "--format"},
		{"unknown flag", []string{"search", "--bogus", "a"}, exitUsage, "unknown flag"},
		{"bad config value", []string{"--source-root", root, "search", "a"}, exitUsage, "query_understanding"},
		{"bad number in the environment", []string{"--source-root", root, "search", "a"}, exitUsage, "search.max_files (from env LWR_SEARCH_MAX_FILES) is \"abc\", not a whole number"},
		{"a word that starts with -", []string{"--source-root", root, "search", "-x"}, exitUsage, "put -- before the words"},
		{"--max-files 0", []string{"--source-root", root, "search", "--max-files", "0", "a"}, exitUsage, "--max-files is 0"},
		{"-l and -c", []string{"--source-root", root, "search", "-l", "-c", "a"}, exitUsage, "exclude each other"},
		{"-C without grep", []string{"--source-root", root, "search", "-C", "2", "a"}, exitUsage, "--format grep"},
		{"a glob that does not compile", []string{"--source-root", root, "search", "--path", "規程/[", "a"}, exitUsage, "--path (paths): "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env
			switch tt.name {
			case "bad config value":
				e = append(append([]string(nil), env...), "CC_LWR_QUERY_UNDERSTANDING=sometimes")
			case "bad number in the environment":
				e = append(append([]string(nil), env...), "LWR_SEARCH_MAX_FILES=abc")
			}
			_, errOut, code := run(t, e, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.msg) {
				t.Errorf("exit %d stderr %q; want %d and %q", code, errOut, tt.code, tt.msg)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("more than one line on stderr: %q", errOut)
			}
		})
	}
}

func TestIndexBuildAndStatus(t *testing.T) {
	root := researchtest.WriteTree(t, docs)
	env := testEnv(t)
	_, errOut, code := run(t, env, "--source-root", root, "index", "status")
	if code != 0 {
		t.Fatalf("status before build: %d %s", code, errOut)
	}
	out, errOut, code := run(t, env, "--source-root", root, "index", "build")
	if code != 0 || !strings.Contains(out, "3 files (3 added, 0 updated, 0 deleted, 0 unchanged, 1 skipped)") {
		t.Fatalf("build: %d %q %q", code, out, errOut)
	}
	out, _, _ = run(t, env, "--source-root", root, "index", "build")
	if !strings.Contains(out, "(0 added, 0 updated, 0 deleted, 3 unchanged, 1 skipped)") {
		t.Errorf("second build: %q", out)
	}
	out, _, code = run(t, env, "--source-root", root, "index", "status")
	for _, want := range []string{"documents:    3 files", "schema:", "last sync:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	_, errOut, code = run(t, env, "--source-root", filepath.Join(root, "none"), "index", "build")
	if code != exitUsage || !strings.Contains(errOut, "--source-root") {
		t.Errorf("build of a missing root: %d %q", code, errOut)
	}
}

func TestConfigShow(t *testing.T) {
	env := testEnv(t, "LWR_WEB_PROVIDERS=searxng,exec", "CC_LWR_SOURCE_ROOT=/docs")
	out, _, code := run(t, env, "--cache-dir", "/tmp/c", "config", "show")
	for _, want := range []string{"source_root", "/docs", "(env CC_LWR_SOURCE_ROOT)", "cache_dir", "(flag --cache-dir)", "[searxng, exec]", "(env LWR_WEB_PROVIDERS)", "(default)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("config show lacks %q:\n%s", want, out)
		}
	}
}
