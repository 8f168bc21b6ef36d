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

	byName  map[string]*DeclInfo
	partial *Schema // the model despite errors, when its sizes were computed
	dirty   map[Pos]bool
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

	broken bool // a syntax error inside
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
	s, sized := checkPartial(name, f, &errs)
	a := &Analysis{Diagnostics: errs.sorted(), byName: map[string]*DeclInfo{}}
	switch {
	case len(errs) == 0:
		finish(s)
		a.Schema = s
	case sized:
		a.partial = s
	}
	for _, d := range f.decls {
		di := &DeclInfo{Kind: d.kind.String(), Name: d.name.name, Pos: d.name.pos, End: d.end, Start: d.start, Doc: d.doc, broken: d.broken}
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
	if a.partial != nil {
		a.markDirty()
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

// Layout is the layout of declaration di (see DeclLayout), or nil when it
// cannot be trusted: while the schema has errors, a declaration has a
// layout only if neither it nor any declaration it holds (through any
// nesting) has a problem, so editing one struct leaves the sizes of the
// others on display.
func (a *Analysis) Layout(di *DeclInfo, plain func(*Struct) bool) *Layout {
	m := a.Schema
	if m == nil {
		m = a.partial
	}
	if m == nil || di == nil {
		return nil
	}
	d := m.Lookup(di.Name)
	if d == nil || d.DeclPos() != di.Pos {
		return nil // rejected (a clash): the name is another declaration's
	}
	if a.Schema == nil && !a.clean(d) {
		return nil
	}
	return DeclLayout(d, plain)
}

// clean reports that no declaration reachable from d holds a diagnostic or
// a syntax error.
func (a *Analysis) clean(d Decl) bool {
	seen := map[Decl]bool{}
	var visit func(d Decl) bool
	visit = func(d Decl) bool {
		if seen[d] {
			return true
		}
		seen[d] = true
		if a.dirty[d.DeclPos()] {
			return false
		}
		for _, e := range edges(d) {
			if !visit(e.to) {
				return false
			}
		}
		return true
	}
	return visit(d)
}

// markDirty records, by name position, the declarations that hold a
// diagnostic (between their first and last token) or a syntax error.
func (a *Analysis) markDirty() {
	a.dirty = map[Pos]bool{}
	before := func(p, q Pos) bool { return p.Line < q.Line || p.Line == q.Line && p.Col <= q.Col }
	i := 0
	for _, di := range a.Decls {
		if di.broken {
			a.dirty[di.Pos] = true
		}
		for i < len(a.Diagnostics) && !before(di.Start, a.Diagnostics[i].Pos) {
			i++ // before this declaration: between declarations
		}
		for j := i; j < len(a.Diagnostics) && before(a.Diagnostics[j].Pos, di.End); j++ {
			a.dirty[di.Pos] = true
		}
	}
}
