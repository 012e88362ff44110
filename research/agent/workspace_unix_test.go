//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// TestToolsStayInTheWorkspace: validate reads only reports inside the
// server's workspace (no link out of it, bounded: /proc/self/pagemap
// leaves the server answering); finalize and research write only inside
// it, and never inside the source root.
func TestToolsStayInTheWorkspace(t *testing.T) {
	ws := configtest.TempDir(t)
	root := filepath.Join(ws, "docs")
	researchtest.WriteFile(t, filepath.Join(root, "a.md"), "# 規程\n有給休暇の申請。\n")
	outside := researchtest.WriteTree(t, map[string]string{"secret.md": "# 秘密\n"})
	researchtest.WriteFile(t, filepath.Join(ws, "draft.md"), "# 下書き\n")
	for name, target := range map[string]string{"link.md": filepath.Join(outside, "secret.md"), "pagemap.md": "/proc/self/pagemap"} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, serverOptions(t, root, ws))
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"validate", map[string]any{"path": "/etc/passwd"}, "path_outside_workspace:"},
		{"validate", map[string]any{"path": filepath.Join(outside, "secret.md")}, "path_outside_workspace:"},
		{"validate", map[string]any{"path": "../" + filepath.Base(outside) + "/secret.md"}, "path_outside_workspace:"},
		{"validate", map[string]any{"path": filepath.Join(ws, "link.md")}, "path_outside_workspace:"},
		{"validate", map[string]any{"path": "pagemap.md"}, "path_outside_workspace:"},
		{"validate", map[string]any{"path": "fifo.md"}, "invalid_input:"},
		{"finalize", map[string]any{"markdown": "# r\n", "query": "有給休暇", "workspace": outside}, "path_outside_workspace:"},
		{"finalize", map[string]any{"markdown": "# r\n", "query": "有給休暇", "workspace": root}, "workspace_inside_source_root:"},
		{"research", map[string]any{"query": "有給休暇", "skip_web": true, "workspace": outside}, "path_outside_workspace:"},
		{"research", map[string]any{"query": "有給休暇", "skip_web": true, "workspace": "docs"}, "workspace_inside_source_root:"},
	} {
		text, isErr := callTool(t, cs, c.tool, c.args)
		if !isErr || !strings.HasPrefix(text, c.code) {
			t.Errorf("%s %v: error %v %q; want %s", c.tool, c.args, isErr, text, c.code)
		}
		if strings.Contains(text, "秘密") {
			t.Errorf("%s %v shows what the file outside holds: %q", c.tool, c.args, text)
		}
	}
	// The server still answers, and reads a report inside the workspace.
	if text, isErr := callTool(t, cs, "validate", map[string]any{"path": "draft.md"}); isErr {
		t.Errorf("validate of a report inside the workspace: %s", text)
	}
	for _, dir := range []string{filepath.Join(root, "result"), filepath.Join(outside, "result")} {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%s was written", dir)
		}
	}
	// A server whose workspace is the source root writes nothing there.
	cs2 := connect(t, serverOptions(t, root, root))
	if text, isErr := callTool(t, cs2, "finalize", map[string]any{"markdown": "# r\n", "query": "有給休暇"}); !isErr || !strings.HasPrefix(text, "workspace_inside_source_root:") {
		t.Errorf("finalize into the source root: %v %q", isErr, text)
	}
}
