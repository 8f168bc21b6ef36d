package c

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// reader prints the statements of one read function. The function's locals
// are d (the decoder), p (the cursor), end (the input's end) and depth.
type reader struct {
	g       *generator
	p       *emit.Printer
	usesEnd bool
	// where is the field path, outermost first, of the value whose
	// decoding is being printed: each error return prepends these segments
	// to the error's path (unwind).
	where []pathSeg
}

// pathSeg is one segment of an error's field path: a struct field's or a
// union variant's schema name, or the C expression of an array index.
type pathSeg struct {
	name  string
	index string
}

// within prints body with seg appended to the path its errors report.
func (r *reader) within(seg pathSeg, body func()) {
	r.where = append(r.where, seg)
	body()
	r.where = r.where[:len(r.where)-1]
}

// unwind prints the return of an error already recorded in d: the segments
// of r.where are prepended to its path, innermost first, on this path only
// (a successful decode never runs them).
func (r *reader) unwind() {
	if len(r.where) == 0 {
		r.p.P("return NULL;")
		return
	}
	for i := len(r.where) - 1; i >= 0; i-- {
		w := r.where[i]
		call := fmt.Sprintf("%s_in_field_(d, %q)", r.g.pkg, w.name)
		if w.name == "" {
			r.g.use("in_elem_")
			call = fmt.Sprintf("%s_in_elem_(d, %s)", r.g.pkg, w.index)
		}
		if i == 0 {
			r.p.P("return ", call, ";")
		} else {
			r.p.P(call, ";")
		}
	}
}

// failWith prints the return of the error that call (pfx_fail_) records.
func (r *reader) failWith(call string) {
	if len(r.where) == 0 {
		r.p.P("return ", call, ";")
		return
	}
	r.p.P(call, ";")
	r.unwind()
}

func (r *reader) fail(cond, at, code string) {
	r.p.Block("if ("+cond+") {", "}", func() {
		r.failWith(fmt.Sprintf("%s_fail_(d, %s, %s_ERR_%s)", r.g.pkg, at, r.g.up, code))
	})
}

// need checks that k more bytes are present.
func (r *reader) need(k int) {
	r.usesEnd = true
	if k == 1 {
		r.fail("p == end", "p", "TRUNCATED")
	} else {
		r.fail(fmt.Sprintf("end - p < %d", k), "p", "TRUNCATED")
	}
}

// item is one fixed-size value of a run that needRun checks: a field
// (name) or a value whose path r.where already has (name "").
type item struct {
	name string
	v    *plan.Value
}

// needRun checks that the bytes of the items (scalars, enums and fixed
// arrays of numbers) are present, with one comparison. If not, it fails at
// the first scalar that does not fit, where a reader checking them one by
// one would, with that scalar's path: its field, and in a fixed array its
// element's index, computed on this path only.
func (r *reader) needRun(items []item) {
	r.usesEnd = true
	total := 0
	for _, it := range items {
		total += it.v.Fixed
	}
	if len(items) == 1 && !fixedOp(items[0].v.Op) {
		seg := func() { r.need(total) }
		if items[0].name != "" {
			r.within(pathSeg{name: items[0].name}, seg)
		} else {
			seg()
		}
		return
	}
	pkg, up := r.g.pkg, r.g.up
	r.p.Block(fmt.Sprintf("if (end - p < %d) {", total), "}", func() {
		off := 0
		for _, it := range items {
			k := it.v.Fixed
			at := "p"
			if off > 0 {
				at = fmt.Sprintf("p + %d", off)
			}
			body := func() {
				if !fixedOp(it.v.Op) {
					r.failWith(fmt.Sprintf("%s_fail_(d, %s, %s_ERR_TRUNCATED)", pkg, at, up))
					return
				}
				// The first element that does not fit, by its index in
				// each dimension, innermost last.
				var dims []int
				v := it.v
				for fixedOp(v.Op) {
					dims = append(dims, int(v.Len))
					v = v.Elem
				}
				size := v.Kind.Size()
				left := "end - p"
				if off > 0 {
					left = fmt.Sprintf("end - p - %d", off)
				}
				r.p.F("size_t cut = (size_t)(%s) / %d;", left, size)
				r.p.F("%s_fail_(d, %s + cut * %d, %s_ERR_TRUNCATED);", pkg, at, size, up)
				r.g.use("in_elem_")
				for i := len(dims) - 1; i > 0; i-- {
					r.p.F("%s_in_elem_(d, cut %% %d);", pkg, dims[i])
					r.p.F("cut /= %d;", dims[i])
				}
				r.within(pathSeg{index: "cut"}, r.unwind)
			}
			r.p.Block(fmt.Sprintf("if (end - p < %d) {", off+k), "}", func() {
				if it.name != "" {
					r.within(pathSeg{name: it.name}, body)
				} else {
					body()
				}
			})
			off += k
		}
	})
}

// charge prints rule 11's check: n values of each bytes of nominal size are
// added to the memory total, failing at at when it would exceed the limit.
func (r *reader) charge(n string, each uint64, at string) {
	r.g.use("charge_")
	r.fail(fmt.Sprintf("!%s_charge_(d, %s, %s)", r.g.pkg, n, u64Const(each)), at, "MEMORY")
}

// u64Const is a uint64_t constant expression of v.
func u64Const(v uint64) string {
	if v <= 0xFFFFFFFF {
		return fmt.Sprintf("%du", v)
	}
	return fmt.Sprintf("UINT64_C(%d)", v)
}

// memInit prints the start of rule 11's accounting in a public decode
// function, for the input from p to d.end; nothing for a schema without
// charges.
func (g *generator) memInit(dec string) {
	if !g.pl.Charges {
		return
	}
	g.use("mem_init_")
	g.c.F("%s_mem_init_(%s, p, opt);", g.pkg, dec)
}

// propagate prints the NULL check after a call that returns the cursor.
func (r *reader) propagate() {
	r.p.Block("if (p == NULL) {", "}", func() { r.unwind() })
}

var getFuncs = map[schema.Kind]string{
	schema.U16: "get_u16_", schema.I16: "get_u16_", schema.U32: "get_u32_", schema.I32: "get_u32_",
	schema.U64: "get_u64_", schema.I64: "get_u64_", schema.F32: "get_f32_", schema.F64: "get_f64_",
}

var bulkGet = map[int]string{2: "get_le16s_", 4: "get_le32s_", 8: "get_le64s_"}

// pure reports values whose only possible decode error is truncation:
// numeric scalars and fixed arrays of them.
func pure(v *plan.Value) bool {
	_, _, ok := numbers(v)
	return ok
}

// readRuns groups the fields a reader checks with one bounds check:
// numbers and fixed arrays of them, ended by at most one bool or enum. If
// the check fails, the first error a field-by-field reader would meet is
// truncation too.
var readRuns = plan.RunRule{Enums: true, FixedNumbers: true, NestedNumbers: true, CheckedLast: true, MinFields: 1}

// fields reads a field list, run by run.
func (r *reader) fields(fs []*plan.Field, access string) {
	for _, st := range plan.Group(fs, readRuns) {
		if st.Run == nil {
			f := st.Fields[0]
			r.within(pathSeg{name: f.Name}, func() { r.read(f.Value, access+memberName(f.Name), 0, false) })
			continue
		}
		items := make([]item, len(st.Fields))
		for i, f := range st.Fields {
			items[i] = item{f.Name, f.Value}
		}
		r.needRun(items)
		for _, f := range st.Fields {
			r.within(pathSeg{name: f.Name}, func() { r.read(f.Value, access+memberName(f.Name), 0, true) })
		}
	}
}

// fitsRun reports a value whose bytes one bounds check covers: a scalar,
// an enum, or a fixed array of numbers.
func fitsRun(v *plan.Value) bool {
	return v.Fixed >= 0 && (v.Op == plan.Scalar || v.Op == plan.Enum || pure(v))
}

// read prints statements decoding a v into the lvalue e. checked means the
// bytes of a fixed-size v are known to be present.
func (r *reader) read(v *plan.Value, e string, lvl int, checked bool) {
	g, p, pkg := r.g, r.p, r.g.pkg
	if !checked && fitsRun(v) {
		r.needRun([]item{{"", v}})
		checked = true
	}
	switch v.Op {
	case plan.Scalar:
		switch k := v.Kind; k {
		case schema.Bool:
			r.fail("*p > 1", "p", "BOOL")
			p.F("%s = *p++ != 0;", e)
		case schema.U8:
			p.F("%s = *p++;", e)
		case schema.I8:
			p.F("%s = (int8_t)*p++;", e)
		default:
			f := getFuncs[k]
			g.use(f)
			if k == schema.F32 || k == schema.F64 {
				p.F("%s_%s(&%s, p);", pkg, f, e)
				p.F("p += %d;", k.Size())
				return
			}
			conv := ""
			if k.IsSigned() {
				conv = "(" + scalarTypes[k] + ")"
			}
			p.F("%s = %s%s_%s(p);", e, conv, pkg, f)
			p.F("p += %d;", k.Size())
		}
	case plan.Enum:
		en := v.Decl.Enum
		g.use("enum:" + en.Name)
		valid := g.typeName(en) + "_valid_"
		if v.Kind == schema.U8 {
			r.fail("!"+valid+"(*p)", "p", "ENUM")
			p.F("%s = *p++;", e)
			return
		}
		f := getFuncs[v.Kind]
		g.use(f)
		x := fmt.Sprintf("x%d", lvl)
		p.Block("{", "}", func() {
			p.F("%s %s = %s_%s(p);", enumBase(en), x, pkg, f)
			r.fail("!"+valid+"("+x+")", "p", "ENUM")
			p.F("%s = %s;", e, x)
			p.F("p += %d;", v.Kind.Size())
		})
	case plan.String:
		g.use("read_str_")
		p.F("p = %s_read_str_(d, p, &%s);", pkg, e)
		r.propagate()
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		if k, n, ok := numbers(v); ok {
			if k.Size() == 1 {
				p.F("memcpy(%s, p, %d);", e, n)
			} else {
				f := bulkGet[k.Size()]
				g.use(f)
				p.F("%s_%s(%s, p, %d);", pkg, f, e, n)
			}
			p.F("p += %d;", n*k.Size())
			return
		}
		if v.Op == plan.FixedPlain {
			g.usePlain(v)
			p.F("p = %s_gets_(d, p, %s, %d, depth + 1);", g.typeName(v.Elem.Decl.Decl), e, v.Len)
			r.propagate()
			return
		}
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, v.Len, i), "}", func() {
			r.within(pathSeg{index: i}, func() { r.read(v.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1, checked) })
		})
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		r.array(v, e, lvl)
	case plan.Optional:
		r.need(1)
		r.fail("*p > 1", "p", "PRESENCE")
		if v.Boxed {
			box := fmt.Sprintf("box%d", lvl)
			ifElse(p, "*p++ != 0", func() {
				if v.Charge > 0 {
					r.charge("1", v.Charge, "p - 1")
				}
				g.use("alloc_")
				p.F("%s = (%s)%s_alloc_(d->arena, 1, sizeof *%s);", g.elemDecl(v.Elem.Type, "*"+box, false),
					g.elemDecl(v.Elem.Type, "*", false), pkg, box)
				r.fail(box+" == NULL", "p - 1", "NO_MEMORY")
				r.read(v.Elem, elemOf(v.Elem, box+"[0]"), lvl+1, false)
				p.F("%s = %s;", e, box)
			}, func() { p.F("%s = NULL;", e) })
			return
		}
		ifElse(p, "*p++ != 0", func() {
			p.F("%s.has = true;", e)
			r.read(v.Elem, e+".value", lvl+1, false)
		}, func() {
			p.F("%s.has = false;", e)
			p.F("memset(&%s.value, 0, sizeof %s.value);", e, e)
		})
	case plan.Struct, plan.Union:
		p.F("p = %s_read_(d, p, &%s, depth + 1);", g.typeName(v.Decl.Decl), e)
		r.propagate()
	default:
		panic("c: read " + v.Type.String())
	}
}

// array reads a []T: the count is checked against the remaining input
// (count × minimum element size) before anything is allocated.
func (r *reader) array(v *plan.Value, e string, lvl int) {
	g, p, pkg := r.g, r.p, r.g.pkg
	elem := v.Elem
	n, items := fmt.Sprintf("n%d", lvl), fmt.Sprintf("items%d", lvl)
	p.Block("{", "}", func() {
		p.F("uint32_t %s;", n)
		r.need(4)
		p.F("%s = %s_get_u32_(p);", n, pkg)
		rest := "(size_t)(end - p - 4)"
		if v.MinElem > 1 {
			rest = fmt.Sprintf("%s / %d", rest, v.MinElem)
		}
		r.fail(n+" > "+rest, "p", "COUNT")
		if v.Charge > 0 {
			r.charge(n, v.Charge, "p")
		}
		p.P("p += 4;")
		ifElse(p, n+" == 0", func() {
			p.F("%s.data = NULL;", e)
		}, func() {
			g.use("alloc_")
			p.F("%s = (%s)%s_alloc_(d->arena, %s, sizeof *%s);", g.elemDecl(elem.Type, "*"+items, false),
				g.elemDecl(elem.Type, "*", false), pkg, n, items)
			r.fail(items+" == NULL", "p - 4", "NO_MEMORY")
			switch {
			case v.Op == plan.Bytes || (v.Op == plan.Numbers && v.Kind.Size() == 1):
				p.F("memcpy(%s, p, %s);", items, n)
				p.F("p += %s;", n)
			case v.Op == plan.Numbers:
				f := bulkGet[v.Kind.Size()]
				g.use(f)
				p.F("%s_%s(%s, p, %s);", pkg, f, items, n)
				p.F("p += (size_t)%s * %d;", n, v.Kind.Size())
			case v.Op == plan.PlainArray:
				g.usePlain(v)
				p.F("p = %s_gets_(d, p, %s, %s, depth + 1);", g.typeName(elem.Decl.Decl), items, n)
				r.propagate()
			default:
				i := loopVar(lvl)
				p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s; %s++) {", i, i, n, i), "}", func() {
					r.within(pathSeg{index: i}, func() {
						r.read(elem, elemOf(elem, fmt.Sprintf("%s[%s]", items, i)), lvl+1, fitsRun(elem))
					})
				})
			}
			p.F("%s.data = %s;", e, items)
		})
		p.F("%s.len = %s;", e, n)
	})
}

// readFunc prints a static read function around a body.
func (g *generator) readFunc(name, typ string, body func(r *reader)) {
	p := g.c
	r := &reader{g: g, p: emit.New("    ")}
	body(r)
	p.Block(fmt.Sprintf("static const uint8_t* %s_read_(%s_dec_* d, const uint8_t* p, %s* out, uint32_t depth) {",
		name, g.pkg, typ), "}", func() {
		if r.usesEnd {
			p.P("const uint8_t* const end = d->end;")
		}
		p.Block("if (depth > d->max_depth) {", "}", func() {
			p.F("return %s_fail_(d, p, %s_ERR_DEPTH);", g.pkg, g.up)
		})
		if out := r.p.Bytes(); len(out) > 1 {
			p.Line(string(out[:len(out)-1]))
		}
		p.P("return p;")
	})
	p.P()
}

func (g *generator) structRead(s *schema.Struct) {
	name, d := g.typeName(s), g.pl.Of(s)
	g.readFunc(name, name, func(r *reader) {
		if len(d.Fields) == 0 {
			r.p.P("out->unused_ = 0;")
		}
		r.fields(d.Fields, "out->")
	})
}

func (g *generator) unionRead(u *schema.Union) {
	name, variants := g.typeName(u), g.pl.Of(u).Variants
	payload := false
	for _, v := range variants {
		payload = payload || len(v.Fields) > 0
	}
	g.readFunc(name, name, func(r *reader) {
		p := r.p
		r.need(1)
		r.fail(fmt.Sprintf("*p >= %d", len(variants)), "p", "UNION_TAG")
		p.P("out->tag = *p++;")
		p.P("switch (out->tag) {")
		for _, v := range variants {
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			m := "out->value." + memberName(v.Name)
			switch {
			case (v.Carries != nil):
				r.within(pathSeg{name: v.Name}, func() { r.read(v.Fields[0].Value, m, 0, false) })
			case len(v.Fields) > 0:
				r.within(pathSeg{name: v.Name}, func() { r.fields(v.Fields, m+".") })
			case payload:
				p.P("memset(&out->value, 0, sizeof out->value);")
			}
			p.P("break;")
			p.Out()
		}
		p.P("default:")
		p.In()
		p.P("break;")
		p.Out()
		p.P("}")
	})
}

// enumFuncs prints an enum's name function and, when decoders use it, its
// validity check.
func (g *generator) enumFuncs(e *schema.Enum) {
	p, name := g.c, g.typeName(e)
	p.Block(fmt.Sprintf("const char* %s_name(%s v) {", name, name), "}", func() {
		p.P("switch (v) {")
		for _, v := range e.Values {
			p.F("case %s:", g.valueName(e, v.Name))
			p.In()
			p.F("return %q;", v.Name)
			p.Out()
		}
		p.P("default:")
		p.In()
		p.P("return NULL;")
		p.Out()
		p.P("}")
	})
	p.P()
	g.enumCodec(e)
	p.Block(fmt.Sprintf("static int %s_valid_(uint32_t v) {", name), "}", func() {
		contiguous := true
		seen := map[uint32]bool{}
		for _, v := range e.Values {
			seen[v.Value] = true
		}
		for i := range e.Values {
			if !seen[uint32(i)] {
				contiguous = false
			}
		}
		if contiguous {
			p.F("return v < %du;", len(e.Values))
			return
		}
		p.P("switch (v) {")
		for _, v := range e.Values {
			p.F("case %du:", v.Value)
		}
		p.In()
		p.P("return 1;")
		p.Out()
		p.P("default:")
		p.In()
		p.P("return 0;")
		p.Out()
		p.P("}")
	})
	p.P()
}

// enumCodec prints an enum's encode and decode of a value on its own.
func (g *generator) enumCodec(e *schema.Enum) {
	p, name, up, n := g.c, g.typeName(e), g.up, e.Base.Size()
	valid := name + "_valid_"
	p.F("static int %s(uint32_t v);", valid)
	p.P()
	p.Block(fmt.Sprintf("size_t %s_encode(%s v, uint8_t* buf, size_t cap) {", name, name), "}", func() {
		p.Block(fmt.Sprintf("if (!%s(v) || cap < %d) {", valid, n), "}", func() { p.P("return 0;") })
		switch e.Base {
		case schema.U8:
			p.P("buf[0] = v;")
		default:
			p.F("%s_%s(buf, v);", g.pkg, putFuncs[e.Base])
		}
		p.F("return %d;", n)
	})
	p.P()
	p.Block(fmt.Sprintf("int %s_decode(const uint8_t* data, size_t len, %s* out) {", name, name), "}", func() {
		p.P("uint32_t v;")
		p.F("*out = %s;", g.valueName(e, e.Values[0].Name))
		p.Block(fmt.Sprintf("if (len < %d) {", n), "}", func() { p.F("return %s_ERR_TRUNCATED;", up) })
		switch e.Base {
		case schema.U8:
			p.P("v = data[0];")
		default:
			p.F("v = %s_%s(data);", g.pkg, getFuncs[e.Base])
		}
		p.Block(fmt.Sprintf("if (!%s(v)) {", valid), "}", func() { p.F("return %s_ERR_ENUM;", up) })
		p.Block(fmt.Sprintf("if (len > %d) {", n), "}", func() { p.F("return %s_ERR_TRAILING;", up) })
		p.F("*out = (%s)v;", name)
		p.F("return %s_OK;", up)
	})
	p.P()
}

// unionAPI prints a union's public functions: the family of a struct's,
// without messages.
func (g *generator) unionAPI(u *schema.Union) {
	p, name := g.c, g.typeName(u)
	g.use("init:" + u.Name)
	p.Block(fmt.Sprintf("void %s_init(%s* v) {", name, name), "}", func() {
		p.F("%s_init_(v);", name)
	})
	p.P()
	p.Block(fmt.Sprintf("size_t %s_encoded_size(const %s* v) {", name, name), "}", func() {
		p.F("return %s_size_(v);", name)
	})
	p.P()
	g.unionCheck(u)
	g.publicEncode(name, name+"_size_")
	g.publicDecode(name, name+"_init_(out);")
}

// resetOnError prints the end of a public decode function: it returns the
// result of done, running reset first when that is an error, so that a
// failed decode leaves the default value (or, for the dispatcher, the zero
// message) in *out rather than a partial one. The cost is on the error path
// only.
func (g *generator) resetOnError(reset, done string) {
	p := g.c
	p.F("int rc = %s;", done)
	p.Block("if (rc != 0) {", "}", func() { p.P(reset) })
	p.P("return rc;")
}

// structDecode prints a struct's public decode functions.
func (g *generator) structDecode(s *schema.Struct) {
	name := g.typeName(s)
	g.publicDecode(name, name+"_init(out);")
}

// publicDecode prints the public decode functions of the struct or union
// name (name_decode and name_decode_ex); reset is the statement that leaves
// the default value in *out after an error.
func (g *generator) publicDecode(name, reset string) {
	p, pkg := g.c, g.pkg
	p.Block(fmt.Sprintf("int %s_decode(const uint8_t* data, size_t len, %s* out, %s_arena* arena) {", name, name, pkg), "}", func() {
		p.F("return %s_decode_ex(data, len, out, arena, NULL, NULL);", name)
	})
	p.P()
	p.F("int %s_decode_ex(const uint8_t* data, size_t len, %s* out, %s_arena* arena,", name, name, pkg)
	p.Block(fmt.Sprintf("        const %s_decode_options* opt, %s_decode_result* res) {", pkg, pkg), "}", func() {
		p.F("%s_dec_ d;", pkg)
		p.F("const uint8_t* p = %s_dec_init_(&d, data, len, arena, opt);", pkg)
		g.memInit("&d")
		p.F("p = %s_read_(&d, p, out, 1);", name)
		g.resetOnError(reset, fmt.Sprintf("%s_dec_done_(&d, p, opt != NULL && opt->allow_trailing, res)", pkg))
	})
	p.P()
}
