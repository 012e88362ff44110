package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newConfigCommand(g *globalOptions) *cobra.Command {
	c := group(&cobra.Command{Use: "config", Short: "Show the configuration", Example: "  lwr config show"})
	c.AddCommand(&cobra.Command{
		Use:     "show",
		Example: "  lwr config show\n  lwr --config ./lwr.yaml config show\n  LWR_SEARCH_MAX_FILES=5 lwr config show",
		Short:   "Print the effective configuration and where each value came from",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConfigShow(cmd.Context(), g, g.stdout)
		},
	})
	return c
}

func runConfigShow(_ context.Context, g *globalOptions, out io.Writer) error {
	_, sources, err := g.load()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, s := range sources {
		fmt.Fprintf(tw, "%s\t%s\t(%s)\n", s.Key, s.Value, s.Origin)
	}
	return tw.Flush()
}
