package rust

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// Decoding into an existing value (issue #17): decode_into and
// decode_into_with on every type, and the hidden read_into every struct and
// union reads with. A string, vector or box of the value is reused where it
// holds something before and after: strings and vectors keep their
// capacity, the elements a vector keeps are decoded into (recursively), a
// union keeps its variant's storage when the variant is the same, a boxed
// optional present before and after keeps its box. Values without heap
// storage (Copy types) are simply assigned. The wire is read in the same
// order with the same checks and charges as the owned decode, so errors are
// the same; a failed decode resets the value to its default at the public
// entry point only (rt::decode_all_into).

// intoAPI emits decode_into and decode_into_with. read is a function of
// type FnOnce(&mut Self, &mut rt::Reader, u32) -> rt::DecodeResult<()>.
func intoAPI(p *printer, read string) {
	p.P("/// Decodes a value that fills `bytes` exactly into `self`, with the")
	p.P("/// default options, reusing the capacity of its strings, vectors and boxes")
	p.P("/// (steady-state decoding without allocation). The rules, limits and errors")
	p.P("/// are those of `decode`; on an error `self` is reset to its default value.")
	p.Block("pub fn decode_into(&mut self, bytes: &[u8]) -> rt::DecodeResult<()> {", "}", func() {
		p.P("self.decode_into_with(bytes, rt::DecodeOptions::new())")
	})
	p.P()
	p.P("/// Decodes a value that fills `bytes` exactly into `self`, with custom")
	p.P("/// limits, reusing its storage as `decode_into` does; on an error `self` is")
	p.P("/// reset to its default value.")
	p.Fn("pub fn decode_into_with", []string{"&mut self", "bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<()>", func() {
		p.wrapped("", call("rt::decode_all_into", "bytes", "opts", "self", read), "")
	})
}

// readIntoStruct emits read_into and read_fields_into for a struct.
func (g *generator) readIntoStruct(p *printer, pd *plan.Decl) {
	st := pd.Struct
	p.P("#[doc(hidden)]")
	p.Fn("pub fn read_into", []string{"&mut self", "r: &mut rt::Reader<'_>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		if g.ownedCopy[st] {
			p.P("*self = Self::read(r, depth)?;")
			p.P("Ok(())")
			return
		}
		if len(st.Fields) == 0 {
			p.wrapped("", call("rt::read_union_into", "self", "r", "depth", fmt.Sprintf("%q", st.Name), "Self::read_fields_into"), "")
			return
		}
		fn := "rt::read_struct_into"
		if g.plan.Charges {
			fn = "rt::read_struct_charged_into"
		}
		p.wrapped("", call(fn, "self", "r", "depth", fmt.Sprintf("%q", st.Name), "Self::read_fields_into", "Self::field_at"), "")
	})
	if g.ownedCopy[st] {
		return
	}
	p.P()
	p.Fn("fn read_fields_into", []string{"&mut self", "r: &mut rt::Reader<'_>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.P("r.enter(depth)?;")
		for _, step := range readSteps(pd) {
			if step.Run != nil {
				decodeRun(p, step.Run, func(l plan.Leaf) string { return "self." + fieldName(l.Path[0]) })
				continue
			}
			f := step.Fields[0]
			g.intoStmt(p, f.Value, "self."+fieldName(f.Field), "depth")
		}
		p.P("Ok(())")
	})
}

// readIntoUnion emits read_into and read_fields_into for a union.
func (g *generator) readIntoUnion(p *printer, pd *plan.Decl) {
	u := pd.Union
	p.P("#[doc(hidden)]")
	p.Fn("pub fn read_into", []string{"&mut self", "r: &mut rt::Reader<'_>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		if g.ownedCopy[u] {
			p.P("*self = Self::read(r, depth)?;")
			p.P("Ok(())")
			return
		}
		p.wrapped("", call("rt::read_union_into", "self", "r", "depth", fmt.Sprintf("%q", u.Name), "Self::read_fields_into"), "")
	})
	if g.ownedCopy[u] {
		return
	}
	p.P()
	p.Fn("fn read_fields_into", []string{"&mut self", "r: &mut rt::Reader<'_>", "depth: u32"}, "rt::DecodeResult<()>", func() {
		p.P("r.enter(depth)?;")
		p.Block("match r.u8()? {", "}", func() {
			for _, v := range pd.Variants {
				g.variantInto(p, v, len(pd.Variants) == 1)
			}
			p.P("tag => return Err(r.back(1, rt::DecodeErrorKind::UnknownUnionTag(tag))),")
		})
		p.P("Ok(())")
	})
}

// variantInto emits the match arm of one variant: decoding into the
// variant's storage when self holds that variant already and it has heap
// storage, otherwise assigning the variant read as the owned decode does.
// only: the variant is the union's only one (self always holds it).
func (g *generator) variantInto(p *printer, v *plan.Variant, only bool) {
	vn := "Self::" + pascal(v.Name)
	kind := v.Variant.Kind
	assign := func() {
		switch kind {
		case schema.VariantUnit:
			p.F("*self = %s;", vn)
		case schema.VariantStruct:
			p.wrapped("*self = "+vn+"(", g.ownedValue(v.Fields[0].Value, "depth"), ");")
		case schema.VariantInline:
			var fields []string
			for _, f := range v.Fields {
				fields = append(fields, fieldName(f.Field)+": "+g.ownedValue(f.Value, "depth"))
			}
			structLit(p, "*self = "+vn, fields, ";", 18)
		}
	}
	reuse := false
	for _, f := range v.Fields {
		reuse = reuse || !g.copyOwned(f.Value)
	}
	if !reuse {
		p.Block(fmt.Sprintf("%d => {", v.Tag), "}", assign)
		return
	}
	p.Block(fmt.Sprintf("%d => match self {", v.Tag), "},", func() {
		if kind == schema.VariantStruct {
			p.Block(vn+"(x) => {", "}", func() {
				p.F("%s::read_into(x, r, depth + 1)?;", g.name[v.Fields[0].Value.Decl.Decl])
			})
		} else {
			var binds []string
			for _, f := range v.Fields {
				if b := bindName(f.Field); b != fieldName(f.Field) {
					binds = append(binds, fieldName(f.Field)+": "+b)
				} else {
					binds = append(binds, b)
				}
			}
			body := strings.Join(binds, ", ")
			head := vn + " { " + body + " } => {"
			if len(body) > 18 || len(head) > p.width()-len(indent) {
				// One binding per line, as rustfmt writes a long pattern.
				p.Line(vn + " {")
				p.In()
				for _, b := range binds {
					p.Line(b + ",")
				}
				p.Out()
				head = "} => {"
			}
			p.Block(head, "}", func() {
				for _, f := range v.Fields {
					g.intoStmt(p, f.Value, "*"+bindName(f.Field), "depth")
				}
			})
		}
		if !only {
			p.Block("_ => {", "}", assign)
		}
	})
}

// intoStmt emits the statement that reads a value of v into the place
// expression place.
func (g *generator) intoStmt(p *printer, v *plan.Value, place, depth string) {
	if g.copyOwned(v) && !inPlaceArray(v) {
		p.wrapped(place+" = ", g.ownedValue(v, depth), ";")
		return
	}
	p.wrapped("", g.intoExpr(v, place, depth), "?;")
}

// mutRef is a `&mut` expression for the place expression place.
func mutRef(place string) string {
	if strings.HasPrefix(place, "*") && !strings.ContainsAny(place[1:], "*.") {
		return place[1:]
	}
	return "&mut " + place
}

// intoExpr is an expression of type rt::DecodeResult<()> that reads a value
// of v into the place expression place.
func (g *generator) intoExpr(v *plan.Value, place, depth string) string {
	if g.copyOwned(v) && inPlaceArray(v) {
		// Read in place: the owned decode of [N]T builds a vector.
		if v.Op == plan.FixedPlain {
			return g.plainAssign(v, mutRef(place), depth)
		}
		return "r.array_assign(" + mutRef(place) + ", " + g.ownedCallable(v.Elem, depth) + ")"
	}
	if g.copyOwned(v) {
		return g.ownedResult(v, depth) + ".map(" + closure("v", place+" = v") + ")"
	}
	dst := mutRef(place)
	elemInto := func(elem *plan.Value) string {
		return closure("r, x", g.intoExpr(elem, "*x", depth))
	}
	if v.Elem != nil && g.copyOwned(v.Elem) {
		// Elements without heap storage are assigned as read (one trailing
		// closure: not marked as arguments, so that rustfmt's overflow of
		// a last closure is what wrapped writes).
		read := g.ownedCallable(v.Elem, depth)
		switch {
		case v.Op == plan.PlainArray || v.Op == plan.FixedPlain:
			return g.plainAssign(v, dst, depth)
		case v.Op.Counted() && v.Charge > 0:
			return fmt.Sprintf("r.charged_vec_assign(%s, %d, %d, %s)", dst, v.MinElem, v.Charge, read)
		case v.Op.Counted() && !scalars(v):
			return fmt.Sprintf("r.vec_assign(%s, %d, %s)", dst, v.MinElem, read)
		case v.Op.IsArray() && !v.Op.Counted() && !scalars(v):
			return "r.array_assign(" + dst + ", " + read + ")"
		case v.Op == plan.Optional && v.Charge > 0:
			return fmt.Sprintf("r.charged_option_box_assign(%s, %d, %s)", dst, v.Charge, read)
		case v.Op == plan.Optional:
			return "r.option_box_assign(" + dst + ", " + read + ")"
		}
	}
	switch {
	case v.Op == plan.String:
		return "r.string_into(" + dst + ")"
	case v.Op.Counted():
		switch {
		case v.Op == plan.Bytes:
			return "r.bytes_into(" + dst + ")"
		case scalars(v):
			return "r.scalar_vec_into(" + dst + ")"
		case v.Charge > 0:
			return call("r.charged_vec_into", dst, fmt.Sprint(v.MinElem), fmt.Sprint(v.Charge), g.ownedCallable(v.Elem, depth), elemInto(v.Elem))
		}
		return call("r.vec_into", dst, fmt.Sprint(v.MinElem), g.ownedCallable(v.Elem, depth), elemInto(v.Elem))
	case v.Op.IsArray():
		// A boxed array is passed as its box: deref coercion finds the array.
		if scalars(v) {
			return "r.scalar_array_into(" + dst + ")"
		}
		return "r.array_into(" + dst + ", " + elemInto(v.Elem) + ")"
	case v.Op == plan.Optional:
		read := closure("r", g.ownedResult(v.Elem, depth))
		if c := v.Charge; c > 0 {
			return call("r.charged_option_box_into", dst, fmt.Sprint(c), read, elemInto(v.Elem))
		}
		if v.Boxed {
			return call("r.option_box_into", dst, read, elemInto(v.Elem))
		}
		return call("r.option_into", dst, g.ownedCallable(v.Elem, depth), elemInto(v.Elem))
	case v.Op == plan.Struct || v.Op == plan.Union:
		return fmt.Sprintf("%s::read_into(%s, r, %s + 1)", g.name[v.Decl.Decl], dst, depth)
	}
	panic("sdp/gen/rust: no heap storage in " + v.Op.String())
}

// inPlaceArray: a [N]T of non-scalar elements, which is read element by
// element into the existing array even when it has no heap storage.
func inPlaceArray(v *plan.Value) bool {
	return v.Op.IsArray() && !v.Op.Counted() && !scalars(v)
}
