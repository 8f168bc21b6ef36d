package swift

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// Codable (issue #19): every struct, union and enum, and AnyMessage,
// conforms to Swift.Codable, so that JSONEncoder, PropertyListEncoder or any
// other Coder takes the values. The conformances are generated rather than
// synthesized, in the form Swift would synthesize:
//
//   - a struct is an object keyed by its fields' Swift names
//     (manufacturerID), optionals left out when nil (encodeIfPresent);
//   - an enum is its raw value (the standard library's RawRepresentable
//     conformance);
//   - a union is an object with one key, the case's Swift name, holding an
//     object of the case's values by label (`_0` for a struct variant's
//     value, `{}` for a case without values), as Swift synthesizes enums
//     with associated values; AnyMessage likewise.
//
// Synthesis does not fit every schema: Swift's Optional encodes `.some(nil)`
// as null, like nil, so a nested optional (`??T`, at any depth) would not
// round-trip; a struct's boxed recursive optional is stored under another
// name; and the synthesized CodingKeys and <Case>CodingKeys types would
// shadow schema types of those names inside the type. The generated code
// names only qualified standard-library types (Swift.Codable,
// Swift.Encoder, ...) and the runtime's _SDP names, so schema types named
// Codable, Encoder, Decoder or CodingKeys keep their names. A nested
// optional is coded through _SDPNested (null for nil, a one-element array
// for a present value), and a decoded fixed array must hold its length.

// codableNests reports whether a value of type t, within its own type
// expression (not through struct or union references, which have their own
// conformance), holds an optional of an optional: the standard library's
// coding of it loses `.some(nil)`.
func codableNests(t *schema.Type) bool {
	switch t.Kind {
	case schema.Optional:
		return t.Elem.Kind == schema.Optional || codableNests(t.Elem)
	case schema.Array, schema.FixedArray:
		return codableNests(t.Elem)
	}
	return false
}

// codableChecks reports whether decoding t needs a conversion: a nested
// optional to unwrap or a fixed array to count.
func codableChecks(t *schema.Type) bool {
	switch t.Kind {
	case schema.FixedArray:
		return true
	case schema.Optional, schema.Array:
		return t.Elem.Kind == schema.Optional || codableChecks(t.Elem)
	}
	return false
}

// codingType is the Swift type a value of t is coded as: t itself, with
// _SDPNested<...> for each optional whose value is an optional.
func (g *generator) codingType(t *schema.Type) string {
	if !codableNests(t) {
		return g.typ(t)
	}
	switch t.Kind {
	case schema.Array, schema.FixedArray:
		return "[" + g.codingType(t.Elem) + "]"
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			return "_SDPNested<" + g.codingType(t.Elem) + ">"
		}
		return g.codingType(t.Elem) + "?"
	}
	return g.typ(t)
}

// toCoding converts x, a value of t, to its codingType.
func (g *generator) toCoding(t *schema.Type, x string, depth int) string {
	if !codableNests(t) {
		return x
	}
	e := fmt.Sprintf("e%d", depth)
	inner := func() string {
		if !codableNests(t.Elem) {
			return x
		}
		return fmt.Sprintf("%s.map { %s in %s }", x, e, g.toCoding(t.Elem, e, depth+1))
	}
	switch t.Kind {
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			return "_SDPNested(" + inner() + ")"
		}
		return inner()
	case schema.Array, schema.FixedArray:
		return inner()
	}
	return x
}

// fromCoding converts y, a decoded value of t's codingType, back to t,
// checking the length of fixed arrays; key and c name the key and the
// container it came from, for the error. The result starts with "try "
// when it may throw.
func (g *generator) fromCoding(t *schema.Type, y, key, c string, depth int) string {
	if !codableChecks(t) {
		return y
	}
	e := fmt.Sprintf("e%d", depth)
	inner := func(base string) string {
		if !codableChecks(t.Elem) {
			return base
		}
		return fmt.Sprintf("%s.map { %s in %s }", base, e, g.fromCoding(t.Elem, e, key, c, depth+1))
	}
	var out string
	switch t.Kind {
	case schema.FixedArray:
		out = fmt.Sprintf("_sdpFixed(%s, %d, %s, %s)", inner(y), t.Len, q(key), c)
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			out = inner(y + ".value")
		} else {
			out = inner(y)
		}
	case schema.Array:
		out = inner(y)
	}
	if strings.Contains(out, "_sdpFixed(") {
		return "try " + out
	}
	return out
}

// codablePlain reports whether a field of type t is coded with
// encodeIfPresent / decodeIfPresent: an optional whose value is not one.
func codablePlain(t *schema.Type) bool {
	return t.Kind == schema.Optional && t.Elem.Kind != schema.Optional
}

// encodeField prints the statement that encodes x, a value of t, under key
// into the keyed container c.
func (g *generator) encodeField(p *emit.Printer, c string, t *schema.Type, x, key string) {
	if codablePlain(t) {
		p.F("try %s.encodeIfPresent(%s, forKey: %s)", c, g.toCoding(t, x, 0), q(key))
		return
	}
	p.F("try %s.encode(%s, forKey: %s)", c, g.toCoding(t, x, 0), q(key))
}

// decodeField prints `let local = ...`, decoding a value of t under key
// from the keyed container c, and returns the expression converting it
// back to t.
func (g *generator) decodeField(p *emit.Printer, c string, t *schema.Type, local, key string) string {
	if codablePlain(t) {
		p.F("let %s = try %s.decodeIfPresent(%s.self, forKey: %s)", local, c, g.codingType(t.Elem), q(key))
	} else {
		p.F("let %s = try %s.decode(%s.self, forKey: %s)", local, c, g.codingType(t), q(key))
	}
	return g.fromCoding(t, local, key, c, 0)
}

// structCodable prints a struct's Codable conformance (declared in its
// inheritance clause).
func (g *generator) structCodable(p *emit.Printer, st *schema.Struct) {
	p.P("/// Encodes the value as an object keyed by the fields' Swift names (Codable);")
	p.P("/// optionals that are nil are left out.")
	p.Block("public func encode(to encoder: any Swift.Encoder) throws {", "}", func() {
		if len(st.Fields) == 0 {
			p.P("_ = encoder.container(keyedBy: _SDPCodingKey.self)")
			return
		}
		p.P("var c = encoder.container(keyedBy: _SDPCodingKey.self)")
		for _, f := range st.Fields {
			g.encodeField(p, "c", f.Type, "self."+member(f.Name), plainMember(f.Name))
		}
	})
	p.P()
	p.P("/// Decodes the value from the object encode(to:) writes (Codable); a fixed")
	p.P("/// array must hold its length.")
	p.Block("public init(from decoder: any Swift.Decoder) throws {", "}", func() {
		if len(st.Fields) == 0 {
			p.P("_ = try decoder.container(keyedBy: _SDPCodingKey.self)")
			p.P("self.init()")
			return
		}
		p.P("let c = try decoder.container(keyedBy: _SDPCodingKey.self)")
		var args []string
		for _, f := range st.Fields {
			e := g.decodeField(p, "c", f.Type, fmt.Sprintf("f%d", f.Index), plainMember(f.Name))
			args = append(args, label(f.Name)+": "+e)
		}
		p.F("self.init(%s)", strings.Join(args, ", "))
	})
}

// codableCase is one case of a union-like enum for unionLikeCodable: its
// Swift name, the pattern binding its values, and its values as fields
// (a struct variant's value is the field `_0`).
type codableCase struct {
	name    string
	pattern string
	values  []codableValue
}

type codableValue struct {
	t     *schema.Type
	bound string // the pattern's name for it
	key   string
	label string // its argument label when the case is built ("" for none)
}

// unionCodable prints a union's Codable conformance.
func (g *generator) unionCodable(p *emit.Printer, u *schema.Union) {
	var cases []codableCase
	for _, v := range g.plan.Of(u).Variants {
		c := codableCase{name: plainMember(v.Name), pattern: variantPattern(v, always)}
		switch v.Variant.Kind {
		case schema.VariantStruct:
			c.values = []codableValue{{t: v.Fields[0].Value.Type, bound: "v", key: "_0"}}
		case schema.VariantInline:
			for _, f := range v.Fields {
				c.values = append(c.values, codableValue{t: f.Field.Type, bound: bound(f), key: plainMember(f.Field.Name), label: label(f.Field.Name)})
			}
		}
		cases = append(cases, c)
	}
	g.unionLikeCodable(p, u.Name, cases)
}

// anyMessageCodable prints AnyMessage's Codable conformance: a union whose
// cases are the schema's structs.
func (g *generator) anyMessageCodable(p *emit.Printer) {
	var cases []codableCase
	for _, st := range g.s.Structs {
		cases = append(cases, codableCase{
			name:    plainMember(st.Name),
			pattern: "." + member(st.Name) + "(let v)",
			values:  []codableValue{{t: &schema.Type{Kind: schema.StructRef, Struct: st}, bound: "v", key: "_0"}},
		})
	}
	g.unionLikeCodable(p, "AnyMessage", cases)
}

// unionLikeCodable prints the Codable conformance of an enum with
// associated values, in the form Swift synthesizes: {"case": {"label":
// value, ...}}.
func (g *generator) unionLikeCodable(p *emit.Printer, typeName string, cases []codableCase) {
	p.P("/// Encodes the value as an object with one key, the case's Swift name,")
	p.P("/// holding an object of the case's values by label (`_0` for an unlabeled")
	p.P("/// one), as Swift synthesizes Codable for enums (Codable).")
	p.Block("public func encode(to encoder: any Swift.Encoder) throws {", "}", func() {
		p.P("var c = encoder.container(keyedBy: _SDPCodingKey.self)")
		switchBlock(p, "switch self {", func() {
			for _, cs := range cases {
				caseBlock(p, "case "+cs.pattern+":", func() {
					if len(cs.values) == 0 {
						p.F("_ = c.nestedContainer(keyedBy: _SDPCodingKey.self, forKey: %s)", q(cs.name))
						return
					}
					p.F("var n = c.nestedContainer(keyedBy: _SDPCodingKey.self, forKey: %s)", q(cs.name))
					for _, v := range cs.values {
						g.encodeField(p, "n", v.t, v.bound, v.key)
					}
				})
			}
		})
	})
	p.P()
	p.P("/// Decodes the value from the object encode(to:) writes (Codable).")
	p.Block("public init(from decoder: any Swift.Decoder) throws {", "}", func() {
		withValues := false
		for _, cs := range cases {
			withValues = withValues || len(cs.values) > 0
		}
		if withValues {
			p.P("let (name, n) = try _sdpUnionCase(decoder)")
		} else {
			p.P("let (name, _) = try _sdpUnionCase(decoder)")
		}
		switchBlock(p, "switch name {", func() {
			for _, cs := range cases {
				caseBlock(p, "case "+q(cs.name)+":", func() {
					c := strings.TrimPrefix(strings.SplitN(cs.pattern, "(", 2)[0], ".")
					if len(cs.values) == 0 {
						p.F("self = .%s", c)
						return
					}
					var args []string
					for i, v := range cs.values {
						e := g.decodeField(p, "n", v.t, fmt.Sprintf("v%d", i), v.key)
						if v.label != "" {
							e = v.label + ": " + e
						}
						args = append(args, e)
					}
					p.F("self = .%s(%s)", c, strings.Join(args, ", "))
				})
			}
			caseBlock(p, "default:", func() {
				p.F("throw _sdpUnknownCase(name, decoder, %s)", q(typeName))
			})
		})
	})
}
