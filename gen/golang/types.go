package golang

import (
	"fmt"
	"path/filepath"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// scalarTypes maps the scalar kinds to Go types.
var scalarTypes = map[schema.Kind]string{
	schema.Bool: "bool", schema.U8: "uint8", schema.U16: "uint16", schema.U32: "uint32",
	schema.U64: "uint64", schema.I8: "int8", schema.I16: "int16", schema.I32: "int32",
	schema.I64: "int64", schema.F32: "float32", schema.F64: "float64", schema.String: "string",
}

// goType is the Go type of a schema type. ?T is *T, except ?U for a union U:
// the union's interface itself, nil meaning absent.
func (g *generator) goType(t *schema.Type) string {
	switch t.Kind {
	case schema.Array:
		if t.IsBytes() {
			return "[]byte"
		}
		return "[]" + g.goType(t.Elem)
	case schema.FixedArray:
		return fmt.Sprintf("[%d]%s", t.Len, g.goType(t.Elem))
	case schema.Optional:
		if t.Elem.Kind == schema.UnionRef {
			return g.goType(t.Elem)
		}
		return "*" + g.goType(t.Elem)
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.names.decl[t.Decl()]
	}
	return scalarTypes[t.Kind]
}

func (g *generator) schemaFile() string { return filepath.Base(g.s.Path) }

// doc prints a declaration's `///` comment, or def when it has none.
func doc(p *emit.Printer, lines []string, def string) {
	if len(lines) == 0 {
		p.P("// ", def)
		return
	}
	p.Comment("// ", lines)
}

func (g *generator) emitTypes(p *emit.Printer) []string {
	var imports []string
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			g.emitStruct(p, d)
		case *schema.Enum:
			g.emitEnum(p, d)
			imports = append(imports, "strconv")
		case *schema.Union:
			g.emitUnion(p, d)
			imports = append(imports, "encoding", "io")
		}
	}
	g.emitFingerprints(p)
	return imports
}

// emitFingerprints writes every declaration's fingerprint as a constant.
func (g *generator) emitFingerprints(p *emit.Printer) {
	if len(g.s.Decls) == 0 {
		return
	}
	p.P("// The fingerprints of the types' wire shapes (docs/wire-format.md,")
	p.P("// \"Fingerprints\"; `sdp fingerprint` prints them): two programs built from")
	p.P("// versions of the schema encode a type the same way exactly when its")
	p.P("// fingerprint is the same in both.")
	p.Block("const (", ")", func() {
		for _, d := range g.s.Decls {
			p.F("// %s is the fingerprint of %s.", g.names.fingerprint[d], g.names.decl[d])
			p.F("%s uint64 = 0x%s", g.names.fingerprint[d], schema.FormatFingerprint(schema.Fingerprint(d)))
		}
	})
	p.P()
}

func (g *generator) emitFields(p *emit.Printer, fields []*schema.Field) {
	for _, f := range fields {
		name := fieldName(f)
		doc(p, f.Doc, fmt.Sprintf("%s is the field %s (%s).", name, f.Name, f.Type))
		p.P(name, " ", g.goType(f.Type))
	}
}

func (g *generator) emitStruct(p *emit.Printer, st *schema.Struct) {
	name := g.names.decl[st]
	doc(p, st.Doc, fmt.Sprintf("%s is the struct %s of %s.", name, st.Name, g.schemaFile()))
	if len(st.Fields) == 0 {
		p.P("type ", name, " struct{}")
		p.P()
		return
	}
	p.Block("type "+name+" struct {", "}", func() { g.emitFields(p, st.Fields) })
	p.P()
}

func (g *generator) emitEnum(p *emit.Printer, en *schema.Enum) {
	name := g.names.decl[en]
	base := scalarTypes[en.Base]
	doc(p, en.Doc, fmt.Sprintf("%s is the enum %s of %s.", name, en.Name, g.schemaFile()))
	p.P("type ", name, " ", base)
	p.P()
	p.F("// The values of %s.", name)
	p.Block("const (", ")", func() {
		for _, v := range en.Values {
			vn := g.names.value[v]
			doc(p, v.Doc, fmt.Sprintf("%s is %s.%s.", vn, en.Name, v.Name))
			p.F("%s %s = %d", vn, name, v.Value)
		}
	})
	p.P()
	p.F("// String returns the value's schema name, or %s(n) for a number that names", name)
	p.P("// no value.")
	p.Block("func (v "+name+") String() string {", "}", func() {
		p.P("switch v {")
		for _, v := range en.Values {
			p.F("case %s:", g.names.value[v])
			p.F("\treturn %q", v.Name)
		}
		p.P("}")
		p.F("return %q + strconv.FormatUint(uint64(v), 10) + \")\"", name+"(")
	})
	p.P()
	if en.Value(0) == nil {
		first := g.names.value[en.Values[0]]
		p.F("// encoded is the number v encodes as: the zero value, which names no value of")
		p.F("// %s, is the default value and encodes as the first value, %s.", name, first)
		p.Block("func (v "+name+") encoded() "+name+" {", "}", func() {
			p.Block("if v == 0 {", "}", func() { p.F("return %s", first) })
			p.P("return v")
		})
		p.P()
	}
	g.emitEnumText(p, en)
	p.F("// IsValid reports whether v names a value of %s. Only valid values encode", name)
	if en.Value(0) == nil {
		p.P("// and decode, and the zero value, which encodes as the first value.")
	} else {
		p.P("// and decode.")
	}
	p.Block("func (v "+name+") IsValid() bool {", "}", func() {
		lo, hi, dense := enumRange(en)
		switch {
		case dense && lo == 0:
			p.F("return v <= %d", hi)
		case dense:
			p.F("return v >= %d && v <= %d", lo, hi)
		default:
			p.P("switch v {")
			var list string
			for i, v := range en.Values {
				if i > 0 {
					list += ", "
				}
				list += g.names.value[v]
			}
			p.P("case ", list, ":")
			p.P("\treturn true")
			p.P("}")
			p.P("return false")
		}
	})
	p.P()
}

// enumRange reports the lowest and highest value and whether every number
// between them names a value.
func enumRange(en *schema.Enum) (lo, hi uint64, dense bool) {
	seen := map[uint64]bool{}
	lo, hi = ^uint64(0), 0
	for _, v := range en.Values {
		x := uint64(v.Value)
		seen[x] = true
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi, hi-lo+1 == uint64(len(seen))
}

func (g *generator) emitUnion(p *emit.Printer, u *schema.Union) {
	name := g.names.decl[u]
	doc(p, u.Doc, fmt.Sprintf("%s is the union %s of %s.", name, u.Name, g.schemaFile()))
	p.P("//")
	p.F("// %s is a union: it holds one of these variant types, as a value:", name)
	p.P("//")
	for _, v := range u.Variants {
		p.F("//   - %s (tag %d)", g.names.vtype[v], v.Tag)
	}
	p.P("//")
	p.F("// A nil %s is the default value: a field holding it encodes as the first", name)
	p.F("// variant, %s{} (as an optional it is absent). Read one with a type", g.names.vtype[u.Variants[0]])
	p.F("// switch; decode one with %s.", g.names.unionFuncs[u][0])
	p.Block("type "+name+" interface {", "}", func() {
		p.P("encoding.BinaryMarshaler")
		p.P("io.WriterTo")
		p.P("// EncodedSize returns the number of bytes MarshalBinary produces, or -1")
		p.P("// when that is more than an int holds (possible on a 32-bit host only).")
		p.P("EncodedSize() int")
		p.P("// AppendBinary appends the encoding (tag, then the variant) to b.")
		p.P("AppendBinary(b []byte) ([]byte, error)")
		p.P("encodedSize() int64")
		p.P("encode(b []byte, e *encoder) []byte")
		p.P("check(c *checker) bool")
		p.P(marker(name), "()")
	})
	p.P()
	for _, v := range u.Variants {
		vt := g.names.vtype[v]
		doc(p, v.Doc, fmt.Sprintf("%s is the variant %s of %s (tag %d).", vt, v.Name, name, v.Tag))
		switch v.Kind {
		case schema.VariantUnit:
			p.P("type ", vt, " struct{}")
		case schema.VariantInline:
			if len(v.Fields) == 0 {
				p.P("type ", vt, " struct{}")
			} else {
				p.Block("type "+vt+" struct {", "}", func() { g.emitFields(p, v.Fields) })
			}
		case schema.VariantStruct:
			sn := g.names.decl[v.Struct]
			p.Block("type "+vt+" struct {", "}", func() {
				p.F("// %s is the variant's value.", structVariantField(sn))
				p.P(structVariantField(sn), " ", sn)
			})
		}
		p.P()
		p.F("func (%s) %s() {}", vt, marker(name))
		p.P()
	}
}

// article is "a" or "an" for a name.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an"
	}
	return "a"
}

// marker is the unexported method that seals a union's interface.
func marker(union string) string { return "is" + union }

// emitEnumText writes MarshalText and UnmarshalText: an enum value as text
// is its schema name, as in the JSON mapping.
func (g *generator) emitEnumText(p *emit.Printer, en *schema.Enum) {
	name := g.names.decl[en]
	var names []string
	for _, v := range en.Values {
		names = append(names, v.Name)
	}
	p.P("// MarshalText implements encoding.TextMarshaler: the value's schema name, as in")
	p.P("// the JSON mapping (docs/json-mapping.md). A number that names no value is an")
	p.P("// error.")
	p.Block("func (v "+name+") MarshalText() ([]byte, error) {", "}", func() {
		if en.Value(0) == nil {
			p.P("v = v.encoded()")
		}
		p.P("if !v.IsValid() {")
		p.F("\treturn nil, &EncodeError{Rule: RuleEnum, Msg: strconv.FormatUint(uint64(v), 10) + \" is not a value of %s\"}", en.Name)
		p.P("}")
		p.P("return []byte(v.String()), nil")
	})
	p.P()
	p.P("// UnmarshalText implements encoding.TextUnmarshaler: it accepts the schema name")
	p.P("// of a value.")
	p.Block("func (v *"+name+") UnmarshalText(b []byte) error {", "}", func() {
		p.P("switch string(b) {")
		for _, v := range en.Values {
			p.F("case %q:", v.Name)
			p.F("\t*v = %s", g.names.value[v])
		}
		p.P("default:")
		p.F("\treturn &DecodeError{Type: %q, Rule: RuleEnum, Msg: strconv.Quote(string(b)) + %q}", en.Name,
			" is not a value ("+strings.Join(names, ", ")+")")
		p.P("}")
		p.P("return nil")
	})
	p.P()
}
