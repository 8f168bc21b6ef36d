package schema

import "testing"

func TestReaches(t *testing.T) {
	s := mustParse(t, `
struct Leaf { name: str }
struct Plain { x: u32, y: [4]f32 }
union Shape { Empty, Leaf, Box { w: f32, tags: []u8 } }
struct Node { kids: []Node, shape: ?Shape, id: u64 }
struct Flat { p: Plain, e: ?Plain }
`)
	isString := func(t *Type) bool { return t.Kind == String }
	isBytes := func(t *Type) bool { return t.IsBytes() }
	for _, c := range []struct {
		decl  string
		match func(*Type) bool
		name  string
		want  bool
	}{
		{"Leaf", isString, "string", true},
		{"Plain", isString, "string", false},
		{"Shape", isString, "string", true}, // through the struct variant
		{"Shape", isBytes, "bytes", true},   // through the inline variant
		{"Node", isString, "string", true},  // through the optional union, past the recursion
		{"Node", isBytes, "bytes", true},
		{"Flat", isString, "string", false},
	} {
		if got := DeclReaches(s.Lookup(c.decl), c.match); got != c.want {
			t.Errorf("DeclReaches(%s, %s) = %v, want %v", c.decl, c.name, got, c.want)
		}
	}
	u := s.Lookup("Shape").(*Union)
	for i, want := range []bool{false, true, false} {
		if got := VariantReaches(u.Variants[i], isString); got != want {
			t.Errorf("VariantReaches(%s, string) = %v, want %v", u.Variants[i].Name, got, want)
		}
	}
	node := &Type{Kind: StructRef, Struct: s.Struct("Node")}
	if !Reaches(node, func(t *Type) bool { return t.Kind == U64 }) {
		t.Error("Reaches(Node, u64) = false")
	}
}
