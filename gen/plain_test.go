package gen

import (
	"testing"

	"sdp/schema"
)

func TestPlain(t *testing.T) {
	s, err := schema.Parse("plain.sdp", []byte(`
struct Vector3 { x: f32, y: f32, z: f32 }
struct Triangle { v0: Vector3, v1: Vector3, v2: Vector3, normal: Vector3 }
struct Bytes { a: u8, b: i8, c: u16, d: u32 }
struct Wide { a: u32, b: u32, c: u64 }
struct Misaligned { a: u32, b: u64 }
struct ShortTail { a: u64, b: u32 }
struct Inner { a: u16 }
struct NestedMisaligned { a: u8, inner: Inner }
struct WithBool { a: u32, b: bool }
struct WithEnum { a: u8, e: E }
struct WithArray { a: [3]f32 }
struct WithStr { s: str }
struct Empty {}
struct TrailingEmpty { x: u16, e: Empty }
enum E: u8 { A, B }
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		plain       bool
		size, depth int
		fields      int
	}{
		{"Vector3", true, 12, 1, 3},
		{"Triangle", true, 48, 2, 12},
		{"Bytes", true, 8, 1, 4},
		{"Wide", true, 16, 1, 3},
		{"Misaligned", false, 0, 0, 0},
		{"ShortTail", false, 0, 0, 0},
		{"NestedMisaligned", false, 0, 0, 0},
		{"WithBool", false, 0, 0, 0},
		{"WithEnum", false, 0, 0, 0},
		{"WithArray", false, 0, 0, 0},
		{"WithStr", false, 0, 0, 0},
		{"Empty", false, 0, 0, 0},
		{"TrailingEmpty", false, 0, 0, 0},
	} {
		st := s.Lookup(c.name).(*schema.Struct)
		l, ok := Plain(&schema.Type{Kind: schema.StructRef, Struct: st})
		if ok != c.plain || l.Size != c.size || l.Depth != c.depth || len(l.Fields) != c.fields {
			t.Errorf("%s: Plain = %+v, %v; want size %d, depth %d, %d fields, %v", c.name, l, ok, c.size, c.depth, c.fields, c.plain)
		}
	}
	l, _ := Plain(&schema.Type{Kind: schema.StructRef, Struct: s.Lookup("Triangle").(*schema.Struct)})
	if f := l.Fields[10]; f.Offset != 40 || len(f.Path) != 2 || f.Path[0].Name != "normal" || f.Path[1].Name != "y" ||
		f.Owners[0].Name != "Triangle" || f.Owners[1].Name != "Vector3" || f.Kind != schema.F32 {
		t.Errorf("Triangle's field 10 = %+v, want normal.y, f32 at 40", f)
	}
}
