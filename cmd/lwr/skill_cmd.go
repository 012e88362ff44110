package main

import (
	"context"
	"errors"
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
	claude, codex bool
}

func (o *skillInstallOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.claude, "claude", false, "install for Claude Code (both agents when neither --claude nor --codex is given)")
	cmd.Flags().BoolVar(&o.codex, "codex", false, "install for Codex")
}

func newSkillInstallCommand(g *globalOptions) *cobra.Command {
	var opts skillInstallOptions
	cmd := &cobra.Command{
		Use:   "install [--claude|--codex] [DIR]",
		Short: "Write SKILL.md into the agents' skills folders",
		Long: "Write the skill lwr-local-web-research (SKILL.md) into Claude Code's skills folder\n" +
			"($CLAUDE_CONFIG_DIR/skills or ~/.claude/skills) and Codex's ($CODEX_HOME/skills or\n" +
			"~/.codex/skills), or into DIR for the one agent named; %USERPROFILE% is the home folder on\n" +
			"Windows. Run it again after upgrading lwr: an older copy is replaced, a different skill of the\n" +
			"same folder name is left alone.",
		Example: "  lwr skill install\n  lwr skill install --codex\n  lwr skill install --claude .claude/skills",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSkillInstall(cmd.Context(), opts, g, g.stdout, args)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runSkillInstall(_ context.Context, opts skillInstallOptions, g *globalOptions, out io.Writer, args []string) error {
	var agents []skill.Agent
	if opts.claude {
		agents = append(agents, skill.Claude)
	}
	if opts.codex {
		agents = append(agents, skill.Codex)
	}
	if len(agents) == 0 {
		agents = skill.Agents()
	}
	env := config.NewEnv(g.environ)
	var dir string
	if len(args) == 1 {
		if len(agents) != 1 {
			return usagef("%s is one agent's skills folder: name the agent with --claude or --codex", args[0])
		}
		dir = env.ExpandHome(args[0])
	}
	for _, a := range agents {
		d := dir
		if d == "" {
			var err error
			if d, err = skill.SkillsDir(a, env); err != nil {
				return err
			}
		}
		w, err := skill.Install(d)
		if err != nil {
			return skillError(err)
		}
		fmt.Fprintf(out, "%s: %s %s\n", a, w.Change, w.Path)
	}
	return nil
}

type pluginOptions struct {
	author, homepage, repository, license, marketplace string
}

func (o *pluginOptions) AddFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&o.author, "author", "", "the publisher named in the manifest (default lwr)")
	fs.StringVar(&o.homepage, "homepage", "", "the documentation URL of the manifest")
	fs.StringVar(&o.repository, "repository", "", "the source code URL of the manifest")
	fs.StringVar(&o.license, "license", "", "the SPDX license of the manifest (default NOASSERTION: none stated)")
	fs.StringVar(&o.marketplace, "marketplace", "", "the marketplace folder whose .agents/plugins/marketplace.json lists the plugin (default: the folder above DIR's plugins folder, or DIR's parent)")
}

func newSkillPluginCommand(g *globalOptions) *cobra.Command {
	var opts pluginOptions
	cmd := &cobra.Command{
		Use:   "plugin DIR",
		Short: "Write the Codex plugin (manifest, skill, MCP server) into DIR and list it in a marketplace",
		Long: "Write the Codex plugin lwr-research into DIR: .codex-plugin/plugin.json, the skill under\n" +
			"skills/lwr-local-web-research/ and .mcp.json, which starts lwr mcp on the configured source root\n" +
			"(--source-root). The plugin is listed in the marketplace .agents/plugins/marketplace.json above it\n" +
			"(other plugins' entries are kept); add that marketplace to Codex to install it.",
		Example: "  lwr --source-root ~/skill-source skill plugin ./plugins/lwr-research\n" +
			"  lwr skill plugin --repository https://example.com/lwr --license MIT ./plugins/lwr-research",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSkillPlugin(cmd.Context(), opts, g, g.stdout, args[0])
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runSkillPlugin(_ context.Context, opts pluginOptions, g *globalOptions, out io.Writer, dir string) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	env := config.NewEnv(g.environ)
	ws, err := skill.WritePlugin(env.ExpandHome(dir), skill.PluginOptions{SourceRoot: cfg.SourceRoot, Author: opts.author,
		Homepage: opts.homepage, Repository: opts.repository, License: opts.license, Marketplace: env.ExpandHome(opts.marketplace)})
	for _, w := range ws {
		fmt.Fprintf(out, "%s %s\n", w.Change, w.Path)
	}
	return skillError(err)
}

// skillError makes a folder that is none a usage error (exit 2).
func skillError(err error) error {
	if errors.Is(err, skill.ErrNotFolder) {
		return usage(err)
	}
	return err
}

func newSkillShowCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "show",
		Example: "  lwr skill show > SKILL.md",
		Short:   "Print the skill's SKILL.md",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := g.stdout.Write(skill.SkillMD())
			return err
		},
	}
}
