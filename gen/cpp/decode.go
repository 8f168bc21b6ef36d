package cpp

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// The checked decoders. sdp_read decodes untrusted input into an owned
// value; sdp_check only validates it (the first pass of view decoding).
// Both return false with r.status set on the first error, and check the
// same things in the same order, so they report the same error: all four
// checked decoders (owned, check, path, view) are printings of the same
// plan steps by one printer, reader, whose kind says which it prints.

// decoder is the checked decoder being printed.
type decoder int

const (
	// readOwned is sdp_read into an owned value.
	readOwned decoder = iota
	// readCheck is sdp_check: it validates only.
	readCheck
	// readPath is sdp_path, the path finder: sdp_check that also records
	// an error's field path. The decoders proper carry no path; a rejected
	// input is read again by sdp_path (withPath), so that a successful
	// decode does no work for it.
	readPath
	// readView is sdp_read into a view: it validates like sdp_check and
	// builds the view in the same pass.
	readView
)

// reader prints one checked decoder. Values whose lvalue is "" are only
// checked (every value in sdp_check and sdp_path, the boxed values a view
// points at).
type reader struct {
	fn
	kind decoder
	// where is the field path, outermost first, of the value whose
	// decoding is being printed within one path finder: each error return
	// prepends these segments to the error's path (unwind).
	where []pathSeg
}

// flatRuns groups the fields a checked decoder reads with one bounds check:
// any number of scalars and enums in a row.
var flatRuns = plan.RunRule{Enums: true, MinFields: 1}

// lone is the run of one scalar or enum read on its own.
func lone(v *plan.Value) *plan.Run {
	return &plan.Run{Size: v.Min, Leaves: []plan.Leaf{{Value: v}}}
}

// flatRun emits one bounds check for a run of scalars and enums, then the
// bool and enum checks in field order, then (dst[i] empty: validate only)
// the stores. Every value is loaded before any is stored, so the compiler
// can merge the loads and stores (a store to the value could otherwise
// change the input bytes as far as it knows).
//
// names[i], if not "", is the field name leaf i's errors add to the path.
func (r reader) flatRun(run *plan.Run, dst, names []string) {
	g, p := r.g, r.p
	at := func(off int) string {
		if off == 0 {
			return "r.p"
		}
		return fmt.Sprintf("r.p + %d", off)
	}
	checks := func(truncation bool) {
		for i, l := range run.Leaves {
			off := l.Offset
			fail := func(code string) {
				call := fmt.Sprintf("r.fail_at(sdp::ErrorCode::%s, %s)", code, at(off))
				p.In()
				r.in(names[i]).fail(call)
				p.Out()
				p.P("}")
			}
			if truncation {
				p.F("if (r.left() < %d) {", off+l.Value.Min)
				fail("Truncated")
			}
			switch {
			case isBool(l.Value):
				p.F("if (r.p[%d] > 1) {", off)
				fail("Bool")
			case l.Value.Op == plan.Enum:
				p.F("if (!is_valid(sdp::load<%s>(%s))) {", g.name(l.Value.Decl.Decl), at(off))
				fail("Enum")
			}
		}
	}
	// One bounds check for the run. When the input ends inside it, the
	// fields are checked one by one, so that the error is the first one a
	// reader going front to back meets (a bad bool or enum before the end
	// is reported as such, and truncation at the field that was cut).
	p.Block(fmt.Sprintf("if (r.left() < %d) {", run.Size), "}", func() {
		checks(true)
	})
	checks(false)
	stores := 0
	for _, d := range dst {
		if d != "" {
			stores++
		}
	}
	var locals, dsts []string
	var floats []bool
	for i, l := range run.Leaves {
		v, off := l.Value, l.Offset
		if dst[i] != "" && stores == 1 {
			// Nothing to merge: store the value as it is loaded.
			switch {
			case isBool(v):
				p.F("%s = r.p[%d] != 0;", dst[i], off)
			case v.Kind.IsFloat():
				p.F("sdp::load_into(%s, %s);", dst[i], at(off))
			default:
				p.F("%s = sdp::load<%s>(%s);", dst[i], g.ctype(v.Type), at(off))
			}
		} else if dst[i] != "" {
			l := r.tmp("f")
			if isBool(v) {
				p.F("const bool %s = r.p[%d] != 0;", l, off)
			} else {
				p.F("const %s %s = sdp::load<%s>(%s);", g.wtype(v.Type), l, g.wtype(v.Type), at(off))
			}
			locals = append(locals, l)
			dsts = append(dsts, dst[i])
			floats = append(floats, v.Kind.IsFloat())
		}
	}
	for i, l := range locals {
		if floats[i] {
			p.F("sdp::assign_bits(%s, %s);", dsts[i], l)
		} else {
			p.F("%s = %s;", dsts[i], l)
		}
	}
	p.F("r.p += %d;", run.Size)
}

// pathSeg is one segment of an error's field path: a struct field's or a
// union variant's schema name, or the C++ expression of an array index.
type pathSeg struct {
	name  string
	index string
}

// in returns the printer of a value one path segment deeper: a field or
// variant name ("" adds none).
func (r reader) in(name string) reader {
	if name == "" {
		return r
	}
	return r.at(pathSeg{name: name})
}

// at returns the printer of a value one path segment deeper.
func (r reader) at(seg pathSeg) reader {
	w := make([]pathSeg, len(r.where), len(r.where)+1)
	copy(w, r.where)
	r.where = append(w, seg)
	return r
}

// unwind emits the return of an error already recorded in r.status; in a
// path finder, the path segments of r.where are prepended to its path,
// innermost first.
func (r reader) unwind() {
	p := r.p
	if r.kind != readPath || len(r.where) == 0 {
		p.P("return false;")
		return
	}
	for i := len(r.where) - 1; i >= 0; i-- {
		w := r.where[i]
		call := fmt.Sprintf("r.in_field(%q)", w.name)
		if w.name == "" {
			call = fmt.Sprintf("r.in_elem(%s)", w.index)
		}
		if i == 0 {
			p.P("return ", call, ";")
		} else {
			p.P(call, ";")
		}
	}
}

// ret emits the error return when cond (a call that records the error) is
// false.
func (r reader) ret(cond string) {
	r.p.F("if (!%s) {", cond)
	r.p.In()
	r.unwind()
	r.p.Out()
	r.p.P("}")
}

// fail emits the return of the error that call (r.fail_at) records.
func (r reader) fail(call string) {
	if r.kind != readPath || len(r.where) == 0 {
		r.p.P("return ", call, ";")
		return
	}
	r.p.P(call, ";")
	r.unwind()
}

// value emits statements decoding a v into the lvalue lv (lv "" = check
// only).
func (r reader) value(v *plan.Value, lv string) {
	g, p := r.g, r.p
	check := lv == ""
	switch v.Op {
	case plan.Scalar, plan.Enum:
		r.flatRun(lone(v), []string{lv}, []string{""})
	case plan.String:
		if check {
			r.ret("r." + r.cold("skip_str") + "()")
		} else {
			r.ret(fmt.Sprintf("r.str(%s)", lv))
		}
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		n := fmt.Sprint(v.Len)
		if v.Op.Counted() {
			n = r.tmp("n")
			p.F("std::size_t %s = 0;", n)
			r.ret(fmt.Sprintf("r.%s(%s, %d)", r.cold("count"), n, v.MinElem))
			if v.Charge > 0 {
				// Rule 11 (memory), at the count, before anything is allocated.
				r.ret(fmt.Sprintf("r.charge(%s, %du, r.p - 4)", n, v.Charge))
			}
		}
		if r.kind == readView && lv != "" {
			r.viewElems(v, n, lv)
		} else {
			r.elems(v, n, lv)
		}
	case plan.Optional:
		h := r.tmp("has")
		p.F("bool %s = false;", h)
		r.ret(fmt.Sprintf("r.flag(%s, sdp::ErrorCode::Presence)", h))
		if v.Charge > 0 {
			// Rule 11 (memory), at the presence byte.
			p.F("if (%s && !r.charge(1, %du, r.p - 1)) {", h, v.Charge)
			p.In()
			r.unwind()
			p.Out()
			p.P("}")
		}
		if check {
			p.Block(fmt.Sprintf("if (%s) {", h), "}", func() { r.value(v.Elem, "") })
			return
		}
		if r.kind == readView && v.Boxed {
			p.Block(fmt.Sprintf("if (%s) {", h), "} else {", func() {
				p.F("%s = %s(r.p, &%s);", lv, g.vtype(v.Type), g.reader(v.Elem))
				r.value(v.Elem, "")
			})
			p.In()
			p.F("%s = %s();", lv, g.vtype(v.Type))
			p.Out()
			p.P("}")
			return
		}
		// A value already present is decoded into (its strings, arrays and
		// box keep their storage); an absent one is default-constructed.
		p.Block(fmt.Sprintf("if (%s) {", h), "} else {", func() {
			p.F("if (!%s.has_value()) {", lv)
			p.F(indent+"%s.emplace();", lv)
			p.P("}")
			r.value(v.Elem, "(*"+lv+")")
		})
		p.In()
		p.F("%s.reset();", lv)
		p.Out()
		p.P("}")
	case plan.Struct, plan.Union:
		if check {
			r.ret(fmt.Sprintf("%s(r, Tag<%s>{}, d + 1)", r.checkFunc(), g.name(v.Decl.Decl)))
		} else {
			r.ret(fmt.Sprintf("sdp_read(r, %s, d + 1)", lv))
		}
	default:
		panic("cpp: reader.value " + v.Op.String())
	}
}

// elems decodes n elements of an array (its count already read and
// checked against the input for a counted one).
func (r reader) elems(v *plan.Value, n, lv string) {
	p := r.p
	check := lv == ""
	switch {
	case v.Op == plan.FixedBytes || v.Op == plan.FixedNumbers:
		r.ret(fmt.Sprintf("r.%s(%s, %d)", r.cold("need_elems"), n, v.Elem.Min))
		if !check {
			p.F("load_array(r.p, %s.data(), %s);", lv, n)
		}
		p.F("r.p += %d;", v.Fixed)
		return
	case v.Op == plan.Bytes || v.Op == plan.Numbers:
		if !check {
			p.F("assign_array(r.p, %s, %s);", lv, n)
		}
		p.F("r.p += %s * %d;", n, v.Elem.Min)
		return
	case v.Op == plan.Array && isBool(v.Elem):
		r.ret(fmt.Sprintf("r.bools(%s)", n))
		if !check {
			p.F("%s.assign(r.p, r.p + %s);", lv, n)
		}
		p.F("r.p += %s;", n)
		return
	}
	if plainArray(v) {
		r.plainRead(v, n, lv)
		return
	}
	if !check && v.Op.Counted() {
		p.F("%s.resize(%s);", lv, n)
	}
	r.elemLoop(v, n, lv)
}

// elemLoop decodes the n elements of an array one by one.
func (r reader) elemLoop(v *plan.Value, n, lv string) {
	p := r.p
	if lv == "" {
		i := r.tmp("i")
		p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
			r.at(pathSeg{index: i}).value(v.Elem, "")
		})
		return
	}
	// The element's index, for an error's path, is computed from its
	// address on the error path only.
	e := r.tmp("e")
	p.Block(fmt.Sprintf("for (auto& %s : %s) {", e, lv), "}", func() {
		idx := fmt.Sprintf("static_cast<std::size_t>(&%s - %s.data())", e, lv)
		r.at(pathSeg{index: idx}).value(v.Elem, e)
	})
}

// viewElems validates n array elements and points the view lv at them.
func (r reader) viewElems(v *plan.Value, n, lv string) {
	g, p := r.g, r.p
	elem := v.Elem
	start := r.tmp("s")
	if flatValue(elem) {
		k := elem.Min
		// Bools and enums are checked front to back, so that a bad one
		// before the end of a short input is reported as what it is
		// (docs/wire-format.md: the first rule met reading front to back).
		if !v.Op.Counted() && !isBool(elem) && elem.Op != plan.Enum {
			r.ret(fmt.Sprintf("r.%s(%s, %d)", r.cold("need_elems"), n, k))
		}
		switch {
		case isBool(elem) && !v.Op.Counted():
			r.ret(fmt.Sprintf("r.fixed_bools(%s)", n))
		case isBool(elem):
			r.ret(fmt.Sprintf("r.bools(%s)", n))
		case elem.Op == plan.Enum:
			p.F("const std::uint8_t* %s = r.p;", start)
			i := r.tmp("i")
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
				r.at(pathSeg{index: i}).value(elem, "")
			})
			p.F("%s = %s(%s, %s);", lv, g.vtype(v.Type), start, n)
			return
		}
		p.F("%s = %s(r.p, %s);", lv, g.vtype(v.Type), n)
		p.F("r.p += %s * %d;", n, k)
		return
	}
	p.F("const std::uint8_t* %s = r.p;", start)
	i := r.tmp("i")
	p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
		r.at(pathSeg{index: i}).value(elem, "")
	})
	p.F("%s = %s(%s, %s, %d, &%s);", lv, g.vtype(v.Type), start, n, stride(elem), g.reader(elem))
}

// stride is the encoded size of every element of a list view, or 0 when
// the elements vary in size.
func stride(elem *plan.Value) int {
	if elem.Fixed < 0 {
		return 0
	}
	return elem.Fixed
}

// fields decodes fields in order (lvalues prefix + name; check only when
// check), each run of scalars and enums with one bounds check.
func (r reader) fields(fs []*plan.Field, prefix, owner string, check bool) {
	for _, st := range plan.Group(fs, flatRuns) {
		if st.Run != nil {
			var dst, names []string
			for _, f := range st.Fields {
				names = append(names, f.Name)
				if check {
					dst = append(dst, "")
				} else {
					dst = append(dst, member(prefix, f, owner))
				}
			}
			r.flatRun(st.Run, dst, names)
			continue
		}
		f := st.Fields[0]
		lv := ""
		if !check {
			lv = member(prefix, f, owner)
		}
		r.in(f.Name).value(f.Value, lv)
	}
}

// viewSig is the checked decoder of a view: it validates like sdp_check and
// builds the view in the same pass.
func (g *generator) viewSig(d schema.Decl) string {
	if st, ok := d.(*schema.Struct); ok && len(st.Fields) == 0 {
		return fmt.Sprintf("%sbool sdp_read(Reader& r, %s&, std::uint32_t d) noexcept", g.inl(d), g.viewName(d))
	}
	return fmt.Sprintf("%sbool sdp_read(Reader& r, %s& v, std::uint32_t d) noexcept", g.inl(d), g.viewName(d))
}

// readSig is the signature of the checked decoder kind of d.
func (g *generator) readSig(d schema.Decl, kind decoder) string {
	switch kind {
	case readView:
		return g.viewSig(d)
	case readPath:
		return fmt.Sprintf("SDP_COLD bool sdp_path(Reader& r, Tag<%s>, std::uint32_t d) noexcept", g.name(d))
	case readCheck:
		return fmt.Sprintf("%sbool sdp_check(Reader& r, Tag<%s>, std::uint32_t d) noexcept", g.inl(d), g.name(d))
	}
	if st, ok := d.(*schema.Struct); ok && len(st.Fields) == 0 {
		return fmt.Sprintf("%sbool sdp_read(Reader& r, %s&, std::uint32_t d)", g.inl(d), g.name(d))
	}
	return fmt.Sprintf("%sbool sdp_read(Reader& r, %s& v, std::uint32_t d)", g.inl(d), g.name(d))
}

// maxInlineFields bounds the leaf types whose decoders are always inlined.
const maxInlineFields = 16

// inl is "SDP_INLINE " for the decoding functions (checked, view and
// trusted) of a small leaf type, one that holds no struct or union and so
// can never recurse: inlining its decoder into the loop over an array of it
// saves the call and keeps the cursor in a register (plugin registry: 21%
// fewer instructions validating the view, 6% decoding owned values).
func (g *generator) inl(d schema.Decl) string {
	pd := g.plan.Of(d)
	fields := pd.Fields
	for _, v := range pd.Variants {
		fields = append(fields, v.Fields...)
	}
	if len(fields) > maxInlineFields {
		return ""
	}
	for _, f := range fields {
		if !leafValue(f.Value) {
			return ""
		}
	}
	return "SDP_INLINE "
}

// leafValue reports a value that holds no struct or union.
func leafValue(v *plan.Value) bool {
	switch v.Op {
	case plan.Struct, plan.Union:
		return false
	}
	return v.Elem == nil || leafValue(v.Elem)
}

// cold is the Reader function a checked read calls for one of the reads
// forced inline (SDP_INLINE): in a path finder, its out-of-line copy, so
// that the path finders stay small and take little of the translation
// unit's inlining budget, which the decoders need (GCC's
// inline-unit-growth: when it ran out, GCC 12 -O2 stopped inlining
// std::string's constructor into the owned decoders, docs/cpp.md).
func (r reader) cold(name string) string {
	if r.kind == readPath {
		return "cold_" + name
	}
	return name
}

// checkFunc is the validating decoder a checked read calls: sdp_check, or
// in a path finder sdp_path.
func (r reader) checkFunc() string {
	if r.kind == readPath {
		return "sdp_path"
	}
	return "sdp_check"
}

// withPath emits the function that finds the field path of an error: the
// decoders (owned and views) carry none, so a decode that fails reads its
// input again with the path finders, which check the same things in the
// same order and prepend each struct field, array element and union
// variant to the error's path as it unwinds. Only a failed decode runs it;
// if the second reading does not meet the same error (it always does), the
// first error is returned without a path.
func (g *generator) withPath(p *emit.Printer) {
	p.P("// Returns st, the error of a decoder that rejected the input, with its field")
	p.P("// path, found by reading the input again with the path finder of T.")
	p.P("template <class T>")
	p.P("SDP_COLD sdp::Status with_path(const std::uint8_t* data, std::size_t size, const sdp::DecodeOptions& options,")
	p.Block("                            sdp::Status st) noexcept {", "}", func() {
		p.P("Reader q(data, size, options);")
		p.P("if (sdp_path(q, Tag<T>{}, 1) || q.status.code() != st.code() || q.status.offset() != st.offset()) {")
		p.P(indent + "return st;")
		p.P("}")
		p.P("return std::move(q.status);")
	})
}

// readFunc emits the checked decoder kind of d.
func (g *generator) readFunc(p *emit.Printer, d schema.Decl, kind decoder) {
	n := g.name(d)
	pd := g.plan.Of(d)
	r := reader{fn: g.fn(p), kind: kind}
	check := kind == readCheck || kind == readPath
	p.Block(g.readSig(d, kind)+" {", "}", func() {
		r.ret("r.depth(d)")
		if pd.Struct != nil {
			r.fields(pd.Fields, "v.", n, check)
		} else {
			p.P("std::uint8_t tag = 0;")
			r.ret("r.tag(tag)")
			p.P("switch (tag) {")
			for _, pv := range pd.Variants {
				r.variant(n, pv, check)
			}
			p.P("default:")
			p.P(indent + "return r.fail_at(sdp::ErrorCode::UnionTag, r.p - 1);")
			p.P("}")
		}
		p.P("return true;")
	})
}

func (r reader) variant(owner string, v *plan.Variant, check bool) {
	p := r.p
	// The variant held is decoded into when it is the one read (its
	// strings and arrays keep their storage); another is replaced. A view
	// holds no storage to keep, so a view's variant is always emplaced: the
	// conditional reference to either variant member also makes g++ 12 at
	// -O2 see a write past the smaller members (a -Wstringop-overflow false
	// positive, conformance/schemas/leaderboard.sdp and TestCompile).
	if len(v.Fields) == 0 {
		p.F("case %d:", v.Tag)
		p.In()
		if !check {
			p.F("if (v.value.index() != %d) {", v.Tag)
			p.F(indent+"v.value.emplace<%d>();", v.Tag)
			p.P("}")
		}
		p.P("break;")
		p.Out()
		return
	}
	p.Block(fmt.Sprintf("case %d: {", v.Tag), "}", func() {
		switch {
		case check:
		case r.kind == readView:
			p.F("auto& x = v.value.emplace<%d>();", v.Tag)
		default:
			p.F("auto& x = v.value.index() == %d ? *std::get_if<%d>(&v.value) : v.value.emplace<%d>();", v.Tag, v.Tag, v.Tag)
		}
		r.in(v.Name).fields(v.Fields, "x.", variantName(v.Variant, owner), check)
		p.P("break;")
	})
}
