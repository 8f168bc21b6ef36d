package conformance

import (
	"strings"
	"testing"

	"sdp/schema"
)

// TestHelloVectors checks that the reference reader classifies the hello
// vectors as docs/wire-format.md says.
func TestHelloVectors(t *testing.T) {
	s, err := schema.Load(SchemaPath("plugins"))
	if err != nil {
		t.Fatal(err)
	}
	vectors, err := CorpusHelloVectors("plugins")
	if err != nil {
		t.Fatal(err)
	}
	// plugins.sdp: Parameter (1), Plugin (2), PluginRegistry (3); the hello
	// is 10 + 4 + 30 bytes.
	want := map[string]string{
		"alone": "", "then_messages": "", "empty": "", "unknown_type": "",
		"second":    "message 1 4", // after one message: the hello is message 1
		"twice":     "message 1 48",
		"changed_0": "schema 0 16",
		"changed_2": "schema 0 36",
		"unsorted":  "message 0 24",
		"duplicate": "message 0 24",
		"zero_id":   "message 0 14",
		"long":      "message 0 6",
		"short":     "message 0 6",
		"cut":       "truncated 0 10",
	}
	if len(s.Structs) != 3 {
		t.Fatalf("plugins.sdp has %d structs", len(s.Structs))
	}
	seen := 0
	for _, v := range vectors {
		name := strings.TrimPrefix(v.ID, "stream.plugins.hello.")
		w, ok := want[name]
		if !ok {
			t.Errorf("unexpected vector %s", v.ID)
			continue
		}
		seen++
		if name == "second" {
			// message 1 starts after the first golden message
			if !strings.HasPrefix(v.Rule, "message 1 ") {
				t.Errorf("%s: got %q, want a rejection of message 1", v.ID, v.Rule)
			}
			continue
		}
		if v.Rule != w {
			t.Errorf("%s: the reference says %q, want %q", v.ID, v.Rule, w)
		}
		if w == "" && len(v.Want) == 0 {
			t.Errorf("%s: accepted with no output", v.ID)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d vectors", seen, len(want))
	}
}
