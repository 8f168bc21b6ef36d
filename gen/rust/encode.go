package rust

import (
	"fmt"
	"strconv"
	"strings"

	"sdp/gen/plan"
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
			switch pd := g.plan.Of(d); {
			case pd.Struct != nil:
				g.structEncode(p, pd)
			case pd.Enum != nil:
				g.enumEncode(p, pd.Enum)
			case pd.Union != nil:
				g.unionEncode(p, pd)
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
	p.P("/// than the wire format's u32 count allows (rule `count`, with its path) or")
	p.P("/// the encoding is larger than `usize` counts (rule `size`). The lengths are")
	p.P("/// checked one by one only when the encoded size exceeds `u32::MAX`.")
	p.Fn("pub fn try_encode", []string{"&self", "out: " + outVec}, "::core::result::Result<(), rt::EncodeError>", func() {
		p.P("let size = self.encoded_size();")
		p.P("rt::check_size(size, || self.check_lengths())?;")
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
	pd := g.plan.Of(d)
	switch {
	case pd.Struct != nil && g.lengths[pd]:
		body = func() {
			for _, f := range pd.Fields {
				g.checkValue(p, f.Value, "self."+fieldName(f.Field), false, 0, f.Field.Name, nil)
			}
		}
	case pd.Union != nil && g.lengths[pd]:
		body = func() { g.unionCheck(p, pd) }
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

// hasLengths reports whether a value of v can hold a length or count on
// the wire (a string, a byte string or a counted array).
func (g *generator) hasLengths(v *plan.Value) bool {
	switch {
	case v.Op == plan.String || v.Op.Counted():
		return true
	case v.Op == plan.FixedArray || v.Op == plan.Optional:
		return g.hasLengths(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.lengths[v.Decl]
	}
	return false
}

// findLengths fills lengths, for every struct and union, as a fixpoint over
// the (possibly recursive) declarations.
func (g *generator) findLengths() {
	g.lengths = map[*plan.Decl]bool{}
	for changed := true; changed; {
		changed = false
		for _, pd := range g.plan.Decls {
			if g.lengths[pd] {
				continue
			}
			for _, f := range fieldsOf(pd) {
				if g.hasLengths(f.Value) {
					g.lengths[pd], changed = true, true
					break
				}
			}
		}
	}
}

// unionCheck emits the match of a union's check_lengths over the variants
// that carry lengths.
func (g *generator) unionCheck(p *printer, pd *plan.Decl) {
	p.Block("match self {", "}", func() {
		rest := false
		for _, v := range pd.Variants {
			switch v.Variant.Kind {
			case schema.VariantStruct:
				if !g.hasLengths(v.Fields[0].Value) {
					rest = true
					continue
				}
				variantPattern(p, v.Variant, nil, fmt.Sprintf(" => v.check_lengths().map_err(rt::in_path(%q, &[]))?,", v.Variant.Name))
			case schema.VariantInline:
				bind := map[*schema.Field]bool{}
				for _, f := range v.Fields {
					if g.hasLengths(f.Value) {
						bind[f.Field] = true
					}
				}
				if len(bind) == 0 {
					rest = true
					continue
				}
				variantPattern(p, v.Variant, bind, " => {")
				p.In()
				for _, f := range v.Fields {
					if bind[f.Field] {
						g.checkValue(p, f.Value, bindName(f.Field), true, 0, v.Variant.Name+"."+f.Field.Name, nil)
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

// checkValue emits the checks of the lengths in x, a value of v (nothing
// for a value without lengths). isRef says x is a reference rather than a
// place. An error gets the path of x: field (the schema field's name, with
// its variant's in a union) and the element indices of the loops around
// it.
func (g *generator) checkValue(p *printer, v *plan.Value, x string, isRef bool, level int, field string, idx []string) {
	if !g.hasLengths(v) {
		return
	}
	ref := x
	if !isRef {
		ref = "&" + x
	}
	at := fmt.Sprintf(".map_err(rt::in_path(%q, &[%s]))?;", field, strings.Join(idx, ", "))
	// As rustfmt writes the chains: `rt::check_len(..).map_err(..)?` (one
	// element after its root) on one line when it fits; `x.check_lengths()
	// .map_err(..)?` on one line when it is narrower than 60 columns, else
	// one element a line, a root of at most 4 characters (`self`, `e`)
	// keeping its first element.
	checkLen := func(n string) {
		root := "rt::check_len(" + n + ")"
		if len(root+at) < p.width() {
			p.Line(root + at)
			return
		}
		p.Line(root)
		p.In()
		p.Line(at)
		p.Out()
	}
	checkValue := func(x string) {
		line := x + ".check_lengths()" + at
		if len(x) <= 4 && !strings.Contains(x, ".") {
			// A short binding joins its first element: one element
			// remains, as with check_len.
			checkLen := x + ".check_lengths()"
			if len(line) < p.width() {
				p.Line(line)
				return
			}
			p.Line(checkLen)
			p.In()
			p.Line(at)
			p.Out()
			return
		}
		if len(line) < 60 && len(line) < p.width() {
			p.Line(line)
			return
		}
		p.Line(x)
		p.In()
		p.Line(".check_lengths()")
		p.Line(at)
		p.Out()
	}
	switch v.Op {
	case plan.String:
		checkLen(x + ".len()")
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array, plan.FixedArray:
		if v.Op.Counted() {
			checkLen(x + ".len()")
		}
		if !g.hasLengths(v.Elem) {
			return
		}
		e, i := loopVar("e", level), loopVar("i", level)
		p.Block(fmt.Sprintf("for (%s, %s) in %s.iter().enumerate() {", i, e, x), "}", func() {
			g.checkValue(p, v.Elem, e, true, level+1, field, append(append([]string(nil), idx...), i))
		})
	case plan.Optional:
		o := loopVar("v", level)
		if v.Boxed {
			ref = x + ".as_deref()"
		}
		p.Block("if let Some("+o+") = "+ref+" {", "}", func() {
			g.checkValue(p, v.Elem, o, true, level+1, field, idx)
		})
	case plan.Struct, plan.Union:
		checkValue(x)
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

// expr writes the size as one expression. The additions saturate at
// usize::MAX: a value whose size overflows usize (a 32-bit host, or copies
// of one large value) has the size usize::MAX, which the fallible encoders
// refuse with rule "size" (and the panicking ones panic on) instead of
// wrapping to a smaller size.
func (s size) expr() string {
	if len(s.terms) == 0 {
		return strconv.Itoa(s.n)
	}
	sum := s.terms[0]
	if s.n != 0 {
		sum = fmt.Sprintf("%d_usize.saturating_add(%s)", s.n, sum)
	}
	for _, t := range s.terms[1:] {
		sum = fmt.Sprintf("%s.saturating_add(%s)", sum, t)
	}
	return sum
}

// sizeOf is the encoded size of the value x of v. isRef says x is a
// reference (a binding) rather than a place (self.field); level numbers the
// closure variables of nested types.
func (g *generator) sizeOf(v *plan.Value, x string, isRef bool, level int) size {
	if v.Fixed >= 0 {
		return size{n: v.Fixed}
	}
	ref := x
	if !isRef {
		ref = "&" + x
	}
	switch v.Op {
	case plan.String:
		return size{n: 4, terms: []string{x + ".len()"}}
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array, plan.FixedArray:
		s := size{}
		if v.Op.Counted() {
			s.n = 4
		}
		if g.boxed(v) {
			ref = boxedRef(x, isRef)
		}
		if n := v.Elem.Fixed; n >= 0 {
			if n == 1 {
				s.terms = []string{x + ".len()"}
			} else {
				s.terms = []string{fmt.Sprintf("%s.len().saturating_mul(%d)", x, n)}
			}
			return s
		}
		e := loopVar("e", level)
		inner := g.sizeOf(v.Elem, e, true, level+1)
		s.terms = []string{fmt.Sprintf("rt::sum_sizes(%s, %s)", ref, closure(e, inner.expr()))}
		return s
	case plan.Optional:
		o := loopVar("v", level)
		inner := g.sizeOf(v.Elem, o, true, level+1)
		if len(inner.terms) == 0 {
			o = "_"
		}
		fn := "rt::option_size"
		if v.Boxed {
			fn = "rt::option_box_size" // the closure sees the value, not its box
		}
		return size{n: 1, terms: []string{fmt.Sprintf("%s(%s, %s)", fn, ref, closure(o, inner.expr()))}}
	case plan.Struct, plan.Union:
		return size{terms: []string{x + ".encoded_size()"}}
	}
	panic("rust: no size for " + v.Op.String())
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
	if len(s.terms) <= 1 {
		p.wrapped("", s.expr(), "")
		return
	}
	p.F("let mut n: usize = %d;", s.n)
	for _, t := range s.terms {
		p.wrapped("n = ", "n.saturating_add("+t+")", ";")
	}
	p.P("n")
}

func (g *generator) structEncode(p *printer, pd *plan.Decl) {
	var s size
	for _, f := range pd.Fields {
		s.add(g.sizeOf(f.Value, "self."+fieldName(f.Field), false, 0))
	}
	if len(pd.Fields) == 0 {
		p.P("pub fn encode_raw(&self, _out: ", outVec, ") {}")
	} else {
		p.Block("pub fn encode_raw(&self, out: "+outVec+") {", "}", func() {
			for _, step := range plan.Group(pd.Fields, encodeRuns) {
				if step.Run != nil {
					encodeRun(p, step.Run)
					continue
				}
				f := step.Fields[0]
				g.encodeValue(p, f.Value, "self."+fieldName(f.Field), false, 0)
			}
		})
	}
	p.P()
	sizeFn(p, g.name[pd.Decl], s)
}

// encodeRuns are the runs the encoder writes with one append: three or more
// consecutive scalar or enum fields.
var encodeRuns = plan.RunRule{Enums: true, MinFields: 3}

// encodeRun writes a run of scalar fields with one append: they are
// assembled in a stack array first, which saves a capacity check per field
// (the encoder's main cost on structs of many small fields).
func encodeRun(p *printer, r *plan.Run) {
	p.F("let mut run = [0u8; %d];", r.Size)
	for _, l := range r.Leaves {
		x := "self." + fieldName(l.Path[0])
		at, v := l.Offset, l.Value
		var bytes string
		switch {
		case v.Op == plan.Scalar && v.Kind == schema.Bool:
			p.F("run[%d] = u8::from(%s);", at, x)
		case v.Op == plan.Scalar && v.Kind == schema.U8:
			p.F("run[%d] = %s;", at, x)
		case v.Op == plan.Enum && v.Kind == schema.U8:
			p.F("run[%d] = %s.to_u8();", at, x)
		case v.Op == plan.Enum:
			bytes = fmt.Sprintf("%s.to_%s().to_le_bytes()", x, scalarName(v.Kind))
		default:
			bytes = x + ".to_le_bytes()"
		}
		if bytes != "" {
			p.F("run[%d..%d].copy_from_slice(&%s);", at, at+v.Fixed, bytes)
		}
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

// bindOf is the binding of a variant's field: the struct of a struct
// variant is bound as v.
func bindOf(f *plan.Field) string {
	if f.Field == nil {
		return "v"
	}
	return bindName(f.Field)
}

func (g *generator) unionEncode(p *printer, pd *plan.Decl) {
	p.Block("pub fn encode_raw(&self, out: "+outVec+") {", "}", func() {
		p.Block("match self {", "}", func() {
			for _, v := range pd.Variants {
				tag := fmt.Sprintf("out.push(%d)", v.Tag)
				if len(v.Fields) == 0 {
					variantPattern(p, v.Variant, nil, " => "+tag+",")
					continue
				}
				variantPattern(p, v.Variant, nil, " => {")
				p.In()
				p.Line(tag + ";")
				for _, f := range v.Fields {
					g.encodeValue(p, f.Value, bindOf(f), true, 0)
				}
				p.Out()
				p.P("}")
			}
		})
	})
	p.P()
	p.F("/// The exact number of bytes [`%s::encode`] appends.", g.name[pd.Decl])
	p.Block("pub fn encoded_size(&self) -> usize {", "}", func() {
		if pd.Fixed >= 0 {
			p.F("%d", pd.Fixed)
			return
		}
		p.Block("match self {", "}", func() {
			for _, v := range pd.Variants {
				s := size{n: 1}
				bind := map[*schema.Field]bool{}
				for _, f := range v.Fields {
					fs := g.sizeOf(f.Value, bindOf(f), true, 0)
					s.add(fs)
					if len(fs.terms) > 0 {
						bind[f.Field] = true
					}
				}
				if len(s.terms) <= 1 {
					// One line when it fits, as rustfmt writes an arm;
					// otherwise the expression goes into a block.
					q := newPrinter()
					for i := 0; i < p.depth; i++ {
						q.In()
					}
					variantPattern(q, v.Variant, bind, " => "+s.expr()+",")
					if strings.Count(string(q.Bytes()), "\n") <= 1 {
						variantPattern(p, v.Variant, bind, " => "+s.expr()+",")
						continue
					}
					variantPattern(p, v.Variant, bind, " => {")
					p.In()
					p.wrapped("", s.expr(), "")
					p.Out()
					p.P("}")
					continue
				}
				variantPattern(p, v.Variant, bind, " => {")
				p.In()
				sizeBody(p, s)
				p.Out()
				p.P("}")
			}
		})
	})
}

// encodeValue emits the statements that append x, a value of v. isRef says
// x is a reference (a loop or pattern binding) rather than a place
// (self.field).
func (g *generator) encodeValue(p *printer, v *plan.Value, x string, isRef bool, level int) {
	ref := x // x as a reference
	val := x // x as a value (scalars)
	if isRef {
		val = "*" + x
	} else {
		ref = "&" + x
	}
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.Bool:
			p.F("rt::put_bool(out, %s);", val)
		case schema.U8:
			p.F("out.push(%s);", val)
		default:
			p.F("out.extend_from_slice(&%s.to_le_bytes());", x)
		}
	case plan.String:
		p.F("rt::put_str(out, %s);", ref)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		if g.boxed(v) {
			ref = boxedRef(x, isRef)
		}
		switch {
		case v.Op == plan.Bytes:
			p.F("rt::put_bytes(out, %s);", ref)
			return
		case v.Op.Counted() && scalars(v):
			p.F("rt::put_scalars(out, %s);", ref)
			return
		case scalars(v):
			p.F("rt::put_scalar_array(out, %s);", ref)
			return
		}
		if v.Op.Counted() {
			p.F("rt::put_len(out, %s.len());", x)
		}
		if v.Op == plan.PlainArray || v.Op == plan.FixedPlain {
			p.F("rt::put_plain(out, %s);", ref)
			return
		}
		e := loopVar("e", level)
		p.Block(fmt.Sprintf("for %s in %s {", e, ref), "}", func() {
			g.encodeValue(p, v.Elem, e, true, level+1)
		})
	case plan.Optional:
		o := loopVar("v", level)
		if v.Boxed {
			ref = x + ".as_deref()" // bind the value, not its box
		}
		p.Block("match "+ref+" {", "}", func() {
			p.Block("Some("+o+") => {", "}", func() {
				p.P("out.push(1);")
				g.encodeValue(p, v.Elem, o, true, level+1)
			})
			p.P("None => out.push(0),")
		})
	case plan.Struct, plan.Union, plan.Enum:
		p.F("%s.encode_raw(out);", x)
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
