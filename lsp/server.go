// Package lsp is the SDP language server (`sdp lsp`): the Language Server
// Protocol 3.17 over stdio, with diagnostics as you type, hover with the
// wire layout, go to definition, references, rename, document symbols,
// completion and formatting. It uses only the standard library; the
// schema package does the parsing, checking and layout.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
)

// Options configure a server.
type Options struct {
	// Version is reported to the client in serverInfo.
	Version string
	// Log, if set, receives one line per problem the server meets (bad
	// messages, failed requests); never protocol output.
	Log io.Writer
}

// GCPercent is the garbage collection target `sdp lsp` runs with (GOGC,
// unless set): each change re-parses the whole file, and collecting less
// often than Go's default 100 halves the time to diagnostics on large
// schemas (the heap may grow to five times what is live, not twice).
const GCPercent = 400

// ErrExitWithoutShutdown is Serve's error when the client sent exit without
// shutdown first: the protocol asks for exit status 1 then.
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Server is one language server session.
type Server struct {
	opt         Options
	w           *writer
	docs        map[string]*document
	initialized bool
	shutdown    bool
}

// Serve runs a session over in and out until the client sends exit or in
// ends. It returns nil after shutdown and exit.
func Serve(in io.Reader, out io.Writer, opt Options) error {
	s := &Server{opt: opt, w: &writer{out: out}, docs: map[string]*document{}}
	r := bufio.NewReader(in)
	for {
		body, err := readMessage(r)
		if err == io.EOF {
			if s.shutdown {
				return nil
			}
			return ErrExitWithoutShutdown
		}
		if err != nil {
			return err
		}
		var req request
		if err := json.Unmarshal(body, &req); err != nil {
			s.logf("bad message: %v", err)
			s.w.write(errorResponse{JSONRPC: "2.0", ID: &nullID, Error: &rpcError{codeParseError, err.Error()}})
			continue
		}
		if req.Method == "exit" {
			if s.shutdown {
				return nil
			}
			return ErrExitWithoutShutdown
		}
		s.handle(&req)
	}
}

var nullID = json.RawMessage("null")

func (s *Server) logf(format string, args ...interface{}) {
	if s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "sdp lsp: "+format+"\n", args...)
	}
}

// handle answers a request or acts on a notification.
func (s *Server) handle(req *request) {
	isRequest := req.ID != nil
	reply := func(result interface{}, err error) {
		if !isRequest {
			if err != nil {
				s.logf("%s: %v", req.Method, err)
			}
			return
		}
		if err != nil {
			re, ok := err.(*rpcError)
			if !ok {
				re = &rpcError{codeRequestFailed, err.Error()}
			}
			s.w.write(errorResponse{JSONRPC: "2.0", ID: req.ID, Error: re})
			return
		}
		s.w.write(response{JSONRPC: "2.0", ID: req.ID, Result: result})
	}
	if !s.initialized && req.Method != "initialize" {
		if isRequest {
			reply(nil, &rpcError{codeServerNotInitialized, "the server is not initialized"})
		}
		return
	}
	if s.shutdown && isRequest {
		reply(nil, &rpcError{codeInvalidRequest, "the server is shut down"})
		return
	}
	h, ok := handlers[req.Method]
	if !ok {
		if isRequest {
			reply(nil, &rpcError{codeMethodNotFound, "method not supported: " + req.Method})
		}
		return // notifications the server does not use ($/cancelRequest, ...)
	}
	result, err := s.call(h, req.Params)
	reply(result, err)
}

// call runs a handler; a panic (a bug) fails the one request instead of
// ending the session.
func (s *Server) call(h handler, params json.RawMessage) (result interface{}, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("internal error: %v\n%s", r, debug.Stack())
			result, err = nil, &rpcError{codeInternalError, fmt.Sprintf("internal error: %v", r)}
		}
	}()
	return h(s, params)
}

type handler func(s *Server, params json.RawMessage) (interface{}, error)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"initialize":                  (*Server).initialize,
		"initialized":                 func(*Server, json.RawMessage) (interface{}, error) { return nil, nil },
		"shutdown":                    func(s *Server, _ json.RawMessage) (interface{}, error) { s.shutdown = true; return nil, nil },
		"textDocument/didOpen":        (*Server).didOpen,
		"textDocument/didChange":      (*Server).didChange,
		"textDocument/didClose":       (*Server).didClose,
		"textDocument/didSave":        func(*Server, json.RawMessage) (interface{}, error) { return nil, nil },
		"textDocument/hover":          (*Server).hover,
		"textDocument/definition":     (*Server).definition,
		"textDocument/references":     (*Server).references,
		"textDocument/prepareRename":  (*Server).prepareRename,
		"textDocument/rename":         (*Server).rename,
		"textDocument/documentSymbol": (*Server).documentSymbol,
		"textDocument/completion":     (*Server).completion,
		"textDocument/formatting":     (*Server).formatting,
		"textDocument/codeAction":     (*Server).codeAction,
		"workspace/executeCommand":    (*Server).executeCommand,
	}
}

func decode(params json.RawMessage, v interface{}) error {
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{codeInvalidParams, err.Error()}
	}
	return nil
}

func (s *Server) initialize(params json.RawMessage) (interface{}, error) {
	if s.initialized {
		return nil, &rpcError{codeInvalidRequest, "initialize was already sent"}
	}
	s.initialized = true
	return map[string]interface{}{
		"capabilities": map[string]interface{}{
			"positionEncoding": "utf-16",
			"textDocumentSync": map[string]interface{}{
				"openClose": true,
				"change":    1, // full text on every change
			},
			"hoverProvider":              true,
			"definitionProvider":         true,
			"referencesProvider":         true,
			"renameProvider":             map[string]interface{}{"prepareProvider": true},
			"documentSymbolProvider":     true,
			"documentFormattingProvider": true,
			"codeActionProvider":         true,
			"executeCommandProvider":     map[string]interface{}{"commands": []string{compatCommand}},
			"completionProvider": map[string]interface{}{
				"triggerCharacters": []string{":", "?", "]", "<"},
			},
		},
		"serverInfo": map[string]interface{}{"name": "sdp", "version": s.opt.Version},
	}, nil
}

func (s *Server) didOpen(params json.RawMessage) (interface{}, error) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d := newDocument(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	s.docs[d.uri] = d
	s.publish(d)
	return nil, nil
}

func (s *Server) didChange(params json.RawMessage) (interface{}, error) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, fmt.Errorf("change of a document that is not open: %s", p.TextDocument.URI)
	}
	if len(p.ContentChanges) == 0 {
		return nil, nil
	}
	text := string(d.text)
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		// Incremental changes are applied too, though the server asks for
		// full text.
		cur := &document{text: []byte(text)}
		cur.lines = lineStarts(cur.text)
		start, end := cur.offset(c.Range.Start), cur.offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		text = text[:start] + c.Text + text[end:]
	}
	d.version = p.TextDocument.Version
	d.set(text)
	s.publish(d)
	return nil, nil
}

func lineStarts(text []byte) []int {
	lines := []int{0}
	for i, c := range text {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

func (s *Server) didClose(params json.RawMessage) (interface{}, error) {
	var p didCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	delete(s.docs, p.TextDocument.URI)
	// The file's problems leave the editor with it.
	s.w.write(notification{JSONRPC: "2.0", Method: "textDocument/publishDiagnostics",
		Params: publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []diagnostic{}}})
	return nil, nil
}

// publish sends the document's diagnostics: every problem `sdp check`
// reports, with its hint; an empty list clears them.
func (s *Server) publish(d *document) {
	diags := make([]diagnostic, 0, len(d.a.Diagnostics)+len(d.compat))
	for _, e := range d.a.Diagnostics {
		msg := e.Msg
		if e.Hint != "" {
			msg += " (" + e.Hint + ")"
		}
		diags = append(diags, diagnostic{Range: d.tokenRange(e.Pos), Severity: 1, Source: "sdp", Message: msg})
	}
	diags = append(diags, d.compat...)
	v := d.version
	s.w.write(notification{JSONRPC: "2.0", Method: "textDocument/publishDiagnostics",
		Params: publishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: diags}})
}

func (s *Server) showMessage(typ int, msg string) {
	s.w.write(notification{JSONRPC: "2.0", Method: "window/showMessage", Params: showMessageParams{Type: typ, Message: msg}})
}

// doc returns the open document a request is about.
func (s *Server) doc(uri string) (*document, error) {
	d := s.docs[uri]
	if d == nil {
		return nil, &rpcError{codeInvalidParams, "document is not open: " + uri}
	}
	return d, nil
}

// sortLocations orders locations by position, for stable answers.
func sortLocations(ls []location) {
	sort.SliceStable(ls, func(i, j int) bool {
		a, b := ls[i].Range.Start, ls[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Character < b.Character
	})
}
