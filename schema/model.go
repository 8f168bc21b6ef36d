package schema

import (
	"fmt"
	"strings"
)

// Schema is a parsed, validated and resolved schema file: the only thing
// backends read. Every slice is in declaration order, so everything derived
// from a Schema is deterministic.
type Schema struct {
	// Name is the schema file's base name without its extension
	// ("plugins.sdp" → "plugins"); backends use it as the default package name.
	Name string
	// Path is the file the schema was read from, as given.
	Path string

	Decls   []Decl    // every named type, in declaration order
	Structs []*Struct // the structs, in declaration order
	Enums   []*Enum
	Unions  []*Union

	// Indexes filled by the checker, for lookups in constant time; they are
	// only read (never iterated), so nothing depends on map order.
	byName map[string]Decl
	byID   map[uint16]*Struct
}

// Lookup returns the declaration named name, or nil.
func (s *Schema) Lookup(name string) Decl {
	if s.byName != nil {
		return s.byName[name]
	}
	for _, d := range s.Decls {
		if d != nil && d.DeclName() == name {
			return d
		}
	}
	return nil
}

// Struct returns the struct named name, or nil.
func (s *Schema) Struct(name string) *Struct {
	st, _ := s.Lookup(name).(*Struct)
	return st
}

// StructByID returns the struct whose message type id is id, or nil.
func (s *Schema) StructByID(id uint16) *Struct {
	if s.byID != nil {
		return s.byID[id]
	}
	for _, st := range s.Structs {
		if st.ID == id {
			return st
		}
	}
	return nil
}

// Decl is a named type: *Struct, *Enum or *Union.
type Decl interface {
	DeclName() string
	DeclPos() Pos
	DeclDoc() []string
	decl()
}

// Struct is `struct Name { fields }`. On the wire: its fields in order, no header.
type Struct struct {
	Name   string
	Doc    []string // `///` comment lines, without the slashes and one leading space
	Pos    Pos
	Fields []*Field

	// ID is the message type id: explicit (`@id(N)`) or the struct's 1-based
	// position among the schema's structs.
	ID         uint16
	ExplicitID bool

	// Recursive reports that the struct can contain itself (through ?T or []T).
	Recursive bool

	minSize   int
	fixedSize int    // -1 when the encoded size varies
	nominal   uint64 // NominalSize, computed by the checker
}

// Field is one `name: Type` of a struct or of an inline union variant.
type Field struct {
	Name  string
	Doc   []string
	Pos   Pos
	Type  *Type
	Index int // position among its siblings
}

// Enum is `enum Name: u8 { A = 0, B }`. On the wire: its underlying integer.
type Enum struct {
	Name   string
	Doc    []string
	Pos    Pos
	Base   Kind // U8, U16 or U32
	Values []*EnumValue
}

// EnumValue is one named value of an enum.
type EnumValue struct {
	Name  string
	Doc   []string
	Pos   Pos
	Value uint32
}

// Value returns the enum value whose number is v, or nil.
func (e *Enum) Value(v uint32) *EnumValue {
	for _, ev := range e.Values {
		if ev.Value == v {
			return ev
		}
	}
	return nil
}

// Union is `union Name { A, B { x: u32 }, SomeStruct }`.
// On the wire: a u8 tag (the variant's index), then the variant's fields.
type Union struct {
	Name      string
	Doc       []string
	Pos       Pos
	Variants  []*Variant
	Recursive bool

	minSize   int
	fixedSize int
	nominal   uint64 // NominalSize, computed by the checker
}

// VariantKind says what a union variant carries.
type VariantKind int

const (
	// VariantUnit carries nothing: `A`.
	VariantUnit VariantKind = iota + 1
	// VariantInline carries its own fields: `B { x: u32 }`.
	VariantInline
	// VariantStruct carries a declared struct: a bare name that names a struct.
	VariantStruct
)

// Variant is one alternative of a union.
type Variant struct {
	Name   string
	Doc    []string
	Pos    Pos
	Tag    uint8 // index in declaration order, from 0
	Kind   VariantKind
	Fields []*Field // VariantInline only (may be empty)
	Struct *Struct  // VariantStruct only
}

func (s *Struct) DeclName() string  { return s.Name }
func (s *Struct) DeclPos() Pos      { return s.Pos }
func (s *Struct) DeclDoc() []string { return s.Doc }
func (*Struct) decl()               {}
func (e *Enum) DeclName() string    { return e.Name }
func (e *Enum) DeclPos() Pos        { return e.Pos }
func (e *Enum) DeclDoc() []string   { return e.Doc }
func (*Enum) decl()                 {}
func (u *Union) DeclName() string   { return u.Name }
func (u *Union) DeclPos() Pos       { return u.Pos }
func (u *Union) DeclDoc() []string  { return u.Doc }
func (*Union) decl()                {}

// MinSize is the fewest bytes any value of the struct encodes to.
func (s *Struct) MinSize() int { return s.minSize }

// FixedSize returns the encoded size when every value has the same size.
func (s *Struct) FixedSize() (int, bool) { return s.fixedSize, s.fixedSize >= 0 }

// MinSize is the fewest bytes any value of the union encodes to (tag included).
func (u *Union) MinSize() int { return u.minSize }

// FixedSize returns the encoded size when every value has the same size.
func (u *Union) FixedSize() (int, bool) { return u.fixedSize, u.fixedSize >= 0 }

// Kind is the shape of a Type.
type Kind int

// The kinds. Scalars come first, in the order of the schema language's docs.
const (
	Bool Kind = iota + 1
	U8
	U16
	U32
	U64
	I8
	I16
	I32
	I64
	F32
	F64
	String     // str: u32 byte length, then UTF-8
	Array      // []T: u32 count, then elements
	FixedArray // [N]T: N elements
	Optional   // ?T: u8 presence, then T
	StructRef
	EnumRef
	UnionRef
)

var kindNames = [...]string{
	Bool: "bool", U8: "u8", U16: "u16", U32: "u32", U64: "u64",
	I8: "i8", I16: "i16", I32: "i32", I64: "i64", F32: "f32", F64: "f64",
	String: "str", Array: "array", FixedArray: "fixed array", Optional: "optional",
	StructRef: "struct", EnumRef: "enum", UnionRef: "union",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// IsScalar reports bool, the integers and the floats.
func (k Kind) IsScalar() bool { return k >= Bool && k <= F64 }

// IsInteger reports u8..u64 and i8..i64.
func (k Kind) IsInteger() bool { return k >= U8 && k <= I64 }

// IsSigned reports i8..i64.
func (k Kind) IsSigned() bool { return k >= I8 && k <= I64 }

// IsFloat reports f32 and f64.
func (k Kind) IsFloat() bool { return k == F32 || k == F64 }

// Size is the encoded size of a scalar kind, 0 for other kinds.
func (k Kind) Size() int {
	switch k {
	case Bool, U8, I8:
		return 1
	case U16, I16:
		return 2
	case U32, I32, F32:
		return 4
	case U64, I64, F64:
		return 8
	}
	return 0
}

// Type is a field's type, resolved.
type Type struct {
	Kind   Kind
	Elem   *Type  // Array, FixedArray, Optional
	Len    uint32 // FixedArray
	Struct *Struct
	Enum   *Enum
	Union  *Union

	// Boxed is set on an Optional whose element leads back to the type that
	// holds it (`next: ?Node` inside Node). Languages that store values inline
	// must put such an element behind a pointer or box.
	Boxed bool

	Pos Pos // where the type was written
}

// Decl returns the named type a StructRef, EnumRef or UnionRef refers to.
func (t *Type) Decl() Decl {
	switch t.Kind {
	case StructRef:
		return t.Struct
	case EnumRef:
		return t.Enum
	case UnionRef:
		return t.Union
	}
	return nil
}

// IsNumeric reports the integer and float scalars (not bool): the element
// types whose arrays have the same layout in memory as on the wire on a
// little-endian machine, so they can be copied in bulk.
func (t *Type) IsNumeric() bool { return t.Kind.IsInteger() || t.Kind.IsFloat() }

// IsBytes reports []u8 (mapped to byte strings in most languages).
func (t *Type) IsBytes() bool { return t.Kind == Array && t.Elem.Kind == U8 }

// String writes the type in schema syntax: "[]u32", "?Plugin", "[4]f32".
func (t *Type) String() string {
	switch t.Kind {
	case Array:
		return "[]" + t.Elem.String()
	case FixedArray:
		return fmt.Sprintf("[%d]%s", t.Len, t.Elem.String())
	case Optional:
		return "?" + t.Elem.String()
	case StructRef, EnumRef, UnionRef:
		return t.Decl().DeclName()
	}
	return t.Kind.String()
}

// MinSize is the fewest bytes a value of the type encodes to. Decoders check
// `count * elem.MinSize() <= remaining` before allocating an array.
func (t *Type) MinSize() int {
	switch {
	case t.Kind.IsScalar():
		return t.Kind.Size()
	case t.Kind == String, t.Kind == Array:
		return 4
	case t.Kind == Optional:
		return 1
	case t.Kind == FixedArray:
		return int(t.Len) * t.Elem.MinSize()
	case t.Kind == StructRef:
		return t.Struct.minSize
	case t.Kind == EnumRef:
		return t.Enum.Base.Size()
	case t.Kind == UnionRef:
		return t.Union.minSize
	}
	panic("schema: MinSize of " + t.Kind.String())
}

// FixedSize returns the encoded size when every value of the type has the
// same size (scalars, enums, fixed arrays and structs of such).
func (t *Type) FixedSize() (int, bool) {
	switch {
	case t.Kind.IsScalar():
		return t.Kind.Size(), true
	case t.Kind == EnumRef:
		return t.Enum.Base.Size(), true
	case t.Kind == FixedArray:
		n, ok := t.Elem.FixedSize()
		return int(t.Len) * n, ok
	case t.Kind == StructRef:
		return t.Struct.FixedSize()
	case t.Kind == UnionRef:
		return t.Union.FixedSize()
	}
	return -1, false
}

// Pos is a position in a schema file. Line and Col count from 1; Col counts
// bytes.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// DocText joins doc lines with newlines.
func DocText(doc []string) string { return strings.Join(doc, "\n") }
