package schema

import "strconv"

// Analysis is what an editor needs of a schema text, valid or not: every
// problem, the declarations and members that parsed, with positions, and
// every use of a type name. Editors read it to publish diagnostics, find
// definitions and references, rename and list symbols, also while the text
// is broken.
type Analysis struct {
	// Schema is the resolved model, or nil when there are errors.
	Schema *Schema
	// Diagnostics is every problem `sdp check` reports, sorted by position.
	Diagnostics ErrorList
	// Decls is every declaration that parsed (partly, after a syntax error
	// inside it), in declaration order.
	Decls []*DeclInfo
	// Refs is every use of a name as a type (scalars excluded), and every
	// union variant that names a declaration, in text order.
	Refs []Ref

	byName map[string]*DeclInfo
}

// DeclInfo is one declaration as written.
type DeclInfo struct {
	Kind    string // "struct", "enum" or "union"
	Name    string
	Pos     Pos // of the name
	End     Pos // of its last token
	Start   Pos // of its first token (docs and @id included)
	Doc     []string
	Members []*MemberInfo
	// ID is the written @id(N), or 0.
	ID int
}

// MemberInfo is a field, an enum value or a union variant as written.
type MemberInfo struct {
	Kind string // "field", "value" or "variant"
	Name string
	Pos  Pos
	Doc  []string
	// Type is a field's type as written ("[]Plugin"); TypePos where it starts.
	Type    string
	TypePos Pos
	// Members are an inline variant's fields.
	Members []*MemberInfo
	// HasBody is set on a variant written with braces.
	HasBody bool
}

// Ref is a use of a name: a field's type, or a union variant that names a
// declaration (or nothing: then it is a unit variant and Decl is nil, and
// Variant is set).
type Ref struct {
	Name    string
	Pos     Pos
	Decl    *DeclInfo // nil for an unknown name
	Variant bool      // a union variant's name
}

// Analyze parses and checks src. It never fails: problems are in
// Diagnostics.
func Analyze(name string, src []byte) *Analysis {
	var errs ErrorList
	f := parse(name, src, &errs)
	s := check(name, f, &errs)
	a := &Analysis{Schema: s, Diagnostics: errs.sorted(), byName: map[string]*DeclInfo{}}
	for _, d := range f.decls {
		di := &DeclInfo{Kind: d.kind.String(), Name: d.name.name, Pos: d.name.pos, End: d.end, Start: d.start, Doc: d.doc}
		if d.id != nil {
			di.ID = int(d.id.val)
		}
		for _, fl := range d.fields {
			di.Members = append(di.Members, fieldInfo(fl))
		}
		for _, v := range d.values {
			di.Members = append(di.Members, &MemberInfo{Kind: "value", Name: v.name.name, Pos: v.name.pos, Doc: v.doc})
		}
		for _, v := range d.variants {
			m := &MemberInfo{Kind: "variant", Name: v.name.name, Pos: v.name.pos, Doc: v.doc, HasBody: v.hasBody}
			for _, fl := range v.fields {
				m.Members = append(m.Members, fieldInfo(fl))
			}
			di.Members = append(di.Members, m)
		}
		a.Decls = append(a.Decls, di)
		if _, ok := a.byName[di.Name]; !ok {
			a.byName[di.Name] = di
		}
	}
	var typ func(t *astType)
	typ = func(t *astType) {
		if t.elem != nil {
			typ(t.elem)
			return
		}
		if _, scalar := scalarNames[t.name]; !scalar {
			a.Refs = append(a.Refs, Ref{Name: t.name, Pos: t.pos, Decl: a.byName[t.name]})
		}
	}
	for _, d := range f.decls {
		for _, fl := range d.fields {
			typ(fl.typ)
		}
		for _, v := range d.variants {
			for _, fl := range v.fields {
				typ(fl.typ)
			}
			if !v.hasBody {
				a.Refs = append(a.Refs, Ref{Name: v.name.name, Pos: v.name.pos, Decl: a.byName[v.name.name], Variant: true})
			}
		}
	}
	return a
}

func fieldInfo(f *astField) *MemberInfo {
	return &MemberInfo{Kind: "field", Name: f.name.name, Pos: f.name.pos, Doc: f.doc, Type: typeText(f.typ), TypePos: f.typ.pos}
}

func typeText(t *astType) string {
	switch t.form {
	case formArray:
		return "[]" + typeText(t.elem)
	case formFixed:
		return "[" + strconv.FormatUint(t.n.val, 10) + "]" + typeText(t.elem)
	case formOptional:
		return "?" + typeText(t.elem)
	}
	return t.name
}

// Decl returns the first declaration named name, or nil.
func (a *Analysis) Decl(name string) *DeclInfo { return a.byName[name] }

// ScalarNames lists the schema language's scalar type names, in the order
// of its documentation.
func ScalarNames() []string {
	return []string{"bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "str"}
}

// IsScalarName reports a built-in type name (str and its alias string too).
func IsScalarName(name string) bool {
	_, ok := scalarNames[name]
	return ok
}
