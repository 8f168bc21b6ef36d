package python

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
)

// sizeExpr is an expression for the encoded size of expr (a value of v): a
// constant when every value of v has one size.
func (g *generator) sizeExpr(v *plan.Value, expr string) string {
	if v.Fixed >= 0 {
		return fmt.Sprint(v.Fixed)
	}
	if v.Op == plan.String {
		return "_sdp_s_str(" + expr + ")"
	}
	return fmt.Sprintf("_sdp_s_%s(%s)", g.need(v), expr)
}

// sizer writes _sdp_s_<canon>, the encoded size of a value of v.
func (g *generator) sizer(v *plan.Value) {
	p := g.p
	p.F("def _sdp_s_%s(_sdp_v: %s) -> int:", canon(v), g.hint(v))
	p.In()
	defer p.Out()
	switch v.Op {
	case plan.Enum:
		p.F("return %d", v.Fixed)
	case plan.Struct:
		g.structSize(v.Decl)
	case plan.Union:
		g.unionSize(v.Decl)
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		head := ""
		if v.Op.Counted() {
			head = "4 + "
		}
		if v.Elem.Fixed >= 0 {
			p.F("return %slen(_sdp_v) * %d", head, v.Elem.Fixed)
		} else {
			p.F("return %ssum(%s for _sdp_x in _sdp_v)", head, g.sizeExpr(v.Elem, "_sdp_x"))
		}
	case plan.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    return 1")
		p.F("return 1 + %s", g.sizeExpr(v.Elem, held(v)))
	}
}

// structSize returns a struct's size: its fixed-size fields' sizes summed
// in one constant, then the others'.
func (g *generator) structSize(d *plan.Decl) {
	n := 0
	var parts []string
	for _, f := range d.Fields {
		if f.Value.Fixed >= 0 {
			n += f.Value.Fixed
		} else {
			parts = append(parts, g.sizeExpr(f.Value, "_sdp_v."+g.n.fields[f.Field]))
		}
	}
	g.p.F("return %s", strings.Join(append([]string{fmt.Sprint(n)}, parts...), " + "))
}

// unionSize returns a union's size by variant: the tag, then the variant's
// fields, or the struct it carries.
func (g *generator) unionSize(d *plan.Decl) {
	p := g.p
	for _, pv := range d.Variants {
		p.F("if isinstance(_sdp_v, %s):", g.variantClass(pv))
		if s := pv.Carries; s != nil {
			p.F("    return 1 + %s", g.sizeExpr(s.Value, "_sdp_v"))
			continue
		}
		parts := []string{"1"}
		for _, f := range pv.Fields {
			parts = append(parts, g.sizeExpr(f.Value, "_sdp_v."+g.n.fields[f.Field]))
		}
		p.F("    return %s", strings.Join(parts, " + "))
	}
	p.F("raise EncodeError(\"union %s: \" + repr(_sdp_v) + \" is not one of its variants\")", pyString(d.Name()))
}
