package rust

import (
	"fmt"

	"sdp/gen"
	"sdp/schema"
)

// Plain structs (gen.Plain: numbers only, no padding) are #[repr(C)] and
// implement rt::Plain, so that arrays of them are encoded and decoded with
// one copy on little-endian hosts (issue #15); their layout is asserted at
// compile time. Other hosts, and a bulk read the input or the depth limit
// does not allow, go element by element.

// isPlain reports a plain struct.
func isPlain(st *schema.Struct) bool {
	_, ok := gen.PlainStruct(st)
	return ok
}

// plainArray reports an array copied in one piece (gen.PlainArray).
func plainArray(t *schema.Type) bool {
	_, ok := gen.PlainArray(t)
	return ok
}

// plainImpl emits a plain struct's rt::Plain implementation and the
// compile-time checks of the layout it relies on: the size and each field's
// offset (a nested struct checks its own fields in its own block).
func (g *generator) plainImpl(p *printer, st *schema.Struct, rt string) {
	l, _ := gen.PlainStruct(st)
	name := g.name[st]
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
		off := 0
		for _, f := range st.Fields {
			p.F("assert!(offset_of!(%s, %s) == %d);", name, fieldName(f), off)
			off += f.Type.MinSize()
		}
	})
}

// plainRead is the owned read of a plain array t (elements at depth+1).
func (g *generator) plainRead(t *schema.Type, depth string) string {
	read := g.ownedCallable(t.Elem, depth)
	switch {
	case t.Kind == schema.Array:
		return fmt.Sprintf("r.plain_vec(%s + 1, %s)", depth, read)
	case g.boxedArray(t):
		return fmt.Sprintf("r.boxed_plain_array(%s + 1, %s)", depth, read)
	}
	return fmt.Sprintf("r.plain_array(%s + 1, %s)", depth, read)
}

// plainAssign reads a plain array t into dst, reusing its storage.
func (g *generator) plainAssign(t *schema.Type, dst, depth string) string {
	read := g.ownedCallable(t.Elem, depth)
	if t.Kind == schema.Array {
		return fmt.Sprintf("r.plain_vec_assign(%s, %s + 1, %s)", dst, depth, read)
	}
	return fmt.Sprintf("r.plain_array_assign(%s, %s + 1, %s)", dst, depth, read)
}
