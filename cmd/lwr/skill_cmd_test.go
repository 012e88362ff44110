package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"lwr/research/agent/skill"
)

// TestSkillNamesRealCommands checks that every lwr command and flag the
// skill tells an agent to run exists, so that the skill and the command
// line cannot drift apart.
func TestSkillNamesRealCommands(t *testing.T) {
	md := string(skill.SkillMD())
	root := newRootCommand(&globalOptions{})
	root.InitDefaultVersionFlag() // cobra adds --version when it runs
	var snippets []string
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(md, -1) {
		snippets = append(snippets, strings.Split(m[1], "\n")...)
	}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(md, -1) {
		snippets = append(snippets, m[1])
	}
	commands, flags := 0, 0
	for _, s := range snippets {
		for _, call := range regexp.MustCompile(`(?:^|\s)lwr\s`).Split(s, -1)[1:] {
			commands++
			flags += checkCall(t, root, call, "the skill runs")
		}
		// A flag named on its own (`--skip-web`) belongs to some command.
		if name, ok := strings.CutPrefix(s, "--"); ok && !strings.Contains(s, " ") {
			if !anyCommandHasFlag(root, name) {
				t.Errorf("the skill names --%s, which no lwr command has", name)
			}
			flags++
		}
	}
	if commands < 10 || flags < 10 {
		t.Fatalf("found %d commands and %d flags in SKILL.md; the parser no longer reads it", commands, flags)
	}
}

// checkCall checks one command line after "lwr ": its command exists and
// has every --flag and -f it gives; it returns how many flags it checked.
func checkCall(t *testing.T, root *cobra.Command, call, who string) int {
	t.Helper()
	fields := strings.Fields(call)
	// Global flags may come first: lwr --source-root DIR index watch.
	for len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
		name, _, withValue := strings.Cut(strings.TrimPrefix(fields[0], "--"), "=")
		fl := root.PersistentFlags().Lookup(name)
		if fl == nil {
			fl = root.Flags().Lookup(name) // --version, --help
		}
		if fl == nil {
			t.Errorf("%s `lwr %s` with --%s, which is no global flag", who, call, name)
			return 0
		}
		fields = fields[1:]
		if fl.Value.Type() != "bool" && !withValue && len(fields) > 0 {
			fields = fields[1:]
		}
	}
	var path []string
	for _, f := range fields {
		if !regexp.MustCompile(`^[a-z]+$`).MatchString(f) {
			break
		}
		path = append(path, f)
	}
	cmd, rest, err := root.Find(path)
	if err != nil || len(rest) > 0 && cmd.HasSubCommands() {
		t.Errorf("%s `lwr %s`, which is not a command (%v)", who, call, err)
		return 0
	}
	has := func(name string, short bool) bool {
		for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.InheritedFlags(), root.PersistentFlags()} {
			if short && fs.ShorthandLookup(name) != nil || !short && fs.Lookup(name) != nil {
				return true
			}
		}
		return false
	}
	n := 0
	for _, f := range fields {
		if f == "--" {
			break // the words after -- are the query's
		}
		if name, ok := strings.CutPrefix(f, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			if !has(name, false) {
				t.Errorf("%s `lwr %s` with --%s, which %s does not have", who, call, name, cmd.CommandPath())
			}
			n++
		} else if name, ok := strings.CutPrefix(f, "-"); ok && len(name) == 1 && !has(name, true) {
			t.Errorf("%s `lwr %s` with -%s, which %s does not have", who, call, name, cmd.CommandPath())
		}
	}
	return n
}

// TestEveryCommandHasExamples: each command's --help shows examples, and
// each example is a command line lwr takes.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRootCommand(&globalOptions{})
	root.InitDefaultVersionFlag()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c != root {
			if strings.TrimSpace(c.Example) == "" {
				t.Errorf("%s has no examples in its --help", c.CommandPath())
			}
			for _, line := range strings.Split(c.Example, "\n") {
				call, ok := strings.CutPrefix(strings.TrimSpace(line), "lwr ")
				if !ok {
					continue // e.g. an agent's configuration
				}
				checkCall(t, root, call, "an example of "+c.CommandPath()+" runs")
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

func anyCommandHasFlag(c *cobra.Command, name string) bool {
	if c.Flags().Lookup(name) != nil || c.PersistentFlags().Lookup(name) != nil {
		return true
	}
	for _, sub := range c.Commands() {
		if anyCommandHasFlag(sub, name) {
			return true
		}
	}
	return false
}

// TestSkillExitCodes checks the skill's table of exit codes against the
// codes lwr exits with.
func TestSkillExitCodes(t *testing.T) {
	var got []int
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \|`).FindAllStringSubmatch(string(skill.SkillMD()), -1) {
		n, _ := strconv.Atoi(m[1])
		got = append(got, n)
	}
	want := []int{exitOK, exitError, exitUsage, exitBusy, exitPolicy}
	if !slices.Equal(got, want) {
		t.Fatalf("the skill's exit codes are %v, lwr's %v", got, want)
	}
}

func TestSkillInstallCommand(t *testing.T) {
	env := testEnv(t)
	home := strings.TrimPrefix(env[0], "HOME=")
	out, errOut, code := run(t, env, "skill", "install")
	if code != 0 {
		t.Fatalf("skill install: exit %d: %s", code, errOut)
	}
	for _, p := range []string{filepath.Join(home, ".claude", "skills", skill.Name, "SKILL.md"), filepath.Join(home, ".codex", "skills", skill.Name, "SKILL.md")} {
		b, err := os.ReadFile(p)
		if err != nil || string(b) != string(skill.SkillMD()) {
			t.Errorf("%s not installed (%v); output:\n%s", p, err, out)
		}
	}
	if out, _, code = run(t, env, "skill", "install", "--codex"); code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("second install: exit %d, output %q; want unchanged", code, out)
	}
	file := filepath.Join(home, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"skill", "install", "--cursor"}, {"skill", "install", home}, {"skill", "install", "--claude", "--codex", home}, {"skill", "install", "--claude", file}, {"skill", "plugin", file}} {
		if _, errOut, code := run(t, env, bad...); code != exitUsage || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("lwr %s: exit %d, stderr %q; want exit %d and one sentence", strings.Join(bad, " "), code, errOut, exitUsage)
		}
	}
	own := filepath.Join(home, "project", ".claude", "skills")
	if _, errOut, code := run(t, env, "skill", "install", "--claude", own); code != 0 {
		t.Fatalf("skill install --claude DIR: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(own, skill.Name, "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(home, "plugins", skill.PluginName)
	if _, errOut, code := run(t, env, "skill", "plugin", plugin); code != 0 {
		t.Fatalf("skill plugin: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(plugin, ".codex-plugin", "plugin.json")); err != nil {
		t.Fatal(err)
	}
}
