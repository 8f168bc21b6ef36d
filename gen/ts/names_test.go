package ts

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestReservedNames checks reservedNames against the package generated for
// the probe schema (gentest.ReservedNames), TypeScript and JavaScript: what
// the index module declares at its top level, what the runtime module
// exports (so every export of runtime.ts must be declared, and only those),
// and the instance members of the probe's classes. This covers what
// TestReservedRuntime checked (every export of runtime.ts is reserved: the
// package's runtime.ts is that file), and the converse. Fields are not checked
// for renaming there (keywords are valid property names, so keywords do
// not rename fields); the "members" subtest checks that Members do, and
// "params" that params are the generated functions' parameters.
func TestReservedNames(t *testing.T) {
	for _, g := range []struct {
		name string
		gen  gen.Generator
	}{{"ts", Generate}, {"js", GenerateJS}} {
		g := g
		t.Run(g.name, func(t *testing.T) {
			gentest.ReservedNames(t, gentest.NamesProbe{
				Names:    reservedNames,
				Generate: g.gen,
				Mine:     mineTS,
				TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
					return d.DeclName(), newNames(s).decl[d]
				},
				Unmined: objectMembers,
			})
		})
	}
	t.Run("members", func(t *testing.T) {
		for _, name := range reservedNames.Members {
			s, err := schema.Parse("probe.sdp", []byte("struct Zqa {\n    "+name+": u32,\n}\n"))
			if err != nil {
				continue
			}
			f := s.Decls[0].(*schema.Struct).Fields[0]
			if got := newNames(s).field[f]; got == name {
				t.Errorf("a field named %s keeps its name", name)
			}
		}
	})
	t.Run("params", func(t *testing.T) {
		s, err := schema.Parse("probe.sdp", []byte(gentest.ProbeSchema+"\nstruct ZqEmpty {}\n\nunion ZqW {\n    ZqIn {},\n}\n"))
		if err != nil {
			t.Fatal(err)
		}
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, f := range files {
			if f.Path != "index.ts" {
				continue
			}
			for _, line := range strings.Split(string(f.Content), "\n") {
				m := tsSignature.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				for _, p := range strings.Split(m[1], ",") {
					if m := tsParam.FindStringSubmatch(p); m != nil && !reservedNames.HasPrefix(m[1]) {
						got[m[1]] = true
					}
				}
			}
		}
		if len(got) == 0 {
			t.Fatal("found no parameters: the signature regexp no longer matches the generated code")
		}
		want := gen.Set(params)
		for _, p := range sortedKeys(got) {
			if !want[p] {
				t.Errorf("the generated code has a parameter %s, which params (names.go) lacks: a type named so would be shadowed", p)
			}
		}
		for _, p := range params {
			if !got[p] {
				t.Errorf("params declares %s, which the generated code no longer uses as a parameter", p)
			}
		}
	})
}

var (
	// tsTopDecl is a declaration at a module's top level (column 0), in
	// .ts, .js and .d.ts alike.
	tsTopDecl = regexp.MustCompile(`^(export )?(?:declare )?(?:default )?(?:abstract )?(?:async )?(?:class|const|function\*?|type|interface|enum|let|var|namespace) +([A-Za-z_$][\w$]*)`)
	// tsReexport and tsImport are the names an export list or an import
	// binds in a module.
	tsReexport = regexp.MustCompile(`^export (?:type )?\{([^}]*)\}`)
	tsImport   = regexp.MustCompile(`^import (?:type )?(?:\* as ([\w$]+)|\{([^}]*)\})`)
	// tsMember is a property or a method of a class (one level of
	// indentation); static ones are the class's, where no field lands.
	tsMember = regexp.MustCompile(`^  (?:readonly )?(?:async )?(?:get |set )?([A-Za-z_$][\w$]*)[?!]?\s*[(:;=<]`)
	// tsSignature is a function's, method's or constructor's parameter
	// list; tsParam one parameter's name.
	tsSignature = regexp.MustCompile(`^\s*(?:export )?(?:declare )?(?:static )?(?:function )?[\w$]+\((.*)\)(?::[^=]*)?\s*[{;]\s*$`)
	tsParam     = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)\??\s*:`)
)

// mineTS returns the names the index module defines at its top level (its
// declarations, re-exports and imports), the names the runtime module
// exports, and the members the index module's classes of the probe define.
func mineTS(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(f.Path, ".d.ts"), ".ts"), ".js")
		if base == f.Path || (base != "index" && base != "runtime") {
			continue
		}
		owner := ""
		for _, line := range strings.Split(string(f.Content), "\n") {
			if m := tsTopDecl.FindStringSubmatch(line); m != nil {
				if base == "index" || m[1] != "" {
					top = append(top, m[2])
				}
				owner = ""
				if strings.Contains(line, "class ") {
					owner = m[2]
				}
				continue
			}
			if base == "index" {
				if m := tsReexport.FindStringSubmatch(line); m != nil {
					top = append(top, bound(m[1])...)
					continue
				}
				if m := tsImport.FindStringSubmatch(line); m != nil {
					if m[1] != "" {
						top = append(top, m[1])
					} else {
						top = append(top, bound(m[2])...)
					}
					continue
				}
			}
			if strings.HasPrefix(line, "}") {
				owner = ""
				continue
			}
			if base != "index" || !gentest.Own(owner) {
				continue
			}
			if m := tsMember.FindStringSubmatch(line); m != nil {
				members = append(members, m[1])
			}
		}
	}
	return top, members
}

// bound returns the names an import or export list binds: "a, b as c" is
// a and c.
func bound(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		f := strings.Fields(n)
		if len(f) > 0 {
			out = append(out, f[len(f)-1])
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
