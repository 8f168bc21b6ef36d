package swift

import "sdp/schema"

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
func structLayoutSize(st *schema.Struct) int { return layout{}.structSize(st) }

// layout holds the structs being measured: one met again inside itself is
// reached through a box, an array or an indirect union, so it counts 8 bytes.
type layout map[*schema.Struct]bool

func (l layout) structSize(st *schema.Struct) int {
	if l[st] {
		return 8
	}
	l[st] = true
	defer delete(l, st)
	return l.fields(st.Fields)
}

func (l layout) fields(fields []*schema.Field) int {
	n := 0
	for _, f := range fields {
		size := l.size(f.Type)
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

func (l layout) size(t *schema.Type) int {
	switch t.Kind {
	case schema.String:
		return 16
	case schema.Array, schema.FixedArray:
		return 8
	case schema.EnumRef:
		return t.Enum.Base.Size()
	case schema.Optional:
		if boxed(t) {
			return 8
		}
		switch t.Elem.Kind {
		case schema.String, schema.Array, schema.FixedArray:
			return l.size(t.Elem)
		}
		return l.size(t.Elem) + 1
	case schema.StructRef:
		return l.structSize(t.Struct)
	case schema.UnionRef:
		if t.Union.Recursive {
			return 8
		}
		largest := 0
		for _, v := range t.Union.Variants {
			n := 0
			switch v.Kind {
			case schema.VariantStruct:
				n = l.structSize(v.Struct)
			case schema.VariantInline:
				n = l.fields(v.Fields)
			}
			if n > largest {
				largest = n
			}
		}
		return largest + 1
	}
	return t.Kind.Size()
}
