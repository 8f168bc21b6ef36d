// Package cpp is the C++17 backend: `sdp gen --lang cpp` writes NAME.hpp
// (types, views, declarations and the inline runtime), NAME.cpp (encoders,
// decoders, views, messages) and a CMakeLists.txt building them as a library.
// The generated code uses only the standard library and never throws.
package cpp

import (
	_ "embed"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("cpp", Generate) }

//go:embed runtime/runtime.hpp.in
var runtimeHeader string

//go:embed runtime/runtime.cpp.in
var runtimeSource string

// Generate is the C++ backend's gen.Generator.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g, err := newGenerator(s, opt)
	if err != nil {
		return nil, err
	}
	return []gen.File{
		{Path: g.file + ".hpp", Content: g.header()},
		{Path: g.file + ".cpp", Content: g.source()},
		{Path: "CMakeLists.txt", Content: g.cmake()},
	}, nil
}

// generator holds what every emitting function needs for one schema.
type generator struct {
	s     *schema.Schema
	plan  *plan.Plan // what the encoders, decoders and views print
	ns    []string   // namespace components
	nsq   string     // fully qualified namespace: "::a::b"
	file  string     // base name of the generated files
	names map[schema.Decl]string
	order []schema.Decl // structs and unions, each after the types it stores inline
	// checks memoizes declValidates.
	checks map[*plan.Decl]bool
	rd     map[string]*plan.Value
	rdList []string // element readers for list and lazy views, in first-use order
}

func newGenerator(s *schema.Schema, opt gen.Options) (*generator, error) {
	pkg := opt.PackageName(s)
	var ns []string
	for _, part := range strings.FieldsFunc(pkg, func(r rune) bool { return r == ':' || r == '.' || r == '/' }) {
		ns = append(ns, sanitize(part))
	}
	if len(ns) == 0 {
		return nil, fmt.Errorf("cpp: package name %q has no identifier characters", pkg)
	}
	g := &generator{
		s:     s,
		plan:  plan.Build(s),
		ns:    ns,
		nsq:   "::" + strings.Join(ns, "::"),
		file:  strings.Join(ns, "_"),
		names: map[schema.Decl]string{},
		rd:    map[string]*plan.Value{},
	}
	g.assignNames()
	g.order = orderDecls(g.plan)
	return g, nil
}

// sanitize turns any string into an identifier that is not a keyword.
func sanitize(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return escape(b.String())
}

// escape appends an underscore to names that C++ reserves or that the
// standard headers define as macros.
func escape(name string) string {
	if cppReserved[name] || implReserved(name) {
		return name + "_"
	}
	return name
}

// implReserved reports names reserved to the implementation: starting with
// an underscore and an upper-case letter or a second underscore, or holding
// "__" (compiler keywords such as _Complex and __int128, operators such as
// _Pragma, and predefined macros are spelled so). A trailing underscore
// makes them names no implementation defines.
func implReserved(name string) bool {
	if strings.Contains(name, "__") {
		return true
	}
	return len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'
}

// tmpPrefixes are the prefixes of the numbered temporaries (scope.tmp):
// "i1", "n12".
var tmpPrefixes = []string{"e", "f", "has", "i", "n", "o", "s", "v"}

// reservedType reports names a schema type may not take in C++: reserved
// words and macros, the runtime's names, the generated functions' locals,
// and names with the prefix of the generated functions and macros
// (sdp_size, sdp_rd_u32, SDP_INLINE) unless they end in "_", as none of
// those does: so the trailing underscore escapes sdp_size too.
func reservedType(n string) bool {
	if cppReserved[n] || runtimeNames[n] || localNames[n] || (reservedNames.HasPrefix(n) && !strings.HasSuffix(n, "_")) {
		return true
	}
	for _, pre := range tmpPrefixes {
		if rest := strings.TrimPrefix(n, pre); rest != n && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// assignNames picks each declaration's C++ name: the schema's name, or with
// underscores appended when it is reserved (reservedType), clashes with
// another type's name or view ("NView"). Names that need no change keep
// them; the others take the first free spelling, in declaration order.
func (g *generator) assignNames() {
	used := map[string]bool{}
	for _, d := range g.s.Decls {
		if n := d.DeclName(); !reservedType(n) && !implReserved(n) {
			g.names[d] = n
			used[n] = true
		}
	}
	for _, d := range g.s.Decls {
		if _, ok := g.names[d]; ok {
			continue
		}
		n := d.DeclName() + "_"
		for reservedType(n) || used[n] {
			n += "_"
		}
		g.names[d] = n
		used[n] = true
	}
	for changed := true; changed; {
		changed = false
		views := map[string]bool{}
		for _, d := range g.s.Decls {
			if _, isEnum := d.(*schema.Enum); !isEnum {
				views[g.names[d]+"View"] = true
			}
		}
		for _, d := range g.s.Decls {
			if n := g.names[d]; views[n] {
				for views[n] || used[n] || reservedType(n) {
					n += "_"
				}
				g.names[d] = n
				used[n] = true
				changed = true
			}
		}
	}
}

func (g *generator) name(d schema.Decl) string { return g.names[d] }

func (g *generator) viewName(d schema.Decl) string { return g.names[d] + "View" }

// fieldName is a field's C++ name: the schema's, escaped, and never the name
// of the class that holds it (C++ forbids that) or of its static members.
func fieldName(f *schema.Field, owner string) string {
	n := escape(f.Name)
	for n == owner || n == owner+"View" || memberNames[n] {
		n += "_"
	}
	return n
}

// aliases are the type aliases the header declares in the schema's
// namespace before the enums, unless a schema type takes the name.
var aliases = []string{"Status", "ErrorCode", "DecodeOptions"}

// enumValueName is an enum value's C++ name: the schema's, escaped, and never
// the name of an alias the header declares (an enumerator would shadow it).
func (g *generator) enumValueName(v *schema.EnumValue) string {
	n := escape(v.Name)
	for _, a := range aliases {
		if n == a && !g.hasDecl(a) {
			n += "_"
		}
	}
	return n
}

// variantName is the name of a union variant's nested type.
func variantName(v *schema.Variant, owner string) string {
	n := escape(v.Name)
	for n == owner || n == owner+"View" || n == "value" || n == "kFingerprint" || n == "to_owned" {
		n += "_"
	}
	return n
}

// orderDecls returns the structs and unions so that each comes after every
// type it stores by value (fields, fixed arrays, plain optionals, struct
// variants). Arrays and boxed optionals may refer to later types.
func orderDecls(pl *plan.Plan) []schema.Decl {
	var out []schema.Decl
	done := map[*plan.Decl]bool{}
	var visit func(d *plan.Decl)
	var deps func(v *plan.Value)
	deps = func(v *plan.Value) {
		switch v.Op {
		case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
			deps(v.Elem)
		case plan.Optional:
			if !v.Boxed {
				deps(v.Elem)
			}
		case plan.Struct, plan.Union:
			visit(v.Decl)
		}
	}
	visit = func(d *plan.Decl) {
		if done[d] || d.Enum != nil {
			return
		}
		done[d] = true
		for _, f := range d.Fields {
			deps(f.Value)
		}
		for _, v := range d.Variants {
			for _, f := range v.Fields {
				deps(f.Value)
			}
		}
		out = append(out, d.Decl)
	}
	for _, d := range pl.Decls {
		visit(d)
	}
	return out
}

// scope hands out the numbered temporaries of one emitted function ("e1",
// "n2"): each function starts a scope of its own, passed down to every
// printer that emits part of its body.
type scope struct{ n int }

// tmp returns a fresh temporary name.
func (s *scope) tmp(prefix string) string {
	s.n++
	return fmt.Sprintf("%s%d", prefix, s.n)
}

// fn prints (part of) the body of one generated function: the printer and
// the scope of the function's temporaries.
type fn struct {
	g  *generator
	p  *emit.Printer
	sc *scope
}

// fn starts printing a function with p.
func (g *generator) fn(p *emit.Printer) fn { return fn{g: g, p: p, sc: &scope{}} }

// tmp returns a fresh temporary name in the function's scope.
func (f fn) tmp(prefix string) string { return f.sc.tmp(prefix) }

func scalarType(k schema.Kind) string {
	switch k {
	case schema.Bool:
		return "bool"
	case schema.U8:
		return "std::uint8_t"
	case schema.U16:
		return "std::uint16_t"
	case schema.U32:
		return "std::uint32_t"
	case schema.U64:
		return "std::uint64_t"
	case schema.I8:
		return "std::int8_t"
	case schema.I16:
		return "std::int16_t"
	case schema.I32:
		return "std::int32_t"
	case schema.I64:
		return "std::int64_t"
	case schema.F32:
		return "float"
	case schema.F64:
		return "double"
	}
	panic("cpp: not a scalar: " + k.String())
}

// flat reports types stored as one fixed-width wire value: scalars and enums.
func flat(t *schema.Type) bool { return t.Kind.IsScalar() || t.Kind == schema.EnumRef }

// wtype is the type a flat value is moved in: its C++ type, but the bits
// of a float or double as an unsigned integer (sdp::bits_of).
func (g *generator) wtype(t *schema.Type) string {
	switch t.Kind {
	case schema.F32:
		return "std::uint32_t"
	case schema.F64:
		return "std::uint64_t"
	}
	return g.ctype(t)
}

// ctype is the owned C++ type of a schema type, in a function body.
func (g *generator) ctype(t *schema.Type) string { return spelling{g: g}.ctype(t) }

// vtype is the view type of a schema type, in a function body.
func (g *generator) vtype(t *schema.Type) string { return spelling{g: g}.vtype(t) }

// spelling is the one mapping of schema types to C++ types. With qualify,
// it names schema types with their namespace: for the members of a class
// where a member's name hides a schema type, and of a variant's type,
// where the variant's nested type may hide a schema type of the same name.
type spelling struct {
	g       *generator
	qualify bool
}

// ctype is the owned C++ type of a schema type.
func (s spelling) ctype(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "std::string"
	case schema.Array:
		return "std::vector<" + s.ctype(t.Elem) + ">"
	case schema.FixedArray:
		return fmt.Sprintf("std::array<%s, %d>", s.ctype(t.Elem), t.Len)
	case schema.Optional:
		if t.Boxed {
			return "sdp::Box<" + s.ctype(t.Elem) + ">"
		}
		return "std::optional<" + s.ctype(t.Elem) + ">"
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return s.qualified(s.g.name(t.Decl()))
	}
	return scalarType(t.Kind)
}

func (s spelling) qualified(name string) string {
	if s.qualify {
		return s.g.nsq + "::" + name
	}
	return name
}

// vtype is the zero-copy view type of a schema type.
func (s spelling) vtype(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "std::string_view"
	case schema.Array, schema.FixedArray:
		if flat(t.Elem) {
			return "sdp::ArrayView<" + s.ctype(t.Elem) + ">"
		}
		return "sdp::ListView<" + s.vtype(t.Elem) + ">"
	case schema.Optional:
		if t.Boxed {
			return "sdp::LazyView<" + s.vtype(t.Elem) + ">"
		}
		return "std::optional<" + s.vtype(t.Elem) + ">"
	case schema.StructRef, schema.UnionRef:
		return s.qualified(s.g.viewName(t.Decl()))
	case schema.EnumRef:
		return s.qualified(s.g.name(t.Decl()))
	}
	return scalarType(t.Kind)
}

// defaultExpr is the default value of an owned t where value-initializing
// it is not the schema's default, else "": an enum defaults to its first
// declared value (which need not be 0, or even be the value 0 names), a
// fixed array to copies of its element's default. Structs and unions carry
// their own defaults; optionals and arrays default to empty.
func (s spelling) defaultExpr(t *schema.Type) string {
	switch t.Kind {
	case schema.EnumRef:
		if len(t.Enum.Values) == 0 || t.Enum.Values[0].Value == 0 {
			return ""
		}
		return s.qualified(s.g.name(t.Enum)) + "::" + s.g.enumValueName(t.Enum.Values[0])
	case schema.FixedArray:
		if e := s.defaultExpr(t.Elem); e != "" {
			return fmt.Sprintf("sdp::filled<%s>(%s)", s.ctype(t), e)
		}
	}
	return ""
}

// mangle names a type for the element readers: "A_str", "OB_T4Node".
func (g *generator) mangle(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "str"
	case schema.Array:
		return "A_" + g.mangle(t.Elem)
	case schema.FixedArray:
		return fmt.Sprintf("F%d_%s", t.Len, g.mangle(t.Elem))
	case schema.Optional:
		if t.Boxed {
			return "OB_" + g.mangle(t.Elem)
		}
		return "O_" + g.mangle(t.Elem)
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		n := g.name(t.Decl())
		return fmt.Sprintf("T%d%s", len(n), n)
	}
	return t.Kind.String()
}

// reader returns the name of the element reader for v, registering it.
func (g *generator) reader(v *plan.Value) string {
	m := g.mangle(v.Type)
	if _, ok := g.rd[m]; !ok {
		g.rd[m] = v
		g.rdList = append(g.rdList, m)
	}
	return "sdp_rd_" + m
}

// decls lists the structs and unions in declaration order.
func (g *generator) compound() []schema.Decl {
	var out []schema.Decl
	for _, d := range g.s.Decls {
		if _, isEnum := d.(*schema.Enum); !isEnum {
			out = append(out, d)
		}
	}
	return out
}

// hasDecl reports whether the schema declares a type with this C++ name.
func (g *generator) hasDecl(name string) bool {
	for _, d := range g.s.Decls {
		if g.names[d] == name {
			return true
		}
	}
	return false
}
