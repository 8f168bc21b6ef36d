package java

import (
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestReservedNames checks reservedNames against the package generated for
// the probe schema (gentest.ReservedNames): the classes of the package
// (the runtime's and the generated ones), and the members of the probe's
// classes.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineJava,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return d.DeclName(), newNames(s, packageName(s, "")).decl[d]
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return camel(f.Name), newNames(s, packageName(s, "")).field[f]
		},
		Unmined: objectMethods,
	})
}

var (
	// javaTopType is a top-level class, enum or interface (column 0).
	javaTopType = regexp.MustCompile(`^(?:public )?(?:final |abstract )*(?:class|enum|interface) (\w+)`)
	// javaMemberType is a nested type, javaMember any other member, of a
	// top-level class (one level of indentation): the name before the
	// declaration's "(", "=", ";" or ",".
	javaMemberType = regexp.MustCompile(`^    (?:[\w.]+ )*(?:class|enum|interface) (\w+)`)
	javaMember     = regexp.MustCompile(`^    [^ *@/}]`)
	lastIdent      = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*$`)
	javaComments   = regexp.MustCompile(`(?s)/\*.*?\*/`)
)

// mineJava returns the types every .java file declares at its top level,
// and the members the probe's classes declare (fields, methods, nested
// types, enum constants). Names with a "$" are the generated code's own
// (read$Zqa, reset$) and cannot be schema names.
func mineJava(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".java") {
			continue
		}
		owner := ""
		for _, line := range strings.Split(javaComments.ReplaceAllString(string(f.Content), ""), "\n") {
			if m := javaTopType.FindStringSubmatch(line); m != nil {
				top = append(top, m[1])
				owner = m[1]
				continue
			}
			if !gentest.Own(owner) {
				continue
			}
			var name string
			if m := javaMemberType.FindStringSubmatch(line); m != nil {
				name = m[1]
			} else if javaMember.MatchString(line) {
				decl := line
				if i := strings.IndexAny(decl, "(=;,"); i >= 0 {
					decl = decl[:i]
				}
				if m := lastIdent.FindStringSubmatch(decl); m != nil {
					name = m[1]
				}
			}
			if name != "" && !strings.Contains(name, "$") {
				members = append(members, name)
			}
		}
	}
	return top, members
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"display_name": "displayName", "x_": "x", "_x": "x", "__init__": "init",
		"Offset": "offset", "a1": "a1", "URL_path": "uRLPath"} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := javadocEscape(`a */ b @c <d> & \u000a {@code x}`); got != `a *&#47; b &#64;c &lt;d&gt; &amp; &#92;u000a &#123;&#64;code x&#125;` {
		t.Errorf("javadocEscape: %s", got)
	}
}
