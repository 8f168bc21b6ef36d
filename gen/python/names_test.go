package python

import (
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestReservedNames checks reservedNames against the module generated for
// the probe schema (gentest.ReservedNames): its module-level names, and the
// members of its classes.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     minePython,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return d.DeclName(), newNames(s).decl[d]
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return f.Name, newNames(s).fields[f]
		},
	})
}

// pyBinding matches a name bound by a statement at the start of a line
// (after indent): def, class, an assignment (annotated or not), an import.
var (
	pyBinding = regexp.MustCompile(`^(?:(?:async )?def (\w+)|class (\w+)|(\w+)\s*(?::[^=]*)?=[^=]|import \w+(?:\.\w+)* as (\w+)|import (\w+))`)
	pyFrom    = regexp.MustCompile(`^from [.\w]+ import \(?([\w ,]+)\)?$`)
)

// minePython returns the names the module binds at its top level, and those
// the probe's classes bind in their bodies.
func minePython(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".py") || f.Path == "setup.py" {
			continue // setup.py is not the package's module
		}
		owner := ""
		for _, line := range strings.Split(string(f.Content), "\n") {
			if m := pyFrom.FindStringSubmatch(line); m != nil {
				for _, item := range strings.Split(m[1], ",") {
					if w := strings.Fields(item); len(w) > 0 {
						top = append(top, w[len(w)-1]) // "x" or "x as y"
					}
				}
				continue
			}
			if m := pyBinding.FindStringSubmatch(line); m != nil {
				top = append(top, m[1]+m[2]+m[3]+m[4]+m[5])
				owner = m[2]
				continue
			}
			if strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     ") && gentest.Own(owner) {
				if m := pyBinding.FindStringSubmatch(line[4:]); m != nil {
					members = append(members, m[1]+m[2]+m[3]+m[4]+m[5])
				}
			} else if line != "" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "@") && !strings.HasPrefix(line, "#") {
				owner = "" // a statement at the top level ends the class
			}
		}
	}
	return top, members
}
