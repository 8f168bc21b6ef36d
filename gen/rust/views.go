package rust

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
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
		g.validRead(p, g.plan.Of(d), "")
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
	pd := g.plan.Of(d)
	if pd.Struct != nil {
		p.Block("pub struct "+view+"<'a> {", "}", func() {
			for _, f := range pd.Fields {
				doc(p, f.Field.Doc)
				p.F("pub %s: %s,", fieldName(f.Field), g.viewOf(f.Value))
			}
		})
	} else {
		p.P(allowLarge)
		vertical := variantsVertical(p, pd, g.viewOf, false)
		p.Block("pub enum "+view+"<'a> {", "}", func() {
			for _, v := range pd.Variants {
				doc(p, v.Variant.Doc)
				variantDecl(p, v, g.viewOf, vertical)
			}
		})
	}
	p.P()
	p.Block("impl<'a> "+view+"<'a> {", "}", func() {
		read := "Self::read"
		if pd.Union != nil {
			read = "Self::read_top"
		}
		decodeAPI(p, view, "'a", read)
		p.P()
		p.P("#[doc(hidden)]")
		g.readWrapper(p, d, "'a", name)
		p.P()
		if pd.Struct != nil {
			g.structRead(p, pd, "'a", g.viewValue)
		} else {
			g.unionRead(p, pd, "'a", g.viewValue)
			p.P()
			topUnionRead(p, name, "'a", false)
		}
		p.P()
		if pd.Struct != nil && len(pd.Fields) > 0 {
			g.structCheck(p, pd)
			p.P()
		}
		g.validRead(p, pd, "'a")
		p.P()
		p.F("/// Copies the view into an owned [`%s`].", name)
		self := "self"
		if !g.viewCopy[d] {
			self = "&self"
		}
		p.Block("pub fn to_owned_value("+self+") -> "+name+" {", "}", func() {
			if pd.Struct != nil {
				var fields []string
				for _, f := range pd.Fields {
					fields = append(fields, fieldInit(fieldName(f.Field), g.toOwned(f.Value, "self."+fieldName(f.Field), false, 0)))
				}
				structLit(p, name, fields, "", 18)
			} else {
				g.unionToOwned(p, pd, !g.viewCopy[d])
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

func (g *generator) unionToOwned(p *printer, pd *plan.Decl, isRef bool) {
	name := g.name[pd.Decl]
	p.Block("match self {", "}", func() {
		for _, v := range pd.Variants {
			vn := pascal(v.Name)
			switch v.Variant.Kind {
			case schema.VariantUnit:
				p.F("Self::%s => %s::%s,", vn, name, vn)
			case schema.VariantStruct:
				p.F("Self::%s(v) => %s::%s(%s),", vn, name, vn, g.toOwned(v.Fields[0].Value, "v", isRef, 0))
			case schema.VariantInline:
				var binds, fields []string
				for _, f := range v.Fields {
					b := bindName(f.Field)
					if b != fieldName(f.Field) {
						binds = append(binds, fieldName(f.Field)+": "+b)
					} else {
						binds = append(binds, b)
					}
					fields = append(fields, fieldInit(fieldName(f.Field), g.toOwned(f.Value, b, isRef, 0)))
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

// viewValue reads a value of v in a view (with `?`).
func (g *generator) viewValue(v *plan.Value, depth string) string {
	return g.viewResult(v, depth) + "?"
}

// viewResult is an expression of type DecodeResult<view of v>.
func (g *generator) viewResult(v *plan.Value, depth string) string {
	switch {
	case v.Op == plan.String:
		return "r.str()"
	case v.Op.IsArray():
		switch {
		case v.Op == plan.Bytes:
			return "r.bytes()"
		case v.Op == plan.FixedBytes:
			return fmt.Sprintf("r.byte_array::<%d>()", v.Len)
		case v.Op.Counted() && scalars(v):
			return fmt.Sprintf("r.scalar_slice::<%s>()", scalarName(v.Elem.Kind))
		case scalars(v):
			return fmt.Sprintf("r.scalars::<%s>(%d)", scalarName(v.Elem.Kind), v.Len)
		case v.Charge > 0:
			return fmt.Sprintf("r.charged_list_of(%d, %d, %s, %s)", v.MinElem, v.Charge, depth, g.elemExpr(v.Elem))
		case v.Op.Counted():
			return fmt.Sprintf("r.list_of(%d, %s, %s)", v.MinElem, depth, g.elemExpr(v.Elem))
		}
		return fmt.Sprintf("r.list(%d, %s, %s)", v.Len, depth, g.elemExpr(v.Elem))
	case v.Op == plan.Optional:
		if v.Elem.Op == plan.Enum {
			return "r.option(" + g.name[v.Elem.Decl.Decl] + "::read)"
		}
		if c := v.Charge; c > 0 {
			return fmt.Sprintf("r.charged_option_box(%d, %s)", c, closure("r", g.viewResult(v.Elem, depth)))
		}
		if v.Boxed {
			return "r.option_box(" + closure("r", g.viewResult(v.Elem, depth)) + ")"
		}
		return "r.option(" + closure("r", g.viewResult(v.Elem, depth)) + ")"
	case v.Op == plan.Struct || v.Op == plan.Union:
		return fmt.Sprintf("%s::read(r, %s + 1)", g.viewName(v.Decl.Decl), depth)
	case v.Op == plan.Enum:
		return g.name[v.Decl.Decl] + "::read(r)"
	}
	return "r." + scalarName(v.Kind) + "()"
}

// viewName is the type whose read decodes a view of d: the view, or the
// owned type when d has no distinct view.
func (g *generator) viewName(d schema.Decl) string {
	if g.hasView[d] {
		return g.view[d]
	}
	return g.name[d]
}

// fixedSize is the encoded size of every value of v, or 0 when it varies.
func fixedSize(v *plan.Value) int {
	if v.Fixed < 0 {
		return 0
	}
	return v.Fixed
}

// elemExpr is the rt::Elem with which a list view reads elements of v.
func (g *generator) elemExpr(v *plan.Value) string {
	switch {
	case v.Op == plan.String:
		return "rt::elem_str()"
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.viewName(v.Decl.Decl) + "::elem()"
	case v.Op == plan.Enum:
		return g.name[v.Decl.Decl] + "::elem()"
	case v.Op == plan.Bytes:
		return "rt::elem_bytes()"
	case v.Op == plan.FixedBytes:
		return fmt.Sprintf("rt::elem_byte_array::<%d>()", v.Len)
	case v.Op.Counted() && scalars(v):
		return fmt.Sprintf("rt::elem_scalar_slice::<%s>()", scalarName(v.Elem.Kind))
	case scalars(v):
		return fmt.Sprintf("rt::elem_scalars::<%s, %d>()", scalarName(v.Elem.Kind), v.Len)
	}
	return g.compositeElem(v) + "()"
}

// elemKey identifies an element type among the composite ones.
func elemKey(v *plan.Value) string {
	if v.Op == plan.Optional && v.Boxed {
		return "box " + v.Type.String()
	}
	return v.Type.String()
}

// compositeElem names the views-module function that gives the rt::Elem of
// list elements of v (optionals and lists of non-scalars), in the order the
// schema first uses them.
func (g *generator) compositeElem(v *plan.Value) string {
	g.findComposites()
	if name, ok := g.composite[elemKey(v)]; ok {
		return name
	}
	panic("rust: no list element function for " + v.Type.String())
}

// addHint registers the hint const of list elements of v (an array).
func (g *generator) addHint(v *plan.Value) {
	for v.Op == plan.Optional {
		v = v.Elem
	}
	if !needsHint(v) {
		return
	}
	g.addHint(v.Elem) // an inner hint is declared first
	if _, ok := g.hints[elemKey(v)]; !ok {
		g.hints[elemKey(v)] = fmt.Sprintf("HINT_%d", len(g.hintList))
		g.hintList = append(g.hintList, v)
	}
}

// findComposites fills composite, compositeList, hints and hintList once.
func (g *generator) findComposites() {
	if g.composite != nil {
		return
	}
	g.composite = map[string]string{}
	g.hints = map[string]string{}
	var visit func(v *plan.Value)
	visit = func(v *plan.Value) {
		if v == nil {
			return
		}
		if v.Op.IsArray() {
			g.addHint(v.Elem)
		}
		if v.Op.IsArray() && !scalars(v) {
			if e := v.Elem; e.Op == plan.Optional || e.Op.IsArray() && !scalars(e) {
				if _, ok := g.composite[elemKey(e)]; !ok {
					g.composite[elemKey(e)] = fmt.Sprintf("elem_%d", len(g.compositeList))
					g.compositeList = append(g.compositeList, e)
				}
			}
		}
		visit(v.Elem)
	}
	for _, pd := range g.plan.Decls {
		for _, f := range fieldsOf(pd) {
			visit(f.Value)
		}
	}
}

// compositeElems emits the functions compositeElem names.
func (g *generator) compositeElems(p *printer) {
	g.findComposites()
	for _, v := range g.compositeList {
		name := g.composite[elemKey(v)]
		view := g.viewOf(v)
		p.P()
		p.F("/// The elements of `[]%s` lists.", v.Type.String())
		p.Block("pub(crate) fn "+name+"<'a>() -> rt::Elem<'a, "+view+"> {", "}", func() {
			d := "d"
			if !usesDepth(v) {
				d = "_"
			}
			check := closure("r, "+d, g.viewResult(v, "d")+".map(drop)")
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
			p.F("unsafe { rt::Elem::new(check, %s, %d) }", g.hintExpr(v), fixedSize(v))
		})
	}
}

// validExpr reads a value of v that was validated, without checks, from
// `b` at `*p`. It is used inside `unsafe` code whose contract says a
// validated value is there.
func (g *generator) validExpr(v *plan.Value) string {
	switch {
	case v.Op == plan.String:
		return "rt::v_str(b, p)"
	case v.Op.IsArray():
		switch {
		case v.Op == plan.Bytes:
			return "rt::v_bytes(b, p)"
		case v.Op == plan.FixedBytes:
			return fmt.Sprintf("rt::v_byte_array::<%d>(b, p)", v.Len)
		case v.Op.Counted() && scalars(v):
			return fmt.Sprintf("rt::v_scalar_slice::<%s>(b, p)", scalarName(v.Elem.Kind))
		case scalars(v):
			return fmt.Sprintf("rt::v_scalars::<%s, %d>(b, p)", scalarName(v.Elem.Kind), v.Len)
		case v.Op.Counted():
			return fmt.Sprintf("rt::v_list_of(b, p, %d, %s)", fixedSize(v.Elem), g.hintExpr(v.Elem))
		}
		return fmt.Sprintf("rt::v_list(b, p, %d, %d, %s)", v.Len, fixedSize(v.Elem), g.hintExpr(v.Elem))
	case v.Op == plan.Optional:
		inner := g.validExpr(v.Elem)
		if v.Boxed {
			inner = stdBox + "::new(" + inner + ")"
		}
		return "rt::v_option(b, p, " + closure("b, p", inner) + ")"
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.viewName(v.Decl.Decl) + "::read_valid(b, p)"
	case v.Op == plan.Enum:
		return g.name[v.Decl.Decl] + "::read_valid(b, p)"
	}
	return "rt::v_" + scalarName(v.Kind) + "(b, p)"
}

// needsHint: reading a list element of v back needs an rt::Hint other than
// LEAF (a fixed array of numbers, bools or structs, or an array of
// non-scalars).
func needsHint(v *plan.Value) bool {
	switch v.Op {
	case plan.Optional:
		return needsHint(v.Elem)
	case plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		return true
	case plan.PlainArray, plan.Array:
		return !scalars(v)
	}
	return false
}

// hintExpr is the rt::Hint with which list elements of v are read.
func (g *generator) hintExpr(v *plan.Value) string {
	if v.Op == plan.Optional {
		return g.hintExpr(v.Elem)
	}
	if !needsHint(v) {
		return "rt::Hint::LEAF"
	}
	g.findComposites()
	if name, ok := g.hints[elemKey(v)]; ok {
		return name
	}
	panic("rust: no hint for " + v.Type.String())
}

// hintConsts emits the consts hintExpr names.
func (g *generator) hintConsts(p *printer) {
	g.findComposites()
	for _, v := range g.hintList {
		p.P()
		p.F("/// How elements of type `%s` are read back from a validated list.", v.Type.String())
		inner := "None"
		fixed := 0
		if !scalars(v) {
			fixed = fixedSize(v.Elem)
			if h := g.hintExpr(v.Elem); h != "rt::Hint::LEAF" {
				inner = "Some(&" + h + ")"
			}
		}
		fields := []string{
			fmt.Sprintf("counted: %v", v.Op.Counted()),
			fmt.Sprintf("n: %d", v.Len),
			fmt.Sprintf("fixed: %d", fixed),
			"inner: " + inner,
		}
		structLit(p, "const "+g.hints[elemKey(v)]+": rt::Hint = rt::Hint", fields, ";", 18)
	}
}

// validRead emits read_valid and elem for a struct or union: its view, or
// the owned type when that is its own view (life is "'a" or "").
//
// read_valid is sound only because it reads exactly what check (or read)
// accepted: for a struct both are printed from the same steps (readSteps),
// check taking each run with one bounds check and read_valid reading the
// run's fields one by one, each lone field checked and read back by the
// same op.
func (g *generator) validRead(p *printer, pd *plan.Decl, life string) {
	b := "&'a [u8]"
	elemHead := "pub fn elem() -> rt::Elem<'a, Self, impl rt::Check<'a>> {"
	if life == "" {
		b = "&[u8]"
		elemHead = "pub fn elem<'a>() -> rt::Elem<'a, Self, impl rt::Check<'a>> {"
	}
	unsafeOps := true
	switch {
	case pd.Struct != nil:
		unsafeOps = len(pd.Fields) > 0
	case pd.Union != nil:
		// One variant with nothing after its tag: only the tag is skipped.
		unsafeOps = len(pd.Variants) != 1 || len(pd.Variants[0].Fields) > 0
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
			if pd.Union != nil {
				p.P("*_p += 1;")
				p.P(g.unionArm(pd.Variants[0]))
				return
			}
			p.P("Self {}")
			return
		}
		p.Block("unsafe {", "}", func() {
			p.P("// SAFETY: forwarded contract: `read` checked every value read here.")
			if pd.Struct != nil {
				var fields []string
				for _, step := range readSteps(pd) {
					for _, f := range step.Fields {
						fields = append(fields, fieldInit(fieldName(f.Field), g.validExpr(f.Value)))
					}
				}
				structLit(p, "Self", fields, "", 18)
			} else {
				g.unionValid(p, pd)
			}
		})
	})
	p.P()
	p.P("/// How a list view reads elements of this type.")
	p.P("#[doc(hidden)]")
	p.P("#[inline]")
	p.Block(elemHead, "}", func() {
		check, checker := "|r, d| Self::read(r, d + 1).map(drop)", "read"
		if pd.Struct != nil && life != "" && len(pd.Fields) > 0 {
			check, checker = "|r, d| Self::check(r, d + 1)", "check"
		}
		p.F("// SAFETY: `read_valid` reads back exactly what `%s` accepts (the", checker)
		p.P("// same fields in the same order), and the fixed size is the schema's.")
		fixed := pd.Fixed
		if fixed < 0 {
			fixed = 0
		}
		p.wrapped("", call("unsafe { rt::Elem::new", check, "rt::Hint::LEAF", fmt.Sprint(fixed))+" }", "")
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
func (g *generator) unionArm(v *plan.Variant) string {
	vn := "Self::" + pascal(v.Name)
	switch v.Variant.Kind {
	case schema.VariantStruct:
		return vn + "(" + g.validExpr(v.Fields[0].Value) + ")"
	case schema.VariantInline:
		var fields []string
		for _, f := range v.Fields {
			fields = append(fields, fieldName(f.Field)+": "+g.validExpr(f.Value))
		}
		if len(fields) == 0 {
			return vn + " {}"
		}
		return vn + " { " + strings.Join(fields, ", ") + " }"
	}
	return vn
}

func (g *generator) unionValid(p *printer, pd *plan.Decl) {
	arm := g.unionArm
	if len(pd.Variants) == 1 {
		p.P("*p += 1;")
		p.P(arm(pd.Variants[0]))
		return
	}
	p.Block("match rt::v_u8(b, p) {", "}", func() {
		for i, v := range pd.Variants {
			pat := fmt.Sprint(v.Tag)
			if i == len(pd.Variants)-1 {
				pat = "_"
			}
			if v.Variant.Kind == schema.VariantInline && len(v.Fields) > 0 {
				var fields []string
				for _, f := range v.Fields {
					fields = append(fields, fieldName(f.Field)+": "+g.validExpr(f.Value))
				}
				structLit(p, pat+" => Self::"+pascal(v.Name), fields, ",", 18)
				continue
			}
			p.F("%s => %s,", pat, arm(v))
		}
	})
}

// toOwned converts the view x of a value of v to the owned value. isRef
// says x is a reference to the view value rather than the value (or a
// place) itself.
func (g *generator) toOwned(v *plan.Value, x string, isRef bool, level int) string {
	if !g.borrows(v) {
		// The view type is the owned type.
		switch {
		case !g.copyOwned(v):
			return x + ".clone()"
		case isRef:
			return "*" + x
		}
		return x
	}
	switch {
	case v.Op == plan.String:
		if isRef {
			return "(*" + x + ").to_owned()"
		}
		return x + ".to_owned()"
	case v.Op.IsArray():
		switch {
		case v.Op == plan.Bytes:
			return x + ".to_vec()"
		case g.boxed(v) && scalars(v):
			return "rt::boxed(" + x + ".to_vec())"
		case v.Op == plan.FixedBytes:
			if isRef {
				return "**" + x
			}
			return "*" + x
		case v.Op.Counted() && scalars(v):
			return x + ".to_vec()"
		case scalars(v):
			return x + ".to_array()"
		}
		list := x
		if isRef {
			list = "*" + x
		}
		e := loopVar("e", level)
		conv := g.toOwned(v.Elem, e, false, level+1)
		f := closure(e, conv)
		if conv == e {
			f = "::core::convert::identity"
		}
		if g.boxed(v) {
			return fmt.Sprintf("rt::boxed(rt::map_list(%s, %s))", list, f)
		}
		if !v.Op.Counted() {
			if !g.defaultable(v.Elem) {
				return call("rt::map_array_or", list, flat(f), "|| "+flat(g.defaultExpr(v.Elem)))
			}
			return fmt.Sprintf("rt::map_array(%s, %s)", list, f)
		}
		return fmt.Sprintf("rt::map_list(%s, %s)", list, f)
	case v.Op == plan.Optional:
		ref := x
		if !isRef {
			ref = "&" + x
		}
		o := loopVar("v", level)
		if v.Boxed {
			return fmt.Sprintf("rt::option_box(%s, %s)", ref, closure(o, g.toOwned(v.Elem, o, true, level+1)))
		}
		return fmt.Sprintf("rt::option_map(%s, %s)", ref, closure(o, g.toOwned(v.Elem, o, true, level+1)))
	case v.Op == plan.Struct || v.Op == plan.Union:
		return x + ".to_owned_value()"
	}
	panic("rust: no view conversion for " + v.Op.String())
}

// structCheck emits check, which validates a struct view exactly as read
// does (same errors) without building it: list elements are checked once
// when their view is decoded and built only when they are iterated. Its
// steps are read_valid's (validRead).
func (g *generator) structCheck(p *printer, pd *plan.Decl) {
	p.P("/// Validates a value as `read` does, without building it.")
	p.P("#[doc(hidden)]")
	p.Fn("pub fn check", []string{"r: &mut rt::Reader<'a>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.wrapped("", call(g.readStruct(), "r", "depth", fmt.Sprintf("%q", pd.Name()), "Self::check_fields", g.name[pd.Decl]+"::field_at"), "")
	})
	p.P()
	p.Fn("fn check_fields", []string{"r: &mut rt::Reader<'a>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.P("r.enter(depth)?;")
		for _, step := range readSteps(pd) {
			if r := step.Run; r != nil {
				var bools []plan.Leaf
				for _, l := range r.Leaves {
					if l.Value.Kind == schema.Bool {
						bools = append(bools, l)
					}
				}
				if len(bools) == 0 {
					p.F("%s;", take(r))
					continue
				}
				p.F("let run = %s;", take(r))
				for _, l := range bools {
					p.F("r.bool_in(run, %d)?;", l.Offset)
				}
				continue
			}
			v := step.Fields[0].Value
			if v.Op == plan.Struct && g.hasView[v.Decl.Decl] && len(v.Decl.Fields) > 0 {
				p.F("%s::check(r, depth + 1)?;", g.view[v.Decl.Decl])
			} else {
				p.wrapped("", g.viewResult(v, "depth"), "?;")
			}
		}
		p.P("Ok(())")
	})
}
