package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// client speaks JSON-RPC to a server running in the test through pipes.
type client struct {
	t      testing.TB
	in     io.WriteCloser // to the server
	w      *writer
	msgs   chan map[string]json.RawMessage
	nextID int
	done   chan error
	notes  []map[string]json.RawMessage // notifications seen, in order
}

func startServer(t testing.TB) *client {
	t.Helper()
	toServer, serverIn := io.Pipe()
	serverOut, fromServer := io.Pipe()
	c := &client{t: t, in: serverIn, w: &writer{out: serverIn}, msgs: make(chan map[string]json.RawMessage, 1000), done: make(chan error, 1)}
	go func() {
		err := Serve(toServer, fromServer, Options{Version: "test"})
		fromServer.Close()
		c.done <- err
	}()
	go func() {
		r := bufio.NewReader(serverOut)
		for {
			body, err := readMessage(r)
			if err != nil {
				close(c.msgs)
				return
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				panic(err)
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { serverIn.Close() })
	return c
}

func (c *client) notify(method string, params interface{}) {
	c.t.Helper()
	if err := c.w.write(notification{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		c.t.Fatal(err)
	}
}

// next is the next message from the server (test fails after 10 s).
func (c *client) next() map[string]json.RawMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		if _, isResponse := m["id"]; !isResponse || m["method"] != nil {
			c.notes = append(c.notes, m)
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message from the server in 10 s")
	}
	return nil
}

// call sends a request and returns its result, or fails on an error
// response (callErr returns it).
func (c *client) call(method string, params interface{}, result interface{}) {
	c.t.Helper()
	if e := c.callErr(method, params, result); e != nil {
		c.t.Fatalf("%s: error %d %s", method, e.Code, e.Message)
	}
}

func (c *client) callErr(method string, params interface{}, result interface{}) *rpcError {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	if err := c.w.write(map[string]interface{}{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.t.Fatal(err)
	}
	for {
		m := c.next()
		if m["method"] != nil {
			continue
		}
		if string(m["id"]) != fmt.Sprint(id) {
			c.t.Fatalf("response to id %s, want %d", m["id"], id)
		}
		if e, ok := m["error"]; ok {
			var re rpcError
			json.Unmarshal(e, &re)
			return &re
		}
		if result != nil {
			if err := json.Unmarshal(m["result"], result); err != nil {
				c.t.Fatalf("%s result %s: %v", method, m["result"], err)
			}
		}
		return nil
	}
}

// diagnostics waits for the next publishDiagnostics of uri.
func (c *client) diagnostics(uri string) []diagnostic {
	c.t.Helper()
	for {
		m := c.next()
		var method string
		json.Unmarshal(m["method"], &method)
		if method != "textDocument/publishDiagnostics" {
			continue
		}
		var p publishDiagnosticsParams
		json.Unmarshal(m["params"], &p)
		if p.URI == uri {
			return p.Diagnostics
		}
	}
}

func (c *client) initialize() {
	c.t.Helper()
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		ServerInfo   struct{ Name string }      `json:"serverInfo"`
	}
	c.call("initialize", map[string]interface{}{"processId": nil, "rootUri": nil, "capabilities": map[string]interface{}{}}, &res)
	if res.ServerInfo.Name != "sdp" || res.Capabilities["hoverProvider"] == nil {
		c.t.Fatalf("initialize result %+v", res)
	}
	c.notify("initialized", map[string]interface{}{})
}

func (c *client) open(uri, text string) []diagnostic {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri, "languageId": "sdp", "version": 1, "text": text}})
	return c.diagnostics(uri)
}

func (c *client) change(uri string, version int, text string) []diagnostic {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri, "version": version},
		"contentChanges": []map[string]interface{}{{"text": text}}})
	return c.diagnostics(uri)
}

func (c *client) shutdown() {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
}

func pos(line, char int) map[string]interface{} {
	return map[string]interface{}{"line": line, "character": char}
}

func at(uri string, line, char int) map[string]interface{} {
	return map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(line, char)}
}

const uri = "file:///tmp/shapes.sdp"

// The schema the tests edit. Line numbers (from 0) matter below.
const shapes = `/// A point on the plane.
struct Point {
    x: f64,
    y: f64,
}

@id(7)
struct Event {
    /// When it happened, in ns.
    at: u64,
    /// Where — in plane coordinates.
    name: str,
    where: Point,
    kind: Kind,
}

enum Kind: u16 {
    Start = 1,
    Stop,
}

union Shape {
    Empty,
    Point,
    Poly { points: []Point, closed: bool },
}
`

func TestDiagnosticsAppearAndClear(t *testing.T) {
	c := startServer(t)
	c.initialize()
	if d := c.open(uri, shapes); len(d) != 0 {
		t.Fatalf("diagnostics on a valid schema: %+v", d)
	}
	// A typo in a type name and a syntax error elsewhere: both are reported,
	// with the hint, on the right range.
	broken := strings.Replace(shapes, "where: Point", "where: Pointt", 1)
	broken = strings.Replace(broken, "    Stop,\n", "    Stop = ,\n", 1)
	d := c.change(uri, 2, broken)
	if len(d) != 2 {
		t.Fatalf("got %d diagnostics, want 2: %+v", len(d), d)
	}
	if d[0].Message != `unknown type "Pointt" (did you mean "Point"?)` ||
		d[0].Range != (lspRange{Start: position{12, 11}, End: position{12, 17}}) {
		t.Errorf("first diagnostic %+v", d[0])
	}
	if !strings.HasPrefix(d[1].Message, "expected enum value (a number)") || d[1].Range.Start != (position{18, 11}) {
		t.Errorf("second diagnostic %+v", d[1])
	}
	if d := c.change(uri, 3, shapes); len(d) != 0 {
		t.Fatalf("diagnostics not cleared: %+v", d)
	}
	c.notify("textDocument/didClose", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}})
	if d := c.diagnostics(uri); len(d) != 0 {
		t.Fatalf("close left diagnostics: %+v", d)
	}
	c.shutdown()
}

func TestUTF16Positions(t *testing.T) {
	c := startServer(t)
	c.initialize()
	// 🎵 is 4 bytes in UTF-8 and 2 code units in UTF-16; é is 2 bytes and 1 unit.
	src := "/// é 🎵\nstruct A { /* é🎵 */ b: Nope }\n"
	d := c.open(uri, src)
	if len(d) != 1 || d[0].Range != (lspRange{Start: position{1, 24}, End: position{1, 28}}) {
		t.Fatalf("diagnostics %+v", d)
	}
	var h hover
	c.call("textDocument/hover", at(uri, 1, 21), &h)
	if !strings.Contains(h.Contents.Value, "b: Nope") {
		t.Errorf("hover at b: %q", h.Contents.Value)
	}
	c.shutdown()
}

func TestHover(t *testing.T) {
	c := startServer(t)
	c.initialize()
	c.open(uri, shapes)
	hoverAt := func(line, char int) string {
		t.Helper()
		var h *hover
		c.call("textDocument/hover", at(uri, line, char), &h)
		if h == nil {
			t.Fatalf("no hover at %d:%d", line, char)
		}
		return h.Contents.Value
	}
	for _, c := range []struct {
		line, char int
		want       []string
	}{
		// A field after a variable-size one.
		{12, 5, []string{"```sdp\nwhere: Point\n```", "**offset** `v1`", "**size** 16 bytes", "`v1` is where `name` ends"}},
		// A variable-size field with a doc comment (the — is not ASCII).
		{11, 4, []string{"name: str", "**offset** `8`", "variable, min 4 bytes", "it ends at `v1`", "Where — in plane coordinates."}},
		{9, 4, []string{"at: u64", "**offset** `0`", "**size** 8 bytes", "When it happened, in ns."}},
		// A struct: size, plain, id, fingerprint, layout, doc.
		{1, 8, []string{"struct Point", "**fixed size** 16 bytes", "**plain**", "**message type id** 1 (by position)", "**fingerprint** `", "A point on the plane.", "0       8     x      f64"}},
		{7, 8, []string{"struct Event", "**variable size**, min 30 bytes", "not plain", "**message type id** 7 (@id)"}},
		// A use of a type shows the type.
		{12, 12, []string{"struct Point", "**fixed size** 16 bytes"}},
		// An enum: wire type and values.
		{16, 6, []string{"enum Kind", "**wire type** u16 (2 bytes)", "Start = 1", "Stop  = 2"}},
		{18, 5, []string{"Kind.Stop = 2", "value of enum `Kind` (u16 on the wire)"}},
		// A union, a struct variant, an inline variant's field.
		{21, 7, []string{"union Shape", "**variable size**, min 1 bytes", "variant Poly (tag 2, inline)"}},
		{23, 5, []string{"Shape.Point", "**tag** 1", "17 bytes", "carries ```sdp\nstruct Point"}},
		{24, 28, []string{"closed: bool", "variant `Shape.Poly`", "**offset** `v1`", "`v1` is where `points` ends"}},
	} {
		got := hoverAt(c.line, c.char)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover at %d:%d lacks %q:\n%s", c.line, c.char, w, got)
			}
		}
	}
	// While the schema has errors, hover still shows what is written.
	c.change(uri, 2, strings.Replace(shapes, "kind: Kind", "kind: Kindd", 1))
	if got := hoverAt(12, 5); !strings.Contains(got, "where: Point") || !strings.Contains(got, "appear when this type and the types it holds have no errors") {
		t.Errorf("hover with errors: %s", got)
	}
	// Types that do not reach the error keep their layout.
	if got := hoverAt(1, 8); !strings.Contains(got, "**fixed size** 16 bytes") {
		t.Errorf("hover on Point while Event has an error: %s", got)
	}
	if got := hoverAt(24, 28); !strings.Contains(got, "**offset** `v1`") {
		t.Errorf("hover in Shape while Event has an error: %s", got)
	}
	c.shutdown()
}

func TestNavigation(t *testing.T) {
	c := startServer(t)
	c.initialize()
	c.open(uri, shapes)
	var locs []location
	c.call("textDocument/definition", at(uri, 24, 22), &locs) // []Point in Poly
	if len(locs) != 1 || locs[0].URI != uri || locs[0].Range != (lspRange{Start: position{1, 7}, End: position{1, 12}}) {
		t.Errorf("definition: %+v", locs)
	}
	c.call("textDocument/definition", at(uri, 23, 4), &locs) // variant Point
	if len(locs) != 1 || locs[0].Range.Start != (position{1, 7}) {
		t.Errorf("definition of a struct variant: %+v", locs)
	}
	refs := map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(1, 9), "context": map[string]interface{}{"includeDeclaration": true}}
	c.call("textDocument/references", refs, &locs)
	var got []position
	for _, l := range locs {
		got = append(got, l.Range.Start)
	}
	if want := []position{{1, 7}, {12, 11}, {23, 4}, {24, 21}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("references %v, want %v", got, want)
	}

	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}}, &syms)
	var names []string
	for _, s := range syms {
		var kids []string
		for _, k := range s.Children {
			kids = append(kids, k.Name)
		}
		names = append(names, s.Name+"("+strings.Join(kids, ",")+")")
	}
	if got, want := strings.Join(names, " "), "Point(x,y) Event(at,name,where,kind) Kind(Start,Stop) Shape(Empty,Point,Poly)"; got != want {
		t.Errorf("symbols %s, want %s", got, want)
	}
	if syms[1].Range.Start != (position{6, 0}) || syms[1].Range.End != (position{14, 1}) || syms[1].Kind != symStruct {
		t.Errorf("Event symbol %+v", syms[1])
	}
	c.shutdown()
}

func TestRename(t *testing.T) {
	c := startServer(t)
	c.initialize()
	c.open(uri, shapes)
	var we workspaceEdit
	c.call("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(12, 13), "newName": "Vec2"}, &we)
	if len(we.DocumentChanges) != 1 || len(we.DocumentChanges[0].Edits) != 4 || we.ChangeAnnotations != nil {
		t.Fatalf("rename Point: %+v", we)
	}
	for _, e := range we.DocumentChanges[0].Edits {
		if e.NewText != "Vec2" || e.Range.End.Character-e.Range.Start.Character != 5 {
			t.Errorf("edit %+v", e)
		}
	}
	// Shape would have two variants named Point: refused.
	if e := c.callErr("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(22, 5), "newName": "Point"}, nil); e == nil || !strings.Contains(e.Message, `duplicate variant "Point"`) {
		t.Errorf("rename into a duplicate variant: %+v", e)
	}
	if e := c.callErr("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(22, 5), "newName": "Po int"}, nil); e == nil {
		t.Error("a name with a space was accepted")
	}
	c.shutdown()
}

func TestRenameChangesFingerprint(t *testing.T) {
	c := startServer(t)
	c.initialize()
	src := "struct Point { x: f64 }\n\nunion Shape {\n    Dot,\n    Line { n: u32 },\n}\n"
	c.open(uri, src)
	var we workspaceEdit
	c.call("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(3, 5), "newName": "Point"}, &we)
	a, ok := we.ChangeAnnotations["sdp.wire"]
	if !ok || !a.NeedsConfirmation || !strings.Contains(a.Description, "Shape's fingerprint") {
		t.Fatalf("no wire-change annotation: %+v", we)
	}
	if e := we.DocumentChanges[0].Edits; len(e) != 1 || e[0].AnnotationID != "sdp.wire" {
		t.Errorf("edits %+v", e)
	}
	// The warning is also shown as a message.
	found := false
	for _, n := range c.notes {
		if strings.Contains(string(n["method"]), "window/showMessage") && strings.Contains(string(n["params"]), "changes the wire format") {
			found = true
		}
	}
	if !found {
		t.Error("no window/showMessage about the wire change")
	}
	// A rename into a clash is refused.
	if e := c.callErr("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(2, 7), "newName": "Point"}, nil); e == nil || !strings.Contains(e.Message, "invalid") {
		t.Errorf("rename into a clash: %+v", e)
	}
	c.shutdown()
}

func TestCompletionAndFormatting(t *testing.T) {
	c := startServer(t)
	c.initialize()
	src := "struct   A{x:u32 , y : B}\nstruct B { z: }\n"
	c.open(uri, src)
	var list completionList
	c.call("textDocument/completion", at(uri, 1, 14), &list)
	labels := map[string]bool{}
	for _, it := range list.Items {
		labels[it.Label] = true
	}
	if !labels["A"] || !labels["B"] || !labels["u32"] || !labels["str"] || labels["struct"] {
		t.Errorf("completion after `z:` %+v", list.Items)
	}
	c.call("textDocument/completion", at(uri, 2, 0), &list)
	labels = map[string]bool{}
	for _, it := range list.Items {
		labels[it.Label] = true
	}
	if !labels["struct"] || !labels["enum"] || !labels["union"] || labels["u32"] {
		t.Errorf("completion at the top level %+v", list.Items)
	}
	// Formatting refuses a schema that does not parse, then formats.
	if e := c.callErr("textDocument/formatting", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "options": map[string]interface{}{"tabSize": 4, "insertSpaces": true}}, nil); e == nil {
		t.Error("formatted a schema with a syntax error")
	}
	c.change(uri, 2, "struct   A{x:u32 , y : B}\nstruct B { z: u8 }\n")
	var edits []textEdit
	c.call("textDocument/formatting", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "options": map[string]interface{}{"tabSize": 4, "insertSpaces": true}}, &edits)
	want := "struct A {\n    x: u32,\n    y: B,\n}\n\nstruct B {\n    z: u8,\n}\n"
	if len(edits) != 1 || edits[0].NewText != want || edits[0].Range.End != (position{2, 0}) {
		t.Errorf("formatting %+v", edits)
	}
	c.change(uri, 3, want)
	c.call("textDocument/formatting", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "options": map[string]interface{}{}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a formatted file: %+v", edits)
	}
	c.shutdown()
}

func TestLifecycle(t *testing.T) {
	c := startServer(t)
	if e := c.callErr("textDocument/hover", at(uri, 0, 0), nil); e == nil || e.Code != codeServerNotInitialized {
		t.Errorf("request before initialize: %+v", e)
	}
	c.initialize()
	if e := c.callErr("textDocument/semanticTokens/full", map[string]interface{}{}, nil); e == nil || e.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v", e)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != ErrExitWithoutShutdown {
			t.Errorf("exit without shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit")
	}
}

// genSchema is a schema of n declarations: structs that hold earlier
// structs inline and unions through ?T, enums and unions.
func genSchema(n int) string {
	isStruct := func(i int) bool { return i%10 != 2 && i%10 != 4 && i%10 != 6 }
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch {
		case i%10 == 2 || i%10 == 6:
			fmt.Fprintf(&b, "/// Enum %d.\nenum E%d: u16 { A = 0, B, C = 7 }\n\n", i, i)
		case i%10 == 4:
			fmt.Fprintf(&b, "union U%d {\n    Empty,\n    Inline { x: u32, name: str },\n    S%d,\n}\n\n", i, i-1)
		default:
			fmt.Fprintf(&b, "/// Struct %d.\nstruct S%d {\n    id: u64,\n    name: str,\n    values: []f32,\n", i, i)
			if i >= 10 {
				prev := i - 1
				for !isStruct(prev) {
					prev--
				}
				fmt.Fprintf(&b, "    prev: S%d,\n    kind: E%d,\n    shape: ?U%d,\n", prev, i-i%10-8, i-i%10-6)
			}
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

// BenchmarkDiagnostics5k is the time from a change of a 5,000-declaration
// schema to its diagnostics: a full-text didChange (one field's type
// broken, then fixed again) until publishDiagnostics arrives. It runs with
// the GC target sdp lsp sets (GCPercent); cpu-ms/op is the CPU time of the
// whole process per change, which a loaded machine does not inflate.
func BenchmarkDiagnostics5k(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	src := genSchema(5000)
	broken := strings.Replace(src, "prev: S2490,", "prev: S2490x,", 1)
	if broken == src {
		b.Fatal("no field to break")
	}
	c := startServer(b)
	c.initialize()
	if d := c.open(uri, src); len(d) != 0 {
		b.Fatalf("generated schema has errors: %v", d[0])
	}
	b.ResetTimer()
	cpu := cpuTime()
	defer func() {
		if used := cpuTime() - cpu; used > 0 {
			// CPU time of the whole process: the server, and the test's
			// client encoding and decoding the 0.6 MB of JSON per change.
			b.ReportMetric(float64(used)/1e6/float64(b.N), "cpu-ms/op")
		}
	}()
	for i := 0; i < b.N; i++ {
		text, want := src, 0
		if i%2 == 0 {
			text, want = broken, 1
		}
		if d := c.change(uri, i+2, text); len(d) != want {
			b.Fatalf("%d diagnostics, want %d: %v", len(d), want, d)
		}
	}
}

// TestEveryPosition asks for hover, definition, references, completion and
// prepareRename at every position of broken schemas (and past line ends):
// no request may fail.
func TestEveryPosition(t *testing.T) {
	c := startServer(t)
	c.initialize()
	for i, src := range []string{
		shapes,
		strings.Replace(shapes, "kind: Kind,", "kind: Kindd\n    z: [4", 1),
		"/// é 🎵\nunion U { A { x: ?U }, B, S }\nstruct S { u: U, s: []S, e: E }\nenum E: u64 { A = 1, A }\nstruct",
		"",
	} {
		if i == 0 {
			c.open(uri, src)
		} else {
			c.change(uri, i+2, src)
		}
		lines := strings.Split(src, "\n")
		for line := 0; line <= len(lines); line++ {
			n := 2
			if line < len(lines) {
				n += len(lines[line])
			}
			for char := 0; char < n; char++ {
				for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/prepareRename"} {
					if e := c.callErr(m, at(uri, line, char), nil); e != nil {
						t.Fatalf("%s at %d:%d of schema %d: %v", m, line, char, i, e.Message)
					}
				}
				refs := map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(line, char), "context": map[string]interface{}{"includeDeclaration": true}}
				if e := c.callErr("textDocument/references", refs, nil); e != nil {
					t.Fatalf("references at %d:%d of schema %d: %v", line, char, i, e.Message)
				}
			}
		}
		if e := c.callErr("textDocument/documentSymbol", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}}, nil); e != nil {
			t.Fatalf("symbols of schema %d: %v", i, e.Message)
		}
	}
	c.shutdown()
}

// BenchmarkRename5k renames a struct used by other declarations of a
// 5,000-declaration schema: the edits, the check of the renamed text and
// the search for fingerprint changes.
func BenchmarkRename5k(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	src := genSchema(5000)
	c := startServer(b)
	c.initialize()
	c.open(uri, src)
	line := strings.Count(src[:strings.Index(src, "struct S2490 ")], "\n")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var we workspaceEdit
		c.call("textDocument/rename", map[string]interface{}{"textDocument": map[string]interface{}{"uri": uri}, "position": pos(line, 8), "newName": "Renamed"}, &we)
		if len(we.DocumentChanges) != 1 || len(we.DocumentChanges[0].Edits) < 2 || we.ChangeAnnotations != nil {
			b.Fatalf("rename: %d edits, annotations %v", len(we.DocumentChanges[0].Edits), we.ChangeAnnotations)
		}
	}
}
