package python

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// encStmt writes statements appending the encoding of expr (a value of v)
// to _sdp_out: scalars, enums, strings and arrays of numbers inline, other
// values by their encoder.
func (g *generator) encStmt(v *plan.Value, expr string) {
	p := g.p
	switch v.Op {
	case plan.Scalar:
		switch {
		case v.Kind == schema.Bool:
			p.F("_sdp_out.append(_SDP_BOOL[%s])", expr)
		case v.Kind == schema.F32:
			p.F("_sdp_out += _sdp_pack_f32(%s)", expr)
		default:
			p.F("_sdp_out += %s.pack(%s)", scalarStruct[v.Kind], expr)
		}
	case plan.String:
		// Inline: a call per string is most of a small struct's encode. A
		// length of 2^32 or more fails in pack (EncodeError).
		p.F("_sdp_b = %s.encode(\"utf-8\")", expr)
		p.Line("_sdp_out += _SDP_U32_PACK(len(_sdp_b))")
		p.Line("_sdp_out += _sdp_b")
	case plan.Enum:
		p.F("_sdp_out += %s.pack(%s(%s))", scalarStruct[v.Kind], g.n.decl[v.Decl.Decl], expr)
	case plan.Numbers:
		// Inline: a large array's encode is mostly calls.
		p.F("_sdp_a = %s", expr)
		p.Line("_sdp_out += _sdp_count(len(_sdp_a))")
		p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_a)", typecode(v.Kind))
	default:
		p.F("_sdp_e_%s(%s, _sdp_out)", g.need(v), expr)
	}
}

// fieldsEncode writes the encoding of fields read from _sdp_v: a run of
// scalars and enums with one struct.Struct pack, other fields one by one.
func (g *generator) fieldsEncode(fields []*plan.Field) {
	for _, s := range plan.Group(fields, pyRuns) {
		if s.Run == nil {
			f := s.Fields[0]
			g.encStmt(f.Value, "_sdp_v."+g.n.fields[f.Field])
			continue
		}
		var exprs, nans []string
		for i, f := range s.Fields {
			x := "_sdp_v." + g.n.fields[f.Field]
			switch {
			case f.Value.Op == plan.Enum:
				exprs = append(exprs, g.n.decl[f.Value.Decl.Decl]+"("+x+")")
			case f.Value.Kind == schema.Bool:
				exprs = append(exprs, "_SDP_BOOL["+x+"]")
			default:
				exprs = append(exprs, x)
			}
			if f.Value.Op == plan.Scalar && f.Value.Kind == schema.F32 {
				off := s.Run.Leaves[i].Offset
				nans = append(nans, fmt.Sprintf("if %s != %s:  # NaN", x, x),
					fmt.Sprintf("    _sdp_out[_sdp_q + %d:_sdp_q + %d] = _sdp_pack_f32(%s)", off, off+4, x))
			}
		}
		if len(nans) > 0 {
			// struct's "f" quiets a signalling NaN: write NaNs bit for bit.
			g.p.Line("_sdp_q = len(_sdp_out)")
		}
		g.p.F("_sdp_out += %s.pack(%s)", g.structFormat(runCodes(s.Fields)), strings.Join(exprs, ", "))
		for _, l := range nans {
			g.p.Line(l)
		}
	}
}

// encoder writes _sdp_e_<canon>, which appends the encoding of a value of v
// to _sdp_out.
func (g *generator) encoder(v *plan.Value) {
	p := g.p
	p.F("def _sdp_e_%s(_sdp_v: %s, _sdp_out: bytearray) -> None:", canon(v), g.hint(v))
	p.In()
	defer p.Out()
	switch v.Op {
	case plan.Enum:
		g.encStmt(v, "_sdp_v")
	case plan.Struct:
		g.fieldsEncode(v.Decl.Fields)
		if len(v.Decl.Fields) == 0 {
			p.Line("pass")
		}
	case plan.Union:
		g.unionEncode(v.Decl)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		g.arrayEncode(v)
	case plan.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    _sdp_out.append(0)")
		p.Line("    return")
		p.Line("_sdp_out.append(1)")
		g.encStmt(v.Elem, held(v))
	}
}

// unionEncode writes a union's encoding by variant: the tag, then the
// variant's fields or the struct it carries.
func (g *generator) unionEncode(d *plan.Decl) {
	p := g.p
	for _, pv := range d.Variants {
		p.F("if isinstance(_sdp_v, %s):", g.variantClass(pv))
		p.In()
		p.F("_sdp_out.append(%d)", pv.Tag)
		if s := pv.Carries; s != nil {
			p.F("_sdp_e_%s(_sdp_v, _sdp_out)", g.need(s.Value))
		} else {
			g.fieldsEncode(pv.Fields)
		}
		p.Line("return")
		p.Out()
	}
	// The check walk names the rule and path (_sdp_refused).
	p.Line("raise TypeError(\"not a variant\")")
}

// arrayEncode writes an array's encoding: its count or length check, then
// bytes and numbers in one piece, other elements one by one.
func (g *generator) arrayEncode(v *plan.Value) {
	p := g.p
	if v.Op.Counted() {
		p.Line("_sdp_out += _sdp_count(len(_sdp_v))")
	} else {
		p.F("_sdp_fixed(_sdp_v, %d)", v.Len)
	}
	switch v.Op {
	case plan.Bytes, plan.FixedBytes:
		p.Line("_sdp_put(_sdp_out, _sdp_v)")
	case plan.Numbers, plan.FixedNumbers:
		p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_v)", typecode(v.Kind))
	default:
		p.Line("for _sdp_x in _sdp_v:")
		p.In()
		g.encStmt(v.Elem, "_sdp_x")
		p.Out()
	}
}

// holdsArrays reports whether a value of v can hold an array of numbers or
// of u8, which its encoder may keep aside (_SdpParts) instead of copying it
// into its bytearray: the struct's encode then joins the parts.
func holdsArrays(v *plan.Value) bool {
	return reachesArrays(v, map[*plan.Decl]bool{})
}

func reachesArrays(v *plan.Value, seen map[*plan.Decl]bool) bool {
	switch v.Op {
	case plan.Bytes, plan.Numbers, plan.FixedBytes, plan.FixedNumbers:
		return true
	case plan.Struct, plan.Union:
		if seen[v.Decl] {
			return false // visited, or a cycle
		}
		seen[v.Decl] = true
		for _, f := range v.Decl.Fields {
			if reachesArrays(f.Value, seen) {
				return true
			}
		}
		for _, pv := range v.Decl.Variants {
			for _, f := range pv.Fields {
				if reachesArrays(f.Value, seen) {
					return true
				}
			}
		}
		return false
	}
	return v.Elem != nil && reachesArrays(v.Elem, seen)
}
