// Package emit is the line printer every backend writes code with: one call
// per line, indentation handled here, so backends never build code by string
// concatenation across lines.
package emit

import (
	"bytes"
	"fmt"
	"strings"
)

// Printer accumulates generated source.
type Printer struct {
	buf    bytes.Buffer
	depth  int
	indent string
}

// New returns a printer that indents with unit ("\t", "    ", ...).
func New(unit string) *Printer { return &Printer{indent: unit} }

// P prints one line: its arguments formatted with fmt.Sprint and joined
// without separators, at the current indentation. P() prints an empty line.
func (p *Printer) P(args ...any) {
	var line strings.Builder
	for _, a := range args {
		fmt.Fprint(&line, a)
	}
	p.Line(line.String())
}

// F prints one line formatted with fmt.Sprintf.
func (p *Printer) F(format string, args ...any) { p.Line(fmt.Sprintf(format, args...)) }

// Line prints s at the current indentation. A multi-line s is indented line
// by line. Empty lines carry no trailing white space.
func (p *Printer) Line(s string) {
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			for i := 0; i < p.depth; i++ {
				p.buf.WriteString(p.indent)
			}
			p.buf.WriteString(l)
		}
		p.buf.WriteByte('\n')
	}
}

// Directive prints s at column 0 whatever the indentation, as C and C++
// preprocessor directives are written.
func (p *Printer) Directive(s string) {
	p.buf.WriteString(s)
	p.buf.WriteByte('\n')
}

// In indents the following lines one level more.
func (p *Printer) In() { p.depth++ }

// Out undoes one In.
func (p *Printer) Out() {
	if p.depth == 0 {
		panic("emit: Out without In")
	}
	p.depth--
}

// Block prints open, runs body one level in, then prints close:
// p.Block("fn f() {", "}", func() { ... }).
func (p *Printer) Block(open, close string, body func()) {
	p.Line(open)
	p.In()
	body()
	p.Out()
	p.Line(close)
}

// Comment prints each line of text behind prefix ("// ", "/// ", " * ").
// Empty lines get the prefix without its trailing space.
func (p *Printer) Comment(prefix string, lines []string) {
	for _, l := range lines {
		if l == "" {
			p.Line(strings.TrimRight(prefix, " "))
		} else {
			p.Line(prefix + l)
		}
	}
}

// Bytes returns the source printed so far, with runs of blank lines folded
// to one and no blank line at the end.
func (p *Printer) Bytes() []byte {
	out := p.buf.Bytes()
	for bytes.Contains(out, []byte("\n\n\n")) {
		out = bytes.ReplaceAll(out, []byte("\n\n\n"), []byte("\n\n"))
	}
	out = bytes.TrimRight(out, "\n")
	return append(append([]byte{}, out...), '\n')
}

// WithLineNumbers returns src with each line numbered, for error messages
// about generated code that does not format or compile.
func WithLineNumbers(src []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, l)
	}
	return b.String()
}
