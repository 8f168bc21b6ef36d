package rust

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// typesRs declares the owned types: structs, enums and unions.
func (g *generator) typesRs() []byte {
	p := g.file()
	p.P("//! The owned types of the schema.")
	for _, d := range g.s.Decls {
		p.P()
		switch d := d.(type) {
		case *schema.Struct:
			g.structType(p, d)
		case *schema.Enum:
			g.enumType(p, d)
		case *schema.Union:
			g.unionType(p, d)
		}
		p.P()
		g.fingerprint(p, d)
		p.P()
		g.sdpTypeImpl(p, d, "crate::rt")
		if pd := g.plan.Of(d); pd.Plain != nil {
			p.P()
			g.plainImpl(p, pd, "crate::rt")
		}
		if e, ok := d.(*schema.Enum); ok {
			p.P()
			g.enumConversions(p, e)
		}
	}
	return p.Bytes()
}

// fingerprint emits the FINGERPRINT constant of a type (issue #14).
func (g *generator) fingerprint(p *printer, d schema.Decl) {
	p.Block("impl "+g.name[d]+" {", "}", func() {
		p.F("/// The fingerprint of the wire shape of `%s` (docs/wire-format.md,", d.DeclName())
		p.P("/// \"Fingerprints\"; `sdp fingerprint` prints it): two programs built from")
		p.P("/// versions of the schema encode the type the same way exactly when its")
		p.P("/// fingerprint is the same in both.")
		p.F("pub const FINGERPRINT: u64 = 0x%s;", schema.FormatFingerprint(schema.Fingerprint(d)))
	})
}

func (g *generator) structType(p *printer, st *schema.Struct) {
	doc(p, st.Doc)
	derives := []string{"Debug", "Clone"}
	if g.ownedCopy[st] {
		derives = append(derives, "Copy")
	}
	derives = append(derives, "PartialEq")
	if g.ownedEq[st] {
		derives = append(derives, "Eq", "Hash")
	}
	if g.defaultDerive[st] {
		derives = append(derives, "Default")
	}
	p.F("#[derive(%s)]", strings.Join(derives, ", "))
	if g.plan.Of(st).Plain != nil {
		p.P("#[repr(C)]")
	}
	if len(st.Fields) == 0 {
		p.F("pub struct %s {}", g.name[st])
		return
	}
	pd := g.plan.Of(st)
	p.Block("pub struct "+g.name[st]+" {", "}", func() {
		for _, f := range pd.Fields {
			doc(p, f.Field.Doc)
			p.F("pub %s: %s,", fieldName(f.Field), g.owned(f.Value))
		}
	})
	if g.defaultDerive[st] {
		return
	}
	p.P()
	p.Block("impl "+stdDef+" for "+g.name[st]+" {", "}", func() {
		p.Block("fn default() -> Self {", "}", func() {
			var fields []string
			for _, f := range pd.Fields {
				fields = append(fields, fieldName(f.Field)+": "+g.defaultExpr(f.Value))
			}
			structLit(p, "Self", fields, "", 18)
		})
	})
}

// defaultExpr is the default value of a field of v, for types that cannot
// derive Default (arrays of more than 32 elements).
func (g *generator) defaultExpr(v *plan.Value) string {
	if g.boxed(v) {
		f := closure("", g.defaultExpr(v.Elem))
		if e := g.defaultExpr(v.Elem); e == stdDef+"::default()" {
			f = stdDef + "::default"
		}
		return "crate::rt::boxed_with(" + f + ")"
	}
	if v.Op.FixedLength() && !g.defaultable(v) {
		return "::core::array::from_fn(" + closure("_", g.defaultExpr(v.Elem)) + ")"
	}
	return stdDef + "::default()"
}

func (g *generator) enumType(p *printer, e *schema.Enum) {
	name := g.name[e]
	base := scalarName(e.Base)
	doc(p, e.Doc)
	p.P("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]")
	p.F("#[repr(%s)]", base)
	p.Block("pub enum "+name+" {", "}", func() {
		for i, v := range e.Values {
			doc(p, v.Doc)
			if i == 0 {
				p.P("#[default]")
			}
			p.F("%s = %d,", pascal(v.Name), v.Value)
		}
	})
	p.P()
	p.Block("impl "+name+" {", "}", func() {
		p.F("/// The number that encodes the value.")
		p.Block(fmt.Sprintf("pub const fn to_%s(self) -> %s {", base, base), "}", func() {
			p.F("self as %s", base)
		})
		p.P()
		p.F("/// The value `v` encodes, or `None` if it names no value.")
		p.Block(fmt.Sprintf("pub const fn from_%s(v: %s) -> %s<Self> {", base, base, stdOption), "}", func() {
			p.Block("match v {", "}", func() {
				for _, v := range e.Values {
					p.F("%d => Some(Self::%s),", v.Value, pascal(v.Name))
				}
				p.P("_ => None,")
			})
		})
		p.P()
		p.F("/// The schema's name of the value (`%q`).", e.Values[0].Name)
		p.Block("pub const fn as_str(self) -> &'static str {", "}", func() {
			p.Block("match self {", "}", func() {
				for _, v := range e.Values {
					p.F("Self::%s => %q,", pascal(v.Name), v.Name)
				}
			})
		})
	})
	p.P()
	p.F("/// Writes the schema's name of the value (`%s::as_str`).", name)
	p.Block(fmt.Sprintf("impl ::core::fmt::Display for %s {", name), "}", func() {
		p.Block("fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {", "}", func() {
			p.P("f.write_str(self.as_str())")
		})
	})
}

func (g *generator) unionType(p *printer, u *schema.Union) {
	name := g.name[u]
	doc(p, u.Doc)
	derives := []string{"Debug", "Clone"}
	if g.ownedCopy[u] {
		derives = append(derives, "Copy")
	}
	derives = append(derives, "PartialEq")
	if g.ownedEq[u] {
		derives = append(derives, "Eq", "Hash")
	}
	unitFirst := len(u.Variants) > 0 && u.Variants[0].Kind == schema.VariantUnit
	if unitFirst {
		derives = append(derives, "Default")
	}
	p.F("#[derive(%s)]", strings.Join(derives, ", "))
	p.P(allowLarge)
	pd := g.plan.Of(u)
	vertical := variantsVertical(p, pd, g.owned, unitFirst)
	p.Block("pub enum "+name+" {", "}", func() {
		for i, v := range pd.Variants {
			doc(p, v.Variant.Doc)
			if i == 0 && unitFirst {
				p.P("#[default]")
			}
			variantDecl(p, v, g.owned, vertical)
		}
	})
	if unitFirst || len(u.Variants) == 0 {
		return
	}
	p.P()
	p.Block("impl "+stdDef+" for "+name+" {", "}", func() {
		p.Block("fn default() -> Self {", "}", func() {
			v := pd.Variants[0]
			vn := "Self::" + pascal(v.Name)
			if v.Variant.Kind == schema.VariantStruct {
				p.F("%s(%s::default())", vn, stdDef)
				return
			}
			var fields []string
			for _, f := range v.Fields {
				fields = append(fields, fieldName(f.Field)+": "+g.defaultExpr(f.Value))
			}
			structLit(p, vn, fields, "", 18)
		})
	})
}

// variantsVertical reports whether a union's inline variants are written one
// field per line: rustfmt does that for all of them when any one does not fit
// on a line (struct_variant_width is 35) or documents a field, or when any
// variant carries an attribute (a doc comment or #[default]).
func variantsVertical(p *printer, pd *plan.Decl, typeOf func(*plan.Value) string, defaultAttr bool) bool {
	for _, v := range pd.Variants {
		if len(v.Variant.Doc) > 0 {
			return true // attributes make a variant multi-line
		}
	}
	if defaultAttr {
		return true
	}
	for _, v := range pd.Variants {
		if v.Variant.Kind != schema.VariantInline || len(v.Fields) == 0 {
			continue
		}
		var fields []string
		for _, f := range v.Fields {
			if len(f.Field.Doc) > 0 {
				return true
			}
			fields = append(fields, fieldName(f.Field)+": "+typeOf(f.Value))
		}
		body := strings.Join(fields, ", ")
		line := pascal(v.Name) + " { " + body + " },"
		if len(body) > 35 || len(line) > p.width()-len(indent) {
			return true
		}
	}
	return false
}

// variantDecl declares one union variant with the field types typeOf gives
// (owned or view).
func variantDecl(p *printer, v *plan.Variant, typeOf func(*plan.Value) string, vertical bool) {
	vn := pascal(v.Name)
	switch v.Variant.Kind {
	case schema.VariantUnit:
		p.F("%s,", vn)
	case schema.VariantStruct:
		p.F("%s(%s),", vn, typeOf(v.Fields[0].Value))
	case schema.VariantInline:
		if len(v.Fields) == 0 {
			p.F("%s {},", vn)
			return
		}
		if !vertical {
			var fields []string
			for _, f := range v.Fields {
				fields = append(fields, fieldName(f.Field)+": "+typeOf(f.Value))
			}
			p.F("%s { %s },", vn, strings.Join(fields, ", "))
			return
		}
		p.Block(vn+" {", "},", func() {
			for _, f := range v.Fields {
				doc(p, f.Field.Doc)
				p.F("%s: %s,", fieldName(f.Field), typeOf(f.Value))
			}
		})
	}
}
