// Package ts is the TypeScript and JavaScript backend (issue #34): `sdp gen
// --lang ts` writes a package of TypeScript sources, `--lang js` the same
// code as ES modules with .d.ts declarations. Both are dependency-free
// (ES2020: Node 18+, evergreen browsers) and share one runtime,
// runtime/runtime.ts, embedded here (runtime.js and runtime.d.ts are what
// tsc makes of it; TestRuntimeCompiled keeps them in step).
//
// The size, encode and decode code is printed from the codec plan
// (gen/plan): one printer function per plan.Op, and one mapping of schema
// types to TypeScript types (tsType).
package ts

import (
	_ "embed"
	"encoding/json"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

//go:embed runtime/runtime.ts
var runtimeTS string

//go:embed runtime/runtime.js
var runtimeJS string

//go:embed runtime/runtime.d.ts
var runtimeDTS string

func init() {
	gen.Register("ts", Generate)
	gen.Register("js", GenerateJS)
}

// mode is what a printer writes: TypeScript, JavaScript (the same code
// without its types) or declarations (the types without the code).
type mode int

const (
	modeTS mode = iota
	modeJS
	modeDTS
)

type generator struct {
	s     *schema.Schema
	plan  *plan.Plan
	names *names
	mode  mode
	// used holds the enums some struct's or union's value reaches: only
	// they get codec functions (an unused one would be an unused local).
	used map[*plan.Decl]bool
}

// PackageName is the npm package name: --package, else the schema's name
// in lower case with "_" as "-".
func PackageName(s *schema.Schema, opt gen.Options) string {
	if opt.Package != "" {
		return opt.Package
	}
	return strings.ReplaceAll(strings.ToLower(s.Name), "_", "-")
}

// Generate writes the TypeScript package: package.json, tsconfig.json,
// index.ts (the schema's types and codecs) and runtime.ts.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g := newGenerator(s, modeTS)
	return []gen.File{
		{Path: "package.json", Content: packageJSON(s, opt, true)},
		{Path: "tsconfig.json", Content: []byte(tsconfig)},
		{Path: "index.ts", Content: g.module()},
		{Path: "runtime.ts", Content: withHeader(s, runtimeTS)},
	}, nil
}

// GenerateJS writes the JavaScript package: package.json, index.js and
// runtime.js (ES modules) and their declarations index.d.ts and
// runtime.d.ts. No TypeScript compiler is involved.
func GenerateJS(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	return []gen.File{
		{Path: "package.json", Content: packageJSON(s, opt, false)},
		{Path: "index.js", Content: newGenerator(s, modeJS).module()},
		{Path: "index.d.ts", Content: newGenerator(s, modeDTS).module()},
		{Path: "runtime.js", Content: withHeader(s, runtimeJS)},
		{Path: "runtime.d.ts", Content: withHeader(s, runtimeDTS)},
	}, nil
}

func newGenerator(s *schema.Schema, m mode) *generator {
	g := &generator{s: s, plan: plan.Build(s), names: newNames(s), mode: m, used: map[*plan.Decl]bool{}}
	var walk func(v *plan.Value)
	walk = func(v *plan.Value) {
		if v.Elem != nil {
			walk(v.Elem)
		}
		if v.Decl == nil || g.used[v.Decl] {
			return
		}
		g.used[v.Decl] = true
		for _, f := range v.Decl.Fields {
			walk(f.Value)
		}
		for _, pv := range v.Decl.Variants {
			for _, f := range pv.Fields {
				walk(f.Value)
			}
		}
	}
	// Structs and unions have codecs of their own: they are the roots.
	for _, pd := range g.plan.Decls {
		for _, f := range pd.Fields {
			walk(f.Value)
		}
		for _, pv := range pd.Variants {
			for _, f := range pv.Fields {
				walk(f.Value)
			}
		}
	}
	return g
}

func withHeader(s *schema.Schema, src string) []byte {
	return []byte("// " + gen.Header(s) + "\n\n" + src)
}

// tsconfig builds the package in place: tsc -p DIR writes index.js and
// index.d.ts beside index.ts.
const tsconfig = `{
  "compilerOptions": {
    "target": "es2020",
    "module": "es2020",
    "moduleResolution": "node",
    "lib": ["es2020", "dom"],
    "declaration": true,
    "strict": true,
    "noImplicitReturns": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "skipLibCheck": true
  },
  "files": ["index.ts", "runtime.ts"]
}
`

func packageJSON(s *schema.Schema, opt gen.Options, ts bool) []byte {
	type exp struct {
		Types   string `json:"types"`
		Default string `json:"default"`
	}
	type scripts struct {
		Build string `json:"build"`
	}
	// Structs, not maps: the fields print in this order.
	pkg := struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Private     bool   `json:"private"`
		Type        string `json:"type"`
		Main        string `json:"main"`
		Types       string `json:"types"`
		Exports     struct {
			Dot exp `json:"."`
		} `json:"exports"`
		SideEffects bool     `json:"sideEffects"`
		Scripts     *scripts `json:"scripts,omitempty"`
	}{
		Name:        PackageName(s, opt),
		Description: gen.Header(s),
		Private:     true,
		Type:        "module",
		Main:        "./index.js",
		Types:       "./index.d.ts",
		SideEffects: false,
	}
	pkg.Exports.Dot = exp{Types: "./index.d.ts", Default: "./index.js"}
	if ts {
		pkg.Scripts = &scripts{Build: "tsc -p ."}
	}
	b, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// ty is a type annotation, printed in TypeScript and declarations only.
func (g *generator) ty(s string) string {
	if g.mode == modeJS {
		return ""
	}
	return s
}

// module prints index.ts, index.js or index.d.ts.
func (g *generator) module() []byte {
	p := emit.New("  ")
	p.P("// ", gen.Header(g.s))
	p.P()
	p.P(`import * as $ from "./runtime.js";`)
	p.P()
	p.P("export { DecodeError, EncodeError, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_SIZE, MESSAGE_HEADER_SIZE } from \"./runtime.js\";")
	if g.mode != modeJS {
		p.P("export type { DecodeOptions, MessageReaderOptions, MessageWriterOptions, Rule, EncodeRule, ByteSource, ByteSink } from \"./runtime.js\";")
	}
	p.P()
	for _, pd := range g.plan.Decls {
		switch {
		case pd.Struct != nil:
			g.emitStruct(p, pd)
		case pd.Enum != nil:
			g.emitEnum(p, pd)
		case pd.Union != nil:
			g.emitUnion(p, pd)
		}
	}
	g.emitMessages(p)
	return p.Bytes()
}

// doc prints a JSDoc comment of lines; "*/" cannot end it early.
func doc(p *emit.Printer, lines []string) {
	if len(lines) == 0 {
		return
	}
	var out []string
	for _, l := range lines {
		for _, l := range strings.Split(strings.ReplaceAll(l, "\r\n", "\n"), "\n") {
			l = strings.ReplaceAll(l, "*/", "*\\/")
			out = append(out, strings.TrimRight(l, " \t\r"))
		}
	}
	p.P("/**")
	p.Comment(" * ", out)
	p.P(" */")
}
