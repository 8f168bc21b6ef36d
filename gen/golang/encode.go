package golang

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// bulkKinds name the helpers of the element kinds of plan.Numbers and
// plan.FixedNumbers, copied in bulk on little-endian hosts ([]u8 is always
// one copy and needs no helper).
var bulkKinds = map[schema.Kind]string{
	schema.U16: "U16", schema.U32: "U32", schema.U64: "U64", schema.I8: "I8",
	schema.I16: "I16", schema.I32: "I32", schema.I64: "I64", schema.F32: "F32", schema.F64: "F64",
}

func (g *generator) emitEncode(p *emit.Printer) []string {
	var imports []string
	if len(g.s.Decls) > 0 {
		imports = append(imports, "io") // WriteTo, ReadFrom
	}
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			name := g.names.decl[d]
			pd := g.plan.Of(d)
			fs := g.structFields(d)
			g.emitMarshalMethods(p, "m *"+name, "m", name, d.Name, fs, pd.Tail)
			g.emitSize(p, "m *"+name, "m", fs, 0)
			g.emitCheck(p, "m *"+name, "m", name, fs, "")
			p.F("// encode appends the fields of %s to b.", name)
			p.Block("func (m *"+name+") encode(b []byte, e *encoder) []byte {", "}", func() {
				if pd.Flat {
					g.encodeFlat(p, "m", fs, d.Name)
				} else {
					g.encodeFields(p, "m", fs, d.Name)
				}
				p.P("return b")
			})
			p.P()
		case *schema.Enum:
			name := g.names.decl[d]
			g.emitMarshalMethods(p, "v "+name, "v", name, d.Name, fields{}, nil)
			p.P("// EncodedSize returns the number of bytes MarshalBinary produces.")
			p.F("func (v %s) EncodedSize() int { return %d }", name, d.Base.Size())
			p.P()
			p.P("// encodedSize is EncodedSize in 64 bits.")
			p.F("func (v %s) encodedSize() int64 { return %d }", name, d.Base.Size())
			p.P()
			p.F("// validate records an error for a number that names no value of %s.", name)
			p.Block("func (v "+name+") validate(e *encoder) {", "}", func() {
				p.Block("if !"+enumWire(d, "v")+".IsValid() {", "}", func() {
					p.F("e.fail(RuleEnum, v.String()+\" is not a value of %s\")", d.Name)
				})
			})
			p.P()
			p.F("// check reports whether v is a value of %s, as validate does.", name)
			p.Block("func (v "+name+") check(c *checker) bool {", "}", func() {
				p.Block("if !"+enumWire(d, "v")+".IsValid() {", "}", func() {
					p.F("return c.fail(RuleEnum, v.String()+\" is not a value of %s\")", d.Name)
				})
				p.P("return true")
			})
			p.P()
			p.P("// encode appends v.")
			p.Block("func (v "+name+") encode(b []byte, e *encoder) []byte {", "}", func() {
				p.P("v.validate(e)")
				p.P("return ", g.appendScalar(d.Base, scalarTypes[d.Base]+"("+enumWire(d, "v")+")"))
			})
			p.P()
		case *schema.Union:
			for _, pv := range g.plan.Of(d).Variants {
				v := pv.Variant
				vt := g.names.vtype[v]
				g.emitMarshalMethods(p, "v "+vt, "v", vt, d.Name+"."+v.Name, fields{}, nil)
				fs := g.variantFields(pv)
				g.emitSize(p, "v "+vt, "v", fs, 1)
				g.emitCheck(p, "v "+vt, "v", vt, fs, pv.Name)
				p.F("// encode appends the tag of %s (%d), then its fields.", vt, v.Tag)
				p.Block("func (v "+vt+") encode(b []byte, e *encoder) []byte {", "}", func() {
					p.F("b = append(b, %d)", v.Tag)
					g.encodeFields(p, "v", fs, d.Name+"."+v.Name)
					p.P("return b")
				})
				p.P()
			}
		}
	}
	return append(imports, g.encodeImports()...)
}

// encodeFields emits the encoding of fields: runs of fixed-layout fields
// together, the others one by one.
func (g *generator) encodeFields(p *emit.Printer, recv string, fs fields, ctx string) {
	for i, r := range g.runs(recv, fs, ctx) {
		if r.leaves == nil {
			f := r.fields[0]
			g.encodeValue(p, f.v, recv+"."+f.goName, joinPath(ctx, f.name), 0)
			continue
		}
		g.encodeRun(p, r, fmt.Sprintf("r%d", i))
	}
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// encodeImports are the packages the encoders reference.
func (g *generator) encodeImports() []string {
	var out []string
	if g.uses["binary.enc"] {
		out = append(out, "encoding/binary")
	}
	if g.uses["math.enc"] {
		out = append(out, "math")
	}
	return out
}

// field is a planned struct field, inline variant field, or the struct a
// struct variant carries, with its Go name.
type field struct {
	goName, name string
	v            *plan.Value
	pf           *plan.Field
}

// fields are the fields of a struct or variant and the plan's steps over
// them.
type fields struct {
	list  []field
	steps []plan.Step
}

func (g *generator) structFields(st *schema.Struct) fields {
	pd := g.plan.Of(st)
	return fields{list: g.toFields(pd.Fields, ""), steps: pd.Steps}
}

// toFields names planned fields; an unnamed one (the struct of a struct
// variant) is called unnamed.
func (g *generator) toFields(pfs []*plan.Field, unnamed string) []field {
	var out []field
	for _, f := range pfs {
		goName := unnamed
		if f.Field != nil {
			goName = fieldName(f.Field)
		}
		out = append(out, field{goName: goName, name: f.Name, v: f.Value, pf: f})
	}
	return out
}

// variantFields are what a variant carries after its tag. A struct
// variant's struct has no name of its own on the wire: error paths go from
// the variant straight to the struct's fields.
func (g *generator) variantFields(v *plan.Variant) fields {
	unnamed := ""
	if v.Variant.Kind == schema.VariantStruct {
		unnamed = structVariantField(g.names.decl[v.Variant.Struct])
	}
	return fields{list: g.toFields(v.Fields, unnamed), steps: v.Steps}
}

// bulkAppendMin is the size (32 KiB) from which MarshalBinary lets appending
// a bulk array allocate the encoding (see bulkTail): clearing a block first
// costs more than a second, small allocation from there on.
const bulkAppendMin = "32<<10"

// emitMarshalMethods writes MarshalBinary, AppendBinary and WriteTo for a
// type with EncodedSize and encode methods; schemaName names it in errors,
// fs are a struct's fields, and tail the plan's bulk tail of them (nil when
// it has none).
func (g *generator) emitMarshalMethods(p *emit.Printer, recv, v, name, schemaName string, fs fields, tail *plan.BulkTail) {
	bulk := tail != nil
	var head, elem int
	var last field
	if bulk {
		head, elem = tail.Head, tail.Elem
		last = fs.list[len(fs.list)-1]
	}
	if bulk {
		p.P("// MarshalBinary implements encoding.BinaryMarshaler. It allocates the exact")
		p.F("// encoded size. When %s holds 32 KiB or more, the %d bytes before it go", last.goName, head)
		p.P("// in a small block first, and appending the array allocates the encoding's")
		p.P("// block without clearing it, so that its bytes are written once.")
	} else {
		p.P("// MarshalBinary implements encoding.BinaryMarshaler. It allocates once, the")
		p.P("// exact encoded size.")
	}
	p.Block("func ("+recv+") MarshalBinary() ([]byte, error) {", "}", func() {
		p.F("n := %s.encodedSize()", v)
		p.P("if n > int64(maxInt) {")
		p.P("\treturn nil, sizeError(n)")
		p.P("}")
		p.P("var e encoder")
		if bulk {
			p.P("var b []byte")
			p.Block(fmt.Sprintf("if len(%s.%s)*%d < %s {", v, last.goName, elem, bulkAppendMin), "} else {", func() {
				p.P("b = make([]byte, 0, int(n))")
			})
			p.In()
			p.F("b = make([]byte, 0, %d)", head)
			p.Out()
			p.P("}")
			p.F("b = %s.encode(b, &e)", v)
		} else {
			p.F("b := %s.encode(make([]byte, 0, int(n)), &e)", v)
		}
		p.P("if e.err != nil {")
		p.F("\treturn nil, e.error(%s.check)", v)
		p.P("}")
		if bulk {
			p.P("// append's block is rounded up to a size the allocator has, as make's")
			p.P("// is; the capacity is the encoded size either way.")
			p.P("return b[:len(b):len(b)], nil")
		} else {
			p.P("return b, nil")
		}
	})
	p.P()
	p.F("// AppendBinary appends the encoding of %s to b and returns the extended", name)
	p.P("// slice; it grows b at most once. On error it returns b unchanged.")
	p.Block("func ("+recv+") AppendBinary(b []byte) ([]byte, error) {", "}", func() {
		p.F("n := %s.encodedSize()", v)
		p.P("if n > int64(maxInt-len(b)) {")
		p.P("\treturn b, sizeError(n)")
		p.P("}")
		p.P("start := len(b)")
		p.P("var e encoder")
		p.F("b = %s.encode(grow(b, int(n)), &e)", v)
		p.P("if e.err != nil {")
		p.F("\treturn b[:start], e.error(%s.check)", v)
		p.P("}")
		p.P("return b, nil")
	})
	p.P()
	p.F("// WriteTo implements io.WriterTo: it writes the encoding of %s to w in one", name)
	p.P("// Write call.")
	p.Block("func ("+recv+") WriteTo(w io.Writer) (int64, error) {", "}", func() {
		p.F("b, err := %s.MarshalBinary()", v)
		p.P("if err != nil {")
		p.P("\treturn 0, err")
		p.P("}")
		p.P("n, err := w.Write(b)")
		p.P("return int64(n), err")
	})
	p.P()
}

// emitSize writes EncodedSize: a constant for the fixed-size part plus code
// for the rest. extra counts bytes before the fields (a union tag).
func (g *generator) emitSize(p *emit.Printer, recv, v string, fs fields, extra int) {
	body := emit.New("\t")
	fixed := extra
	for _, f := range fs.list {
		fixed += g.sizeValue(body, f.v, v+"."+f.goName, 0)
	}
	src := string(body.Bytes())
	if src == "\n" {
		p.P("// EncodedSize returns the number of bytes MarshalBinary produces.")
		p.F("func (%s) EncodedSize() int { return %d }", recv, fixed)
		p.P()
		p.P("// encodedSize is EncodedSize in 64 bits.")
		p.F("func (%s) encodedSize() int64 { return %d }", recv, fixed)
		p.P()
		return
	}
	p.P("// EncodedSize returns the number of bytes MarshalBinary produces, or -1")
	p.P("// when that is more than an int holds (possible on a 32-bit host only).")
	p.F("func (%s) EncodedSize() int { return sizeInt(%s.encodedSize()) }", recv, v)
	p.P()
	p.P("// encodedSize is EncodedSize summed in 64 bits, which lengths of values")
	p.P("// in memory cannot overflow.")
	p.Block("func ("+recv+") encodedSize() int64 {", "}", func() {
		p.F("n := int64(%d)", fixed)
		p.Line(src[:len(src)-1])
		p.P("return n")
	})
	p.P()
}

// sizeValue emits code adding the variable part of x's size to n and
// returns the constant part.
func (g *generator) sizeValue(p *emit.Printer, v *plan.Value, x string, lvl int) int {
	if v.Fixed >= 0 && v.Op != plan.Union {
		return v.Fixed
	}
	i := fmt.Sprintf("i%d", lvl)
	switch v.Op {
	case plan.String:
		p.F("n += int64(len(%s))", x)
		return 4
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		if k := v.Elem.Fixed; k >= 0 {
			if k == 1 {
				p.F("n += int64(len(%s))", x)
			} else {
				p.F("n += int64(len(%s)) * %d", x, k)
			}
			return 4
		}
		p.Block(fmt.Sprintf("for %s := range %s {", i, x), "}", func() {
			g.sizeValueFull(p, v.Elem, sel(x)+"["+i+"]", lvl+1)
		})
		return 4
	case plan.FixedArray:
		p.Block(fmt.Sprintf("for %s := range %s {", i, x), "}", func() {
			g.sizeValueFull(p, v.Elem, sel(x)+"["+i+"]", lvl+1)
		})
		return 0
	case plan.Optional:
		if v.Elem.Op == plan.Union {
			p.Block("if "+x+" != nil {", "}", func() { p.F("n += %s.encodedSize()", sel(x)) })
			return 1
		}
		p.Block("if "+x+" != nil {", "}", func() {
			g.sizeValueFull(p, v.Elem, deref(v.Elem, x), lvl+1)
		})
		return 1
	case plan.Struct:
		p.F("n += %s.encodedSize()", sel(x))
	case plan.Union:
		if v.Fixed >= 0 {
			return v.Fixed
		}
		p.Block("if "+x+" != nil {", "} else {", func() { p.F("n += %s.encodedSize()", sel(x)) })
		p.F("\tn += %s{}.encodedSize()", g.names.vtype[v.Decl.Union.Variants[0]])
		p.P("}")
	}
	return 0
}

// sizeValueFull emits code adding all of x's size to n.
func (g *generator) sizeValueFull(p *emit.Printer, v *plan.Value, x string, lvl int) {
	if k := g.sizeValue(p, v, x, lvl); k > 0 {
		p.F("n += %d", k)
	}
}

// deref is the expression for the value an optional's pointer points to;
// methods of struct pointers are called on the pointer itself.
func deref(elem *plan.Value, x string) string {
	if elem.Op == plan.Struct {
		return x
	}
	return "*" + x
}

// sel parenthesizes a dereference before an index or selector: *p → (*p).
func sel(x string) string {
	if strings.HasPrefix(x, "*") {
		return "(" + x + ")"
	}
	return x
}

// appendScalar is the expression appending scalar x of kind k to b.
func (g *generator) appendScalar(k schema.Kind, x string) string {
	switch k {
	case schema.Bool:
		return "appendBool(b, " + x + ")"
	case schema.U8:
		return "append(b, " + x + ")"
	case schema.I8:
		return "append(b, byte(" + x + "))"
	}
	g.use("binary.enc")
	switch k {
	case schema.U16:
		return "binary.LittleEndian.AppendUint16(b, " + x + ")"
	case schema.U32:
		return "binary.LittleEndian.AppendUint32(b, " + x + ")"
	case schema.U64:
		return "binary.LittleEndian.AppendUint64(b, " + x + ")"
	case schema.I16:
		return "binary.LittleEndian.AppendUint16(b, uint16(" + x + "))"
	case schema.I32:
		return "binary.LittleEndian.AppendUint32(b, uint32(" + x + "))"
	case schema.I64:
		return "binary.LittleEndian.AppendUint64(b, uint64(" + x + "))"
	case schema.F32:
		g.use("math.enc")
		return "binary.LittleEndian.AppendUint32(b, math.Float32bits(" + x + "))"
	case schema.F64:
		g.use("math.enc")
		return "binary.LittleEndian.AppendUint64(b, math.Float64bits(" + x + "))"
	}
	panic("go backend: appendScalar of " + k.String())
}

// encodeValue emits code appending x (coded as v) to b. ctx names the
// field in error messages.
func (g *generator) encodeValue(p *emit.Printer, v *plan.Value, x, ctx string, lvl int) {
	i := fmt.Sprintf("i%d", lvl)
	switch v.Op {
	case plan.Scalar:
		p.F("b = %s", g.appendScalar(v.Kind, x))
	case plan.String:
		p.F("b = appendString(b, %s, e)", x)
	case plan.Bytes:
		p.F("b = appendBytes(b, %s, e)", x)
	case plan.Numbers, plan.PlainArray, plan.Array:
		p.F("b = appendCount(b, len(%s), e)", x)
		g.encodeElems(p, v, x, x, ctx, i, lvl)
	case plan.FixedBytes:
		p.F("b = append(b, %s[:]...)", sel(x))
	case plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		g.encodeElems(p, v, x, sel(x)+"[:]", ctx, i, lvl)
	case plan.Optional:
		p.Block("if "+x+" == nil {", "} else {", func() { p.P("b = append(b, 0)") })
		p.In()
		p.P("b = append(b, 1)")
		if v.Elem.Op == plan.Union {
			p.F("b = %s.encode(b, e)", sel(x))
		} else {
			g.encodeValue(p, v.Elem, deref(v.Elem, x), ctx, lvl+1)
		}
		p.Out()
		p.P("}")
	case plan.Struct, plan.Enum:
		p.F("b = %s.encode(b, e)", sel(x))
	case plan.Union:
		p.Block("if "+x+" == nil {", "} else {", func() {
			p.F("b = %s{}.encode(b, e) // the default value", g.names.vtype[v.Decl.Union.Variants[0]])
		})
		p.In()
		p.F("b = %s.encode(b, e)", sel(x))
		p.Out()
		p.P("}")
	default:
		panic("go backend: encodeValue of " + v.String())
	}
}

// enumWire is the expression of the number an enum value x encodes as: x
// itself, or for an enum without a 0 value x.encoded(), which maps the zero
// value (the default) to the first value.
func enumWire(en *schema.Enum, x string) string {
	if en.Value(0) == nil {
		return x + ".encoded()"
	}
	return x
}

// encodeElems emits the encoding of the elements of the array x (coded as
// v; slice is x as a slice): one bulk copy for numbers and plain structs,
// else a loop.
func (g *generator) encodeElems(p *emit.Printer, v *plan.Value, x, slice, ctx, i string, lvl int) {
	switch v.Op {
	case plan.Numbers, plan.FixedNumbers:
		g.use("bulk." + bulkKinds[v.Kind])
		p.F("b = append%ss(b, %s)", bulkKinds[v.Kind], slice)
		return
	case plan.PlainArray, plan.FixedPlain:
		p.F("b = append%ss(b, %s)", g.usePlain(v.Elem), slice)
		return
	}
	p.Block(fmt.Sprintf("for %s := range %s {", i, x), "}", func() {
		g.encodeValue(p, v.Elem, sel(x)+"["+i+"]", ctx, lvl+1)
	})
}

// emitCheck writes the check method of a struct or union variant: the walk
// that an encode which failed makes, in encoding order, to find the first
// value with no encoding and its path (see checker in rt/encoder.go).
// variant is the path segment of a union variant, "" for a struct.
func (g *generator) emitCheck(p *emit.Printer, recv, v, name string, fs fields, variant string) {
	body := emit.New("\t")
	for _, f := range fs.list {
		var fail []string
		if f.name != "" {
			fail = append(fail, fmt.Sprintf("c.at(%q)", f.name))
		}
		if variant != "" {
			fail = append(fail, fmt.Sprintf("c.at(%q)", variant))
		}
		g.checkValue(body, f.v, v+"."+f.goName, append(fail, "return false"), 0)
	}
	p.F("// check finds the first value of %s that has no encoding, in encoding", name)
	p.P("// order, and its path; it reports whether there is none.")
	src := string(body.Bytes())
	if src == "\n" {
		p.F("func (%s) check(c *checker) bool { return true }", recv)
		p.P()
		return
	}
	p.Block("func ("+recv+") check(c *checker) bool {", "}", func() {
		p.Line(src[:len(src)-1])
		p.P("return true")
	})
	p.P()
}

// checkValue emits the check of x (coded as v), which runs fail (the
// statements naming the value's path segments, innermost first, then
// returning false) at the first problem.
func (g *generator) checkValue(p *emit.Printer, v *plan.Value, x string, fail []string, lvl int) {
	failBlock := func(cond string) {
		p.Block("if "+cond+" {", "}", func() {
			for _, s := range fail {
				p.P(s)
			}
		})
	}
	i := fmt.Sprintf("i%d", lvl)
	switch v.Op {
	case plan.String:
		failBlock("!c.str(" + x + ")")
	case plan.Bytes, plan.Numbers, plan.PlainArray:
		failBlock("!c.count(len(" + x + "))")
	case plan.Array:
		failBlock("!c.count(len(" + x + "))")
		g.checkElems(p, v, x, fail, i, lvl)
	case plan.FixedArray:
		g.checkElems(p, v, x, fail, i, lvl)
	case plan.Optional:
		if v.Elem.Op == plan.Union {
			failBlock(x + " != nil && !" + sel(x) + ".check(c)")
			return
		}
		if !checks(v.Elem) {
			return
		}
		p.Block("if "+x+" != nil {", "}", func() {
			g.checkValue(p, v.Elem, deref(v.Elem, x), fail, lvl+1)
		})
	case plan.Struct, plan.Enum:
		failBlock("!" + sel(x) + ".check(c)")
	case plan.Union:
		// A nil union is the default value (the first variant), which
		// has an encoding.
		failBlock(x + " != nil && !" + sel(x) + ".check(c)")
	}
}

// checkElems emits the check of each element of the array x.
func (g *generator) checkElems(p *emit.Printer, v *plan.Value, x string, fail []string, i string, lvl int) {
	if !checks(v.Elem) {
		return
	}
	p.Block(fmt.Sprintf("for %s := range %s {", i, x), "}", func() {
		g.checkValue(p, v.Elem, sel(x)+"["+i+"]", append([]string{"c.index(" + i + ")"}, fail...), lvl+1)
	})
}

// checks reports whether a value coded as v can have no encoding, so that
// check has something to look at: anything but numbers, bools and fixed
// arrays of them. (A struct is always checked: its check method says.)
func checks(v *plan.Value) bool {
	switch v.Op {
	case plan.Scalar, plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain:
		return false
	case plan.FixedArray, plan.Optional:
		return checks(v.Elem)
	}
	return true
}
