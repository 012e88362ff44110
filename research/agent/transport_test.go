package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// pipeServer serves the tools over a LineTransport on pipes; it returns
// the client's ends and the server's Run result.
func pipeServer(t *testing.T, opts Options) (in io.WriteCloser, out *bufio.Reader, done <-chan error) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r1, w1 := io.Pipe()
	r2, w2 := io.Pipe()
	ch := make(chan error, 1)
	go func() {
		ch <- s.Run(context.Background(), &LineTransport{Reader: r1, Writer: w2})
		w2.Close()
	}()
	t.Cleanup(func() { w1.Close() })
	return w1, bufio.NewReader(r2), ch
}

type rpcReply struct {
	ID     any                 `json:"id"`
	Error  *struct{ Code int } `json:"error"`
	Result json.RawMessage     `json:"result"`
}

func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func reply(t *testing.T, r *bufio.Reader) rpcReply {
	t.Helper()
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("read a reply: %v", err)
	}
	var rep rpcReply
	if err := json.Unmarshal(line, &rep); err != nil {
		t.Fatalf("reply %q: %v", line, err)
	}
	return rep
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// TestMalformedLinesAreAnswered: a line that is not JSON, or not a
// JSON-RPC message, is answered with a JSON-RPC error and the session goes
// on; the server ends when its input does.
func TestMalformedLinesAreAnswered(t *testing.T) {
	in, out, done := pipeServer(t, Options{})
	for _, c := range []struct {
		line string
		code int
	}{
		{"\ufeff{bad json", -32700},
		{initialize, 0},
		{"not json at all", -32700},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600},
		{`{"foo": 1}`, -32600},
	} {
		send(t, in, c.line)
		rep := reply(t, out)
		switch {
		case c.code == 0 && (rep.Error != nil || rep.Result == nil):
			t.Errorf("%.30s: %+v; want a result", c.line, rep)
		case c.code != 0 && (rep.Error == nil || rep.Error.Code != c.code || rep.ID != nil):
			t.Errorf("%.30s: %+v; want error %d with id null", c.line, rep, c.code)
		}
	}
	send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if rep := reply(t, out); rep.Error != nil || !strings.Contains(string(rep.Result), `"search"`) {
		t.Errorf("tools/list after the malformed lines: %+v", rep)
	}
	in.Close()
	if err := <-done; err != nil {
		t.Errorf("Run after the input ended: %v", err)
	}
}

// blockingIndex opens no index: it waits until its context ends, and says
// so on ended.
func blockingIndex(started, ended chan struct{}) func(context.Context, index.Options) (*index.Index, error) {
	return func(ctx context.Context, _ index.Options) (*index.Index, error) {
		close(started)
		<-ctx.Done()
		close(ended)
		return nil, ctx.Err()
	}
}

// TestCancelledCallsStop: notifications/cancelled (the client gave up on
// a call) and the end of the input both end the work of a call.
func TestCancelledCallsStop(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# 規程\n有給休暇の申請。\n"})
	opts := serverOptions(t, root, configtest.TempDir(t))
	opts.Local.Local.AutoBuild = nil

	t.Run("notifications/cancelled", func(t *testing.T) {
		started, ended := make(chan struct{}), make(chan struct{})
		o := opts
		o.Local.Local.OpenIndex = blockingIndex(started, ended)
		cs := connect(t, o)
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "有給休暇"}})
			errc <- err
		}()
		<-started
		cancel() // the client sends notifications/cancelled
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("the cancelled call: %v", err)
		}
		select {
		case <-ended:
		case <-time.After(time.Minute): // a guard against a hang, not a measure
			t.Fatal("the search went on after notifications/cancelled")
		}
	})
	t.Run("input closed", func(t *testing.T) {
		started, ended := make(chan struct{}), make(chan struct{})
		o := opts
		o.Local.Local.OpenIndex = blockingIndex(started, ended)
		in, out, done := pipeServer(t, o)
		send(t, in, initialize)
		reply(t, out)
		send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(t, in, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"有給休暇"}}}`)
		<-started
		in.Close()
		<-ended
		if err := <-done; err != nil {
			t.Errorf("Run after the input ended: %v", err)
		}
	})
}

// TestLongQueriesAreRefused: a query over index.MaxQueryChars is refused
// at once with invalid_input, before anything is opened.
func TestLongQueriesAreRefused(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# 規程\n有給休暇の申請。\n"})
	cs := connect(t, serverOptions(t, root, configtest.TempDir(t)))
	long := strings.Repeat("有給休暇の申請期限 ", 2000)
	for tool, args := range map[string]map[string]any{"search": {"query": long}, "research": {"query": long, "skip_web": true}} {
		text, isErr := callTool(t, cs, tool, args)
		if !isErr || !strings.HasPrefix(text, "invalid_input: query longer than 1000 characters") {
			t.Errorf("%s with a %d-character query: %v %.120q", tool, len([]rune(long)), isErr, text)
		}
	}
	text, isErr := callTool(t, cs, "search", map[string]any{"query": "有給休暇", "alternatives": make([]string, 100)})
	if !isErr || !strings.HasPrefix(text, "invalid_input:") {
		t.Errorf("search with 100 alternatives: %v %q", isErr, text)
	}
}
