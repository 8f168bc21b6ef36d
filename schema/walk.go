package schema

// Reaches reports whether t, or any type a value of t holds (array
// elements, an optional's value, struct fields, union variants, through any
// nesting and recursion), satisfies match: the one walk behind questions
// like "can this value hold a string?".
func Reaches(t *Type, match func(*Type) bool) bool {
	return (&reach{match: match, seen: map[Decl]bool{}}).typ(t)
}

// DeclReaches is Reaches for a value of struct or union d.
func DeclReaches(d Decl, match func(*Type) bool) bool {
	return (&reach{match: match, seen: map[Decl]bool{}}).decl(d)
}

// VariantReaches is Reaches for what union variant v carries.
func VariantReaches(v *Variant, match func(*Type) bool) bool {
	return (&reach{match: match, seen: map[Decl]bool{}}).variant(v)
}

// reach is one walk: every struct and union is visited once, which is
// enough to answer whether some type matches.
type reach struct {
	match func(*Type) bool
	seen  map[Decl]bool
}

func (r *reach) typ(t *Type) bool {
	if r.match(t) {
		return true
	}
	switch t.Kind {
	case Array, FixedArray, Optional:
		return r.typ(t.Elem)
	case StructRef:
		return r.decl(t.Struct)
	case UnionRef:
		return r.decl(t.Union)
	}
	return false
}

func (r *reach) decl(d Decl) bool {
	if r.seen[d] {
		return false // already visited, or a cycle: it adds no type of its own
	}
	r.seen[d] = true
	switch d := d.(type) {
	case *Struct:
		return r.fields(d.Fields)
	case *Union:
		for _, v := range d.Variants {
			if r.variant(v) {
				return true
			}
		}
	}
	return false
}

func (r *reach) variant(v *Variant) bool {
	switch v.Kind {
	case VariantStruct:
		return r.decl(v.Struct)
	case VariantInline:
		return r.fields(v.Fields)
	}
	return false
}

func (r *reach) fields(fs []*Field) bool {
	for _, f := range fs {
		if r.typ(f.Type) {
			return true
		}
	}
	return false
}
