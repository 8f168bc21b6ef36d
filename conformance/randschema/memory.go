package randschema

import (
	"sdp/schema"
)

// Inputs for rule 11 (memory, docs/wire-format.md): an array of a charged
// element type, filled with minimal elements until its charge crosses the
// default memory limit (and one that stays just below it).

// maxFloodInput caps the size of a memory input: schemas whose charged
// arrays need more bytes to cross the limit get none.
const maxFloodInput = 2 << 20

// chargedArray returns an array type with a memory charge that a value of
// t can hold without going through a recursive cycle, or nil.
func chargedArray(t *schema.Type, seen map[schema.Decl]bool) *schema.Type {
	switch t.Kind {
	case schema.Array:
		if t.ArrayCharge() > 0 {
			return t
		}
		return chargedArray(t.Elem, seen)
	case schema.FixedArray, schema.Optional:
		return chargedArray(t.Elem, seen)
	case schema.StructRef:
		return chargedFields(t.Struct, t.Struct.Fields, seen)
	case schema.UnionRef:
		u := t.Union
		if seen[u] {
			return nil
		}
		seen[u] = true
		defer delete(seen, u)
		for _, vr := range u.Variants {
			if a := chargedVariant(vr, seen); a != nil {
				return a
			}
		}
	}
	return nil
}

func chargedVariant(vr *schema.Variant, seen map[schema.Decl]bool) *schema.Type {
	if vr.Struct != nil {
		return chargedFields(vr.Struct, vr.Struct.Fields, seen)
	}
	return chargedFields(nil, vr.Fields, seen)
}

func chargedFields(d schema.Decl, fs []*schema.Field, seen map[schema.Decl]bool) *schema.Type {
	if d != nil {
		if seen[d] {
			return nil
		}
		seen[d] = true
		defer delete(seen, d)
	}
	for _, f := range fs {
		if a := chargedArray(f.Type, seen); a != nil {
			return a
		}
	}
	return nil
}

func chargedArrayIs(t, target *schema.Type, seen map[schema.Decl]bool) bool {
	if t == target {
		return true
	}
	switch t.Kind {
	case schema.Array, schema.FixedArray, schema.Optional:
		return chargedArrayIs(t.Elem, target, seen)
	case schema.StructRef:
		return fieldsHold(t.Struct, t.Struct.Fields, target, seen)
	case schema.UnionRef:
		if seen[t.Union] {
			return false
		}
		seen[t.Union] = true
		defer delete(seen, t.Union)
		for _, vr := range t.Union.Variants {
			if variantHolds(vr, target, seen) {
				return true
			}
		}
	}
	return false
}

func variantHolds(vr *schema.Variant, target *schema.Type, seen map[schema.Decl]bool) bool {
	if vr.Struct != nil {
		return fieldsHold(vr.Struct, vr.Struct.Fields, target, seen)
	}
	return fieldsHold(nil, vr.Fields, target, seen)
}

func fieldsHold(d schema.Decl, fs []*schema.Field, target *schema.Type, seen map[schema.Decl]bool) bool {
	if d != nil {
		if seen[d] {
			return false
		}
		seen[d] = true
		defer delete(seen, d)
	}
	for _, f := range fs {
		if chargedArrayIs(f.Type, target, seen) {
			return true
		}
	}
	return false
}

// flood appends a minimal encoding of t, except that the values on the way
// to target are present and target itself holds n minimal elements. seen
// holds the declarations the way goes through, so it never loops.
func (v *values) flood(out []byte, t, target *schema.Type, n int, seen map[schema.Decl]bool) []byte {
	if !chargedArrayIs(t, target, seen) {
		return v.gen(out, t, minimal, 0, 0)
	}
	switch t.Kind {
	case schema.Array:
		if t == target {
			out = appendLE(out, uint64(n), 4)
			for i := 0; i < n; i++ {
				out = v.gen(out, t.Elem, minimal, 0, 0)
			}
			return out
		}
		out = appendLE(out, 1, 4)
		return v.flood(out, t.Elem, target, n, seen)
	case schema.FixedArray:
		out = v.flood(out, t.Elem, target, n, seen)
		for i := 1; i < int(t.Len); i++ {
			out = v.gen(out, t.Elem, minimal, 0, 0)
		}
		return out
	case schema.Optional:
		return v.flood(append(out, 1), t.Elem, target, n, seen)
	case schema.StructRef:
		seen[t.Struct] = true
		return v.floodFields(out, t.Struct.Fields, target, n, seen)
	case schema.UnionRef:
		seen[t.Union] = true
		for _, vr := range t.Union.Variants {
			if variantHolds(vr, target, seen) {
				out = append(out, vr.Tag)
				if vr.Struct != nil {
					seen[vr.Struct] = true
					return v.floodFields(out, vr.Struct.Fields, target, n, seen)
				}
				return v.floodFields(out, vr.Fields, target, n, seen)
			}
		}
	}
	panic("randschema: flood through " + t.String())
}

// floodFields floods the first field that holds target; the others are minimal.
func (v *values) floodFields(out []byte, fs []*schema.Field, target *schema.Type, n int, seen map[schema.Decl]bool) []byte {
	done := false
	for _, f := range fs {
		if !done && chargedArrayIs(f.Type, target, seen) {
			out = v.flood(out, f.Type, target, n, seen)
			done = true
			continue
		}
		out = v.gen(out, f.Type, minimal, 0, 0)
	}
	return out
}

// memoryInputs returns two encodings of st whose charged array holds just
// more and just fewer minimal elements than the default memory limit allows
// (the reference codec decides what they are), or nil when st holds no
// charged array or crossing the limit needs more than maxFloodInput bytes.
func (v *values) memoryInputs(st *schema.Struct) (over, under []byte) {
	t := &schema.Type{Kind: schema.StructRef, Struct: st}
	target := chargedArray(t, map[schema.Decl]bool{})
	if target == nil {
		return nil, nil
	}
	base := len(v.flood(nil, t, target, 0, map[schema.Decl]bool{}))
	elem := len(v.gen(nil, target.Elem, minimal, 0, 0))
	charge := target.ArrayCharge()
	if charge <= uint64(schema.MemoryRatio*elem) {
		return nil, nil
	}
	// n × charge > 32 × (base + n × elem) + 1 MiB
	n := (uint64(schema.MemoryAllowance) + uint64(schema.MemoryRatio*base)) / (charge - uint64(schema.MemoryRatio*elem))
	if n*uint64(elem)+uint64(base) > maxFloodInput || n < 2 {
		return nil, nil
	}
	return v.flood(nil, t, target, int(n)+2, map[schema.Decl]bool{}), v.flood(nil, t, target, int(n)-1, map[schema.Decl]bool{})
}
