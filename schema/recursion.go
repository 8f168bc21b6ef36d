package schema

import (
	"fmt"
	"strings"
)

// edge is one use of a named type inside another.
type edge struct {
	to     Decl
	direct bool  // stored inline: not behind ?T or []T
	opt    *Type // the ?T the use sits under, if it is the nearest wrapper that breaks inline storage
	pos    Pos
}

// edges lists the named types a declaration uses, in field order.
func edges(d Decl) []edge {
	var out []edge
	var walk func(t *Type, direct bool, opt *Type)
	walk = func(t *Type, direct bool, opt *Type) {
		switch t.Kind {
		case Array:
			walk(t.Elem, false, nil)
		case Optional:
			walk(t.Elem, false, t)
		case FixedArray:
			walk(t.Elem, direct, opt)
		case StructRef, EnumRef, UnionRef:
			out = append(out, edge{to: t.Decl(), direct: direct, opt: opt, pos: t.Pos})
		}
	}
	fields := func(fs []*Field) {
		for _, f := range fs {
			walk(f.Type, true, nil)
		}
	}
	switch d := d.(type) {
	case *Struct:
		fields(d.Fields)
	case *Union:
		for _, v := range d.Variants {
			fields(v.Fields)
			if v.Struct != nil {
				out = append(out, edge{to: v.Struct, direct: true, pos: v.Pos})
			}
		}
	}
	return out
}

// recursion rejects types that contain themselves inline (they would be
// infinitely large), then marks recursive types and the optionals that must
// be boxed. It reports whether the schema is free of such errors.
func (c *checker) recursion() bool {
	ok := true
	// Each declaration's edges, listed once: the passes below walk them
	// three times.
	out := make(map[Decl][]edge, len(c.s.Decls))
	for _, d := range c.s.Decls {
		out[d] = edges(d)
	}
	edges := func(d Decl) []edge { return out[d] }
	// Direct cycles: depth-first search over inline edges only.
	state := map[Decl]int{} // 0 new, 1 on stack, 2 done
	var stack []Decl
	reported := map[Decl]bool{}
	var visit func(d Decl)
	visit = func(d Decl) {
		state[d] = 1
		stack = append(stack, d)
		for _, e := range edges(d) {
			if !e.direct {
				continue
			}
			switch state[e.to] {
			case 0:
				visit(e.to)
			case 1:
				var names []string
				start := 0
				for i, s := range stack {
					if s == e.to {
						start = i
					}
				}
				for _, s := range stack[start:] {
					names = append(names, s.DeclName())
				}
				names = append(names, e.to.DeclName())
				if !reported[e.to] {
					reported[e.to] = true
					c.errs.add(e.pos, fmt.Sprintf("%s contains itself: %s", e.to.DeclName(), strings.Join(names, " → ")),
						"a type can only contain itself through ?T or []T")
				}
				ok = false
			}
		}
		stack = stack[:len(stack)-1]
		state[d] = 2
	}
	for _, d := range c.s.Decls {
		if state[d] == 0 {
			visit(d)
		}
	}
	if !ok {
		return false
	}

	// Strongly connected components over every edge (Tarjan).
	comp := c.components(edges)
	size := map[int]int{} // component → how many declarations it holds
	for _, d := range c.s.Decls {
		size[comp[d]]++
	}
	for _, d := range c.s.Decls {
		self := false
		for _, e := range edges(d) {
			if e.to == d {
				self = true
			}
			if e.opt != nil && comp[e.to] == comp[d] {
				e.opt.Boxed = true
			}
		}
		rec := self || size[comp[d]] > 1
		switch d := d.(type) {
		case *Struct:
			d.Recursive = rec
		case *Union:
			d.Recursive = rec
		}
	}
	return true
}

func (c *checker) components(edges func(Decl) []edge) map[Decl]int {
	n := len(c.s.Decls)
	index := make(map[Decl]int, n)
	low := make(map[Decl]int, n)
	onStack := make(map[Decl]bool, n)
	comp := make(map[Decl]int, n)
	var stack []Decl
	next, ncomp := 0, 0
	var strong func(d Decl)
	strong = func(d Decl) {
		index[d], low[d] = next, next
		next++
		stack = append(stack, d)
		onStack[d] = true
		for _, e := range edges(d) {
			if _, seen := index[e.to]; !seen {
				strong(e.to)
				if low[e.to] < low[d] {
					low[d] = low[e.to]
				}
			} else if onStack[e.to] && index[e.to] < low[d] {
				low[d] = index[e.to]
			}
		}
		if low[d] == index[d] {
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp[top] = ncomp
				if top == d {
					break
				}
			}
			ncomp++
		}
	}
	for _, d := range c.s.Decls {
		if _, seen := index[d]; !seen {
			strong(d)
		}
	}
	return comp
}
