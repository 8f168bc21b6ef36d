package schema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Fingerprints (docs/wire-format.md, "Fingerprints"): a 64-bit hash of a
// declaration's wire shape. Names, doc comments and declaration order do not
// enter it; two declarations have the same fingerprint exactly when they
// accept and produce the same bytes (and, for structs, have the same message
// type id).

// Shape is the canonical text of d's wire shape, the input of its
// fingerprint: the declarations d reaches, merged where they are
// wire-equivalent, numbered in the order a depth-first walk from d meets
// them, each written as `#k=` and its local text, joined by `;`. A struct's
// shape starts with `@` and its message type id.
func Shape(d Decl) string {
	g := newShapeGraph(d)
	var b strings.Builder
	if st, ok := d.(*Struct); ok {
		b.WriteString("@" + strconv.Itoa(int(st.ID)) + ":")
	}
	for k, c := range g.order {
		if k > 0 {
			b.WriteByte(';')
		}
		b.WriteString("#" + strconv.Itoa(k) + "=")
		b.WriteString(g.local(g.rep[c], func(to Decl) string { return "#" + strconv.Itoa(g.number[g.class[to]]) }))
	}
	return b.String()
}

// Fingerprint is the 64-bit FNV-1a hash of "sdp-shape-1\n" followed by
// Shape(d).
func Fingerprint(d Decl) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte("sdp-shape-1\n" + Shape(d)) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// FormatFingerprint writes a fingerprint as 16 lower-case hex digits.
func FormatFingerprint(f uint64) string { return fmt.Sprintf("%016x", f) }

// shapeGraph is the declarations reachable from a root, partitioned into
// classes of wire-equivalent ones.
type shapeGraph struct {
	decls  []Decl       // reachable, in discovery order
	class  map[Decl]int // partition
	rep    map[int]Decl // one member of every class
	order  []int        // classes in depth-first order from the root
	number map[int]int  // class → its position in order
}

func newShapeGraph(root Decl) *shapeGraph {
	g := &shapeGraph{class: map[Decl]int{}, rep: map[int]Decl{}, number: map[int]int{}}
	seen := map[Decl]bool{}
	var visit func(d Decl)
	visit = func(d Decl) {
		if seen[d] {
			return
		}
		seen[d] = true
		g.decls = append(g.decls, d)
		for _, to := range refs(d) {
			visit(to)
		}
	}
	visit(root)
	// Partition refinement: start from the local text with every reference
	// written as `#`, then split classes whose members refer, position by
	// position, to different classes, until nothing changes.
	for _, d := range g.decls {
		g.class[d] = 0
	}
	keys := func(key func(d Decl) string) int {
		ids := map[string]int{}
		var sorted []string
		for _, d := range g.decls {
			k := key(d)
			if _, ok := ids[k]; !ok {
				ids[k] = 0
				sorted = append(sorted, k)
			}
		}
		sort.Strings(sorted)
		for i, k := range sorted {
			ids[k] = i
		}
		for _, d := range g.decls {
			g.class[d] = ids[key(d)]
		}
		return len(sorted)
	}
	n := keys(func(d Decl) string { return g.local(d, func(Decl) string { return "#" }) })
	for {
		prev := map[Decl]int{}
		for d, c := range g.class {
			prev[d] = c
		}
		m := keys(func(d Decl) string {
			var b strings.Builder
			b.WriteString(strconv.Itoa(prev[d]))
			for _, to := range refs(d) {
				b.WriteString("," + strconv.Itoa(prev[to]))
			}
			return b.String()
		})
		if m == n {
			break
		}
		n = m
	}
	for _, d := range g.decls {
		if _, ok := g.rep[g.class[d]]; !ok {
			g.rep[g.class[d]] = d
		}
	}
	// Number the classes depth-first from the root's, references in text order.
	var walk func(c int)
	walk = func(c int) {
		if _, ok := g.number[c]; ok {
			return
		}
		g.number[c] = len(g.order)
		g.order = append(g.order, c)
		for _, to := range refs(g.rep[c]) {
			walk(g.class[to])
		}
	}
	walk(g.class[root])
	return g
}

// refs lists the declarations d's text refers to, in text order.
func refs(d Decl) []Decl {
	var out []Decl
	var typ func(t *Type)
	typ = func(t *Type) {
		if t.Elem != nil {
			typ(t.Elem)
			return
		}
		if to := t.Decl(); to != nil {
			out = append(out, to)
		}
	}
	fields := func(fs []*Field) {
		for _, f := range fs {
			typ(f.Type)
		}
	}
	switch d := d.(type) {
	case *Struct:
		fields(d.Fields)
	case *Union:
		for _, v := range d.Variants {
			fields(v.Fields)
			if v.Struct != nil {
				out = append(out, v.Struct)
			}
		}
	}
	return out
}

// local is d's text with references written by ref.
func (g *shapeGraph) local(d Decl, ref func(Decl) string) string {
	return LocalShape(d, ref)
}

// LocalShape is d's own shape text: `struct{T,...}`, `enum u8{0,1,5}` (the
// value numbers, ascending), `union{V|...}` (a unit variant `-`, an inline
// one `(T,...)`, a struct variant the reference to its struct), where a type
// is a scalar name, `str`, `[]T`, `[N]T`, `?T` or a reference to a
// declaration written by ref.
func LocalShape(d Decl, ref func(Decl) string) string {
	fields := func(fs []*Field) string {
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = TypeShape(f.Type, ref)
		}
		return strings.Join(parts, ",")
	}
	switch d := d.(type) {
	case *Struct:
		return "struct{" + fields(d.Fields) + "}"
	case *Enum:
		nums := make([]uint64, len(d.Values))
		for i, v := range d.Values {
			nums[i] = uint64(v.Value)
		}
		sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
		parts := make([]string, len(nums))
		for i, n := range nums {
			parts[i] = strconv.FormatUint(n, 10)
		}
		return "enum " + d.Base.String() + "{" + strings.Join(parts, ",") + "}"
	case *Union:
		parts := make([]string, len(d.Variants))
		for i, v := range d.Variants {
			switch v.Kind {
			case VariantUnit:
				parts[i] = "-"
			case VariantInline:
				parts[i] = "(" + fields(v.Fields) + ")"
			case VariantStruct:
				parts[i] = ref(v.Struct)
			}
		}
		return "union{" + strings.Join(parts, "|") + "}"
	}
	panic("schema: LocalShape of " + d.DeclName())
}

// TypeShape is a field type's shape text, declarations written by ref.
func TypeShape(t *Type, ref func(Decl) string) string {
	switch t.Kind {
	case Array:
		return "[]" + TypeShape(t.Elem, ref)
	case FixedArray:
		return "[" + strconv.FormatUint(uint64(t.Len), 10) + "]" + TypeShape(t.Elem, ref)
	case Optional:
		return "?" + TypeShape(t.Elem, ref)
	case StructRef, EnumRef, UnionRef:
		return ref(t.Decl())
	}
	return t.Kind.String()
}
