// Package plan is the codec plan: what every backend prints. It is computed
// once from the resolved model (schema.Schema) and says, for each declared
// type, the ordered steps that encode, size, decode, check and view a value
// of it: which fields form a fixed-layout run read with one bounds check,
// which arrays are copied in bulk, which elements are charged to the memory
// total, where the error path gains a segment, and which rule each step can
// report. A backend turns these steps into its language (one printer
// function per Op, plus one mapping of types to names) and decides nothing
// about the wire itself, so every language reads and writes the same way by
// construction. docs/new-backend.md says what to print for each step.
//
// Everything in a Plan is in declaration order, and nothing here iterates a
// map, so printing a Plan is deterministic.
package plan

import (
	"sdp/gen"
	"sdp/schema"
)

// Op is what a Value's step does on the wire.
type Op int

// The ops. Each names its wire shape; see the fields of Value for the data
// each one carries.
const (
	// Scalar is one bool, integer or float of Value.Kind, little-endian.
	// Decoding a bool checks that its byte is 0 or 1 (RuleBool).
	Scalar Op = iota + 1
	// Enum is an enum's underlying integer (Value.Kind, the enum's base);
	// decoding checks that it names a value (RuleEnum), encoding refuses a
	// number the enum does not declare.
	Enum
	// String is a u32 byte length, then that many bytes of UTF-8 (RuleUTF8,
	// RuleCount when the length exceeds what remains).
	String
	// Bytes is a []u8: a u32 count, then the bytes, one copy both ways.
	Bytes
	// Numbers is a []T of a numeric kind other than u8 (Value.Kind): a u32
	// count, then the elements, copied in bulk on a little-endian host.
	Numbers
	// PlainArray is a []S of a plain struct (Value.Plain): a u32 count, then
	// the elements, whose memory is their encoding, copied in bulk.
	PlainArray
	// Array is any other []T: a u32 count, checked against what remains
	// (Count × Value.MinElem ≤ remaining, else RuleCount) and charged
	// (Value.Charge per element, RuleMemory) before any storage is made,
	// then the elements (Value.Elem) one by one, each adding an index to
	// the error path.
	Array
	// FixedBytes is a [N]u8: N bytes.
	FixedBytes
	// FixedNumbers is a [N]T of a numeric kind other than u8: N elements,
	// copied in bulk on a little-endian host.
	FixedNumbers
	// FixedPlain is a [N]S of a plain struct: N elements copied in bulk.
	FixedPlain
	// FixedArray is any other [N]T: N elements (Value.Elem) one by one,
	// each adding an index to the error path.
	FixedArray
	// Optional is a u8 presence byte (0 or 1, else RulePresence), then the
	// value (Value.Elem) when it is 1. A present value of a Boxed optional
	// is stored behind a pointer and charged Value.Charge (RuleMemory).
	Optional
	// Struct is a declared struct (Value.Decl), coded by its own function.
	Struct
	// Union is a declared union (Value.Decl): a u8 tag, then the variant's
	// fields; coded by its own function.
	Union
)

var opNames = [...]string{
	Scalar: "scalar", Enum: "enum", String: "string", Bytes: "bytes", Numbers: "numbers",
	PlainArray: "plain-array", Array: "array", FixedBytes: "fixed-bytes",
	FixedNumbers: "fixed-numbers", FixedPlain: "fixed-plain", FixedArray: "fixed-array",
	Optional: "optional", Struct: "struct", Union: "union",
}

func (o Op) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(?)"
}

// Rule is a rule of docs/wire-format.md that a decoder reports by name.
type Rule string

// The rules a step reports, named as docs/wire-format.md and every
// language's DecodeError name them (codec.Rules lists them all).
const (
	RuleTruncated Rule = "truncated" // the input ends inside a value
	RuleBool      Rule = "bool"      // a bool byte other than 0 or 1
	RuleEnum      Rule = "enum"      // a number that names no enum value
	RuleUnionTag  Rule = "union_tag" // a tag that names no variant
	RulePresence  Rule = "presence"  // a presence byte other than 0 or 1
	RuleUTF8      Rule = "utf8"      // a string that is not UTF-8
	RuleCount     Rule = "count"     // a count or length larger than the input can hold
	RuleMemory    Rule = "memory"    // the decoded value would exceed the memory limit
	RuleDepth     Rule = "depth"     // nesting deeper than the depth limit
	RuleTrailing  Rule = "trailing"  // bytes after the value
)

// Plan is the codec plan of one schema.
type Plan struct {
	Schema *schema.Schema
	// Decls holds every declaration's plan, in declaration order.
	Decls []*Decl
	// Charges reports whether any array or optional of the schema is
	// charged to the memory total, i.e. whether decoders keep that total.
	Charges bool

	byDecl map[schema.Decl]*Decl // lookups only; never iterated
}

// Decl is the plan of one declared type.
type Decl struct {
	Decl schema.Decl
	// Exactly one of Struct, Enum and Union is set.
	Struct *schema.Struct
	Enum   *schema.Enum
	Union  *schema.Union

	// Fields are a struct's fields, and Steps group them: runs of
	// fixed-layout fields and lone fields, in order.
	Fields []*Field
	Steps  []Step
	// Variants are a union's variants, by tag.
	Variants []*Variant

	// Fixed is the encoded size when every value has it, else -1; Min is
	// the fewest bytes a value encodes to.
	Fixed, Min int
	// Plain is set for a plain struct (gen.Plain): its memory is its
	// encoding on a little-endian host.
	Plain *gen.PlainLayout
	// Flat reports a struct whose fields are all of fixed layout or
	// strings, with at least one string: its encoder can reserve the whole
	// size once and write every field at its offset.
	Flat bool
	// Tail is set when the struct's encoding is a fixed-size head followed
	// by one array copied in bulk (see BulkTail).
	Tail *BulkTail
	// Ref is the value a field of this type holds (Op Struct, Enum or
	// Union): what a printer codes when it codes the declaration on its own,
	// at the top level or in a helper no field refers to.
	Ref *Value
}

// Name is the declaration's schema name.
func (d *Decl) Name() string { return d.Decl.DeclName() }

// Variant is the plan of one union variant.
type Variant struct {
	Variant *schema.Variant
	Tag     uint8
	// Name is the error-path segment of the variant: its schema name.
	Name string
	// Fields are what the variant carries after its tag: an inline
	// variant's fields, or for a struct variant one unnamed field holding
	// the struct (the struct has no path segment of its own: an error path
	// goes from the variant straight to the struct's fields). A unit
	// variant has none.
	Fields []*Field
	Steps  []Step
	// Carries is, for a struct variant, its one field (the struct it
	// carries, with no path segment); nil for a unit or inline variant.
	Carries *Field
	// Fixed is the variant's encoded size, tag included, or -1.
	Fixed int
}

// Field is one field in a plan.
type Field struct {
	// Field is the schema field; nil for the struct a struct variant
	// carries.
	Field *schema.Field
	// Name is the field's error-path segment, "" when it adds none.
	Name string
	// Value is how the field's value is coded.
	Value *Value
	// Offset is the field's byte offset from the start of its struct (or
	// variant, after the tag) while every field before it has a fixed size,
	// else -1.
	Offset int
}

// Value is how one value of a type is coded: the node of a type expression
// in the plan. Arrays and optionals hold their element's Value.
type Value struct {
	Op   Op
	Type *schema.Type
	// Kind is the scalar kind of Scalar, the base of Enum, the element kind
	// of Numbers and FixedNumbers, and U8 for Bytes and FixedBytes.
	Kind schema.Kind
	// Elem is the element of an array or the value of an optional.
	Elem *Value
	// Len is a fixed array's length.
	Len uint32
	// MinElem is the fewest bytes an element of a counted array takes: a
	// count larger than the bytes left divided by it is refused before
	// storage is made (RuleCount).
	MinElem int
	// Charge is what each element of an Array, or a present Boxed
	// Optional, adds to the memory total (0: not charged).
	Charge uint64
	// Boxed marks an Optional whose value is stored behind a pointer
	// because it leads back to the type that holds it.
	Boxed bool
	// Plain is the element layout of PlainArray and FixedPlain, and the
	// layout of a plain Struct.
	Plain *gen.PlainLayout
	// Decl is the declaration of Enum, Struct and Union.
	Decl *Decl
	// Fixed is the encoded size when every value has it, else -1; Min is
	// the fewest bytes a value takes.
	Fixed, Min int
}

// Step is a group of fields coded together: a run of fixed-layout fields
// (Run set) or one field on its own (Run nil, one Field).
type Step struct {
	Fields []*Field
	Run    *Run
}

// Run is a sequence of consecutive fields whose bytes have a fixed layout:
// scalars, enums and structs made only of those. A decoder checks the
// run's whole size, its bools, enums and nesting depth at once and then
// reads every leaf at a constant offset; an encoder reserves Size bytes
// once and writes every leaf at its offset. When the quick check fails, a
// decoder reads the run's fields one by one, which finds the exact error.
type Run struct {
	Size int
	// Depth is the nesting the run's nested structs add below the value
	// that holds the run (0 when it has none).
	Depth  int
	Leaves []Leaf
}

// Leaf is one scalar or enum of a run.
type Leaf struct {
	// Path is the fields from the run's field down to the leaf (more than
	// one when the leaf is inside a nested struct).
	Path []*schema.Field
	// Owner is the struct that declares the last field of Path when the
	// leaf is inside a nested struct, else nil.
	Owner *schema.Struct
	// Value is a Scalar or an Enum.
	Value *Value
	// Offset is the leaf's byte offset from the start of the run.
	Offset int
}

// BulkTail describes a struct whose encoding is a fixed-size head and then
// its last field, an array copied in one piece (bytes, numbers or plain
// structs): an encoder can write the head and append the array, letting
// the append allocate without clearing.
type BulkTail struct {
	// Head is the size of everything before the array's elements, its
	// count included.
	Head int
	// Field is the array; Elem is one element's size.
	Field *Field
	Elem  int
}

// Of returns the plan of declaration d.
func (p *Plan) Of(d schema.Decl) *Decl { return p.byDecl[d] }

// Build computes the plan of a resolved schema.
func Build(s *schema.Schema) *Plan {
	p := &Plan{Schema: s, byDecl: map[schema.Decl]*Decl{}}
	// Every Decl exists before any Value refers to one (recursion).
	for _, d := range s.Decls {
		pd := &Decl{Decl: d}
		switch d := d.(type) {
		case *schema.Struct:
			pd.Struct = d
		case *schema.Enum:
			pd.Enum = d
		case *schema.Union:
			pd.Union = d
		}
		p.Decls = append(p.Decls, pd)
		p.byDecl[d] = pd
	}
	for _, pd := range p.Decls {
		pd.Ref = p.value(declType(pd.Decl))
	}
	for _, pd := range p.Decls {
		switch {
		case pd.Struct != nil:
			p.buildStruct(pd)
		case pd.Enum != nil:
			pd.Fixed, pd.Min = pd.Enum.Base.Size(), pd.Enum.Base.Size()
		case pd.Union != nil:
			p.buildUnion(pd)
		}
	}
	// Runs look into the fields of the structs a field refers to, so they
	// are grouped once every declaration has its fields.
	for _, pd := range p.Decls {
		pd.Steps = runs(pd.Fields)
		pd.Flat = flat(pd.Fields)
		pd.Tail = bulkTail(pd.Fields)
		for _, v := range pd.Variants {
			v.Steps = runs(v.Fields)
		}
	}
	p.Charges = s.HasMemoryCharges()
	return p
}

func (p *Plan) buildStruct(pd *Decl) {
	st := pd.Struct
	pd.Fixed, _ = st.FixedSize()
	pd.Min = st.MinSize()
	if l, ok := gen.PlainStruct(st); ok {
		pd.Plain = &l
	}
	pd.Fields = p.fields(st.Fields)
}

func (p *Plan) buildUnion(pd *Decl) {
	u := pd.Union
	pd.Fixed, _ = u.FixedSize()
	pd.Min = u.MinSize()
	for _, v := range u.Variants {
		pv := &Variant{Variant: v, Tag: v.Tag, Name: v.Name}
		switch v.Kind {
		case schema.VariantInline:
			pv.Fields = p.fields(v.Fields)
		case schema.VariantStruct:
			pv.Carries = &Field{Value: p.value(declType(v.Struct)), Offset: 0}
			pv.Fields = []*Field{pv.Carries}
		}
		pv.Fixed = 1
		for _, f := range pv.Fields {
			if f.Value.Fixed < 0 {
				pv.Fixed = -1
				break
			}
			pv.Fixed += f.Value.Fixed
		}
		pd.Variants = append(pd.Variants, pv)
	}
}

// declType is the type of a field that holds a value of d.
func declType(d schema.Decl) *schema.Type {
	switch d := d.(type) {
	case *schema.Struct:
		return &schema.Type{Kind: schema.StructRef, Struct: d}
	case *schema.Enum:
		return &schema.Type{Kind: schema.EnumRef, Enum: d}
	case *schema.Union:
		return &schema.Type{Kind: schema.UnionRef, Union: d}
	}
	panic("plan: a declaration of another kind")
}

// fields plans a struct's or an inline variant's fields.
func (p *Plan) fields(fs []*schema.Field) []*Field {
	var out []*Field
	off := 0
	for _, f := range fs {
		pf := &Field{Field: f, Name: f.Name, Value: p.value(f.Type), Offset: off}
		out = append(out, pf)
		if off >= 0 && pf.Value.Fixed >= 0 {
			off += pf.Value.Fixed
		} else {
			off = -1
		}
	}
	return out
}

// value plans one type expression, recursing on its element.
func (p *Plan) value(t *schema.Type) *Value {
	v := &Value{Type: t, Min: t.MinSize(), Fixed: -1}
	if n, ok := t.FixedSize(); ok {
		v.Fixed = n
	}
	switch {
	case t.Kind.IsScalar():
		v.Op, v.Kind = Scalar, t.Kind
	case t.Kind == schema.EnumRef:
		v.Op, v.Kind, v.Decl = Enum, t.Enum.Base, p.byDecl[t.Enum]
	case t.Kind == schema.String:
		v.Op = String
	case t.Kind == schema.StructRef:
		v.Op, v.Decl = Struct, p.byDecl[t.Struct]
		if l, ok := gen.Plain(t); ok {
			v.Plain = &l
		}
	case t.Kind == schema.UnionRef:
		v.Op, v.Decl = Union, p.byDecl[t.Union]
	case t.Kind == schema.Optional:
		v.Op, v.Elem, v.Boxed, v.Charge = Optional, p.value(t.Elem), t.Boxed, t.PresenceCharge()
	case t.Kind == schema.Array || t.Kind == schema.FixedArray:
		p.array(v, t)
	default:
		panic("plan: a type of kind " + t.Kind.String())
	}
	return v
}

// array decides how an array is coded: bytes, numbers and plain structs
// in bulk, anything else element by element.
func (p *Plan) array(v *Value, t *schema.Type) {
	counted := t.Kind == schema.Array
	v.Elem, v.Len = p.value(t.Elem), t.Len
	if counted {
		v.MinElem, v.Charge = t.Elem.MinSize(), t.ArrayCharge()
	}
	l, plain := gen.PlainArray(t)
	switch {
	case t.Elem.Kind == schema.U8:
		v.Op, v.Kind = pick(counted, Bytes, FixedBytes), schema.U8
	case t.Elem.IsNumeric():
		v.Op, v.Kind = pick(counted, Numbers, FixedNumbers), t.Elem.Kind
	case plain:
		v.Op, v.Plain = pick(counted, PlainArray, FixedPlain), &l
	default:
		v.Op = pick(counted, Array, FixedArray)
	}
}

func pick(counted bool, a, b Op) Op {
	if counted {
		return a
	}
	return b
}

// IsArray reports the ops of arrays, counted or of fixed length, copied in
// bulk or element by element.
func (o Op) IsArray() bool { return o.Counted() || o.FixedLength() }

// FixedLength reports the ops of fixed-length arrays ([N]T).
func (o Op) FixedLength() bool {
	switch o {
	case FixedBytes, FixedNumbers, FixedPlain, FixedArray:
		return true
	}
	return false
}

// Counted reports the ops that start with a u32 count.
func (o Op) Counted() bool {
	switch o {
	case Bytes, Numbers, PlainArray, Array:
		return true
	}
	return false
}

// Rules lists the rules a decoder of v can report for v itself (not those
// of the declarations it refers to), in a fixed order.
func (v *Value) Rules() []Rule {
	out := []Rule{RuleTruncated}
	switch v.Op {
	case Scalar:
		if v.Kind == schema.Bool {
			out = append(out, RuleBool)
		}
	case Enum:
		out = append(out, RuleEnum)
	case String:
		out = append(out, RuleCount, RuleUTF8)
	case Bytes, Numbers:
		out = append(out, RuleCount)
	case PlainArray:
		out = append(out, RuleCount, RuleDepth)
	case FixedPlain:
		out = append(out, RuleDepth)
	case Array:
		out = append(out, RuleCount)
		if v.Charge > 0 {
			out = append(out, RuleMemory)
		}
	case Optional:
		out = append(out, RulePresence)
		if v.Charge > 0 {
			out = append(out, RuleMemory)
		}
	case Struct, Union:
		out = append(out, RuleDepth)
		if v.Op == Union {
			out = append(out, RuleUnionTag)
		}
	}
	return out
}
