package cpp

import (
	"regexp"
	"strings"
	"testing"
)

// runtimeDecl matches a declaration at the start of a line of the runtime
// the generated source embeds in the schema's namespace: a function, a
// constant, a struct or class, or a macro; the name is the last group.
var runtimeDecl = regexp.MustCompile(`^(?:#define (\w+)|(?:struct|class) (\w+)|(?:\[\[maybe_unused\]\] )?(?:SDP_INLINE |inline |constexpr |static )*[\w:<>]+(?: const)?[\s*&]+(\w+)\s*(?:\(|\[| =))`)

// TestRuntimeNamesReserved checks that every name the embedded runtime
// declares is one a schema type cannot take (runtimeNames), so that a new
// helper cannot clash with a user's type again (conformance/regress/
// cpp_plain_runtime_names.sdp).
func TestRuntimeNamesReserved(t *testing.T) {
	found := 0
	for _, line := range strings.Split(runtimeSource, "\n") {
		m := runtimeDecl.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1] + m[2] + m[3]
		found++
		if !reservedType(name) {
			t.Errorf("the runtime declares %q (%s), which runtimeNames does not reserve", name, strings.TrimSpace(line))
		}
	}
	if found < 20 {
		t.Fatalf("found only %d runtime declarations: runtimeDecl no longer matches the runtime's style", found)
	}
}
