package golang

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// A run is a sequence of consecutive fields whose bytes have a fixed layout:
// scalars, enums and structs made only of those. Decoders check the run's
// whole size (and its bools, enums and nesting depth) once and then read
// every leaf at a constant offset; encoders extend the buffer once and put
// every leaf at its offset. When the quick check fails, the decoder falls
// back to reading field by field, which finds and reports the exact error.

// leaf is one scalar or enum of a run (a plan.Leaf) with its Go
// expression.
type leaf struct {
	v   *plan.Value // Scalar or Enum
	x   string      // Go expression of the value
	off int
	ctx string // schema name for encode errors
}

// run is a step of the plan (plan.Step) with its fields' Go names: a group
// of fields decoded and encoded together, or a single field that is not
// part of a run (nil leaves).
type run struct {
	fields []field
	leaves []leaf
	size   int
	depth  int // extra nesting below the enclosing value
}

// runs turns the plan's steps over fs into runs whose leaves are Go
// expressions below recv; ctx is the schema name of the fields' owner.
func (g *generator) runs(recv string, fs fields, ctx string) []run {
	var out []run
	i := 0
	for _, st := range fs.steps {
		r := run{fields: fs.list[i : i+len(st.Fields)]}
		i += len(st.Fields)
		if st.Run != nil {
			r.leaves = g.leaves(recv, r.fields[0], st.Run.Leaves, 0, ctx)
			r.size, r.depth = st.Run.Size, st.Run.Depth
		}
		out = append(out, r)
	}
	return out
}

// leaves names the plan's leaves as Go expressions below recv, their
// offsets moved by base. Every leaf's path starts at a field of the same
// owner as f.
func (g *generator) leaves(recv string, f field, ls []plan.Leaf, base int, ctx string) []leaf {
	var out []leaf
	for _, l := range ls {
		x := recv + "." + f.goName
		if l.Path[0] != nil {
			x = recv + "." + fieldName(l.Path[0])
		}
		for _, pf := range l.Path[1:] {
			x += "." + fieldName(pf)
		}
		c := joinPath(ctx, f.name)
		if l.Path[0] != nil {
			c = joinPath(ctx, l.Path[0].Name)
		}
		if l.Owner != nil {
			c = l.Owner.Name + "." + l.Path[len(l.Path)-1].Name
		}
		out = append(out, leaf{v: l.Value, x: x, off: base + l.Offset, ctx: c})
	}
	return out
}

// readLeaf is the expression reading a leaf from the run's bytes b.
func (g *generator) readLeaf(l leaf) string {
	k := l.v.Kind
	enum := ""
	if l.v.Op == plan.Enum {
		enum = g.names.decl[l.v.Decl.Enum]
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
		case l.v.Op == plan.Scalar && l.v.Kind == schema.Bool:
			cond += fmt.Sprintf(" && b[%d] <= 1", l.off)
		case l.v.Op == plan.Enum:
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
		k := l.v.Kind
		x := l.x
		if l.v.Op == plan.Enum {
			p.F("%s.validate(e)", x)
			x = scalarTypes[k] + "(" + enumWire(l.v.Decl.Enum, x) + ")"
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

// encodeFlat emits the encoding of a struct the plan marks Flat (fields
// of fixed layout or strings): one extension of b by the struct's whole size, then every field
// at its offset in it, constant up to the first string, and from then on
// o, the offset after the last string.
func (g *generator) encodeFlat(p *emit.Printer, recv string, fs fields, ctx string) {
	size := fmt.Sprint(0)
	fixed := 0
	for _, f := range fs.list {
		if f.v.Op == plan.String {
			fixed += 4
			size += fmt.Sprintf("+len(%s.%s)", recv, f.goName)
			continue
		}
		fixed += f.v.Min
	}
	size = fmt.Sprint(fixed) + size[1:]
	p.F("b, r := extend(b, %s)", size)
	rs := g.runs(recv, fs, ctx)
	// The last run that writes anything: runs of no size after it (empty
	// structs) must not leave o assigned and never read.
	lastLive := -1
	for i, r := range rs {
		if r.fields[0].v.Op == plan.String && r.leaves == nil || r.size > 0 {
			lastLive = i
		} else if r.leaves == nil {
			if _, n := plan.Flatten(r.fields[0].pf); n > 0 {
				lastLive = i
			}
		}
	}
	static := 0      // the offset while it is constant
	dynamic := false // whether o holds the offset
	for i, r := range rs {
		last := i >= lastLive
		f := r.fields[0]
		if r.leaves == nil && f.v.Op == plan.String {
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
			var ls []plan.Leaf
			ls, n = plan.Flatten(f.pf)
			leaves = g.leaves(recv, f, ls, 0, ctx)
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
