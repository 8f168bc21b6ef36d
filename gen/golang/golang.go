// Package golang is the Go backend of sdp: `sdp gen --lang go` writes one Go
// package per schema that needs nothing but the standard library.
//
// The generated package is split by what it holds:
//
//	<pkg>.go          the types (structs, enums, unions) with their docs
//	<pkg>_encode.go   EncodedSize, AppendBinary, MarshalBinary, WriteTo
//	<pkg>_decode.go   UnmarshalBinary, UnmarshalBinaryWith, UnmarshalPrefix, ReadFrom
//	<pkg>_message.go  message framing, the dispatcher, stream reader and writer
//	<pkg>_runtime.go  DecodeError, DecodeOptions and the shared primitives
//	<pkg>_le.go       bulk numeric array copies for little-endian hosts
//	<pkg>_be.go       the portable element-wise fallback for every other host
//
// The last two exist only when the schema has numeric arrays; build
// constraints pick one of them, so no host is assumed to be little-endian.
// See docs/go.md for the generated API.
package golang

import (
	"fmt"
	"go/format"
	"path/filepath"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("go", Generate) }

// PortableTag is the build tag that forces the portable (byte-by-byte)
// numeric array code on little-endian hosts too; tests use it to run the
// big-endian fallback.
const PortableTag = "sdp_portable"

// Generate is the Go backend's gen.Generator.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g := newGenerator(s, opt)
	return g.files()
}

// generator holds the state of one run: the schema, the names chosen for
// every Go identifier, and which runtime helpers the emitted code uses.
type generator struct {
	s     *schema.Schema
	pkg   string // Go package name
	base  string // file name prefix
	names *names
	plan  *plan.Plan      // what the encoders and decoders print
	uses  map[string]bool // runtime helpers referenced by emitted code
}

func newGenerator(s *schema.Schema, opt gen.Options) *generator {
	pkg := goPackage(s, opt)
	return &generator{
		s:     s,
		pkg:   pkg,
		base:  strings.ReplaceAll(strings.TrimSuffix(pkg, "_"), "_", ""),
		names: newNames(s),
		plan:  plan.Build(s),
		uses:  map[string]bool{},
	}
}

// use records that emitted code calls a runtime helper.
func (g *generator) use(helper string) { g.uses[helper] = true }

// files emits every file. The types, codecs, messages and array copies are
// emitted first because they decide which runtime helpers exist.
func (g *generator) files() ([]gen.File, error) {
	type part struct {
		suffix string
		emit   func(p *emit.Printer) []string // returns the imports it needs
		tag    string
	}
	parts := []part{
		{".go", g.emitTypes, ""},
		{"_encode.go", g.emitEncode, ""},
		{"_decode.go", g.emitDecode, ""},
		{"_message.go", g.emitMessages, ""},
	}
	var out []gen.File
	bodies := make([][]byte, len(parts))
	imports := make([][]string, len(parts))
	for i, pt := range parts {
		p := emit.New("\t")
		imports[i] = pt.emit(p)
		bodies[i] = p.Bytes()
	}
	if g.hasBulk() || len(g.plainUsed()) > 0 {
		le, be := emit.New("\t"), emit.New("\t")
		leImports, beImports := g.emitBulk(le, true), g.emitBulk(be, false)
		parts = append(parts, part{suffix: "_le.go", tag: leConstraint}, part{suffix: "_be.go", tag: beConstraint})
		bodies = append(bodies, le.Bytes(), be.Bytes())
		imports = append(imports, leImports, beImports)
	}
	// The runtime goes last: it holds what the other files use.
	rt := emit.New("\t")
	rtImports := g.emitRuntime(rt, bodies)
	parts = append(parts, part{suffix: "_runtime.go"})
	bodies = append(bodies, rt.Bytes())
	imports = append(imports, rtImports)
	for i, pt := range parts {
		name := g.base + pt.suffix
		src := g.file(pt.tag, i == 0, imports[i], bodies[i])
		formatted, err := format.Source(src)
		if err != nil {
			return nil, fmt.Errorf("go backend: generated %s does not format: %v\n%s", name, err, emit.WithLineNumbers(src))
		}
		out = append(out, gen.File{Path: name, Content: formatted})
	}
	return out, nil
}

// file assembles one Go source file: header, build constraint, package
// clause, imports and body.
func (g *generator) file(tag string, pkgDoc bool, imports []string, body []byte) []byte {
	p := emit.New("\t")
	p.P("// ", gen.Header(g.s))
	p.P()
	if tag != "" {
		p.P("//go:build ", tag)
		p.P()
	}
	if pkgDoc {
		p.F("// Package %s holds the types of %s and their SDP encoders and", g.pkg, filepath.Base(g.s.Path))
		p.P("// decoders (wire format: SDP 0.2, fixed-width little-endian). It uses only")
		p.P("// the standard library.")
	}
	p.P("package ", g.pkg)
	p.P()
	imports = sortedUnique(imports)
	if len(imports) > 0 {
		p.Block("import (", ")", func() {
			for _, im := range imports {
				p.F("%q", im)
			}
		})
		p.P()
	}
	return append(p.Bytes(), body...)
}
