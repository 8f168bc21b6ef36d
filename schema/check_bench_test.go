package schema

import (
	"fmt"
	"strings"
	"testing"
)

// genKind is what declaration i of genSchema is: 's', 'e' or 'u'. Three
// in ten are structs, so that 200,000 declarations stay under the 65,535
// message type ids.
func genKind(i int) byte {
	switch i % 10 {
	case 0, 3, 7:
		return 's'
	case 2, 6:
		return 'u'
	}
	return 'e'
}

// genNearest is the nearest declaration of kind k at or below i (at or above
// it when up is set), or -1.
func genNearest(k byte, i, n int, up bool) int {
	for i >= 0 && i < n {
		if genKind(i) == k {
			return i
		}
		if up {
			i++
		} else {
			i--
		}
	}
	return -1
}

// genSchema writes a schema of n declarations, about like a large
// hand-written one: structs that hold earlier structs inline and later ones
// through ?T and []T (so there are cycles), enums and unions among them.
func genSchema(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch genKind(i) {
		case 'e':
			fmt.Fprintf(&b, "/// Enum number %d.\nenum E%d: u16 { A = 0, B, C = 7 }\n\n", i, i)
		case 'u':
			fmt.Fprintf(&b, "union U%d {\n    Empty,\n    Inline { x: u32, name: str },\n    S%d,\n}\n\n", i, genNearest('s', i, n, false))
		default:
			fmt.Fprintf(&b, "/// Struct number %d.\nstruct S%d {\n    id: u64,\n    name: str,\n    values: []f32,\n", i, i)
			if p := genNearest('s', i-2, n, false); p >= 0 && i%4 != 0 {
				fmt.Fprintf(&b, "    prev: S%d,\n", p)
			}
			if i >= 10 {
				fmt.Fprintf(&b, "    kind: E%d,\n    shape: ?U%d,\n", genNearest('e', i-5, n, false), genNearest('u', i-5, n, false))
			}
			if nx := genNearest('s', i+5, n, true); nx >= 0 {
				fmt.Fprintf(&b, "    next: ?S%d,\n", nx)
			}
			if i%100 == 50 {
				fmt.Fprintf(&b, "    back: []S%d,\n", genNearest('s', i-50, n, false))
			}
			b.WriteString("}\n\n")
		}
	}
	return []byte(b.String())
}

func TestGenSchema(t *testing.T) {
	src := genSchema(500)
	s, err := Parse("gen.sdp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Decls) != 500 || len(s.Structs) != 150 || len(s.Unions) != 100 {
		t.Fatalf("decls %d, enums %d, unions %d", len(s.Decls), len(s.Enums), len(s.Unions))
	}
}

func benchmarkCheck(b *testing.B, n int) {
	src := genSchema(n)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("gen.sdp", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck5k and BenchmarkCheck200k parse and check generated schemas
// of 5,000 and 200,000 declarations: the checker is linear in declarations,
// so the second takes about 40 times as long as the first.
func BenchmarkCheck5k(b *testing.B)   { benchmarkCheck(b, 5000) }
func BenchmarkCheck200k(b *testing.B) { benchmarkCheck(b, 200000) }
