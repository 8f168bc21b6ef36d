package rust

import (
	"fmt"
	"strconv"
	"strings"

	"sdp/schema"
)

const outVec = "&mut " + stdVec + "<u8>"

// encodeRs emits encoded_size, encode, encode_to_vec and write_to for every
// type.
func (g *generator) encodeRs() []byte {
	docs := []string{"Encoding: the exact size is computed first, then written with one", "allocation."}
	return g.module(docs, []string{"crate::rt", "crate::types::*"}, func(p *printer) {
		g.encodeBody(p)
	})
}

func (g *generator) encodeBody(p *printer) {
	for _, d := range g.s.Decls {
		p.P()
		name := g.name[d]
		p.Block("impl "+name+" {", "}", func() {
			g.encodeAPI(p, name)
			p.P()
			p.P("#[doc(hidden)]")
			switch d := d.(type) {
			case *schema.Struct:
				g.structEncode(p, d)
			case *schema.Enum:
				g.enumEncode(p, d)
			case *schema.Union:
				g.unionEncode(p, d)
			}
			p.P()
			g.checkLengthsFn(p, d)
		})
	}
}

// encodeAPI emits the public encoding methods shared by every type.
func (g *generator) encodeAPI(p *printer, name string) {
	p.F("/// Appends the encoding to `out`, reserving [`%s::encoded_size`] bytes", name)
	p.P("/// first.")
	p.P("///")
	p.P("/// # Panics")
	p.P("///")
	p.P("/// If a string, byte string or array of the value is longer than the")
	p.F("/// wire format's u32 count allows; [`%s::try_encode`] returns an error", name)
	p.P("/// instead.")
	p.Block("pub fn encode(&self, out: "+outVec+") {", "}", func() {
		p.P("out.reserve(self.encoded_size());")
		p.P("self.encode_raw(out);")
	})
	p.P()
	p.F("/// Encodes into a new vector of exactly [`%s::encoded_size`] bytes.", name)
	p.P("///")
	p.P("/// # Panics")
	p.P("///")
	p.F("/// As [`%s::encode`]; [`%s::try_encode_to_vec`] returns an error instead.", name, name)
	p.Block("pub fn encode_to_vec(&self) -> "+stdVec+"<u8> {", "}", func() {
		p.P("let mut out = ", stdVec, "::with_capacity(self.encoded_size());")
		p.P("self.encode_raw(&mut out);")
		p.P("out")
	})
	p.P()
	p.F("/// Appends the encoding to `out` as [`%s::encode`] does, or returns an", name)
	p.P("/// error, appending nothing, when a string, byte string or array is longer")
	p.P("/// than the wire format's u32 count allows. The lengths are checked one by")
	p.P("/// one only when the encoded size exceeds `u32::MAX`.")
	p.Fn("pub fn try_encode", []string{"&self", "out: " + outVec}, "::core::result::Result<(), rt::EncodeError>", func() {
		p.P("let size = self.encoded_size();")
		p.Block("if !rt::fits_u32(size) {", "}", func() {
			p.P("self.check_lengths()?;")
		})
		p.P("out.reserve(size);")
		p.P("self.encode_raw(out);")
		p.P("Ok(())")
	})
	p.P()
	p.F("/// Encodes into a new vector as [`%s::encode_to_vec`] does, or returns an", name)
	p.F("/// error (see [`%s::try_encode`]).", name)
	p.Fn("pub fn try_encode_to_vec", []string{"&self"}, "::core::result::Result<"+stdVec+"<u8>, rt::EncodeError>", func() {
		p.P("let mut out = ", stdVec, "::new();")
		p.P("self.try_encode(&mut out)?;")
		p.P("Ok(out)")
	})
	p.P()
	p.P("/// Writes the encoding to `w`; a value that cannot be encoded (see")
	p.F("/// [`%s::try_encode`]) is an [`::std::io::ErrorKind::InvalidInput`] error.", name)
	p.Fn("pub fn write_to<W: ::std::io::Write + ?::core::marker::Sized>", []string{"&self", "w: &mut W"}, "::std::io::Result<()>", func() {
		p.P("::std::io::Write::write_all(w, &self.try_encode_to_vec()?)")
	})
}

// checkLengthsFn emits check_lengths, which finds a string, byte string or
// array of the value whose length does not fit the wire's u32 count. Types
// of a fixed size hold none.
func (g *generator) checkLengthsFn(p *printer, d schema.Decl) {
	p.P("/// Checks that every length and count of the value fits the wire's u32.")
	p.P("#[doc(hidden)]")
	var body func()
	switch d := d.(type) {
	case *schema.Struct:
		if schema.DeclReaches(d, lengthy) {
			body = func() {
				for _, f := range d.Fields {
					g.checkValue(p, f.Type, "self."+fieldName(f), false, 0)
				}
			}
		}
	case *schema.Union:
		if schema.DeclReaches(d, lengthy) {
			body = func() { g.unionCheck(p, d) }
		}
	}
	if body == nil {
		p.Fn("pub fn check_lengths", []string{"&self"}, "::core::result::Result<(), rt::EncodeError>", func() {
			p.P("Ok(())")
		})
		return
	}
	// The checks mirror the encoder's loops and matches, not what clippy
	// would write for each one alone.
	p.P("#[allow(clippy::collapsible_match, clippy::manual_flatten)]")
	p.P("#[allow(clippy::single_match)]")
	p.Fn("pub fn check_lengths", []string{"&self"}, "::core::result::Result<(), rt::EncodeError>", func() {
		body()
		p.P("Ok(())")
	})
}

// lengthy is a type with a length or count on the wire: a string, a byte
// string or an array.
func lengthy(t *schema.Type) bool { return t.Kind == schema.String || t.Kind == schema.Array }

// hasLengths reports whether a value of type t can hold a length or count.
func hasLengths(t *schema.Type) bool { return schema.Reaches(t, lengthy) }

// variantChecked reports whether a variant carries lengths.
func variantChecked(v *schema.Variant) bool { return schema.VariantReaches(v, lengthy) }

// unionCheck emits the match of a union's check_lengths over the variants
// that carry lengths.
func (g *generator) unionCheck(p *printer, u *schema.Union) {
	p.Block("match self {", "}", func() {
		rest := false
		for _, v := range u.Variants {
			switch v.Kind {
			case schema.VariantStruct:
				if !variantChecked(v) {
					rest = true
					continue
				}
				variantPattern(p, v, nil, " => v.check_lengths()?,")
			case schema.VariantInline:
				bind := map[*schema.Field]bool{}
				for _, f := range v.Fields {
					if hasLengths(f.Type) {
						bind[f] = true
					}
				}
				if len(bind) == 0 {
					rest = true
					continue
				}
				variantPattern(p, v, bind, " => {")
				p.In()
				for _, f := range v.Fields {
					if bind[f] {
						g.checkValue(p, f.Type, bindName(f), true, 0)
					}
				}
				p.Out()
				p.P("}")
			default:
				rest = true
			}
		}
		if rest {
			p.P("_ => {}")
		}
	})
}

// checkValue emits the checks of the lengths in x of type t (nothing for a
// type of a fixed size). isRef says x is a reference rather than a place.
func (g *generator) checkValue(p *printer, t *schema.Type, x string, isRef bool, level int) {
	if !hasLengths(t) {
		return
	}
	ref := x
	if !isRef {
		ref = "&" + x
	}
	switch t.Kind {
	case schema.String:
		p.F("rt::check_len(%s.len())?;", x)
	case schema.Array, schema.FixedArray:
		if g.boxedArray(t) {
			ref = boxedRef(x, isRef)
		}
		if t.Kind == schema.Array {
			p.F("rt::check_len(%s.len())?;", x)
		}
		if !hasLengths(t.Elem) {
			return
		}
		e := loopVar("e", level)
		p.Block(fmt.Sprintf("for %s in %s {", e, ref), "}", func() {
			g.checkValue(p, t.Elem, e, true, level+1)
		})
	case schema.Optional:
		v := loopVar("v", level)
		if t.Boxed {
			ref = x + ".as_deref()"
		}
		p.Block("if let Some("+v+") = "+ref+" {", "}", func() {
			g.checkValue(p, t.Elem, v, true, level+1)
		})
	case schema.StructRef, schema.UnionRef:
		p.F("%s.check_lengths()?;", x)
	}
}

// size is an encoded size: a constant plus terms computed at run time.
type size struct {
	n     int
	terms []string
}

func (s *size) add(o size) {
	s.n += o.n
	s.terms = append(s.terms, o.terms...)
}

// expr writes the size as one expression.
func (s size) expr() string {
	var parts []string
	if s.n != 0 || len(s.terms) == 0 {
		parts = append(parts, strconv.Itoa(s.n))
	}
	parts = append(parts, s.terms...)
	return strings.Join(parts, " + ")
}

// sizeOf is the encoded size of the value x of type t. isRef says x is a
// reference (a binding) rather than a place (self.field); level numbers the
// closure variables of nested types.
func (g *generator) sizeOf(t *schema.Type, x string, isRef bool, level int) size {
	if n, ok := t.FixedSize(); ok {
		return size{n: n}
	}
	ref := x
	if !isRef {
		ref = "&" + x
	}
	switch t.Kind {
	case schema.String:
		return size{n: 4, terms: []string{x + ".len()"}}
	case schema.Array, schema.FixedArray:
		s := size{}
		if t.Kind == schema.Array {
			s.n = 4
		}
		if g.boxedArray(t) {
			ref = boxedRef(x, isRef)
		}
		if n, ok := t.Elem.FixedSize(); ok {
			if n == 1 {
				s.terms = []string{x + ".len()"}
			} else {
				s.terms = []string{fmt.Sprintf("%s.len() * %d", x, n)}
			}
			return s
		}
		e := loopVar("e", level)
		inner := g.sizeOf(t.Elem, e, true, level+1)
		s.terms = []string{fmt.Sprintf("rt::sum_sizes(%s, %s)", ref, closure(e, inner.expr()))}
		return s
	case schema.Optional:
		v := loopVar("v", level)
		inner := g.sizeOf(t.Elem, v, true, level+1)
		if len(inner.terms) == 0 {
			v = "_"
		}
		fn := "rt::option_size"
		if t.Boxed {
			fn = "rt::option_box_size" // the closure sees the value, not its box
		}
		return size{n: 1, terms: []string{fmt.Sprintf("%s(%s, %s)", fn, ref, closure(v, inner.expr()))}}
	case schema.StructRef, schema.UnionRef:
		return size{terms: []string{x + ".encoded_size()"}}
	}
	panic("rust: no size for " + t.String())
}

// loopVar names the variable of a closure or loop at a nesting level.
func loopVar(base string, level int) string {
	if level == 0 {
		return base
	}
	return base + strconv.Itoa(level)
}

// sizeFn emits encoded_size from a size.
func sizeFn(p *printer, name string, s size) {
	p.F("/// The exact number of bytes [`%s::encode`] appends.", name)
	p.Block("pub fn encoded_size(&self) -> usize {", "}", func() {
		sizeBody(p, s)
	})
}

// sizeBody prints a size as the tail expression of a block.
func sizeBody(p *printer, s size) {
	if e := s.expr(); len(s.terms) <= 1 && len(flat(e)) <= p.width() {
		p.Line(e)
		return
	}
	p.F("let mut n = %d;", s.n)
	for _, t := range s.terms {
		p.wrapped("n += ", t, ";")
	}
	p.P("n")
}

func (g *generator) structEncode(p *printer, st *schema.Struct) {
	var s size
	for _, f := range st.Fields {
		s.add(g.sizeOf(f.Type, "self."+fieldName(f), false, 0))
	}
	if len(st.Fields) == 0 {
		p.P("pub fn encode_raw(&self, _out: ", outVec, ") {}")
	} else {
		p.Block("pub fn encode_raw(&self, out: "+outVec+") {", "}", func() {
			fields := st.Fields
			for len(fields) > 0 {
				n := plainRun(fields)
				if n >= 3 {
					g.encodeRun(p, fields[:n])
					fields = fields[n:]
					continue
				}
				f := fields[0]
				g.encodeValue(p, f.Type, "self."+fieldName(f), false, 0)
				fields = fields[1:]
			}
		})
	}
	p.P()
	sizeFn(p, g.name[st], s)
}

// plainScalar: a field written as a fixed number of bytes from a scalar
// (numbers, bools, enums).
func plainScalar(t *schema.Type) bool { return t.Kind.IsScalar() || t.Kind == schema.EnumRef }

// plainRun is the number of leading fields that are plain scalars.
func plainRun(fields []*schema.Field) int {
	n := 0
	for n < len(fields) && plainScalar(fields[n].Type) {
		n++
	}
	return n
}

// encodeRun writes a run of scalar fields with one append: they are
// assembled in a stack array first, which saves a capacity check per field
// (the encoder's main cost on structs of many small fields).
func (g *generator) encodeRun(p *printer, fields []*schema.Field) {
	total := 0
	for _, f := range fields {
		n, _ := f.Type.FixedSize()
		total += n
	}
	p.F("let mut run = [0u8; %d];", total)
	at := 0
	for _, f := range fields {
		x := "self." + fieldName(f)
		n, _ := f.Type.FixedSize()
		var bytes string
		switch {
		case f.Type.Kind == schema.Bool:
			p.F("run[%d] = u8::from(%s);", at, x)
		case f.Type.Kind == schema.U8:
			p.F("run[%d] = %s;", at, x)
		case f.Type.Kind == schema.EnumRef && f.Type.Enum.Base == schema.U8:
			p.F("run[%d] = %s.to_u8();", at, x)
		case f.Type.Kind == schema.EnumRef:
			bytes = fmt.Sprintf("%s.to_%s().to_le_bytes()", x, scalarName(f.Type.Enum.Base))
		default:
			bytes = x + ".to_le_bytes()"
		}
		if bytes != "" {
			p.F("run[%d..%d].copy_from_slice(&%s);", at, at+n, bytes)
		}
		at += n
	}
	p.P("out.extend_from_slice(&run);")
}

func (g *generator) enumEncode(p *printer, e *schema.Enum) {
	base := scalarName(e.Base)
	p.Block("pub fn encode_raw(&self, out: "+outVec+") {", "}", func() {
		if e.Base == schema.U8 {
			p.P("out.push(self.to_u8());")
		} else {
			p.F("out.extend_from_slice(&self.to_%s().to_le_bytes());", base)
		}
	})
	p.P()
	p.F("/// The exact number of bytes [`%s::encode`] appends.", g.name[e])
	p.Block("pub fn encoded_size(&self) -> usize {", "}", func() {
		p.F("%d", e.Base.Size())
	})
}

// variantFields lists the fields a variant carries.
func variantFields(v *schema.Variant) []*schema.Field { return v.Fields }

// variantPattern is the match pattern of a variant binding the named fields
// (all fields when bind is nil); others are elided with `..`.
func variantPattern(p *printer, v *schema.Variant, bind map[*schema.Field]bool, tail string) {
	vn := "Self::" + pascal(v.Name)
	switch v.Kind {
	case schema.VariantUnit:
		p.Line(vn + tail)
		return
	case schema.VariantStruct:
		if bind == nil || len(bind) > 0 {
			p.Line(vn + "(v)" + tail)
		} else {
			p.Line(vn + "(_)" + tail)
		}
		return
	}
	var fields []string
	rest := false
	for _, f := range v.Fields {
		if bind != nil && !bind[f] {
			rest = true
			continue
		}
		if b := bindName(f); b != fieldName(f) {
			fields = append(fields, fieldName(f)+": "+b)
		} else {
			fields = append(fields, b)
		}
	}
	if rest {
		fields = append(fields, "..")
	}
	structLitPattern(p, vn, fields, tail)
}

// structLitPattern prints a struct pattern; like structLit but `..` takes no
// trailing comma.
func structLitPattern(p *printer, head string, fields []string, tail string) {
	if len(fields) == 0 {
		p.Line(head + " {}" + tail)
		return
	}
	body := strings.Join(fields, ", ")
	line := head + " { " + body + " }" + tail
	if len(body) <= 18 && len(line) <= p.width() {
		p.Line(line)
		return
	}
	p.Line(head + " {")
	p.In()
	for _, f := range fields {
		if f == ".." {
			p.Line(f)
		} else {
			p.Line(f + ",")
		}
	}
	p.Out()
	p.Line("}" + tail)
}

func (g *generator) unionEncode(p *printer, u *schema.Union) {
	p.Block("pub fn encode_raw(&self, out: "+outVec+") {", "}", func() {
		p.Block("match self {", "}", func() {
			for _, v := range u.Variants {
				tag := fmt.Sprintf("out.push(%d)", v.Tag)
				if v.Kind == schema.VariantUnit || (v.Kind == schema.VariantInline && len(v.Fields) == 0) {
					variantPattern(p, v, nil, " => "+tag+",")
					continue
				}
				variantPattern(p, v, nil, " => {")
				p.In()
				p.Line(tag + ";")
				if v.Kind == schema.VariantStruct {
					p.P("v.encode_raw(out);")
				}
				for _, f := range v.Fields {
					g.encodeValue(p, f.Type, bindName(f), true, 0)
				}
				p.Out()
				p.P("}")
			}
		})
	})
	p.P()
	p.F("/// The exact number of bytes [`%s::encode`] appends.", g.name[u])
	p.Block("pub fn encoded_size(&self) -> usize {", "}", func() {
		if n, ok := u.FixedSize(); ok {
			p.F("%d", n)
			return
		}
		p.Block("match self {", "}", func() {
			for _, v := range u.Variants {
				s := size{n: 1}
				bind := map[*schema.Field]bool{}
				switch v.Kind {
				case schema.VariantStruct:
					sv := g.sizeOf(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}, "v", true, 0)
					s.add(sv)
					if len(sv.terms) > 0 {
						bind[nil] = true
					}
				case schema.VariantInline:
					for _, f := range v.Fields {
						fs := g.sizeOf(f.Type, bindName(f), true, 0)
						s.add(fs)
						if len(fs.terms) > 0 {
							bind[f] = true
						}
					}
				}
				if len(s.terms) <= 1 {
					variantPattern(p, v, bind, " => "+s.expr()+",")
					continue
				}
				variantPattern(p, v, bind, " => {")
				p.In()
				sizeBody(p, s)
				p.Out()
				p.P("}")
			}
		})
	})
}

// encodeValue emits the statements that append x of type t. isRef says x is
// a reference (a loop or pattern binding) rather than a place (self.field).
func (g *generator) encodeValue(p *printer, t *schema.Type, x string, isRef bool, level int) {
	ref := x // x as a reference
	val := x // x as a value (scalars)
	if isRef {
		val = "*" + x
	} else {
		ref = "&" + x
	}
	switch t.Kind {
	case schema.Bool:
		p.F("rt::put_bool(out, %s);", val)
	case schema.U8:
		p.F("out.push(%s);", val)
	case schema.String:
		p.F("rt::put_str(out, %s);", ref)
	case schema.Array, schema.FixedArray:
		if g.boxedArray(t) {
			ref = boxedRef(x, isRef)
		}
		switch {
		case t.Kind == schema.Array && t.Elem.Kind == schema.U8:
			p.F("rt::put_bytes(out, %s);", ref)
			return
		case t.Kind == schema.Array && isScalarElem(t.Elem):
			p.F("rt::put_scalars(out, %s);", ref)
			return
		case isScalarElem(t.Elem):
			p.F("rt::put_scalar_array(out, %s);", ref)
			return
		}
		if t.Kind == schema.Array {
			p.F("rt::put_len(out, %s.len());", x)
		}
		if plainArray(t) {
			p.F("rt::put_plain(out, %s);", ref)
			return
		}
		e := loopVar("e", level)
		p.Block(fmt.Sprintf("for %s in %s {", e, ref), "}", func() {
			g.encodeValue(p, t.Elem, e, true, level+1)
		})
	case schema.Optional:
		v := loopVar("v", level)
		if t.Boxed {
			ref = x + ".as_deref()" // bind the value, not its box
		}
		p.Block("match "+ref+" {", "}", func() {
			p.Block("Some("+v+") => {", "}", func() {
				p.P("out.push(1);")
				g.encodeValue(p, t.Elem, v, true, level+1)
			})
			p.P("None => out.push(0),")
		})
	case schema.StructRef, schema.UnionRef, schema.EnumRef:
		p.F("%s.encode_raw(out);", x)
	default:
		p.F("out.extend_from_slice(&%s.to_le_bytes());", x)
	}
}

// boxedRef is a reference to the array in the box x (a place, or with isRef
// a reference to the box).
func boxedRef(x string, isRef bool) string {
	if isRef {
		return "&**" + x
	}
	return "&*" + x
}
