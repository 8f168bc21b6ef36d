package cpp

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/schema"
)

// The checked decoders. sdp_read decodes untrusted input into an owned
// value; sdp_check only validates it (the first pass of view decoding).
// Both return false with r.status set on the first error, and check the
// same things in the same order, so they report the same error.

// flatRun emits one bounds check for a run of flat values, then the bool
// and enum checks in field order, then (dst[i] empty: validate only) the
// stores. Every value is loaded before any is stored, so the compiler can
// merge the loads and stores (a store to the value could otherwise change
// the input bytes as far as it knows).
//
// names[i], if not "", is the field name ts[i]'s errors add to the path.
func (g *generator) flatRun(p *emit.Printer, ts []*schema.Type, dst, names []string) {
	total := 0
	for _, t := range ts {
		total += flatSize(t)
	}
	at := func(off int) string {
		if off == 0 {
			return "r.p"
		}
		return fmt.Sprintf("r.p + %d", off)
	}
	checks := func(p *emit.Printer, truncation bool) {
		off := 0
		for i, t := range ts {
			fail := func(code string) {
				call := fmt.Sprintf("r.fail_at(sdp::ErrorCode::%s, %s)", code, at(off))
				p.In()
				if names[i] != "" {
					g.within(pathSeg{name: names[i]}, func() { g.fail(p, call) })
				} else {
					g.fail(p, call)
				}
				p.Out()
				p.P("}")
			}
			if truncation {
				p.F("if (r.left() < %d) {", off+flatSize(t))
				fail("Truncated")
			}
			switch t.Kind {
			case schema.Bool:
				p.F("if (r.p[%d] > 1) {", off)
				fail("Bool")
			case schema.EnumRef:
				p.F("if (!is_valid(sdp::load<%s>(%s))) {", g.name(t.Enum), at(off))
				fail("Enum")
			}
			off += flatSize(t)
		}
	}
	// One bounds check for the run. When the input ends inside it, the
	// fields are checked one by one, so that the error is the first one a
	// reader going front to back meets (a bad bool or enum before the end
	// is reported as such, and truncation at the field that was cut).
	p.Block(fmt.Sprintf("if (r.left() < %d) {", total), "}", func() {
		checks(p, true)
	})
	checks(p, false)
	stores := 0
	for _, d := range dst {
		if d != "" {
			stores++
		}
	}
	var locals, dsts []string
	var floats []bool
	off := 0
	for i, t := range ts {
		if dst[i] != "" && stores == 1 {
			// Nothing to merge: store the value as it is loaded.
			switch {
			case t.Kind == schema.Bool:
				p.F("%s = r.p[%d] != 0;", dst[i], off)
			case t.Kind.IsFloat():
				p.F("sdp::load_into(%s, %s);", dst[i], at(off))
			default:
				p.F("%s = sdp::load<%s>(%s);", dst[i], g.ctype(t), at(off))
			}
		} else if dst[i] != "" {
			l := g.newTmp("f")
			switch t.Kind {
			case schema.Bool:
				p.F("const bool %s = r.p[%d] != 0;", l, off)
			default:
				p.F("const %s %s = sdp::load<%s>(%s);", g.wtype(t), l, g.wtype(t), at(off))
			}
			locals = append(locals, l)
			dsts = append(dsts, dst[i])
			floats = append(floats, t.Kind.IsFloat())
		}
		off += flatSize(t)
	}
	for i, l := range locals {
		if floats[i] {
			p.F("sdp::assign_bits(%s, %s);", dsts[i], l)
		} else {
			p.F("%s = %s;", dsts[i], l)
		}
	}
	p.F("r.p += %d;", total)
}

// pathSeg is one segment of an error's field path: a struct field's or a
// union variant's schema name, or the C++ expression of an array index.
type pathSeg struct {
	name  string
	index string
}

// within emits body with seg appended to the path its errors report.
func (g *generator) within(seg pathSeg, body func()) {
	g.where = append(g.where, seg)
	body()
	g.where = g.where[:len(g.where)-1]
}

// unwind emits the return of an error already recorded in r.status; in a
// path finder, the path segments of g.where are prepended to its path,
// innermost first.
func (g *generator) unwind(p *emit.Printer) {
	if !g.pathMode || len(g.where) == 0 {
		p.P("return false;")
		return
	}
	for i := len(g.where) - 1; i >= 0; i-- {
		w := g.where[i]
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
func (g *generator) ret(p *emit.Printer, cond string) {
	p.F("if (!%s) {", cond)
	p.In()
	g.unwind(p)
	p.Out()
	p.P("}")
}

// fail emits the return of the error that call (r.fail_at) records.
func (g *generator) fail(p *emit.Printer, call string) {
	if !g.pathMode || len(g.where) == 0 {
		p.P("return ", call, ";")
		return
	}
	p.P(call, ";")
	g.unwind(p)
}

// readOf emits statements decoding a t into the lvalue lv (lv "" = check only).
func (g *generator) readOf(p *emit.Printer, t *schema.Type, lv string) {
	check := lv == ""
	if flat(t) {
		g.flatRun(p, []*schema.Type{t}, []string{lv}, []string{""})
		return
	}
	switch t.Kind {
	case schema.String:
		if check {
			g.ret(p, "r."+g.cold("skip_str")+"()")
		} else {
			g.ret(p, fmt.Sprintf("r.str(%s)", lv))
		}
	case schema.Array, schema.FixedArray:
		n := fmt.Sprint(t.Len)
		if t.Kind == schema.Array {
			n = g.newTmp("n")
			p.F("std::size_t %s = 0;", n)
			g.ret(p, fmt.Sprintf("r.%s(%s, %d)", g.cold("count"), n, t.Elem.MinSize()))
			if c := t.ArrayCharge(); c > 0 {
				// Rule 11 (memory), at the count, before anything is allocated.
				g.ret(p, fmt.Sprintf("r.charge(%s, %du, r.p - 4)", n, c))
			}
		}
		if g.viewMode && lv != "" {
			g.viewElems(p, t, n, lv)
		} else {
			g.readElems(p, t, n, lv)
		}
	case schema.Optional:
		h := g.newTmp("has")
		p.F("bool %s = false;", h)
		g.ret(p, fmt.Sprintf("r.flag(%s, sdp::ErrorCode::Presence)", h))
		if c := t.PresenceCharge(); c > 0 {
			// Rule 11 (memory), at the presence byte.
			p.F("if (%s && !r.charge(1, %du, r.p - 1)) {", h, c)
			p.In()
			g.unwind(p)
			p.Out()
			p.P("}")
		}
		if check {
			p.Block(fmt.Sprintf("if (%s) {", h), "}", func() { g.readOf(p, t.Elem, "") })
			return
		}
		if g.viewMode && t.Boxed {
			p.Block(fmt.Sprintf("if (%s) {", h), "} else {", func() {
				p.F("%s = %s(r.p, &%s);", lv, g.vtype(t), g.reader(t.Elem))
				g.readOf(p, t.Elem, "")
			})
			p.In()
			p.F("%s = %s();", lv, g.vtype(t))
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
			g.readOf(p, t.Elem, "(*"+lv+")")
		})
		p.In()
		p.F("%s.reset();", lv)
		p.Out()
		p.P("}")
	case schema.StructRef, schema.UnionRef:
		if check {
			g.ret(p, fmt.Sprintf("%s(r, Tag<%s>{}, d + 1)", g.checkFunc(), g.name(t.Decl())))
		} else {
			g.ret(p, fmt.Sprintf("sdp_read(r, %s, d + 1)", lv))
		}
	default:
		panic("cpp: readOf " + t.String())
	}
}

// readElems decodes n elements of an array (its count already read and
// checked against the input for []T).
func (g *generator) readElems(p *emit.Printer, t *schema.Type, n, lv string) {
	check := lv == ""
	elem := t.Elem
	fixedArray := t.Kind == schema.FixedArray
	switch {
	case elem.IsNumeric() && fixedArray:
		k, _ := t.FixedSize()
		g.ret(p, fmt.Sprintf("r.%s(%s, %d)", g.cold("need_elems"), n, flatSize(elem)))
		if !check {
			p.F("load_array(r.p, %s.data(), %s);", lv, n)
		}
		p.F("r.p += %d;", k)
		return
	case elem.IsNumeric():
		if !check {
			p.F("assign_array(r.p, %s, %s);", lv, n)
		}
		p.F("r.p += %s * %d;", n, elem.Kind.Size())
		return
	case elem.Kind == schema.Bool && !fixedArray:
		g.ret(p, fmt.Sprintf("r.bools(%s)", n))
		if !check {
			p.F("%s.assign(r.p, r.p + %s);", lv, n)
		}
		p.F("r.p += %s;", n)
		return
	}
	if g.plainArrayT(t) {
		g.plainRead(p, t, n, lv)
		return
	}
	if !check && !fixedArray {
		p.F("%s.resize(%s);", lv, n)
	}
	g.elemLoop(p, t, n, lv)
}

// elemLoop decodes the n elements of an array one by one.
func (g *generator) elemLoop(p *emit.Printer, t *schema.Type, n, lv string) {
	check := lv == ""
	elem := t.Elem
	if check {
		i := g.newTmp("i")
		p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
			g.within(pathSeg{index: i}, func() { g.readOf(p, elem, "") })
		})
		return
	}
	// The element's index, for an error's path, is computed from its
	// address on the error path only.
	e := g.newTmp("e")
	p.Block(fmt.Sprintf("for (auto& %s : %s) {", e, lv), "}", func() {
		idx := fmt.Sprintf("static_cast<std::size_t>(&%s - %s.data())", e, lv)
		g.within(pathSeg{index: idx}, func() { g.readOf(p, elem, e) })
	})
}

// viewElems validates n array elements and points the view lv at them.
func (g *generator) viewElems(p *emit.Printer, t *schema.Type, n, lv string) {
	elem := t.Elem
	start := g.newTmp("s")
	if flat(elem) {
		k := flatSize(elem)
		// Bools and enums are checked front to back, so that a bad one
		// before the end of a short input is reported as what it is
		// (docs/wire-format.md: the first rule met reading front to back).
		if t.Kind == schema.FixedArray && elem.Kind != schema.Bool && elem.Kind != schema.EnumRef {
			g.ret(p, fmt.Sprintf("r.%s(%s, %d)", g.cold("need_elems"), n, k))
		}
		switch {
		case elem.Kind == schema.Bool && t.Kind == schema.FixedArray:
			g.ret(p, fmt.Sprintf("r.fixed_bools(%s)", n))
		case elem.Kind == schema.Bool:
			g.ret(p, fmt.Sprintf("r.bools(%s)", n))
		case elem.Kind == schema.EnumRef:
			p.F("const std::uint8_t* %s = r.p;", start)
			i := g.newTmp("i")
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
				g.within(pathSeg{index: i}, func() { g.readOf(p, elem, "") })
			})
			p.F("%s = %s(%s, %s);", lv, g.vtype(t), start, n)
			return
		}
		p.F("%s = %s(r.p, %s);", lv, g.vtype(t), n)
		p.F("r.p += %s * %d;", n, k)
		return
	}
	p.F("const std::uint8_t* %s = r.p;", start)
	i := g.newTmp("i")
	p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
		g.within(pathSeg{index: i}, func() { g.readOf(p, elem, "") })
	})
	stride, fixed := elem.FixedSize()
	if !fixed {
		stride = 0
	}
	p.F("%s = %s(%s, %s, %d, &%s);", lv, g.vtype(t), start, n, stride, g.reader(elem))
}

// readFields decodes fields in order, folding runs of flat fields into one
// bounds check.
func (g *generator) readFields(p *emit.Printer, fs []*schema.Field, prefix, owner string, check bool) {
	for i := 0; i < len(fs); {
		if flat(fs[i].Type) {
			var ts []*schema.Type
			var dst, names []string
			for ; i < len(fs) && flat(fs[i].Type); i++ {
				ts = append(ts, fs[i].Type)
				names = append(names, fs[i].Name)
				if check {
					dst = append(dst, "")
				} else {
					dst = append(dst, prefix+fieldName(fs[i], owner))
				}
			}
			g.flatRun(p, ts, dst, names)
			continue
		}
		lv := ""
		if !check {
			lv = prefix + fieldName(fs[i], owner)
		}
		g.within(pathSeg{name: fs[i].Name}, func() { g.readOf(p, fs[i].Type, lv) })
		i++
	}
}

// viewSig is the checked decoder of a view: it validates like sdp_check and
// builds the view in the same pass.
func (g *generator) viewSig(d schema.Decl) string {
	if st, ok := d.(*schema.Struct); ok && len(st.Fields) == 0 {
		return fmt.Sprintf("%sbool sdp_read(Reader& r, %s&, std::uint32_t d) noexcept", inl(d), g.viewName(d))
	}
	return fmt.Sprintf("%sbool sdp_read(Reader& r, %s& v, std::uint32_t d) noexcept", inl(d), g.viewName(d))
}

func (g *generator) readSig(d schema.Decl, check bool) string {
	if g.viewMode {
		return g.viewSig(d)
	}
	if st, ok := d.(*schema.Struct); ok && len(st.Fields) == 0 && !check {
		return fmt.Sprintf("%sbool sdp_read(Reader& r, %s&, std::uint32_t d)", inl(d), g.name(d))
	}
	if check && g.pathMode {
		return fmt.Sprintf("SDP_COLD bool sdp_path(Reader& r, Tag<%s>, std::uint32_t d) noexcept", g.name(d))
	}
	if check {
		return fmt.Sprintf("%sbool sdp_check(Reader& r, Tag<%s>, std::uint32_t d) noexcept", inl(d), g.name(d))
	}
	return fmt.Sprintf("%sbool sdp_read(Reader& r, %s& v, std::uint32_t d)", inl(d), g.name(d))
}

// maxInlineFields bounds the leaf types whose decoders are always inlined.
const maxInlineFields = 16

// inl is "SDP_INLINE " for the decoding functions (checked, view and
// trusted) of a small leaf type, one that holds no struct or union and so
// can never recurse: inlining its decoder into the loop over an array of it
// saves the call and keeps the cursor in a register (plugin registry: 21%
// fewer instructions validating the view, 6% decoding owned values).
func inl(d schema.Decl) string {
	var fields []*schema.Field
	switch d := d.(type) {
	case *schema.Struct:
		fields = d.Fields
	case *schema.Union:
		for _, v := range d.Variants {
			if v.Kind == schema.VariantStruct {
				return ""
			}
			fields = append(fields, v.Fields...)
		}
	}
	if len(fields) > maxInlineFields {
		return ""
	}
	for _, f := range fields {
		if !leafType(f.Type) {
			return ""
		}
	}
	return "SDP_INLINE "
}

// leafType reports a type that holds no struct or union.
func leafType(t *schema.Type) bool {
	switch t.Kind {
	case schema.StructRef, schema.UnionRef:
		return false
	case schema.Array, schema.FixedArray, schema.Optional:
		return leafType(t.Elem)
	}
	return true
}

// cold is the Reader function a checked read calls for one of the reads
// forced inline (SDP_INLINE): in a path finder, its out-of-line copy, so
// that the path finders stay small and take little of the translation
// unit's inlining budget, which the decoders need (GCC's
// inline-unit-growth: when it ran out, GCC 12 -O2 stopped inlining
// std::string's constructor into the owned decoders, docs/cpp.md).
func (g *generator) cold(name string) string {
	if g.pathMode {
		return "cold_" + name
	}
	return name
}

// checkFunc is the validating decoder a checked read calls: sdp_check, or
// in a path finder sdp_path.
func (g *generator) checkFunc() string {
	if g.pathMode {
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

func (g *generator) readFunc(p *emit.Printer, d schema.Decl, check bool) {
	g.tmp = 0
	n := g.name(d)
	p.Block(g.readSig(d, check)+" {", "}", func() {
		g.ret(p, "r.depth(d)")
		switch d := d.(type) {
		case *schema.Struct:
			g.readFields(p, d.Fields, "v.", n, check)
		case *schema.Union:
			p.P("std::uint8_t tag = 0;")
			g.ret(p, "r.tag(tag)")
			p.P("switch (tag) {")
			for _, vr := range d.Variants {
				g.readVariant(p, n, vr, check)
			}
			p.P("default:")
			p.P(indent + "return r.fail_at(sdp::ErrorCode::UnionTag, r.p - 1);")
			p.P("}")
		}
		p.P("return true;")
	})
}

func (g *generator) readVariant(p *emit.Printer, owner string, v *schema.Variant, check bool) {
	empty := v.Kind == schema.VariantUnit || (v.Kind == schema.VariantInline && len(v.Fields) == 0)
	// The variant held is decoded into when it is the one read (its
	// strings and arrays keep their storage); another is replaced. A view
	// holds no storage to keep, so a view's variant is always emplaced: the
	// conditional reference to either variant member also makes g++ 12 at
	// -O2 see a write past the smaller members (a -Wstringop-overflow false
	// positive, conformance/schemas/leaderboard.sdp and TestCompile).
	if empty {
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
		case g.viewMode:
			p.F("auto& x = v.value.emplace<%d>();", v.Tag)
		default:
			p.F("auto& x = v.value.index() == %d ? *std::get_if<%d>(&v.value) : v.value.emplace<%d>();", v.Tag, v.Tag, v.Tag)
		}
		g.within(pathSeg{name: v.Name}, func() {
			switch v.Kind {
			case schema.VariantStruct:
				if check {
					g.ret(p, fmt.Sprintf("%s(r, Tag<%s>{}, d + 1)", g.checkFunc(), g.name(v.Struct)))
				} else {
					g.ret(p, "sdp_read(r, x, d + 1)")
				}
			case schema.VariantInline:
				g.readFields(p, v.Fields, "x.", variantName(v, owner), check)
			}
		})
		p.P("break;")
	})
}
