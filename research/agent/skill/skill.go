package skill

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lwr/config"
)

// Name is the skill's name: its folder and the name in its front matter.
const Name = "lwr-local-web-research"

// PluginName is the Codex plugin's name.
const PluginName = "lwr-research"

var (
	//go:embed lwr-local-web-research/SKILL.md
	skillMD []byte
	//go:embed plugin/plugin.json
	pluginJSON []byte
)

// SkillMD returns the skill's SKILL.md.
func SkillMD() []byte { return bytes.Clone(skillMD) }

// Agent is a coding agent the skill installs for.
type Agent string

// The agents.
const (
	Claude Agent = "claude"
	Codex  Agent = "codex"
)

// Agents lists the agents in the order lwr installs for them.
func Agents() []Agent { return []Agent{Claude, Codex} }

// SkillsDir is the folder an agent reads its user's skills from:
// $CLAUDE_CONFIG_DIR/skills or ~/.claude/skills for Claude Code,
// $CODEX_HOME/skills or ~/.codex/skills for Codex.
func SkillsDir(a Agent, env config.Env) (string, error) {
	switch a {
	case Claude:
		if d, ok := env.Lookup("CLAUDE_CONFIG_DIR"); ok {
			return filepath.Join(env.ExpandHome(d), "skills"), nil
		}
		return filepath.Join(env.Home(), ".claude", "skills"), nil
	case Codex:
		if d, ok := env.Lookup("CODEX_HOME"); ok {
			return filepath.Join(env.ExpandHome(d), "skills"), nil
		}
		return filepath.Join(env.Home(), ".codex", "skills"), nil
	}
	return "", fmt.Errorf("unknown agent %q: use claude or codex", a)
}

// Change says what writing a file did.
type Change string

// The changes.
const (
	Created   Change = "created"
	Updated   Change = "updated"
	Unchanged Change = "unchanged"
)

// Written is one file written.
type Written struct {
	Path   string
	Change Change
}

// Install writes SKILL.md to <skillsDir>/lwr-local-web-research/. A skill
// of that name already there is replaced; a folder of that name holding a
// different skill is left alone and reported.
func Install(skillsDir string) (Written, error) {
	if err := folderOrNone(skillsDir); err != nil {
		return Written{}, err
	}
	dir := filepath.Join(skillsDir, Name)
	if err := ensureOurs(filepath.Join(dir, "SKILL.md")); err != nil {
		return Written{}, err
	}
	return write(filepath.Join(dir, "SKILL.md"), skillMD)
}

// PluginOptions are what a Codex plugin says of its publisher and how it
// starts lwr.
type PluginOptions struct {
	// SourceRoot is the folder the plugin's lwr mcp searches (--source-root
	// in .mcp.json); "" leaves it to lwr's configuration.
	SourceRoot string
	// Author, Homepage, Repository and License are the manifest's
	// (Author "lwr" and License "NOASSERTION", SPDX's "none stated", when
	// empty; the URLs are left out when empty).
	Author, Homepage, Repository, License string
	// Marketplace is the folder of the marketplace the plugin is listed
	// in (.agents/plugins/marketplace.json there); "" is the folder above
	// DIR's "plugins" folder, or DIR's parent.
	Marketplace string
}

// WritePlugin writes the Codex plugin into dir — .codex-plugin/plugin.json,
// .mcp.json (the server lwr mcp, on opts.SourceRoot) and
// skills/lwr-local-web-research/SKILL.md — and lists it in the marketplace
// (.agents/plugins/marketplace.json, other plugins' entries kept). A
// folder holding another plugin, or a marketplace file that is not one, is
// left alone and reported.
func WritePlugin(dir string, opts PluginOptions) ([]Written, error) {
	if err := folderOrNone(dir); err != nil {
		return nil, err
	}
	manifest := filepath.Join(dir, ".codex-plugin", "plugin.json")
	if b, err := os.ReadFile(manifest); err == nil && !bytes.Contains(b, []byte(`"name": "`+PluginName+`"`)) {
		return nil, fmt.Errorf("%s holds another plugin's manifest: choose an empty folder for the lwr plugin", manifest)
	}
	skill := filepath.Join(dir, "skills", Name, "SKILL.md")
	if err := ensureOurs(skill); err != nil {
		return nil, err
	}
	market, entry, err := marketplaceOf(dir, opts.Marketplace)
	if err != nil {
		return nil, err
	}
	marketJSON, err := listed(market, entry)
	if err != nil {
		return nil, err
	}
	var out []Written
	for _, f := range []struct {
		path string
		data []byte
	}{{manifest, pluginManifest(opts)}, {filepath.Join(dir, ".mcp.json"), mcpServers(opts.SourceRoot)}, {skill, skillMD}, {market, marketJSON}} {
		w, err := write(f.path, f.data)
		if err != nil {
			return out, err
		}
		out = append(out, w)
	}
	return out, nil
}

// pluginManifest is plugin.json with the publisher's fields.
func pluginManifest(opts PluginOptions) []byte {
	var m map[string]any
	if err := json.Unmarshal(pluginJSON, &m); err != nil {
		panic("skill: embedded plugin.json: " + err.Error())
	}
	author := opts.Author
	if author == "" {
		author = "lwr"
	}
	license := opts.License
	if license == "" {
		license = "NOASSERTION"
	}
	m["author"] = map[string]string{"name": author}
	m["license"] = license
	for k, v := range map[string]string{"homepage": opts.Homepage, "repository": opts.Repository} {
		if v != "" {
			m[k] = v
		}
	}
	if iface, ok := m["interface"].(map[string]any); ok {
		iface["developerName"] = author
		if opts.Homepage != "" {
			iface["websiteURL"] = opts.Homepage
		}
	}
	return indented(m)
}

// mcpServers is .mcp.json: lwr mcp, on the source root when one is given
// (a bare lwr mcp would search lwr's default folder, ~/skill-source).
func mcpServers(root string) []byte {
	args := []string{"mcp"}
	if root != "" {
		args = []string{"--source-root", filepath.ToSlash(root), "mcp"}
	}
	return indented(map[string]any{"mcpServers": map[string]any{"lwr": map[string]any{"command": "lwr", "args": args}}})
}

// marketplaceOf is the marketplace file of a plugin folder and the path
// of the plugin in it ("./plugins/lwr-research").
func marketplaceOf(dir, root string) (file, entry string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	if root == "" {
		root = filepath.Dir(abs)
		if filepath.Base(root) == "plugins" {
			root = filepath.Dir(root)
		}
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", "", fmt.Errorf("the plugin folder %s is not inside the marketplace folder %s: give a marketplace above it", dir, root)
	}
	return filepath.Join(root, ".agents", "plugins", "marketplace.json"), "./" + filepath.ToSlash(rel), nil
}

// listed is the marketplace file with lwr's entry (added or replaced),
// the other entries and fields as they were.
func listed(file, entry string) ([]byte, error) {
	m := map[string]any{"name": "lwr", "interface": map[string]any{"displayName": "lwr"}}
	if b, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s is not a marketplace file (%v): fix it, or give another folder with --marketplace", file, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %w", file, err)
	}
	ours := map[string]any{
		"name":     PluginName,
		"source":   map[string]any{"source": "local", "path": entry},
		"policy":   map[string]any{"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
		"category": "Research",
	}
	plugins, _ := m["plugins"].([]any)
	kept := []any{}
	for _, p := range plugins {
		if pm, ok := p.(map[string]any); ok && pm["name"] == PluginName {
			continue
		}
		kept = append(kept, p)
	}
	m["plugins"] = append(kept, ours)
	return indented(m), nil
}

func indented(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic("skill: " + err.Error())
	}
	return append(b, '\n')
}

// ErrNotFolder is a destination that exists and is not a folder.
var ErrNotFolder = errors.New("not a folder")

// folderOrNone accepts a folder or a path where one can be made.
func folderOrNone(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is a file, %w: give the folder to write into", dir, ErrNotFolder)
	}
	return nil
}

// ensureOurs refuses to replace a SKILL.md whose front matter names
// another skill.
func ensureOurs(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	if name := FrontMatter(b)["name"]; name != Name {
		return fmt.Errorf("%s is the skill %q, not lwr's: move it or choose another folder", path, name)
	}
	return nil
}

// FrontMatter returns the top-level keys of a SKILL.md's YAML front matter
// (name, description), unquoted.
func FrontMatter(md []byte) map[string]string {
	out := map[string]string{}
	s := strings.ReplaceAll(string(md), "\r\n", "\n")
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return out
	}
	head, _, ok := strings.Cut(rest, "\n---")
	if !ok {
		return out
	}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		out[strings.TrimSpace(k)] = v
	}
	return out
}

// write replaces path with data through a temporary file in its folder,
// so that an agent never reads half a skill.
func write(path string, data []byte) (Written, error) {
	w := Written{Path: path, Change: Created}
	if old, err := os.ReadFile(path); err == nil {
		if bytes.Equal(old, data) {
			w.Change = Unchanged
			return w, nil
		}
		w.Change = Updated
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return w, fmt.Errorf("cannot create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".lwr-*.tmp")
	if err != nil {
		return w, fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return w, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return w, nil
}
