package swift

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// Plain structs (plan.Decl.Plain: numbers only, no padding) may be laid out in
// memory exactly as they are encoded, so that arrays of them are encoded
// and decoded with one copy on little-endian hosts (issue #15). Swift does
// not promise a struct's layout, so each plain struct checks its own once,
// at run time (_sdpPlain, a lazily initialized static): size, stride and
// every field's offset, and the same check of the plain structs it holds.
// The runtime takes the bulk path only where that holds, on little-endian
// hosts, and when the module is not compiled with SDP_PORTABLE; otherwise,
// and for a bulk read the input or the depth limit does not allow, it goes
// element by element.

// plainCheck prints a plain struct's _sdpPlain: whether its memory layout
// is its encoding.
func (g *generator) plainCheck(p *emit.Printer, st *schema.Struct) {
	pd := g.plan.Of(st)
	name := g.typeName(st)
	conds := []string{
		fmt.Sprintf("MemoryLayout<%s>.size == %d", name, pd.Plain.Size),
		fmt.Sprintf("MemoryLayout<%s>.stride == %d", name, pd.Plain.Size),
	}
	// The plain structs it holds check their own fields, once each.
	var nested []string
	seen := map[*plan.Decl]bool{} // lookups only
	for _, f := range pd.Fields {
		conds = append(conds, fmt.Sprintf("MemoryLayout<%s>.offset(of: \\%s.%s) == %d", name, name, member(f.Field.Name), f.Offset))
		if f.Value.Op == plan.Struct && !seen[f.Value.Decl] {
			seen[f.Value.Decl] = true
			nested = append(nested, g.declName(f.Value)+"._sdpPlain")
		}
	}
	conds = append(conds, nested...)
	p.F("/// Whether `%s` is laid out in memory as it is encoded (size, stride", st.Name)
	p.P("/// and the offset of every field, checked once at run time: Swift does")
	p.P("/// not promise a struct's layout). Arrays of it are then encoded and")
	p.P("/// decoded with one copy on little-endian hosts.")
	p.P("static let _sdpPlain: Bool =")
	p.In()
	for i, c := range conds {
		if i > 0 {
			c = "&& " + c
		}
		p.P(c)
	}
	p.Out()
}

// plainRead is the owned read of v, a plain array (elements at depth + 1;
// the deepest nested value at depth + the element layout's Depth).
func (g *generator) plainRead(v *plan.Value, depth string) string {
	l := v.Plain
	closure := "{ (r: inout _SDPReader) throws(DecodeError) in " + g.readExpr(v.Elem, depth) + " }"
	args := fmt.Sprintf("size: %d, deepest: %s &+ %d, plain: %s._sdpPlain) %s", l.Size, depth, l.Depth, g.declName(v.Elem), closure)
	if v.Op == plan.PlainArray {
		return "try r.plainArray(" + args
	}
	return fmt.Sprintf("try r.plainElements(%d, %s", v.Len, args)
}

// plainInto decodes v, a plain array, into lv, keeping its capacity.
func (g *generator) plainInto(v *plan.Value, lv, depth string) string {
	l := v.Plain
	closure := "{ (r: inout _SDPReader) throws(DecodeError) in " + g.readExpr(v.Elem, depth) + " }"
	args := fmt.Sprintf("size: %d, deepest: %s &+ %d, plain: %s._sdpPlain, %s)", l.Size, depth, l.Depth, g.declName(v.Elem), closure)
	if v.Op == plan.PlainArray {
		return fmt.Sprintf("try r.plainArray(into: &%s, %s", lv, args)
	}
	return fmt.Sprintf("try r.plainElements(into: &%s, %d, %s", lv, v.Len, args)
}

// plainWrite writes x, a plain array coded as v; e names an element.
func (g *generator) plainWrite(v *plan.Value, x, e string) string {
	name := g.declName(v.Elem)
	each := fmt.Sprintf("{ w, %s in %s._sdpWrite(at: %s, &w) }", e, name, e)
	if v.Op == plan.PlainArray {
		return fmt.Sprintf("w.plainStructs(%s, plain: %s._sdpPlain) %s", x, name, each)
	}
	return fmt.Sprintf("w.fixedPlainStructs(%s, %d, plain: %s._sdpPlain) %s", x, v.Len, name, each)
}
