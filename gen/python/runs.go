package python

import (
	"sort"

	"sdp/gen/plan"
	"sdp/schema"
)

// pyRuns is Python's run rule: two or more scalars and enums, read and
// written with one struct.Struct.
var pyRuns = plan.RunRule{Enums: true, MinFields: 2}

// kindCodes are the struct module's format codes of the scalar kinds (f32
// NaNs are fixed up: struct's "f" quiets signalling NaNs).
var kindCodes = map[schema.Kind]string{schema.Bool: "B", schema.U8: "B", schema.I8: "b", schema.U16: "H",
	schema.I16: "h", schema.U32: "I", schema.I32: "i", schema.U64: "Q", schema.I64: "q", schema.F32: "f",
	schema.F64: "d"}

// runCodes are the format codes of a run's fields (scalars and enums, whose
// Kind is their base).
func runCodes(fields []*plan.Field) string {
	codes := ""
	for _, f := range fields {
		codes += kindCodes[f.Value.Kind]
	}
	return codes
}

// structFormat returns the module-level struct.Struct of the little-endian
// format codes.
func (g *generator) structFormat(codes string) string {
	name := "_SDP_RUN_" + codes
	if _, ok := g.runFormats[name]; !ok {
		g.runFormats[name] = "<" + codes
		g.runNames = append(g.runNames, name)
	}
	return name
}

// runStructs writes the module-level struct.Struct of every run format used,
// sorted by name.
func (g *generator) runStructs() {
	p := g.p
	if len(g.runNames) > 0 {
		rs := append([]string(nil), g.runNames...)
		sort.Strings(rs)
		for _, r := range rs {
			p.F("%s = _sdp_struct.Struct(%q)", r, g.runFormats[r])
		}
	}
}
