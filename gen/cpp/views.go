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

// viewOf emits statements decoding a view of t at p into lv.
func (g *generator) viewOf(p *emit.Printer, t *schema.Type, lv string) {
	if flat(t) && t.Kind.IsFloat() {
		p.F("sdp::load_into(%s, p);", lv)
		p.F("p += %d;", flatSize(t))
		return
	}
	if flat(t) {
		p.F("%s = sdp::load<%s>(p);", lv, g.ctype(t))
		p.F("p += %d;", flatSize(t))
		return
	}
	switch t.Kind {
	case schema.String:
		n := g.newTmp("n")
		p.F("const std::size_t %s = get_count(p);", n)
		p.F("%s = std::string_view(reinterpret_cast<const char*>(p), %s);", lv, n)
		p.F("p += %s;", n)
	case schema.Array, schema.FixedArray:
		n := fmt.Sprint(t.Len)
		if t.Kind == schema.Array {
			n = g.newTmp("n")
			p.F("const std::size_t %s = get_count(p);", n)
		}
		if flat(t.Elem) {
			p.F("%s = %s(p, %s);", lv, g.vtype(t), n)
			p.F("p += %s * %d;", n, flatSize(t.Elem))
			return
		}
		start := g.newTmp("s")
		p.F("const std::uint8_t* %s = p;", start)
		stride, fixed := t.Elem.FixedSize()
		if fixed {
			p.F("p += %s * %d;", n, stride)
		} else {
			stride = 0
			i := g.newTmp("i")
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
				g.skipOf(p, t.Elem)
			})
		}
		p.F("%s = %s(%s, %s, %d, &%s);", lv, g.vtype(t), start, n, stride, g.reader(&plan.Value{Type: t.Elem}))
	case schema.Optional:
		p.Block("if (*p++ != 0) {", "} else {", func() {
			if t.Boxed {
				p.F("%s = %s(p, &%s);", lv, g.vtype(t), g.reader(&plan.Value{Type: t.Elem}))
				g.skipOf(p, t.Elem)
			} else {
				p.F("%s.emplace();", lv)
				g.viewOf(p, t.Elem, "(*"+lv+")")
			}
		})
		p.In()
		p.F("%s = %s();", lv, g.vtype(t))
		p.Out()
		p.P("}")
	case schema.StructRef, schema.UnionRef:
		p.F("p = sdp_view(p, %s);", lv)
	default:
		panic("cpp: viewOf " + t.String())
	}
}

// skipOf emits statements moving p past a t.
func (g *generator) skipOf(p *emit.Printer, t *schema.Type) {
	if k, ok := t.FixedSize(); ok {
		p.F("p += %d;", k)
		return
	}
	switch t.Kind {
	case schema.String:
		n := g.newTmp("n")
		p.F("const std::size_t %s = get_count(p);", n)
		p.F("p += %s;", n)
	case schema.Array, schema.FixedArray:
		n := fmt.Sprint(t.Len)
		if t.Kind == schema.Array {
			n = g.newTmp("n")
			p.F("const std::size_t %s = get_count(p);", n)
		}
		if k, ok := t.Elem.FixedSize(); ok {
			p.F("p += %s * %d;", n, k)
			return
		}
		i := g.newTmp("i")
		p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %s; ++%s) {", i, i, n, i), "}", func() {
			g.skipOf(p, t.Elem)
		})
	case schema.Optional:
		p.Block("if (*p++ != 0) {", "}", func() { g.skipOf(p, t.Elem) })
	case schema.StructRef, schema.UnionRef:
		p.F("p = sdp_skip(p, Tag<%s>{});", g.name(t.Decl()))
	default:
		panic("cpp: skipOf " + t.String())
	}
}

// ownOf emits statements copying the view src into the owned lvalue dst.
func (g *generator) ownOf(p *emit.Printer, t *schema.Type, src, dst string) {
	if flat(t) && t.Kind.IsFloat() {
		p.F("sdp::assign_bits(%s, %s);", dst, src)
		return
	}
	if flat(t) {
		p.F("%s = %s;", dst, src)
		return
	}
	switch t.Kind {
	case schema.String:
		p.F("%s.assign(%s.data(), %s.size());", dst, src, src)
	case schema.Array:
		if flat(t.Elem) {
			p.F("%s.assign_to(%s);", src, dst)
			return
		}
		p.F("%s.clear();", dst)
		p.F("%s.reserve(%s.size());", dst, src)
		e, o := g.newTmp("e"), g.newTmp("o")
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, src), "}", func() {
			p.F("auto& %s = %s.emplace_back();", o, dst)
			g.ownOf(p, t.Elem, e, o)
		})
	case schema.FixedArray:
		i := g.newTmp("i")
		if flat(t.Elem) {
			p.Block(fmt.Sprintf("for (std::size_t %s = 0; %s < %d; ++%s) {", i, i, t.Len, i), "}", func() {
				if t.Elem.Kind.IsFloat() {
					p.F("sdp::load_into(%s[%s], %s.data() + %s * %d);", dst, i, src, i, flatSize(t.Elem))
				} else {
					p.F("%s[%s] = %s[%s];", dst, i, src, i)
				}
			})
			return
		}
		e, o := g.newTmp("e"), g.newTmp("o")
		p.F("std::size_t %s = 0;", i)
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, src), "}", func() {
			p.F("auto& %s = %s[%s++];", o, dst, i)
			g.ownOf(p, t.Elem, e, o)
		})
	case schema.Optional:
		p.Block(fmt.Sprintf("if (%s.has_value()) {", src), "} else {", func() {
			if t.Boxed {
				v := g.newTmp("v")
				p.F("const auto %s = %s.value();", v, src)
				src = v
			} else {
				src = "(*" + src + ")"
			}
			p.F("%s.emplace();", dst)
			g.ownOf(p, t.Elem, src, "(*"+dst+")")
		})
		p.In()
		p.F("%s.reset();", dst)
		p.Out()
		p.P("}")
	case schema.StructRef, schema.UnionRef:
		p.F("sdp_own(%s, %s);", src, dst)
	default:
		panic("cpp: ownOf " + t.String())
	}
}

func (g *generator) viewFunc(p *emit.Printer, d schema.Decl) {
	g.tmp = 0
	n := g.name(d)
	switch d := d.(type) {
	case *schema.Struct:
		if len(d.Fields) == 0 {
			p.F("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s&) noexcept { return p; }", g.inl(d), g.viewName(d))
			return
		}
		p.Block(fmt.Sprintf("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s& v) noexcept {", g.inl(d), g.viewName(d)), "}", func() {
			for _, f := range d.Fields {
				g.viewOf(p, f.Type, "v."+fieldName(f, n))
			}
			p.P("return p;")
		})
	case *schema.Union:
		p.Block(fmt.Sprintf("%sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s& v) noexcept {", g.inl(d), g.viewName(d)), "}", func() {
			p.P("switch (*p++) {")
			for _, vr := range d.Variants {
				g.trustedVariant(p, vr, func() {
					switch vr.Kind {
					case schema.VariantStruct:
						p.P("p = sdp_view(p, x);")
					case schema.VariantInline:
						for _, f := range vr.Fields {
							g.viewOf(p, f.Type, "x."+fieldName(f, variantName(vr, n)))
						}
					}
				}, "auto& x = v.value.emplace<%d>();", "v.value.emplace<%d>();")
			}
			p.P("default:")
			p.P(indent + "break;")
			p.P("}")
			p.P("return p;")
		})
	}
}

// trustedVariant emits a case of a switch over a validated union tag.
func (g *generator) trustedVariant(p *emit.Printer, v *schema.Variant, body func(), bind, empty string) {
	if v.Kind == schema.VariantUnit || (v.Kind == schema.VariantInline && len(v.Fields) == 0) {
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
	g.tmp = 0
	n := g.name(d)
	sig := fmt.Sprintf("%sconst std::uint8_t* sdp_skip(const std::uint8_t* p, Tag<%s>) noexcept", g.inl(d), n)
	var fixed int
	var isFixed bool
	switch d := d.(type) {
	case *schema.Struct:
		fixed, isFixed = d.FixedSize()
	case *schema.Union:
		fixed, isFixed = d.FixedSize()
	}
	if isFixed {
		p.F("%s { return p + %d; }", sig, fixed)
		return
	}
	p.Block(sig+" {", "}", func() {
		switch d := d.(type) {
		case *schema.Struct:
			run := 0
			for _, f := range d.Fields {
				if k, ok := f.Type.FixedSize(); ok {
					run += k
					continue
				}
				if run != 0 {
					p.F("p += %d;", run)
					run = 0
				}
				g.skipOf(p, f.Type)
			}
			if run != 0 {
				p.F("p += %d;", run)
			}
		case *schema.Union:
			p.P("switch (*p++) {")
			for _, vr := range d.Variants {
				g.trustedVariant(p, vr, func() {
					switch vr.Kind {
					case schema.VariantStruct:
						g.skipOf(p, &schema.Type{Kind: schema.StructRef, Struct: vr.Struct})
					case schema.VariantInline:
						for _, f := range vr.Fields {
							g.skipOf(p, f.Type)
						}
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
	g.tmp = 0
	n, vn := g.name(d), g.viewName(d)
	switch d := d.(type) {
	case *schema.Struct:
		if len(d.Fields) == 0 {
			p.F("void sdp_own(const %s&, %s&) {}", vn, n)
			return
		}
		p.Block(fmt.Sprintf("void sdp_own(const %s& s, %s& o) {", vn, n), "}", func() {
			for _, f := range d.Fields {
				fn := fieldName(f, n)
				g.ownOf(p, f.Type, "s."+fn, "o."+fn)
			}
		})
	case *schema.Union:
		p.Block(fmt.Sprintf("void sdp_own(const %s& s, %s& o) {", vn, n), "}", func() {
			p.P("switch (s.value.index()) {")
			for _, vr := range d.Variants {
				g.trustedVariant(p, vr, func() {
					p.F("auto& y = o.value.emplace<%d>();", vr.Tag)
					switch vr.Kind {
					case schema.VariantStruct:
						p.P("sdp_own(x, y);")
					case schema.VariantInline:
						for _, f := range vr.Fields {
							fn := fieldName(f, variantName(vr, n))
							g.ownOf(p, f.Type, "x."+fn, "y."+fn)
						}
					}
				}, "const auto& x = *std::get_if<%d>(&s.value);", "o.value.emplace<%d>();")
			}
			p.P("default:")
			p.P(indent + "break;")
			p.P("}")
		})
	}
}

// readerFuncs emits the element readers registered so far (and any they
// register in turn), returning their prototypes.
func (g *generator) readerFuncs(p *emit.Printer) []string {
	var protos []string
	for i := 0; i < len(g.rdList); i++ {
		m := g.rdList[i]
		t := g.rd[m].Type
		g.tmp = 0
		sig := fmt.Sprintf("const std::uint8_t* sdp_rd_%s(const std::uint8_t* p, %s& out) noexcept", m, g.vtype(t))
		protos = append(protos, sig+";")
		p.P()
		p.Block(sig+" {", "}", func() {
			g.viewOf(p, t, "out")
			p.P("return p;")
		})
	}
	return protos
}
