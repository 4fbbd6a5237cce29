package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of the stdio frame checks.
const (
	defaultMaxFrame = 4 << 20 // bytes of one JSON-RPC message (stdio line or HTTP body)
	defaultMaxDepth = 64      // nesting of arrays and objects in one message
	headSize        = 4 << 10 // bytes kept of a refused frame, to read its id from
)

// lineTransport is the stdio transport of the server: newline-delimited
// JSON-RPC on In/Out, robust against malformed frames.
//
// Why not mcp.StdioTransport: in go-sdk v1.8.0 its connection decodes the
// input with one json.Decoder and hands any decode error (a non-JSON line,
// trailing garbage, a frame over MaxLineLength) to Connection.Read, which
// ends the session, so the process exits without answering. A bare
// string or number is passed on and fails jsonrpc2.DecodeMessage, with the
// same result; a bare array is read as a batch. It never sends the
// JSON-RPC -32700 parse error or -32600 invalid request, and it has no
// nesting limit (the value is fully decoded before anything is checked).
//
// lineTransport reads the lines itself and checks each one cheaply before
// anything decodes it: size while reading (an over-long line is skipped
// to its newline, never buffered whole), then nesting depth with a
// streaming scan, then json.Valid and "is it one object", then
// jsonrpc.DecodeMessage. A rejected line gets an error response with id
// null, or with the frame's own id when it can be known: an object with
// a usable id that is not a valid message, or a frame refused for its
// size or nesting whose start (headSize bytes are kept) holds a top-level
// "id" before anything else it cannot read, as clients write it; a host
// can then match the error to its request instead of waiting out its
// timeout. The session goes on. Batches (JSON
// arrays) are refused: MCP dropped them in protocol 2025-06-18.
type lineTransport struct {
	In       io.ReadCloser
	Out      io.Writer
	MaxFrame int // 0: defaultMaxFrame
	MaxDepth int // 0: defaultMaxDepth
}

var _ mcp.Transport = (*lineTransport)(nil)

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		in:       t.In,
		out:      t.Out,
		maxFrame: t.MaxFrame,
		maxDepth: t.MaxDepth,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
	}
	if c.maxFrame <= 0 {
		c.maxFrame = defaultMaxFrame
	}
	if c.maxDepth <= 0 {
		c.maxDepth = defaultMaxDepth
	}
	go c.readLoop()
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	in       io.ReadCloser
	out      io.Writer
	maxFrame int
	maxDepth int

	writeMu sync.Mutex

	incoming  chan readResult
	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// readLoop reads frames until the input ends or fails, answering bad
// frames itself and passing good ones to Read. It runs in its own
// goroutine so that Close unblocks Read even when the input cannot be
// interrupted (stdin).
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, tooLong, err := readLine(br, c.maxFrame)
		if tooLong || len(bytes.TrimSpace(line)) > 0 {
			msg, rej := c.check(line, tooLong)
			if rej != nil {
				if werr := c.writeRaw(rej); werr != nil {
					c.deliver(readResult{err: werr})
					return
				}
			} else if !c.deliver(readResult{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.deliver(readResult{err: err})
			return
		}
	}
}

// deliver hands r to Read; false when the connection closed first.
func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line without its line ending. A line longer than
// max is read to its end and dropped: only its first headSize bytes come
// back, with tooLong set. err is the read error that ended the line
// (io.EOF at the end of the input, after the last line).
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 { // +2: the line ending is not part of the frame
				tooLong, line = true, head(append(line, chunk...))
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return line, true, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > max {
			return head(line), true, err
		}
		return line, false, err
	}
}

// head is a copy of the first headSize bytes of b.
func head(b []byte) []byte { return bytes.Clone(b[:min(len(b), headSize)]) }

// check validates one frame: the message, or the error response to send.
func (c *lineConn) check(line []byte, tooLong bool) (jsonrpc.Message, []byte) {
	if tooLong {
		return nil, errorResponse(headID(line), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: message larger than %d bytes", c.maxFrame))
	}
	if depth := nestingDepth(line, c.maxDepth); depth > c.maxDepth {
		return nil, errorResponse(headID(line), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: JSON nested deeper than %d levels", c.maxDepth))
	}
	if !json.Valid(line) {
		return nil, errorResponse(nil, jsonrpc.CodeParseError, "Parse error: the message is not valid JSON")
	}
	trimmed := bytes.TrimSpace(line)
	switch trimmed[0] {
	case '{':
	case '[':
		return nil, errorResponse(nil, jsonrpc.CodeInvalidRequest,
			"Invalid Request: JSON-RPC batches (arrays) are not supported; send one object per line")
	default:
		return nil, errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: the message is not a JSON object")
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		return nil, errorResponse(frameID(trimmed), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return msg, nil
}

// nestingDepth returns the deepest nesting of arrays and objects in data,
// stopping as soon as it passes limit. It does not build the value and
// does not check the syntax (json.Valid does, afterwards).
func nestingDepth(data []byte, limit int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// frameID is the id of an invalid message when it has a usable one (a
// string or a number), else nil (null).
func frameID(obj []byte) json.RawMessage {
	var f struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(obj, &f) != nil || len(f.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(f.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return f.ID
	}
	return nil
}

// headID is the id of a frame refused for its size or nesting, read from
// its first headSize bytes: the value of a top-level "id" key (a string or
// a number) met before the head ends or stops being valid JSON; else nil.
// The values before it are skipped token by token, so a deep or cut-off
// value costs no more than its bytes in the head.
func headID(frame []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(frame[:min(len(frame), headSize)]))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for {
		key, err := dec.Token()
		if err != nil || key == json.Delim('}') {
			return nil
		}
		if key == "id" {
			switch v, _ := dec.Token(); v := v.(type) {
			case string:
				b, _ := json.Marshal(v)
				return b
			case json.Number:
				return json.RawMessage(v.String())
			}
			return nil
		}
		for depth := 0; ; { // skip the key's value
			tok, err := dec.Token()
			if err != nil {
				return nil
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth == 0 {
				break
			}
		}
	}
}

// errorResponse is a JSON-RPC error response line; id nil is null.
func errorResponse(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	return append(b, '\n')
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeRaw(append(data, '\n'))
}

func (c *lineConn) writeRaw(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.out.Write(line)
	return err
}

// Close implements mcp.Connection. It closes the input; a read blocked
// on a stdin that cannot be interrupted stays blocked, but Read returns.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.closeErr = c.in.Close()
		if errors.Is(c.closeErr, io.ErrClosedPipe) {
			c.closeErr = nil
		}
	})
	return c.closeErr
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
