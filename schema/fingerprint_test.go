package schema

import "testing"

func fingerprintOf(t *testing.T, src, name string) uint64 {
	t.Helper()
	s := mustParse(t, src)
	d := s.Lookup(name)
	if d == nil {
		t.Fatalf("no %s in %s", name, src)
	}
	return Fingerprint(d)
}

func TestFingerprintIgnoresNamesDocsAndOrder(t *testing.T) {
	a := fingerprintOf(t, `
struct Point { x: f64, y: f64 }
/// A shape.
union Shape { None, Circle { r: f64 }, Point }
enum Kind: u16 { A = 1, B = 5 }
struct Scene { shapes: []Shape, kind: Kind, origin: ?Point }`, "Scene")
	b := fingerprintOf(t, `
enum Sort: u16 { Five = 5, One = 1 }
struct Vec2 { a: f64, b: f64 }
union Figure { Empty, Round { radius: f64 }, Vec2 }
/// Renamed, reordered, documented.
struct Scene { figures: []Figure, sort: Sort, center: Option<Vec2> }`, "Scene")
	if a != b {
		t.Errorf("renames, doc comments and declaration order changed the fingerprint: %x, %x", a, b)
	}
}

func TestFingerprintMergesEquivalentTypes(t *testing.T) {
	a := fingerprintOf(t, `struct B { v: u32 } @id(5) struct A { x: B, y: B }`, "A")
	b := fingerprintOf(t, `struct B { v: u32 } struct C { w: u32 } @id(5) struct A { x: B, y: C }`, "A")
	if a != b {
		t.Errorf("two identical structs in place of one changed the fingerprint")
	}
	// Mutual recursion of two equivalent structs is self-recursion.
	c := fingerprintOf(t, `struct A { v: u8, b: ?B } struct B { v: u8, a: ?A }`, "A")
	d := fingerprintOf(t, `struct A { v: u8, a: ?A }`, "A")
	if c != d {
		t.Errorf("mutual recursion of equivalent structs: %s vs %s", Shape(mustParse(t, `struct A { v: u8, b: ?B } struct B { v: u8, a: ?A }`).Lookup("A")), Shape(mustParse(t, `struct A { v: u8, a: ?A }`).Lookup("A")))
	}
}

func TestFingerprintChanges(t *testing.T) {
	base := `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`
	same := fingerprintOf(t, base, "Q")
	changes := map[string]string{
		"field type":               `struct P { a: u64, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"field added":              `struct P { a: u32, b: str, c: [4]u8, d: ?u16, z: u8 } enum E: u8 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"fields reordered":         `struct P { b: str, a: u32, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"fixed length":             `struct P { a: u32, b: str, c: [5]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"enum base":                `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u16 { X, Y } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"enum value":               `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y = 2 } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"enum value added":         `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y, Z } union U { A, B { e: E } } struct Q { p: P, u: U }`,
		"variants reordered":       `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { B { e: E }, A } struct Q { p: P, u: U }`,
		"variant added":            `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E }, C } struct Q { p: P, u: U }`,
		"message id":               `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } union U { A, B { e: E } } @id(9) struct Q { p: P, u: U }`,
		"inline to struct variant": `struct P { a: u32, b: str, c: [4]u8, d: ?u16 } enum E: u8 { X, Y } struct B { e: E } union U { A, B } struct Q { p: P, u: U }`,
	}
	for what, src := range changes {
		if fingerprintOf(t, src, "Q") == same {
			t.Errorf("%s: the fingerprint did not change", what)
		}
	}
	// A nested struct's message id is not part of its user's shape.
	if fingerprintOf(t, `@id(7) struct P { a: u32 } struct Q { p: P }`, "Q") != fingerprintOf(t, `@id(8) struct P { a: u32 } @id(2) struct Q { p: P }`, "Q") {
		t.Error("a nested struct's message id changed its user's fingerprint")
	}
}

func TestShapeText(t *testing.T) {
	s := mustParse(t, `struct Node { v: u32, kids: []Node, tag: ?Tag } enum Tag: u8 { B = 2, A = 1 } union U { X, Y { n: [3]f32 }, Node }`)
	if got, want := Shape(s.Lookup("Node")), "@1:#0=struct{u32,[]#0,?#1};#1=enum u8{1,2}"; got != want {
		t.Errorf("Shape(Node) = %s, want %s", got, want)
	}
	if got, want := Shape(s.Lookup("U")), "#0=union{-|([3]f32)|#1};#1=struct{u32,[]#1,?#2};#2=enum u8{1,2}"; got != want {
		t.Errorf("Shape(U) = %s, want %s", got, want)
	}
	if got := FormatFingerprint(Fingerprint(s.Lookup("Node"))); len(got) != 16 {
		t.Errorf("FormatFingerprint: %q", got)
	}
}
