package skill

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"lwr/config"
	"lwr/config/configtest"
)

func TestSkillFrontMatter(t *testing.T) {
	fm := FrontMatter(skillMD)
	if fm["name"] != Name {
		t.Fatalf("name = %q, want %q", fm["name"], Name)
	}
	d := fm["description"]
	// The agent skills standard caps the description at 1,024 characters;
	// agents shorten or drop longer ones from their list.
	if d == "" || utf8.RuneCountInString(d) > 1024 {
		t.Fatalf("description has %d characters, want 1 to 1024", utf8.RuneCountInString(d))
	}
	for _, w := range []string{"スキルを用いて", "ローカル調査", "ローカル検索"} {
		if !strings.Contains(d, w) {
			t.Errorf("description does not state the trigger word %s", w)
		}
	}
}

func TestInstall(t *testing.T) {
	dir := configtest.TempDir(t)
	w, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, Name, "SKILL.md")
	if w.Path != want || w.Change != Created {
		t.Fatalf("Install = %+v, want %s created", w, want)
	}
	if b, _ := os.ReadFile(want); string(b) != string(skillMD) {
		t.Fatal("installed SKILL.md differs from the shipped one")
	}
	if w, err = Install(dir); err != nil || w.Change != Unchanged {
		t.Fatalf("second Install = %+v, %v; want unchanged", w, err)
	}
	if err := os.WriteFile(want, []byte("---\nname: "+Name+"\ndescription: old\n---\nold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w, err = Install(dir); err != nil || w.Change != Updated {
		t.Fatalf("Install over an old copy = %+v, %v; want updated", w, err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, Name, ".lwr-*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestInstallLeavesAnotherSkillAlone(t *testing.T) {
	dir := configtest.TempDir(t)
	other := []byte("---\nname: someone-elses\ndescription: x\n---\nmine\n")
	p := filepath.Join(dir, Name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(dir); err == nil || !strings.Contains(err.Error(), "someone-elses") {
		t.Fatalf("Install over another skill: err = %v, want a refusal naming it", err)
	}
	if b, _ := os.ReadFile(p); string(b) != string(other) {
		t.Fatal("the other skill was changed")
	}
}

func TestWritePlugin(t *testing.T) {
	market := configtest.TempDir(t)
	dir := filepath.Join(market, "plugins", PluginName)
	// A marketplace that lists another plugin already.
	mfile := filepath.Join(market, ".agents", "plugins", "marketplace.json")
	os.MkdirAll(filepath.Dir(mfile), 0o755)
	os.WriteFile(mfile, []byte(`{"name": "team", "interface": {"displayName": "Team"}, "plugins": [{"name": "other", "source": {"source": "local", "path": "./plugins/other"}}]}`), 0o644)
	root := filepath.Join(market, "資料")
	ws, err := WritePlugin(dir, PluginOptions{SourceRoot: root, Repository: "https://example.com/lwr"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 4 {
		t.Fatalf("wrote %d files, want 4: %+v", len(ws), ws)
	}
	var m struct {
		Name       string            `json:"name"`
		Version    string            `json:"version"`
		Skills     string            `json:"skills"`
		MCPServers string            `json:"mcpServers"`
		Author     map[string]string `json:"author"`
		License    string            `json:"license"`
		Repository string            `json:"repository"`
		Keywords   []string          `json:"keywords"`
		Interface  struct {
			DisplayName   string   `json:"displayName"`
			DefaultPrompt []string `json:"defaultPrompt"`
		} `json:"interface"`
	}
	b, err := os.ReadFile(filepath.Join(dir, ".codex-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("plugin.json: %v", err)
	}
	if m.Name != PluginName || m.Version == "" || m.Author["name"] == "" || m.License == "" || m.Repository != "https://example.com/lwr" || len(m.Keywords) == 0 || m.Interface.DisplayName == "" {
		t.Fatalf("plugin.json: %+v", m)
	}
	// Codex reads component paths relative to the plugin root, starting
	// with ./; and at most three default prompts of 128 characters.
	for _, p := range []string{m.Skills, m.MCPServers} {
		if !strings.HasPrefix(p, "./") {
			t.Errorf("component path %q does not start with ./", p)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Errorf("component %q not written: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m.Skills), Name, "SKILL.md")); err != nil {
		t.Errorf("the skill is not under %s: %v", m.Skills, err)
	}
	if n := len(m.Interface.DefaultPrompt); n == 0 || n > 3 {
		t.Errorf("%d default prompts, want 1 to 3", n)
	}
	for _, p := range m.Interface.DefaultPrompt {
		if utf8.RuneCountInString(p) > 128 {
			t.Errorf("default prompt longer than 128 characters: %s", p)
		}
	}
	var servers struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, _ = os.ReadFile(filepath.Join(dir, ".mcp.json"))
	if err := json.Unmarshal(b, &servers); err != nil {
		t.Fatalf(".mcp.json: %v", err)
	}
	if s := servers.MCPServers["lwr"]; s.Command != "lwr" || strings.Join(s.Args, " ") != "--source-root "+filepath.ToSlash(root)+" mcp" {
		t.Fatalf(".mcp.json runs %q %v, want lwr --source-root %s mcp", s.Command, s.Args, root)
	}
	var mk struct {
		Name    string `json:"name"`
		Plugins []struct {
			Name   string `json:"name"`
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"plugins"`
	}
	b, _ = os.ReadFile(mfile)
	if err := json.Unmarshal(b, &mk); err != nil || mk.Name != "team" || len(mk.Plugins) != 2 || mk.Plugins[0].Name != "other" ||
		mk.Plugins[1].Name != PluginName || mk.Plugins[1].Source.Path != "./plugins/"+PluginName {
		t.Fatalf("marketplace.json: %+v %v\n%s", mk, err, b)
	}

	if again, err := WritePlugin(dir, PluginOptions{SourceRoot: root, Repository: "https://example.com/lwr"}); err != nil || again[0].Change != Unchanged || again[3].Change != Unchanged {
		t.Fatalf("second WritePlugin = %+v, %v", again, err)
	}
	foreign := filepath.Join(configtest.TempDir(t), "other")
	if err := os.MkdirAll(filepath.Join(foreign, ".codex-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, ".codex-plugin", "plugin.json"), []byte(`{"name": "other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WritePlugin(foreign, PluginOptions{}); err == nil {
		t.Fatal("WritePlugin over another plugin succeeded")
	}
}

func TestSkillsDir(t *testing.T) {
	home := configtest.TempDir(t)
	base := []string{"HOME=" + home, "USERPROFILE=" + home}
	env := func(extra ...string) config.Env { return config.NewEnv(append(base, extra...)) }
	for _, c := range []struct {
		a    Agent
		env  config.Env
		want string
	}{
		{Claude, env(), filepath.Join(home, ".claude", "skills")},
		{Codex, env(), filepath.Join(home, ".codex", "skills")},
		{Codex, env("CODEX_HOME=" + filepath.Join(home, "cx")), filepath.Join(home, "cx", "skills")},
		{Claude, env("CLAUDE_CONFIG_DIR=" + filepath.Join(home, "cl")), filepath.Join(home, "cl", "skills")},
	} {
		got, err := SkillsDir(c.a, c.env)
		if err != nil || got != c.want {
			t.Errorf("SkillsDir(%s) = %q, %v; want %q", c.a, got, err, c.want)
		}
	}
	if _, err := SkillsDir("cursor", env()); err == nil {
		t.Error("SkillsDir of an unknown agent succeeded")
	}
}
