package schema

import (
	"strings"
	"testing"
)

// TestRecoverInsideDeclaration: a syntax error inside a declaration's body
// loses only the member it is in. The checker still sees the declaration
// (so uses of it are not "unknown") and its other members (so their
// unknown types are reported).
func TestRecoverInsideDeclaration(t *testing.T) {
	src := `struct A {
    x: u32,
    y: Nope,
}

struct B {
    a: A,
    z: Missing,
    w: u32 = 4,
    q: Other,
}

union U {
    V { f: u32 u32, g: Gone },
    B,
}

enum E { X = , Y, Z = 2 }

struct C { b: B, e: E, u: U }
`
	_, err := Parse("t.sdp", []byte(src))
	if err == nil {
		t.Fatal("no errors")
	}
	got := err.Error()
	for _, want := range []string{
		`t.sdp:3:8: unknown type "Nope"`,
		`t.sdp:8:8: unknown type "Missing"`,
		`t.sdp:9:12: expected field name in struct B, found "="`,
		`t.sdp:10:8: unknown type "Other"`,
		`t.sdp:14:24: unknown type "Gone"`,
		`t.sdp:18:14: expected enum value (a number), found ","`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{`unknown type "B"`, `unknown type "E"`, `unknown type "U"`} {
		if strings.Contains(got, bad) {
			t.Errorf("spurious %q in\n%s", bad, got)
		}
	}
}

// TestAnalyzeLayoutWithErrors: while a schema has errors, the declarations
// that neither hold one nor reach one keep their layout.
func TestAnalyzeLayoutWithErrors(t *testing.T) {
	a := Analyze("t.sdp", []byte(`struct Point { x: f64, y: f64 }
struct Line { a: Point, b: Point }
struct Bad { p: Point, k: Nope }
struct UsesBad { b: ?Bad }
struct Broken { x: u32, y: = }
struct Other { l: Line }
struct Point { z: u8 }
`))
	if a.Schema != nil || len(a.Diagnostics) != 3 {
		t.Fatalf("schema %v, diagnostics %v", a.Schema, a.Diagnostics)
	}
	want := map[string]bool{"Point": true, "Line": true, "Bad": false, "UsesBad": false, "Broken": false, "Other": true}
	for _, di := range a.Decls[:6] {
		l := a.Layout(di, nil)
		if (l != nil) != want[di.Name] {
			t.Errorf("%s: layout %v, want %v", di.Name, l != nil, want[di.Name])
		}
	}
	if l := a.Layout(a.Decls[1], nil); l == nil || l.Size != 32 || !l.Fixed {
		t.Errorf("Line layout %+v", l)
	}
	if l := a.Layout(a.Decls[6], nil); l != nil {
		t.Errorf("the second Point (a clash) has a layout: %+v", l)
	}
}
