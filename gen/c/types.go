package c

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

var scalarTypes = map[schema.Kind]string{
	schema.Bool: "bool", schema.U8: "uint8_t", schema.U16: "uint16_t", schema.U32: "uint32_t",
	schema.U64: "uint64_t", schema.I8: "int8_t", schema.I16: "int16_t", schema.I32: "int32_t",
	schema.I64: "int64_t", schema.F32: "float", schema.F64: "double",
}

// enumBase is the C integer type of an enum's underlying type.
func enumBase(e *schema.Enum) string { return scalarTypes[e.Base] }

// declare writes a C declaration of name with type t; constq makes the
// declared object const. An empty name gives an abstract declarator for
// casts and sizeof.
func (g *generator) declare(t *schema.Type, name string, constq bool) string {
	return tidy(g.decl(t, name, constq))
}

func (g *generator) decl(t *schema.Type, inner string, constq bool) string {
	q := ""
	if constq {
		q = "const "
	}
	switch t.Kind {
	case schema.FixedArray:
		if strings.HasPrefix(inner, "*") {
			inner = "(" + inner + ")"
		}
		return g.decl(t.Elem, fmt.Sprintf("%s[%d]", inner, t.Len), constq)
	case schema.Optional:
		if t.Boxed {
			return g.elemDecl(t.Elem, "*"+q+inner, true)
		}
		return q + g.helperName(t) + " " + inner
	case schema.Array:
		return q + g.helperName(t) + " " + inner
	case schema.String:
		return q + g.pkg + "_str " + inner
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return q + g.typeName(t.Decl()) + " " + inner
	}
	return q + scalarTypes[t.Kind] + " " + inner
}

// elemDecl declares an element stored behind a pointer: like decl, but a
// fixed array is its wrapper struct.
func (g *generator) elemDecl(t *schema.Type, inner string, constq bool) string {
	if t.Kind == schema.FixedArray {
		q := ""
		if constq {
			q = "const "
		}
		return tidy(q + g.helperName(t) + " " + inner)
	}
	return tidy(g.decl(t, inner, constq))
}

// tidy puts pointer stars next to the type: "T *const *p" → "T* const* p".
func tidy(s string) string {
	s = strings.TrimSpace(s)
	for strings.Contains(s, " *") {
		s = strings.Replace(s, " *", "* ", 1)
	}
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return strings.TrimSpace(s)
}

// commentText makes a doc line safe inside a /* */ comment: "*/" would end
// it and "/*" draws -Wcomment, so a space separates their characters; the
// trigraph "??/" (a backslash in C99, -Wtrigraphs at the end of a line) gets
// one too. Trailing blanks are dropped (a backslash before them would draw
// "backslash and newline separated by space"); a line ending in a backslash
// is harmless inside a block comment.
func commentText(l string) string {
	l = strings.TrimRight(l, " \t")
	for {
		next := strings.NewReplacer("*/", "* /", "/*", "/ *", "??/", "?? /").Replace(l)
		if next == l {
			break
		}
		l = next
	}
	return l
}

// doc prints schema doc lines as a C comment.
func doc(p *emit.Printer, lines []string) {
	if len(lines) == 0 {
		return
	}
	clean := make([]string, len(lines))
	for i, l := range lines {
		clean[i] = commentText(l)
	}
	if len(clean) == 1 {
		p.P("/** ", clean[0], " */")
		return
	}
	p.P("/**")
	p.Comment(" * ", clean)
	p.P(" */")
}

// node is one C struct definition: a schema struct or union, an inline
// variant's struct, or a helper type.
type node struct {
	name string
	emit func()
	deps func() []*node
}

// typeSection prints the enums, the forward typedefs and every struct
// definition, ordered so that each type is complete before it is stored inline.
func (g *generator) typeSection() {
	h := g.h
	for _, e := range g.s.Enums {
		g.enumDecl(e)
	}
	var all []*node
	byName := map[string]*node{}
	add := func(n *node) {
		all = append(all, n)
		byName[n.name] = n
	}
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			add(&node{name: g.typeName(d), emit: func() { g.structDef(d) }})
		case *schema.Union:
			add(&node{name: g.typeName(d), emit: func() { g.unionDef(d) }})
			for _, v := range d.Variants {
				if v.Kind == schema.VariantInline && len(v.Fields) > 0 {
					v := v
					add(&node{name: g.variantType(d, v), emit: func() { g.variantDef(d, v) }})
				}
			}
		}
	}
	for _, hp := range g.helperOrder {
		hp := hp
		add(&node{name: hp.name, emit: func() { g.helperDef(hp) }})
	}
	// Dependencies: the types stored inline.
	var inline func(v *plan.Value) []*node
	inline = func(v *plan.Value) []*node {
		switch {
		case v.Op == plan.Struct || v.Op == plan.Union:
			return []*node{byName[g.typeName(v.Decl.Decl)]}
		case v.Op.Counted(), v.Op == plan.Optional && !v.Boxed:
			return []*node{byName[g.helperName(v.Type)]}
		case fixedOp(v.Op):
			return inline(v.Elem)
		}
		return nil
	}
	fieldDeps := func(fs []*plan.Field) []*node {
		var out []*node
		for _, f := range fs {
			out = append(out, inline(f.Value)...)
		}
		return out
	}
	for _, d := range g.pl.Decls {
		d := d
		switch {
		case d.Struct != nil:
			byName[g.typeName(d.Decl)].deps = func() []*node { return fieldDeps(d.Fields) }
		case d.Union != nil:
			byName[g.typeName(d.Decl)].deps = func() []*node {
				var out []*node
				for _, v := range d.Variants {
					switch {
					case (v.Carries != nil):
						out = append(out, fieldDeps(v.Fields)...)
					case len(v.Fields) > 0:
						out = append(out, byName[g.variantType(d.Union, v.Variant)])
					}
				}
				return out
			}
			for _, v := range d.Variants {
				if v.Carries == nil && len(v.Fields) > 0 {
					v := v
					byName[g.variantType(d.Union, v.Variant)].deps = func() []*node { return fieldDeps(v.Fields) }
				}
			}
		}
	}
	for _, hp := range g.helperOrder {
		hp := hp
		byName[hp.name].deps = func() []*node {
			if fixedOp(hp.v.Op) || hp.v.Op == plan.Optional {
				return inline(hp.v.Elem)
			}
			return nil
		}
	}

	if len(all) > 0 {
		for _, n := range all {
			h.F("typedef struct %s %s;", n.name, n.name)
		}
		h.P()
	}
	done := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if done[n] {
			return
		}
		done[n] = true
		for _, dep := range n.deps() {
			visit(dep)
		}
		n.emit()
		h.P()
	}
	for _, n := range all {
		visit(n)
	}
}

func (g *generator) enumDecl(e *schema.Enum) {
	h := g.h
	name := g.typeName(e)
	doc(h, e.Doc)
	h.F("typedef %s %s;", enumBase(e), name)
	for _, v := range e.Values {
		doc(h, v.Doc)
		h.F("#define %s %du", g.valueName(e, v.Name), v.Value)
	}
	h.F("/** The value's name as written in the schema, or NULL if it names no value. */")
	h.F("const char* %s_name(%s v);", name, name)
	h.F("/** Encodes v on its own into buf: the bytes written (%d), or 0 if cap is smaller or v names no value. */", e.Base.Size())
	h.F("size_t %s_encode(%s v, uint8_t* buf, size_t cap);", name, name)
	h.P("/**")
	h.F(" * Decodes exactly len bytes into *out: 0, %s_ERR_TRUNCATED, %s_ERR_ENUM (a number", g.up, g.up)
	h.F(" * that names no value) or %s_ERR_TRAILING. After an error *out holds the first value.", g.up)
	h.P(" */")
	h.F("int %s_decode(const uint8_t* data, size_t len, %s* out);", name, name)
	h.P()
}

func (g *generator) fields(fs []*schema.Field) {
	h := g.h
	if len(fs) == 0 {
		h.P("uint8_t unused_; /* C has no empty structs; always 0 */")
		return
	}
	for _, f := range fs {
		doc(h, f.Doc)
		h.P(g.declare(f.Type, memberName(f.Name), false), ";")
	}
}

func (g *generator) structDef(s *schema.Struct) {
	h := g.h
	doc(g.h, s.Doc)
	h.Block("struct "+g.typeName(s)+" {", "};", func() { g.fields(s.Fields) })
}

func (g *generator) variantDef(u *schema.Union, v *schema.Variant) {
	h := g.h
	h.F("/** The fields of %s.%s. */", u.Name, v.Name)
	h.Block("struct "+g.variantType(u, v)+" {", "};", func() { g.fields(v.Fields) })
}

// hasPayload reports variants that store data in the C union.
func hasPayload(v *schema.Variant) bool {
	return v.Kind == schema.VariantStruct || (v.Kind == schema.VariantInline && len(v.Fields) > 0)
}

func (g *generator) unionDef(u *schema.Union) {
	h := g.h
	h.F("/* The tags of %s. */", u.Name)
	for _, v := range u.Variants {
		doc(h, v.Doc)
		h.F("#define %s %du", g.valueName(u, v.Name), v.Tag)
	}
	h.P()
	doc(h, u.Doc)
	h.Block("struct "+g.typeName(u)+" {", "};", func() {
		h.F("/** Which variant the value holds: one of %s_*. */", g.macroName(u))
		h.P("uint8_t tag;")
		payload := false
		for _, v := range u.Variants {
			payload = payload || hasPayload(v)
		}
		if !payload {
			return
		}
		h.P("/** The variant's data, by tag; variants without fields have none. */")
		h.Block("union {", "} value;", func() {
			for _, v := range u.Variants {
				switch {
				case v.Kind == schema.VariantStruct:
					h.F("%s %s;", g.typeName(v.Struct), memberName(v.Name))
				case hasPayload(v):
					h.F("%s %s;", g.variantType(u, v), memberName(v.Name))
				}
			}
		})
	})
}

func (g *generator) helperDef(hp *helper) {
	h := g.h
	t := hp.v.Type
	switch t.Kind {
	case schema.Array:
		h.F("/** A %s: len elements at data (NULL when len is 0). */", t)
		h.Block("struct "+hp.name+" {", "};", func() {
			h.P(g.elemDecl(t.Elem, "*data", true), ";")
			h.P("uint32_t len;")
		})
		return
	case schema.FixedArray:
		h.F("/** A %s stored behind a pointer. */", t)
		h.Block("struct "+hp.name+" {", "};", func() {
			h.P(g.declare(t, "items", false), ";")
		})
		return
	}
	h.F("/** A %s: value is meaningful when has is true. */", t)
	h.Block("struct "+hp.name+" {", "};", func() {
		h.P("bool has;")
		h.P(g.declare(t.Elem, "value", false), ";")
	})
}
