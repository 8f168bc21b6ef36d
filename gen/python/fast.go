package python

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// fastPlan is a struct's fast path: its leaves (fields read inline or by a
// call, the flattened fields of fixed-size structs in their place, read into
// _sdp_w0...; the field-by-field decoder's _sdp_v0... may have other types),
// the constructor's arguments, how deep the flattened structs go, whether a
// leaf is decoded by a call (nested) and whether one is a string.
type fastPlan struct {
	leaves          []*plan.Field
	args            []string
	deepest         int
	nested, strings bool
}

func (g *generator) planFast(d *plan.Decl) fastPlan {
	var fp fastPlan
	var expr func(fields []*plan.Field, depth int) []string
	expr = func(fields []*plan.Field, depth int) []string {
		if depth > fp.deepest {
			fp.deepest = depth
		}
		var args []string
		for _, f := range fields {
			if f.Value.Op == plan.Struct && flattens(f.Value.Decl, 0) {
				sub := expr(f.Value.Decl.Fields, depth+1)
				args = append(args, fmt.Sprintf("%s(%s)", g.n.decl[f.Value.Decl.Decl], strings.Join(sub, ", ")))
				continue
			}
			args = append(args, fmt.Sprintf("_sdp_w%d", len(fp.leaves)))
			fp.leaves = append(fp.leaves, f)
		}
		return args
	}
	fp.args = expr(d.Fields, 0)
	for _, f := range fp.leaves {
		switch {
		case f.Value.Op == plan.String:
			fp.strings = true
		case !packed(f.Value):
			fp.nested = true
		}
	}
	return fp
}

// fastFields writes a struct decoder's fast path: the struct's own strings
// and fixed-size fields, and the fields of its fixed-size struct fields
// (flattens, flattened), are read inline from local variables (one
// struct.Struct per run of fixed-size fields, no method call per field);
// other fields call their decoders. It returns the value, or, at anything
// it does not take as it is (a truncated input, a bool or enum byte out of
// range, a string that is not UTF-8 or longer than the input, flattened
// structs nested deeper than the depth limit: IndexError, ValueError or
// struct.error), rewinds the reader and falls through to the field-by-field
// decoder after it, which finds the same problem and raises the reference's
// DecodeError with its offset and path. DecodeErrors of the called decoders
// get their path here as there; the rewind happens only for this struct's
// own fields, so a hostile input costs at most twice.
func (g *generator) fastFields(d *plan.Decl) {
	p := g.p
	fp := g.planFast(d)
	p.Line("_sdp_s = _sdp_p = _sdp_r.pos")
	if fp.nested {
		// Only the decoders of other fields charge the memory limit.
		p.Line("_sdp_m = _sdp_r.mem_used")
	}
	p.Line("_sdp_b = _sdp_r.buf")
	if fp.strings {
		p.Line("_sdp_end = _sdp_r.end")
	}
	p.Line("try:")
	p.In()
	if fp.nested {
		p.Line("try:")
		p.In()
	}
	if fp.deepest > 0 {
		// The flattened structs' depth checks (rule 9): the field-by-field
		// decoder raises the error.
		p.F("if _sdp_depth + %d > _sdp_r.max_depth:", fp.deepest)
		p.Line("    raise _SdpSlow")
	}
	g.fastBody(fp)
	p.Line("_sdp_r.pos = _sdp_p")
	p.F("return %s", g.fastValue(d, fp))
	if fp.nested {
		p.Out()
		p.Line("except DecodeError as _sdp_e:")
		p.Line("    _sdp_e._sdp_segs.append(_sdp_f)")
		p.Line("    raise")
	}
	p.Out()
	p.Line(fastMisses)
	p.Line("    _sdp_r.pos = _sdp_s")
	if fp.nested {
		p.Line("    _sdp_r.mem_used = _sdp_m")
	}
}

// fastMisses are the exceptions with which a fast path gives up and leaves
// the input to the field-by-field decoder, which raises the DecodeError:
// struct.error and IndexError for bytes that are not there (or a bool byte
// out of range), ValueError for invalid UTF-8, an enum value out of range or
// _SdpSlow, AttributeError for a string in a memoryview (numpy=True on input
// other than bytes), which has no decode.
const fastMisses = "except (IndexError, ValueError, AttributeError, _sdp_struct.error):"

// fastBody reads a fast path's leaves from _sdp_b at _sdp_p (advancing it)
// into _sdp_w0..., grouped into runs by plan.Group under pyRuns.
func (g *generator) fastBody(fp fastPlan) {
	p := g.p
	leaves := fp.leaves
	var args []string
	for i := range leaves {
		args = append(args, fmt.Sprintf("_sdp_w%d", i))
	}
	fused := -1 // a string leaf whose length the run before it read
	end := 0
	for _, s := range plan.Group(leaves, pyRuns) {
		start := end
		end += len(s.Fields)
		f, v := s.Fields[0], args[start]
		if start == fused {
			continue
		}
		// A run of fixed-size fields (or one number) followed by a string
		// reads the string's length with them: one unpack less.
		fuse := end < len(leaves) && leaves[end].Value.Op == plan.String &&
			(s.Run != nil || f.Value.Op == plan.Scalar && f.Value.Kind != schema.Bool)
		if s.Run != nil || fuse {
			codes := runCodes(s.Fields)
			// Registered even when fused (then unused): the module's
			// struct.Struct table is kept as it was before the plan.
			st := g.structFormat(codes)
			offs, total := []int{0}, f.Value.Fixed
			if s.Run != nil {
				offs, total = nil, s.Run.Size
				for _, l := range s.Run.Leaves {
					offs = append(offs, l.Offset)
				}
			}
			vars := strings.Join(args[start:end], ", ")
			if fuse {
				// The same format with the string's u32 length after it.
				st = g.structFormat(codes + "I")
				vars += ", _sdp_k"
			}
			p.F("%s = %s.unpack_from(_sdp_b, _sdp_p)", vars, st)
			for j, f := range s.Fields {
				g.fastFix(f.Value, args[start+j], offs[j])
			}
			p.F("_sdp_p += %d", total)
			if fuse {
				fused = end
				p.Line("_sdp_q = _sdp_p + 4 + _sdp_k")
				g.fastString(args[end])
			}
			continue
		}
		switch fv := f.Value; {
		case fv.Op == plan.Scalar && fv.Kind == schema.Bool:
			p.F("%s = _SDP_BOOLS[_sdp_b[_sdp_p]]", v)
			p.Line("_sdp_p += 1")
		case fv.Op == plan.Scalar:
			p.F("%s = %s.unpack_from(_sdp_b, _sdp_p)[0]", v, scalarStruct[fv.Kind])
			g.fastFix(fv, v, 0)
			p.F("_sdp_p += %d", fv.Fixed)
		case fv.Op == plan.Enum:
			p.F("%s = %s(%s.unpack_from(_sdp_b, _sdp_p)[0])", v, g.n.decl[fv.Decl.Decl], scalarStruct[fv.Kind])
			p.F("_sdp_p += %d", fv.Fixed)
		case fv.Op == plan.String:
			p.Line("_sdp_q = _sdp_p + 4 + _SDP_U32_FROM(_sdp_b, _sdp_p)[0]")
			g.fastString(v)
		default:
			// Only the struct's own fields are left here: a flattened
			// struct holds fixed-size fields only.
			p.F("_sdp_f = %q", f.Name)
			p.Line("_sdp_r.pos = _sdp_p")
			p.F("%s = %s", v, g.decExpr(fv))
			p.Line("_sdp_p = _sdp_r.pos")
		}
	}
}

// fastValue makes the struct value of a fast path in _sdp_o, field by field
// on an instance object.__new__ made, which skips the call of the
// dataclass's __init__ (a Python function) per value; it returns the name.
// The struct's own fields are set by name; flattened structs are
// constructed.
func (g *generator) fastValue(d *plan.Decl, fp fastPlan) string {
	p := g.p
	name := g.n.decl[d.Decl]
	if len(d.Fields) == 0 {
		return name + "()"
	}
	p.F("_sdp_o: %s = _sdp_new(%s)", name, name)
	for i, f := range d.Fields {
		p.F("_sdp_o.%s = %s", g.n.fields[f.Field], fp.args[i])
	}
	return "_sdp_o"
}

// fastString reads the string whose length is at _sdp_p and which ends at
// _sdp_q into v.
func (g *generator) fastString(v string) {
	p := g.p
	p.Line("if _sdp_q > _sdp_end:")
	p.Line("    raise _SdpSlow")
	// bytes.decode is faster than str(..., "utf-8"); see fastMisses for a
	// memoryview.
	p.F("%s = _sdp_b[_sdp_p + 4:_sdp_q].decode()", v)
	p.Line("_sdp_p = _sdp_q")
}

// inlineLoop decodes n elements of a struct whose fast path calls no other
// decoder inside the loop itself, with the fast path's reads inline (no call
// per element); at an element the fast path cannot take, the elements from
// there on are decoded by the struct's decoder, which raises the error.
// It reports false, emitting nothing, for other element types.
func (g *generator) inlineLoop(e *plan.Value, n string) bool {
	if e.Op != plan.Struct || !hasInline(e.Decl.Fields) {
		return false
	}
	fp := g.planFast(e.Decl)
	if fp.nested {
		return false
	}
	p := g.p
	p.F("_sdp_out: list[%s] = []", g.hint(e))
	p.Line("_sdp_i = 0")
	// The elements' depth checks (rule 9), and their flattened structs':
	// the element decoder raises the error.
	p.F("if _sdp_depth + %d <= _sdp_r.max_depth:", 1+fp.deepest)
	p.In()
	p.Line("_sdp_b = _sdp_r.buf")
	if fp.strings {
		p.Line("_sdp_end = _sdp_r.end")
	}
	p.Line("_sdp_s = _sdp_p = _sdp_r.pos")
	p.Line("_sdp_add = _sdp_out.append")
	p.Line("try:")
	p.F("    for _sdp_i in range(%s):", n)
	p.In()
	p.In()
	p.Line("_sdp_s = _sdp_p")
	g.fastBody(fp)
	p.F("_sdp_add(%s)", g.fastValue(e.Decl, fp))
	p.Out()
	p.Out()
	p.Line(fastMisses)
	p.Line("    _sdp_r.pos = _sdp_s")
	p.Line("else:")
	p.Line("    _sdp_r.pos = _sdp_p")
	p.Line("    return _sdp_out")
	p.Out()
	p.Line("try:")
	p.F("    for _sdp_i in range(len(_sdp_out), %s):", n)
	p.F("        _sdp_out.append(%s)", g.decExpr(e))
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_i)")
	p.Line("    raise")
	p.Line("return _sdp_out")
	return true
}

// packed reports a value a run's struct.Struct reads: a scalar or an enum.
func packed(v *plan.Value) bool { return v.Op == plan.Scalar || v.Op == plan.Enum }

// flattens reports a struct of fixed-size fields only (scalars, bools,
// enums and such structs, at least one field, at most 9 levels deep), which
// a fast path flattens into its parent's.
func flattens(d *plan.Decl, depth int) bool {
	if depth > 8 || len(d.Fields) == 0 {
		return false
	}
	for _, f := range d.Fields {
		if packed(f.Value) {
			continue
		}
		if f.Value.Op == plan.Struct && flattens(f.Value.Decl, depth+1) {
			continue
		}
		return false
	}
	return true
}

// fastFix writes the fast path's check or conversion of a fixed-size value
// of v read into x at offset off of the current position.
func (g *generator) fastFix(v *plan.Value, x string, off int) {
	p := g.p
	switch {
	case v.Op == plan.Enum:
		p.F("%s = %s(%s)", x, g.n.decl[v.Decl.Decl], x)
	case v.Kind == schema.Bool:
		p.F("%s = _SDP_BOOLS[%s]", x, x)
	case v.Kind == schema.F32:
		// struct's "f" quiets a signalling NaN: read NaNs bit for bit.
		p.F("if %s != %s:  # a NaN  # noqa: PLR0124", x, x)
		p.F("    %s = _sdp_r.f32_at(_sdp_p + %d)", x, off)
	}
}

// hasInline reports whether a struct has a field its decoder's fast path
// reads inline (a string or a fixed-size field): without one the fast path
// would only add its own cost to the field decoders' calls.
func hasInline(fields []*plan.Field) bool {
	for _, f := range fields {
		if f.Value.Op == plan.String || packed(f.Value) {
			return true
		}
		if f.Value.Op == plan.Struct && flattens(f.Value.Decl, 0) {
			return true
		}
	}
	return false
}
