package java

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// codecClass prints SdpCodec: for every struct and union a size function
// (which checks that the value can be encoded, naming the rule and path of
// the first problem), a write function (which writes into a buffer of the
// checked size, or in one pass into a scratch buffer that grows: then it
// throws SdpWriter.BAD, a NullPointerException or a ClassCastException at
// a value that has no encoding, and the caller runs the size pass for the
// error) and a read function; for every enum a read function. All of them print
// the codec plan's steps, switching on Value.Op.
func (g *generator) codecClass(p *emit.Printer) {
	p.P("/** The size, encode and decode of every type of the schema, printed from the codec plan. Internal. */")
	p.P("final class SdpCodec {")
	p.In()
	p.P("private SdpCodec() {}")
	for _, d := range g.plan.Decls {
		name := g.names.decl[d.Decl]
		p.P()
		switch {
		case d.Struct != nil:
			g.structCodec(p, d, name)
		case d.Enum != nil:
			g.enumCodec(p, d, name)
		case d.Union != nil:
			g.unionCodec(p, d, name)
		}
	}
	p.Out()
	p.P("}")
}

// recv names the Java field of a plan field below the receiver r.
func (g *generator) fieldX(r string, f *plan.Field) string {
	if f.Field == nil {
		return r + ".value"
	}
	return r + "." + g.names.field[f.Field]
}

func (g *generator) structCodec(p *emit.Printer, d *plan.Decl, name string) {
	p.F("static long size$%s(%s v$) throws EncodeException {", name, name)
	p.In()
	g.sizeFields(p, "v$", d.Fields, 0)
	p.Out()
	p.P("}")
	p.P()
	p.F("static void write$%s(SdpWriter w$, %s v$) {", name, name)
	p.In()
	if len(d.Fields) == 0 {
		// Nothing dereferences a null: the size pass names it.
		p.P("if (v$ == null) {")
		p.P("    throw SdpWriter.BAD;")
		p.P("}")
	}
	g.writeSteps(p, "v$", d.Steps)
	p.Out()
	p.P("}")
	p.P()
	p.F("static void read$%s(SdpReader r$, %s v$) throws DecodeException {", name, name)
	p.In()
	p.P("r$.enter();")
	g.readSteps(p, "v$", d.Steps)
	p.P("r$.depth--;")
	p.Out()
	p.P("}")
}

// sizeFields prints the body of a size function: the checks and the sum.
func (g *generator) sizeFields(p *emit.Printer, recv string, fs []*plan.Field, konst int) {
	sub := emit.New("    ")
	for _, f := range fs {
		fp := emit.New("    ")
		konst += g.size(fp, f.Value, g.fieldX(recv, f), 1)
		body := strings.TrimSuffix(string(fp.Bytes()), "\n")
		if body == "" {
			continue
		}
		if f.Name == "" || !mayThrow(body) {
			sub.Line(body)
			continue
		}
		// An error names the field: paths as in decoding.
		sub.P("try {")
		sub.In()
		sub.Line(body)
		sub.Out()
		sub.P("} catch (EncodeException x$) {")
		sub.F("    throw x$.at(%s);", javaString(f.Name))
		sub.P("}")
	}
	text := strings.TrimSuffix(string(sub.Bytes()), "\n")
	if strings.Contains(text, "s$") {
		p.P("long s$ = 0;")
	}
	if text != "" {
		p.Line(text)
	}
	if strings.Contains(text, "s$") {
		p.F("return s$ + %d;", konst)
	} else {
		p.F("return %d;", konst)
	}
}

// mayThrow reports printed size code that can throw an EncodeException: it
// calls a check of the runtime (Sdp.nn, Sdp.strSize, Sdp.fixed, Sdp.u8...)
// or another type's size function.
func mayThrow(code string) bool {
	return strings.Contains(code, "Sdp.") || strings.Contains(code, "size$")
}

func bulkName(k schema.Kind) string {
	switch k {
	case schema.U8, schema.I8:
		return "bytes"
	case schema.U16, schema.I16:
		return "shorts"
	case schema.U32, schema.I32:
		return "ints"
	case schema.U64, schema.I64:
		return "longs"
	case schema.F32:
		return "floats"
	case schema.F64:
		return "doubles"
	}
	panic("java backend: bulk of " + k.String())
}

// inner is the value inside a present optional x whose element is v.
func inner(v *plan.Value, x string) string {
	if v.Op == plan.Optional {
		return x + ".orElse(null)"
	}
	return x
}

// size prints the checks of a value x coded as v and the additions of its
// variable size to s$, and returns its constant size.
func (g *generator) size(p *emit.Printer, v *plan.Value, x string, lvl int) int {
	e := fmt.Sprintf("e$%d", lvl)
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.U8, schema.U16, schema.U32:
			p.F("Sdp.%s(%s);", v.Kind, x)
		}
		return v.Kind.Size()
	case plan.Enum:
		p.F("Sdp.nn(%s);", x)
		return v.Kind.Size()
	case plan.String:
		p.F("s$ += Sdp.strSize(%s);", x)
		return 4
	case plan.Bytes:
		p.F("s$ += Sdp.nn(%s).length;", x)
		return 4
	case plan.Numbers:
		p.F("s$ += (long) Sdp.nn(%s).length * %d;", x, v.Kind.Size())
		return 4
	case plan.FixedBytes, plan.FixedNumbers:
		p.F("Sdp.fixed(Sdp.nn(%s).length, %d);", x, v.Len)
		return v.Fixed
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain:
		fixed := v.Op == plan.FixedArray || v.Op == plan.FixedPlain
		if v.Elem.Op == plan.Scalar { // bool
			if fixed {
				p.F("Sdp.fixed(Sdp.nn(%s).length, %d);", x, v.Len)
				return v.Fixed
			}
			p.F("s$ += Sdp.nn(%s).length;", x)
			return 4
		}
		l := fmt.Sprintf("l$%d", lvl)
		i := fmt.Sprintf("i$%d", lvl)
		et := g.boxed(v.Elem.Type, nil)
		// The elements' checks and sizes, each naming its index.
		ep := emit.New("    ")
		k := g.size(ep, v.Elem, e, lvl+1)
		body := strings.TrimSuffix(string(ep.Bytes()), "\n")
		ret := 4
		if fixed {
			ret = 0
		}
		if v.Elem.Fixed >= 0 {
			k = 0 // counted below, once for all
			if fixed {
				ret = v.Fixed
			}
		}
		if k > 0 {
			if body != "" {
				body += "\n"
			}
			body += fmt.Sprintf("s$ += %d;", k)
		}
		p.P("{")
		p.In()
		p.F("java.util.List<%s> %s = Sdp.nn(%s);", et, l, x)
		if fixed {
			p.F("Sdp.fixed(%s.size(), %d);", l, v.Len)
		}
		if v.Elem.Fixed >= 0 && !fixed {
			p.F("s$ += (long) %s.size() * %d;", l, v.Elem.Fixed)
		}
		if body != "" {
			// Each error names its element; an element of another class
			// (put in through an unchecked cast) fails the for's cast:
			// rule type.
			p.F("int %s = 0;", i)
			p.P("try {")
			p.In()
			p.F("for (%s %s : %s) {", et, e, l)
			p.In()
			if mayThrow(body) {
				p.P("try {")
				p.In()
				p.Line(body)
				p.Out()
				p.F("} catch (EncodeException x$%d) {", lvl)
				p.F("    throw x$%d.index(%s);", lvl, i)
				p.P("}")
			} else {
				p.Line(body)
			}
			p.F("%s++;", i)
			p.Out()
			p.P("}")
			p.Out()
			p.F("} catch (java.lang.ClassCastException x$%d) {", lvl)
			p.F("    throw Sdp.wrongType(x$%d).index(%s);", lvl, i)
			p.P("}")
		}
		p.Out()
		p.P("}")
		return ret
	case plan.Optional:
		sub := emit.New("    ")
		k := g.size(sub, v.Elem, inner(v.Elem, x), lvl+1)
		body := strings.TrimSuffix(string(sub.Bytes()), "\n")
		if k > 0 {
			if body != "" {
				body += "\n"
			}
			body += fmt.Sprintf("s$ += %d;", k)
		}
		if body != "" {
			p.F("if (%s != null) {", x)
			p.In()
			p.Line(body)
			p.Out()
			p.P("}")
		}
		return 1
	case plan.Struct:
		if v.Decl.Fixed >= 0 && noChecks(v.Decl) {
			p.F("Sdp.nn(%s);", x)
			return v.Decl.Fixed
		}
		fallthrough
	case plan.Union:
		// A value of fixed size is only checked here; its size is the
		// constant returned (so that arrays of them multiply it).
		nn := "Sdp.nn"
		if v.Op == plan.Union {
			nn = "Sdp.variant" // a null union holds no variant: rule union_tag
		}
		if v.Fixed >= 0 {
			p.F("size$%s(%s(%s));", g.names.decl[v.Decl.Decl], nn, x)
			return v.Fixed
		}
		p.F("s$ += size$%s(%s(%s));", g.names.decl[v.Decl.Decl], nn, x)
		return 0
	}
	panic("java backend: size of " + v.Op.String())
}

// noChecks reports a struct whose fields are all scalars that need no
// range check (no u8, u16, u32: they are held in wider types), at any depth
// of nested structs: nothing in it can fail but its own null.
func noChecks(d *plan.Decl) bool {
	for _, f := range d.Fields {
		switch f.Value.Op {
		case plan.Scalar:
			switch f.Value.Kind {
			case schema.U8, schema.U16, schema.U32:
				return false
			}
		case plan.Struct:
			if !noChecks(f.Value.Decl) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

var scalarWrite = map[schema.Kind]string{
	schema.Bool: "bool", schema.U8: "u8", schema.I8: "i8", schema.U16: "u16", schema.I16: "i16",
	schema.U32: "u32", schema.I32: "i32", schema.U64: "i64", schema.I64: "i64", schema.F32: "f32", schema.F64: "f64",
}

// write prints the writing of x coded as v; size checked it.
func (g *generator) write(p *emit.Printer, v *plan.Value, x string, lvl int) {
	e := fmt.Sprintf("e$%d", lvl)
	switch v.Op {
	case plan.Scalar:
		p.F("w$.%s(%s);", scalarWrite[v.Kind], x)
	case plan.Enum:
		switch v.Kind {
		case schema.U8:
			p.F("w$.i8((byte) %s.wire());", x)
		case schema.U16:
			p.F("w$.i16((short) %s.wire());", x)
		default:
			p.F("w$.i32((int) %s.wire());", x)
		}
	case plan.String:
		p.F("w$.str(%s);", x)
	case plan.Bytes, plan.Numbers:
		p.F("w$.count(%s.length);", x)
		p.F("w$.%s(%s);", bulkName(v.Kind), x)
	case plan.FixedBytes, plan.FixedNumbers:
		p.F("w$.fixed(%s.length, %d);", x, v.Len)
		p.F("w$.%s(%s);", bulkName(v.Kind), x)
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain:
		counted := v.Op == plan.Array || v.Op == plan.PlainArray
		if v.Elem.Op == plan.Scalar { // bool
			if counted {
				p.F("w$.count(%s.length);", x)
			} else {
				p.F("w$.fixed(%s.length, %d);", x, v.Len)
			}
			p.F("for (boolean %s : %s) {", e, x)
			p.F("    w$.bool(%s);", e)
			p.P("}")
			return
		}
		if counted {
			p.F("w$.count(%s.size());", x)
		} else {
			p.F("w$.fixed(%s.size(), %d);", x, v.Len)
		}
		p.F("for (%s %s : %s) {", g.boxed(v.Elem.Type, nil), e, x)
		p.In()
		g.write(p, v.Elem, e, lvl+1)
		p.Out()
		p.P("}")
	case plan.Optional:
		p.F("if (%s == null) {", x)
		p.P("    w$.bool(false);")
		p.P("} else {")
		p.In()
		p.P("w$.bool(true);")
		g.write(p, v.Elem, inner(v.Elem, x), lvl+1)
		p.Out()
		p.P("}")
	case plan.Struct, plan.Union:
		p.F("write$%s(w$, %s);", g.names.decl[v.Decl.Decl], x)
	default:
		panic("java backend: write of " + v.Op.String())
	}
}

// writeSteps prints the writing of the plan's steps: a run's room is
// made once and its leaves written at constant offsets; other fields one
// by one.
func (g *generator) writeSteps(p *emit.Printer, recv string, steps []plan.Step) {
	for _, st := range steps {
		if st.Run == nil {
			g.write(p, st.Fields[0].Value, g.fieldX(recv, st.Fields[0]), 1)
			continue
		}
		r := st.Run
		p.P("{")
		p.In()
		p.F("w$.ensure(%d);", r.Size)
		p.P("int o$ = w$.pos;")
		for _, l := range r.Leaves {
			x := g.leafBase(recv, st.Fields[0], l)
			for _, f := range l.Path[1:] {
				x += "." + g.names.field[f]
			}
			k := l.Value.Kind
			if l.Value.Op == plan.Enum {
				switch k {
				case schema.U8:
					p.F("w$.i8At(o$ + %d, (byte) %s.wire());", l.Offset, x)
				case schema.U16:
					p.F("w$.i16At(o$ + %d, (short) %s.wire());", l.Offset, x)
				default:
					p.F("w$.i32At(o$ + %d, (int) %s.wire());", l.Offset, x)
				}
				continue
			}
			p.F("w$.%sAt(o$ + %d, %s);", scalarWrite[k], l.Offset, x)
		}
		p.F("w$.pos = o$ + %d;", r.Size)
		p.Out()
		p.P("}")
	}
}

var scalarRead = map[schema.Kind]string{
	schema.Bool: "bool", schema.U8: "u8", schema.I8: "i8", schema.U16: "u16", schema.I16: "i16",
	schema.U32: "u32", schema.I32: "i32", schema.U64: "i64", schema.I64: "i64", schema.F32: "f32", schema.F64: "f64",
}

// fixedRead names the reader's methods of bulk arrays by element kind.
var fixedRead = map[schema.Kind]string{
	schema.U8: "bytes", schema.I8: "bytes", schema.U16: "i16s", schema.I16: "i16s", schema.U32: "i32s",
	schema.I32: "i32s", schema.U64: "i64s", schema.I64: "i64s", schema.F32: "f32s", schema.F64: "f64s",
}

// read prints the decoding of a value coded as v into the Java lvalue x,
// which holds an earlier value to reuse (a nested struct, an array of the
// same length) unless fresh.
func (g *generator) read(p *emit.Printer, v *plan.Value, x string, fresh bool, lvl int) {
	switch v.Op {
	case plan.Scalar:
		p.F("%s = r$.%s();", x, scalarRead[v.Kind])
	case plan.Enum:
		p.F("%s = read$%s(r$);", x, g.names.decl[v.Decl.Decl])
	case plan.String:
		p.F("%s = r$.str(%s);", x, x)
	case plan.Bytes, plan.Numbers:
		p.F("%s = r$.%s(%s);", x, fixedRead[v.Kind], x)
	case plan.FixedBytes, plan.FixedNumbers:
		p.F("%s = r$.%s(%s, %d);", x, fixedRead[v.Kind], x, v.Len)
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain:
		counted := v.Op == plan.Array || v.Op == plan.PlainArray
		n := fmt.Sprintf("n$%d", lvl)
		i := fmt.Sprintf("i$%d", lvl)
		e := fmt.Sprintf("e$%d", lvl)
		a := fmt.Sprintf("a$%d", lvl)
		ex := fmt.Sprintf("x$%d", lvl)
		p.P("{")
		p.In()
		if counted {
			p.F("int %s = r$.count(%d);", n, v.MinElem)
			if v.Charge > 0 {
				p.F("r$.chargeCount(%s, %dL);", n, v.Charge)
			}
		} else {
			p.F("int %s = %d;", n, v.Len)
		}
		// The array is decoded into the old one's storage: a boolean[] of
		// the same length, an ArrayList whose elements are decoded into.
		k := fmt.Sprintf("k$%d", lvl)
		et := g.boxed(v.Elem.Type, nil)
		if v.Elem.Op == plan.Scalar { // bool
			p.F("boolean[] %s = %s != null && %s.length == %s ? %s : new boolean[%s];", a, x, x, n, x, n)
		} else {
			p.F("java.util.ArrayList<%s> %s = %s instanceof java.util.ArrayList ? (java.util.ArrayList<%s>) %s : new java.util.ArrayList<>(%s);",
				et, a, x, et, x, n)
			p.F("int %s = %s.size();", k, a)
			p.F("if (%s > %s) {", k, n)
			p.F("    %s.subList(%s, %s).clear();", a, n, k)
			p.F("    %s = %s;", k, n)
			p.P("}")
			p.F("%s.ensureCapacity(%s);", a, n)
		}
		store := func() {
			p.F("if (%s < %s) {", i, k)
			p.F("    %s.set(%s, %s);", a, i, e)
			p.P("} else {")
			p.F("    %s.add(%s);", a, e)
			p.P("}")
		}
		loop := func() {
			p.F("for (int %s = 0; %s < %s; %s++) {", i, i, n, i)
			p.In()
			if v.Elem.Op != plan.Scalar {
				p.F("%s %s = %s < %s ? %s.get(%s) : null;", et, e, i, k, a, i)
			}
			p.P("try {")
			p.In()
			if v.Elem.Op == plan.Scalar {
				p.F("%s[%s] = r$.bool();", a, i)
			} else {
				g.read(p, v.Elem, e, false, lvl+1)
			}
			p.Out()
			p.F("} catch (DecodeException %s) {", ex)
			p.F("    throw %s.index(%s);", ex, i)
			p.P("}")
			if v.Elem.Op != plan.Scalar {
				store()
			}
			p.Out()
			p.P("}")
		}
		if v.Op != plan.PlainArray && v.Op != plan.FixedPlain {
			loop()
		} else {
			// Plain structs (numbers only, no checks but the bounds and
			// the depth): every element's numbers are read at constant
			// offsets after one check of the depth and, for a fixed
			// array, of the bounds (a count was checked against them).
			// When that fails, the element loop finds the exact error.
			o := fmt.Sprintf("p$%d", lvl)
			cond := fmt.Sprintf("r$.depth + %d <= r$.maxDepth", v.Plain.Depth)
			if v.Op == plan.FixedPlain {
				cond += fmt.Sprintf(" && r$.end - r$.off >= %d", v.Fixed)
			}
			p.F("if (%s) {", cond)
			p.In()
			p.F("int %s = r$.off;", o)
			p.F("for (int %s = 0; %s < %s; %s++, %s += %d) {", i, i, n, i, o, v.Plain.Size)
			p.In()
			p.F("%s %s = %s < %s ? %s.get(%s) : null;", et, e, i, k, a, i)
			g.ensureStructs(p, e, v.Elem)
			for _, f := range v.Plain.Fields {
				lv := e
				for _, pf := range f.Path {
					lv += "." + g.names.field[pf]
				}
				p.F("%s = %s;", lv, leafRead(f.Kind, o, f.Offset))
			}
			store()
			p.Out()
			p.P("}")
			p.F("r$.off = %s;", o)
			p.Out()
			p.P("} else {")
			p.In()
			loop()
			p.Out()
			p.P("}")
		}
		p.F("%s = %s;", x, a)
		p.Out()
		p.P("}")
	case plan.Optional:
		p.P("if (r$.present()) {")
		p.In()
		if v.Charge > 0 {
			p.F("r$.chargePresent(%dL);", v.Charge)
		}
		if v.Elem.Op == plan.Optional {
			t := fmt.Sprintf("o$%d", lvl)
			p.F("%s %s = null;", g.boxed(v.Elem.Type, nil), t)
			g.read(p, v.Elem, t, true, lvl+1)
			p.F("%s = java.util.Optional.ofNullable(%s);", x, t)
		} else {
			g.read(p, v.Elem, x, fresh, lvl+1)
		}
		p.Out()
		p.P("} else {")
		p.F("    %s = null;", x)
		p.P("}")
	case plan.Struct:
		name := g.names.decl[v.Decl.Decl]
		if fresh {
			p.F("%s = new %s(r$);", x, name)
		} else {
			p.F("if (%s == null) {", x)
			p.F("    %s = new %s(r$);", x, name)
			p.P("} else {")
			p.F("    read$%s(r$, %s);", name, x)
			p.P("}")
		}
	case plan.Union:
		p.F("%s = read$%s(r$, %s);", x, g.names.decl[v.Decl.Decl], x)
	default:
		panic("java backend: read of " + v.Op.String())
	}
}

// readField prints the decoding of one field, naming it in the path of an
// error.
func (g *generator) readField(p *emit.Printer, recv string, f *plan.Field) {
	if f.Name == "" {
		g.read(p, f.Value, g.fieldX(recv, f), false, 1)
		return
	}
	p.P("try {")
	p.In()
	g.read(p, f.Value, g.fieldX(recv, f), false, 1)
	p.Out()
	p.P("} catch (DecodeException x$) {")
	p.F("    throw x$.at(%s);", javaString(f.Name))
	p.P("}")
}

// readSteps prints the plan's steps: a run is read with one bounds check
// (and its bools, enums and depth checked at once) and its leaves at
// constant offsets; when that check fails, its fields are read one by one,
// which finds the exact error. Other fields are read one by one.
func (g *generator) readSteps(p *emit.Printer, recv string, steps []plan.Step) {
	for _, st := range steps {
		if st.Run == nil {
			g.readField(p, recv, st.Fields[0])
			continue
		}
		r := st.Run
		cond := []string{fmt.Sprintf("r$.end - r$.off >= %d", r.Size)}
		if r.Depth > 0 {
			cond = append(cond, fmt.Sprintf("r$.depth + %d <= r$.maxDepth", r.Depth))
		}
		for _, l := range r.Leaves {
			switch {
			case l.Value.Op == plan.Scalar && l.Value.Kind == schema.Bool:
				cond = append(cond, fmt.Sprintf("(r$.b[r$.off + %d] & 0xFE) == 0", l.Offset))
			case l.Value.Op == plan.Enum:
				cond = append(cond, fmt.Sprintf("%s.fromWire(%s) != null", g.names.decl[l.Value.Decl.Decl], leafRead(l.Value.Kind, "r$.off", l.Offset)))
			}
		}
		p.P("if (" + strings.Join(cond, "\n        && ") + ") {")
		p.In()
		p.P("int o$ = r$.off;")
		// The run's structs must exist (an empty one has no leaf).
		for _, f := range st.Fields {
			g.ensureStructs(p, g.fieldX(recv, f), f.Value)
		}
		for _, l := range r.Leaves {
			x := g.leafBase(recv, st.Fields[0], l)
			for _, f := range l.Path[1:] {
				x += "." + g.names.field[f]
			}
			val := leafRead(l.Value.Kind, "o$", l.Offset)
			if l.Value.Kind == schema.Bool {
				val = fmt.Sprintf("r$.b[o$ + %d] != 0", l.Offset)
			}
			if l.Value.Op == plan.Enum {
				val = g.names.decl[l.Value.Decl.Decl] + ".fromWire(" + val + ")"
			}
			p.F("%s = %s;", x, val)
		}
		p.F("r$.off = o$ + %d;", r.Size)
		p.Out()
		p.P("} else {")
		p.In()
		for _, f := range st.Fields {
			g.readField(p, recv, f)
		}
		p.Out()
		p.P("}")
	}
}

// ensureStructs prints the allocation of the structs of a run's field x
// (coded as v) and of their nested structs where they are null.
func (g *generator) ensureStructs(p *emit.Printer, x string, v *plan.Value) {
	if v.Op != plan.Struct {
		return
	}
	p.F("if (%s == null) {", x)
	p.F("    %s = new %s();", x, g.names.decl[v.Decl.Decl])
	p.P("}")
	for _, f := range v.Decl.Fields {
		g.ensureStructs(p, g.fieldX(x, f), f.Value)
	}
}

// leafBase is the Java lvalue of the first field of a leaf's path.
func (g *generator) leafBase(recv string, first *plan.Field, l plan.Leaf) string {
	if l.Path[0] == nil {
		return recv + ".value"
	}
	return recv + "." + g.names.field[l.Path[0]]
}

// leafRead is the expression reading a scalar of kind k at off+at.
func leafRead(k schema.Kind, off string, at int) string {
	pos := fmt.Sprintf("%s + %d", off, at)
	switch k {
	case schema.Bool, schema.U8:
		return fmt.Sprintf("r$.b[%s] & 0xFF", pos)
	case schema.I8:
		return fmt.Sprintf("r$.b[%s]", pos)
	case schema.U16:
		return fmt.Sprintf("r$.bb.getShort(%s) & 0xFFFF", pos)
	case schema.I16:
		return fmt.Sprintf("r$.bb.getShort(%s)", pos)
	case schema.U32:
		return fmt.Sprintf("r$.bb.getInt(%s) & 0xFFFFFFFFL", pos)
	case schema.I32:
		return fmt.Sprintf("r$.bb.getInt(%s)", pos)
	case schema.U64, schema.I64:
		return fmt.Sprintf("r$.bb.getLong(%s)", pos)
	case schema.F32:
		return fmt.Sprintf("r$.bb.getFloat(%s)", pos)
	case schema.F64:
		return fmt.Sprintf("r$.bb.getDouble(%s)", pos)
	}
	panic("java backend: leaf of " + k.String())
}

func (g *generator) enumCodec(p *emit.Printer, d *plan.Decl, name string) {
	en := d.Enum
	wt := "int"
	if en.Base == schema.U32 {
		wt = "long"
	}
	p.F("/** @return %s's first value, its default (for classes where a field hides the enum's name). */", name)
	p.F("static %s first$%s() {", name, name)
	p.F("    return %s.%s;", name, g.names.value[en.Values[0]])
	p.P("}")
	p.P()
	p.F("static %s read$%s(SdpReader r$) throws DecodeException {", name, name)
	p.In()
	p.P("int at$ = r$.off;")
	p.F("%s n$ = r$.%s();", wt, scalarRead[en.Base])
	p.F("%s e$ = %s.fromWire(n$);", name, name)
	p.P("if (e$ == null) {")
	p.F("    throw r$.fail(at$, DecodeException.ENUM, n$ + %s);", javaString(" is not a value of "+en.Name))
	p.P("}")
	p.P("return e$;")
	p.Out()
	p.P("}")
}

func (g *generator) unionCodec(p *emit.Printer, d *plan.Decl, name string) {
	u := d.Union
	p.F("static long size$%s(%s v$) throws EncodeException {", name, name)
	p.In()
	for _, pv := range d.Variants {
		vt := name + "." + g.names.variant[pv.Variant]
		p.F("if (v$ instanceof %s) {", vt)
		p.In()
		if len(pv.Fields) > 0 {
			p.F("%s x$v = (%s) v$;", vt, vt)
			sub := emit.New("    ")
			g.sizeFields(sub, "x$v", pv.Fields, 1)
			body := strings.TrimSuffix(string(sub.Bytes()), "\n")
			if mayThrow(body) {
				p.P("try {")
				p.In()
				p.Line(body)
				p.Out()
				p.P("} catch (EncodeException x$) {")
				p.F("    throw x$.at(%s);", javaString(pv.Name))
				p.P("}")
			} else {
				p.Line(body)
			}
		} else {
			p.P("return 1;")
		}
		p.Out()
		p.P("}")
	}
	p.P("throw new EncodeException(EncodeException.UNION_TAG, \"\", \"a value of an unknown variant\");")
	p.Out()
	p.P("}")
	p.P()
	p.F("static void write$%s(SdpWriter w$, %s v$) {", name, name)
	p.In()
	p.P("if (v$ == null) {")
	p.P("    throw SdpWriter.BAD; // no variant: the size pass names it")
	p.P("}")
	for i, pv := range d.Variants {
		vt := name + "." + g.names.variant[pv.Variant]
		if i == len(d.Variants)-1 {
			p.P("{")
		} else {
			p.F("if (v$ instanceof %s) {", vt)
		}
		p.In()
		p.F("w$.i8((byte) %d);", pv.Tag)
		if len(pv.Fields) > 0 {
			p.F("%s x$v = (%s) v$;", vt, vt)
		}
		g.writeSteps(p, "x$v", pv.Steps)
		if i < len(d.Variants)-1 {
			p.P("return;")
		}
		p.Out()
		p.P("}")
	}
	p.Out()
	p.P("}")
	p.P()
	p.F("static %s read$%s(SdpReader r$, %s old$) throws DecodeException {", name, name, name)
	p.In()
	p.P("r$.enter();")
	p.P("int at$ = r$.off;")
	p.P("int tag$ = r$.u8();")
	p.F("%s v$;", name)
	p.P("switch (tag$) {")
	for _, pv := range d.Variants {
		vt := name + "." + g.names.variant[pv.Variant]
		p.F("case %d: {", pv.Tag)
		p.In()
		// The old value's storage is reused when it holds the same variant.
		p.F("%s x$v = old$ instanceof %s ? (%s) old$ : new %s();", vt, vt, vt, vt)
		if len(pv.Steps) > 0 {
			p.P("try {")
			p.In()
			g.readSteps(p, "x$v", pv.Steps)
			p.Out()
			p.P("} catch (DecodeException x$) {")
			p.F("    throw x$.at(%s);", javaString(pv.Name))
			p.P("}")
		}
		p.P("v$ = x$v;")
		p.P("break;")
		p.Out()
		p.P("}")
	}
	p.P("default:")
	p.F("    throw r$.fail(at$, DecodeException.UNION_TAG, \"tag \" + tag$ + %s);", javaString(" is not a variant of "+u.Name))
	p.P("}")
	p.P("r$.depth--;")
	p.P("return v$;")
	p.Out()
	p.P("}")
}

func (g *generator) messagesClass(p *emit.Printer) {
	structs := append([]*schema.Struct(nil), g.s.Structs...)
	for i := 1; i < len(structs); i++ {
		for j := i; j > 0 && structs[j].ID < structs[j-1].ID; j-- {
			structs[j], structs[j-1] = structs[j-1], structs[j]
		}
	}
	var ids, fps, nms []string
	for _, st := range structs {
		ids = append(ids, fmt.Sprint(st.ID))
		fps = append(fps, fmt.Sprintf("0x%016xL", schema.Fingerprint(st)))
		nms = append(nms, javaString(st.Name))
	}
	lines := func(s string) {
		for _, l := range strings.Split(strings.TrimPrefix(s, "\n"), "\n") {
			p.P(strings.ReplaceAll(l, "\t", "    "))
		}
	}
	p.P("/** The schema's messages: the dispatcher, type ids and the hello (docs/wire-format.md, \"Messages\"). */")
	p.P("public final class Messages {")
	p.In()
	p.P("private Messages() {}")
	p.P()
	p.P("/** The type ids of the schema's structs, increasing: the hello's entries. */")
	p.F("static final int[] HELLO_IDS = {%s};", strings.Join(ids, ", "))
	p.P("/** The fingerprints of the structs of HELLO_IDS. */")
	p.F("static final long[] HELLO_FINGERPRINTS = {%s};", strings.Join(fps, ", "))
	p.P("/** The schema names of the structs of HELLO_IDS. */")
	p.F("static final java.lang.String[] HELLO_NAMES = {%s};", strings.Join(nms, ", "))
	p.P()
	p.P("/**")
	p.P(" * @param id$ a message type id")
	p.P(" * @return whether a struct of the schema has it")
	p.P(" */")
	p.P("public static boolean isKnownTypeId(int id$) {")
	p.In()
	if len(structs) == 0 {
		p.P("return false;")
	} else {
		p.P("switch (id$) {")
		for _, st := range structs {
			p.F("case %d:", st.ID)
		}
		p.P("    return true;")
		p.P("default:")
		p.P("    return false;")
		p.P("}")
	}
	p.Out()
	p.P("}")
	p.P()
	p.P("/**")
	p.P(" * @param id$ a message type id")
	p.P(" * @return a new default value of the struct with that type id, or null if none has it")
	p.P(" */")
	p.P("public static SdpMessage newMessage(int id$) {")
	p.In()
	if len(structs) == 0 {
		p.P("return null;")
	} else {
		p.P("switch (id$) {")
		for _, st := range structs {
			p.F("case %d:", st.ID)
			p.F("    return new %s();", g.names.decl[st])
		}
		p.P("default:")
		p.P("    return null;")
		p.P("}")
	}
	p.Out()
	p.P("}")
	lines(`
/**
 * Decodes a message of any struct of the schema with the default options.
 *
 * @param b$ the message: header and payload
 * @return the value, whose class says which struct it is
 * @throws DecodeException if the header or the payload breaks a rule
 */
public static SdpMessage decode(byte[] b$) throws DecodeException {
	return decode(b$, null);
}

/**
 * Decodes a message of any struct of the schema; offsets in errors count from the header's first byte.
 *
 * @param b$ the message: header and payload
 * @param options$ the limits (the memory limit is sized for the payload), or null for the defaults
 * @return the value, whose class says which struct it is
 * @throws DecodeException if the header or the payload breaks a rule
 */
public static SdpMessage decode(byte[] b$, DecodeOptions options$) throws DecodeException {
	int id$ = Sdp.checkHeader(b$, b$.length, -1, "");
	return decodePayload(id$, b$, b$.length, options$);
}

/**
 * @return the hello: a message of type id 0 with the fingerprint of every struct of the schema
 */
public static byte[] encodeHello() {
	int n$ = HELLO_IDS.length;
	byte[] b$ = new byte[Sdp.MESSAGE_HEADER_SIZE + 4 + 10 * n$];
	Sdp.header(b$, Sdp.HELLO_TYPE_ID, 4 + 10 * n$);
	java.nio.ByteBuffer bb$ = java.nio.ByteBuffer.wrap(b$).order(java.nio.ByteOrder.LITTLE_ENDIAN);
	bb$.putInt(Sdp.MESSAGE_HEADER_SIZE, n$);
	for (int i$ = 0; i$ < n$; i$++) {
		bb$.putShort(Sdp.MESSAGE_HEADER_SIZE + 4 + 10 * i$, (short) HELLO_IDS[i$]);
		bb$.putLong(Sdp.MESSAGE_HEADER_SIZE + 6 + 10 * i$, HELLO_FINGERPRINTS[i$]);
	}
	return b$;
}

/** Decodes the payload of the message b[0, len) whose header is checked. */
static SdpMessage decodePayload(int id$, byte[] b$, int len$, DecodeOptions options$) throws DecodeException {
	SdpReader r$ = SdpReader.of(b$, 0, Sdp.MESSAGE_HEADER_SIZE, len$, len$ - Sdp.MESSAGE_HEADER_SIZE, options$);
`)
	p.In()
	p.P("switch (id$) {")
	for _, st := range structs {
		n := g.names.decl[st]
		p.F("case %d: {", st.ID)
		p.F("    %s v$ = new %s(r$);", n, n)
		p.P("    r$.finish();")
		p.P("    return v$;")
		p.P("}")
	}
	p.P("default:")
	p.P("    throw new DecodeException(DecodeException.MESSAGE, 4, \"unknown message type id \" + id$).withPath(\"message\");")
	p.P("}")
	p.Out()
	p.P("}")
	lines(`
/**
 * Decodes the payload of the message b[0, len), whose header is checked and names into's type, into into; on
 * an error into is reset to its default.
 */
static void decodePayloadInto(SdpMessage into$, byte[] b$, int len$, DecodeOptions options$) throws DecodeException {
	SdpReader r$ = SdpReader.of(b$, 0, Sdp.MESSAGE_HEADER_SIZE, len$, len$ - Sdp.MESSAGE_HEADER_SIZE, options$);
`)
	p.In()
	for i, st := range structs {
		n := g.names.decl[st]
		if i == 0 {
			p.F("if (into$ instanceof %s) {", n)
		} else {
			p.F("} else if (into$ instanceof %s) {", n)
		}
		p.F("    %s v$ = (%s) into$;", n, n)
		p.P("    try {")
		p.F("        SdpCodec.read$%s(r$, v$);", n)
		p.P("        r$.finish();")
		p.P("    } catch (DecodeException e$) {")
		p.P("        v$.reset$();")
		p.P("        throw e$;")
		p.P("    }")
	}
	if len(structs) > 0 {
		p.P("} else {")
		p.P("    throw new DecodeException(DecodeException.MESSAGE, 4, \"unknown message type id \" + into$.typeId()).withPath(\"message\");")
		p.P("}")
	} else {
		p.P("throw new DecodeException(DecodeException.MESSAGE, 4, \"unknown message type id \" + into$.typeId()).withPath(\"message\");")
	}
	p.Out()
	p.P("}")
	p.Out()
	p.P("}")
}
