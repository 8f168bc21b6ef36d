package rust

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// viewsRs emits the borrowed views: one per struct and union. Types without
// strings or arrays are their own view (a type alias).
func (g *generator) viewsRs() []byte {
	docs := []string{
		"Borrowed views: decoding without copying strings and arrays.",
		"",
		"A view is validated completely when it is decoded (the same checks",
		"and errors as the owned decoders), so reading it never fails.",
	}
	return g.module(docs, []string{"crate::rt", "crate::types::*"}, func(p *printer) {
		g.viewsBody(p)
	})
}

func (g *generator) viewsBody(p *printer) {
	for _, d := range g.s.Decls {
		if _, isEnum := d.(*schema.Enum); isEnum {
			continue
		}
		p.P()
		if g.hasView[d] {
			g.viewType(p, d)
		} else {
			g.viewAlias(p, d)
		}
	}
	g.compositeElems(p)
	g.hintConsts(p)
}

func (g *generator) viewAlias(p *printer, d schema.Decl) {
	name, view := g.name[d], g.view[d]
	p.F("/// The view of [`%s`]: it holds no strings or arrays, so it is the owned", name)
	p.P("/// type itself.")
	p.F("pub type %s<'a> = %s;", view, name)
	p.P()
	p.Block("impl "+name+" {", "}", func() {
		p.F("/// The owned value: [`%s`] is its own view.", name)
		if g.ownedCopy[d] {
			p.Block("pub fn to_owned_value(self) -> Self {", "}", func() { p.P("self") })
		} else {
			p.Block("pub fn to_owned_value(&self) -> Self {", "}", func() { p.P("self.clone()") })
		}
		p.P()
		g.validRead(p, d, "")
	})
	validImpl(p, "impl<'a> rt::Valid<'a> for "+name)
}

func (g *generator) viewType(p *printer, d schema.Decl) {
	name, view := g.name[d], g.view[d]
	p.F("/// A borrowed view of [`%s`]: strings and arrays point into the input.", name)
	for _, l := range d.DeclDoc() {
		if l == d.DeclDoc()[0] {
			p.P("///")
		}
		doc(p, []string{l})
	}
	derives := "Debug, Clone, PartialEq"
	if g.viewCopy[d] {
		derives = "Debug, Clone, Copy, PartialEq"
	}
	p.F("#[derive(%s)]", derives)
	switch d := d.(type) {
	case *schema.Struct:
		p.Block("pub struct "+view+"<'a> {", "}", func() {
			for _, f := range d.Fields {
				doc(p, f.Doc)
				p.F("pub %s: %s,", fieldName(f), g.viewOf(f.Type))
			}
		})
	case *schema.Union:
		p.P(allowLarge)
		vertical := variantsVertical(p, d, g.viewOf, false)
		p.Block("pub enum "+view+"<'a> {", "}", func() {
			for _, v := range d.Variants {
				doc(p, v.Doc)
				g.variantDecl(p, v, g.viewOf, vertical)
			}
		})
	}
	p.P()
	p.Block("impl<'a> "+view+"<'a> {", "}", func() {
		read := "Self::read"
		if _, ok := d.(*schema.Union); ok {
			read = "Self::read_top"
		}
		decodeAPI(p, view, "'a", read)
		p.P()
		p.P("#[doc(hidden)]")
		g.readWrapper(p, d, "'a", name)
		p.P()
		switch d := d.(type) {
		case *schema.Struct:
			g.structRead(p, d, "'a", g.viewValue)
		case *schema.Union:
			g.unionRead(p, d, "'a", g.viewValue)
			p.P()
			topUnionRead(p, name, "'a", false)
		}
		p.P()
		if st, ok := d.(*schema.Struct); ok && len(st.Fields) > 0 {
			g.structCheck(p, st)
			p.P()
		}
		g.validRead(p, d, "'a")
		p.P()
		p.F("/// Copies the view into an owned [`%s`].", name)
		self := "self"
		if !g.viewCopy[d] {
			self = "&self"
		}
		p.Block("pub fn to_owned_value("+self+") -> "+name+" {", "}", func() {
			switch d := d.(type) {
			case *schema.Struct:
				var fields []string
				for _, f := range d.Fields {
					fields = append(fields, fieldInit(fieldName(f), g.toOwned(f.Type, "self."+fieldName(f), false, 0)))
				}
				structLit(p, name, fields, "", 18)
			case *schema.Union:
				g.unionToOwned(p, d, !g.viewCopy[d])
			}
		})
	})
	p.P()
	p.Block("impl ::core::convert::From<"+view+"<'_>> for "+name+" {", "}", func() {
		p.Block("fn from(v: "+view+"<'_>) -> Self {", "}", func() {
			p.P("v.to_owned_value()")
		})
	})
	validImpl(p, "impl<'a> rt::Valid<'a> for "+view+"<'a>")
}

// fieldInit is `name: value`, or the shorthand `name` when they are equal.
func fieldInit(name, value string) string {
	if name == value {
		return name
	}
	return name + ": " + value
}

func (g *generator) unionToOwned(p *printer, u *schema.Union, isRef bool) {
	name := g.name[u]
	p.Block("match self {", "}", func() {
		for _, v := range u.Variants {
			vn := pascal(v.Name)
			switch v.Kind {
			case schema.VariantUnit:
				p.F("Self::%s => %s::%s,", vn, name, vn)
			case schema.VariantStruct:
				t := &schema.Type{Kind: schema.StructRef, Struct: v.Struct}
				p.F("Self::%s(v) => %s::%s(%s),", vn, name, vn, g.toOwned(t, "v", isRef, 0))
			case schema.VariantInline:
				var binds, fields []string
				for _, f := range v.Fields {
					b := bindName(f)
					if b != fieldName(f) {
						binds = append(binds, fieldName(f)+": "+b)
					} else {
						binds = append(binds, b)
					}
					fields = append(fields, fieldInit(fieldName(f), g.toOwned(f.Type, b, isRef, 0)))
				}
				pat := "Self::" + vn + " {}"
				if len(binds) > 0 {
					pat = "Self::" + vn + " { " + strings.Join(binds, ", ") + " }"
				}
				if len(binds) > 0 && len(strings.Join(binds, ", ")) > 18 {
					// A pattern too wide for one line: bind field by field.
					p.Line("Self::" + vn + " {")
					p.In()
					for _, b := range binds {
						p.Line(b + ",")
					}
					p.Out()
					structLit(p, "} => "+name+"::"+vn, fields, ",", 18)
					continue
				}
				structLit(p, pat+" => "+name+"::"+vn, fields, ",", 18)
			}
		}
	})
}

// viewValue reads a field of a view (with `?`).
func (g *generator) viewValue(t *schema.Type, depth string) string {
	return g.viewResult(t, depth) + "?"
}

// viewResult is an expression of type DecodeResult<view of t>.
func (g *generator) viewResult(t *schema.Type, depth string) string {
	switch t.Kind {
	case schema.String:
		return "r.str()"
	case schema.Array, schema.FixedArray:
		elem := t.Elem
		switch {
		case t.Kind == schema.Array && elem.Kind == schema.U8:
			return "r.bytes()"
		case elem.Kind == schema.U8:
			return fmt.Sprintf("r.byte_array::<%d>()", t.Len)
		case t.Kind == schema.Array && isScalarElem(elem):
			return fmt.Sprintf("r.scalar_slice::<%s>()", scalarName(elem.Kind))
		case isScalarElem(elem):
			return fmt.Sprintf("r.scalars::<%s>(%d)", scalarName(elem.Kind), t.Len)
		}
		if c := t.ArrayCharge(); c > 0 {
			return fmt.Sprintf("r.charged_list_of(%d, %d, %s, %s)", elem.MinSize(), c, depth, g.elemExpr(elem))
		}
		if t.Kind == schema.Array {
			return fmt.Sprintf("r.list_of(%d, %s, %s)", elem.MinSize(), depth, g.elemExpr(elem))
		}
		return fmt.Sprintf("r.list(%d, %s, %s)", t.Len, depth, g.elemExpr(elem))
	case schema.Optional:
		if t.Elem.Kind == schema.EnumRef {
			return "r.option(" + g.name[t.Elem.Decl()] + "::read)"
		}
		if c := t.PresenceCharge(); c > 0 {
			return fmt.Sprintf("r.charged_option_box(%d, %s)", c, closure("r", g.viewResult(t.Elem, depth)))
		}
		if t.Boxed {
			return "r.option_box(" + closure("r", g.viewResult(t.Elem, depth)) + ")"
		}
		return "r.option(" + closure("r", g.viewResult(t.Elem, depth)) + ")"
	case schema.StructRef, schema.UnionRef:
		return fmt.Sprintf("%s::read(r, %s + 1)", g.viewName(t.Decl()), depth)
	case schema.EnumRef:
		return g.name[t.Decl()] + "::read(r)"
	}
	return "r." + scalarName(t.Kind) + "()"
}

// viewName is the type whose read decodes a view of d: the view, or the
// owned type when d has no distinct view.
func (g *generator) viewName(d schema.Decl) string {
	if g.hasView[d] {
		return g.view[d]
	}
	return g.name[d]
}

// viewReadFn is the validating reader of a list's elements (a ReadFn); it
// receives the depth of the struct holding the list.
func (g *generator) viewReadFn(t *schema.Type) string {
	d := "d"
	if !usesDepth(t, true) {
		d = "_"
	}
	return closure("r, "+d, g.viewResult(t, "d"))
}

// fixedSize is the encoded size of every t, or 0 when it varies.
func fixedSize(t *schema.Type) int {
	n, ok := t.FixedSize()
	if !ok || n < 0 {
		return 0
	}
	return n
}

// elemExpr is the rt::Elem with which a list view reads elements of type t.
func (g *generator) elemExpr(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "rt::elem_str()"
	case schema.StructRef, schema.UnionRef:
		return g.viewName(t.Decl()) + "::elem()"
	case schema.EnumRef:
		return g.name[t.Decl()] + "::elem()"
	case schema.Array, schema.FixedArray:
		switch elem := t.Elem; {
		case t.Kind == schema.Array && elem.Kind == schema.U8:
			return "rt::elem_bytes()"
		case elem.Kind == schema.U8:
			return fmt.Sprintf("rt::elem_byte_array::<%d>()", t.Len)
		case t.Kind == schema.Array && isScalarElem(elem):
			return fmt.Sprintf("rt::elem_scalar_slice::<%s>()", scalarName(elem.Kind))
		case isScalarElem(elem):
			return fmt.Sprintf("rt::elem_scalars::<%s, %d>()", scalarName(elem.Kind), t.Len)
		}
	}
	return g.compositeElem(t) + "()"
}

// elemKey identifies an element type among the composite ones.
func elemKey(t *schema.Type) string {
	if t.Kind == schema.Optional && t.Boxed {
		return "box " + t.String()
	}
	return t.String()
}

// compositeElem names the views-module function that gives the rt::Elem of
// list elements of type t (optionals and lists of non-scalars), in the order
// the schema first uses them.
func (g *generator) compositeElem(t *schema.Type) string {
	g.findComposites()
	if name, ok := g.composite[elemKey(t)]; ok {
		return name
	}
	panic("rust: no list element function for " + t.String())
}

// addHint registers the hint const of list elements of type t (an array).
func (g *generator) addHint(t *schema.Type) {
	for t.Kind == schema.Optional {
		t = t.Elem
	}
	if !needsHint(t) {
		return
	}
	g.addHint(t.Elem) // an inner hint is declared first
	if _, ok := g.hints[elemKey(t)]; !ok {
		g.hints[elemKey(t)] = fmt.Sprintf("HINT_%d", len(g.hintList))
		g.hintList = append(g.hintList, t)
	}
}

// findComposites fills composite, compositeList, hints and hintList once.
func (g *generator) findComposites() {
	if g.composite == nil {
		g.composite = map[string]string{}
		g.hints = map[string]string{}
		var visit func(t *schema.Type)
		visit = func(t *schema.Type) {
			if t == nil {
				return
			}
			if t.Kind == schema.Array || t.Kind == schema.FixedArray {
				g.addHint(t.Elem)
			}
			if (t.Kind == schema.Array || t.Kind == schema.FixedArray) && !isScalarElem(t.Elem) {
				e := t.Elem
				k := e.Kind
				if k == schema.Optional || (k == schema.Array || k == schema.FixedArray) && !isScalarElem(e.Elem) {
					if _, ok := g.composite[elemKey(e)]; !ok {
						g.composite[elemKey(e)] = fmt.Sprintf("elem_%d", len(g.compositeList))
						g.compositeList = append(g.compositeList, e)
					}
				}
			}
			visit(t.Elem)
		}
		for _, d := range g.s.Decls {
			for _, t := range fieldsOf(d) {
				visit(t)
			}
		}
	}
}

// compositeElems emits the functions compositeElem names.
func (g *generator) compositeElems(p *printer) {
	g.findComposites()
	for _, t := range g.compositeList {
		name := g.composite[elemKey(t)]
		view := g.viewOf(t)
		p.P()
		p.F("/// The elements of `[]%s` lists.", t.String())
		p.Block("pub(crate) fn "+name+"<'a>() -> rt::Elem<'a, "+view+"> {", "}", func() {
			d := "d"
			if !usesDepth(t, true) {
				d = "_"
			}
			check := closure("r, "+d, g.viewResult(t, "d")+".map(drop)")
			head := "let check: rt::CheckFn<'a> ="
			if line := head + " " + flat(check) + ";"; len(line) <= p.width() {
				p.Line(line)
			} else {
				p.Line(head)
				p.In()
				p.wrapped("", check, ";")
				p.Out()
			}
			p.P("// SAFETY: reading back a validated element of this type reads")
			p.P("// exactly what `check` reads and accepts.")
			p.F("unsafe { rt::Elem::new(check, %s, %d) }", g.hintExpr(t), fixedSize(t))
		})
	}
}

// validExpr reads a t that was validated, without checks, from `b` at `*p`.
// It is used inside `unsafe` code whose contract says a validated t is there.
func (g *generator) validExpr(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "rt::v_str(b, p)"
	case schema.Array, schema.FixedArray:
		elem := t.Elem
		switch {
		case t.Kind == schema.Array && elem.Kind == schema.U8:
			return "rt::v_bytes(b, p)"
		case elem.Kind == schema.U8:
			return fmt.Sprintf("rt::v_byte_array::<%d>(b, p)", t.Len)
		case t.Kind == schema.Array && isScalarElem(elem):
			return fmt.Sprintf("rt::v_scalar_slice::<%s>(b, p)", scalarName(elem.Kind))
		case isScalarElem(elem):
			return fmt.Sprintf("rt::v_scalars::<%s, %d>(b, p)", scalarName(elem.Kind), t.Len)
		case t.Kind == schema.Array:
			return fmt.Sprintf("rt::v_list_of(b, p, %d, %s)", fixedSize(elem), g.hintExpr(elem))
		}
		return fmt.Sprintf("rt::v_list(b, p, %d, %d, %s)", t.Len, fixedSize(elem), g.hintExpr(elem))
	case schema.Optional:
		inner := g.validExpr(t.Elem)
		if t.Boxed {
			inner = stdBox + "::new(" + inner + ")"
		}
		return "rt::v_option(b, p, " + closure("b, p", inner) + ")"
	case schema.StructRef, schema.UnionRef:
		return g.viewName(t.Decl()) + "::read_valid(b, p)"
	case schema.EnumRef:
		return g.name[t.Decl()] + "::read_valid(b, p)"
	}
	return "rt::v_" + scalarName(t.Kind) + "(b, p)"
}

// needsHint: reading a list element of type t back needs an rt::Hint
// other than LEAF (a fixed array of scalars, or an array of non-scalars).
func needsHint(t *schema.Type) bool {
	switch t.Kind {
	case schema.Optional:
		return needsHint(t.Elem)
	case schema.FixedArray:
		return t.Elem.Kind != schema.U8
	case schema.Array:
		return !isScalarElem(t.Elem)
	}
	return false
}

// hintExpr is the rt::Hint with which list elements of type t are read.
func (g *generator) hintExpr(t *schema.Type) string {
	if t.Kind == schema.Optional {
		return g.hintExpr(t.Elem)
	}
	if !needsHint(t) {
		return "rt::Hint::LEAF"
	}
	g.findComposites()
	if name, ok := g.hints[elemKey(t)]; ok {
		return name
	}
	panic("rust: no hint for " + t.String())
}

// hintConsts emits the consts hintExpr names.
func (g *generator) hintConsts(p *printer) {
	g.findComposites()
	for _, t := range g.hintList {
		p.P()
		p.F("/// How elements of type `%s` are read back from a validated list.", t.String())
		inner := "None"
		fixed := 0
		if !isScalarElem(t.Elem) {
			fixed = fixedSize(t.Elem)
			if h := g.hintExpr(t.Elem); h != "rt::Hint::LEAF" {
				inner = "Some(&" + h + ")"
			}
		}
		fields := []string{
			fmt.Sprintf("counted: %v", t.Kind == schema.Array),
			fmt.Sprintf("n: %d", t.Len),
			fmt.Sprintf("fixed: %d", fixed),
			"inner: " + inner,
		}
		structLit(p, "const "+g.hints[elemKey(t)]+": rt::Hint = rt::Hint", fields, ";", 18)
	}
}

// validRead emits read_valid and elem for a struct or union: its view, or
// the owned type when that is its own view (life is "'a" or "").
func (g *generator) validRead(p *printer, d schema.Decl, life string) {
	b := "&'a [u8]"
	elemHead := "pub fn elem() -> rt::Elem<'a, Self, impl rt::Check<'a>> {"
	if life == "" {
		b = "&[u8]"
		elemHead = "pub fn elem<'a>() -> rt::Elem<'a, Self, impl rt::Check<'a>> {"
	}
	unsafeOps := true
	self := &schema.Type{Kind: schema.UnionRef}
	switch d := d.(type) {
	case *schema.Struct:
		unsafeOps = len(d.Fields) > 0
		self = &schema.Type{Kind: schema.StructRef, Struct: d}
	case *schema.Union:
		self.Union = d
		// One variant with nothing after its tag: only the tag is skipped.
		unsafeOps = len(d.Variants) != 1 || d.Variants[0].Kind == schema.VariantStruct || len(d.Variants[0].Fields) > 0
	}
	params := []string{"b: " + b, "p: &mut usize"}
	if !unsafeOps {
		params = []string{"_b: " + b, "_p: &mut usize"}
	}
	p.P("/// Reads a value that `read` validated, without checking it again.")
	p.P("///")
	p.P("/// # Safety")
	p.P("///")
	p.P("/// `b[*p..]` must start with a value that `read` accepted.")
	p.P("#[doc(hidden)]")
	p.P("#[inline]")
	p.Fn("pub unsafe fn read_valid", params, "Self", func() {
		if !unsafeOps {
			if u, ok := d.(*schema.Union); ok {
				p.P("*_p += 1;")
				p.P(g.unionArm(u.Variants[0]))
				return
			}
			p.P("Self {}")
			return
		}
		p.Block("unsafe {", "}", func() {
			p.P("// SAFETY: forwarded contract: `read` checked every value read here.")
			switch d := d.(type) {
			case *schema.Struct:
				var fields []string
				for _, f := range d.Fields {
					fields = append(fields, fieldInit(fieldName(f), g.validExpr(f.Type)))
				}
				structLit(p, "Self", fields, "", 18)
			case *schema.Union:
				g.unionValid(p, d)
			}
		})
	})
	p.P()
	p.P("/// How a list view reads elements of this type.")
	p.P("#[doc(hidden)]")
	p.P("#[inline]")
	p.Block(elemHead, "}", func() {
		check, checker := "|r, d| Self::read(r, d + 1).map(drop)", "read"
		if st, ok := d.(*schema.Struct); ok && life != "" && len(st.Fields) > 0 {
			check, checker = "|r, d| Self::check(r, d + 1)", "check"
		}
		p.F("// SAFETY: `read_valid` reads back exactly what `%s` accepts (the", checker)
		p.P("// same fields in the same order), and the fixed size is the schema's.")
		p.wrapped("", call("unsafe { rt::Elem::new", check, "rt::Hint::LEAF", fmt.Sprint(fixedSize(self)))+" }", "")
	})
}

// validImpl emits the rt::Valid impl of a view (or of an owned type that is
// its own view, or an enum), which list iteration calls.
func validImpl(p *printer, head string) {
	p.P()
	p.Block(head+" {", "}", func() {
		p.P("#[inline]")
		p.Block("unsafe fn read_valid(b: &'a [u8], p: &mut usize, _: &rt::Hint) -> Self {", "}", func() {
			p.P("// SAFETY: forwarded contract.")
			p.P("unsafe { Self::read_valid(b, p) }")
		})
	})
}

// unionArm is the expression building a variant from validated bytes.
func (g *generator) unionArm(v *schema.Variant) string {
	vn := "Self::" + pascal(v.Name)
	switch v.Kind {
	case schema.VariantStruct:
		t := &schema.Type{Kind: schema.StructRef, Struct: v.Struct}
		return vn + "(" + g.validExpr(t) + ")"
	case schema.VariantInline:
		var fields []string
		for _, f := range v.Fields {
			fields = append(fields, fieldName(f)+": "+g.validExpr(f.Type))
		}
		if len(fields) == 0 {
			return vn + " {}"
		}
		return vn + " { " + strings.Join(fields, ", ") + " }"
	}
	return vn
}

func (g *generator) unionValid(p *printer, u *schema.Union) {
	arm := g.unionArm
	if len(u.Variants) == 1 {
		p.P("*p += 1;")
		p.P(arm(u.Variants[0]))
		return
	}
	p.Block("match rt::v_u8(b, p) {", "}", func() {
		for i, v := range u.Variants {
			pat := fmt.Sprint(v.Tag)
			if i == len(u.Variants)-1 {
				pat = "_"
			}
			if v.Kind == schema.VariantInline && len(v.Fields) > 0 {
				var fields []string
				for _, f := range v.Fields {
					fields = append(fields, fieldName(f)+": "+g.validExpr(f.Type))
				}
				structLit(p, pat+" => Self::"+pascal(v.Name), fields, ",", 18)
				continue
			}
			p.F("%s => %s,", pat, arm(v))
		}
	})
}

// toOwned converts the view x of a t to the owned value. isRef says x is a
// reference to the view value rather than the value (or a place) itself.
func (g *generator) toOwned(t *schema.Type, x string, isRef bool, level int) string {
	if !g.borrows(t) {
		// The view type is the owned type.
		switch {
		case !g.copyOwned(t):
			return x + ".clone()"
		case isRef:
			return "*" + x
		}
		return x
	}
	switch t.Kind {
	case schema.String:
		if isRef {
			return "(*" + x + ").to_owned()"
		}
		return x + ".to_owned()"
	case schema.Array, schema.FixedArray:
		elem := t.Elem
		switch {
		case t.Kind == schema.Array && elem.Kind == schema.U8:
			return x + ".to_vec()"
		case g.boxedArray(t) && isScalarElem(elem):
			return "rt::boxed(" + x + ".to_vec())"
		case elem.Kind == schema.U8:
			if isRef {
				return "**" + x
			}
			return "*" + x
		case t.Kind == schema.Array && isScalarElem(elem):
			return x + ".to_vec()"
		case isScalarElem(elem):
			return x + ".to_array()"
		}
		list := x
		if isRef {
			list = "*" + x
		}
		e := loopVar("e", level)
		conv := g.toOwned(elem, e, false, level+1)
		f := closure(e, conv)
		if conv == e {
			f = "::core::convert::identity"
		}
		if g.boxedArray(t) {
			return fmt.Sprintf("rt::boxed(rt::map_list(%s, %s))", list, f)
		}
		if t.Kind == schema.FixedArray {
			if !g.defaultable(elem) {
				return call("rt::map_array_or", list, flat(f), "|| "+flat(g.defaultExpr(elem)))
			}
			return fmt.Sprintf("rt::map_array(%s, %s)", list, f)
		}
		return fmt.Sprintf("rt::map_list(%s, %s)", list, f)
	case schema.Optional:
		ref := x
		if !isRef {
			ref = "&" + x
		}
		v := loopVar("v", level)
		if t.Boxed {
			return fmt.Sprintf("rt::option_box(%s, %s)", ref, closure(v, g.toOwned(t.Elem, v, true, level+1)))
		}
		return fmt.Sprintf("rt::option_map(%s, %s)", ref, closure(v, g.toOwned(t.Elem, v, true, level+1)))
	case schema.StructRef, schema.UnionRef:
		return x + ".to_owned_value()"
	}
	panic("rust: no view conversion for " + t.String())
}

// structCheck emits check, which validates a struct view exactly as read
// does (same errors) without building it: list elements are checked once
// when their view is decoded and built only when they are iterated.
func (g *generator) structCheck(p *printer, st *schema.Struct) {
	p.P("/// Validates a value as `read` does, without building it.")
	p.P("#[doc(hidden)]")
	p.Fn("pub fn check", []string{"r: &mut rt::Reader<'a>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.wrapped("", call(g.readStruct(), "r", "depth", fmt.Sprintf("%q", st.Name), "Self::check_fields", g.name[st]+"::field_at"), "")
	})
	p.P()
	p.Fn("fn check_fields", []string{"r: &mut rt::Reader<'a>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.P("r.enter(depth)?;")
		fields := st.Fields
		for len(fields) > 0 {
			if n := decodeRun(fields); n >= 2 {
				run := runOf(fields[:n])
				if run.bools == 0 {
					p.F("%s;", run.take())
				} else {
					p.F("let run = %s;", run.take())
					for i, f := range fields[:n] {
						if f.Type.Kind == schema.Bool {
							p.F("r.bool_in(run, %d)?;", run.at[i])
						}
					}
				}
				fields = fields[n:]
				continue
			}
			f := fields[0]
			t := f.Type
			if t.Kind == schema.StructRef && g.hasView[t.Decl()] && len(t.Struct.Fields) > 0 {
				p.F("%s::check(r, depth + 1)?;", g.view[t.Decl()])
			} else {
				p.wrapped("", g.viewResult(t, "depth"), "?;")
			}
			fields = fields[1:]
		}
		p.P("Ok(())")
	})
}
