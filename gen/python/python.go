// Package python generates a Python package (CPython 3.9+, standard library
// only) from a schema: dataclasses, IntEnums and union variant classes with
// strict decoders, validating encoders, messages and streams.
//
// It prints the codec plan (sdp/gen/plan): every size, encode and decode
// helper switches on the plan ops of the values it codes, and runs of
// scalars and enums are the plan's grouping under pyRuns. The one mapping
// of schema types left is the type annotation (hintIn). By what it emits:
// package.go (pyproject.toml and the files), python.go (the module and its
// helper worklist), types.go (classes, enums, annotations, defaults),
// messages.go (struct methods, module functions and message tables),
// encode.go, check.go and decode.go (the _sdp_e_, _sdp_k_ and _sdp_d_
// helpers, one function per op family), fast.go (a struct decoder's fast
// path), runs.go (run formats), names.go (the naming view) and accel.go
// (the C accelerator).
package python

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

type generator struct {
	s    *schema.Schema
	n    *names
	p    *emit.Printer
	done map[string]bool // helpers emitted or queued
	todo []*plan.Value   // helpers to emit
	plan *plan.Plan
	// aliases are the class names annotations reach through `_sdp_c_`
	// aliases (a set), and aliasList the same names in the order found.
	aliases   map[string]bool
	aliasList []string
	// runFormats are the struct.Struct formats of runs of fixed-size fields
	// by name (lookups only), and runNames their names in the order found.
	runFormats map[string]string
	runNames   []string
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
			g.class(d, g.n.decl[d], d.Doc, g.plan.Of(d).Fields)
		case *schema.Union:
			for _, pv := range g.plan.Of(d).Variants {
				if pv.Carries != nil {
					continue
				}
				v := pv.Variant
				g.sep()
				doc := v.Doc
				if len(doc) == 0 {
					doc = []string{fmt.Sprintf("Variant %s of union %s (tag %d).", v.Name, d.Name, v.Tag)}
				}
				g.class(nil, g.n.variant[v], doc, pv.Fields)
			}
		}
	}
	for _, u := range g.s.Unions {
		g.sep()
		for _, l := range u.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		var vs []string
		for _, pv := range g.plan.Of(u).Variants {
			vs = append(vs, g.variantClass(pv))
		}
		p.F("%s = _sdp_t.Union[%s]", g.n.decl[u], strings.Join(vs, ", "))
	}
	if len(g.aliasList) > 0 {
		as := append([]string(nil), g.aliasList...)
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
	for _, d := range g.plan.Decls {
		g.need(d.Ref)
	}
	for len(g.todo) > 0 {
		v := g.todo[0]
		g.todo = g.todo[1:]
		g.sep()
		g.decoder(v)
		g.sep()
		g.encoder(v)
		g.sep()
		g.checker(v)
	}
	g.sep()
	g.runStructs()
	g.tables()
	g.sep()
	g.implementation()
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

// need queues the helpers of a composite value and returns its canon name.
func (g *generator) need(v *plan.Value) string {
	c := canon(v)
	if !g.done[c] {
		g.done[c] = true
		g.todo = append(g.todo, v)
	}
	return c
}

// held is the expression of the value an optional _sdp_v holds: an optional
// of an optional holds a Some.
func held(v *plan.Value) string {
	if v.Elem.Op == plan.Optional {
		return "_sdp_v.value"
	}
	return "_sdp_v"
}

// implementation writes IMPLEMENTATION and the loading of the C
// accelerator (accel.go), which replaces the struct classes' codecs and
// decode_message with its own; the pure Python code stays the fallback.
func (g *generator) implementation() {
	p := g.p
	p.Line(`IMPLEMENTATION = "python"`)
	p.Line(`"""Which implementation runs: "c" when the package's C accelerator (the`)
	p.Line(`extension module _sdp_accel, built at install time where a C compiler and`)
	p.Line(`Python's headers are present) is loaded, "python" without it or when the`)
	p.Line(`environment variable SDP_PURE_PYTHON is 1 at import."""`)
	p.Line(`if _sdp_os.environ.get("SDP_PURE_PYTHON", "") != "1":`)
	p.Line("    try:")
	p.Line(`        _sdp_accel: _sdp_t.Any = _sdp_importlib.import_module(__name__ + "._sdp_accel")`)
	p.Line("        _sdp_accel.install(globals())")
	p.Line(`        IMPLEMENTATION = "c"`)
	p.Line("    except ImportError:")
	p.Line("        pass")
}
