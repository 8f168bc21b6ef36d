package gentest

import (
	"errors"
	"testing"

	eu "sdp/gen/golang/testdata/enums_unions"
)

// TestTopCasesGo checks the table the backends' top-level tests use against
// Go's generated decoders (DecodeShapeWith, DecodeNestedWith and the enums'
// UnmarshalBinary), which must agree with the reference codec: the other
// languages' paths are then Go's too.
func TestTopCasesGo(t *testing.T) {
	s := EnumsUnions(t)
	for _, c := range TopCases() {
		opts := eu.DecodeOptions{MaxDepth: c.MaxDepth}
		var err error
		switch c.Type {
		case "Shape":
			_, err = eu.DecodeShapeWith(c.Input, opts)
		case "Nested":
			_, err = eu.DecodeNestedWith(c.Input, opts)
		case "Small":
			var v eu.Small
			err = v.UnmarshalBinaryWith(c.Input, opts)
		case "Sparse":
			var v eu.Sparse
			err = v.UnmarshalBinaryWith(c.Input, opts)
		case "Wide":
			var v eu.Wide
			err = v.UnmarshalBinaryWith(c.Input, opts)
		default:
			t.Fatalf("%s: no Go decoder for %s", c.Name, c.Type)
		}
		w := TopExpect(s, c)
		var got TopWant
		var de *eu.DecodeError
		if errors.As(err, &de) {
			got = TopWant{Rule: string(de.Rule), Offset: de.Offset, Path: de.Path}
		} else if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got != w {
			t.Errorf("%s: Go %+v, reference %+v", c.Name, got, w)
		}
	}
}
