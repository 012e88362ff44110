package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/config"
	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/local"
	"lwr/research/local/daemon"
)

// connect serves the tools over in-memory transports and returns a client
// session of them.
func connect(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// serverOptions are the options of a server on the source root root
// (not indexed yet) with the workspace ws.
func serverOptions(t *testing.T, root, ws string) Options {
	t.Helper()
	cfg := config.Config{SourceRoot: root, Search: config.DefaultSearch(), Research: config.DefaultResearch()}
	return Options{Config: cfg, Workspace: ws,
		Local: daemon.Options{Local: local.Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &local.AutoBuild{}}}}
}

// callTool calls a tool; it returns its text and whether it is an error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}
