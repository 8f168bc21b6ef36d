package schema

import (
	"fmt"
	"sort"
	"strings"
)

// scalarNames maps the schema language's scalar type names to kinds.
var scalarNames = map[string]Kind{
	"bool": Bool, "u8": U8, "u16": U16, "u32": U32, "u64": U64,
	"i8": I8, "i16": I16, "i32": I32, "i64": I64, "f32": F32, "f64": F64,
	"str": String, "string": String,
}

// maxTypeSize bounds the fixed part of any type, so sizes fit in 32 bits on
// every target: every type's minimum size is below it.
const maxTypeSize = 1<<31 - 1

// NameKey is how names are compared for clashes: backends change case and
// drop underscores, so `fooBar` and `foo_bar` would collide in some language.
func NameKey(name string) string { return strings.ToLower(strings.ReplaceAll(name, "_", "")) }

type checker struct {
	errs *ErrorList
	s    *Schema
	// hints caches suggestType by name: a type deleted or renamed while
	// thousands of fields still use it costs one search, not one per use.
	hints map[string]string
}

func check(path string, f *astFile, errs *ErrorList) *Schema {
	s, _ := checkPartial(path, f, errs)
	if len(*errs) > 0 {
		return nil
	}
	finish(s)
	return s
}

// finish completes a valid model.
func finish(s *Schema) {
	// Nominal sizes are memoized here, once, so that later readers of the
	// model (backends generating in parallel) never write to it.
	for _, d := range s.Decls {
		switch d := d.(type) {
		case *Struct:
			d.NominalSize()
		case *Union:
			d.NominalSize()
		}
	}
}

// checkPartial checks f and returns the model as far as it got, even with
// errors (an unknown type is a u8 there), and whether sizes were computed
// (they are not when a type contains itself).
func checkPartial(path string, f *astFile, errs *ErrorList) (*Schema, bool) {
	c := &checker{errs: errs, s: &Schema{Name: baseName(path), Path: path, byName: map[string]Decl{}}}
	c.declare(f)
	for i, d := range f.decls {
		if i >= len(c.s.Decls) || c.s.Decls[i] == nil {
			continue
		}
		switch m := c.s.Decls[i].(type) {
		case *Struct:
			m.Fields = c.fields(d.fields, "struct "+m.Name)
		case *Enum:
			c.enum(d, m)
		case *Union:
			c.union(d, m)
		}
	}
	c.s.Decls = compact(c.s.Decls)
	// Unknown types were replaced by placeholders, so the checks below still
	// run and every problem is reported in one go.
	c.typeIDs(f)
	sized := c.recursion()
	if sized {
		c.sizes()
	}
	return c.s, sized
}

func compact(ds []Decl) []Decl {
	out := ds[:0]
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// declare creates an empty model node for every declaration so that types
// can refer to declarations that come later in the file.
func (c *checker) declare(f *astFile) {
	seen := map[string]ident{}
	for _, d := range f.decls {
		n := d.name
		var decl Decl
		if _, ok := scalarNames[n.name]; ok {
			c.errs.add(n.pos, fmt.Sprintf("%s name %q is a built-in type", d.kind, n.name), "choose another name")
		} else if prev, ok := seen[NameKey(n.name)]; ok {
			c.errs.add(n.pos, fmt.Sprintf("%q is already declared at %s", n.name, prev.pos), "type names must differ in more than case and underscores")
		} else {
			seen[NameKey(n.name)] = n
			switch d.kind {
			case declStruct:
				st := &Struct{Name: n.name, Doc: d.doc, Pos: n.pos}
				c.s.Structs = append(c.s.Structs, st)
				decl = st
			case declEnum:
				e := &Enum{Name: n.name, Doc: d.doc, Pos: n.pos}
				c.s.Enums = append(c.s.Enums, e)
				decl = e
			case declUnion:
				u := &Union{Name: n.name, Doc: d.doc, Pos: n.pos}
				c.s.Unions = append(c.s.Unions, u)
				decl = u
			}
			c.s.byName[n.name] = decl
		}
		c.s.Decls = append(c.s.Decls, decl) // nil keeps indexes aligned with f.decls
	}
}

func (c *checker) fields(in []*astField, owner string) []*Field {
	out := make([]*Field, 0, len(in))
	seen := map[string]ident{}
	for i, af := range in {
		if prev, ok := seen[NameKey(af.name.name)]; ok {
			c.errs.add(af.name.pos, fmt.Sprintf("duplicate field %q in %s (first declared at line %d)", af.name.name, owner, prev.pos.Line),
				"field names must differ in more than case and underscores")
		}
		seen[NameKey(af.name.name)] = af.name
		out = append(out, &Field{Name: af.name.name, Doc: af.doc, Pos: af.name.pos, Type: c.resolve(af.typ), Index: i})
	}
	return out
}

func (c *checker) resolve(t *astType) *Type {
	switch t.form {
	case formArray:
		return &Type{Kind: Array, Elem: c.resolve(t.elem), Pos: t.pos}
	case formOptional:
		return &Type{Kind: Optional, Elem: c.resolve(t.elem), Pos: t.pos}
	case formFixed:
		if t.n.val == 0 || t.n.val >= maxTypeSize {
			c.errs.add(t.n.pos, fmt.Sprintf("fixed array length %d is out of range", t.n.val), fmt.Sprintf("use 1 to %d, or []T for a variable length", maxTypeSize-1))
		}
		return &Type{Kind: FixedArray, Len: uint32(t.n.val), Elem: c.resolve(t.elem), Pos: t.pos}
	}
	if k, ok := scalarNames[t.name]; ok {
		return &Type{Kind: k, Pos: t.pos}
	}
	switch d := c.s.Lookup(t.name).(type) {
	case *Struct:
		return &Type{Kind: StructRef, Struct: d, Pos: t.pos}
	case *Enum:
		return &Type{Kind: EnumRef, Enum: d, Pos: t.pos}
	case *Union:
		return &Type{Kind: UnionRef, Union: d, Pos: t.pos}
	}
	hint, ok := c.hints[t.name]
	if !ok {
		hint = c.suggestType(t.name)
		if c.hints == nil {
			c.hints = map[string]string{}
		}
		c.hints[t.name] = hint
	}
	c.errs.add(t.pos, fmt.Sprintf("unknown type %q", t.name), hint)
	return &Type{Kind: U8, Pos: t.pos} // placeholder so checking goes on; the error stops the build
}

// otherScalars are the scalar names of other languages and IDLs, with ours.
var otherScalars = map[string]string{
	"int": "i32", "int32": "i32", "sint32": "i32", "sfixed32": "i32", "long": "i64", "int64": "i64", "sint64": "i64", "sfixed64": "i64",
	"uint": "u32", "uint32": "u32", "fixed32": "u32", "uint64": "u64", "fixed64": "u64", "ulong": "u64",
	"short": "i16", "int16": "i16", "ushort": "u16", "uint16": "u16", "byte": "u8", "uint8": "u8", "ubyte": "u8", "int8": "i8", "sbyte": "i8",
	"float": "f32", "float32": "f32", "double": "f64", "float64": "f64", "boolean": "bool", "char": "u8",
}

func (c *checker) suggestType(name string) string {
	var names []string
	for n := range scalarNames {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, d := range c.s.Decls {
		if d != nil {
			names = append(names, d.DeclName())
		}
	}
	if s, ok := otherScalars[strings.ToLower(name)]; ok {
		return fmt.Sprintf("did you mean %s? scalars are bool, u8..u64, i8..i64, f32, f64 and str", s)
	}
	if strings.ToLower(name) == "bytes" {
		return "use []u8"
	}
	if best := closest(name, names); best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return ""
}

func (c *checker) enum(d *astDecl, e *Enum) {
	e.Base = U8
	if d.base != nil {
		switch k := scalarNames[d.base.name]; k {
		case U8, U16, U32:
			e.Base = k
		default:
			c.errs.add(d.base.pos, fmt.Sprintf("enum %s has underlying type %q", e.Name, d.base.name), "an enum's underlying type is u8, u16 or u32")
		}
	}
	if len(d.values) == 0 && !d.broken {
		c.errs.add(d.name.pos, fmt.Sprintf("enum %s has no values", e.Name), "add at least one value")
	}
	max := uint64(1)<<(8*e.Base.Size()) - 1
	names := map[string]ident{}
	values := map[uint64]string{}
	next := uint64(0)
	for _, av := range d.values {
		v := next
		pos := av.name.pos
		if av.value != nil {
			v, pos = av.value.val, av.value.pos
		}
		if prev, ok := names[NameKey(av.name.name)]; ok {
			c.errs.add(av.name.pos, fmt.Sprintf("duplicate value name %q in enum %s (first at line %d)", av.name.name, e.Name, prev.pos.Line), "")
		}
		names[NameKey(av.name.name)] = av.name
		switch {
		case v > max:
			hint := fmt.Sprintf("the largest %s is %d", e.Base, max)
			if e.Base != U32 {
				hint += "; declare a wider underlying type, e.g. `enum " + e.Name + ": u32`"
			}
			c.errs.add(pos, fmt.Sprintf("enum value %s = %d does not fit in %s", av.name.name, v, e.Base), hint)
		case values[v] != "":
			c.errs.add(pos, fmt.Sprintf("enum value %s = %d repeats the value of %s", av.name.name, v, values[v]), "each value needs its own number")
		default:
			values[v] = av.name.name
		}
		e.Values = append(e.Values, &EnumValue{Name: av.name.name, Doc: av.doc, Pos: av.name.pos, Value: uint32(v)})
		next = v + 1
	}
}

func (c *checker) union(d *astDecl, u *Union) {
	if len(d.variants) == 0 && !d.broken {
		c.errs.add(d.name.pos, fmt.Sprintf("union %s has no variants", u.Name), "add at least one variant")
	}
	if len(d.variants) > 256 {
		c.errs.add(d.variants[256].name.pos, fmt.Sprintf("union %s has %d variants", u.Name, len(d.variants)), "a union has at most 256 variants (the tag is a u8)")
	}
	seen := map[string]ident{}
	for i, av := range d.variants {
		if prev, ok := seen[NameKey(av.name.name)]; ok {
			c.errs.add(av.name.pos, fmt.Sprintf("duplicate variant %q in union %s (first at line %d)", av.name.name, u.Name, prev.pos.Line), "")
		}
		seen[NameKey(av.name.name)] = av.name
		v := &Variant{Name: av.name.name, Doc: av.doc, Pos: av.name.pos, Tag: uint8(i)}
		switch {
		case av.hasBody:
			v.Kind = VariantInline
			v.Fields = c.fields(av.fields, "variant "+u.Name+"."+v.Name)
		case c.s.Struct(av.name.name) != nil:
			v.Kind = VariantStruct
			v.Struct = c.s.Struct(av.name.name)
		default:
			if d := c.s.Lookup(av.name.name); d != nil {
				c.errs.add(av.name.pos, fmt.Sprintf("variant %s names %s, which is not a struct", av.name.name, d.DeclName()),
					"a variant may carry a struct; wrap the value in one: `"+av.name.name+" { value: "+d.DeclName()+" }`")
			}
			v.Kind = VariantUnit
		}
		u.Variants = append(u.Variants, v)
	}
}

func (c *checker) typeIDs(f *astFile) {
	byID := map[uint16]*Struct{}
	for i, st := range c.s.Structs {
		st.ID = uint16(i + 1)
		if i+1 > 0xFFFF {
			c.errs.add(st.Pos, "more than 65535 structs: message type ids are u16", "")
		}
	}
	for _, d := range f.decls {
		if d.id == nil || d.kind != declStruct {
			continue
		}
		st := c.s.Struct(d.name.name)
		if st == nil {
			continue // the name was rejected by declare: built-in or already taken
		}
		if d.id.val == 0 || d.id.val > 0xFFFF {
			c.errs.add(d.id.pos, fmt.Sprintf("message type id %d is out of range", d.id.val), "ids are 1 to 65535")
			continue
		}
		st.ID, st.ExplicitID = uint16(d.id.val), true
	}
	used := map[uint16]bool{}
	for _, st := range c.s.Structs {
		used[st.ID] = true
	}
	free := uint16(1)
	for used[free] && free < 0xFFFF {
		free++
	}
	for _, st := range c.s.Structs {
		if prev, ok := byID[st.ID]; ok {
			hint := fmt.Sprintf("give one of them another id, e.g. @id(%d), the lowest free one", free)
			if !st.ExplicitID || !prev.ExplicitID {
				hint = "structs without @id take their 1-based position among the structs, for SDP 0.2 compatibility; " + hint
			}
			c.errs.add(st.Pos, fmt.Sprintf("struct %s has message type id %d, like %s", st.Name, st.ID, prev.Name), hint)
		}
		byID[st.ID] = st
	}
	c.s.byID = byID
}
