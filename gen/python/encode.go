package python

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// encStmt writes statements appending the encoding of expr (of type t) to _sdp_out.
func (g *generator) encStmt(t *schema.Type, expr string) {
	p := g.p
	switch k := t.Kind; {
	case k == schema.Bool:
		p.F("_sdp_out.append(1 if %s else 0)", expr)
	case k == schema.F32:
		p.F("_sdp_out += _sdp_pack_f32(%s)", expr)
	case k.IsScalar():
		p.F("_sdp_out += %s.pack(%s)", scalarStruct[k], expr)
	case k == schema.String:
		// Inline: a call per string is most of a small struct's encode. A
		// length of 2^32 or more fails in pack (EncodeError).
		p.F("_sdp_b = %s.encode(\"utf-8\")", expr)
		p.Line("_sdp_out += _SDP_U32_PACK(len(_sdp_b))")
		p.Line("_sdp_out += _sdp_b")
	case k == schema.EnumRef:
		p.F("_sdp_out += %s.pack(%s(%s))", scalarStruct[t.Enum.Base], g.n.decl[t.Enum], expr)
	case k == schema.Array && t.Elem.IsNumeric() && t.Elem.Kind != schema.U8:
		// Inline: a large array's encode is mostly calls.
		p.F("_sdp_a = %s", expr)
		p.Line("_sdp_out += _sdp_count(len(_sdp_a))")
		p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_a)", typecode(t.Elem.Kind))
	default:
		p.F("_sdp_e_%s(%s, _sdp_out)", g.needT(t), expr)
	}
}

// fieldsEncode writes the encoding of fields read from _sdp_v.
func (g *generator) fieldsEncode(fields []*schema.Field) {
	for _, run := range runs(fields) {
		if run[1]-run[0] == 1 {
			f := fields[run[0]]
			g.encStmt(f.Type, "_sdp_v."+g.n.fields[f])
			continue
		}
		st, _ := g.runStruct(fields[run[0]:run[1]])
		var exprs []string
		for _, f := range fields[run[0]:run[1]] {
			x := "_sdp_v." + g.n.fields[f]
			switch f.Type.Kind {
			case schema.Bool:
				x = "1 if " + x + " else 0"
			case schema.EnumRef:
				x = g.n.decl[f.Type.Enum] + "(" + x + ")"
			}
			exprs = append(exprs, x)
		}
		var nans []string
		off := 0
		for _, f := range fields[run[0]:run[1]] {
			if f.Type.Kind == schema.F32 {
				x := "_sdp_v." + g.n.fields[f]
				nans = append(nans, fmt.Sprintf("if %s != %s:  # NaN", x, x),
					fmt.Sprintf("    _sdp_out[_sdp_q + %d:_sdp_q + %d] = _sdp_pack_f32(%s)", off, off+4, x))
			}
			n, _ := f.Type.FixedSize()
			off += n
		}
		if len(nans) > 0 {
			// struct's "f" quiets a signalling NaN: write NaNs bit for bit.
			g.p.Line("_sdp_q = len(_sdp_out)")
		}
		g.p.F("_sdp_out += %s.pack(%s)", st, strings.Join(exprs, ", "))
		for _, l := range nans {
			g.p.Line(l)
		}
	}
}

func (g *generator) encoder(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_e_%s(_sdp_v: %s, _sdp_out: bytearray) -> None:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		g.encStmt(t, "_sdp_v")
	case schema.StructRef:
		g.fieldsEncode(t.Struct.Fields)
		if len(t.Struct.Fields) == 0 {
			p.Line("pass")
		}
	case schema.UnionRef:
		for _, v := range t.Union.Variants {
			p.F("if isinstance(_sdp_v, %s):", g.variantClass(v))
			p.In()
			p.F("_sdp_out.append(%d)", v.Tag)
			switch v.Kind {
			case schema.VariantStruct:
				p.F("_sdp_e_%s(_sdp_v, _sdp_out)", g.needT(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}))
			case schema.VariantInline:
				g.fieldsEncode(v.Fields)
			}
			p.Line("return")
			p.Out()
		}
		p.F("raise EncodeError(\"union %s: \" + repr(_sdp_v) + \" is not one of its variants\")", pyString(t.Union.Name))
	case schema.Array, schema.FixedArray:
		e := t.Elem
		if t.Kind == schema.FixedArray {
			p.F("_sdp_fixed(_sdp_v, %d)", t.Len)
		} else {
			p.Line("_sdp_out += _sdp_count(len(_sdp_v))")
		}
		switch {
		case e.Kind == schema.U8:
			p.Line("_sdp_put(_sdp_out, _sdp_v)")
		case e.IsNumeric():
			p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_v)", typecode(e.Kind))
		default:
			p.Line("for _sdp_x in _sdp_v:")
			p.In()
			g.encStmt(e, "_sdp_x")
			p.Out()
		}
	case schema.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    _sdp_out.append(0)")
		p.Line("    return")
		p.Line("_sdp_out.append(1)")
		if t.Elem.Kind == schema.Optional {
			g.encStmt(t.Elem, "_sdp_v.value")
		} else {
			g.encStmt(t.Elem, "_sdp_v")
		}
	}
}

// holdsArrays reports whether a value of type t can hold an array of numbers
// or of u8, which its encoder may keep aside (_SdpParts) instead of copying
// it into its bytearray: the struct's encode then joins the parts.
func holdsArrays(t *schema.Type) bool {
	return schema.Reaches(t, func(t *schema.Type) bool {
		return (t.Kind == schema.Array || t.Kind == schema.FixedArray) && t.Elem.IsNumeric()
	})
}
