package python

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
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

// decExpr is an expression decoding a value of v held at depth _sdp_depth:
// a reader method for scalars, enums and strings, else v's decoder (one
// level deeper for a struct or union).
func (g *generator) decExpr(v *plan.Value) string {
	switch v.Op {
	case plan.Scalar:
		switch k := v.Kind; {
		case k == schema.Bool:
			return "_sdp_r.bool_()"
		case k == schema.F32:
			return "_sdp_r.f32()"
		case k == schema.F64:
			return "_sdp_r.f64()"
		default:
			return fmt.Sprintf("_sdp_r.scalar(%s, %d, %q)", scalarStruct[k], v.Fixed, article(k))
		}
	case plan.String:
		return "_sdp_r.str_()"
	case plan.Enum:
		return fmt.Sprintf("_sdp_r.enum(%s, %d, %s)", scalarStruct[v.Kind], v.Fixed, g.n.decl[v.Decl.Decl])
	case plan.Struct, plan.Union:
		return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.need(v))
	}
	return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth)", g.need(v))
}

// fieldsDecode writes the decoding of fields into <temp>0... and returns the
// constructor arguments; prefix is the path prefix of their names. A run of
// scalars and enums is read with one struct.Struct when it all fits, else
// field by field, so that errors are the reference's.
func (g *generator) fieldsDecode(fields []*plan.Field, prefix, temp string) string {
	p := g.p
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
		p.F("%s%d = %s", temp, i, g.decExpr(f.Value))
	}
	start := 0
	for _, s := range plan.Group(fields, pyRuns) {
		i := start
		start += len(s.Fields)
		if s.Run == nil {
			one(i, i == 0)
			continue
		}
		var vars []string
		for j := range s.Fields {
			vars = append(vars, fmt.Sprintf("%s%d", temp, i+j))
		}
		if i > 0 {
			p.F("_sdp_f = %q", prefix+s.Fields[0].Name)
		}
		p.Line("_sdp_p = _sdp_r.pos")
		p.F("if _sdp_p + %d <= _sdp_r.end:", s.Run.Size)
		p.In()
		p.F("%s = %s.unpack_from(_sdp_r.buf, _sdp_p)", strings.Join(vars, ", "), g.structFormat(runCodes(s.Fields)))
		p.F("_sdp_r.pos = _sdp_p + %d", s.Run.Size)
		for j, f := range s.Fields {
			x, off := vars[j], s.Run.Leaves[j].Offset
			switch {
			case f.Value.Op == plan.Enum:
				p.F("_sdp_f = %q", prefix+f.Name)
				p.F("%s = _sdp_r.enum_value(%s, %s, _sdp_p + %d)", x, g.n.decl[f.Value.Decl.Decl], x, off)
			case f.Value.Kind == schema.Bool:
				p.F("if %s > 1:", x)
				p.F("    _sdp_f = %q", prefix+f.Name)
				p.F("    raise DecodeError(\"bool\", _sdp_p + %d, \"bool byte is \" + hex(%s) + \", not 0 or 1\")", off, x)
				p.F("%s = %s == 1", x, x)
			case f.Value.Kind == schema.F32:
				p.F("if %s != %s:  # a NaN  # noqa: PLR0124", x, x)
				p.F("    %s = _sdp_r.f32_at(_sdp_p + %d)", x, off)
			}
		}
		p.Out()
		p.Line("else:")
		p.In()
		for j := range s.Fields {
			one(i+j, j == 0)
		}
		p.Out()
	}
	var args []string
	for i := range fields {
		args = append(args, fmt.Sprintf("%s%d", temp, i))
	}
	p.Out()
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_f)")
	p.Line("    raise")
	return strings.Join(args, ", ")
}

// decoder writes _sdp_d_<canon>, which decodes a value of v held at depth
// _sdp_depth.
func (g *generator) decoder(v *plan.Value) {
	p := g.p
	p.F("def _sdp_d_%s(_sdp_r: _SdpReader, _sdp_depth: int) -> %s:", canon(v), g.hint(v))
	p.In()
	defer p.Out()
	switch v.Op {
	case plan.Enum:
		p.F("return %s", g.decExpr(v))
	case plan.Struct:
		g.structDecode(v.Decl)
	case plan.Union:
		g.unionDecode(v.Decl)
	case plan.Numbers:
		// One call: a numeric array's decoding is O(1) Python operations.
		p.F("return _sdp_r.array(%q, %d, %d)", typecode(v.Kind), v.Elem.Fixed, v.Charge)
	case plan.Bytes, plan.PlainArray, plan.Array:
		g.countedDecode(v)
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		g.fixedDecode(v)
	case plan.Optional:
		g.optionalDecode(v)
	}
}

// structDecode decodes a struct: its depth check, its fast path when it has
// one, then its fields one by one.
func (g *generator) structDecode(d *plan.Decl) {
	p := g.p
	p.F("if _sdp_depth > _sdp_r.max_depth:")
	p.F("    raise _sdp_r.depth(%q, _sdp_depth)", d.Name())
	if hasInline(d.Fields) {
		g.fastFields(d)
	}
	args := g.fieldsDecode(d.Fields, "", "_sdp_v")
	p.F("return %s(%s)", g.n.decl[d.Decl], args)
}

// unionDecode decodes a union: its depth check and tag, then by tag the
// variant's fields (path segments under the variant's name) or the struct
// it carries (the variant's name is its path segment).
func (g *generator) unionDecode(d *plan.Decl) {
	p := g.p
	p.F("if _sdp_depth > _sdp_r.max_depth:")
	p.F("    raise _sdp_r.depth(%q, _sdp_depth)", d.Name())
	p.Line("_sdp_p = _sdp_r.pos")
	p.F("_sdp_tag = _sdp_r.u8(%q)", "the tag of union "+d.Name())
	for _, pv := range d.Variants {
		p.F("if _sdp_tag == %d:", pv.Tag)
		p.In()
		if s := pv.Carries; s != nil {
			p.Line("try:")
			p.F("    return _sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.need(s.Value))
			p.Line("except DecodeError as _sdp_e:")
			p.F("    _sdp_e._sdp_segs.append(%q)", pv.Name)
			p.Line("    raise")
		} else {
			args := g.fieldsDecode(pv.Fields, pv.Name+".", fmt.Sprintf("_sdp_v%d_", pv.Tag))
			p.F("return %s(%s)", g.n.variant[pv.Variant], args)
		}
		p.Out()
	}
	p.F("raise DecodeError(\"union_tag\", _sdp_p, \"tag \" + str(_sdp_tag) + \" is not a variant of union %s (it has %d)\")", pyString(d.Name()), len(d.Variants))
}

// countedDecode decodes a counted array other than of numbers: its count,
// checked against the input left (MinElem) and charged (Charge), then its
// elements.
func (g *generator) countedDecode(v *plan.Value) {
	p := g.p
	p.Line(`_sdp_p, _sdp_n = _sdp_r.length("an array count")`)
	p.F("_sdp_r.count(_sdp_p, _sdp_n, %d)", v.MinElem)
	if v.Charge > 0 {
		p.F("_sdp_r.charge(_sdp_p, _sdp_n, %d)", v.Charge)
	}
	switch {
	case v.Op == plan.Bytes:
		p.Line("return _sdp_r.bytes_(_sdp_n)")
	case v.Elem.Op == plan.Scalar && v.Elem.Kind == schema.Bool:
		p.Line("return _sdp_r.bools(_sdp_n)")
	default:
		g.loop(v.Elem, "_sdp_n")
	}
}

// fixedDecode decodes a fixed array: bytes and numbers with one length
// check, bools with one call, other elements one by one.
func (g *generator) fixedDecode(v *plan.Value) {
	p := g.p
	switch {
	case v.Op == plan.FixedBytes:
		p.F("_sdp_r.fixed(%d, 1, \"a u8\")", v.Len)
		p.F("return _sdp_r.bytes_(%d)", v.Len)
	case v.Op == plan.FixedNumbers:
		p.F("_sdp_r.fixed(%d, %d, %q)", v.Len, v.Elem.Fixed, article(v.Kind))
		p.F("return _sdp_r.numbers(%q, %d, %d)", typecode(v.Kind), v.Len, v.Elem.Fixed)
	case v.Elem.Op == plan.Scalar && v.Elem.Kind == schema.Bool:
		p.F("return _sdp_r.fixed_bools(%d)", v.Len)
	default:
		g.loop(v.Elem, fmt.Sprint(v.Len))
	}
}

// optionalDecode decodes an optional: its presence byte, its charge when
// present, then its value (a Some when the value is itself optional).
func (g *generator) optionalDecode(v *plan.Value) {
	p := g.p
	p.Line("_sdp_p = _sdp_r.pos")
	p.Line(`_sdp_b = _sdp_r.u8("an optional's presence byte")`)
	p.Line("if _sdp_b == 0:")
	p.Line("    return None")
	p.Line("if _sdp_b != 1:")
	p.Line(`    raise DecodeError("presence", _sdp_p, "presence byte is " + hex(_sdp_b) + ", not 0 or 1")`)
	if v.Charge > 0 {
		p.F("_sdp_r.charge(_sdp_p, 1, %d)", v.Charge)
	}
	if v.Elem.Op == plan.Optional {
		p.F("return Some(%s)", g.decExpr(v.Elem))
	} else {
		p.F("return %s", g.decExpr(v.Elem))
	}
}

// loop decodes n elements of e, each adding its index to the error path;
// inline (inlineLoop) for structs with a fast path of their own.
func (g *generator) loop(e *plan.Value, n string) {
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
