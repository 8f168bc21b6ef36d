// Package rust generates a dependency-free Cargo crate for a schema: owned
// types with encoders and strict decoders, zero-copy borrowed views, message
// framing and std::io streaming. See docs/rust.md.
package rust

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

func init() { gen.Register("rust", Generate) }

// runtime is the crate's src/rt.rs after its header line: the reader,
// errors and array views every generated crate carries.
//
//go:embed rt.rs
var runtime string

// indent is rustfmt's indentation unit.
const indent = "    "

// Generate writes the crate: Cargo.toml and src/{lib,rt,types,encode,decode,views,messages}.rs.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g := newGenerator(s, crateName(opt.PackageName(s)))
	files := []gen.File{
		{Path: "Cargo.toml", Content: g.cargoToml()},
		{Path: "src/lib.rs", Content: g.libRs()},
		{Path: "src/rt.rs", Content: g.rtRs()},
		{Path: "src/types.rs", Content: g.typesRs()},
		{Path: "src/encode.rs", Content: g.encodeRs()},
		{Path: "src/decode.rs", Content: g.decodeRs()},
	}
	if g.hasViews() {
		files = append(files, gen.File{Path: "src/views.rs", Content: g.viewsRs()})
	}
	if len(s.Structs) > 0 {
		files = append(files, gen.File{Path: "src/messages.rs", Content: g.messagesRs()})
	}
	return files, nil
}

// printer is emit's printer that also knows its indentation depth, to
// decide line breaks the way rustfmt does.
type printer struct {
	*emit.Printer
	depth int
}

func newPrinter() *printer { return &printer{Printer: emit.New(indent)} }

func (p *printer) In() { p.depth++; p.Printer.In() }

// Line prints one line (closure markers removed).
func (p *printer) Line(s string) { p.Printer.Line(flat(s)) }

// P prints its arguments as one line.
func (p *printer) P(args ...any) { p.Line(fmt.Sprint(args...)) }

// F prints one formatted line.
func (p *printer) F(format string, args ...any) { p.Line(fmt.Sprintf(format, args...)) }

// Closure bodies are marked in generated expressions so that a line too
// long for rustfmt's 100 columns can be broken the way rustfmt breaks it:
// the last closure's body moves into a block on its own lines.
const (
	bodyOpen  = "\x00"
	bodyClose = "\x01"
)

// Arguments of a call that rustfmt would break one per line when the line
// is too long, or the arguments wider than its fn_call_width (60), are
// marked too. (Calls whose one argument is itself a call are not marked:
// rustfmt lets that argument overflow instead.)
const (
	argsOpen  = "\x02"
	argsSep   = "\x03"
	argsClose = "\x04"
)

// call writes `fn(args)` with its arguments marked.
func call(fn string, args ...string) string {
	return fn + "(" + argsOpen + strings.Join(args, argsSep) + argsClose + ")"
}

// closure writes `|params| body` with its body marked.
func closure(params, body string) string {
	return "|" + params + "| " + bodyOpen + body + bodyClose
}

// splitArgs splits marked arguments at the separators of the outermost
// call (nested calls may be marked too).
func splitArgs(args string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case argsOpen[0]:
			depth++
		case argsClose[0]:
			depth--
		case argsSep[0]:
			if depth == 0 {
				out = append(out, args[start:i])
				start = i + 1
			}
		}
	}
	return append(out, args[start:])
}

// flat removes the closure markers.
func flat(s string) string {
	return strings.NewReplacer(bodyOpen, "", bodyClose, "", argsOpen, "", argsSep, ", ", argsClose, "").Replace(s)
}

// matchingClose is the index of the body close marker that matches the
// open marker at i, or -1.
func matchingClose(expr string, i int) int {
	if i < 0 {
		return -1
	}
	depth := 0
	for k := i; k < len(expr); k++ {
		switch expr[k] {
		case bodyOpen[0]:
			depth++
		case bodyClose[0]:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// wrapped prints prefix+expr+suffix on one line if it fits, otherwise with
// the outermost closure's body in a block: `f(x, |e| {` / body / `})`.
func (p *printer) wrapped(prefix, expr, suffix string) {
	line := flat(prefix + expr + suffix)
	if strings.HasPrefix(expr, "|") && len(line) > p.width() {
		// A closure (an argument on its own line) too long for the line:
		// its body goes into a block.
		if i := strings.Index(expr, bodyOpen); i >= 0 && matchingClose(expr, i) == len(expr)-1 {
			p.Line(prefix + expr[:i] + "{")
			p.In()
			p.wrapped("", expr[i+1:len(expr)-1], "")
			p.Out()
			p.Line("}" + suffix)
			return
		}
	}
	if a, b := strings.Index(expr, argsOpen), strings.LastIndex(expr, argsClose); a >= 0 && b > a && (len(line) > p.width() || len(flat(expr[a+1:b])) > 60) {
		p.Line(prefix + expr[:a])
		p.In()
		for _, arg := range splitArgs(expr[a+1 : b]) {
			p.wrapped("", arg, ",")
		}
		p.Out()
		p.Line(expr[b+1:] + suffix)
		return
	}
	i := strings.Index(expr, bodyOpen)
	j := matchingClose(expr, i)
	if i < 0 || j < 0 || strings.Trim(expr[j+1:], ")?") != "" {
		// No closure, or not a trailing one: leave the line as it is.
		p.Line(line)
		return
	}
	// rustfmt's fn_call_width: arguments wider than 60 columns make the
	// trailing closure's body a block.
	args := ""
	if k := strings.Index(expr, "("); k >= 0 && k < i {
		args = flat(expr[k+1 : j])
	}
	if len(line) <= p.width() && len(args) <= 60 {
		p.Line(line)
		return
	}
	p.Line(prefix + expr[:i] + "{")
	p.In()
	p.wrapped("", expr[i+1:j], "")
	p.Out()
	p.Line("}" + expr[j+1:] + suffix)
}
func (p *printer) Out() { p.depth--; p.Printer.Out() }

// Block prints open, body one level in, then close.
func (p *printer) Block(open, close string, body func()) {
	p.Line(open)
	p.In()
	body()
	p.Out()
	p.Line(close)
}

// Fn prints a function: on one line when it fits, otherwise with one
// parameter per line, as rustfmt does. ret may be empty.
func (p *printer) Fn(head string, params []string, ret string, body func()) {
	if ret != "" {
		ret = " -> " + ret
	}
	line := head + "(" + strings.Join(params, ", ") + ")" + ret + " {"
	if len(line) <= p.width() {
		p.Block(line, "}", body)
		return
	}
	p.Line(head + "(")
	p.In()
	for _, a := range params {
		p.Line(a + ",")
	}
	p.Out()
	p.Block(")"+ret+" {", "}", body)
}

// width is the columns left on the current line.
func (p *printer) width() int { return 100 - p.depth*len(indent) }

// file starts a generated Rust source file.
func (g *generator) file() *printer {
	p := newPrinter()
	p.P("// ", gen.Header(g.s))
	p.P()
	return p
}

func (g *generator) schemaFile() string { return filepath.Base(g.s.Path) }

func (g *generator) cargoToml() []byte {
	p := emit.New(indent)
	p.P("# ", gen.Header(g.s))
	p.P()
	p.P("[package]")
	p.F("name = %q", g.crate)
	p.P(`version = "0.1.0"`)
	p.P(`edition = "2021"`)
	// The oldest compiler the code builds with (slice::first_chunk, 1.77);
	// the tests' clippy run (incompatible_msrv) keeps it true.
	p.P(`rust-version = "1.77"`)
	p.F("description = %q", "SDP encoders and decoders generated from "+g.schemaFile())
	p.P("publish = false")
	p.P()
	p.P("[lib]")
	p.P(`path = "src/lib.rs"`)
	p.P()
	p.P("[dependencies]")
	return p.Bytes()
}

func (g *generator) rtRs() []byte {
	return []byte("// " + gen.Header(g.s) + "\n\n" + runtime)
}

func (g *generator) libRs() []byte {
	p := g.file()
	p.F("//! Encoders and decoders for `%s`, generated by sdp.", g.schemaFile())
	p.P("//!")
	p.P("//! - Owned types ([`", g.firstName(), "`], ...) with `decode`, `encode`,")
	p.P("//!   `encode_to_vec` and `encoded_size`.")
	p.P("//! - Borrowed views (`...Ref<'a>`) that decode without copying strings and")
	p.P("//!   arrays; `to_owned_value()` converts a view to its owned type.")
	if len(g.s.Structs) > 0 {
		p.P("//! - Messages: [`Message`], [`decode_message`], [`MessageReader`] for")
		p.P("//!   reading a stream of messages from any `std::io::Read`.")
	}
	p.P("//!")
	p.P("//! Decoding is strict and safe on untrusted input: it never panics and")
	p.P("//! reports a [`DecodeError`] with the byte offset of the offending value.")
	p.P()
	p.P("#![deny(unsafe_op_in_unsafe_fn)]")
	p.P()
	p.P("mod decode;")
	p.P("mod encode;")
	if len(g.s.Structs) > 0 {
		p.P("mod messages;")
	}
	p.P("#[doc(hidden)]")
	p.P("pub mod rt;")
	p.P("mod types;")
	if g.hasViews() {
		p.P("mod views;")
	}
	p.P()
	if len(g.s.Structs) > 0 {
		p.P("pub use messages::*;")
	}
	p.P("pub use rt::{")
	p.In()
	p.P("split_message, DecodeError, DecodeErrorKind, DecodeOptions, DecodeResult, EncodeError,")
	p.P("EnumValueError, HelloEntry, LeIter, LeSlice, ListIter, ListView, ReadFn, Reader, Scalar,")
	p.P("SdpMessage, SdpType, StreamError, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_SIZE, HELLO_TYPE_ID,")
	p.P("MESSAGE_HEADER_SIZE, MESSAGE_MAGIC,")
	p.Out()
	p.P("};")
	p.P("pub use types::*;")
	if g.hasViews() {
		p.P("pub use views::*;")
	}
	return p.Bytes()
}

// module renders a source file: header, module docs, the imports the body
// uses, then the body.
func (g *generator) module(docs []string, imports []string, body func(p *printer)) []byte {
	b := newPrinter()
	body(b)
	text := string(b.Bytes())
	p := g.file()
	for _, d := range docs {
		if d == "" {
			p.P("//!")
		} else {
			p.P("//! ", d)
		}
	}
	p.P()
	for _, imp := range imports {
		used := true
		switch imp {
		case "crate::rt":
			used = strings.Contains(text, "rt::")
		case "crate::types::*":
			used = len(g.s.Decls) > 0
		case "crate::views::*":
			used = false
			for _, d := range g.s.Decls {
				v, ok := g.view[d]
				if ok && (g.hasView[d] && strings.Contains(text, v+"::") || strings.Contains(text, v+"<")) {
					used = true
				}
			}
			// The list element readers and hints of views.rs, which the
			// owned decoder's field locator reads lists with.
			g.findComposites()
			for _, v := range g.compositeList {
				used = used || strings.Contains(text, g.composite[elemKey(v)]+"()")
			}
			for _, v := range g.hintList {
				used = used || strings.Contains(text, g.hints[elemKey(v)])
			}
		}
		if used {
			p.P("use ", imp, ";")
		}
	}
	p.P()
	p.Line(strings.TrimRight(text, "\n"))
	return p.Bytes()
}

// hasViews: the schema has structs or unions, so the crate has views.rs.
func (g *generator) hasViews() bool { return len(g.s.Structs)+len(g.s.Unions) > 0 }

// firstName names the first declared type, for the crate docs.
func (g *generator) firstName() string {
	if len(g.s.Decls) == 0 {
		return ""
	}
	return g.name[g.s.Decls[0]]
}

// structLit prints `head { fields }tail` the way rustfmt does: on one line
// when the fields fit in rustfmt's struct literal width (18 columns) and the
// line in 100 columns, otherwise one field per line.
func structLit(p *printer, head string, fields []string, tail string, width int) {
	if len(fields) == 0 {
		p.Line(head + " {}" + tail)
		return
	}
	body := flat(strings.Join(fields, ", "))
	line := flat(head + " { " + body + " }" + tail)
	if len(body) <= width && len(line) <= p.width() {
		p.Line(line)
		return
	}
	p.Line(head + " {")
	p.In()
	for _, f := range fields {
		p.wrapped("", f, ",")
	}
	p.Out()
	p.Line("}" + tail)
}
