package swift

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// typesFile declares every schema type: structs as structs, enums as enums
// with raw values, unions as enums with associated values.
func (g *generator) typesFile() []byte {
	p := g.header()
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			g.structDecl(p, d)
		case *schema.Enum:
			g.enumDecl(p, d)
		case *schema.Union:
			g.unionDecl(p, d)
		}
		p.P()
	}
	return p.Bytes()
}

func (g *generator) structDecl(p *emit.Printer, st *schema.Struct) {
	doc(p, st.Doc)
	p.Block(fmt.Sprintf("public struct %s: Sendable, Hashable, Swift.Codable {", g.typeName(st)), "}", func() {
		g.fingerprint(p, st)
		planned := g.plan.Of(st).Fields
		for i, f := range st.Fields {
			doc(p, f.Doc)
			name := member(f.Name)
			if boxed(planned[i].Value) {
				store := "_" + plainMember(f.Name)
				p.Block(fmt.Sprintf("public var %s: %s {", name, g.typ(f.Type)), "}", func() {
					p.F("get { %s.map { $0.value } }", store)
					p.F("set { %s = newValue.map { _SDPBox($0) } }", store)
				})
				p.F("var %s: _SDPBox<%s>?", store, g.typ(f.Type.Elem))
			} else {
				p.F("public var %s: %s", name, g.typ(f.Type))
			}
			p.P()
		}
		defer func() {
			p.P()
			g.structCodable(p, st)
		}()
		if len(st.Fields) == 0 {
			p.P("/// Creates the value; the struct has no fields.")
			p.P("public init() {}")
			return
		}
		p.P("/// Creates a value; every field defaults to its zero value.")
		var params []string
		for _, f := range st.Fields {
			label := member(f.Name)
			if plainMember(f.Name) == "self" {
				label = "`self` self_"
			}
			params = append(params, fmt.Sprintf("%s: %s = %s", label, g.typ(f.Type), g.zero(f.Type)))
		}
		p.Block("public init(", ") {", func() {
			for i, s := range params {
				if i < len(params)-1 {
					s += ","
				}
				p.P(s)
			}
		})
		p.In()
		for i, f := range st.Fields {
			arg := member(f.Name)
			if plainMember(f.Name) == "self" {
				arg = "self_"
			}
			if boxed(planned[i].Value) {
				p.F("self._%s = %s.map { _SDPBox($0) }", plainMember(f.Name), arg)
			} else {
				p.F("self.%s = %s", member(f.Name), arg)
			}
		}
		p.Out()
		p.P("}")
	})
}

func (g *generator) enumDecl(p *emit.Printer, e *schema.Enum) {
	doc(p, e.Doc)
	p.Block(fmt.Sprintf("public enum %s: %s, Sendable, Hashable, CaseIterable, Swift.Codable {", g.typeName(e), scalarTypes[e.Base]), "}", func() {
		g.fingerprint(p, e)
		for _, v := range e.Values {
			doc(p, v.Doc)
			p.F("case %s = %d", member(v.Name), v.Value)
		}
	})
}

func (g *generator) unionDecl(p *emit.Printer, u *schema.Union) {
	doc(p, u.Doc)
	indirect := ""
	if u.Recursive {
		indirect = "indirect "
	}
	p.Block(fmt.Sprintf("public %senum %s: Sendable, Hashable, Swift.Codable {", indirect, g.typeName(u)), "}", func() {
		g.fingerprint(p, u)
		for _, v := range u.Variants {
			doc(p, v.Doc)
			switch {
			case v.Kind == schema.VariantStruct:
				p.F("case %s(%s)", variantCase(v), g.typeName(v.Struct))
			case v.Kind == schema.VariantInline && len(v.Fields) > 0:
				var fs []string
				for _, f := range v.Fields {
					fs = append(fs, member(f.Name)+": "+g.typ(f.Type))
				}
				p.F("case %s(%s)", variantCase(v), strings.Join(fs, ", "))
			default:
				p.F("case %s", variantCase(v))
			}
		}
		p.P()
		g.unionCodable(p, u)
	})
}

// zero is the default value of a type: zero, false, empty, absent, an
// enum's first value, a union's first variant holding zero values.
func (g *generator) zero(t *schema.Type) string {
	switch t.Kind {
	case schema.Bool:
		return "false"
	case schema.String:
		return `""`
	case schema.Array:
		return "[]"
	case schema.FixedArray:
		return fmt.Sprintf("%s(repeating: %s, count: %d)", g.typ(t), g.zero(t.Elem), t.Len)
	case schema.Optional:
		return "nil"
	case schema.StructRef:
		return g.typeName(t.Struct) + "()"
	case schema.EnumRef:
		return g.typeName(t.Enum) + "." + member(t.Enum.Values[0].Name)
	case schema.UnionRef:
		return g.unionValue(t.Union, t.Union.Variants[0], func(f *schema.Field) string { return g.zero(f.Type) })
	}
	return "0"
}

// unionValue builds a variant of u with field values from value.
func (g *generator) unionValue(u *schema.Union, v *schema.Variant, value func(*schema.Field) string) string {
	c := g.typeName(u) + "." + variantCase(v)
	switch {
	case v.Kind == schema.VariantStruct:
		return c + "(" + g.typeName(v.Struct) + "())"
	case v.Kind == schema.VariantInline && len(v.Fields) > 0:
		var args []string
		for _, f := range v.Fields {
			args = append(args, label(f.Name)+": "+value(f))
		}
		return c + "(" + strings.Join(args, ", ") + ")"
	}
	return c
}

// fingerprint prints a type's fingerprint constant (docs/wire-format.md,
// "Fingerprints"; `sdp fingerprint` prints the same values).
func (g *generator) fingerprint(p *emit.Printer, d schema.Decl) {
	p.F("/// The fingerprint of %s's wire shape (`sdp fingerprint`): two programs", d.DeclName())
	p.P("/// built from versions of the schema encode it the same way exactly when")
	p.P("/// it is the same in both.")
	p.F("public static let fingerprint: UInt64 = 0x%s", schema.FormatFingerprint(schema.Fingerprint(d)))
	p.P()
}
