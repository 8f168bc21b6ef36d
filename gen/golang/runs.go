package golang

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/schema"
)

// A run is a sequence of consecutive fields whose bytes have a fixed layout:
// scalars, enums and structs made only of those. Decoders check the run's
// whole size (and its bools, enums and nesting depth) once and then read
// every leaf at a constant offset; encoders extend the buffer once and put
// every leaf at its offset. When the quick check fails, the decoder falls
// back to reading field by field, which finds and reports the exact error.

// leaf is one scalar or enum of a run, at a byte offset from the run's start.
type leaf struct {
	t   *schema.Type // scalar kind or EnumRef
	x   string       // Go expression of the value
	off int
	ctx string // schema name for encode errors
}

// inRun reports whether a field type can be part of a run.
func inRun(t *schema.Type) bool {
	switch {
	case t.Kind.IsScalar(), t.Kind == schema.EnumRef:
		return true
	case t.Kind == schema.StructRef:
		for _, f := range t.Struct.Fields {
			if !inRun(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

// flatten appends the leaves of x (of type t) at offset off and returns the
// offset after it and the nesting depth it adds.
func (g *generator) flatten(leaves []leaf, t *schema.Type, x string, off int, ctx string) ([]leaf, int, int) {
	if t.Kind != schema.StructRef {
		return append(leaves, leaf{t: t, x: x, off: off, ctx: ctx}), off + t.MinSize(), 0
	}
	depth := 0
	for _, f := range t.Struct.Fields {
		var d int
		leaves, off, d = g.flatten(leaves, f.Type, x+"."+fieldName(f), off, t.Struct.Name+"."+f.Name)
		if d > depth {
			depth = d
		}
	}
	return leaves, off, depth + 1
}

// run is a group of fields decoded and encoded together; a single field
// that is not part of a run has a nil leaves.
type run struct {
	fields []field
	leaves []leaf
	size   int
	depth  int // extra nesting below the enclosing value
}

// runs groups fields: consecutive run-able fields with at least one leaf
// between them form a run (a single scalar too: the run's inlined bounds
// check is cheaper than a call to the decoder's u64 and the others); every
// other field stands alone.
func (g *generator) runs(recv string, fields []field, ctx string) []run {
	var out []run
	var cur []field
	flush := func() {
		if len(cur) == 0 {
			return
		}
		r := run{fields: cur}
		for _, f := range cur {
			var d int
			r.leaves, r.size, d = g.flatten(r.leaves, f.t, recv+"."+f.goName, r.size, joinPath(ctx, f.name))
			if d > r.depth {
				r.depth = d
			}
		}
		if len(r.leaves) == 0 || r.size == 0 {
			for _, f := range cur {
				out = append(out, run{fields: []field{f}})
			}
		} else {
			out = append(out, r)
		}
		cur = nil
	}
	for _, f := range fields {
		if inRun(f.t) {
			cur = append(cur, f)
			continue
		}
		flush()
		out = append(out, run{fields: []field{f}})
	}
	flush()
	return out
}

// readLeaf is the expression reading a leaf from the run's bytes b.
func (g *generator) readLeaf(l leaf) string {
	k := l.t.Kind
	enum := ""
	if k == schema.EnumRef {
		enum = g.names.decl[l.t.Enum]
		k = l.t.Enum.Base
	}
	at := fmt.Sprintf("b[%d:]", l.off)
	var x string
	switch k {
	case schema.Bool:
		return fmt.Sprintf("b[%d] == 1", l.off)
	case schema.U8:
		x = fmt.Sprintf("b[%d]", l.off)
	case schema.I8:
		x = fmt.Sprintf("int8(b[%d])", l.off)
	case schema.U16, schema.I16:
		x = "binary.LittleEndian.Uint16(" + at + ")"
	case schema.U32, schema.I32, schema.F32:
		x = "binary.LittleEndian.Uint32(" + at + ")"
	case schema.U64, schema.I64, schema.F64:
		x = "binary.LittleEndian.Uint64(" + at + ")"
	}
	if k.Size() > 1 {
		g.use("binary.dec")
	}
	switch k {
	case schema.I16, schema.I32, schema.I64:
		x = scalarTypes[k] + "(" + x + ")"
	case schema.F32:
		g.use("math.dec")
		x = "math.Float32frombits(" + x + ")"
	case schema.F64:
		g.use("math.dec")
		x = "math.Float64frombits(" + x + ")"
	}
	if enum != "" {
		x = enum + "(" + x + ")"
	}
	return x
}

// decodeRun emits a run's quick path and its field-by-field fallback.
func (g *generator) decodeRun(p *emit.Printer, recv string, r run) {
	// len(b) == size (span returns exactly size bytes or nil) lets the
	// compiler drop the bounds checks of the constant offsets below.
	cond := fmt.Sprintf("b := d.span(%d); len(b) == %d", r.size, r.size)
	if r.depth > 0 {
		cond += fmt.Sprintf(" && d.depth+%d <= d.maxDepth", r.depth)
	}
	for _, l := range r.leaves {
		switch {
		case l.t.Kind == schema.Bool:
			cond += fmt.Sprintf(" && b[%d] <= 1", l.off)
		case l.t.Kind == schema.EnumRef:
			cond += " && " + g.readLeaf(l) + ".IsValid()"
		}
	}
	p.Block("if "+cond+" {", "} else {", func() {
		for _, l := range r.leaves {
			p.F("%s = %s", l.x, g.readLeaf(l))
		}
		p.F("d.off += %d", r.size)
	})
	p.In()
	g.decodeFieldsSlow(p, recv, r.fields)
	p.Out()
	p.P("}")
}

// encodeRun emits the encoding of a run: one extension of b, then every leaf
// at its offset.
func (g *generator) encodeRun(p *emit.Printer, r run, name string) {
	p.F("b, %s := extend(b, %d)", name, r.size)
	g.putLeaves(p, r.leaves, name)
}

// putLeaves emits the writes of leaves into name, a slice that holds their
// run's bytes.
func (g *generator) putLeaves(p *emit.Printer, leaves []leaf, name string) {
	for _, l := range leaves {
		k := l.t.Kind
		x := l.x
		if k == schema.EnumRef {
			p.F("%s.validate(e)", x)
			x = scalarTypes[l.t.Enum.Base] + "(" + enumWire(l.t.Enum, x) + ")"
			k = l.t.Enum.Base
		}
		at := fmt.Sprintf("%s[%d:]", name, l.off)
		if k.Size() > 1 {
			g.use("binary.enc")
		}
		switch k {
		case schema.Bool:
			p.Block("if "+x+" {", "} else {", func() { p.F("%s[%d] = 1", name, l.off) })
			p.In()
			p.F("%s[%d] = 0", name, l.off)
			p.Out()
			p.P("}")
		case schema.U8:
			p.F("%s[%d] = %s", name, l.off, x)
		case schema.I8:
			p.F("%s[%d] = byte(%s)", name, l.off, x)
		case schema.U16:
			p.F("binary.LittleEndian.PutUint16(%s, %s)", at, x)
		case schema.U32:
			p.F("binary.LittleEndian.PutUint32(%s, %s)", at, x)
		case schema.U64:
			p.F("binary.LittleEndian.PutUint64(%s, %s)", at, x)
		case schema.I16:
			p.F("binary.LittleEndian.PutUint16(%s, uint16(%s))", at, x)
		case schema.I32:
			p.F("binary.LittleEndian.PutUint32(%s, uint32(%s))", at, x)
		case schema.I64:
			p.F("binary.LittleEndian.PutUint64(%s, uint64(%s))", at, x)
		case schema.F32:
			g.use("math.enc")
			p.F("binary.LittleEndian.PutUint32(%s, math.Float32bits(%s))", at, x)
		case schema.F64:
			g.use("math.enc")
			p.F("binary.LittleEndian.PutUint64(%s, math.Float64bits(%s))", at, x)
		}
	}
}

// flatFields reports whether a struct's fields are all of fixed layout or
// strings, with at least one string: encodeFlat writes such a struct.
func flatFields(fields []field) bool {
	strs := 0
	for _, f := range fields {
		switch {
		case f.t.Kind == schema.String:
			strs++
		case !inRun(f.t):
			return false
		}
	}
	return strs > 0
}

// encodeFlat emits the encoding of a struct whose fields flatFields
// accepts: one extension of b by the struct's whole size, then every field
// at its offset in it, constant up to the first string, and from then on
// o, the offset after the last string.
func (g *generator) encodeFlat(p *emit.Printer, recv string, fields []field, ctx string) {
	size := fmt.Sprint(0)
	fixed := 0
	for _, f := range fields {
		if f.t.Kind == schema.String {
			fixed += 4
			size += fmt.Sprintf("+len(%s.%s)", recv, f.goName)
			continue
		}
		fixed += f.t.MinSize()
	}
	size = fmt.Sprint(fixed) + size[1:]
	p.F("b, r := extend(b, %s)", size)
	rs := g.runs(recv, fields, ctx)
	static := 0      // the offset while it is constant
	dynamic := false // whether o holds the offset
	for i, r := range rs {
		last := i == len(rs)-1
		f := r.fields[0]
		if r.leaves == nil && f.t.Kind == schema.String {
			at := fmt.Sprintf("r[%d:]", static)
			if dynamic {
				at = "r[o:]"
			}
			call := fmt.Sprintf("putString(%s, %s.%s, e, %q)", at, recv, f.goName, joinPath(ctx, f.name))
			switch {
			case last:
				p.P(call)
			case dynamic:
				p.P("o += ", call)
			default:
				if static == 0 {
					p.P("o := ", call)
				} else {
					p.F("o := %d + %s", static, call)
				}
				dynamic = true
			}
			continue
		}
		leaves := r.leaves
		n := r.size
		if leaves == nil {
			leaves, n, _ = g.flatten(nil, f.t, recv+"."+f.goName, 0, joinPath(ctx, f.name))
		}
		if n == 0 {
			continue
		}
		if !dynamic {
			for j := range leaves {
				leaves[j].off += static
			}
			g.putLeaves(p, leaves, "r")
			static += n
			continue
		}
		name := fmt.Sprintf("w%d", i)
		p.F("%s := r[o : o+%d]", name, n)
		g.putLeaves(p, leaves, name)
		if !last {
			p.F("o += %d", n)
		}
	}
}
