package gentest

import (
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/naming"
	"sdp/schema"
)

// fakeDecl matches the fake backend's top-level declarations and members.
var (
	fakeTop    = regexp.MustCompile(`(?m)^type (\w+)`)
	fakeMember = regexp.MustCompile(`(?m)^  method (\w+)`)
)

// fakeBackend writes "type Name" for every declaration (a trailing
// underscore when reserved), "  method Encode" under each, and the runtime
// types Runtime and Hidden.
func fakeBackend(reserved map[string]bool) gen.Generator {
	return func(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
		var b strings.Builder
		b.WriteString("type Runtime\ntype Hidden\n")
		for _, d := range s.Decls {
			b.WriteString("type " + fakeName(reserved, d.DeclName()) + "\n  method Encode\n")
		}
		return []gen.File{{Path: "out.txt", Content: []byte(b.String())}}, nil
	}
}

func fakeName(reserved map[string]bool, name string) string {
	n := naming.Pascal(name)
	if reserved[n] {
		n += "_"
	}
	return n
}

func fakeProbe(names gen.Names, escape map[string]bool) NamesProbe {
	return NamesProbe{
		Names:    names,
		Generate: fakeBackend(escape),
		Mine: func(t testing.TB, files []gen.File) (top, members []string) {
			for _, m := range fakeTop.FindAllStringSubmatch(string(files[0].Content), -1) {
				top = append(top, m[1])
			}
			for _, m := range fakeMember.FindAllStringSubmatch(string(files[0].Content), -1) {
				members = append(members, m[1])
			}
			return top, members
		},
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return naming.Pascal(d.DeclName()), fakeName(escape, d.DeclName())
		},
	}
}

// TestCheckNames checks that each of CheckNames's checks finds what it is
// for: an undeclared runtime name, a stale one, one the backend does not
// escape.
func TestCheckNames(t *testing.T) {
	good := gen.Names{TopLevel: gen.Words("Runtime Hidden"), Members: gen.Words("Encode")}
	r := CheckNames(t, fakeProbe(good, gen.Set(good.TopLevel)))
	if len(r.Complete)+len(r.Stale)+len(r.Renamed) != 0 {
		t.Errorf("a correct declaration: %+v", r)
	}

	missing := gen.Names{TopLevel: gen.Words("Runtime"), Members: gen.Words("Encode")}
	r = CheckNames(t, fakeProbe(missing, gen.Set(missing.TopLevel)))
	if len(r.Complete) != 1 || !strings.Contains(r.Complete[0], " Hidden ") {
		t.Errorf("Hidden is not declared: complete found %q", r.Complete)
	}

	stale := gen.Names{TopLevel: gen.Words("Runtime Hidden Gone"), Members: gen.Words("Encode Decode")}
	r = CheckNames(t, fakeProbe(stale, gen.Set(stale.TopLevel)))
	if len(r.Stale) != 2 || !strings.Contains(r.Stale[0], " Gone") || !strings.Contains(r.Stale[1], " Decode") {
		t.Errorf("Gone and Decode are not generated: stale found %q", r.Stale)
	}

	r = CheckNames(t, fakeProbe(good, gen.Set(gen.Words("Runtime"))))
	if len(r.Renamed) != 1 || !strings.Contains(r.Renamed[0], "named Hidden") {
		t.Errorf("a type Hidden keeps its name: renamed found %q", r.Renamed)
	}
}
