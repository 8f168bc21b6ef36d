package gentest

import (
	"errors"
	"math"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/schema"
)

// TopCase is an input of a top-level union or enum of the corpus schema
// enums_unions.sdp decoded on its own (not as a field): each backend's API
// tests decode it with that language's decoder of the type and compare the
// error's rule, offset and path with Want's, which the reference codec gives.
type TopCase struct {
	Name     string
	Type     string // "Shape", "Nested", "Small", "Sparse", "Wide"
	Input    []byte
	MaxDepth int // 0: the default (64)
}

// TopWant is what the reference codec says of a TopCase: Rule "" for a
// valid input (which must then re-encode to Input byte for byte).
type TopWant struct {
	Rule   string
	Offset int
	Path   string
}

func f64le(x float64) []byte {
	b := make([]byte, 8)
	u := math.Float64bits(x)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TopCases are the top-level union and enum inputs: bad tags, truncation,
// trailing bytes, bad values deep inside a variant, a depth limit, and valid
// values.
func TopCases() []TopCase {
	b := func(xs ...byte) []byte { return xs }
	return []TopCase{
		{"shape empty", "Shape", b(), 0},
		{"shape bad tag", "Shape", b(6), 0},
		{"shape trailing", "Shape", b(0, 0), 0},
		{"shape circle truncated", "Shape", b(1, 0, 0, 0), 0},
		{"shape rect height truncated", "Shape", b(2, 0, 0, 0, 0, 0, 0), 0},
		{"shape polygon count", "Shape", b(3, 0xff, 0xff, 0xff, 0x7f), 0},
		{"shape polygon closed truncated", "Shape", b(3, 1, 0, 0, 0, 0, 0, 0x80, 0x3f), 0},
		{"shape polygon bool", "Shape", b(3, 0, 0, 0, 0, 2), 0},
		{"shape label utf8", "Shape", b(4, 1, 0, 0, 0, 0xff), 0},
		{"shape circle too deep", "Shape", cat(b(1), f64le(1.5)), 1},
		{"shape circle trailing", "Shape", cat(b(1), f64le(1.5), b(0)), 0},
		{"shape circle", "Shape", cat(b(1), f64le(1.5)), 0},
		{"shape label", "Shape", b(4, 2, 0, 0, 0, 'h', 'i'), 0},
		{"shape marker", "Shape", b(5), 0},
		{"nested bad tag", "Nested", b(2), 0},
		{"nested leaf enum", "Nested", b(0, 7), 0},
		{"nested branch shape tag", "Nested", b(1, 9), 0},
		{"nested branch circle truncated", "Nested", b(1, 1, 0, 0), 0},
		{"nested branch label utf8", "Nested", b(1, 4, 2, 0, 0, 0, 0xc3, 0x28, 1, 0), 0},
		{"nested branch polygon bool", "Nested", b(1, 3, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 3, 1, 0), 0},
		{"nested branch sparse enum", "Nested", b(1, 0, 5, 0), 0},
		{"nested branch sparse truncated", "Nested", b(1, 5, 10), 0},
		{"nested branch circle too deep", "Nested", cat(b(1, 1), f64le(2), b(1, 0)), 2},
		{"nested branch", "Nested", b(1, 2, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0xff, 0xff), 0},
		{"small empty", "Small", b(), 0},
		{"small bad value", "Small", b(3), 0},
		{"small trailing", "Small", b(1, 0), 0},
		{"small", "Small", b(2), 0},
		{"sparse truncated", "Sparse", b(1), 0},
		{"sparse bad value", "Sparse", b(3, 0), 0},
		{"sparse", "Sparse", b(10, 0), 0},
		{"wide bad value", "Wide", b(1, 0, 0, 0), 0},
		{"wide", "Wide", b(0xff, 0xff, 0xff, 0xff), 0},
	}
}

// EnumsUnions loads the corpus schema enums_unions.sdp.
func EnumsUnions(t testing.TB) *schema.Schema {
	t.Helper()
	s, err := schema.Load(conformance.SchemaPath("enums_unions"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TopExpect is the reference codec's verdict on c (s is EnumsUnions's).
func TopExpect(s *schema.Schema, c TopCase) TopWant {
	_, err := codec.Decode(s, c.Type, c.Input, codec.Options{MaxDepth: c.MaxDepth})
	if err == nil {
		return TopWant{}
	}
	var de *codec.DecodeError
	if !errors.As(err, &de) {
		panic(c.Name + ": reference codec: " + err.Error())
	}
	return TopWant{Rule: de.Rule, Offset: de.Offset, Path: de.Path}
}
