package schema_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/schema"
)

// refShape is Shape as first written: partition refinement round by round
// (one round per link of the longest chain that tells two declarations
// apart). The fast Shape must give the same text for every declaration.
func refShape(root schema.Decl) string {
	var decls []schema.Decl
	seen := map[schema.Decl]bool{}
	var visit func(d schema.Decl)
	visit = func(d schema.Decl) {
		if seen[d] {
			return
		}
		seen[d] = true
		decls = append(decls, d)
		for _, to := range refRefs(d) {
			visit(to)
		}
	}
	visit(root)
	class := map[schema.Decl]int{}
	keys := func(key func(d schema.Decl) string) int {
		ids := map[string]int{}
		var sorted []string
		for _, d := range decls {
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
		for _, d := range decls {
			class[d] = ids[key(d)]
		}
		return len(sorted)
	}
	n := keys(func(d schema.Decl) string { return schema.LocalShape(d, func(schema.Decl) string { return "#" }) })
	for {
		prev := map[schema.Decl]int{}
		for d, c := range class {
			prev[d] = c
		}
		m := keys(func(d schema.Decl) string {
			var b strings.Builder
			b.WriteString(strconv.Itoa(prev[d]))
			for _, to := range refRefs(d) {
				b.WriteString("," + strconv.Itoa(prev[to]))
			}
			return b.String()
		})
		if m == n {
			break
		}
		n = m
	}
	rep := map[int]schema.Decl{}
	for _, d := range decls {
		if _, ok := rep[class[d]]; !ok {
			rep[class[d]] = d
		}
	}
	number := map[int]int{}
	var order []int
	var walk func(c int)
	walk = func(c int) {
		if _, ok := number[c]; ok {
			return
		}
		number[c] = len(order)
		order = append(order, c)
		for _, to := range refRefs(rep[c]) {
			walk(class[to])
		}
	}
	walk(class[root])
	var b strings.Builder
	if st, ok := root.(*schema.Struct); ok {
		b.WriteString("@" + strconv.Itoa(int(st.ID)) + ":")
	}
	for k, c := range order {
		if k > 0 {
			b.WriteByte(';')
		}
		b.WriteString("#" + strconv.Itoa(k) + "=")
		b.WriteString(schema.LocalShape(rep[c], func(to schema.Decl) string { return "#" + strconv.Itoa(number[class[to]]) }))
	}
	return b.String()
}

func refRefs(d schema.Decl) []schema.Decl {
	var out []schema.Decl
	var typ func(t *schema.Type)
	typ = func(t *schema.Type) {
		if t.Elem != nil {
			typ(t.Elem)
			return
		}
		if to := t.Decl(); to != nil {
			out = append(out, to)
		}
	}
	switch d := d.(type) {
	case *schema.Struct:
		for _, f := range d.Fields {
			typ(f.Type)
		}
	case *schema.Union:
		for _, v := range d.Variants {
			for _, f := range v.Fields {
				typ(f.Type)
			}
			if v.Struct != nil {
				out = append(out, v.Struct)
			}
		}
	}
	return out
}

// equivalentGraphs is a random schema of structs and unions over few
// shapes, so many declarations are wire-equivalent, through cycles of every
// length and at every depth.
func equivalentGraphs(seed int64, n int) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for i := 0; i < n; i++ {
		if r.Intn(5) == 0 {
			fmt.Fprintf(&b, "union U%d { A, B { x: u8, s: ?S%d }, S%d }\n", i, r.Intn(n), r.Intn(n))
			continue
		}
		fmt.Fprintf(&b, "struct S%d { v: u8", i)
		for f := r.Intn(3); f > 0; f-- {
			switch r.Intn(4) {
			case 0:
				fmt.Fprintf(&b, ", f%d: ?S%d", f, r.Intn(n))
			case 1:
				fmt.Fprintf(&b, ", f%d: []S%d", f, r.Intn(n))
			case 2:
				fmt.Fprintf(&b, ", f%d: u%d", f, 8<<r.Intn(2))
			default:
				fmt.Fprintf(&b, ", f%d: ?U%d", f, r.Intn(n))
			}
		}
		b.WriteString(" }\n")
	}
	// Names that are never declared (a U that is a struct, or an S that is
	// a union) are declared as empty unions/structs so the schema loads.
	src := b.String()
	for i := 0; i < n; i++ {
		if !strings.Contains(src, fmt.Sprintf("union U%d ", i)) {
			fmt.Fprintf(&b, "union U%d { A }\n", i)
		}
		if !strings.Contains(src, fmt.Sprintf("struct S%d ", i)) {
			fmt.Fprintf(&b, "struct S%d { v: u8 }\n", i)
		}
	}
	return []byte(b.String())
}

// chains is two chains of n structs, declared in a shuffled order: the S
// chain ends in a struct that refers to itself, so all its members are
// equivalent; the T chain ends in one with another field, so T_i and S_i
// differ only through the n-i links down to it.
func chains(seed int64, n int) []byte {
	r := rand.New(rand.NewSource(seed))
	var decls []string
	for i := 0; i < n; i++ {
		next := i + 1
		if next == n {
			next = n - 1
		}
		decls = append(decls, fmt.Sprintf("struct S%d { v: u8, next: ?S%d }", i, next))
		if i == n-1 {
			decls = append(decls, fmt.Sprintf("struct T%d { v: u8, next: ?T%d, w: u16 }", i, i))
		} else {
			decls = append(decls, fmt.Sprintf("struct T%d { v: u8, next: ?T%d }", i, i+1))
		}
	}
	r.Shuffle(len(decls), func(i, j int) { decls[i], decls[j] = decls[j], decls[i] })
	return []byte(strings.Join(decls, "\n") + "\n")
}

func TestShapeMatchesReference(t *testing.T) {
	var schemas []*schema.Schema
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		s, err := schema.Load(conformance.SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	for seed := uint64(1); seed <= 30; seed++ {
		for _, adv := range []bool{false, true} {
			s, err := schema.Parse("r.sdp", randschema.Schema(seed, randschema.Config{Adversarial: adv}))
			if err != nil {
				t.Fatal(err)
			}
			schemas = append(schemas, s)
		}
	}
	for seed := int64(1); seed <= 60; seed++ {
		src := equivalentGraphs(seed, 5+int(seed%25))
		s, err := schema.Parse(fmt.Sprintf("eq%d.sdp", seed), src)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		schemas = append(schemas, s)
	}
	for seed := int64(1); seed <= 20; seed++ {
		s, err := schema.Parse("chains.sdp", chains(seed, int(seed)))
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	for seed := int64(100); seed <= 110; seed++ {
		s, err := schema.Parse("eq.sdp", equivalentGraphs(seed, 80))
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	merged := 0
	for _, s := range schemas {
		for _, d := range s.Decls {
			got, want := schema.Shape(d), refShape(d)
			if got != want {
				t.Fatalf("%s %s: Shape\n%s\nwant\n%s", s.Path, d.DeclName(), got, want)
			}
			if strings.Count(want, "=") < len(refRefs(d)) {
				merged++
			}
		}
	}
	if merged == 0 {
		t.Error("no schema had equivalent declarations: the test does not test merging")
	}
}
