package cpp

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// cppDecl matches a declaration at the start of a line: a macro, a type, an
// alias, a function, a constant or a namespace; the name is the last group.
var cppDecl = regexp.MustCompile(`^(?:#define (\w+)|(?:\[\[\w+\]\] )?(?:(?:SDP_INLINE|SDP_COLD|inline|constexpr|static|const) )*(?:struct|class|enum class|enum|union|namespace) (\w+)|using (\w+) =|(?:\[\[\w+\]\] )?(?:(?:SDP_INLINE|SDP_COLD|inline|constexpr|static|const) )*[\w:<>,]+(?: const)?[\s*&]+(\w+)\s*(?:\(|\[| =|\{))`)

// cppMember matches a member declared in a struct at the top level: a
// static constant or a member function.
var cppMember = regexp.MustCompile(`^    (?:\[\[\w+\]\] )?(?:(?:static|constexpr|inline|const) )*[\w:<>,]+(?: const)?[\s*&]+(\w+)\s*(?:\(|=)`)

// mineCpp returns the names the generated files declare at the top level of
// the schema's namespace probe (or an anonymous namespace in it), macros
// anywhere, and the members of the probe's structs.
func mineCpp(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".hpp") && !strings.HasSuffix(f.Path, ".cpp") {
			continue
		}
		var ns []string // the namespaces the line is in
		owner := ""
		for _, line := range strings.Split(string(f.Content), "\n") {
			atTop := len(ns) == 1 && ns[0] == "probe" || len(ns) == 2 && ns[0] == "probe" && ns[1] == ""
			if m := cppDecl.FindStringSubmatch(line); m != nil && (atTop || m[1] != "") {
				top = append(top, m[1]+m[2]+m[3]+m[4])
			}
			switch {
			case strings.HasPrefix(line, "namespace ") && strings.HasSuffix(line, "{"):
				ns = append(ns, strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "namespace"), "{")))
			case strings.HasPrefix(line, "} // namespace"):
				ns = ns[:len(ns)-1]
			case atTop && strings.HasPrefix(line, "struct ") && strings.HasSuffix(line, " {"):
				owner = strings.Fields(line)[1]
			case line == "};":
				owner = ""
			case gentest.Own(owner):
				if m := cppMember.FindStringSubmatch(line); m != nil {
					members = append(members, m[1])
				}
			}
		}
	}
	return top, members
}

// TestReservedNames checks reservedNames against the code generated for the
// probe schema (gentest.ReservedNames), so that a new runtime helper cannot
// clash with a user's type again (conformance/regress/
// cpp_plain_runtime_names.sdp).
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineCpp,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			g, err := newGenerator(s, gen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return d.DeclName(), g.name(d)
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return f.Name, fieldName(f, s.Decls[0].DeclName())
		},
		// The aliases give way to a schema type of the same name.
		Escaped: func(id string) bool { return gen.Set(aliases)[id] },
	})
}

// TestPrefixedTypeNames checks that types named sdp or sdp_... (the prefix
// of the generated functions) are renamed, and that naming them ends
// (conformance/regress/cpp_sdp_prefix_names.sdp).
func TestPrefixedTypeNames(t *testing.T) {
	s := gentest.LoadSchema(t, filepath.Join(gentest.Root(t), "conformance", "regress", "cpp_sdp_prefix_names.sdp"))
	done := make(chan *generator, 1)
	go func() {
		g, err := newGenerator(s, gen.Options{})
		if err != nil {
			t.Error(err)
		}
		done <- g
	}()
	var g *generator
	select {
	case g = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("naming the types does not end")
	}
	if g == nil {
		return
	}
	for _, d := range s.Decls {
		if got, want := g.name(d), d.DeclName()+"_"; got != want {
			t.Errorf("%s is named %s, want %s", d.DeclName(), got, want)
		}
	}
}
