package c

import (
	"fmt"

	"sdp/schema"
)

// Default values: T_init sets a value to its schema default, which is all
// zero except that an enum holds its first declared value (in a field, a
// fixed array or a union's first variant) and a union is its first variant.

// zeroDefault reports whether the all-zero value of t is its default value.
func (g *generator) zeroDefault(t *schema.Type) bool {
	switch t.Kind {
	case schema.EnumRef:
		return t.Enum.Values[0].Value == 0
	case schema.FixedArray:
		return g.zeroDefault(t.Elem)
	case schema.StructRef:
		return g.zeroDecl(t.Struct)
	case schema.UnionRef:
		return g.zeroDecl(t.Union)
	}
	return true
}

// zeroDecl is zeroDefault for a struct or union, memoized. Inline
// containment is acyclic (recursion goes through boxed optionals, whose
// default is NULL), so the recursion ends.
func (g *generator) zeroDecl(d schema.Decl) bool {
	if z, ok := g.zero[d]; ok {
		return z
	}
	z := true
	switch d := d.(type) {
	case *schema.Struct:
		for _, f := range d.Fields {
			z = z && g.zeroDefault(f.Type)
		}
	case *schema.Union:
		v := d.Variants[0]
		if v.Kind == schema.VariantStruct {
			z = g.zeroDecl(v.Struct)
		}
		for _, f := range v.Fields {
			z = z && g.zeroDefault(f.Type)
		}
	}
	g.zero[d] = z
	return z
}

// initValue prints statements setting the zeroed lvalue e of type t to its
// default.
func (g *generator) initValue(t *schema.Type, e string, lvl int) {
	if g.zeroDefault(t) {
		return
	}
	p := g.c
	switch t.Kind {
	case schema.EnumRef:
		p.F("%s = %s;", e, g.valueName(t.Enum, t.Enum.Values[0].Name))
	case schema.FixedArray:
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, t.Len, i), "}", func() {
			g.initValue(t.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1)
		})
	case schema.StructRef:
		p.F("%s_init(&%s);", g.typeName(t.Struct), e)
	case schema.UnionRef:
		g.use("init:" + t.Union.Name)
		p.F("%s_init_(&%s);", g.typeName(t.Union), e)
	}
}

// structInit prints T_init.
func (g *generator) structInit(s *schema.Struct) {
	p, name := g.c, g.typeName(s)
	p.Block(fmt.Sprintf("void %s_init(%s* v) {", name, name), "}", func() {
		p.P("memset(v, 0, sizeof *v);")
		for _, f := range s.Fields {
			g.initValue(f.Type, "v->"+memberName(f.Name), 0)
		}
	})
	p.P()
}

// unionInits prints the init functions of the unions that struct inits (or
// other union inits) call.
func (g *generator) unionInits() {
	done := map[*schema.Union]bool{}
	for more := true; more; {
		more = false
		for _, u := range g.s.Unions {
			if done[u] || !g.uses["init:"+u.Name] {
				continue
			}
			done[u], more = true, true
			p, name := g.c, g.typeName(u)
			v := u.Variants[0]
			m := "v->value." + memberName(v.Name)
			p.Block(fmt.Sprintf("static void %s_init_(%s* v) {", name, name), "}", func() {
				p.P("memset(v, 0, sizeof *v);")
				p.F("v->tag = %s;", g.valueName(u, v.Name))
				if v.Kind == schema.VariantStruct {
					g.initValue(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}, m, 0)
				}
				for _, f := range v.Fields {
					g.initValue(f.Type, m+"."+memberName(f.Name), 0)
				}
			})
			p.P()
		}
	}
}
