package gen

import "strings"

// Names is a backend's declaration of the identifiers a schema name must not
// become, kept in one place (the backend's names.go). The backend escapes a
// colliding name its own way (a suffix, a raw identifier, backticks); Names
// only says which names collide. gentest.ReservedNames checks the
// declaration against the code the backend generates.
type Names struct {
	// Keywords are the language's keywords and reserved words, and the
	// macros or soft keywords that act like them, as a schema name could
	// spell them after the backend's case conversion.
	Keywords []string
	// Prelude are names of the language's standard library the generated
	// code uses unqualified (a type named like one would shadow it). They
	// are not defined by the generated code, so no test mines them.
	Prelude []string
	// TopLevel are the identifiers the runtime and the generated code
	// define in the namespace where schema type names land (the package,
	// module or namespace), for every schema; a backend that prefixes
	// every identifier declares them without the prefix.
	TopLevel []string
	// Members are the identifiers the generated code defines on every
	// generated type (methods, associated constants) that a field's name
	// could clash with; nil where fields and methods cannot clash.
	Members []string
	// Prefixes reserve every identifier that starts with one of them (the
	// runtime's private helpers: "sdp_", "_sdp").
	Prefixes []string
}

// Words splits a whitespace-separated list of identifiers, so that long
// declarations read as text.
func Words(s string) []string { return strings.Fields(s) }

// Set makes a lookup set of the names of all lists.
func Set(lists ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, n := range l {
			m[n] = true
		}
	}
	return m
}

// HasPrefix reports whether name starts with one of the reserved prefixes.
func (n Names) HasPrefix(name string) bool {
	for _, p := range n.Prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
