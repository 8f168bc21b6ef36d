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
	index := map[Decl]int{}
	var succ [][]int // succ[i]: the indexes of the declarations g.decls[i] refers to, in text order
	var visit func(d Decl)
	visit = func(d Decl) {
		if _, ok := index[d]; ok {
			return
		}
		index[d] = len(g.decls)
		g.decls = append(g.decls, d)
		succ = append(succ, nil)
		for _, to := range refs(d) {
			visit(to)
		}
	}
	visit(root)
	for i, d := range g.decls {
		for _, to := range refs(d) {
			succ[i] = append(succ[i], index[to])
		}
	}
	// The classes are the coarsest partition in which members have the same
	// local text (references written as `#`) and refer, position by
	// position, to members of the same classes. Hopcroft's algorithm finds it
	// in O(m log n) (refining round by round, as before, took a round per
	// link of the longest chain that tells two declarations apart).
	labels := map[string]int{}
	initial := make([]int, len(g.decls))
	for i, d := range g.decls {
		k := g.local(d, func(Decl) string { return "#" })
		if _, ok := labels[k]; !ok {
			labels[k] = len(labels)
		}
		initial[i] = labels[k]
	}
	for i, c := range refine(initial, len(labels), succ) {
		g.class[g.decls[i]] = c
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

// refine is Hopcroft's partition refinement for nodes with ordered
// successors: it splits the initial blocks (initial[x] in 0..nblocks-1)
// until nodes of a block have, at every position a, successors in one
// block, and returns each node's block. Nodes of one initial block have the
// same number of successors. Block numbers are arbitrary; only the
// partition is the result.
func refine(initial []int, nblocks int, succ [][]int) []int {
	n := len(initial)
	// The partition: elems grouped by block, each block a range of it.
	elems := make([]int, 0, n)
	pos := make([]int, n)
	blk := make([]int, n)
	start := make([]int, nblocks, n+1)
	end := make([]int, nblocks, n+1)
	count := make([]int, nblocks)
	for _, b := range initial {
		count[b]++
	}
	for b := 1; b < nblocks; b++ {
		start[b] = start[b-1] + count[b-1]
	}
	copy(end, start)
	elems = elems[:n]
	for x, b := range initial {
		elems[end[b]] = x
		pos[x] = end[b]
		blk[x] = b
		end[b]++
	}
	marked := make([]int, nblocks, n+1)
	// pred[{a, y}]: the nodes whose a-th successor is y.
	maxDeg := 0
	for _, s := range succ {
		if len(s) > maxDeg {
			maxDeg = len(s)
		}
	}
	type edge struct{ a, y int }
	pred := map[edge][]int{}
	for x, s := range succ {
		for a, y := range s {
			pred[edge{a, y}] = append(pred[edge{a, y}], x)
		}
	}
	// The splitters still to use: (block, position) pairs.
	type splitter struct{ b, a int }
	var work []splitter
	inWork := map[splitter]bool{}
	for b := 0; b < nblocks; b++ {
		for a := 0; a < maxDeg; a++ {
			work = append(work, splitter{b, a})
			inWork[splitter{b, a}] = true
		}
	}
	var touched, members []int
	for len(work) > 0 {
		sp := work[len(work)-1]
		work = work[:len(work)-1]
		delete(inWork, sp)
		// Mark every node whose sp.a-th successor is in block sp.b: move it
		// to the front of its block.
		touched = touched[:0]
		members = append(members[:0], elems[start[sp.b]:end[sp.b]]...) // marking reorders elems
		for _, y := range members {
			for _, x := range pred[edge{sp.a, y}] {
				b := blk[x]
				if marked[b] == 0 {
					touched = append(touched, b)
				}
				if pos[x] < start[b]+marked[b] {
					continue // already marked
				}
				j := start[b] + marked[b]
				y := elems[j]
				elems[j], elems[pos[x]] = x, y
				pos[y], pos[x] = pos[x], j
				marked[b]++
			}
		}
		// Split every block with some but not all nodes marked; the smaller
		// part gets a new number.
		for _, b := range touched {
			m := marked[b]
			marked[b] = 0
			if m == end[b]-start[b] {
				continue
			}
			nb := len(start)
			if m <= end[b]-start[b]-m {
				start = append(start, start[b])
				end = append(end, start[b]+m)
				start[b] += m
			} else {
				start = append(start, start[b]+m)
				end = append(end, end[b])
				end[b] = start[b] + m
			}
			marked = append(marked, 0)
			for i := start[nb]; i < end[nb]; i++ {
				blk[elems[i]] = nb
			}
			small := nb
			if end[b]-start[b] < end[nb]-start[nb] {
				small = b
			}
			for a := 0; a < maxDeg; a++ {
				if inWork[splitter{b, a}] {
					work = append(work, splitter{nb, a})
					inWork[splitter{nb, a}] = true
				} else {
					work = append(work, splitter{small, a})
					inWork[splitter{small, a}] = true
				}
			}
		}
	}
	return blk
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
