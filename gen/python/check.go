package python

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// The check walk: _sdp_k_<canon>(value, path) goes through a value in
// encoding order with the operations its encoder uses and raises the
// EncodeError of the first value that has no encoding, with its rule and
// path (docs/wire-format.md, "Values that have no encoding"). It runs only
// after an encoder refused a value (_sdp_refused), so the encoders keep
// their speed; the C accelerator calls the same functions, so both
// implementations report the same error.

// checkStmt writes the check of expr (a value of v) at the path pathExpr:
// scalars, strings, enums and arrays of numbers and bytes by the runtime's
// _sdp_k_ helpers, other values by their own check.
func (g *generator) checkStmt(v *plan.Value, expr, pathExpr string) {
	p := g.p
	switch v.Op {
	case plan.Scalar:
		switch {
		case v.Kind == schema.Bool:
			p.F("_sdp_k_bool(%s, %s)", expr, pathExpr)
		case v.Kind.IsFloat():
			p.F("_sdp_k_float(%s, %q, %s)", expr, v.Kind.String(), pathExpr)
		default:
			p.F("_sdp_k_int(%s, %s, %q, %s)", expr, scalarStruct[v.Kind], v.Kind.String(), pathExpr)
		}
	case plan.String:
		p.F("_sdp_k_str(%s, %s)", expr, pathExpr)
	case plan.Enum:
		p.F("_sdp_k_enum(%s, %s, \"%s\", %s)", expr, g.n.decl[v.Decl.Decl], pyString(v.Decl.Name()), pathExpr)
	case plan.Bytes, plan.FixedBytes:
		p.F("_sdp_k_bytes(%s, %d, \"%s\", %s)", expr, fixedLen(v), pyString(v.Type.String()), pathExpr)
	case plan.Numbers, plan.FixedNumbers:
		p.F("_sdp_k_numbers(%s, %d, %q, %q, \"%s\", %s)", expr, fixedLen(v), typecode(v.Kind), v.Kind.String(),
			pyString(v.Type.String()), pathExpr)
	default:
		p.F("_sdp_k_%s(%s, %s)", g.need(v), expr, pathExpr)
	}
}

// fixedLen is a fixed array's length, -1 for a counted array.
func fixedLen(v *plan.Value) int {
	if v.Op.Counted() {
		return -1
	}
	return int(v.Len)
}

// segPath is the path expression of the segment seg (a field's or a
// variant's schema name) below _sdp_p.
func segPath(seg string) string {
	return fmt.Sprintf("_sdp_j(_sdp_p, \"%s\")", pyString(seg))
}

// fieldsCheck writes the checks of fields read from _sdp_v, in order, each
// below the path prefix (a variant's name, or none).
func (g *generator) fieldsCheck(fields []*plan.Field, prefix string) {
	for _, f := range fields {
		g.checkStmt(f.Value, "_sdp_v."+g.n.fields[f.Field], segPath(prefix+f.Name))
	}
}

// checker writes _sdp_k_<canon>, the check walk of a value of v at the
// path _sdp_p.
func (g *generator) checker(v *plan.Value) {
	p := g.p
	p.F("def _sdp_k_%s(_sdp_v: _sdp_t.Any, _sdp_p: str) -> None:", canon(v))
	p.In()
	defer p.Out()
	switch v.Op {
	case plan.Enum:
		g.checkStmt(v, "_sdp_v", "_sdp_p")
	case plan.Struct:
		var names []string
		for _, f := range v.Decl.Fields {
			names = append(names, "\""+g.n.fields[f.Field]+"\"")
		}
		if len(names) == 0 {
			p.Line("pass")
			return
		}
		// Any object with the fields encodes, as in the encoder.
		p.F("_sdp_k_fields(_sdp_v, %s, \"%s\", _sdp_p)", pyTuple(names), pyString(v.Decl.Name()))
		g.fieldsCheck(v.Decl.Fields, "")
	case plan.Union:
		d := v.Decl
		var variants []string
		for _, pv := range d.Variants {
			variants = append(variants, pv.Name)
			p.F("if isinstance(_sdp_v, %s):", g.variantClass(pv))
			p.In()
			if s := pv.Carries; s != nil {
				g.checkStmt(s.Value, "_sdp_v", segPath(pv.Name))
			} else if len(pv.Fields) > 0 {
				var names []string
				for _, f := range pv.Fields {
					names = append(names, "\""+g.n.fields[f.Field]+"\"")
				}
				p.F("_sdp_k_fields(_sdp_v, %s, \"%s\", _sdp_p)", pyTuple(names), pyString(d.Name()+"."+pv.Name))
				g.fieldsCheck(pv.Fields, pv.Name+".")
			}
			p.Line("return")
			p.Out()
		}
		msg := fmt.Sprintf("expected a variant of union %s (%s), got ", d.Name(), strings.Join(variants, ", "))
		p.F("raise EncodeError(\"union_tag\", \"%s\" + _sdp_tname(_sdp_v), _sdp_p)", pyString(msg))
	case plan.Bytes, plan.Numbers, plan.FixedBytes, plan.FixedNumbers:
		g.checkStmt(v, "_sdp_v", "_sdp_p")
	case plan.PlainArray, plan.Array, plan.FixedPlain, plan.FixedArray:
		p.F("_sdp_k_len(_sdp_v, %d, \"%s\", _sdp_p)", fixedLen(v), pyString(v.Type.String()))
		p.Line("for _sdp_i, _sdp_x in enumerate(_sdp_v):")
		p.In()
		g.checkStmt(v.Elem, "_sdp_x", "_sdp_p + \"[\" + str(_sdp_i) + \"]\"")
		p.Out()
	case plan.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    return")
		if v.Elem.Op == plan.Optional {
			// An optional of an optional holds a Some.
			p.F("_sdp_k_fields(_sdp_v, (\"value\",), \"Some(%s) or None\", _sdp_p)", pyString(v.Elem.Type.String()))
		}
		g.checkStmt(v.Elem, held(v), "_sdp_p")
	}
}

// pyTuple is a Python tuple of the expressions xs.
func pyTuple(xs []string) string {
	if len(xs) == 1 {
		return "(" + xs[0] + ",)"
	}
	return "(" + strings.Join(xs, ", ") + ")"
}
