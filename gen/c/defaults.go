package c

import (
	"fmt"

	"sdp/gen/plan"
	"sdp/schema"
)

// Default values: T_init sets a value to its schema default, which is all
// zero except that an enum holds its first declared value (in a field, a
// fixed array or a union's first variant) and a union is its first variant.

// zeroDefault reports whether the all-zero value of v is its default value.
func (g *generator) zeroDefault(v *plan.Value) bool {
	switch v.Op {
	case plan.Enum:
		return v.Decl.Enum.Values[0].Value == 0
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		return g.zeroDefault(v.Elem)
	case plan.Struct, plan.Union:
		return g.zeroDecl(v.Decl)
	}
	return true
}

// zeroDecl is zeroDefault for a struct or union, memoized. Inline
// containment is acyclic (recursion goes through boxed optionals, whose
// default is NULL), so the recursion ends.
func (g *generator) zeroDecl(d *plan.Decl) bool {
	if z, ok := g.zero[d]; ok {
		return z
	}
	fields := d.Fields
	if d.Union != nil {
		fields = d.Variants[0].Fields
	}
	z := true
	for _, f := range fields {
		z = z && g.zeroDefault(f.Value)
	}
	g.zero[d] = z
	return z
}

// initValue prints statements setting the zeroed lvalue e of v to its
// default.
func (g *generator) initValue(v *plan.Value, e string, lvl int) {
	if g.zeroDefault(v) {
		return
	}
	p := g.c
	switch v.Op {
	case plan.Enum:
		en := v.Decl.Enum
		p.F("%s = %s;", e, g.valueName(en, en.Values[0].Name))
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, v.Len, i), "}", func() {
			g.initValue(v.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1)
		})
	case plan.Struct:
		p.F("%s_init(&%s);", g.typeName(v.Decl.Decl), e)
	case plan.Union:
		g.use("init:" + v.Decl.Name())
		p.F("%s_init_(&%s);", g.typeName(v.Decl.Decl), e)
	}
}

// structInit prints T_init.
func (g *generator) structInit(s *schema.Struct) {
	p, name := g.c, g.typeName(s)
	p.Block(fmt.Sprintf("void %s_init(%s* v) {", name, name), "}", func() {
		p.P("memset(v, 0, sizeof *v);")
		for _, f := range g.pl.Of(s).Fields {
			g.initValue(f.Value, "v->"+memberName(f.Name), 0)
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
			v := g.pl.Of(u).Variants[0]
			m := "v->value." + memberName(v.Name)
			p.Block(fmt.Sprintf("static void %s_init_(%s* v) {", name, name), "}", func() {
				p.P("memset(v, 0, sizeof *v);")
				p.F("v->tag = %s;", g.valueName(u, v.Name))
				for _, f := range v.Fields {
					if v.Carries != nil {
						g.initValue(f.Value, m, 0)
					} else {
						g.initValue(f.Value, m+"."+memberName(f.Name), 0)
					}
				}
			})
			p.P()
		}
	}
}
