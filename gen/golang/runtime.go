package golang

import (
	"embed"
	"strings"

	"sdp/gen/emit"
)

// The runtime is the fixed part of every generated package: options, errors
// and the primitives the generated encoders and decoders call. What does not
// vary with the schema is real Go source in rt/ (package sdp/gen/golang/rt,
// compiled and vetted with the rest of the project), copied from there; the
// per-kind array helpers are emitted here, only for the kinds in use.

//go:embed rt/*.go
var rtFiles embed.FS

// rtMarker ends the part of an rt/ file that stays there (package clause,
// imports); what follows it is copied.
const rtMarker = "// sdp:copy (the generator copies what follows this line)\n\n"

// rtSource is the copied part of rt/name.
func rtSource(name string) string {
	b, err := rtFiles.ReadFile("rt/" + name)
	if err != nil {
		panic("go backend: " + err.Error())
	}
	i := strings.Index(string(b), rtMarker)
	if i < 0 {
		panic("go backend: rt/" + name + " has no marker line")
	}
	return string(b[i+len(rtMarker):])
}

// bulkInfo describes one numeric element kind for the array helpers.
type bulkInfo struct {
	name, goType string
	size         int
	get, put     string // expressions: read from src[i*size:], append v to b
}

var bulkInfos = map[string]bulkInfo{
	"U16": {"U16", "uint16", 2, "binary.LittleEndian.Uint16(src[i*2:])", "binary.LittleEndian.AppendUint16(b, v)"},
	"U32": {"U32", "uint32", 4, "binary.LittleEndian.Uint32(src[i*4:])", "binary.LittleEndian.AppendUint32(b, v)"},
	"U64": {"U64", "uint64", 8, "binary.LittleEndian.Uint64(src[i*8:])", "binary.LittleEndian.AppendUint64(b, v)"},
	"I8":  {"I8", "int8", 1, "int8(src[i])", "append(b, byte(v))"},
	"I16": {"I16", "int16", 2, "int16(binary.LittleEndian.Uint16(src[i*2:]))", "binary.LittleEndian.AppendUint16(b, uint16(v))"},
	"I32": {"I32", "int32", 4, "int32(binary.LittleEndian.Uint32(src[i*4:]))", "binary.LittleEndian.AppendUint32(b, uint32(v))"},
	"I64": {"I64", "int64", 8, "int64(binary.LittleEndian.Uint64(src[i*8:]))", "binary.LittleEndian.AppendUint64(b, uint64(v))"},
	"F32": {"F32", "float32", 4, "math.Float32frombits(binary.LittleEndian.Uint32(src[i*4:]))", "binary.LittleEndian.AppendUint32(b, math.Float32bits(v))"},
	"F64": {"F64", "float64", 8, "math.Float64frombits(binary.LittleEndian.Uint64(src[i*8:]))", "binary.LittleEndian.AppendUint64(b, math.Float64bits(v))"},
}

// bulkNames are the element kinds of the array helpers, sorted.
var bulkNames = []string{"F32", "F64", "I16", "I32", "I64", "I8", "U16", "U32", "U64"}

// bulkUsed lists the element kinds whose array helpers the code uses, sorted.
func (g *generator) bulkUsed() []bulkInfo {
	var out []bulkInfo
	for _, k := range bulkNames {
		if g.uses["bulk."+k] {
			out = append(out, bulkInfos[k])
		}
	}
	return out
}

func (g *generator) hasBulk() bool { return len(g.bulkUsed()) > 0 }

// emitRuntime writes the runtime the code in others uses: rt/'s
// declarations pruned to those, and the array helpers of the element kinds
// in use. It returns the imports the runtime needs.
func (g *generator) emitRuntime(p *emit.Printer, others [][]byte) []string {
	h := emit.New("\t")
	g.emitArrayHelpers(h)
	uses := map[string]bool{}
	for _, b := range others {
		mention(uses, string(b))
	}
	mention(uses, string(h.Bytes()))
	var units []rtUnit
	units = append(units, rtUnits("options.go")...)
	units = append(units, rtUnits("encoder.go")...)
	units = append(units, rtUnits("decoder.go")...)
	if g.plan.Charges {
		// Rule 11's check, for schemas with charged types.
		units = append(units, rtUnits("charge.go")...)
	}
	src := pruneRuntime(units, uses) + string(h.Bytes())
	p.Line(strings.TrimSuffix(src, "\n"))
	return importsOf(src, []string{"encoding/binary", "strconv", "strings", "unicode/utf8", "unsafe"})
}

// emitArrayHelpers writes the decoder's readers of numeric arrays, for the
// element kinds in use.
func (g *generator) emitArrayHelpers(p *emit.Printer) {
	for _, k := range g.bulkUsed() {
		p.F("// array%s reads a []%s: count, then the elements, into old's storage when", k.name, k.goType)
		p.P("// it has the capacity.")
		p.Block("func (d *decoder) array"+k.name+"(old []"+k.goType+") []"+k.goType+" {", "}", func() {
			p.F("n := d.count(%d)", k.size)
			p.P("if n > cap(old) {")
			p.F("\ts := new%ss(d.b[d.off:], n)", k.name)
			p.F("\td.off += n * %d", k.size)
			p.P("\treturn s")
			p.P("}")
			p.P("s := old[:n]")
			p.F("read%ss(s, d.b[d.off:])", k.name)
			p.F("d.off += n * %d", k.size)
			p.P("return s")
		})
		p.P()
		p.F("// fixed%ss reads len(dst) elements into dst.", k.name)
		p.Block("func (d *decoder) fixed"+k.name+"s(dst []"+k.goType+") {", "}", func() {
			p.F("if len(d.b)-d.off < len(dst)*%d {", k.size)
			p.F("\td.truncatedElement(%d)", k.size)
			p.P("\treturn")
			p.P("}")
			p.F("read%ss(dst, d.b[d.off:])", k.name)
			p.F("d.off += len(dst) * %d", k.size)
		})
		p.P()
	}
}

// The build constraints of the bulk files: the little-endian architectures
// Go supports, unless the portable tag is set.
const leArchs = "386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm"

var (
	leConstraint = "(" + leArchs + ") && !" + PortableTag
	beConstraint = "!(" + leArchs + ") || " + PortableTag
)

// emitBulk writes the numeric array copies: whole-slice copies through
// unsafe on little-endian hosts, where memory already has the wire layout,
// and element-by-element encoding/binary code everywhere else.
func (g *generator) emitBulk(p *emit.Printer, little bool) []string {
	var imports []string
	if little {
		imports = append(imports, "unsafe")
		p.P("// This file is built on little-endian hosts, where a numeric slice's memory")
		p.P("// is its wire encoding: arrays are copied in one piece.")
		p.P()
	} else {
		imports = append(imports, "encoding/binary")
		p.P("// This file is built on big-endian hosts (and with the " + PortableTag + " build tag):")
		p.P("// arrays are converted element by element.")
		p.P()
	}
	for _, k := range g.bulkUsed() {
		if !little && strings.Contains(k.get+k.put, "math.") {
			imports = append(imports, "math")
		}
		k := k
		emitArrayCopies(p, k.name, k.goType, "the elements of s, little-endian", "elements", k.size, little, func() {
			p.Block("for _, v := range s {", "}", func() { p.F("b = %s", k.put) })
			p.P("return b")
		}, func() {
			p.Block("for i := range dst {", "}", func() { p.F("dst[i] = %s", k.get) })
		})
	}
	g.emitPlainBulk(p, little)
	if !little {
		only8 := true
		for _, k := range g.bulkUsed() {
			if k.size != 1 {
				only8 = false
			}
		}
		if only8 {
			imports = imports[1:]
		}
	}
	return imports
}
