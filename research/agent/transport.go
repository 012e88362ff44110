package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one message (a line) the server reads, as the SDK's own
// stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

// LineTransport serves MCP over newline-delimited JSON, as the SDK's
// stdio transport does, but a line that is not a JSON-RPC message is
// answered with a JSON-RPC error (-32700 parse error, -32600 invalid
// request; id null) and the session goes on: the SDK's transport ends the
// whole session on one malformed line (go-sdk#1209). A line longer than
// maxLine is refused the same way, without being held in memory. A
// byte-order mark before the first message is skipped.
type LineTransport struct {
	Reader io.ReadCloser
	Writer io.Writer
}

// StdioTransport is a LineTransport on standard input and output.
func StdioTransport() *LineTransport { return &LineTransport{Reader: os.Stdin, Writer: os.Stdout} }

// Connect starts reading.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{r: t.Reader, w: t.Writer, incoming: make(chan jsonrpc.Message), closed: make(chan struct{}), readErr: make(chan error, 1)}
	go c.readLoop()
	return c, nil
}

type lineConn struct {
	r        io.ReadCloser
	w        io.Writer
	writeMu  sync.Mutex
	incoming chan jsonrpc.Message
	readErr  chan error // the error that ended the reading (io.EOF at the end)

	closeOnce sync.Once
	closed    chan struct{}
}

// readLoop reads lines until the input ends, handing on the messages and
// answering the lines that are none.
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	first := true
	for {
		line, tooLong, err := readLine(br, maxLine)
		if first {
			line, first = bytes.TrimPrefix(line, []byte("\ufeff")), false
		}
		switch {
		case tooLong:
			c.refuse(jsonrpc.CodeParseError, fmt.Sprintf("Parse error: a message longer than %d bytes", maxLine))
		case len(bytes.TrimSpace(line)) > 0:
			msg, code, why := decodeLine(line)
			if msg == nil {
				c.refuse(code, why)
				break
			}
			select {
			case c.incoming <- msg:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			c.readErr <- err
			close(c.incoming)
			return
		}
	}
}

// readLine reads one line (without its end) of at most max bytes; a
// longer one is read to its end and dropped (tooLong). err is the read's
// error (io.EOF after the last line).
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 { // the line end is not counted
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// decodeLine reads one JSON-RPC message; when the line is none, it says
// why with the JSON-RPC error code.
func decodeLine(line []byte) (jsonrpc.Message, int64, string) {
	t := bytes.TrimSpace(line)
	if !json.Valid(t) {
		return nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON"
	}
	if t[0] == '[' {
		return nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches of messages are not supported; send one message a line"
	}
	msg, err := jsonrpc.DecodeMessage(t)
	if err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "Invalid Request: the line is not a JSON-RPC 2.0 message"
	}
	return msg, 0, ""
}

// refuse answers a line that is no message: a JSON-RPC error without an
// id, as JSON-RPC 2.0 answers what it cannot read.
func (c *lineConn) refuse(code int64, message string) {
	b := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%q}}`+"\n", code, message)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, _ = c.w.Write(b)
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case msg, ok := <-c.incoming:
		if !ok {
			err := <-c.readErr
			c.readErr <- err
			return nil, err
		}
		return msg, nil
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(append(b, '\n'))
	return err
}

// Close stops reading; the standard input is closed, so that a read
// blocked on it returns where the system allows.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.r.Close()
	})
	return err
}

func (c *lineConn) SessionID() string { return "" }
