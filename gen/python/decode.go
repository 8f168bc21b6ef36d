package python

import (
	"fmt"
	"strings"

	"sdp/schema"
)

var scalarStruct = map[schema.Kind]string{schema.U8: "_SDP_U8", schema.U16: "_SDP_U16", schema.U32: "_SDP_U32",
	schema.U64: "_SDP_U64", schema.I8: "_SDP_I8", schema.I16: "_SDP_I16", schema.I32: "_SDP_I32",
	schema.I64: "_SDP_I64", schema.F32: "_SDP_F32", schema.F64: "_SDP_F64"}

func article(k schema.Kind) string {
	if k == schema.I8 || k == schema.I16 || k == schema.I32 || k == schema.I64 || k.IsFloat() {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// decExpr is an expression decoding a value of t held at depth _sdp_depth.
func (g *generator) decExpr(t *schema.Type) string {
	switch k := t.Kind; {
	case k == schema.Bool:
		return "_sdp_r.bool_()"
	case k == schema.F32:
		return "_sdp_r.f32()"
	case k == schema.F64:
		return "_sdp_r.f64()"
	case k.IsInteger():
		return fmt.Sprintf("_sdp_r.scalar(%s, %d, %q)", scalarStruct[k], k.Size(), article(k))
	case k == schema.String:
		return "_sdp_r.str_()"
	case k == schema.EnumRef:
		return fmt.Sprintf("_sdp_r.enum(%s, %d, %s)", scalarStruct[t.Enum.Base], t.Enum.Base.Size(), g.n.decl[t.Enum])
	case k == schema.StructRef, k == schema.UnionRef:
		return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.needT(t))
	}
	return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth)", g.needT(t))
}

// fieldsDecode writes the decoding of fields into _sdp_v0... and returns the
// constructor arguments; path is the path prefix of their names.
func (g *generator) fieldsDecode(fields []*schema.Field, prefix, temp string) string {
	p := g.p
	var args []string
	if len(fields) == 0 {
		return ""
	}
	p.F("_sdp_f = %q", prefix+fields[0].Name)
	p.Line("try:")
	p.In()
	one := func(i int, first bool) {
		f := fields[i]
		if !first {
			p.F("_sdp_f = %q", prefix+f.Name)
		}
		p.F("%s%d = %s", temp, i, g.decExpr(f.Type))
	}
	for _, run := range runs(fields) {
		if run[1]-run[0] == 1 {
			one(run[0], run[0] == 0)
			continue
		}
		// A run of fixed-size fields: one struct.Struct when it all fits,
		// else field by field, so that errors are the reference's.
		size := 0
		var vars []string
		for i := run[0]; i < run[1]; i++ {
			vars = append(vars, fmt.Sprintf("%s%d", temp, i))
		}
		if run[0] > 0 {
			p.F("_sdp_f = %q", prefix+fields[run[0]].Name)
		}
		p.Line("_sdp_p = _sdp_r.pos")
		st, total := g.runStruct(fields[run[0]:run[1]])
		p.F("if _sdp_p + %d <= _sdp_r.end:", total)
		p.In()
		p.F("%s = %s.unpack_from(_sdp_r.buf, _sdp_p)", strings.Join(vars, ", "), st)
		p.F("_sdp_r.pos = _sdp_p + %d", total)
		for i := run[0]; i < run[1]; i++ {
			f, v := fields[i], vars[i-run[0]]
			switch f.Type.Kind {
			case schema.Bool:
				p.F("if %s > 1:", v)
				p.F("    _sdp_f = %q", prefix+f.Name)
				p.F("    raise DecodeError(\"bool\", _sdp_p + %d, \"bool byte is \" + hex(%s) + \", not 0 or 1\")", size, v)
				p.F("%s = %s == 1", v, v)
			case schema.EnumRef:
				p.F("_sdp_f = %q", prefix+f.Name)
				p.F("%s = _sdp_r.enum_value(%s, %s, _sdp_p + %d)", v, g.n.decl[f.Type.Enum], v, size)
			case schema.F32:
				p.F("if %s != %s:  # a NaN  # noqa: PLR0124", v, v)
				p.F("    %s = _sdp_r.f32_at(_sdp_p + %d)", v, size)
			}
			n, _ := f.Type.FixedSize()
			size += n
		}
		p.Out()
		p.Line("else:")
		p.In()
		for i := run[0]; i < run[1]; i++ {
			one(i, i == run[0])
		}
		p.Out()
	}
	for i := range fields {
		args = append(args, fmt.Sprintf("%s%d", temp, i))
	}
	p.Out()
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_f)")
	p.Line("    raise")
	return strings.Join(args, ", ")
}

func (g *generator) decoder(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_d_%s(_sdp_r: _SdpReader, _sdp_depth: int) -> %s:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		p.F("return %s", g.decExpr(t))
	case schema.StructRef:
		st := t.Struct
		p.F("if _sdp_depth > _sdp_r.max_depth:")
		p.F("    raise _sdp_r.depth(%q, _sdp_depth)", st.Name)
		if hasInline(st.Fields) {
			g.fastFields(st)
		}
		args := g.fieldsDecode(st.Fields, "", "_sdp_v")
		p.F("return %s(%s)", g.n.decl[st], args)
	case schema.UnionRef:
		u := t.Union
		p.F("if _sdp_depth > _sdp_r.max_depth:")
		p.F("    raise _sdp_r.depth(%q, _sdp_depth)", u.Name)
		p.Line("_sdp_p = _sdp_r.pos")
		p.F("_sdp_tag = _sdp_r.u8(%q)", "the tag of union "+u.Name)
		for _, v := range u.Variants {
			p.F("if _sdp_tag == %d:", v.Tag)
			p.In()
			switch v.Kind {
			case schema.VariantUnit:
				p.F("return %s()", g.n.variant[v])
			case schema.VariantStruct:
				p.Line("try:")
				p.F("    return _sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.needT(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}))
				p.Line("except DecodeError as _sdp_e:")
				p.F("    _sdp_e._sdp_segs.append(%q)", v.Name)
				p.Line("    raise")
			case schema.VariantInline:
				args := g.fieldsDecode(v.Fields, v.Name+".", fmt.Sprintf("_sdp_v%d_", v.Tag))
				p.F("return %s(%s)", g.n.variant[v], args)
			}
			p.Out()
		}
		p.F("raise DecodeError(\"union_tag\", _sdp_p, \"tag \" + str(_sdp_tag) + \" is not a variant of union %s (it has %d)\")", pyString(u.Name), len(u.Variants))
	case schema.Array:
		e := t.Elem
		if e.IsNumeric() && e.Kind != schema.U8 {
			// One call: a numeric array's decoding is O(1) Python operations.
			p.F("return _sdp_r.array(%q, %d, %d)", typecode(e.Kind), e.Kind.Size(), t.ArrayCharge())
			return
		}
		p.Line(`_sdp_p, _sdp_n = _sdp_r.length("an array count")`)
		p.F("_sdp_r.count(_sdp_p, _sdp_n, %d)", e.MinSize())
		if ch := t.ArrayCharge(); ch > 0 {
			p.F("_sdp_r.charge(_sdp_p, _sdp_n, %d)", ch)
		}
		switch {
		case e.Kind == schema.U8:
			p.Line("return _sdp_r.bytes_(_sdp_n)")
		case e.IsNumeric():
			p.F("return _sdp_r.numbers(%q, _sdp_n, %d)", typecode(e.Kind), e.Kind.Size())
		case e.Kind == schema.Bool:
			p.Line("return _sdp_r.bools(_sdp_n)")
		default:
			g.loop(e, "_sdp_n")
		}
	case schema.FixedArray:
		e := t.Elem
		switch {
		case e.Kind == schema.U8:
			p.F("_sdp_r.fixed(%d, 1, \"a u8\")", t.Len)
			p.F("return _sdp_r.bytes_(%d)", t.Len)
		case e.IsNumeric():
			p.F("_sdp_r.fixed(%d, %d, %q)", t.Len, e.Kind.Size(), article(e.Kind))
			p.F("return _sdp_r.numbers(%q, %d, %d)", typecode(e.Kind), t.Len, e.Kind.Size())
		case e.Kind == schema.Bool:
			p.F("return _sdp_r.fixed_bools(%d)", t.Len)
		default:
			g.loop(e, fmt.Sprint(t.Len))
		}
	case schema.Optional:
		p.Line("_sdp_p = _sdp_r.pos")
		p.Line(`_sdp_b = _sdp_r.u8("an optional's presence byte")`)
		p.Line("if _sdp_b == 0:")
		p.Line("    return None")
		p.Line("if _sdp_b != 1:")
		p.Line(`    raise DecodeError("presence", _sdp_p, "presence byte is " + hex(_sdp_b) + ", not 0 or 1")`)
		if ch := t.PresenceCharge(); ch > 0 {
			p.F("_sdp_r.charge(_sdp_p, 1, %d)", ch)
		}
		if t.Elem.Kind == schema.Optional {
			p.F("return Some(%s)", g.decExpr(t.Elem))
		} else {
			p.F("return %s", g.decExpr(t.Elem))
		}
	}
}

func (g *generator) loop(e *schema.Type, n string) {
	if g.inlineLoop(e, n) {
		return
	}
	p := g.p
	p.F("_sdp_out: list[%s] = []", g.hint(e))
	p.Line("_sdp_i = 0")
	p.Line("try:")
	p.F("    for _sdp_i in range(%s):", n)
	p.F("        _sdp_out.append(%s)", g.decExpr(e))
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_i)")
	p.Line("    raise")
	p.Line("return _sdp_out")
}
