package swift

import (
	"fmt"

	"sdp/gen/emit"
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
		switch d := d.(type) {
		case *schema.Struct:
			g.locateFields(p, d.Fields)
		case *schema.Union:
			switchBlock(p, "switch try? r.int(UInt8.self) {", func() {
				for _, v := range d.Variants {
					if v.Kind == schema.VariantUnit {
						continue
					}
					caseBlock(p, fmt.Sprintf("case %d?:", v.Tag), func() {
						p.F("_sdpPushName(&path, %q)", v.Name)
						if v.Kind == schema.VariantStruct {
							p.F("%s._sdpLocate(&r, depth: depth &+ 1, &path)", g.typeName(v.Struct))
						} else {
							g.locateFields(p, v.Fields)
						}
					})
				}
				caseBlock(p, "default:", func() { p.P("return") })
			})
		}
	})
}

// locateFields prints the search for the first of fields that fails.
func (g *generator) locateFields(p *emit.Printer, fields []*schema.Field) {
	for _, f := range fields {
		p.Block(fmt.Sprintf("if _sdpFails(&r, { (r: inout _SDPReader) throws(DecodeError) in _ = %s }) {", g.readExpr(f.Type, "depth")), "}", func() {
			p.F("_sdpPushName(&path, %q)", f.Name)
			g.locateIn(p, f.Type, 0)
			p.P("return")
		})
	}
}

// locateIn prints the search inside a value of type t at r that fails to
// decode: array elements and what an optional holds; a struct or union
// goes on in its own _sdpLocate. It returns from _sdpLocate where the
// value's own count, charge or presence byte fails.
func (g *generator) locateIn(p *emit.Printer, t *schema.Type, level int) {
	i := fmt.Sprintf("i%d", level)
	elements := func(n string) {
		p.Block(fmt.Sprintf("for %s in 0..<%s {", i, n), "}", func() {
			p.Block(fmt.Sprintf("if _sdpFails(&r, { (r: inout _SDPReader) throws(DecodeError) in _ = %s }) {", g.readExpr(t.Elem, "depth")), "}", func() {
				p.F("_sdpPushIndex(&path, %s)", i)
				g.locateIn(p, t.Elem, level+1)
				p.P("return")
			})
		})
	}
	switch t.Kind {
	case schema.Array:
		n := fmt.Sprintf("n%d", level)
		each := t.ArrayCharge()
		if each > 0 {
			p.F("let at%d = r.pos", level)
		}
		p.F("guard let %s = try? r.count(minSize: %d) else {", n, t.Elem.MinSize())
		p.P("    return")
		p.P("}")
		if each > 0 {
			p.F("if (try? r.charge(%s, %d, at: at%d)) == nil {", n, each, level)
			p.P("    return")
			p.P("}")
		}
		elements(n)
	case schema.FixedArray:
		elements(fmt.Sprint(t.Len))
	case schema.Optional:
		each := t.PresenceCharge()
		if each > 0 {
			p.F("let at%d = r.pos", level)
		}
		p.P("if (try? r.present()) != true {")
		p.P("    return")
		p.P("}")
		if each > 0 {
			p.F("if (try? r.charge(1, %d, at: at%d)) == nil {", each, level)
			p.P("    return")
			p.P("}")
		}
		g.locateIn(p, t.Elem, level+1)
	case schema.StructRef, schema.UnionRef:
		p.F("%s._sdpLocate(&r, depth: depth &+ 1, &path)", g.typeName(t.Decl()))
	}
}
