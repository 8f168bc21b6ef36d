package cpp

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/schema"
)

// sizeOf emits statements adding the variable part of expr's encoded size
// to n and returns the constant part.
//
// Unless g.sizeUnchecked, it also emits the checks that make sdp_size
// return kTooLarge for a value the decoders would reject (issue #13): a
// string that is not UTF-8, an enum value the enum does not declare, a
// union holding no variant (valueless_by_exception).
func (g *generator) sizeOf(p *emit.Printer, t *schema.Type, expr string) int {
	if k, ok := t.FixedSize(); ok && !g.validates(t) {
		return k
	}
	switch t.Kind {
	case schema.EnumRef:
		p.F("if (!is_valid(%s)) {", expr)
		p.P(indent + "return kTooLarge;")
		p.P("}")
		return flatSize(t)
	case schema.String:
		g.countCheck(p, expr)
		if !g.sizeUnchecked {
			p.F("if (!utf8_ok(%s)) {", expr)
			p.P(indent + "return kTooLarge;")
			p.P("}")
		}
		p.F("n += %s.size();", expr)
		return 4
	case schema.Array, schema.FixedArray:
		if t.Kind == schema.Array {
			g.countCheck(p, expr)
		}
		if k, ok := t.Elem.FixedSize(); ok && !g.validates(t.Elem) {
			p.F("n += %s * %d;", g.size64(expr), k)
			return 4
		}
		e := g.newTmp("e")
		var c int
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
			c = g.sizeOf(p, t.Elem, e)
		})
		if t.Kind == schema.FixedArray {
			return int(t.Len) * c
		}
		if c != 0 {
			p.F("n += %s * %d;", g.size64(expr), c)
		}
		return 4
	case schema.Optional:
		p.Block(fmt.Sprintf("if (%s.has_value()) {", expr), "}", func() {
			if c := g.sizeOf(p, t.Elem, "(*"+expr+")"); c != 0 {
				p.F("n += %d;", c)
			}
		})
		return 1
	case schema.StructRef, schema.UnionRef:
		if g.sizeUnchecked {
			p.F("n += static_cast<std::size_t>(sdp_size(%s));", expr)
		} else {
			p.F("if (!add_size(n, sdp_size(%s))) {", expr)
			p.P(indent + "return kTooLarge;")
			p.P("}")
		}
		return 0
	}
	panic("cpp: sizeOf " + t.String())
}

// validates reports whether sdp_size checks something in a value of type t
// besides counts (an enum, a union or a string anywhere in it), so that
// its size cannot be a constant.
func (g *generator) validates(t *schema.Type) bool {
	if g.sizeUnchecked {
		return false
	}
	switch t.Kind {
	case schema.EnumRef, schema.String, schema.UnionRef:
		return true
	case schema.Array, schema.FixedArray, schema.Optional:
		return g.validates(t.Elem)
	case schema.StructRef:
		return g.declValidates(t.Struct)
	}
	return false
}

// declValidates is validates for a struct or union declaration.
func (g *generator) declValidates(d schema.Decl) bool {
	st, ok := d.(*schema.Struct)
	if !ok {
		return true // a union: its variant is checked
	}
	if v, ok := g.checks[st.Name]; ok {
		return v
	}
	if g.checks == nil {
		g.checks = map[string]bool{}
	}
	g.checks[st.Name] = false // a cycle adds nothing
	v := false
	for _, f := range st.Fields {
		if g.validates(f.Type) {
			v = true
			break
		}
	}
	g.checks[st.Name] = v
	return v
}

// countCheck emits the check that a string's or array's length fits the
// wire's u32 count: sdp_size returns kTooLarge for a value holding one
// that does not, and the encoders refuse it.
func (g *generator) countCheck(p *emit.Printer, expr string) {
	if g.sizeUnchecked {
		return
	}
	p.F("if (too_long(%s.size())) {", expr)
	p.P(indent + "return kTooLarge;")
	p.P("}")
}

// size64 is a container's size widened for sdp_size's 64-bit sum (the
// products cannot wrap a 32-bit std::size_t then).
func (g *generator) size64(expr string) string {
	if g.sizeUnchecked {
		return expr + ".size()"
	}
	return "static_cast<std::uint64_t>(" + expr + ".size())"
}

// fieldsSize emits the size of a run of fields read through prefix.
func (g *generator) fieldsSize(p *emit.Printer, fs []*schema.Field, prefix, owner string) int {
	c := 0
	for _, f := range fs {
		c += g.sizeOf(p, f.Type, prefix+fieldName(f, owner))
	}
	return c
}

func (g *generator) sizeFunc(p *emit.Printer, d schema.Decl) {
	g.tmp = 0
	n := g.name(d)
	switch d := d.(type) {
	case *schema.Struct:
		if k, ok := d.FixedSize(); ok && !g.declValidates(d) {
			p.F("inline std::uint64_t sdp_size(const %s&) noexcept { return %d; }", n, k)
			return
		}
		p.Block(fmt.Sprintf("inline std::uint64_t sdp_size(const %s& v) noexcept {", n), "}", func() {
			p.P("std::uint64_t n = 0;")
			if c := g.fieldsSize(p, d.Fields, "v.", n); c != 0 {
				p.F("n += %d;", c)
			}
			p.P("return n;")
		})
	case *schema.Union:
		p.Block(fmt.Sprintf("inline std::uint64_t sdp_size(const %s& v) noexcept {", n), "}", func() {
			p.P("std::uint64_t n = 1;")
			p.P("switch (v.value.index()) {")
			for _, vr := range d.Variants {
				g.variantCase(p, vr, func() {
					var c int
					switch vr.Kind {
					case schema.VariantStruct:
						c = g.sizeOf(p, &schema.Type{Kind: schema.StructRef, Struct: vr.Struct}, "x")
					case schema.VariantInline:
						c = g.fieldsSize(p, vr.Fields, "x.", variantName(vr, n))
					}
					if c != 0 {
						p.F("n += %d;", c)
					}
				}, "[[maybe_unused]] const auto& x = *std::get_if<%d>(&v.value);")
			}
			p.P("default:")
			p.P(indent + "return kTooLarge; // valueless_by_exception: no variant to write")
			p.P("}")
			p.P("return n;")
		})
	}
}

// variantCase emits `case tag: { bind; body; break; }`, binding x only when
// the variant has data.
func (g *generator) variantCase(p *emit.Printer, v *schema.Variant, body func(), bind string) {
	if v.Kind == schema.VariantUnit || (v.Kind == schema.VariantInline && len(v.Fields) == 0) {
		p.F("case %d:", v.Tag)
		p.P(indent + "break;")
		return
	}
	p.Block(fmt.Sprintf("case %d: {", v.Tag), "}", func() {
		p.F(bind, v.Tag)
		body()
		p.P("break;")
	})
}

// writeOf emits statements writing expr at out.
func (g *generator) writeOf(p *emit.Printer, t *schema.Type, expr string) {
	switch {
	case flat(t):
		p.F("out = put(out, %s);", expr)
		return
	}
	switch t.Kind {
	case schema.String:
		p.F("out = put_str(out, %s.data(), %s.size());", expr, expr)
	case schema.Array, schema.FixedArray:
		count := fmt.Sprint(t.Len)
		if t.Kind == schema.Array {
			p.F("out = put_count(out, %s.size());", expr)
			count = expr + ".size()"
		}
		switch {
		case t.Elem.Kind == schema.Bool && t.Kind == schema.Array:
			e := g.newTmp("e")
			p.Block(fmt.Sprintf("for (const bool %s : %s) {", e, expr), "}", func() {
				p.F("out = put(out, %s);", e)
			})
		case flat(t.Elem):
			p.F("out = store_array(out, %s.data(), %s);", expr, count)
		case g.plainArray(t):
			g.plainWrite(p, t, expr, count)
		default:
			e := g.newTmp("e")
			p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
				g.writeOf(p, t.Elem, e)
			})
		}
	case schema.Optional:
		p.F("out = put(out, static_cast<std::uint8_t>(%s.has_value() ? 1 : 0));", expr)
		p.Block(fmt.Sprintf("if (%s.has_value()) {", expr), "}", func() {
			g.writeOf(p, t.Elem, "(*"+expr+")")
		})
	case schema.StructRef, schema.UnionRef:
		p.F("out = sdp_write(out, %s);", expr)
	default:
		panic("cpp: writeOf " + t.String())
	}
}

// writeFunc emits sdp_write. It and sdp_size are declared inline: the hint
// lets the compiler inline an element's writer into the loop over an array
// of structs (about 15% fewer instructions encoding the plugin registry).
func (g *generator) writeFunc(p *emit.Printer, d schema.Decl) {
	g.tmp = 0
	n := g.name(d)
	switch d := d.(type) {
	case *schema.Struct:
		if len(d.Fields) == 0 {
			p.F("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s&) noexcept { return out; }", n)
			return
		}
		p.Block(fmt.Sprintf("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s& v) noexcept {", n), "}", func() {
			g.writeFields(p, d.Fields, "v.", n)
			p.P("return out;")
		})
	case *schema.Union:
		p.Block(fmt.Sprintf("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s& v) noexcept {", n), "}", func() {
			p.P("out = put(out, static_cast<std::uint8_t>(v.value.index()));")
			p.P("switch (v.value.index()) {")
			for _, vr := range d.Variants {
				g.variantCase(p, vr, func() {
					switch vr.Kind {
					case schema.VariantStruct:
						p.P("out = sdp_write(out, x);")
					case schema.VariantInline:
						g.writeFields(p, vr.Fields, "x.", variantName(vr, n))
					}
				}, "const auto& x = *std::get_if<%d>(&v.value);")
			}
			p.P("default:")
			p.P(indent + "break;")
			p.P("}")
			p.P("return out;")
		})
	}
}

// writeFields emits the writes of a run of fields read through prefix.
func (g *generator) writeFields(p *emit.Printer, fs []*schema.Field, prefix, owner string) {
	for i := 0; i < len(fs); {
		j := i
		for j < len(fs) && flat(fs[j].Type) {
			j++
		}
		if j-i < 2 {
			g.writeOf(p, fs[i].Type, prefix+fieldName(fs[i], owner))
			i++
			continue
		}
		// A run of flat fields: loading them all before storing any lets
		// the compiler merge the stores (the output may alias the value,
		// so interleaved loads and stores must stay one at a time).
		var locals []string
		for _, f := range fs[i:j] {
			l := g.newTmp("f")
			locals = append(locals, l)
			if f.Type.Kind.IsFloat() {
				p.F("const %s %s = sdp::bits_of(%s);", g.wtype(f.Type), l, prefix+fieldName(f, owner))
			} else {
				p.F("const %s %s = %s;", g.ctype(f.Type), l, prefix+fieldName(f, owner))
			}
		}
		off := 0
		for k, f := range fs[i:j] {
			if off == 0 {
				p.F("sdp::store(out, %s);", locals[k])
			} else {
				p.F("sdp::store(out + %d, %s);", off, locals[k])
			}
			off += flatSize(f.Type)
		}
		p.F("out += %d;", off)
		i = j
	}
}

// bulk reports a []T of numbers or of plain structs (gen.Plain): on
// little-endian targets its elements are already in wire form in memory.
func (g *generator) bulk(t *schema.Type) bool {
	return t.Kind == schema.Array && (t.Elem.IsNumeric() || g.plainArray(t))
}

// appends reports whether encode builds d's vector with sdp_append, which
// copies its bulk arrays into the vector instead of zero-filling their
// bytes first (the zero-fill costs as much as the copy).
func (g *generator) appends(d schema.Decl) bool {
	st, ok := d.(*schema.Struct)
	if !ok {
		return false
	}
	for _, f := range st.Fields {
		if g.bulk(f.Type) {
			return true
		}
	}
	return false
}

// appendFunc emits sdp_append for a struct with bulk array fields: each run
// of other fields is written into room the vector grows for it, each bulk
// array is appended with one range insert (a memcpy) on little-endian
// targets. The caller reserves the encoded size first.
func (g *generator) appendFunc(p *emit.Printer, d *schema.Struct) {
	g.tmp = 0
	n := g.name(d)
	p.Block(fmt.Sprintf("void sdp_append(std::vector<std::uint8_t>& buf, const %s& v) {", n), "}", func() {
		fs := d.Fields
		for i := 0; i < len(fs); {
			if t := fs[i].Type; g.bulk(t) {
				expr := "v." + fieldName(fs[i], n)
				if t.Elem.IsNumeric() {
					p.F("append_array(buf, %s);", expr)
				} else {
					g.appendPlain(p, t, expr)
				}
				i++
				continue
			}
			j := i
			for j < len(fs) && !g.bulk(fs[j].Type) {
				j++
			}
			// The run's writes go into room grown for exactly them.
			p.Block("{", "}", func() {
				// encode checked the whole value with sdp_size first.
				p.P("std::size_t n = 0;")
				g.sizeUnchecked = true
				if c := g.fieldsSize(p, fs[i:j], "v.", n); c != 0 {
					p.F("n += %d;", c)
				}
				g.sizeUnchecked = false
				p.P("std::uint8_t* out = grow(buf, n);")
				g.writeFields(p, fs[i:j], "v.", n)
			})
			i = j
		}
	})
}
