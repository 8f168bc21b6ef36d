package rust

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// decodeRs emits the owned decoders: decode, decode_with, decode_prefix and
// the readers they share.
func (g *generator) decodeRs() []byte {
	docs := []string{"Decoding into the owned types: strict, bounds-checked, never panics."}
	return g.module(docs, []string{"crate::rt", "crate::types::*", "crate::views::*"}, func(p *printer) {
		g.decodeBody(p)
	})
}

func (g *generator) decodeBody(p *printer) {
	for _, d := range g.s.Decls {
		p.P()
		name := g.name[d]
		p.Block("impl "+name+" {", "}", func() {
			_, isEnum := d.(*schema.Enum)
			_, isUnion := d.(*schema.Union)
			read := "Self::read"
			switch {
			case isEnum:
				read = "|r, _| Self::read(r)"
			case isUnion:
				read = "Self::read_top"
			}
			decodeAPI(p, name, "", read)
			p.P()
			readInto := "Self::read_into"
			switch {
			case isEnum:
				readInto = closure("v, r, _", "Self::read(r).map("+closure("e", "*v = e")+")")
			case isUnion:
				readInto = "Self::read_top_into"
			}
			intoAPI(p, readInto)
			p.P()
			p.P("#[doc(hidden)]")
			switch d := d.(type) {
			case *schema.Struct:
				g.readWrapper(p, d, "'_", "Self")
				p.P()
				g.structRead(p, d, "'_", g.ownedValue)
				if len(d.Fields) > 0 {
					p.P()
					g.fieldAt(p, d)
				}
				p.P()
				g.readIntoStruct(p, d)
			case *schema.Enum:
				g.enumRead(p, d)
			case *schema.Union:
				g.readWrapper(p, d, "'_", "")
				p.P()
				g.unionRead(p, d, "'_", g.ownedValue)
				p.P()
				g.unionPathAt(p, d)
				p.P()
				g.readIntoUnion(p, d)
				p.P()
				topUnionRead(p, "Self", "'_", true)
			}
		})
		if _, isEnum := d.(*schema.Enum); isEnum {
			validImpl(p, "impl<'a> rt::Valid<'a> for "+name)
		}
	}
}

// decodeAPI emits decode, decode_with and decode_prefix. life is the
// lifetime of the input ("'a" for views, "" for owned types).
func decodeAPI(p *printer, name, life, read string) {
	bytes := "&" + life + " [u8]"
	if life == "" {
		bytes = "&[u8]"
	}
	p.F("/// Decodes a value that fills `bytes` exactly, with the default options")
	p.F("/// (nesting depth %d).", 64)
	p.Block("pub fn decode(bytes: "+bytes+") -> rt::DecodeResult<Self> {", "}", func() {
		p.P("Self::decode_with(bytes, rt::DecodeOptions::new())")
	})
	p.P()
	p.P("/// Decodes a value that fills `bytes` exactly, with the given options.")
	p.Fn("pub fn decode_with", []string{"bytes: " + bytes, "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
		p.F("rt::decode_all(bytes, opts, %s)", read)
	})
	p.P()
	p.P("/// Decodes a value at the start of `bytes`; returns it with the number of")
	p.P("/// bytes it used.")
	p.Fn("pub fn decode_prefix", []string{"bytes: " + bytes}, "rt::DecodeResult<(Self, usize)>", func() {
		p.P("Self::decode_prefix_with(bytes, rt::DecodeOptions::new())")
	})
	p.P()
	p.P("/// Decodes a value at the start of `bytes`, with the given options; returns it")
	p.P("/// with the number of bytes it used.")
	p.Fn("pub fn decode_prefix_with", []string{"bytes: " + bytes, "opts: rt::DecodeOptions"}, "rt::DecodeResult<(Self, usize)>", func() {
		p.F("rt::decode_prefix(bytes, opts, %s)", read)
	})
}

// topUnionRead emits read_top, the read function of a union decoded on its
// own (not as a field): Self::read, with the variant and the fields inside it
// put in front of an error's path by owner's path_in, as a struct does for a
// union field; for owned types (into) also read_top_into, the same for
// decode_into.
func topUnionRead(p *printer, owner, life string, into bool) {
	p.P("/// Reads the union as a whole input's value: an error's path starts with the variant.")
	p.Fn("fn read_top", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		p.F("rt::read_top_union(r, depth, Self::read, %s::path_in)", owner)
	})
	if into {
		p.P()
		p.P("/// Like `read_top`, decoding into `self`.")
		p.Fn("fn read_top_into", []string{"&mut self", "r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<()>", func() {
			p.F("rt::read_top_union(r, depth, |r, d| self.read_into(r, d), %s::path_in)", owner)
		})
	}
}

// readWrapper emits `read`, which names the type (and, for a struct with
// fields, the field, found by owner's field_at) in errors from inside it.
func (g *generator) readWrapper(p *printer, d schema.Decl, life, owner string) {
	name := d.DeclName()
	p.Fn("pub fn read", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		if st, ok := d.(*schema.Struct); ok && len(st.Fields) > 0 {
			p.wrapped("", call(g.readStruct(), "r", "depth", fmt.Sprintf("%q", name), "Self::read_fields", owner+"::field_at"), "")
			return
		}
		p.F("Self::read_fields(r, depth).map_err(|e| e.inside(%q))", name)
	})
}

// readStruct is the runtime function that reads a struct and names the
// field that failed: schemas with memory charges (rule 11) re-read it with
// the memory total it started with, which the others need not keep.
func (g *generator) readStruct() string {
	if g.s.HasMemoryCharges() {
		return "rt::read_struct_charged"
	}
	return "rt::read_struct"
}

// fieldAt emits field_at, which re-reads a struct that failed to decode to
// name the field that failed and to write the struct's part of the error's
// field path (docs/wire-format.md, "Where an error is"): the field, and
// within it array indexes, union variants and their fields, up to the
// failure or to the next struct, whose own field_at writes the rest. It
// runs on the error path only; at is the error's offset.
func (g *generator) fieldAt(p *printer, st *schema.Struct) {
	p.P("#[doc(hidden)]")
	p.P("#[cold]")
	p.Fn("pub fn field_at", []string{"mut r: rt::Reader<'_>", "depth: u32", "at: usize", "path: &mut " + stdString}, stdOption+"<&'static str>", func() {
		p.P("let r = &mut r;")
		p.P("let _ = at;")
		p.P("r.enter(depth).ok()?;")
		g.locateFields(p, st.Fields, "depth", func(f *schema.Field) string { return fmt.Sprintf("Some(%q)", st.Name+"."+f.Name) })
		p.P("None")
	})
}

// locateFields emits the search for the field that fails among fields,
// read at depth: its name goes on the path, then the search goes on inside
// it (locate), then the function returns ret(field).
func (g *generator) locateFields(p *printer, fields []*schema.Field, depth string, ret func(*schema.Field) string) {
	for _, f := range fields {
		p.P("let before = r.clone();")
		p.wrapped("if rt::failed(", g.viewResult(f.Type, depth), ") {")
		p.In()
		p.P("*r = before;")
		p.F("rt::push_field(path, %q);", f.Name)
		g.locate(p, f.Type, depth, ret(f))
		p.P(returnStmt(ret(f)))
		p.Out()
		p.P("}")
	}
}

// locate emits the search inside a value of type t that fails to decode at
// offset at, r at its start: array indexes, union variants and inline
// fields go on the path; it stops at a struct (whose field_at goes on) or
// where the value's own count, presence byte or tag is the problem.
func (g *generator) locate(p *printer, t *schema.Type, depth, ret string) {
	stop := func(cond string) {
		p.F("if %s {", cond)
		p.In()
		p.P(returnStmt(ret))
		p.Out()
		p.P("}")
	}
	switch t.Kind {
	case schema.Array, schema.FixedArray:
		elem := t.Elem
		if elem.Kind.IsScalar() {
			// Read in one piece: the element from the offset.
			size, _ := elem.FixedSize()
			first := "r.position()"
			if t.Kind == schema.Array {
				first = "r.position() + 4"
			}
			p.F("if at >= %s {", first)
			p.In()
			if size == 1 {
				p.F("rt::push_index(path, at - %s);", strings.ReplaceAll(first, " + 4", " - 4"))
			} else {
				p.F("rt::push_index(path, (at - %s) / %d);", strings.ReplaceAll(first, " + 4", " - 4"), size)
			}
			p.Out()
			p.P("}")
			return
		}
		n := fmt.Sprint(t.Len)
		if t.Kind == schema.Array {
			stop("at == r.position()")
			count := fmt.Sprintf("r.count(%d)", elem.MinSize())
			if c := t.ArrayCharge(); c > 0 {
				count = fmt.Sprintf("r.charged_count(%d, %d)", elem.MinSize(), c)
			}
			p.F("let Ok(n) = %s else {", count)
			p.In()
			p.P(returnStmt(ret))
			p.Out()
			p.P("};")
			n = "n"
		}
		p.F("for i in 0..%s {", n)
		p.In()
		p.P("let before = r.clone();")
		p.wrapped("if rt::failed(", g.viewResult(elem, depth), ") {")
		p.In()
		p.P("*r = before;")
		p.P("rt::push_index(path, i);")
		g.locate(p, elem, depth, ret)
		p.P(returnStmt(ret))
		p.Out()
		p.P("}")
		p.Out()
		p.P("}")
	case schema.Optional:
		stop("at == r.position()")
		stop("!matches!(r.presence(), Ok(true))")
		g.locate(p, t.Elem, depth, ret)
	case schema.UnionRef:
		// The union's own function: unions can recurse through their
		// inline fields.
		p.F("%s::path_in(r.clone(), %s + 1, at, path);", g.name[t.Union], depth)
	}
}

// returnStmt returns ret, or nothing when ret is empty.
func returnStmt(ret string) string {
	if ret == "" {
		return "return;"
	}
	return "return " + ret + ";"
}

// unionPathAt emits path_in, field_at's part for a union value at r that
// fails at offset at: the variant and, for an inline variant, the search
// among its fields. A bad tag or a union too deep adds nothing.
func (g *generator) unionPathAt(p *printer, u *schema.Union) {
	p.P("#[doc(hidden)]")
	p.P("#[cold]")
	p.P("#[allow(clippy::needless_return)]")
	p.Fn("pub fn path_in", []string{"mut r: rt::Reader<'_>", "depth: u32", "at: usize", "path: &mut " + stdString}, "", func() {
		p.P("let r = &mut r;")
		p.P("let _ = depth;")
		p.P("if at == r.position() {")
		p.In()
		p.P("return;")
		p.Out()
		p.P("}")
		arm := func(v *schema.Variant) {
			p.F("rt::push_field(path, %q);", v.Name)
			if v.Kind == schema.VariantInline {
				g.locateFields(p, v.Fields, "depth", func(*schema.Field) string { return "" })
			}
		}
		if len(u.Variants) == 1 {
			p.F("if let Ok(%d) = r.u8() {", u.Variants[0].Tag)
			p.In()
			arm(u.Variants[0])
			p.Out()
			p.P("}")
			return
		}
		p.P("match r.u8() {")
		p.In()
		for _, v := range u.Variants {
			p.F("Ok(%d) => {", v.Tag)
			p.In()
			arm(v)
			p.Out()
			p.P("}")
		}
		p.P("_ => {}")
		p.Out()
		p.P("}")
	})
}

// valueFn gives the expression (with `?`) that reads a field of type t.
type valueFn func(t *schema.Type, depth string) string

func (g *generator) structRead(p *printer, st *schema.Struct, life string, value valueFn) {
	p.Fn("fn read_fields", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		p.P("r.enter(depth)?;")
		if decodeRun(st.Fields) < 2 && len(st.Fields) > 0 && !hasRun(st.Fields) {
			var fields []string
			for _, f := range st.Fields {
				fields = append(fields, fieldName(f)+": "+value(f.Type, "depth"))
			}
			structLit(p, "Ok(Self", fields, ")", 18)
			return
		}
		// Runs of numbers and bools are bounds-checked once: the run is
		// taken as a fixed-size array and its fields read at constant
		// offsets. Fields are read in order into locals.
		var inits []string
		fields := st.Fields
		for len(fields) > 0 {
			if n := decodeRun(fields); n >= 2 {
				g.decodeRun(p, fields[:n])
				for _, f := range fields[:n] {
					inits = append(inits, fieldInit(fieldName(f), localName(f)))
				}
				fields = fields[n:]
				continue
			}
			f := fields[0]
			p.wrapped("let "+localName(f)+" = ", value(f.Type, "depth"), ";")
			inits = append(inits, fieldInit(fieldName(f), localName(f)))
			fields = fields[1:]
		}
		structLit(p, "Ok(Self", inits, ")", 18)
	})
}

// hasRun: some run of fields is read as one array.
func hasRun(fields []*schema.Field) bool {
	for i := range fields {
		if decodeRun(fields[i:]) >= 2 {
			return true
		}
	}
	return false
}

// maxRun is the most bytes one run reads (Reader::run's masks are u64).
const maxRun = 64

// decodeRun is the number of leading fields that are numbers or bools and
// fit in one run.
func decodeRun(fields []*schema.Field) int {
	n, size := 0, 0
	for n < len(fields) && fields[n].Type.Kind.IsScalar() {
		k, _ := fields[n].Type.FixedSize()
		if size+k > maxRun {
			break
		}
		size += k
		n++
	}
	return n
}

// localName is the local variable a field is read into: its name, unless
// that is one of the decoder's own variables.
func localName(f *schema.Field) string {
	n := fieldName(f)
	switch n {
	case "r", "depth", "run":
		return n + "_"
	}
	return n
}

// fieldRun is a run of number and bool fields read as one array.
type fieldRun struct {
	size          int    // bytes
	starts, bools uint64 // Reader::run's masks: bit i set where a field, a bool starts
	at            []int  // each field's offset in the run
}

func runOf(fields []*schema.Field) fieldRun {
	var r fieldRun
	for _, f := range fields {
		r.at = append(r.at, r.size)
		r.starts |= 1 << uint(r.size)
		if f.Type.Kind == schema.Bool {
			r.bools |= 1 << uint(r.size)
		}
		n, _ := f.Type.FixedSize()
		r.size += n
	}
	return r
}

// take is the expression that takes the run from the reader.
func (r fieldRun) take() string {
	return fmt.Sprintf("r.run::<%d>(%#x, %#x)?", r.size, r.starts, r.bools)
}

// decodeRun reads a run of number and bool fields with one bounds check.
func (g *generator) decodeRun(p *printer, fields []*schema.Field) {
	run := runOf(fields)
	p.F("let run = %s;", run.take())
	for i, f := range fields {
		if f.Type.Kind == schema.Bool {
			p.F("let %s = r.bool_in(run, %d)?;", localName(f), run.at[i])
		} else {
			p.F("let %s = rt::at::<%s, %d>(run, %d);", localName(f), scalarName(f.Type.Kind), run.size, run.at[i])
		}
	}
}

func (g *generator) enumRead(p *printer, e *schema.Enum) {
	base := scalarName(e.Base)
	wide := "v"
	if e.Base != schema.U32 {
		wide = "u32::from(v)"
	}
	p.Block("pub fn read(r: &mut rt::Reader<'_>) -> rt::DecodeResult<Self> {", "}", func() {
		p.F("let v = r.%s()?;", base)
		p.Block(fmt.Sprintf("match Self::from_%s(v) {", base), "}", func() {
			p.P("Some(x) => Ok(x),")
			p.F("None => Err(r.unknown_enum(%s, %d).inside(%q)),", wide, e.Base.Size(), e.Name)
		})
	})
	p.P()
	p.P("/// Reads a value that `read` validated, without checking it again.")
	p.P("///")
	p.P("/// # Safety")
	p.P("///")
	p.P("/// `b[*p..]` must start with a value that `read` accepted.")
	p.P("#[doc(hidden)]")
	p.P("#[inline]")
	p.Block("pub unsafe fn read_valid(b: &[u8], p: &mut usize) -> Self {", "}", func() {
		p.P("// SAFETY: forwarded contract.")
		p.F("Self::from_%s(unsafe { rt::v_%s(b, p) }).unwrap_or_default()", base, base)
	})
	p.P()
	p.P("/// How a list view reads elements of this type.")
	p.P("#[doc(hidden)]")
	p.P("#[inline]")
	p.Block("pub fn elem<'a>() -> rt::Elem<'a, Self, impl rt::Check<'a>> {", "}", func() {
		p.P("// SAFETY: `read_valid` reads back the number `read` accepted.")
		p.wrapped("", call("unsafe { rt::Elem::new", "|r, _| Self::read(r).map(drop)", "rt::Hint::LEAF", fmt.Sprint(e.Base.Size()))+" }", "")
	})
}

func (g *generator) unionRead(p *printer, u *schema.Union, life string, value valueFn) {
	p.Fn("fn read_fields", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		p.P("r.enter(depth)?;")
		p.Block("match r.u8()? {", "}", func() {
			for _, v := range u.Variants {
				vn := "Self::" + pascal(v.Name)
				arm := fmt.Sprintf("%d => ", v.Tag)
				switch v.Kind {
				case schema.VariantUnit:
					p.F("%sOk(%s),", arm, vn)
				case schema.VariantStruct:
					t := &schema.Type{Kind: schema.StructRef, Struct: v.Struct}
					p.F("%sOk(%s(%s)),", arm, vn, value(t, "depth"))
				case schema.VariantInline:
					var fields []string
					for _, f := range v.Fields {
						fields = append(fields, fieldName(f)+": "+value(f.Type, "depth"))
					}
					structLit(p, arm+"Ok("+vn, fields, "),", 18)
				}
			}
			p.P("tag => Err(r.back(1, rt::DecodeErrorKind::UnknownUnionTag(tag))),")
		})
	})
}

// ownedValue reads a field of the owned types.
func (g *generator) ownedValue(t *schema.Type, depth string) string {
	switch {
	case t.Kind == schema.String:
		return "r.string()?"
	case t.Kind == schema.Array && t.Elem.Kind == schema.U8:
		return "r.bytes()?.to_vec()"
	}
	return g.ownedResult(t, depth) + "?"
}

// ownedResult is an expression of type DecodeResult<T> that reads a t.
func (g *generator) ownedResult(t *schema.Type, depth string) string {
	switch t.Kind {
	case schema.String:
		return "r.string()"
	case schema.Array, schema.FixedArray:
		switch {
		case t.Kind == schema.Array && t.Elem.Kind == schema.U8:
			return "r.bytes().map(<[u8]>::to_vec)"
		case t.Kind == schema.Array && isScalarElem(t.Elem):
			return fmt.Sprintf("r.scalar_vec::<%s>()", scalarName(t.Elem.Kind))
		case isScalarElem(t.Elem) && g.boxedArray(t):
			return fmt.Sprintf("r.boxed_scalars::<%s, %d>()", scalarName(t.Elem.Kind), t.Len)
		case isScalarElem(t.Elem):
			return fmt.Sprintf("r.scalar_array::<%s, %d>()", scalarName(t.Elem.Kind), t.Len)
		case plainArray(t):
			return g.plainRead(t, depth)
		case t.Kind == schema.Array && t.ArrayCharge() > 0:
			return fmt.Sprintf("r.charged_vec(%d, %d, %s)", t.Elem.MinSize(), t.ArrayCharge(), g.ownedCallable(t.Elem, depth))
		case t.Kind == schema.Array:
			return fmt.Sprintf("r.vec(%d, %s)", t.Elem.MinSize(), g.ownedCallable(t.Elem, depth))
		case g.boxedArray(t):
			return fmt.Sprintf("r.boxed_array(%s)", g.ownedCallable(t.Elem, depth))
		}
		return fmt.Sprintf("r.array(%s)", g.ownedCallable(t.Elem, depth))
	case schema.Optional:
		if c := t.PresenceCharge(); c > 0 {
			return fmt.Sprintf("r.charged_option_box(%d, %s)", c, closure("r", g.ownedResult(t.Elem, depth)))
		}
		if t.Boxed {
			return "r.option_box(" + closure("r", g.ownedResult(t.Elem, depth)) + ")"
		}
		return fmt.Sprintf("r.option(%s)", g.ownedCallable(t.Elem, depth))
	case schema.StructRef, schema.UnionRef:
		return fmt.Sprintf("%s::read(r, %s + 1)", g.name[t.Decl()], depth)
	case schema.EnumRef:
		return g.name[t.Decl()] + "::read(r)"
	}
	return "r." + scalarName(t.Kind) + "()"
}

// ownedCallable is a closure (or path) reading one t from a reader `r`.
func (g *generator) ownedCallable(t *schema.Type, depth string) string {
	if t.Kind == schema.EnumRef {
		return g.name[t.Decl()] + "::read"
	}
	return closure("r", g.ownedResult(t, depth))
}
