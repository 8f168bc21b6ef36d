// Package python generates a Python package (CPython 3.9+, standard library
// only) from a schema: dataclasses, IntEnums and union variant classes with
// strict decoders, validating encoders, messages and streams.
package python

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

type generator struct {
	s    *schema.Schema
	n    *names
	p    *emit.Printer
	done map[string]bool // helpers emitted or queued
	todo []*schema.Type  // helpers to emit
	// aliases are the class names annotations reach through `_sdp_c_` aliases.
	aliases map[string]bool
	// runFormats are the struct.Struct formats of runs of fixed-size fields.
	runFormats map[string]string
}

func (g *generator) module() []byte {
	p := g.p
	p.Line("# " + gen.Header(g.s))
	p.Line("# mypy: disable-error-code=\"misc\"")
	p.Line(`"""SDP encoders and decoders for ` + pyString(g.s.Name) + `.sdp."""`)
	p.Line("")
	p.Line("from __future__ import annotations")
	p.Line("")
	rt := strings.ReplaceAll(strings.TrimRight(runtime, "\n"), "\n\n\n", "\n\n"+sepMark+"\n\n")
	for _, l := range strings.Split(rt, "\n") {
		p.Line(l)
	}
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Enum:
			g.sep()
			g.enum(d)
		case *schema.Struct:
			g.sep()
			g.class(d, g.n.decl[d], d.Doc, d.Fields, d)
		case *schema.Union:
			for _, v := range d.Variants {
				if v.Kind == schema.VariantStruct {
					continue
				}
				g.sep()
				doc := v.Doc
				if len(doc) == 0 {
					doc = []string{fmt.Sprintf("Variant %s of union %s (tag %d).", v.Name, d.Name, v.Tag)}
				}
				g.class(nil, g.n.variant[v], doc, v.Fields, nil)
			}
		}
	}
	for _, u := range g.s.Unions {
		g.sep()
		for _, l := range u.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		var vs []string
		for _, v := range u.Variants {
			vs = append(vs, g.variantClass(v))
		}
		p.F("%s = _sdp_t.Union[%s]", g.n.decl[u], strings.Join(vs, ", "))
	}
	if len(g.aliases) > 0 {
		var as []string
		for a := range g.aliases {
			as = append(as, a)
		}
		sort.Strings(as)
		g.sep()
		p.Line("# Aliases for annotations inside classes whose fields shadow these names.")
		for _, a := range as {
			p.F("_sdp_c_%s = %s", a, a)
		}
	}
	for _, d := range g.s.Decls {
		if _, ok := g.n.top[d]; ok {
			g.sep()
			g.topFuncs(d)
		}
	}
	// Helpers, on demand: every type a struct or union refers to, and the
	// enums that encode on their own.
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			g.need(&schema.Type{Kind: schema.StructRef, Struct: d})
		case *schema.Union:
			g.need(&schema.Type{Kind: schema.UnionRef, Union: d})
		case *schema.Enum:
			g.need(&schema.Type{Kind: schema.EnumRef, Enum: d})
		}
	}
	for len(g.todo) > 0 {
		t := g.todo[0]
		g.todo = g.todo[1:]
		g.sep()
		g.decoder(t)
		g.sep()
		g.encoder(t)
		g.sep()
		g.sizer(t)
	}
	g.sep()
	g.runStructs()
	g.tables()
	return bytes.ReplaceAll(p.Bytes(), []byte("\n"+sepMark+"\n"), []byte("\n"))
}

// sepMark stands for the second of two blank lines between top-level
// definitions (PEP 8), which the printer would fold into one.
const sepMark = "#\x00sep"

// sep separates two top-level definitions by two blank lines.
func (g *generator) sep() {
	g.p.Line("")
	g.p.Line(sepMark)
	g.p.Line("")
}

// need queues the helpers of a composite type and returns its canon name.
func (g *generator) need(t *schema.Type) string {
	c := canon(t)
	if !g.done[c] {
		g.done[c] = true
		g.todo = append(g.todo, t)
	}
	return c
}
