package swift

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// Decoding into an existing value (issue #17): every struct has a public
// `mutating func decode(serializedBytes:options:)` (and a message form)
// that decodes into self through `_sdpReadInPlace`, reusing the storage of
// the arrays, strings, optionals and boxes the value holds. The reads,
// checks and memory charges are those of the owned decoder, in the same
// order, so both accept, reject and charge exactly the same inputs.

// reusable reports whether a value coded as v holds storage that decoding
// into it can reuse: arrays, strings, and what holds them. Other values are
// decoded as the owned decoder does and assigned.
func (g *generator) reusable(v *plan.Value) bool {
	switch {
	case v.Op == plan.String || v.Op.IsArray():
		return true
	case v.Op == plan.Optional:
		return g.reusable(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.declReusable(v.Decl)
	}
	return false
}

// declReusable is reusable for a struct or union. A type on a cycle is
// reusable: the cycle goes through an array or a boxed optional.
func (g *generator) declReusable(d *plan.Decl) bool {
	if g.reuse == nil {
		g.reuse = map[*plan.Decl]bool{}
	}
	if r, ok := g.reuse[d]; ok {
		return r
	}
	g.reuse[d] = true
	r := false
	for _, f := range d.Fields {
		r = r || boxed(f.Value) || g.reusable(f.Value)
	}
	for _, v := range d.Variants {
		r = r || g.variantReusable(v)
	}
	g.reuse[d] = r
	return r
}

// variantReusable reports whether a union variant's payload (a struct
// variant's struct, an inline variant's fields) holds reusable storage.
func (g *generator) variantReusable(v *plan.Variant) bool {
	for _, f := range v.Fields {
		if g.reusable(f.Value) {
			return true
		}
	}
	return false
}

// makeClosure reads a new value coded as v (the owned read).
func (g *generator) makeClosure(v *plan.Value, depth string) string {
	return "{ (r: inout _SDPReader) throws(DecodeError) in " + g.readExpr(v, depth) + " }"
}

// intoClosure decodes into an existing value coded as v; level numbers the
// closure's value parameter, distinct from the enclosing closures'.
func (g *generator) intoClosure(v *plan.Value, depth string, level int) string {
	x := fmt.Sprintf("x%d", level)
	return fmt.Sprintf("{ (r: inout _SDPReader, %s: inout %s) throws(DecodeError) in %s }", x, g.typ(v.Type), g.intoStmt(v, x, depth, level+1))
}

// intoStmt decodes a value coded as v into lv.
func (g *generator) intoStmt(v *plan.Value, lv, depth string, level int) string {
	if !g.reusable(v) {
		return lv + " = " + g.readExpr(v, depth)
	}
	elems := func(e *plan.Value) string {
		return g.makeClosure(e, depth) + ", " + g.intoClosure(e, depth, level)
	}
	switch v.Op {
	case plan.String:
		return "try r.string(into: &" + lv + ")"
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		if v.Charge > 0 {
			return fmt.Sprintf("try r.chargedArray(into: &%s, minSize: %d, charge: %d, %s)", lv, v.MinElem, v.Charge, elems(v.Elem))
		}
		switch v.Op {
		case plan.PlainArray:
			return g.plainInto(v, lv, depth)
		case plan.Bytes, plan.Numbers:
			return "try r.numbers(into: &" + lv + ")"
		}
		return fmt.Sprintf("try r.array(into: &%s, minSize: %d, %s)", lv, v.MinElem, elems(v.Elem))
	case plan.FixedPlain:
		return g.plainInto(v, lv, depth)
	case plan.FixedBytes, plan.FixedNumbers:
		return fmt.Sprintf("try r.fixedNumbers(into: &%s, %d)", lv, v.Len)
	case plan.FixedArray:
		return fmt.Sprintf("try r.elements(into: &%s, %d, %s)", lv, v.Len, elems(v.Elem))
	case plan.Optional:
		if v.Charge > 0 {
			return fmt.Sprintf("try r.chargedOptional(into: &%s, charge: %d, %s)", lv, v.Charge, elems(v.Elem))
		}
		return fmt.Sprintf("try r.optional(into: &%s, %s)", lv, elems(v.Elem))
	case plan.Struct, plan.Union:
		return fmt.Sprintf("try %s._sdpReadInPlace(&r, depth: %s &+ 1)", lv, depth)
	}
	panic("swift: decode into " + v.Type.String())
}

// readFieldsInPlace prints the reads of fields into the values lv names:
// runs of scalars share one bounds check, as in readFields. A boxed field
// (a struct's optional leading back to it) is decoded into its box, which
// boxedStore names.
func (g *generator) readFieldsInPlace(p *emit.Printer, fields []*plan.Field, lv func(*plan.Field) string, boxedStore func(*plan.Field) string) {
	g.readFieldsWith(p, fields, func(f *plan.Field, e string) string {
		return lv(f) + " = " + e
	}, func(f *plan.Field) string {
		if boxedStore != nil && boxed(f.Value) {
			return fmt.Sprintf("try r.boxed(into: &%s, charge: %d, %s, %s)", boxedStore(f), f.Value.Charge,
				g.makeClosure(f.Value.Elem, "depth"), g.intoClosure(f.Value.Elem, "depth", 0))
		}
		return g.intoStmt(f.Value, lv(f), "depth", 0)
	})
}

// structReadInPlace prints a struct's _sdpReadInPlace.
func (g *generator) structReadInPlace(p *emit.Printer, st *schema.Struct) {
	pd := g.plan.Of(st)
	p.P("/// Decodes into self, reusing the storage it holds (see decode(serializedBytes:options:)).")
	p.Block("mutating func _sdpReadInPlace(_ r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
		if !g.declReusable(pd) {
			p.P("self = try Self(_sdpFrom: &r, depth: depth)")
			return
		}
		p.P("try r.enter(depth)")
		g.readFieldsInPlace(p, pd.Fields, selfField,
			func(f *plan.Field) string { return "self._" + plainMember(f.Field.Name) })
	})
}

// unionPlaceholder is a value of the union that holds no storage: a variant
// without payload, or the type's static default. Decoding into a variant's
// payload first moves the payload out of the value, leaving the placeholder,
// so that the payload's storage is uniquely referenced.
func (g *generator) unionPlaceholder(u *schema.Union) string {
	for _, v := range u.Variants {
		if v.Kind != schema.VariantStruct && len(v.Fields) == 0 {
			return "." + variantCase(v)
		}
	}
	return "Self._sdpPlaceholder"
}

// unionReadInPlace prints a union's _sdpReadInPlace: a variant that the
// value holds already is decoded into; another one is read as the owned
// decoder does.
func (g *generator) unionReadInPlace(p *emit.Printer, u *schema.Union) {
	pd := g.plan.Of(u)
	if !g.declReusable(pd) {
		p.P("/// Decodes into self (the union holds no reusable storage).")
		p.Block("mutating func _sdpReadInPlace(_ r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
			p.P("self = try Self(_sdpFrom: &r, depth: depth)")
		})
		return
	}
	placeholder := g.unionPlaceholder(u)
	if placeholder == "Self._sdpPlaceholder" {
		p.P("/// A value holding no storage, for _sdpReadInPlace.")
		p.F("static let _sdpPlaceholder: Self = %s", g.zero(&schema.Type{Kind: schema.UnionRef, Union: u}))
		p.P()
	}
	p.P("/// Decodes into self, reusing the storage of the variant it holds when")
	p.P("/// the input holds the same variant.")
	p.Block("mutating func _sdpReadInPlace(_ r: inout _SDPReader, depth: Int) throws(DecodeError) {", "}", func() {
		p.P("try r.enter(depth)")
		p.P("let at = r.pos")
		switchBlock(p, "switch try r.int(UInt8.self) {", func() {
			for _, v := range pd.Variants {
				caseBlock(p, fmt.Sprintf("case %d:", v.Tag), func() {
					if !g.variantReusable(v) {
						g.variantRead(p, v)
						return
					}
					c := variantCase(v.Variant)
					var binds, args []string
					if v.Variant.Kind == schema.VariantStruct {
						binds = []string{"var v"}
						args = []string{"v"}
					} else {
						for _, f := range v.Fields {
							binds = append(binds, "var "+bound(f))
							args = append(args, label(f.Field.Name)+": "+bound(f))
						}
					}
					p.Block(fmt.Sprintf("if case .%s(%s) = self {", c, strings.Join(binds, ", ")), "} else {", func() {
						p.F("self = %s", placeholder)
						if v.Variant.Kind == schema.VariantStruct {
							p.P(g.intoStmt(v.Fields[0].Value, "v", "depth", 0))
						} else {
							g.readFieldsInPlace(p, v.Fields, bound, nil)
						}
						p.F("self = .%s(%s)", c, strings.Join(args, ", "))
					})
					p.In()
					g.variantRead(p, v)
					p.Out()
					p.P("}")
				})
			}
			caseBlock(p, "default:", func() {
				p.P("throw DecodeError.invalidUnionTag(offset: at)")
			})
		})
	})
}

// reuseAPI prints the public decode-into methods of a struct, union or
// enum; def is its default value, which a failed decode leaves.
func (g *generator) reuseAPI(p *emit.Printer, d schema.Decl) {
	name := d.DeclName()
	body := "{ (r: inout _SDPReader) throws(DecodeError) in try self._sdpReadInPlace(&r, depth: 1) }"
	var def string
	var reuses []string
	reset, punct := "", ","
	switch d := d.(type) {
	case *schema.Struct:
		def = g.typeName(d) + "()"
		reset = "Self()"
		reuses = []string{
			"/// reusing the storage self holds: arrays keep their capacity (when",
			"/// uniquely referenced) and their kept elements are decoded into, in",
			"/// place; optionals and union variants present in both are decoded into;",
			"/// strings are kept when they hold the same bytes. The result, the checks",
		}
	case *schema.Union:
		def = g.zero(&schema.Type{Kind: schema.UnionRef, Union: d})
		reuses = []string{
			"/// reusing the storage of the variant self holds when the input holds the",
			"/// same variant (its values are decoded into, as a struct's fields are).",
			"/// The result, the checks",
		}
	case *schema.Enum:
		def = g.zero(&schema.Type{Kind: schema.EnumRef, Enum: d})
		body = "{ (r: inout _SDPReader) throws(DecodeError) in self = try Self._sdpRead(&r) }"
		punct = "."
		reuses = []string{
			"/// An enum holds no storage: this assigns the decoded value.",
			"/// The result, the checks",
		}
	}
	if reset == "" {
		reset = def
	}
	for i, in := range []struct{ typ, what string }{{"[UInt8]", "bytes that hold"}, {"UnsafeRawBufferPointer", "a raw buffer that holds"}} {
		if i > 0 {
			p.P()
		}
		p.F("/// Decodes `%s` from %s exactly one value into self%s", name, in.what, punct)
		for _, l := range reuses {
			p.P(l)
		}
		p.P("/// and the errors are those of init(serializedBytes:options:). On an error")
		p.F("/// self is reset to its default value, `%s`.", def)
		p.Block(fmt.Sprintf("public mutating func decode(serializedBytes bytes: %s, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", in.typ), "}", func() {
			doCatch(p, "try _sdpDecodeInPlace(bytes, options, at: Self._sdpPath) "+body, "self = "+reset)
		})
	}
}

// messageReuseAPI prints a struct's public decode-into methods for messages.
func (g *generator) messageReuseAPI(p *emit.Printer, st *schema.Struct) {
	body := "{ (r: inout _SDPReader) throws(DecodeError) in try self._sdpMessageInPlace(&r) }"
	for _, in := range []struct{ typ, what string }{{"[UInt8]", "bytes"}, {"UnsafeRawBufferPointer", "a raw buffer"}} {
		p.P()
		p.F("/// Decodes a message that must carry `%s` and fill %s exactly into", st.Name, in.what)
		p.P("/// self, reusing its storage as decode(serializedBytes:options:) does. On")
		p.F("/// an error self is reset to its default value, `%s()`.", g.typeName(st))
		p.Block(fmt.Sprintf("public mutating func decode(serializedMessage bytes: %s, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", in.typ), "}", func() {
			doCatch(p, "try _sdpDecodeInPlace(bytes, options, at: Self._sdpMessagePath) "+body, "self = Self()")
		})
	}
	p.P()
	p.Block("mutating func _sdpMessageInPlace(_ r: inout _SDPReader) throws(DecodeError) {", "}", func() {
		p.Block("if try _sdpReadHeader(&r, known: { $0 == Self.messageTypeID }) != Self.messageTypeID {", "}", func() {
			p.F("throw DecodeError.invalidMessage(offset: 4, reason: %q)", fmt.Sprintf("the message does not carry a %s (type id %d)", st.Name, st.ID))
		})
		p.P("try _sdpReadInPlace(&r, depth: 1)")
	})
}

// anyMessageReuseAPI prints AnyMessage's decode-into methods.
func (g *generator) anyMessageReuseAPI(p *emit.Printer) {
	first := g.s.Structs[0]
	def := fmt.Sprintf(".%s(%s())", member(first.Name), g.typeName(first))
	body := "{ (r: inout _SDPReader) throws(DecodeError) in try self._sdpMessageInPlace(&r) }"
	for _, in := range []struct{ typ, what string }{{"[UInt8]", "bytes"}, {"UnsafeRawBufferPointer", "a raw buffer"}} {
		p.P()
		p.F("/// Decodes a message of any of the schema's structs that fills %s", in.what)
		p.P("/// exactly into self: when self carries the same struct, into that")
		p.P("/// struct, reusing its storage as its decode(serializedBytes:options:)")
		p.F("/// does. On an error self is reset to its default value, `%s`.", def)
		p.Block(fmt.Sprintf("public mutating func decode(serializedMessage bytes: %s, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", in.typ), "}", func() {
			doCatch(p, "try _sdpDecodeInPlace(bytes, options, at: Self._sdpMessagePath) "+body, "self = "+def)
		})
	}
	p.P()
	p.P("/// A value holding no storage, for _sdpMessageInPlace.")
	p.P("static let _sdpPlaceholder: Self = ", def)
	p.P()
	p.Block("mutating func _sdpMessageInPlace(_ r: inout _SDPReader) throws(DecodeError) {", "}", func() {
		switchBlock(p, "switch try _sdpReadHeader(&r, known: "+g.knownTypeIDs()+") {", func() {
			for _, st := range g.s.Structs {
				c := member(st.Name)
				caseBlock(p, fmt.Sprintf("case %d:", st.ID), func() {
					if !g.declReusable(g.plan.Of(st)) {
						p.F("self = .%s(try %s(_sdpFrom: &r, depth: 1))", c, g.typeName(st))
						return
					}
					p.Block(fmt.Sprintf("if case .%s(var v) = self {", c), "} else {", func() {
						p.P("self = Self._sdpPlaceholder")
						p.P("try v._sdpReadInPlace(&r, depth: 1)")
						p.F("self = .%s(v)", c)
					})
					p.In()
					p.F("self = .%s(try %s(_sdpFrom: &r, depth: 1))", c, g.typeName(st))
					p.Out()
					p.P("}")
				})
			}
			caseBlock(p, "case let id:", func() {
				p.P(`throw DecodeError.invalidMessage(offset: 4, reason: "type id \(id) names no struct of the schema")`)
			})
		})
	})
}

// doCatch prints `do { try ... } catch { reset; throw error }`: the reset to
// the default value of a failed decode into an existing value, at the
// public entry only.
func doCatch(p *emit.Printer, try, reset string) {
	p.Block("do {", "} catch {", func() {
		p.P(try)
	})
	p.In()
	p.P(reset)
	p.P("throw error")
	p.Out()
	p.P("}")
}
