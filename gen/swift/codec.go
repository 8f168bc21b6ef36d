package swift

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// codecFile holds the encoders, decoders and the public serialization API
// of every struct, union and enum.
func (g *generator) codecFile() []byte {
	p := g.header()
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			p.Block("extension "+g.typeName(d)+": _SDPEncodable, SDPMessageValue {", "}", func() {
				g.publicAPI(p, d.Name)
				p.P()
				g.reuseAPI(p, d)
				p.P()
				g.structSize(p, d)
				p.P()
				g.structEncode(p, d)
				p.P()
				g.structCheck(p, d)
				p.P()
				g.structDecode(p, d)
				p.P()
				g.structReadInPlace(p, d)
				p.P()
				g.locateFn(p, d)
				if g.plan.Of(d).Plain != nil {
					p.P()
					g.plainCheck(p, d)
				}
			})
		case *schema.Union:
			p.Block("extension "+g.typeName(d)+": _SDPEncodable, SDPValue {", "}", func() {
				g.publicAPI(p, d.Name)
				p.P()
				g.reuseAPI(p, d)
				p.P()
				g.unionSize(p, d)
				p.P()
				g.unionEncode(p, d)
				p.P()
				g.unionCheck(p, d)
				p.P()
				g.unionDecode(p, d)
				p.P()
				g.unionReadInPlace(p, d)
				p.P()
				g.locateFn(p, d)
			})
		case *schema.Enum:
			p.Block("extension "+g.typeName(d)+": _SDPEncodable, SDPValue {", "}", func() {
				g.publicAPI(p, d.Name)
				p.P()
				g.reuseAPI(p, d)
				p.P()
				p.P("/// The number of bytes serializedBytes() returns.")
				p.F("public var encodedSize: Int { %d }", g.plan.Of(d).Fixed)
				p.P()
				p.P("func _sdpWrite(_ w: inout _SDPWriter) {")
				p.In()
				p.P("w.int(rawValue)")
				p.Out()
				p.P("}")
				p.P()
				g.writeAt(p)
				p.P()
				p.P("func _sdpCheck(_: UInt64) throws(EncodeError) {}")
				p.P()
				g.enumDecode(p, d)
				p.P()
				g.locateFn(p, d)
			})
		}
		p.P()
	}
	return p.Bytes()
}

// publicAPI prints the serialization API every struct, union and enum
// offers.
func (g *generator) publicAPI(p *emit.Printer, name string) {
	decode := "{ (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpFrom: &r, depth: 1) }"
	p.F("/// Decodes `%s` from bytes that hold exactly one value.", name)
	p.Block("public init(serializedBytes bytes: [UInt8]) throws(DecodeError) {", "}", func() {
		p.P("try self.init(serializedBytes: bytes, options: DecodeOptions())")
	})
	p.P()
	p.F("/// Decodes `%s` from bytes that hold exactly one value, with options (the depth limit).", name)
	p.Block("public init(serializedBytes bytes: [UInt8], options: DecodeOptions) throws(DecodeError) {", "}", func() {
		p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpPath) ", decode, ".0")
	})
	p.P()
	p.F("/// Decodes `%s` from a raw buffer that holds exactly one value (no copy is made).", name)
	p.Block("public init(serializedBytes bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
		p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpPath) ", decode, ".0")
	})
	p.P()
	p.F("/// Decodes `%s` from the start of bytes; returns it with the number of", name)
	p.P("/// bytes it took. Bytes after it are left alone.")
	p.Block("public static func decodePrefix(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> (value: Self, bytesConsumed: Int) {", "}", func() {
		p.P("try _sdpDecode(bytes, options, prefix: true, at: Self._sdpPath) ", decode)
	})
	p.P()
	p.F("/// Decodes `%s` from the start of a raw buffer; returns it with the", name)
	p.P("/// number of bytes it took.")
	p.Block("public static func decodePrefix(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> (value: Self, bytesConsumed: Int) {", "}", func() {
		p.P("try _sdpDecode(bytes, options, prefix: true, at: Self._sdpPath) ", decode)
	})
	p.P()
	p.P("/// The encoding: exactly encodedSize bytes, allocated once. Traps on a")
	p.P("/// value that has no encoding (see checkedSerializedBytes()).")
	p.Block("public func serializedBytes() -> [UInt8] {", "}", func() {
		p.P("_sdpSerialize(self, size: encodedSize)")
	})
	p.P()
	p.P("/// Appends the encoding to out. Traps on a value that has no encoding.")
	p.Block("public func serialize(into out: inout [UInt8]) {", "}", func() {
		p.P("_sdpAppendPlain(self, to: &out, size: encodedSize)")
	})
	p.P()
	p.P("/// The encoding, or EncodeError for a value that has no encoding (where")
	p.P("/// serializedBytes() traps): a fixed-length array of another length (rule")
	p.P("/// \"length\"), a string or array longer than the format's u32 limit")
	p.P("/// (\"count\"), an encoding larger than Int counts (\"size\"). The check is")
	p.P("/// one comparison unless the size or the writer saw a problem.")
	p.Block("public func checkedSerializedBytes() throws(EncodeError) -> [UInt8] {", "}", func() {
		p.P("let size = encodedSize")
		p.P("try _sdpCheckSize(self, size)")
		p.P("return try _sdpSerializeChecked(self, size: size)")
	})
	p.P()
	p.P("/// Appends the encoding to out, or throws EncodeError (see")
	p.P("/// checkedSerializedBytes()) and leaves out unchanged.")
	p.Block("public func checkedSerialize(into out: inout [UInt8]) throws(EncodeError) {", "}", func() {
		p.P("try _sdpAppendChecked(self, to: &out, size: encodedSize)")
	})
}

// ---- the check walk of the checked encoders ----

// checkStmt is the statement that throws EncodeError for the first value
// in x, a value coded as v, that has no encoding (a length over limit, a
// fixed-length array of another length); "" when v can hold none.
func (g *generator) checkStmt(v *plan.Value, x string, depth int) string {
	e := fmt.Sprintf("e%d", depth)
	switch {
	case v.Op == plan.String:
		return "try _sdpCheckLength(" + x + ".utf8.count, limit)"
	case v.Op.IsArray():
		inner := g.checkStmt(v.Elem, e, depth+1)
		fixed := !v.Op.Counted()
		switch {
		case inner == "" && fixed:
			return fmt.Sprintf("try _sdpCheckFixed(%s.count, %d)", x, v.Len)
		case inner == "":
			return "try _sdpCheckLength(" + x + ".count, limit)"
		case fixed:
			return fmt.Sprintf("try _sdpCheckFixedArray(%s, %d, limit) { (%s) throws(EncodeError) in %s }", x, v.Len, e, inner)
		}
		return fmt.Sprintf("try _sdpCheckArray(%s, limit, counted: true) { (%s) throws(EncodeError) in %s }", x, e, inner)
	case v.Op == plan.Optional:
		inner := g.checkStmt(v.Elem, e, depth+1)
		if inner == "" {
			return ""
		}
		return fmt.Sprintf("try _sdpCheckPresent(%s) { (%s) throws(EncodeError) in %s }", x, e, inner)
	case v.Op == plan.Struct || v.Op == plan.Union:
		if !g.declChecks(v.Decl) {
			return ""
		}
		return "try " + x + "._sdpCheck(limit)"
	}
	return ""
}

// declChecks reports whether a struct's or union's values can hold a value
// that has no encoding in Swift: a string, an array or a fixed-length array
// somewhere inside (its types hold nothing else that could be refused).
func (g *generator) declChecks(d *plan.Decl) bool {
	if g.checks == nil {
		// A fixed point over every declaration: a recursive type refers to
		// itself through an optional or an array.
		g.checks = map[*plan.Decl]bool{}
		for changed := true; changed; {
			changed = false
			for _, d := range g.plan.Decls {
				if d.Enum != nil || g.checks[d] {
					continue
				}
				fields := append([]*plan.Field(nil), d.Fields...)
				for _, v := range d.Variants {
					fields = append(fields, v.Fields...)
				}
				for _, f := range fields {
					if g.checkStmt(f.Value, "v", 0) != "" {
						g.checks[d], changed = true, true
						break
					}
				}
			}
		}
	}
	return g.checks[d]
}

// checkFields prints the checks of fields whose values are named by val,
// each adding its schema name to the error's path; false when none needs
// one.
func (g *generator) checkFields(p *emit.Printer, fields []*plan.Field, val func(*plan.Field) string) bool {
	any := false
	for _, f := range fields {
		if st := g.checkStmt(f.Value, val(f), 0); st != "" {
			p.F("try _sdpIn(%q) { () throws(EncodeError) in %s }", f.Field.Name, st)
			any = true
		}
	}
	return any
}

// selfField names a struct's field in its own methods.
func selfField(f *plan.Field) string { return "self." + member(f.Field.Name) }

func (g *generator) structCheck(p *emit.Printer, st *schema.Struct) {
	fields := g.plan.Of(st).Fields
	if !g.checkFields(emit.New("    "), fields, selfField) {
		p.P("func _sdpCheck(_: UInt64) throws(EncodeError) {}")
		return
	}
	p.Block("func _sdpCheck(_ limit: UInt64) throws(EncodeError) {", "}", func() {
		g.checkFields(p, fields, selfField)
	})
}

func (g *generator) unionCheck(p *emit.Printer, u *schema.Union) {
	needs := func(f *plan.Field) bool { return g.checkStmt(f.Value, "v", 0) != "" }
	variants := g.plan.Of(u).Variants
	var cases []*plan.Variant
	for _, v := range variants {
		// A struct variant's one field is the struct.
		for _, f := range v.Fields {
			if needs(f) {
				cases = append(cases, v)
				break
			}
		}
	}
	if len(cases) == 0 {
		p.P("func _sdpCheck(_: UInt64) throws(EncodeError) {}")
		return
	}
	p.Block("func _sdpCheck(_ limit: UInt64) throws(EncodeError) {", "}", func() {
		switchBlock(p, "switch self {", func() {
			for _, v := range cases {
				caseBlock(p, "case "+variantPattern(v, needs)+":", func() {
					if v.Variant.Kind == schema.VariantStruct {
						p.F("try _sdpIn(%q) { () throws(EncodeError) in try v._sdpCheck(limit) }", v.Name)
						return
					}
					p.Block(fmt.Sprintf("try _sdpIn(%q) { () throws(EncodeError) in", v.Name), "}", func() {
						g.checkFields(p, v.Fields, bound)
					})
				})
			}
			if len(cases) < len(variants) {
				p.P("default: break")
			}
		})
	})
}

// ---- sizes ----

// sizeParts is the encoded size of x, a value coded as v, as a constant and
// the expressions to add to it: the constant parts of a struct's fields are
// summed at generation time, so each variable field costs one addition.
// The additions and multiplications saturate at Int.max (_sdpAdd,
// _sdpMul): a value whose size overflows Int (shared copy-on-write arrays
// can describe more bytes than memory holds, and Int is 32 bits on some
// targets) has the size Int.max, which the checked encoders refuse with
// rule "size" and the plain ones trap on, instead of wrapping to a size the
// writer would overrun. Measured on the plugin registry encode (callgrind,
// 20 parameters): 4,357 instructions with wrapping additions, 4,611 with a
// checked addition per term as written before, 4,443 with the constants
// folded.
func (g *generator) sizeParts(v *plan.Value, x string, depth int) (int, []string) {
	if v.Fixed >= 0 {
		return v.Fixed, nil
	}
	e := fmt.Sprintf("e%d", depth)
	switch v.Op {
	case plan.String:
		return 4, []string{x + ".utf8.count"}
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		if n := v.Elem.Fixed; n >= 0 {
			if n == 1 {
				return 4, []string{x + ".count"}
			}
			return 4, []string{fmt.Sprintf("_sdpMul(%s.count, %d)", x, n)}
		}
		return 4, []string{g.elementsSize(v.Elem, x, depth)}
	case plan.FixedArray:
		e := fmt.Sprintf("e%d", depth)
		fixed, vars := g.sizeParts(v.Elem, e, depth+1)
		return 0, []string{fmt.Sprintf("_sdpFixedElementsSize(%s, %d, %d) { %s in %s }", x, v.Len, fixed, e, sumExpr(0, vars))}
	case plan.Optional:
		return 1, []string{fmt.Sprintf("_sdpPresentSize(%s) { %s in %s }", x, e, g.sizeExpr(v.Elem, e, depth+1))}
	case plan.Struct, plan.Union:
		return 0, []string{x + ".encodedSize"}
	}
	panic("swift: size of " + v.Type.String())
}

// elementsSize is the encoded size of the elements of x, an array of
// variable-size elements coded as elem: the constant part of each element
// is multiplied by the count, so each element costs one addition.
func (g *generator) elementsSize(elem *plan.Value, x string, depth int) string {
	e := fmt.Sprintf("e%d", depth)
	fixed, vars := g.sizeParts(elem, e, depth+1)
	return fmt.Sprintf("_sdpElementsSize(%s, %d) { %s in %s }", x, fixed, e, sumExpr(0, vars))
}

// sizeExpr is the encoded size of x, a value coded as v, as one expression.
func (g *generator) sizeExpr(v *plan.Value, x string, depth int) string {
	fixed, vars := g.sizeParts(v, x, depth)
	return sumExpr(fixed, vars)
}

// sumExpr adds a constant and expressions (saturating additions).
func sumExpr(fixed int, vars []string) string {
	if len(vars) == 0 {
		return fmt.Sprint(fixed)
	}
	sum := vars[0]
	if fixed != 0 {
		sum = fmt.Sprintf("_sdpAdd(%d, %s)", fixed, sum)
	}
	for _, v := range vars[1:] {
		sum = fmt.Sprintf("_sdpAdd(%s, %s)", sum, v)
	}
	return sum
}

// fieldsSize prints `var n = ...` summing the sizes of fields whose values
// are named by val.
func (g *generator) fieldsSize(p *emit.Printer, fields []*plan.Field, fixedExtra int, val func(*plan.Field) string) {
	fixed := fixedExtra
	var vars []string
	for _, f := range fields {
		n, vs := g.sizeParts(f.Value, val(f), 0)
		fixed += n
		vars = append(vars, vs...)
	}
	if len(vars) <= 1 {
		p.F("return %s", sumExpr(fixed, vars))
		return
	}
	p.F("var n = %d", fixed)
	for _, v := range vars {
		p.F("n = _sdpAdd(n, %s)", v)
	}
	p.P("return n")
}

func (g *generator) structSize(p *emit.Printer, st *schema.Struct) {
	p.P("/// The number of bytes serializedBytes() returns.")
	p.Block("public var encodedSize: Int {", "}", func() {
		g.fieldsSize(p, g.plan.Of(st).Fields, 0, selfField)
	})
}

// variantPattern is the case pattern of a variant: a struct variant binds
// its value as v, an inline variant binds the fields that need is true for
// as v0, v1, ... (by field index) and ignores the others.
func variantPattern(v *plan.Variant, need func(*plan.Field) bool) string {
	c := "." + variantCase(v.Variant)
	switch {
	case v.Variant.Kind == schema.VariantStruct:
		return c + "(let v)"
	case v.Variant.Kind == schema.VariantInline && len(v.Fields) > 0:
		any := false
		for _, f := range v.Fields {
			any = any || need(f)
		}
		if !any {
			return c
		}
		var bs []string
		for _, f := range v.Fields {
			if need(f) {
				bs = append(bs, "let "+bound(f))
			} else {
				bs = append(bs, "_")
			}
		}
		return c + "(" + strings.Join(bs, ", ") + ")"
	}
	return c
}

// bound is the name variantPattern binds an inline variant's field to.
func bound(f *plan.Field) string { return fmt.Sprintf("v%d", f.Field.Index) }

// always is a variantPattern need that binds every field.
func always(*plan.Field) bool { return true }

func (g *generator) unionSize(p *emit.Printer, u *schema.Union) {
	pd := g.plan.Of(u)
	p.P("/// The number of bytes serializedBytes() returns.")
	p.Block("public var encodedSize: Int {", "}", func() {
		if pd.Fixed >= 0 {
			p.F("%d", pd.Fixed)
			return
		}
		switchBlock(p, "switch self {", func() {
			for _, v := range pd.Variants {
				switch v.Variant.Kind {
				case schema.VariantStruct:
					if v.Fixed >= 0 {
						p.F("case .%s: return %d", variantCase(v.Variant), v.Fixed)
					} else {
						p.F("case .%s(let v): return _sdpAdd(1, v.encodedSize)", variantCase(v.Variant))
					}
				case schema.VariantInline:
					variable := func(f *plan.Field) bool { return f.Value.Fixed < 0 }
					caseBlock(p, "case "+variantPattern(v, variable)+":", func() {
						g.fieldsSize(p, v.Fields, 1, bound)
					})
				default:
					p.F("case .%s: return 1", variantCase(v.Variant))
				}
			}
		})
	})
}

// ---- encoding ----

// writeStmt writes x, a value coded as v, to w.
func (g *generator) writeStmt(v *plan.Value, x string, depth int) string {
	e := fmt.Sprintf("e%d", depth)
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.Bool:
			return "w.bool(" + x + ")"
		case schema.F32:
			return "w.f32(" + x + ")"
		case schema.F64:
			return "w.f64(" + x + ")"
		}
		return "w.int(" + x + ")"
	case plan.String:
		return "w.string(" + x + ")"
	case plan.Enum:
		return "w.int(" + x + ".rawValue)"
	case plan.Struct, plan.Union:
		return x + "._sdpWrite(&w)"
	case plan.Bytes, plan.Numbers:
		return "w.numbers(" + x + ")"
	case plan.FixedBytes, plan.FixedNumbers:
		return fmt.Sprintf("w.fixedNumbers(%s, %d)", x, v.Len)
	case plan.PlainArray, plan.FixedPlain:
		return g.plainWrite(v, x, e)
	case plan.Array:
		if v.Elem.Op == plan.Struct {
			return fmt.Sprintf("w.structs(%s) { w, %s in %s._sdpWrite(at: %s, &w) }", x, e, g.declName(v.Elem), e)
		}
		return fmt.Sprintf("w.array(%s) { w, %s in %s }", x, e, g.writeStmt(v.Elem, e, depth+1))
	case plan.FixedArray:
		if v.Elem.Op == plan.Struct {
			return fmt.Sprintf("w.fixedStructs(%s, %d) { w, %s in %s._sdpWrite(at: %s, &w) }", x, v.Len, e, g.declName(v.Elem), e)
		}
		return fmt.Sprintf("w.fixed(%s, %d) { w, %s in %s }", x, v.Len, e, g.writeStmt(v.Elem, e, depth+1))
	case plan.Optional:
		return fmt.Sprintf("w.optional(%s) { w, %s in %s }", x, e, g.writeStmt(v.Elem, e, depth+1))
	}
	panic("swift: write of " + v.Type.String())
}

// structEncode prints the encoder of a struct. It reads the fields through
// a pointer to the value: a struct passed by value from an array element
// to a function that is not inlined is copied first (retaining every
// string and array it holds), because the writer's raw-pointer stores
// might alias it; measured 40% of the plugin registry's encode time.
func (g *generator) structEncode(p *emit.Printer, st *schema.Struct) {
	fields := g.plan.Of(st).Fields
	if len(fields) == 0 {
		p.P("func _sdpWrite(_: inout _SDPWriter) {}")
		p.P()
		p.P("static func _sdpWrite(at _: UnsafePointer<Self>, _: inout _SDPWriter) {}")
		return
	}
	// The same statements on self: withUnsafePointer(to: self) would first
	// store a value held in registers to the stack (measured 6% slower on
	// the all-primitives struct).
	p.Block("func _sdpWrite(_ out: inout _SDPWriter) {", "}", func() {
		p.P("var w = out")
		p.P("defer { out = w }")
		for _, f := range fields {
			p.P(g.writeStmt(f.Value, selfField(f), 0))
		}
	})
	p.P()
	// The writer is copied into a local for the body: stores through its
	// raw pointer cannot then alias it, so its position stays in a register
	// instead of being written back after every field (registry encode:
	// 342k -> 321k instructions).
	p.Block("static func _sdpWrite(at p: UnsafePointer<Self>, _ out: inout _SDPWriter) {", "}", func() {
		p.P("var w = out")
		p.P("defer { out = w }")
		for _, f := range fields {
			p.P(g.writeStmt(f.Value, "p.pointee."+member(f.Field.Name), 0))
		}
	})
}

func (g *generator) unionEncode(p *emit.Printer, u *schema.Union) {
	p.Block("func _sdpWrite(_ w: inout _SDPWriter) {", "}", func() {
		switchBlock(p, "switch self {", func() {
			for _, v := range g.plan.Of(u).Variants {
				caseBlock(p, "case "+variantPattern(v, always)+":", func() {
					p.F("w.int(%d as UInt8)", v.Tag)
					switch v.Variant.Kind {
					case schema.VariantStruct:
						p.P("v._sdpWrite(&w)")
					case schema.VariantInline:
						for _, f := range v.Fields {
							p.P(g.writeStmt(f.Value, bound(f), 0))
						}
					}
				})
			}
		})
	})
	p.P()
	g.writeAt(p)
}

// writeAt prints the pointer form of the writer of an enum or union, for
// _SDPEncodable: their writers switch on the value itself.
func (g *generator) writeAt(p *emit.Printer) {
	p.Block("static func _sdpWrite(at p: UnsafePointer<Self>, _ out: inout _SDPWriter) {", "}", func() {
		p.P("p.pointee._sdpWrite(&out)")
	})
}

// ---- decoding ----

// readExpr reads a value coded as v from r; depth names the depth of the
// value holding it.
func (g *generator) readExpr(v *plan.Value, depth string) string {
	closure := "{ (r: inout _SDPReader) throws(DecodeError) in "
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.Bool:
			return "try r.bool()"
		case schema.F32:
			return "try r.f32()"
		case schema.F64:
			return "try r.f64()"
		}
		return "try r.int(" + scalarTypes[v.Kind] + ".self)"
	case plan.String:
		return "try r.string()"
	case plan.Enum:
		return "try " + g.declName(v) + "._sdpRead(&r)"
	case plan.Struct, plan.Union:
		return "try " + g.declName(v) + "(_sdpFrom: &r, depth: " + depth + " &+ 1)"
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		// Rule 11 (memory): an array of charged elements adds its count
		// times the element's nominal size to the memory total. Uncharged
		// arrays (almost all) carry no code for it.
		if v.Charge > 0 {
			return fmt.Sprintf("try r.chargedArray(minSize: %d, charge: %d) %s%s }", v.MinElem, v.Charge, closure, g.readExpr(v.Elem, depth))
		}
		switch v.Op {
		case plan.PlainArray:
			return g.plainRead(v, depth)
		case plan.Bytes, plan.Numbers:
			return "try r.numbers(" + scalarTypes[v.Kind] + ".self)"
		}
		return fmt.Sprintf("try r.array(minSize: %d) %s%s }", v.MinElem, closure, g.readExpr(v.Elem, depth))
	case plan.FixedPlain:
		return g.plainRead(v, depth)
	case plan.FixedBytes, plan.FixedNumbers:
		return fmt.Sprintf("try r.fixedNumbers(%s.self, %d)", scalarTypes[v.Kind], v.Len)
	case plan.FixedArray:
		return fmt.Sprintf("try r.elements(%d) %s%s }", v.Len, closure, g.readExpr(v.Elem, depth))
	case plan.Optional:
		// Rule 11: a present recursive optional of a large value is charged.
		if v.Charge > 0 {
			return fmt.Sprintf("try r.chargedOptional(charge: %d) %s%s }", v.Charge, closure, g.readExpr(v.Elem, depth))
		}
		return fmt.Sprintf("try r.optional %s%s }", closure, g.readExpr(v.Elem, depth))
	}
	panic("swift: read of " + v.Type.String())
}

// rawExpr reads a scalar or enum (a leaf of a run) whose bytes a preceding
// need covered.
func (g *generator) rawExpr(v *plan.Value) string {
	if v.Op == plan.Enum {
		return "try " + g.declName(v) + "._sdpRaw(&r)"
	}
	switch v.Kind {
	case schema.Bool:
		return "try r.rawBool()"
	case schema.F32:
		return "r.rawF32()"
	case schema.F64:
		return "r.rawF64()"
	}
	return "r.raw(" + scalarTypes[v.Kind] + ".self)"
}

// swiftRuns are the runs the Swift decoders read with one bounds check:
// two or more scalars and enums, read by rawExpr. (Nested structs are read
// by their own initializers.)
var swiftRuns = plan.RunRule{Enums: true, MinFields: 2}

// readFields prints the reads of fields in order, assigning each with
// assign(field, expression). Runs of scalars share one bounds check.
func (g *generator) readFields(p *emit.Printer, fields []*plan.Field, assign func(*plan.Field, string) string) {
	g.readFieldsWith(p, fields, assign, func(f *plan.Field) string { return assign(f, g.readExpr(f.Value, "depth")) })
}

// readFieldsWith is readFields with the statement that reads a field
// outside a run of scalars given by single.
func (g *generator) readFieldsWith(p *emit.Printer, fields []*plan.Field, assign func(*plan.Field, string) string, single func(*plan.Field) string) {
	for _, s := range plan.Group(fields, swiftRuns) {
		if s.Run == nil {
			p.P(single(s.Fields[0]))
			continue
		}
		// One bounds check for the run. When the input ends inside it, the
		// fields are read one by one for the error a reader going front to
		// back meets first (a bad bool or enum before the end, or
		// truncation at the field that was cut); one of those reads throws,
		// since the run does not fit.
		p.Block(fmt.Sprintf("if r.end &- r.pos < %d {", s.Run.Size), "}", func() {
			for _, f := range s.Fields {
				p.F("_ = %s", g.readExpr(f.Value, "depth"))
			}
			p.P("throw DecodeError.truncated(offset: r.pos)")
		})
		for _, f := range s.Fields {
			p.P(assign(f, g.rawExpr(f.Value)))
		}
	}
}

// local names a field read into a local: f0, f1, ... (by field index).
func local(f *plan.Field) string { return fmt.Sprintf("f%d", f.Field.Index) }

func (g *generator) structDecode(p *emit.Printer, st *schema.Struct) {
	p.Block("init(_sdpFrom r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
		p.P("try r.enter(depth)")
		// Reading into locals and initializing once was measured faster than
		// assigning stored properties one by one (which copies the struct).
		fields := g.plan.Of(st).Fields
		g.readFields(p, fields, func(f *plan.Field, e string) string {
			return "let " + local(f) + " = " + e
		})
		var args []string
		for _, f := range fields {
			args = append(args, label(f.Field.Name)+": "+local(f))
		}
		p.F("self.init(%s)", strings.Join(args, ", "))
	})
}

func (g *generator) unionDecode(p *emit.Printer, u *schema.Union) {
	p.Block("init(_sdpFrom r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
		p.P("try r.enter(depth)")
		p.P("let at = r.pos")
		switchBlock(p, "switch try r.int(UInt8.self) {", func() {
			for _, v := range g.plan.Of(u).Variants {
				caseBlock(p, fmt.Sprintf("case %d:", v.Tag), func() {
					g.variantRead(p, v)
				})
			}
			caseBlock(p, "default:", func() {
				p.P("throw DecodeError.invalidUnionTag(offset: at)")
			})
		})
	})
}

// variantRead prints the owned read of a variant after its tag, assigning
// self.
func (g *generator) variantRead(p *emit.Printer, v *plan.Variant) {
	c := variantCase(v.Variant)
	switch {
	case v.Variant.Kind == schema.VariantStruct:
		p.F("self = .%s(%s)", c, g.readExpr(v.Fields[0].Value, "depth"))
	case v.Variant.Kind == schema.VariantInline && len(v.Fields) > 0:
		g.readFields(p, v.Fields, func(f *plan.Field, e string) string {
			return "let " + bound(f) + " = " + e
		})
		var args []string
		for _, f := range v.Fields {
			args = append(args, label(f.Field.Name)+": "+bound(f))
		}
		p.F("self = .%s(%s)", c, strings.Join(args, ", "))
	default:
		p.F("self = .%s", c)
	}
}

func (g *generator) enumDecode(p *emit.Printer, e *schema.Enum) {
	base, size := scalarTypes[e.Base], g.plan.Of(e).Fixed
	// An enum is no struct or union value: it adds no depth.
	p.Block("init(_sdpFrom r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
		p.P("self = try Self._sdpRead(&r)")
	})
	p.P()
	p.Block("static func _sdpRead(_ r: inout _SDPReader) throws(DecodeError) -> Self {", "}", func() {
		p.F("try r.need(%d)", size)
		p.P("return try _sdpRaw(&r)")
	})
	p.P()
	p.Block("static func _sdpRaw(_ r: inout _SDPReader) throws(DecodeError) -> Self {", "}", func() {
		p.Block(fmt.Sprintf("guard let v = Self(rawValue: r.raw(%s.self)) else {", base), "}", func() {
			p.F("throw DecodeError.invalidEnum(offset: r.pos &- %d)", size)
		})
		p.P("return v")
	})
}
