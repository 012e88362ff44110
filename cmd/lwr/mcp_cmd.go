package main

import (
	"context"

	"github.com/spf13/cobra"

	"lwr/research/agent"
)

type mcpOptions struct {
	workspace string
}

func (o *mcpOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.workspace, "workspace", "", "the folder validate reads reports from and research and finalize write them into; tools refuse any path outside it (default: the git top-level of the current folder, else the current folder)")
}

func newMCPCommand(g *globalOptions) *cobra.Command {
	var opts mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve lwr to a coding agent over MCP (stdio): search, read, status, web_search, research, validate, finalize, deep_*",
		Long: "Run lwr's Model Context Protocol server on standard input and output, as Codex and Claude Code start\n" +
			"MCP servers. Its tools answer through the daemon when it runs (no dictionary load, no index open) and\n" +
			"open the index of this command's source root otherwise; --source-root, --cache-dir and --config\n" +
			"choose the index. Reports are read and written only inside the workspace (--workspace), never inside\n" +
			"the source root. Logs go to standard error. See the README for the agents' configuration.",
		Example: "  lwr --source-root ~/skill-source mcp\n" +
			"  codex: [mcp_servers.lwr] command = \"lwr\", args = [\"--source-root\", \"C:/Users/u/skill-source\", \"mcp\"]",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), opts, g)
		},
	}
	opts.AddFlags(cmd)
	return cmd
}

func runMCP(ctx context.Context, opts mcpOptions, g *globalOptions) error {
	cfg, _, err := g.load()
	if err != nil {
		return err
	}
	lo, err := g.localOptions(cfg)
	if err != nil {
		return err
	}
	// Standard output carries the protocol; what lwr reports (an automatic
	// build, warnings) goes to standard error.
	ws, err := workspaceOf(opts.workspace)
	if err != nil {
		return err
	}
	s, err := agent.New(agent.Options{Config: cfg, Local: lo, Workspace: ws, Environ: g.environ, Version: versionString(), Logger: g.logger()})
	if err != nil {
		return err
	}
	return s.RunStdio(ctx)
}
