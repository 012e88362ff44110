package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"lwr/config"
	"lwr/research/agent/skill"
)

func newSkillCommand(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "skill",
		Short: "Install the lwr research skill for Claude Code and Codex, or write the Codex plugin",
	}
	c.AddCommand(newSkillInstallCommand(g), newSkillPluginCommand(g), newSkillShowCommand(g))
	return c
}

type skillInstallOptions struct {
	agents []string
	dir    string
}

func (o *skillInstallOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&o.agents, "agent", []string{string(skill.Claude), string(skill.Codex)}, "the agents to install for: claude, codex (repeat or comma-separate)")
	cmd.Flags().StringVar(&o.dir, "dir", "", "the skills folder to install into instead of the agent's own (one --agent only)")
}

func newSkillInstallCommand(g *globalOptions) *cobra.Command {
	var opts skillInstallOptions
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Write SKILL.md into the agents' skills folders",
		Long: "Write the skill lwr-local-web-research (SKILL.md) into Claude Code's skills folder\n" +
			"($CLAUDE_CONFIG_DIR/skills or ~/.claude/skills) and Codex's ($CODEX_HOME/skills or\n" +
			"~/.codex/skills); %USERPROFILE% is the home folder on Windows. Run it again after upgrading lwr:\n" +
			"an older copy is replaced, a different skill of the same folder name is left alone.",
		Example: "  lwr skill install\n  lwr skill install --agent codex\n  lwr skill install --agent claude --dir .claude/skills",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSkillInstall(cmd.Context(), opts, g, g.stdout)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runSkillInstall(_ context.Context, opts skillInstallOptions, g *globalOptions, out io.Writer) error {
	agents := make([]skill.Agent, 0, len(opts.agents))
	for _, a := range opts.agents {
		if a != string(skill.Claude) && a != string(skill.Codex) {
			return usagef("unknown --agent %q; use claude or codex", a)
		}
		agents = append(agents, skill.Agent(a))
	}
	if len(agents) == 0 {
		return usagef("--agent names no agent; use claude, codex or both")
	}
	if opts.dir != "" && len(agents) != 1 {
		return usagef("--dir is one agent's skills folder: give one --agent with it")
	}
	env := config.NewEnv(g.environ)
	for _, a := range agents {
		dir := env.ExpandHome(opts.dir)
		if dir == "" {
			var err error
			if dir, err = skill.SkillsDir(a, env); err != nil {
				return err
			}
		}
		w, err := skill.Install(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s %s\n", a, w.Change, w.Path)
	}
	return nil
}

func newSkillPluginCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "plugin DIR",
		Short: "Write the Codex plugin (manifest, skill, MCP server) into DIR",
		Long: "Write the Codex plugin lwr-research into DIR: .codex-plugin/plugin.json, the skill under\n" +
			"skills/lwr-local-web-research/ and .mcp.json, which starts lwr mcp. Add DIR to a Codex\n" +
			"marketplace (e.g. .agents/plugins/marketplace.json) to install it.",
		Example: "  lwr skill plugin ./plugins/lwr-research",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSkillPlugin(cmd.Context(), g, g.stdout, args[0])
		},
	}
}

func runSkillPlugin(_ context.Context, g *globalOptions, out io.Writer, dir string) error {
	ws, err := skill.WritePlugin(config.NewEnv(g.environ).ExpandHome(dir))
	for _, w := range ws {
		fmt.Fprintf(out, "%s %s\n", w.Change, w.Path)
	}
	return err
}

func newSkillShowCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Print the skill's SKILL.md",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := g.stdout.Write(skill.SkillMD())
			return err
		},
	}
}
