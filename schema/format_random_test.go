package schema_test

import (
	"strings"
	"testing"

	"sdp/compat"
	"sdp/conformance/randschema"
	"sdp/schema"
)

// TestFormatRandom formats random schemas (odd doc comments, adversarial
// names, CRLF files, Option<T>, every declaration order): the result must
// be stable and describe the same schema, type for type, with no change at
// all, not even a doc comment (sdp compat finds none).
func TestFormatRandom(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		for _, adv := range []bool{false, true} {
			src := randschema.Schema(seed, randschema.Config{Adversarial: adv})
			old, err := schema.Parse("r.sdp", src)
			if err != nil {
				t.Fatal(err)
			}
			out, err := schema.Format("r.sdp", src)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			again, err := schema.Format("r.sdp", out)
			if err != nil || string(again) != string(out) {
				t.Fatalf("seed %d: not stable (%v)", seed, err)
			}
			formatted, err := schema.Parse("r.sdp", out)
			if err != nil {
				t.Fatalf("seed %d: the formatted schema does not parse: %v\n%s", seed, err, out)
			}
			r, err := compat.Compare(old, formatted, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, ty := range r.Types {
				if ty.Status != "identical" || len(ty.Changes) > 0 {
					t.Fatalf("seed %d: formatting changed %s: %s %+v", seed, ty.Name, ty.Status, ty.Changes)
				}
			}
			if strings.Contains(string(src), "\r\n") != strings.Contains(string(out), "\r\n") {
				t.Errorf("seed %d: line endings changed", seed)
			}
		}
	}
}
