package c

import (
	_ "embed"
	"sort"
	"strconv"
	"strings"

	"sdp/schema"
)

// The stream reader and writer (docs/wire-format.md, "Streams") are the
// same C for every schema, written with the placeholder prefixes in
// runtime/stream.h and runtime/stream.c; only pfx_known_type_ is generated
// from the schema's structs.

//go:embed runtime/stream.h
var streamHeader string

//go:embed runtime/stream.c
var streamSource string

// streamDecls and streamDefs are what follows the files' markers.
var (
	streamDecls = afterMarker(streamHeader)
	streamDefs  = afterMarker(streamSource)
)

// afterMarker is src after its "/*@ stream */" line.
func afterMarker(src string) string {
	const marker = "/*@ stream */\n"
	i := strings.Index(src, marker)
	if i < 0 {
		panic("c backend: a stream runtime file has no marker")
	}
	return src[i+len(marker):]
}

// streamDecl prints the stream reader's and writer's declarations.
func (g *generator) streamDecl() {
	g.h.Line(g.prefixed(streamDecls))
	g.h.P()
}

// streamDefs prints the stream reader and writer.
func (g *generator) streamDefs() {
	p := g.c
	p.P("/* Whether a type id names a struct of the schema. */")
	p.Block(g.prefixed("static int pfx_known_type_(uint16_t type_id) {"), "}", func() {
		if len(g.s.Structs) == 0 {
			p.P("(void)type_id;")
			p.P("return 0;")
			return
		}
		p.P("switch (type_id) {")
		for _, s := range g.s.Structs {
			p.F("case %s_TYPE_ID:", g.macroName(s))
		}
		p.In()
		p.P("return 1;")
		p.Out()
		p.P("default:")
		p.In()
		p.P("return 0;")
		p.Out()
		p.P("}")
	})
	p.P()
	g.helloEntries()
	g.use("get_u64_")
	g.use("put_u64_")
	g.use("check_")
	g.use("encoded_")
	p.Line(strings.TrimRight(g.prefixed(streamDefs), "\n"))
	p.P()
}

// helloEntries prints the table a hello lists and is checked against: the
// schema's structs by type id, with their fingerprints and names.
func (g *generator) helloEntries() {
	p := g.c
	structs := append([]*schema.Struct{}, g.s.Structs...)
	sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
	p.P("/* The schema's structs by type id, with their fingerprints: what a hello lists. */")
	p.Block(g.prefixed("typedef struct pfx_hello_entry_ {"), g.prefixed("} pfx_hello_entry_;"), func() {
		p.P("uint16_t type_id;")
		p.P("uint64_t fingerprint;")
		p.P("const char* name;")
	})
	p.P()
	p.Block(g.prefixed("static const pfx_hello_entry_ pfx_hello_entries_[] = {"), "};", func() {
		if len(structs) == 0 {
			p.P(g.prefixed("{0u, 0u, \"\"}, /* C has no empty arrays: pfx_hello_count_ is 0 */"))
		}
		for _, s := range structs {
			m := g.macroName(s)
			p.F("{%s_TYPE_ID, %s_FINGERPRINT, %s},", m, m, strconv.Quote(s.Name))
		}
	})
	p.F(g.prefixed("static const size_t pfx_hello_count_ = %d;"), len(structs))
	p.P()
}
