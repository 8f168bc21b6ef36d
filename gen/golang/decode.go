package golang

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func (g *generator) emitDecode(p *emit.Printer) []string {
	var imports []string
	if len(g.s.Decls) > 0 {
		imports = append(imports, "io") // WriteTo, ReadFrom
	}
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			g.emitStructDecode(p, d)
		case *schema.Enum:
			g.emitEnumDecode(p, d)
		case *schema.Union:
			g.emitUnionDecode(p, d)
		}
	}
	if g.uses["binary.dec"] {
		imports = append(imports, "encoding/binary")
	}
	if g.uses["math.dec"] {
		imports = append(imports, "math")
	}
	if g.uses["strconv.dec"] {
		imports = append(imports, "strconv")
	}
	return imports
}

// emitUnmarshalMethods writes the exported decode methods of a struct or
// enum; reset is the statement that decodes into *m from decoder d.
func (g *generator) emitUnmarshalMethods(p *emit.Printer, v, name, schemaName string, decode func(), reset string) {
	recv := v + " *" + name
	p.P("// UnmarshalBinary implements encoding.BinaryUnmarshaler: b must hold exactly one")
	p.F("// %s (trailing bytes are an error). It decodes with the default options;", name)
	p.P("// errors are *DecodeError. The result does not alias b.")
	p.F("func (%s) UnmarshalBinary(b []byte) error { return %s.UnmarshalBinaryWith(b, DecodeOptions{}) }", recv, v)
	p.P()
	p.F("// UnmarshalBinaryWith is UnmarshalBinary with options (the depth limit).")
	p.Block("func ("+recv+") UnmarshalBinaryWith(b []byte, opts DecodeOptions) error {", "}", func() {
		// UnmarshalPrefix's body again, not a call to it: one call less
		// matters for small values.
		p.P("var d decoder")
		p.P("d.init(b, 0, opts.maxDepth(), opts.memoryLimit(len(b)))")
		decode()
		p.P("if d.err != nil {")
		p.F("\t*%s = %s // a failed decode leaves the zero value", v, reset)
		p.F("\treturn d.finish(%q)", schemaName)
		p.P("}")
		p.P("if d.off != len(b) {")
		p.F("\t*%s = %s", v, reset)
		p.F("\treturn trailingError(%q, d.off, len(b))", schemaName)
		p.P("}")
		p.P("return nil")
	})
	p.P()
	p.F("// UnmarshalPrefix decodes one %s from the start of b and returns the number", name)
	p.P("// of bytes it used; bytes after it are left alone.")
	p.Block("func ("+recv+") UnmarshalPrefix(b []byte, opts DecodeOptions) (int, error) {", "}", func() {
		p.P("var d decoder")
		p.P("d.init(b, 0, opts.maxDepth(), opts.memoryLimit(len(b)))")
		decode()
		p.P("if d.err != nil {")
		p.F("\t*%s = %s // a failed decode leaves the zero value", v, reset)
		p.F("\treturn 0, d.finish(%q)", schemaName)
		p.P("}")
		p.P("return d.off, nil")
	})
	p.P()
	p.P("// ReadFrom implements io.ReaderFrom: it reads r to EOF and decodes what it read")
	p.P("// as UnmarshalBinary does. It returns the number of bytes read. To bound the")
	p.P("// memory used on untrusted input, pass an io.LimitReader or use MessageReader.")
	p.Block("func ("+recv+") ReadFrom(r io.Reader) (int64, error) {", "}", func() {
		p.P("b, err := io.ReadAll(r)")
		p.P("if err != nil {")
		p.P("\treturn int64(len(b)), err")
		p.P("}")
		p.F("return int64(len(b)), %s.UnmarshalBinary(b)", v)
	})
	p.P()
}

func (g *generator) emitStructDecode(p *emit.Printer, st *schema.Struct) {
	name := g.names.decl[st]
	g.emitUnmarshalMethods(p, "m", name, st.Name, func() {
		p.P("if !opts.Reuse {")
		p.F("\t*m = %s{}", name)
		p.P("}")
		p.P("m.decode(&d)")
	}, name+"{}")
	p.F("// decode reads the fields of %s into m, assigning every one: m may hold an", name)
	p.P("// earlier value, whose storage is reused (DecodeOptions.Reuse).")
	p.Block("func (m *"+name+") decode(d *decoder) {", "}", func() {
		p.P("if !d.enter() {")
		p.P("\treturn")
		p.P("}")
		g.decodeFields(p, "m", g.structFields(st), st.Name)
		p.P("d.depth--")
	})
	p.P()
}

// decodeFields emits the decoding of fields into recv: runs of fixed-layout
// fields together, the others one by one.
func (g *generator) decodeFields(p *emit.Printer, recv string, fs fields, ctx string) {
	for _, r := range g.runs(recv, fs, ctx) {
		if r.leaves == nil {
			g.decodeFieldsSlow(p, recv, r.fields)
		} else {
			g.decodeRun(p, recv, r)
		}
	}
}

// decodeFieldsSlow emits the decoding of fields one by one, returning from
// the enclosing function when one fails (after naming the field in the error).
func (g *generator) decodeFieldsSlow(p *emit.Printer, recv string, fields []field) {
	for _, f := range fields {
		g.decodeValue(p, f.v, recv+"."+f.goName, 0)
		p.P("if d.err != nil {")
		if f.name != "" {
			p.F("\td.at(%q)", f.name)
		}
		p.P("\treturn")
		p.P("}")
	}
}

func (g *generator) emitEnumDecode(p *emit.Printer, en *schema.Enum) {
	name := g.names.decl[en]
	g.emitUnmarshalMethods(p, "v", name, en.Name, func() {
		p.F("*v = decode%s(&d)", name)
	}, "0")
	p.F("// decode%s reads %s %s; a number that names no value is an error.", name, article(name), name)
	p.Block("func decode"+name+"(d *decoder) "+name+" {", "}", func() {
		p.P("off := d.off")
		p.P("v := ", name, "(", g.readScalar(en.Base), ")")
		p.P("if !v.IsValid() && d.err == nil {")
		p.F("\td.failAt(off, RuleEnum, %q+strconv.FormatUint(uint64(v), 10)+%q)", "", " is not a value of "+en.Name)
		p.P("}")
		p.P("return v")
	})
	p.P()
	g.use("strconv.dec")
}

func (g *generator) emitUnionDecode(p *emit.Printer, u *schema.Union) {
	name := g.names.decl[u]
	fn := g.names.unionFuncs[u]
	p.F("// %s decodes %s %s that must fill b exactly, with the default options.", fn[0], article(name), name)
	p.F("func %s(b []byte) (%s, error) { return %s(b, DecodeOptions{}) }", fn[0], name, fn[1])
	p.P()
	p.F("// %s decodes %s %s that must fill b exactly.", fn[1], article(name), name)
	p.F("func %s(b []byte, opts DecodeOptions) (%s, error) { return %s(b, nil, opts) }", fn[1], name, fn[4])
	p.P()
	p.F("// %s decodes %s %s from the start of b and returns the number of bytes", fn[2], article(name), name)
	p.P("// it used.")
	p.Block(fmt.Sprintf("func %s(b []byte, opts DecodeOptions) (%s, int, error) {", fn[2], name), "}", func() {
		p.P("var d decoder")
		p.P("d.init(b, 0, opts.maxDepth(), opts.memoryLimit(len(b)))")
		p.F("v := decode%s(&d, nil)", name)
		p.P("if d.err != nil {")
		p.F("\treturn nil, 0, d.finish(%q)", u.Name)
		p.P("}")
		p.P("return v, d.off, nil")
	})
	p.P()
	p.F("// %s reads r to EOF and decodes what it read as %s does.", fn[3], fn[0])
	p.Block(fmt.Sprintf("func %s(r io.Reader) (%s, error) {", fn[3], name), "}", func() {
		p.P("b, err := io.ReadAll(r)")
		p.P("if err != nil {")
		p.P("\treturn nil, err")
		p.P("}")
		p.F("return %s(b)", fn[0])
	})
	p.P()
	p.F("// %s decodes %s %s that must fill b exactly, into old's strings, slices", fn[4], article(name), name)
	p.P("// and boxes when old holds the same variant (as DecodeOptions.Reuse does for")
	p.P("// a struct), and returns it; old may be nil. The result may share storage")
	p.P("// with old, which must not be used afterwards. On an error it returns nil.")
	p.Block(fmt.Sprintf("func %s(b []byte, old %s, opts DecodeOptions) (%s, error) {", fn[4], name, name), "}", func() {
		p.P("var d decoder")
		p.P("d.init(b, 0, opts.maxDepth(), opts.memoryLimit(len(b)))")
		p.F("v := decode%s(&d, old)", name)
		p.P("if d.err != nil {")
		p.F("	return nil, d.finish(%q)", u.Name)
		p.P("}")
		p.P("if d.off != len(b) {")
		p.F("	return nil, trailingError(%q, d.off, len(b))", u.Name)
		p.P("}")
		p.P("return v, nil")
	})
	p.P()
	p.F("// decode%s reads a tag and its variant; when old holds the same variant,", name)
	p.P("// its storage is reused.")
	p.Block("func decode"+name+"(d *decoder, old "+name+") "+name+" {", "}", func() {
		p.P("if !d.enter() {")
		p.P("\treturn nil")
		p.P("}")
		p.P("off := d.off")
		p.F("var v %s", name)
		p.P("tag := d.u8()")
		p.P("if d.err != nil {")
		p.P("\treturn nil")
		p.P("}")
		p.P("switch tag {")
		for _, pv := range g.plan.Of(u).Variants {
			vr := pv.Variant
			vt := g.names.vtype[vr]
			p.F("case %d:", vr.Tag)
			p.In()
			if len(pv.Fields) == 0 {
				p.F("v = %s{}", vt)
			} else {
				p.F("v = decode%s(d, old)", vt)
				p.P("if d.err != nil {")
				p.F("\td.at(%q)", vr.Name)
				p.P("\treturn nil")
				p.P("}")
			}
			p.Out()
		}
		p.P("default:")
		p.F("\td.failAt(off, RuleUnionTag, \"tag \"+strconv.Itoa(int(tag))+\" is not a variant of %s\")", u.Name)
		p.P("\treturn nil")
		p.P("}")
		p.P("d.depth--")
		p.P("return v")
	})
	p.P()
	g.use("strconv.dec")
	for _, pv := range g.plan.Of(u).Variants {
		vr := pv.Variant
		fs := g.variantFields(pv)
		if len(fs.list) == 0 {
			continue
		}
		vt := g.names.vtype[vr]
		// The variant's value lives in a function of its own, never inlined:
		// in decode<Union>'s frame, a large variant (a fixed array) would
		// make every nesting level of a recursive variant cost its size in
		// stack (conformance/regress/go_union_big_variant.sdp).
		p.F("// decode%s decodes the variant %s, into old's storage when old holds", vt, vt)
		p.P("// one.")
		p.P("//")
		p.P("//go:noinline")
		p.Block(fmt.Sprintf("func decode%s(d *decoder, old %s) %s {", vt, name, name), "}", func() {
			p.F("x, _ := old.(%s)", vt)
			p.P("x.decode(d)")
			p.P("if d.err != nil {")
			p.P("\treturn nil")
			p.P("}")
			p.P("return x")
		})
		p.P()
		p.F("// decode reads the fields of %s into v, assigning every one.", vt)
		p.Block("func (v *"+vt+") decode(d *decoder) {", "}", func() {
			g.decodeFields(p, "v", fs, u.Name+"."+vr.Name)
		})
		p.P()
	}
}

// readScalar is the expression reading a scalar of kind k from d.
func (g *generator) readScalar(k schema.Kind) string {
	switch k {
	case schema.Bool:
		return "d.boolean()"
	case schema.U8:
		return "d.u8()"
	case schema.U16:
		return "d.u16()"
	case schema.U32:
		return "d.u32()"
	case schema.U64:
		return "d.u64()"
	case schema.I8:
		return "int8(d.u8())"
	case schema.I16:
		return "int16(d.u16())"
	case schema.I32:
		return "int32(d.u32())"
	case schema.I64:
		return "int64(d.u64())"
	case schema.F32:
		g.use("math.dec")
		return "math.Float32frombits(d.u32())"
	case schema.F64:
		g.use("math.dec")
		return "math.Float64frombits(d.u64())"
	}
	panic("go backend: readScalar of " + k.String())
}

// decodeValue emits code decoding a value coded as v into x (addressable,
// holding the zero value). A failure leaves d.err set; loops over elements
// that can fail stop at the first failure and name the index.
func (g *generator) decodeValue(p *emit.Printer, v *plan.Value, x string, lvl int) {
	i := fmt.Sprintf("i%d", lvl)
	switch v.Op {
	case plan.Scalar:
		p.F("%s = %s", x, g.readScalar(v.Kind))
	case plan.String:
		p.F("%s = d.str(%s)", x, x)
	case plan.Bytes:
		p.F("%s = d.bytes(%s)", x, x)
	case plan.Numbers:
		k := bulkKinds[v.Kind]
		g.use("bulk." + k)
		p.F("%s = d.array%s(%s)", x, k, x)
	case plan.PlainArray:
		// A new slice of plain structs is copied into without being
		// cleared first (new<T>s).
		p.F("if n := d.count(%d); n > cap(%s) && d.depth+%d <= d.maxDepth {", v.MinElem, x, v.Plain.Depth)
		p.F("\t%s = newPlain%ss(d.b[d.off:], n)", x, g.names.decl[v.Elem.Decl.Struct])
		p.F("\td.off += n * %d", v.Plain.Size)
		p.P("} else {")
		p.In()
		p.F("%s = resize(%s, n)", x, x)
		g.decodeArrayElems(p, v, x, i, lvl)
		p.Out()
		p.P("}")
	case plan.Array:
		count := fmt.Sprintf("d.count(%d)", v.MinElem)
		if v.Charge > 0 {
			count = fmt.Sprintf("d.chargeCount(%s, %d)", count, v.Charge)
		}
		p.F("%s = resize(%s, %s)", x, x, count)
		g.decodeArrayElems(p, v, x, i, lvl)
	case plan.FixedBytes:
		p.F("d.fixedBytes(%s[:])", sel(x))
	case plan.FixedNumbers:
		k := bulkKinds[v.Kind]
		g.use("bulk." + k)
		p.F("d.fixed%ss(%s[:])", k, sel(x))
	case plan.FixedPlain, plan.FixedArray:
		g.decodeArrayElems(p, v, x, i, lvl)
	case plan.Optional:
		cond := "d.present()"
		if v.Charge > 0 {
			cond = fmt.Sprintf("d.present() && d.chargePresent(%d)", v.Charge)
		}
		p.P("if " + cond + " {")
		p.In()
		if v.Elem.Op == plan.Union {
			g.decodeValue(p, v.Elem, x, lvl+1)
		} else {
			p.F("if %s == nil {", x)
			p.F("\t%s = new(%s)", x, g.goType(v.Elem.Type))
			p.P("}")
			g.decodeValue(p, v.Elem, deref(v.Elem, x), lvl+1)
		}
		p.Out()
		p.P("} else {")
		p.F("\t%s = nil", x)
		p.P("}")
	case plan.Struct:
		p.F("%s.decode(d)", sel(x))
	case plan.Enum:
		p.F("%s = decode%s(d)", x, g.names.decl[v.Decl.Enum])
	case plan.Union:
		p.F("%s = decode%s(d, %s)", x, g.names.decl[v.Decl.Union], x)
	default:
		panic("go backend: decodeValue of " + v.String())
	}
}

// decodeElems emits a loop decoding every element of the array x; it stops
// at the first failure, naming the index.
func (g *generator) decodeElems(p *emit.Printer, elem *plan.Value, x, i string, lvl int) {
	p.Block(fmt.Sprintf("for %s := range %s {", i, x), "}", func() {
		g.decodeValue(p, elem, sel(x)+"["+i+"]", lvl+1)
		p.P("if d.err != nil {")
		p.F("\td.index(%s)", i)
		p.P("\tbreak")
		p.P("}")
	})
}
