package swift

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// The field path of a decode error (docs/wire-format.md, "Where an error
// is") is found on the error path only: the public entry points catch the
// error and read the input again through _sdpLocate, which tries each field
// with the decoders themselves (readExpr) on a copy of the reader and goes
// into the first one that fails, naming it. The decoders carry no path
// code, so decoding valid input costs what it did.

// locateFn prints a struct's or union's _sdpLocate, and the top-level
// _sdpPath of every struct, union and enum.
func (g *generator) locateFn(p *emit.Printer, d schema.Decl) {
	p.P("/// The field path of the error that decoding a value at r (at depth 1) throws.")
	if _, ok := d.(*schema.Enum); ok {
		p.Block("static func _sdpPath(_: inout _SDPReader) -> Swift.String {", "}", func() {
			p.P(`""`)
		})
		return
	}
	p.Block("static func _sdpPath(_ r: inout _SDPReader) -> Swift.String {", "}", func() {
		p.P(`var path = ""`)
		p.P("_sdpLocate(&r, depth: 1, &path)")
		p.P("return path")
	})
	p.P()
	p.P("/// Adds to path the names that lead from a value at r, which fails to")
	p.P("/// decode, to the value holding the problem.")
	p.Block("static func _sdpLocate(_ r: inout _SDPReader, depth: Int, _ path: inout Swift.String) {", "}", func() {
		p.P("if (try? r.enter(depth)) == nil {")
		p.P("    return")
		p.P("}")
		pd := g.plan.Of(d)
		if pd.Struct != nil {
			g.locateFields(p, pd.Fields)
			return
		}
		switchBlock(p, "switch try? r.int(UInt8.self) {", func() {
			for _, v := range pd.Variants {
				if v.Variant.Kind == schema.VariantUnit {
					continue
				}
				caseBlock(p, fmt.Sprintf("case %d?:", v.Tag), func() {
					p.F("_sdpPushName(&path, %q)", v.Name)
					if v.Variant.Kind == schema.VariantStruct {
						// The struct adds no segment of its own: the path
						// goes from the variant to the struct's fields.
						g.locateIn(p, v.Fields[0].Value, 0)
					} else {
						g.locateFields(p, v.Fields)
					}
				})
			}
			caseBlock(p, "default:", func() { p.P("return") })
		})
	})
}

// locateFields prints the search for the first of fields that fails.
func (g *generator) locateFields(p *emit.Printer, fields []*plan.Field) {
	for _, f := range fields {
		p.Block(fmt.Sprintf("if _sdpFails(&r, { (r: inout _SDPReader) throws(DecodeError) in _ = %s }) {", g.readExpr(f.Value, "depth")), "}", func() {
			p.F("_sdpPushName(&path, %q)", f.Name)
			g.locateIn(p, f.Value, 0)
			p.P("return")
		})
	}
}

// locateIn prints the search inside a value coded as v at r that fails to
// decode: array elements and what an optional holds; a struct or union
// goes on in its own _sdpLocate. It returns from _sdpLocate where the
// value's own count, charge or presence byte fails.
func (g *generator) locateIn(p *emit.Printer, v *plan.Value, level int) {
	i := fmt.Sprintf("i%d", level)
	elements := func(n string) {
		p.Block(fmt.Sprintf("for %s in 0..<%s {", i, n), "}", func() {
			p.Block(fmt.Sprintf("if _sdpFails(&r, { (r: inout _SDPReader) throws(DecodeError) in _ = %s }) {", g.readExpr(v.Elem, "depth")), "}", func() {
				p.F("_sdpPushIndex(&path, %s)", i)
				g.locateIn(p, v.Elem, level+1)
				p.P("return")
			})
		})
	}
	switch {
	case v.Op.Counted():
		n := fmt.Sprintf("n%d", level)
		if v.Charge > 0 {
			p.F("let at%d = r.pos", level)
		}
		p.F("guard let %s = try? r.count(minSize: %d) else {", n, v.MinElem)
		p.P("    return")
		p.P("}")
		if v.Charge > 0 {
			p.F("if (try? r.charge(%s, %d, at: at%d)) == nil {", n, v.Charge, level)
			p.P("    return")
			p.P("}")
		}
		elements(n)
	case v.Op.IsArray():
		elements(fmt.Sprint(v.Len))
	case v.Op == plan.Optional:
		if v.Charge > 0 {
			p.F("let at%d = r.pos", level)
		}
		p.P("if (try? r.present()) != true {")
		p.P("    return")
		p.P("}")
		if v.Charge > 0 {
			p.F("if (try? r.charge(1, %d, at: at%d)) == nil {", v.Charge, level)
			p.P("    return")
			p.P("}")
		}
		g.locateIn(p, v.Elem, level+1)
	case v.Op == plan.Struct || v.Op == plan.Union:
		p.F("%s._sdpLocate(&r, depth: depth &+ 1, &path)", g.declName(v))
	}
}
