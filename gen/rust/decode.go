package rust

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
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
			switch pd := g.plan.Of(d); {
			case pd.Struct != nil:
				g.readWrapper(p, d, "'_", "Self")
				p.P()
				g.structRead(p, pd, "'_", g.ownedValue)
				if len(pd.Fields) > 0 {
					p.P()
					g.fieldAt(p, pd)
				}
				p.P()
				g.readIntoStruct(p, pd)
			case pd.Enum != nil:
				g.enumRead(p, pd.Enum)
			case pd.Union != nil:
				g.readWrapper(p, d, "'_", "")
				p.P()
				g.unionRead(p, pd, "'_", g.ownedValue)
				p.P()
				g.unionPathAt(p, pd)
				p.P()
				g.readIntoUnion(p, pd)
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
	if g.plan.Charges {
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
func (g *generator) fieldAt(p *printer, pd *plan.Decl) {
	p.P("#[doc(hidden)]")
	p.P("#[cold]")
	p.Fn("pub fn field_at", []string{"mut r: rt::Reader<'_>", "depth: u32", "at: usize", "path: &mut " + stdString}, stdOption+"<&'static str>", func() {
		p.P("let r = &mut r;")
		p.P("let _ = at;")
		p.P("r.enter(depth).ok()?;")
		g.locateFields(p, pd.Fields, "depth", func(f *plan.Field) string { return fmt.Sprintf("Some(%q)", pd.Name()+"."+f.Name) })
		p.P("None")
	})
}

// locateFields emits the search for the field that fails among fields,
// read at depth: its name goes on the path, then the search goes on inside
// it (locate), then the function returns ret(field).
func (g *generator) locateFields(p *printer, fields []*plan.Field, depth string, ret func(*plan.Field) string) {
	for _, f := range fields {
		p.P("let before = r.clone();")
		p.wrapped("if rt::failed(", g.viewResult(f.Value, depth), ") {")
		p.In()
		p.P("*r = before;")
		p.F("rt::push_field(path, %q);", f.Name)
		g.locate(p, f.Value, depth, ret(f))
		p.P(returnStmt(ret(f)))
		p.Out()
		p.P("}")
	}
}

// locate emits the search inside a value of v that fails to decode at
// offset at, r at its start: array indexes, union variants and inline
// fields go on the path; it stops at a struct (whose field_at goes on) or
// where the value's own count, presence byte or tag is the problem.
func (g *generator) locate(p *printer, v *plan.Value, depth, ret string) {
	stop := func(cond string) {
		p.F("if %s {", cond)
		p.In()
		p.P(returnStmt(ret))
		p.Out()
		p.P("}")
	}
	switch {
	case v.Op.IsArray():
		elem := v.Elem
		if scalars(v) {
			// Read in one piece: the element from the offset.
			size := elem.Fixed
			first := "r.position()"
			if v.Op.Counted() {
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
		n := fmt.Sprint(v.Len)
		if v.Op.Counted() {
			stop("at == r.position()")
			count := fmt.Sprintf("r.count(%d)", v.MinElem)
			if c := v.Charge; c > 0 {
				count = fmt.Sprintf("r.charged_count(%d, %d)", v.MinElem, c)
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
	case v.Op == plan.Optional:
		stop("at == r.position()")
		stop("!matches!(r.presence(), Ok(true))")
		g.locate(p, v.Elem, depth, ret)
	case v.Op == plan.Union:
		// The union's own function: unions can recurse through their
		// inline fields.
		p.F("%s::path_in(r.clone(), %s + 1, at, path);", g.name[v.Decl.Decl], depth)
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
func (g *generator) unionPathAt(p *printer, pd *plan.Decl) {
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
		arm := func(v *plan.Variant) {
			p.F("rt::push_field(path, %q);", v.Name)
			if v.Variant.Kind == schema.VariantInline {
				g.locateFields(p, v.Fields, "depth", func(*plan.Field) string { return "" })
			}
		}
		if len(pd.Variants) == 1 {
			p.F("if let Ok(%d) = r.u8() {", pd.Variants[0].Tag)
			p.In()
			arm(pd.Variants[0])
			p.Out()
			p.P("}")
			return
		}
		p.P("match r.u8() {")
		p.In()
		for _, v := range pd.Variants {
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

// valueFn gives the expression (with `?`) that reads a value of v.
type valueFn func(v *plan.Value, depth string) string

// decodeRuns are the runs the decoders read as one array (Reader::run):
// two or more numbers and bools, at most 64 bytes (Reader::run's masks are
// u64). structRead, read_fields_into, check and read_valid all read a
// struct's fields in these steps.
var decodeRuns = plan.RunRule{MaxSize: 64, MinFields: 2}

// readSteps groups a struct's fields into the steps its decoders read.
func readSteps(pd *plan.Decl) []plan.Step { return plan.Group(pd.Fields, decodeRuns) }

// hasRun: some step is a run.
func hasRun(steps []plan.Step) bool {
	for _, s := range steps {
		if s.Run != nil {
			return true
		}
	}
	return false
}

func (g *generator) structRead(p *printer, pd *plan.Decl, life string, value valueFn) {
	p.Fn("fn read_fields", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		p.P("r.enter(depth)?;")
		steps := readSteps(pd)
		if len(pd.Fields) > 0 && !hasRun(steps) {
			var fields []string
			for _, f := range pd.Fields {
				fields = append(fields, fieldName(f.Field)+": "+value(f.Value, "depth"))
			}
			structLit(p, "Ok(Self", fields, ")", 18)
			return
		}
		// Runs of numbers and bools are bounds-checked once: the run is
		// taken as a fixed-size array and its fields read at constant
		// offsets. Fields are read in order into locals.
		var inits []string
		for _, step := range steps {
			if step.Run != nil {
				decodeRun(p, step.Run, func(l plan.Leaf) string { return "let " + localName(l.Path[0]) })
			} else {
				f := step.Fields[0]
				p.wrapped("let "+localName(f.Field)+" = ", value(f.Value, "depth"), ";")
			}
			for _, f := range step.Fields {
				inits = append(inits, fieldInit(fieldName(f.Field), localName(f.Field)))
			}
		}
		structLit(p, "Ok(Self", inits, ")", 18)
	})
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

// take is the expression that takes a run from the reader, with
// Reader::run's masks: bit i set where a field, a bool starts.
func take(r *plan.Run) string {
	var starts, bools uint64
	for _, l := range r.Leaves {
		starts |= 1 << uint(l.Offset)
		if l.Value.Kind == schema.Bool {
			bools |= 1 << uint(l.Offset)
		}
	}
	return fmt.Sprintf("r.run::<%d>(%#x, %#x)?", r.Size, starts, bools)
}

// decodeRun reads a run of number and bool fields with one bounds check;
// dst(leaf) is where each field goes (`let x`, `self.x`).
func decodeRun(p *printer, r *plan.Run, dst func(plan.Leaf) string) {
	p.F("let run = %s;", take(r))
	for _, l := range r.Leaves {
		if l.Value.Kind == schema.Bool {
			p.F("%s = r.bool_in(run, %d)?;", dst(l), l.Offset)
		} else {
			p.F("%s = rt::at::<%s, %d>(run, %d);", dst(l), scalarName(l.Value.Kind), r.Size, l.Offset)
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

func (g *generator) unionRead(p *printer, pd *plan.Decl, life string, value valueFn) {
	p.Fn("fn read_fields", []string{"r: &mut rt::Reader<" + life + ">", "depth: u32"}, "rt::DecodeResult<Self>", func() {
		p.P("r.enter(depth)?;")
		p.Block("match r.u8()? {", "}", func() {
			for _, v := range pd.Variants {
				vn := "Self::" + pascal(v.Name)
				arm := fmt.Sprintf("%d => ", v.Tag)
				switch v.Variant.Kind {
				case schema.VariantUnit:
					p.F("%sOk(%s),", arm, vn)
				case schema.VariantStruct:
					p.F("%sOk(%s(%s)),", arm, vn, value(v.Fields[0].Value, "depth"))
				case schema.VariantInline:
					var fields []string
					for _, f := range v.Fields {
						fields = append(fields, fieldName(f.Field)+": "+value(f.Value, "depth"))
					}
					structLit(p, arm+"Ok("+vn, fields, "),", 18)
				}
			}
			p.P("tag => Err(r.back(1, rt::DecodeErrorKind::UnknownUnionTag(tag))),")
		})
	})
}

// ownedValue reads a value of v in the owned types.
func (g *generator) ownedValue(v *plan.Value, depth string) string {
	switch v.Op {
	case plan.String:
		return "r.string()?"
	case plan.Bytes:
		return "r.bytes()?.to_vec()"
	}
	return g.ownedResult(v, depth) + "?"
}

// ownedResult is an expression of type DecodeResult<T> that reads a value
// of v.
func (g *generator) ownedResult(v *plan.Value, depth string) string {
	switch v.Op {
	case plan.String:
		return "r.string()"
	case plan.Bytes:
		return "r.bytes().map(<[u8]>::to_vec)"
	case plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		switch {
		case v.Op.Counted() && scalars(v):
			return fmt.Sprintf("r.scalar_vec::<%s>()", scalarName(v.Elem.Kind))
		case scalars(v) && g.boxed(v):
			return fmt.Sprintf("r.boxed_scalars::<%s, %d>()", scalarName(v.Elem.Kind), v.Len)
		case scalars(v):
			return fmt.Sprintf("r.scalar_array::<%s, %d>()", scalarName(v.Elem.Kind), v.Len)
		case v.Op == plan.PlainArray || v.Op == plan.FixedPlain:
			return g.plainRead(v, depth)
		case v.Op == plan.Array && v.Charge > 0:
			return fmt.Sprintf("r.charged_vec(%d, %d, %s)", v.MinElem, v.Charge, g.ownedCallable(v.Elem, depth))
		case v.Op == plan.Array:
			return fmt.Sprintf("r.vec(%d, %s)", v.MinElem, g.ownedCallable(v.Elem, depth))
		case g.boxed(v):
			return fmt.Sprintf("r.boxed_array(%s)", g.ownedCallable(v.Elem, depth))
		}
		return fmt.Sprintf("r.array(%s)", g.ownedCallable(v.Elem, depth))
	case plan.Optional:
		if c := v.Charge; c > 0 {
			return fmt.Sprintf("r.charged_option_box(%d, %s)", c, closure("r", g.ownedResult(v.Elem, depth)))
		}
		if v.Boxed {
			return "r.option_box(" + closure("r", g.ownedResult(v.Elem, depth)) + ")"
		}
		return fmt.Sprintf("r.option(%s)", g.ownedCallable(v.Elem, depth))
	case plan.Struct, plan.Union:
		return fmt.Sprintf("%s::read(r, %s + 1)", g.name[v.Decl.Decl], depth)
	case plan.Enum:
		return g.name[v.Decl.Decl] + "::read(r)"
	}
	return "r." + scalarName(v.Kind) + "()"
}

// ownedCallable is a closure (or path) reading one value of v from a
// reader `r`.
func (g *generator) ownedCallable(v *plan.Value, depth string) string {
	if v.Op == plan.Enum {
		return g.name[v.Decl.Decl] + "::read"
	}
	return closure("r", g.ownedResult(v, depth))
}
