// Package c is the C backend: one C99 header and one source file per schema,
// depending only on the C standard library. Decoded values live in a
// caller-provided arena; every identifier carries the package prefix.
package c

import (
	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("c", Generate) }

// Generate writes <pkg>.h and <pkg>.c.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g, err := newGenerator(s, opt)
	if err != nil {
		return nil, err
	}
	return []gen.File{
		{Path: g.pkg + ".h", Content: g.header()},
		{Path: g.pkg + ".c", Content: g.source()},
	}, nil
}

// generator holds the names chosen for one schema and the printers.
type generator struct {
	s   *schema.Schema
	pl  *plan.Plan // what the size, write and read functions print
	pkg string     // identifier prefix, snake case: "plugins"
	up  string     // macro prefix: "PLUGINS"

	base    map[schema.Decl]string // a declaration's snake name after escaping
	claimed map[string]bool        // every global identifier the generated code defines

	helpers     map[string]*helper // composite types by mangled key
	helperOrder []*helper

	uses map[string]bool // runtime helpers the source file calls

	zero map[*plan.Decl]bool // zeroDecl's memo

	h *emit.Printer
	c *emit.Printer
}

// helper is a generated composite type: a slice ([]T), an optional (?T),
// or a fixed array ([N]T) stored behind a pointer (as the element of a slice
// or a boxed optional), wrapped in a struct so that it can be declared
// before its element type is complete.
type helper struct {
	name string
	v    *plan.Value
}

func newGenerator(s *schema.Schema, opt gen.Options) (*generator, error) {
	g := &generator{
		s:       s,
		pl:      plan.Build(s),
		base:    map[schema.Decl]string{},
		claimed: map[string]bool{},
		helpers: map[string]*helper{},
		uses:    map[string]bool{},
		zero:    map[*plan.Decl]bool{},
	}
	g.pkg = packagePrefix(opt.PackageName(s))
	g.up = upper(g.pkg)
	if err := g.assignNames(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *generator) use(name string) { g.uses[name] = true }
