package conformance

import (
	"strings"
	"testing"

	"sdp/schema"
)

// TestReferenceStreams runs the corpus stream vectors through the reference
// testee, and checks that they cover every row of the stream table of
// docs/wire-format.md.
func TestReferenceStreams(t *testing.T) {
	RunStreams(t, "reference", func(t *testing.T, name string) Testee {
		s, err := schema.Load(SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		return ReferenceTestee(s)
	})
	seen := map[string]bool{}
	names, _ := SchemaNames()
	for _, name := range names {
		vs, err := CorpusStreamVectors(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			kind := "valid"
			if v.Rule != "" {
				kind = strings.Fields(v.Rule)[0]
			}
			seen[v.ID[strings.LastIndexByte(v.ID, '.')+1:]+":"+kind] = true
		}
	}
	for _, want := range []string{"empty:valid", "all:valid", "at_max:valid", "cut_header:truncated", "cut_payload:truncated", "bad_magic:message", "unknown_id:message", "over_max:message", "bad0:message", "bad1:truncated"} {
		if !seen[want] {
			t.Errorf("no stream vector %s", want)
		}
	}
}
