package cpp

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// sizer prints the sum of encoded sizes: sdp_size's, which also checks the
// value (checked), or sdp_append's, after sdp_size checked it (unchecked).
type sizer struct {
	fn
	// unchecked makes the sum a plain std::size_t one, without the count
	// checks (sdp_append, after sdp_size checked the value).
	unchecked bool
}

// value emits statements adding the variable part of expr's encoded size
// to n and returns the constant part.
//
// Unless unchecked, it also emits the checks that make sdp_size return
// kTooLarge for a value the decoders would reject (issue #13): a string
// that is not UTF-8, an enum value the enum does not declare, a union
// holding no variant (valueless_by_exception).
func (z sizer) value(v *plan.Value, expr string) int {
	p := z.p
	if v.Fixed >= 0 && !z.validates(v) {
		return v.Fixed
	}
	switch v.Op {
	case plan.Enum:
		p.F("if (!is_valid(%s)) {", expr)
		p.P(indent + "return kTooLarge;")
		p.P("}")
		return v.Min
	case plan.String:
		z.countCheck(expr)
		if !z.unchecked {
			p.F("if (!utf8_ok(%s)) {", expr)
			p.P(indent + "return kTooLarge;")
			p.P("}")
		}
		p.F("n += %s.size();", expr)
		return 4
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		if v.Op.Counted() {
			z.countCheck(expr)
		}
		if v.Elem.Fixed >= 0 && !z.validates(v.Elem) {
			p.F("n += %s * %d;", z.size64(expr), v.Elem.Fixed)
			return 4
		}
		e := z.tmp("e")
		var c int
		p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
			c = z.value(v.Elem, e)
		})
		if !v.Op.Counted() {
			return int(v.Len) * c
		}
		if c != 0 {
			p.F("n += %s * %d;", z.size64(expr), c)
		}
		return 4
	case plan.Optional:
		p.Block(fmt.Sprintf("if (%s.has_value()) {", expr), "}", func() {
			if c := z.value(v.Elem, "(*"+expr+")"); c != 0 {
				p.F("n += %d;", c)
			}
		})
		return 1
	case plan.Struct, plan.Union:
		if z.unchecked {
			p.F("n += static_cast<std::size_t>(sdp_size(%s));", expr)
		} else {
			p.F("if (!add_size(n, sdp_size(%s))) {", expr)
			p.P(indent + "return kTooLarge;")
			p.P("}")
		}
		return 0
	}
	panic("cpp: sizer.value " + v.Op.String())
}

// validates reports whether sdp_size checks something in a value of v
// besides counts (an enum, a union or a string anywhere in it), so that its
// size cannot be a constant.
func (z sizer) validates(v *plan.Value) bool {
	if z.unchecked {
		return false
	}
	return z.g.validates(v)
}

// validates is sizer.validates for sdp_size.
func (g *generator) validates(v *plan.Value) bool {
	switch v.Op {
	case plan.Enum, plan.String, plan.Union:
		return true
	case plan.Struct:
		return g.declValidates(v.Decl)
	}
	if v.Elem != nil {
		return g.validates(v.Elem)
	}
	return false
}

// declValidates is validates for a struct or union declaration.
func (g *generator) declValidates(pd *plan.Decl) bool {
	if pd.Struct == nil {
		return true // a union: its variant is checked
	}
	if v, ok := g.checks[pd]; ok {
		return v
	}
	if g.checks == nil {
		g.checks = map[*plan.Decl]bool{}
	}
	g.checks[pd] = false // a cycle adds nothing
	v := false
	for _, f := range pd.Fields {
		if g.validates(f.Value) {
			v = true
			break
		}
	}
	g.checks[pd] = v
	return v
}

// countCheck emits the check that a string's or array's length fits the
// wire's u32 count: sdp_size returns kTooLarge for a value holding one
// that does not, and the encoders refuse it.
func (z sizer) countCheck(expr string) {
	if z.unchecked {
		return
	}
	z.p.F("if (too_long(%s.size())) {", expr)
	z.p.P(indent + "return kTooLarge;")
	z.p.P("}")
}

// size64 is a container's size widened for sdp_size's 64-bit sum (the
// products cannot wrap a 32-bit std::size_t then).
func (z sizer) size64(expr string) string {
	if z.unchecked {
		return expr + ".size()"
	}
	return "static_cast<std::uint64_t>(" + expr + ".size())"
}

// fields emits the size of fields read through prefix.
func (z sizer) fields(fs []*plan.Field, prefix, owner string) int {
	c := 0
	for _, f := range fs {
		c += z.value(f.Value, member(prefix, f, owner))
	}
	return c
}

// member is the C++ expression of field f of the value prefix names
// ("v." or "x."): the value itself for the struct a struct variant carries.
func member(prefix string, f *plan.Field, owner string) string {
	if f.Field == nil {
		return strings.TrimSuffix(prefix, ".")
	}
	return prefix + fieldName(f.Field, owner)
}

func (g *generator) sizeFunc(p *emit.Printer, d schema.Decl) {
	n := g.name(d)
	pd := g.plan.Of(d)
	z := sizer{fn: g.fn(p)}
	if pd.Struct != nil {
		if pd.Fixed >= 0 && !g.declValidates(pd) {
			p.F("inline std::uint64_t sdp_size(const %s&) noexcept { return %d; }", n, pd.Fixed)
			return
		}
		p.Block(fmt.Sprintf("inline std::uint64_t sdp_size(const %s& v) noexcept {", n), "}", func() {
			p.P("std::uint64_t n = 0;")
			if c := z.fields(pd.Fields, "v.", n); c != 0 {
				p.F("n += %d;", c)
			}
			p.P("return n;")
		})
		return
	}
	p.Block(fmt.Sprintf("inline std::uint64_t sdp_size(const %s& v) noexcept {", n), "}", func() {
		p.P("std::uint64_t n = 1;")
		p.P("switch (v.value.index()) {")
		for _, pv := range pd.Variants {
			variantCase(p, pv, func() {
				if c := z.fields(pv.Fields, "x.", variantName(pv.Variant, n)); c != 0 {
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

// variantCase emits `case tag: { bind; body; break; }`, binding x only when
// the variant has data.
func variantCase(p *emit.Printer, v *plan.Variant, body func(), bind string) {
	if len(v.Fields) == 0 {
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

// writeValue emits statements writing the value expr at out.
func (b fn) writeValue(v *plan.Value, expr string) {
	p := b.p
	switch v.Op {
	case plan.Scalar, plan.Enum:
		p.F("out = put(out, %s);", expr)
	case plan.String:
		p.F("out = put_str(out, %s.data(), %s.size());", expr, expr)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		count := fmt.Sprint(v.Len)
		if v.Op.Counted() {
			p.F("out = put_count(out, %s.size());", expr)
			count = expr + ".size()"
		}
		switch {
		case v.Op == plan.Array && isBool(v.Elem):
			e := b.tmp("e")
			p.Block(fmt.Sprintf("for (const bool %s : %s) {", e, expr), "}", func() {
				p.F("out = put(out, %s);", e)
			})
		case flatValue(v.Elem):
			p.F("out = store_array(out, %s.data(), %s);", expr, count)
		case plainArray(v):
			b.plainWrite(v, expr, count)
		default:
			e := b.tmp("e")
			p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
				b.writeValue(v.Elem, e)
			})
		}
	case plan.Optional:
		p.F("out = put(out, static_cast<std::uint8_t>(%s.has_value() ? 1 : 0));", expr)
		p.Block(fmt.Sprintf("if (%s.has_value()) {", expr), "}", func() {
			b.writeValue(v.Elem, "(*"+expr+")")
		})
	case plan.Struct, plan.Union:
		p.F("out = sdp_write(out, %s);", expr)
	default:
		panic("cpp: writeValue " + v.Op.String())
	}
}

// writeFunc emits sdp_write. It and sdp_size are declared inline: the hint
// lets the compiler inline an element's writer into the loop over an array
// of structs (about 15% fewer instructions encoding the plugin registry).
func (g *generator) writeFunc(p *emit.Printer, d schema.Decl) {
	b := g.fn(p)
	n := g.name(d)
	pd := g.plan.Of(d)
	if pd.Struct != nil {
		if len(pd.Fields) == 0 {
			p.F("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s&) noexcept { return out; }", n)
			return
		}
		p.Block(fmt.Sprintf("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s& v) noexcept {", n), "}", func() {
			b.writeFields(pd.Fields, "v.", n)
			p.P("return out;")
		})
		return
	}
	p.Block(fmt.Sprintf("inline std::uint8_t* sdp_write(std::uint8_t* out, const %s& v) noexcept {", n), "}", func() {
		p.P("out = put(out, static_cast<std::uint8_t>(v.value.index()));")
		p.P("switch (v.value.index()) {")
		for _, pv := range pd.Variants {
			variantCase(p, pv, func() {
				b.writeFields(pv.Fields, "x.", variantName(pv.Variant, n))
			}, "const auto& x = *std::get_if<%d>(&v.value);")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
		p.P("return out;")
	})
}

// storeRuns groups the fields sdp_write stores together: two or more
// scalars and enums in a row.
var storeRuns = plan.RunRule{Enums: true, MinFields: 2}

// writeFields emits the writes of fields read through prefix.
func (b fn) writeFields(fs []*plan.Field, prefix, owner string) {
	g, p := b.g, b.p
	for _, st := range plan.Group(fs, storeRuns) {
		if st.Run == nil {
			b.writeValue(st.Fields[0].Value, member(prefix, st.Fields[0], owner))
			continue
		}
		// A run of scalars and enums: loading them all before storing any
		// lets the compiler merge the stores (the output may alias the
		// value, so interleaved loads and stores must stay one at a time).
		var locals []string
		for _, f := range st.Fields {
			l := b.tmp("f")
			locals = append(locals, l)
			if f.Value.Kind.IsFloat() {
				p.F("const %s %s = sdp::bits_of(%s);", g.wtype(f.Value.Type), l, member(prefix, f, owner))
			} else {
				p.F("const %s %s = %s;", g.ctype(f.Value.Type), l, member(prefix, f, owner))
			}
		}
		for k, l := range st.Run.Leaves {
			if l.Offset == 0 {
				p.F("sdp::store(out, %s);", locals[k])
			} else {
				p.F("sdp::store(out + %d, %s);", l.Offset, locals[k])
			}
		}
		p.F("out += %d;", st.Run.Size)
	}
}

// bulk reports a []T of numbers or of plain structs (gen.Plain): on
// little-endian targets its elements are already in wire form in memory.
func bulk(v *plan.Value) bool {
	switch v.Op {
	case plan.Bytes, plan.Numbers, plan.PlainArray:
		return true
	}
	return false
}

// appends reports whether encode builds d's vector with sdp_append, which
// copies its bulk arrays into the vector instead of zero-filling their
// bytes first (the zero-fill costs as much as the copy).
func (g *generator) appends(d schema.Decl) bool {
	for _, f := range g.plan.Of(d).Fields {
		if bulk(f.Value) {
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
	b := g.fn(p)
	n := g.name(d)
	z := sizer{fn: b, unchecked: true}
	p.Block(fmt.Sprintf("void sdp_append(std::vector<std::uint8_t>& buf, const %s& v) {", n), "}", func() {
		fs := g.plan.Of(d).Fields
		for i := 0; i < len(fs); {
			if v := fs[i].Value; bulk(v) {
				expr := "v." + fieldName(fs[i].Field, n)
				if v.Op == plan.PlainArray {
					b.appendPlain(v, expr)
				} else {
					p.F("append_array(buf, %s);", expr)
				}
				i++
				continue
			}
			j := i
			for j < len(fs) && !bulk(fs[j].Value) {
				j++
			}
			// The run's writes go into room grown for exactly them.
			p.Block("{", "}", func() {
				// encode checked the whole value with sdp_size first.
				p.P("std::size_t n = 0;")
				if c := z.fields(fs[i:j], "v.", n); c != 0 {
					p.F("n += %d;", c)
				}
				p.P("std::uint8_t* out = grow(buf, n);")
				b.writeFields(fs[i:j], "v.", n)
			})
			i = j
		}
	})
}
