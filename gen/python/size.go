package python

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// sizeExpr is an expression for the encoded size of expr (of type t).
func (g *generator) sizeExpr(t *schema.Type, expr string) string {
	if n, ok := t.FixedSize(); ok {
		return fmt.Sprint(n)
	}
	if t.Kind == schema.String {
		return "_sdp_s_str(" + expr + ")"
	}
	return fmt.Sprintf("_sdp_s_%s(%s)", g.need(t), expr)
}

func (g *generator) sizer(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_s_%s(_sdp_v: %s) -> int:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		p.F("return %d", t.Enum.Base.Size())
	case schema.StructRef:
		n := 0
		var parts []string
		for _, f := range t.Struct.Fields {
			if k, ok := f.Type.FixedSize(); ok {
				n += k
			} else {
				parts = append(parts, g.sizeExpr(f.Type, "_sdp_v."+g.n.fields[f]))
			}
		}
		p.F("return %s", strings.Join(append([]string{fmt.Sprint(n)}, parts...), " + "))
	case schema.UnionRef:
		for _, v := range t.Union.Variants {
			p.F("if isinstance(_sdp_v, %s):", g.variantClass(v))
			switch v.Kind {
			case schema.VariantUnit:
				p.Line("    return 1")
			case schema.VariantStruct:
				p.F("    return 1 + %s", g.sizeExpr(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}, "_sdp_v"))
			case schema.VariantInline:
				parts := []string{"1"}
				for _, f := range v.Fields {
					parts = append(parts, g.sizeExpr(f.Type, "_sdp_v."+g.n.fields[f]))
				}
				p.F("    return %s", strings.Join(parts, " + "))
			}
		}
		p.F("raise EncodeError(\"union %s: \" + repr(_sdp_v) + \" is not one of its variants\")", pyString(t.Union.Name))
	case schema.Array, schema.FixedArray:
		head := "4 + "
		if t.Kind == schema.FixedArray {
			head = ""
		}
		if n, ok := t.Elem.FixedSize(); ok {
			p.F("return %slen(_sdp_v) * %d", head, n)
		} else {
			p.F("return %ssum(%s for _sdp_x in _sdp_v)", head, g.sizeExpr(t.Elem, "_sdp_x"))
		}
	case schema.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    return 1")
		if t.Elem.Kind == schema.Optional {
			p.F("return 1 + %s", g.sizeExpr(t.Elem, "_sdp_v.value"))
		} else {
			p.F("return 1 + %s", g.sizeExpr(t.Elem, "_sdp_v"))
		}
	}
}
