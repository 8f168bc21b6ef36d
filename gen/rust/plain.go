package rust

import (
	"fmt"

	"sdp/gen/plan"
)

// Plain structs (the plan's Plain: numbers only, no padding) are
// #[repr(C)] and implement rt::Plain, so that arrays of them are encoded and
// decoded with one copy on little-endian hosts (issue #15); their layout is
// asserted at compile time. Other hosts, and a bulk read the input or the depth limit
// does not allow, go element by element.

// plainImpl emits a plain struct's rt::Plain implementation and the
// compile-time checks of the layout it relies on: the size and each field's
// offset (a nested struct checks its own fields in its own block).
func (g *generator) plainImpl(p *printer, pd *plan.Decl, rt string) {
	l := pd.Plain
	name := g.name[pd.Decl]
	p.F("// SAFETY: `%s` is `#[repr(C)]`, holds only numbers (and structs of", name)
	p.P("// numbers) at the offsets of its encoding, with no padding: checked below.")
	p.Block("unsafe impl "+rt+"::Plain for "+name+" {", "}", func() {
		p.F("const SIZE: usize = %d;", l.Size)
		p.F("const DEPTH: u32 = %d;", l.Depth)
		p.P()
		p.Block("fn put_plain(&self, out: &mut "+stdVec+"<u8>) {", "}", func() {
			p.P("self.encode_raw(out);")
		})
	})
	p.P()
	p.Block("const _: () = {", "};", func() {
		p.P("use ::core::mem::{offset_of, size_of};")
		p.F("assert!(size_of::<%s>() == %d);", name, l.Size)
		for _, f := range pd.Fields {
			p.F("assert!(offset_of!(%s, %s) == %d);", name, fieldName(f.Field), f.Offset)
		}
	})
}

// plainRead is the owned read of a plain array v (elements at depth+1).
func (g *generator) plainRead(v *plan.Value, depth string) string {
	read := g.ownedCallable(v.Elem, depth)
	switch {
	case v.Op == plan.PlainArray:
		return fmt.Sprintf("r.plain_vec(%s + 1, %s)", depth, read)
	case g.boxed(v):
		return fmt.Sprintf("r.boxed_plain_array(%s + 1, %s)", depth, read)
	}
	return fmt.Sprintf("r.plain_array(%s + 1, %s)", depth, read)
}

// plainAssign reads a plain array v into dst, reusing its storage.
func (g *generator) plainAssign(v *plan.Value, dst, depth string) string {
	read := g.ownedCallable(v.Elem, depth)
	if v.Op == plan.PlainArray {
		return fmt.Sprintf("r.plain_vec_assign(%s, %s + 1, %s)", dst, depth, read)
	}
	return fmt.Sprintf("r.plain_array_assign(%s, %s + 1, %s)", dst, depth, read)
}
