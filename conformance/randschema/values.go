package randschema

import (
	"encoding/binary"
	"math"

	"sdp/conformance/datagen"
	"sdp/schema"
)

// values writes random valid encodings of a schema's types straight from
// the model. Each value is checked by the reference codec before use.
type values struct {
	r      *datagen.Rand
	budget int // bytes left before every choice becomes the smallest one
	reach  map[schema.Decl]bool
}

func newValues(r *datagen.Rand, s *schema.Schema) *values {
	v := &values{r: r, reach: map[schema.Decl]bool{}}
	// reach: the declarations from which a recursive declaration can be
	// reached, so a deep value can be steered down a cycle.
	for changed := true; changed; {
		changed = false
		for _, d := range s.Decls {
			if v.reach[d] {
				continue
			}
			ok := false
			switch d := d.(type) {
			case *schema.Struct:
				ok = d.Recursive || v.anyReach(d.Fields)
			case *schema.Union:
				ok = d.Recursive
				for _, vr := range d.Variants {
					ok = ok || v.anyReach(vr.Fields) || (vr.Struct != nil && v.reach[vr.Struct])
				}
			}
			if ok {
				v.reach[d] = true
				changed = true
			}
		}
	}
	return v
}

func (v *values) anyReach(fs []*schema.Field) bool {
	for _, f := range fs {
		if v.reaches(f.Type) {
			return true
		}
	}
	return false
}

// reaches reports whether a value of t can contain a recursive declaration.
func (v *values) reaches(t *schema.Type) bool {
	switch t.Kind {
	case schema.Array, schema.FixedArray, schema.Optional:
		return v.reaches(t.Elem)
	case schema.StructRef, schema.UnionRef:
		return v.reach[t.Decl()]
	}
	return false
}

// mode says how a value is shaped.
type mode int

const (
	random  mode = iota // random choices within the budget
	minimal             // the smallest choices: absent, empty, the first variant that ends the recursion
	deep                // steer down a cycle until the target depth
)

// gen appends an encoding of t. depth is the depth of the enclosing struct
// or union value (the top-level struct is depth 1); target is the depth a
// deep value goes down to.
func (v *values) gen(out []byte, t *schema.Type, m mode, depth, target int) []byte {
	if m == random && v.budget <= 0 {
		m = minimal
	}
	if m == deep && depth >= target {
		m = minimal
	}
	start := len(out)
	defer func() { v.budget -= len(out) - start }()
	switch t.Kind {
	case schema.Bool:
		return append(out, byte(v.r.Intn(2)))
	case schema.U8, schema.I8, schema.U16, schema.I16, schema.U32, schema.I32, schema.U64, schema.I64:
		return appendLE(out, v.integer(t.Kind.Size()), t.Kind.Size())
	case schema.F32:
		return appendLE(out, uint64(v.f32()), 4)
	case schema.F64:
		return appendLE(out, v.f64(), 8)
	case schema.String:
		s := v.str(m)
		out = appendLE(out, uint64(len(s)), 4)
		return append(out, s...)
	case schema.Array:
		n := 0
		switch {
		case m == deep && v.reaches(t.Elem):
			n = 1
		case m == random:
			n = v.count(t.Elem, depth)
		}
		out = appendLE(out, uint64(n), 4)
		for i := 0; i < n; i++ {
			em := m
			if m == deep && i > 0 {
				em = minimal
			}
			out = v.gen(out, t.Elem, em, depth, target)
		}
		return out
	case schema.FixedArray:
		deepAt := -1
		if m == deep && v.reaches(t.Elem) {
			deepAt = v.r.Intn(int(t.Len))
		}
		for i := 0; i < int(t.Len); i++ {
			em := m
			if m == deep && i != deepAt {
				em = minimal
			}
			out = v.gen(out, t.Elem, em, depth, target)
		}
		return out
	case schema.Optional:
		present := false
		switch m {
		case deep:
			present = v.reaches(t.Elem)
		case random:
			present = v.r.Chance(60 - 5*min(depth, 10))
		}
		if !present {
			return append(out, 0)
		}
		out = append(out, 1)
		return v.gen(out, t.Elem, m, depth, target)
	case schema.EnumRef:
		vals := t.Enum.Values
		return appendLE(out, uint64(vals[v.r.Intn(len(vals))].Value), t.Enum.Base.Size())
	case schema.StructRef:
		return v.fields(out, t.Struct.Fields, m, depth+1, target)
	case schema.UnionRef:
		return v.union(out, t.Union, m, depth+1, target)
	}
	panic("randschema: unknown kind " + t.Kind.String())
}

// fields encodes a struct's (or inline variant's) fields at depth; a deep
// value goes down one field that reaches a cycle, the others are minimal.
func (v *values) fields(out []byte, fs []*schema.Field, m mode, depth, target int) []byte {
	deepAt := -1
	if m == deep {
		var cands []int
		for i, f := range fs {
			if v.reaches(f.Type) {
				cands = append(cands, i)
			}
		}
		if len(cands) > 0 {
			deepAt = cands[v.r.Intn(len(cands))]
		}
	}
	for i, f := range fs {
		fm := m
		if m == deep && i != deepAt {
			fm = minimal
		}
		out = v.gen(out, f.Type, fm, depth, target)
	}
	return out
}

func (v *values) union(out []byte, u *schema.Union, m mode, depth, target int) []byte {
	var pick *schema.Variant
	switch m {
	case random:
		pick = u.Variants[v.r.Intn(len(u.Variants))]
		if depth > 8 {
			pick = v.variant(u, false)
		}
	case minimal:
		pick = v.variant(u, false)
	case deep:
		if depth >= target {
			pick = v.variant(u, false)
		} else {
			pick = v.variant(u, true)
		}
	}
	out = append(out, pick.Tag)
	switch pick.Kind {
	case schema.VariantInline:
		return v.fields(out, pick.Fields, m, depth, target)
	case schema.VariantStruct:
		// The variant's struct is the union's payload: a struct value one level deeper.
		return v.fields(out, pick.Struct.Fields, m, depth+1, target)
	}
	return out
}

// variant picks a variant that reaches a cycle (toward) or, failing that or
// when not toward, one that ends it: a unit variant, or the smallest.
func (v *values) variant(u *schema.Union, toward bool) *schema.Variant {
	var best *schema.Variant
	for _, vr := range u.Variants {
		r := v.anyReach(vr.Fields) || (vr.Struct != nil && v.reach[vr.Struct])
		if toward && r {
			return vr
		}
		if !toward && vr.Kind == schema.VariantUnit {
			return vr
		}
		if !toward && !r && best == nil {
			best = vr
		}
	}
	if best == nil {
		best = u.Variants[0]
	}
	return best
}

func (v *values) count(elem *schema.Type, depth int) int {
	switch {
	case depth > 6 || v.r.Chance(25):
		return 0
	case v.r.Chance(5) && elem.IsNumeric():
		return v.r.Range(100, 3000)
	case v.r.Chance(5):
		return v.r.Range(10, 60)
	}
	return v.r.Range(1, 4)
}

func (v *values) integer(size int) uint64 {
	bits := uint(size * 8)
	mask := uint64(1)<<bits - 1
	if size == 8 {
		mask = math.MaxUint64
	}
	switch v.r.Intn(8) {
	case 0:
		return 0
	case 1:
		return mask // max unsigned, -1 signed
	case 2:
		return mask >> 1 // max signed
	case 3:
		return (mask >> 1) + 1 // min signed, high bit
	case 4:
		return 1
	}
	return v.r.Uint64() & mask
}

var f32Specials = []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0xffffffff, 0x00000001, 0x007fffff, 0x7f7fffff, 0x3f800000}
var f64Specials = []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000001, math.MaxUint64, 1, 0x000fffffffffffff, 0x7fefffffffffffff, 0x3ff0000000000000}

func (v *values) f32() uint32 {
	if v.r.Chance(40) {
		return f32Specials[v.r.Intn(len(f32Specials))]
	}
	return v.r.Uint32()
}

func (v *values) f64() uint64 {
	if v.r.Chance(40) {
		return f64Specials[v.r.Intn(len(f64Specials))]
	}
	return v.r.Uint64()
}

var strPieces = []string{"", "a", "plugin", "é", "日本", "🎛️", "\x00", "\"", "\\", "\n", "Ω≈ç", "👨‍👩‍👧", "e\u0301", "\u2028", "\U0010FFFF", "\uFFFD", "~"}

func (v *values) str(m mode) string {
	if m != random || v.r.Chance(20) {
		return ""
	}
	n := v.r.Range(1, 6)
	if v.r.Chance(3) {
		n = v.r.Range(50, 200)
	}
	var b []byte
	for i := 0; i < n; i++ {
		b = append(b, v.r.Pick(strPieces)...)
	}
	return string(b)
}

func appendLE(b []byte, x uint64, size int) []byte {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], x)
	return append(b, buf[:size]...)
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}
