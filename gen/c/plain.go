package c

import (
	"fmt"
	"sort"
	"strings"

	"sdp/gen"
	"sdp/gen/plan"
	"sdp/schema"
)

// Arrays of plain structs (gen.Plain: only numbers, no padding) are copied
// in one piece on little-endian hosts, where such a struct's memory is its
// wire encoding; the layout is asserted when the code is compiled. Other
// hosts (and PFX_LITTLE_ENDIAN=0) encode and decode element by element.

// usePlain records that the code uses the array functions of the element
// of v, a PlainArray or FixedPlain.
func (g *generator) usePlain(v *plan.Value) { g.use("plain:" + v.Elem.Decl.Name()) }

// plainFuncs prints the array functions of the plain structs in use.
func (g *generator) plainFuncs() {
	var names []string
	for _, s := range g.s.Structs {
		if g.uses["plain:"+s.Name] {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		st := g.s.Lookup(n).(*schema.Struct)
		g.plainArrayFuncs(st, *g.pl.Of(st).Plain)
	}
}

func (g *generator) plainArrayFuncs(st *schema.Struct, l gen.PlainLayout) {
	p, name, le := g.c, g.typeName(st), g.up+"_LITTLE_ENDIAN"
	p.P("/*")
	p.F(" * %s: on little-endian hosts its memory is its wire encoding", name)
	p.F(" * (%d bytes, no padding: checked here), and arrays of it are copied in", l.Size)
	p.P(" * one piece.")
	p.P(" */")
	p.Directive("#if " + le)
	p.F("typedef char %s_is_plain_[(sizeof(%s) == %d", name, name, l.Size)
	for _, f := range l.Fields {
		path := make([]string, len(f.Path))
		for i, pf := range f.Path {
			path[i] = memberName(pf.Name)
		}
		p.F("        && offsetof(%s, %s) == %d", name, strings.Join(path, "."), f.Offset)
	}
	p.P("        ) ? 1 : -1];")
	p.Directive("#endif")
	p.P()
	p.F("/* Writes the n values at v; returns the end. */")
	p.Block(fmt.Sprintf("static uint8_t* %s_puts_(uint8_t* p, const %s* v, size_t n) {", name, name), "}", func() {
		p.Directive("#if " + le)
		p.Block("if (n != 0) {", "}", func() { p.F("memcpy(p, v, n * %d);", l.Size) })
		p.F("return p + n * %d;", l.Size)
		p.Directive("#else")
		p.P("size_t i;")
		p.Block("for (i = 0; i < n; i++) {", "}", func() { p.F("p = %s_write_(&v[i], p);", name) })
		p.P("return p;")
		p.Directive("#endif")
	})
	p.P()
	p.P("/*")
	p.P(" * Reads n values at the given depth into out: in one copy when the input")
	p.P(" * holds them and the depth limit allows their nesting, else one by one")
	p.P(" * (which reports the exact error). NULL after an error.")
	p.P(" */")
	p.Block(fmt.Sprintf("static const uint8_t* %s_gets_(%s_dec_* d, const uint8_t* p, %s* out, size_t n, uint32_t depth) {",
		name, g.pkg, name), "}", func() {
		p.P("size_t i;")
		p.Directive("#if " + le)
		cond := fmt.Sprintf("(size_t)(d->end - p) / %d >= n", l.Size)
		if l.Depth > 1 {
			cond = fmt.Sprintf("depth + %du <= d->max_depth && %s", l.Depth-1, cond)
		} else {
			cond = "depth <= d->max_depth && " + cond
		}
		p.Block(fmt.Sprintf("if (%s) {", cond), "}", func() {
			p.Block("if (n != 0) {", "}", func() { p.F("memcpy(out, p, n * %d);", l.Size) })
			p.F("return p + n * %d;", l.Size)
		})
		p.Directive("#endif")
		p.Block("for (i = 0; i < n; i++) {", "}", func() {
			p.F("p = %s_read_(d, p, &out[i], depth);", name)
			g.use("in_elem_")
			p.Block("if (p == NULL) {", "}", func() { p.F("return %s_in_elem_(d, i);", g.pkg) })
		})
		p.P("return p;")
	})
	p.P()
}
