package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/config"
	"lwr/research/local"
	"lwr/research/local/daemon"
)

// Options configure the server.
type Options struct {
	// Config is the configuration of the command that serves (the source
	// root, the web providers, the research limits); the server honours
	// the root and cache folder chosen on its command line.
	Config config.Config
	// Local is how searches reach the index of Config's source root: the
	// daemon while it answers, else a session in this process.
	Local daemon.Options
	// Workspace is the folder validate reads reports from and research and
	// finalize write them into (a call may name a folder inside it, never
	// one outside: path_outside_workspace); "" is the git top level of the
	// current folder, else the folder itself.
	Workspace string
	// Environ is the environment of the web providers' commands (nil:
	// this process's).
	Environ []string
	// Version is lwr's version, for the MCP handshake.
	Version string
	Logger  *slog.Logger
}

// Server is lwr's MCP server.
type Server struct {
	opts Options
	mcp  *mcp.Server
}

// New returns the server with its tools.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Version == "" {
		opts.Version = "(devel)"
	}
	s := &Server{opts: opts}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "lwr", Title: "lwr — local web research", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       opts.Logger,
	})
	if err := s.addTools(); err != nil {
		return nil, err
	}
	return s, nil
}

// instructions tell an agent how to use the tools, in the order the
// research skill works.
const instructions = `lwr searches the user's folder of documents (mostly Japanese rules, procedures and training texts) with line-exact citations, and the web through the configured providers.
1. search: 質問の語と、資料の正式な語（alternatives: 有休 → 年次有給休暇, 付与）で検索する。Search with the question's words and 3–5 alternatives in the documents' formal vocabulary.
2. read: 引用する行を必ず開いて確認する。Open the lines you will cite; quote them exactly as read returns them.
3. research: 調査全体（ローカル・Web・深掘り・結論・検証済みレポート）を実行する。Or run the whole research and get a validated report.
4. validate / finalize: 自分で書いたレポートを検証し、保存する。Check and save a report you wrote; every citation and quote is verified against the files.
5. deep_start → deep_search（サブトピックごと）→ deep_gaps → deep_finalize: 複数の資料をまとめる調査。For a question that needs several documents: your subtopics, lwr's searches, the gap check, your report verified; status: confirmed in report.md means done, and deep_status finds an interrupted one.
Every answer says when the index last synced. An error starting with currentness_policy_invalid means no answer may be given until the user fixes .research-policy/currentness.json.`

// Run serves until the client goes away or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.mcp.Run(ctx, t)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// RunStdio serves on standard input and output, as coding agents start
// MCP servers (LineTransport: a line that is no message is answered, and
// the session goes on).
func (s *Server) RunStdio(ctx context.Context) error { return s.Run(ctx, StdioTransport()) }

// searcher opens the searcher of a call: the daemon when it answers, else
// the index in this process (released again when the call ends, so that a
// long-lived server does not keep builds waiting).
func (s *Server) searcher(ctx context.Context) (local.Searcher, error) {
	return daemon.Open(ctx, s.opts.Local)
}

// toolError is an error as a tool result: its fixed code (local.OutcomeOf,
// the command line's table), then the sentence the command line prints.
func toolError(err error) error {
	msg := strings.TrimSpace(err.Error())
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "。") {
		msg += "."
	}
	code := local.OutcomeOf(err).Code
	if strings.HasPrefix(msg, code+":") {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %s", code, msg)
}
