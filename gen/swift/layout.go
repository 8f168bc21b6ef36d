package swift

import "sdp/gen/plan"

// boxMessageOver is the estimated size in bytes above which a struct is
// boxed (an indirect case) in AnyMessage. An enum is as large as its largest
// payload, so one large struct made every message of the schema copy that
// many bytes several times on the way out of the decoder; measured with a
// 134-byte struct beside a 48-byte one, dispatching the small message took
// 1,427 instructions unboxed against 860 boxed (decoding it alone: 785).
// Below that size the copies are a few register moves, and a box's
// allocation would cost more.
const boxMessageOver = 128

// structLayoutSize estimates MemoryLayout<T>.size of a struct's Swift type,
// from the standard library's layouts on 64-bit platforms: String 16 bytes,
// Array 8, optionals of them free through spare bits, other optionals one
// tag byte, each field aligned to its size (up to 8). It only has to order
// sizes: it decides boxing, never correctness.
func structLayoutSize(d *plan.Decl) int { return layout{}.structSize(d) }

// layout holds the structs being measured: one met again inside itself is
// reached through a box, an array or an indirect union, so it counts 8 bytes.
type layout map[*plan.Decl]bool

func (l layout) structSize(d *plan.Decl) int {
	if l[d] {
		return 8
	}
	l[d] = true
	defer delete(l, d)
	return l.fields(d.Fields)
}

func (l layout) fields(fields []*plan.Field) int {
	n := 0
	for _, f := range fields {
		size := l.size(f.Value)
		align := 8
		if size < 8 {
			align = 1
			for align*2 <= size {
				align *= 2
			}
		}
		n = (n+align-1)/align*align + size
	}
	return n
}

func (l layout) size(v *plan.Value) int {
	switch {
	case v.Op == plan.String:
		return 16
	case v.Op.IsArray():
		return 8
	case v.Op == plan.Optional:
		if boxed(v) {
			return 8
		}
		if v.Elem.Op == plan.String || v.Elem.Op.IsArray() {
			return l.size(v.Elem)
		}
		return l.size(v.Elem) + 1
	case v.Op == plan.Struct:
		return l.structSize(v.Decl)
	case v.Op == plan.Union:
		if v.Decl.Union.Recursive {
			return 8
		}
		// A struct variant's one field is its struct, at offset 0.
		largest := 0
		for _, pv := range v.Decl.Variants {
			if n := l.fields(pv.Fields); n > largest {
				largest = n
			}
		}
		return largest + 1
	}
	// A scalar, or an enum's base.
	return v.Kind.Size()
}
