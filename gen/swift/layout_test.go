package swift

import (
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
	"sdp/gen/plan"
)

// TestLayoutSize checks the size estimate against MemoryLayout<T>.size as
// Swift 6.3 reports it on x86-64 for the corpus structs that matter for
// boxing, and that the estimate terminates on recursive schemas.
func TestLayoutSize(t *testing.T) {
	for _, c := range []struct {
		schema, st string
		want       int
	}{
		{"optionals", "Reading", 48},
		{"optionals", "Optionals", 134},
		{"primitives", "AllPrimitives", 64},
		{"plugins", "Parameter", 78},
		{"plugins", "Plugin", 72},
		{"nested", "AudioDevice", 48},
	} {
		s := gentest.LoadSchema(t, conformance.SchemaPath(c.schema))
		if got := structLayoutSize(plan.Build(s).Of(s.Struct(c.st))); got != c.want {
			t.Errorf("%s.%s: estimated %d bytes, Swift lays it out in %d", c.schema, c.st, got, c.want)
		}
	}
	s := gentest.LoadSchema(t, conformance.SchemaPath("recursive"))
	p := plan.Build(s)
	for _, st := range s.Structs {
		if n := structLayoutSize(p.Of(st)); n <= 0 || n > 1<<12 {
			t.Errorf("recursive.%s: estimated %d bytes", st.Name, n)
		}
	}
}
