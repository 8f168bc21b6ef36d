package python

import (
	"fmt"
	"strings"
	"unicode"

	"sdp/gen/plan"
	"sdp/schema"
)

// variantClass is the class of a union variant's values: the struct a
// struct variant carries, else the variant's own class.
func (g *generator) variantClass(pv *plan.Variant) string {
	if s := pv.Carries; s != nil {
		return g.n.decl[s.Value.Decl.Decl]
	}
	return g.n.variant[pv.Variant]
}

func (g *generator) docstring(doc []string) {
	if len(doc) == 0 {
		return
	}
	lines := make([]string, len(doc))
	for i, l := range doc {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	text := strings.TrimRight(strings.Join(lines, "\n"), "\n")
	g.p.Line(`"""` + pyString(text) + `"""`)
	g.p.Line("")
}

func (g *generator) enum(e *schema.Enum) {
	p := g.p
	name := g.n.decl[e]
	p.F("class %s(_sdp_enum.IntEnum):", name)
	p.In()
	if len(e.Doc) > 0 {
		g.docstring(e.Doc)
	} else {
		g.docstring([]string{"Enum " + e.Name + " (" + e.Base.String() + ")."})
	}
	shadow := map[string]bool{}
	for _, v := range e.Values {
		shadow[g.n.values[v]] = true
	}
	// Annotated without a value, it is not a member; set after the class.
	p.F("FINGERPRINT: _sdp_t.ClassVar[%s]", g.nm("int", shadow))
	for _, v := range e.Values {
		for _, l := range v.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		p.F("%s = %d", g.n.values[v], v.Value)
	}
	p.Out()
	g.sep()
	p.F("%s.FINGERPRINT = %s", name, fingerprint(e))
}

// class writes a dataclass: a struct (st set) or a variant's, of the plan
// fields.
func (g *generator) class(st *schema.Struct, name string, doc []string, fields []*plan.Field) {
	p := g.p
	p.Line("@_sdp_dc.dataclass(**_SDP_SLOTS)")
	p.F("class %s:", name)
	p.In()
	g.docstring(doc)
	shadow := map[string]bool{}
	for _, f := range fields {
		shadow[g.n.fields[f.Field]] = true
	}
	if st != nil {
		for _, m := range strings.Fields(memberNames) {
			shadow[m] = true
		}
	}
	self := g.nm(name, shadow)
	opts := g.nm("DecodeOptions", shadow) + " | None"
	if st != nil {
		g.methods(st, shadow, self, opts, len(fields) > 0)
	}
	for _, f := range fields {
		for _, l := range f.Field.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		p.F("%s: %s = %s", g.n.fields[f.Field], g.hintIn(f.Value.Type, shadow), g.fieldDefault(f.Value))
	}
	if st == nil && len(fields) == 0 && len(doc) == 0 {
		p.Line("pass")
	}
	p.Out()
}

// hint is the type annotation of a value of v at module scope.
func (g *generator) hint(v *plan.Value) string { return g.hintIn(v.Type, nil) }

// nm is how an annotation names name where the names in shadow (a class's
// fields) hide module-level ones: through an `_sdp_` alias.
func (g *generator) nm(name string, shadow map[string]bool) string {
	if !shadow[name] {
		return name
	}
	switch name {
	case "int", "float", "str", "bool", "bytes", "list", "Some", "DecodeOptions":
		return "_sdp_" + name
	}
	if !g.aliases[name] {
		g.aliases[name] = true
		g.aliasList = append(g.aliasList, name)
	}
	return "_sdp_c_" + name
}

// hintIn is the type annotation of t inside a class whose fields are shadow.
func (g *generator) hintIn(t *schema.Type, shadow map[string]bool) string {
	switch t.Kind {
	case schema.Bool:
		return g.nm("bool", shadow)
	case schema.F32, schema.F64:
		return g.nm("float", shadow)
	case schema.String:
		return g.nm("str", shadow)
	case schema.Array, schema.FixedArray:
		switch {
		case t.Elem.Kind == schema.U8:
			return g.nm("bytes", shadow)
		case t.Elem.IsNumeric() && t.Elem.Kind.IsFloat():
			return "_sdp_array.array[" + g.nm("float", shadow) + "] | _sdp_t.Any"
		case t.Elem.IsNumeric():
			// Any: a numpy.ndarray (DecodeOptions(numpy=True), or to
			// encode), which the annotations cannot name without numpy.
			return "_sdp_array.array[" + g.nm("int", shadow) + "] | _sdp_t.Any"
		}
		return g.nm("list", shadow) + "[" + g.hintIn(t.Elem, shadow) + "]"
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			return g.nm("Some", shadow) + "[" + g.hintIn(t.Elem, shadow) + "] | None"
		}
		return g.hintIn(t.Elem, shadow) + " | None"
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.nm(g.n.decl[t.Decl()], shadow)
	}
	return g.nm("int", shadow)
}

// typecode is the array.array type code of a numeric kind.
func typecode(k schema.Kind) string {
	return map[schema.Kind]string{schema.U8: "B", schema.I8: "b", schema.U16: "H", schema.I16: "h",
		schema.U32: "I", schema.I32: "i", schema.U64: "Q", schema.I64: "q", schema.F32: "f", schema.F64: "d"}[k]
}

// fieldDefault is a field's default in a class body: a literal, or a
// default_factory (class bodies may shadow every other name).
func (g *generator) fieldDefault(v *plan.Value) string {
	switch v.Op {
	case plan.Scalar, plan.String, plan.Bytes, plan.Optional:
		return g.value(v)
	}
	if x := g.value(v); x != "_sdp_list()" {
		return "_sdp_dc.field(default_factory=lambda: " + x + ")"
	}
	return "_sdp_dc.field(default_factory=_sdp_list)"
}

// value is an expression for the default value of v (module scope).
func (g *generator) value(v *plan.Value) string {
	switch v.Op {
	case plan.Scalar:
		switch {
		case v.Kind == schema.Bool:
			return "False"
		case v.Kind.IsFloat():
			return "0.0"
		}
		return "0"
	case plan.String:
		return `""`
	case plan.Bytes:
		return `b""`
	case plan.Numbers:
		return fmt.Sprintf("_sdp_array.array(%q)", typecode(v.Kind))
	case plan.PlainArray, plan.Array:
		return "_sdp_list()"
	case plan.FixedBytes:
		return fmt.Sprintf("bytes(%d)", v.Len)
	case plan.FixedNumbers:
		z := "0"
		if v.Kind.IsFloat() {
			z = "0.0"
		}
		return fmt.Sprintf("_sdp_array.array(%q, [%s] * %d)", typecode(v.Kind), z, v.Len)
	case plan.FixedPlain, plan.FixedArray:
		return fmt.Sprintf("[%s for _sdp_i in range(%d)]", g.value(v.Elem), v.Len)
	case plan.Optional:
		return "None"
	case plan.Struct:
		return g.n.decl[v.Decl.Decl] + "()"
	case plan.Enum:
		return g.n.decl[v.Decl.Decl] + "." + g.n.values[v.Decl.Enum.Values[0]]
	case plan.Union:
		return g.variantClass(v.Decl.Variants[0]) + "()"
	}
	panic("python: a value of op " + v.Op.String())
}
