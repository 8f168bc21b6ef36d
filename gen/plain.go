package gen

import "sdp/schema"

// Plain structs (issue #15) hold only fixed-size numbers (no bool, no enum,
// no array), directly or in nested plain structs, at offsets where natural
// alignment puts no padding: every number at a multiple of its size, every
// nested struct non-empty and starting and ending at a multiple of its
// largest number. A C struct, a Go struct, a Rust #[repr(C)] struct and a
// Swift struct of such fields is then laid out exactly as its wire encoding
// on a little-endian host, so arrays of it are encoded and decoded with one
// copy there. Each backend still asserts the layout when its code is
// compiled (and keeps the element-by-element code for other hosts).

// PlainLayout describes a plain struct.
type PlainLayout struct {
	// Size is the wire size of one value, equal to its size in memory.
	Size int
	// Depth is the nesting one value takes: 1 plus that of its deepest
	// nested struct. A decoder copying values in bulk checks the depth limit
	// for all of them at once.
	Depth int
	// Fields lists the numbers of one value in wire order, with their
	// offsets, for the backends' layout assertions.
	Fields []PlainField
}

// PlainField is one number of a plain struct.
type PlainField struct {
	// Path is the fields from the outer struct down, for example v0, x;
	// Owners[i] is the struct that declares Path[i].
	Path   []*schema.Field
	Owners []*schema.Struct
	// Kind is the number's type.
	Kind schema.Kind
	// Offset is where it starts, in the wire encoding and in memory.
	Offset int
}

// Plain reports whether t names a plain struct, and its layout.
func Plain(t *schema.Type) (PlainLayout, bool) {
	if t.Kind != schema.StructRef {
		return PlainLayout{}, false
	}
	var l PlainLayout
	depth, ok := l.add(t.Struct, nil, nil, 0)
	if !ok {
		return PlainLayout{}, false
	}
	l.Size, l.Depth = t.Struct.MinSize(), depth
	return l, true
}

// PlainStruct is Plain of the struct st.
func PlainStruct(st *schema.Struct) (PlainLayout, bool) {
	return Plain(&schema.Type{Kind: schema.StructRef, Struct: st})
}

// PlainArray reports whether t is a []T or [N]T of a plain struct whose
// elements are not charged to the memory total (plain structs never are:
// their memory is their encoding), with the element's layout: the arrays
// the backends copy in one piece.
func PlainArray(t *schema.Type) (PlainLayout, bool) {
	if t.Kind != schema.Array && t.Kind != schema.FixedArray {
		return PlainLayout{}, false
	}
	l, ok := Plain(t.Elem)
	return l, ok && t.ArrayCharge() == 0
}

// add appends the numbers of st, which starts at off, and returns the
// nesting st takes.
func (l *PlainLayout) add(st *schema.Struct, path []*schema.Field, owners []*schema.Struct, off int) (int, bool) {
	align := plainAlign(st)
	if len(st.Fields) == 0 || off%align != 0 || st.MinSize()%align != 0 {
		return 0, false
	}
	depth := 0
	for _, f := range st.Fields {
		p := append(append([]*schema.Field(nil), path...), f)
		o := append(append([]*schema.Struct(nil), owners...), st)
		k := f.Type.Kind
		switch {
		case k == schema.StructRef:
			d, ok := l.add(f.Type.Struct, p, o, off)
			if !ok {
				return 0, false
			}
			if d > depth {
				depth = d
			}
		case k.IsScalar() && k != schema.Bool && off%k.Size() == 0:
			l.Fields = append(l.Fields, PlainField{Path: p, Owners: o, Kind: k, Offset: off})
		default:
			return 0, false
		}
		off += f.Type.MinSize()
	}
	return depth + 1, true
}

// plainAlign is the largest number's size in st, recursively.
func plainAlign(st *schema.Struct) int {
	a := 1
	for _, f := range st.Fields {
		s := f.Type.MinSize()
		if f.Type.Kind == schema.StructRef {
			s = plainAlign(f.Type.Struct)
		}
		if s > a {
			a = s
		}
	}
	return a
}
