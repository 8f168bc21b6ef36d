package golang

import (
	"fmt"
	"sort"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// Plain structs (gen.Plain) hold only fixed-size numbers (no bool, no enum),
// directly or in nested plain structs, laid out with no padding under
// natural alignment. In Go's memory such a struct is its wire encoding on a little-endian host
// (Go keeps field order and pads only for alignment), so arrays of it are
// copied in one piece there, like numeric arrays (issue #15). The _le.go
// file asserts the layout at compile time; other hosts, and the
// sdp_portable build tag, use element-by-element code.

// usePlain records that the code copies arrays of the plain struct elem
// and returns the helpers' name part.
func (g *generator) usePlain(elem *plan.Value) string {
	g.use("plain." + elem.Decl.Name())
	return "Plain" + g.names.decl[elem.Decl.Struct]
}

// plainUsed lists the plain structs whose array helpers the code uses,
// sorted by name.
func (g *generator) plainUsed() []*schema.Struct {
	var out []*schema.Struct
	for _, st := range g.s.Structs {
		if g.uses["plain."+st.Name] {
			out = append(out, st)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// decodeArrayElems emits the decoding of the elements of x, an array coded
// as v whose storage already has its length (a []T resized to the count, or
// a [N]T). For plain structs: one copy when the input holds it and the
// nesting fits, else the element loop, which reports the exact error.
func (g *generator) decodeArrayElems(p *emit.Printer, v *plan.Value, x, i string, lvl int) {
	if v.Plain == nil {
		g.decodeElems(p, v.Elem, x, i, lvl)
		return
	}
	name := g.usePlain(v.Elem)
	p.F("if n := len(%s); d.depth+%d <= d.maxDepth && len(d.b)-d.off >= n*%d {", x, v.Plain.Depth, v.Plain.Size)
	p.F("\tread%ss(%s[:], d.b[d.off:])", name, sel(x))
	p.F("\td.off += n * %d", v.Plain.Size)
	p.P("} else {")
	p.In()
	g.decodeElems(p, v.Elem, x, i, lvl)
	p.Out()
	p.P("}")
}

// emitPlainBulk writes the array helpers of the plain structs in use for
// the _le.go (little) or _be.go file.
func (g *generator) emitPlainBulk(p *emit.Printer, little bool) {
	for _, st := range g.plainUsed() {
		info := g.plan.Of(st).Plain
		typ := g.names.decl[st]
		name := "Plain" + typ
		if little {
			p.F("// %s's memory is its wire encoding: %d bytes, no padding (checked here at", typ, info.Size)
			p.P("// compile time).")
			p.F("var _ = [1]struct{}{}[unsafe.Sizeof(%s{})-%d]", typ, info.Size)
			p.P()
		}
		emitArrayCopies(p, name, typ, "the encoding of every element of s", "encoded elements", info.Size, little, func() {
			p.P("var e encoder")
			p.Block("for i := range s {", "}", func() { p.P("b = s[i].encode(b, &e)") })
			p.P("return b")
		}, func() {
			p.F("d := decoder{b: src, maxDepth: %d}", info.Depth)
			p.Block("for i := range dst {", "}", func() { p.P("dst[i].decode(&d)") })
		})
	}
}

// emitArrayCopies writes append<name>s, read<name>s and new<name>s for slices of typ
// whose elements are size bytes: on little-endian hosts one copy through
// unsafe, elsewhere the element-by-element bodies appendBody and readBody.
func emitArrayCopies(p *emit.Printer, name, typ, what, elems string, size int, little bool, appendBody, readBody func()) {
	p.F("// append%ss appends %s.", name, what)
	p.Block(fmt.Sprintf("func append%ss(b []byte, s []%s) []byte {", name, typ), "}", func() {
		if !little {
			appendBody()
			return
		}
		p.P("if len(s) == 0 {")
		p.P("\treturn b")
		p.P("}")
		p.F("return append(b, unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*%d)...)", size)
	})
	p.P()
	p.F("// read%ss fills dst from src, which holds at least len(dst) %s.", name, elems)
	p.Block(fmt.Sprintf("func read%ss(dst []%s, src []byte) {", name, typ), "}", func() {
		if !little {
			readBody()
			return
		}
		p.P("if len(dst) == 0 {")
		p.P("\treturn")
		p.P("}")
		p.F("copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(dst)*%d), src)", size)
	})
	p.P()
	p.F("// new%ss returns a new slice of the n > 0 %s at the start of src.", name, elems)
	if little {
		p.P("// append allocates its bytes without zeroing what it then copies over, so")
		p.P("// they are written once (make would clear them first); a heap block of a")
		p.F("// multiple of %d bytes is aligned for %s.", size, typ)
	}
	p.Block(fmt.Sprintf("func new%ss(src []byte, n int) []%s {", name, typ), "}", func() {
		if !little {
			p.F("s := make([]%s, n)", typ)
			p.F("read%ss(s, src)", name)
			p.P("return s")
			return
		}
		p.F("b := append([]byte(nil), src[:n*%d]...)", size)
		p.F("return unsafe.Slice((*%s)(unsafe.Pointer(&b[0])), n)", typ)
	})
	p.P()
}
