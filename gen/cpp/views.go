package cpp

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// Views are built in a second pass over input that sdp_check accepted, so
// the functions here trust the bytes: sdp_view decodes a view at p and
// returns the end, sdp_skip only finds the end, and the element readers
// (sdp_rd_*) decode one element for ListView and LazyView on access.
// sdp_view walks the same plan steps as sdp_check (flatRuns), so the two
// cannot disagree about a value's shape.

// flatValue reports a value stored as one fixed-width wire value: a scalar
// or an enum.
func flatValue(v *plan.Value) bool { return v.Op == plan.Scalar || v.Op == plan.Enum }

// isBool reports a bool, whose byte a decoder checks (0 or 1).
func isBool(v *plan.Value) bool { return v.Op == plan.Scalar && v.Kind == schema.Bool }

// viewValue emits statements decoding a view of v at p into lv.
func (b fn) viewValue(v *plan.Value, lv string) {
	g, p := b.g, b.p
	switch v.Op {
	case plan.Scalar, plan.Enum:
		if v.Kind.IsFloat() {
			p.F("sdp::load_into(%s, p);", lv)
		} else {
			p.F("%s = sdp::load<%s>(p);", lv, g.ctype(v.Type))
		}
		p.F("p += %d;", v.Min)
	case plan.String:
		n := b.tmp("n")
		p.F("const std::size_t %s = get_count(p);", n)
		p.F("%s = std::string_view(reinterpret_cast<const char*>(p), %s);", lv, n)
		p.F("p += %s;", n)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		n := fmt.Sprint(v.Len)
		if v.Op.Counted() {
			n = b.tmp("n")
			p.F("const std::size_t %s = get_count(p);", n)
		}
		if flatValue(v.Elem) {
			p.F("%s = %s(p, %s);", lv, g.vtype(v.Type), n)
			p.F("p += %s * %d;", n, v.Elem.Min)
			return
		}
		start := b.tmp("s")
		p.F("const std::uint8_t* %s = p;", start)
		if v.Elem.Fixed >= 0 {
			p.F("p += %s * %d;", n, v.Elem.Fixed)
		} else {
			i := b.tmp("i")
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
				b.skipValue(v.Elem)
			})
		}
		p.F("%s = %s(%s, %s, %d, &%s);", lv, g.vtype(v.Type), start, n, stride(v.Elem), g.reader(v.Elem))
	case plan.Optional:
		p.Block("if (*p++ != 0) {", "} else {", func() {
			if v.Boxed {
				p.F("%s = %s(p, &%s);", lv, g.vtype(v.Type), g.reader(v.Elem))
				b.skipValue(v.Elem)
			} else {
				p.F("%s.emplace();", lv)
				b.viewValue(v.Elem, "(*"+lv+")")
			}
		})
		p.In()
		p.F("%s = %s();", lv, g.vtype(v.Type))
		p.Out()
		p.P("}")
	case plan.Struct, plan.Union:
		p.F("p = sdp_view(p, %s);", lv)
	default:
		panic("cpp: viewValue " + v.Op.String())
	}
}

// skipValue emits statements moving p past a v.
func (b fn) skipValue(v *plan.Value) {
	g, p := b.g, b.p
	if v.Fixed >= 0 {
		p.F("p += %d;", v.Fixed)
		return
	}
	switch v.Op {
	case plan.String:
		n := b.tmp("n")
		p.F("const std::size_t %s = get_count(p);", n)
		p.F("p += %s;", n)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		n := fmt.Sprint(v.Len)
		if v.Op.Counted() {
			n = b.tmp("n")
			p.F("const std::size_t %s = get_count(p);", n)
		}
		if v.Elem.Fixed >= 0 {
			p.F("p += %s * %d;", n, v.Elem.Fixed)
			return
		}
		i := b.tmp("i")
		p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
			b.skipValue(v.Elem)
		})
	case plan.Optional:
		p.Block("if (*p++ != 0) {", "}", func() { b.skipValue(v.Elem) })
	case plan.Struct, plan.Union:
		p.F("p = sdp_skip(p, Tag<%s>{});", g.name(v.Decl.Decl))
	default:
		panic("cpp: skipValue " + v.Op.String())
	}
}

// ownValue emits statements copying the view src into the owned lvalue dst.
func (b fn) ownValue(v *plan.Value, src, dst string) {
	p := b.p
	switch v.Op {
	case plan.Scalar, plan.Enum:
		if v.Kind.IsFloat() {
			p.F("sdp::assign_bits(%s, %s);", dst, src)
		} else {
			p.F("%s = %s;", dst, src)
		}
	case plan.String:
		p.F("%s.assign(%s.data(), %s.size());", dst, src, src)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		if flatValue(v.Elem) {
			p.F("%s.assign_to(%s);", src, dst)
			return
		}
		p.F("%s.clear();", dst)
		p.F("%s.reserve(%s.size());", dst, src)
		e, o := b.tmp("e"), b.tmp("o")
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, src), "}", func() {
			p.F("auto& %s = %s.emplace_back();", o, dst)
			b.ownValue(v.Elem, e, o)
		})
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		i := b.tmp("i")
		if flatValue(v.Elem) {
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %d; ++%s) {", i, i, v.Len, i), "}", func() {
				if v.Elem.Kind.IsFloat() {
					p.F("sdp::load_into(%s[%s], %s.data() + %s * %d);", dst, i, src, i, v.Elem.Min)
				} else {
					p.F("%s[%s] = %s[%s];", dst, i, src, i)
				}
			})
			return
		}
		e, o := b.tmp("e"), b.tmp("o")
		p.F("std::size_t %s = 0;", i)
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, src), "}", func() {
			p.F("auto& %s = %s[%s++];", o, dst, i)
			b.ownValue(v.Elem, e, o)
		})
	case plan.Optional:
		p.Block(fmt.Sprintf("if (%s.has_value()) {", src), "} else {", func() {
			if v.Boxed {
				x := b.tmp("v")
				p.F("const auto %s = %s.value();", x, src)
				src = x
			} else {
				src = "(*" + src + ")"
			}
			p.F("%s.emplace();", dst)
			b.ownValue(v.Elem, src, "(*"+dst+")")
		})
		p.In()
		p.F("%s.reset();", dst)
		p.Out()
		p.P("}")
	case plan.Struct, plan.Union:
		p.F("sdp_own(%s, %s);", src, dst)
	default:
		panic("cpp: ownValue " + v.Op.String())
	}
}

// viewFields emits the views of fields, step by step as sdp_check reads
// them (flatRuns): a run's scalars and enums one after another.
func (b fn) viewFields(fs []*plan.Field, prefix, owner string) {
	for _, st := range plan.Group(fs, flatRuns) {
		for _, f := range st.Fields {
			b.viewValue(f.Value, member(prefix, f, owner))
		}
	}
}

func (g *generator) viewFunc(p *emit.Printer, d schema.Decl) {
	b := g.fn(p)
	n := g.name(d)
	pd := g.plan.Of(d)
	if pd.Struct != nil {
		if len(pd.Fields) == 0 {
			p.F("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s&) noexcept { return p; }", g.inl(d), g.viewName(d))
			return
		}
		p.Block(fmt.Sprintf("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s& v) noexcept {", g.inl(d), g.viewName(d)), "}", func() {
			b.viewFields(pd.Fields, "v.", n)
			p.P("return p;")
		})
		return
	}
	p.Block(fmt.Sprintf("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s& v) noexcept {", g.inl(d), g.viewName(d)), "}", func() {
		p.P("switch (*p++) {")
		for _, pv := range pd.Variants {
			trustedVariant(p, pv, func() {
				b.viewFields(pv.Fields, "x.", variantName(pv.Variant, n))
			}, "auto& x = v.value.emplace<%d>();", "v.value.emplace<%d>();")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
		p.P("return p;")
	})
}

// trustedVariant emits a case of a switch over a validated union tag.
func trustedVariant(p *emit.Printer, v *plan.Variant, body func(), bind, empty string) {
	if len(v.Fields) == 0 {
		p.F("case %d:", v.Tag)
		p.In()
		if empty != "" {
			p.F(empty, v.Tag)
		}
		p.P("break;")
		p.Out()
		return
	}
	p.Block(fmt.Sprintf("case %d: {", v.Tag), "}", func() {
		if bind != "" {
			p.F(bind, v.Tag)
		}
		body()
		p.P("break;")
	})
}

func (g *generator) skipFunc(p *emit.Printer, d schema.Decl) {
	b := g.fn(p)
	n := g.name(d)
	pd := g.plan.Of(d)
	sig := fmt.Sprintf("%sconst std::uint8_t* sdp_skip(const std::uint8_t* p, Tag<%s>) noexcept", g.inl(d), n)
	if pd.Fixed >= 0 {
		p.F("%s { return p + %d; }", sig, pd.Fixed)
		return
	}
	p.Block(sig+" {", "}", func() {
		if pd.Struct != nil {
			// Fields of a fixed size in a row are skipped at once.
			run := 0
			for _, f := range pd.Fields {
				if f.Value.Fixed >= 0 {
					run += f.Value.Fixed
					continue
				}
				if run != 0 {
					p.F("p += %d;", run)
					run = 0
				}
				b.skipValue(f.Value)
			}
			if run != 0 {
				p.F("p += %d;", run)
			}
		} else {
			p.P("switch (*p++) {")
			for _, pv := range pd.Variants {
				trustedVariant(p, pv, func() {
					for _, f := range pv.Fields {
						b.skipValue(f.Value)
					}
				}, "", "")
			}
			p.P("default:")
			p.P(indent + "break;")
			p.P("}")
		}
		p.P("return p;")
	})
}

func (g *generator) ownFunc(p *emit.Printer, d schema.Decl) {
	b := g.fn(p)
	n, vn := g.name(d), g.viewName(d)
	pd := g.plan.Of(d)
	if pd.Struct != nil {
		if len(pd.Fields) == 0 {
			p.F("void sdp_own(const %s&, %s&) {}", vn, n)
			return
		}
		p.Block(fmt.Sprintf("void sdp_own(const %s& s, %s& o) {", vn, n), "}", func() {
			for _, f := range pd.Fields {
				b.ownValue(f.Value, member("s.", f, n), member("o.", f, n))
			}
		})
		return
	}
	p.Block(fmt.Sprintf("void sdp_own(const %s& s, %s& o) {", vn, n), "}", func() {
		p.P("switch (s.value.index()) {")
		for _, pv := range pd.Variants {
			trustedVariant(p, pv, func() {
				p.F("auto& y = o.value.emplace<%d>();", pv.Tag)
				owner := variantName(pv.Variant, n)
				for _, f := range pv.Fields {
					b.ownValue(f.Value, member("x.", f, owner), member("y.", f, owner))
				}
			}, "const auto& x = *std::get_if<%d>(&s.value);", "o.value.emplace<%d>();")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
	})
}

// readerFuncs emits the element readers registered so far (and any they
// register in turn), returning their prototypes.
func (g *generator) readerFuncs(p *emit.Printer) []string {
	var protos []string
	for i := 0; i < len(g.rdList); i++ {
		m := g.rdList[i]
		v := g.rd[m]
		b := g.fn(p)
		sig := fmt.Sprintf("const std::uint8_t* sdp_rd_%s(const std::uint8_t* p, %s& out) noexcept", m, g.vtype(v.Type))
		protos = append(protos, sig+";")
		p.P()
		p.Block(sig+" {", "}", func() {
			b.viewValue(v, "out")
			p.P("return p;")
		})
	}
	return protos
}
