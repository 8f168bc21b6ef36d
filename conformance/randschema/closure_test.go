package randschema

import (
	"bytes"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// TestClosure: the closure of every struct of random schemas is a valid
// schema in which every valid vector of that struct decodes, plainly and as
// a message, to the same JSON, and every invalid one fails for the same rule.
func TestClosure(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		su, err := Generate(seed, Config{Adversarial: seed%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range su.Schema.Structs {
			src := Closure(su.Schema, st.ID)
			small, err := schema.Parse("closure.sdp", src)
			if err != nil {
				t.Fatalf("%s %s: closure does not check: %v\n%s", su.Name, st.Name, err, src)
			}
			if again := Closure(small, st.ID); !bytes.Equal(again, src) {
				t.Fatalf("%s %s: the closure of the closure differs", su.Name, st.Name)
			}
			for _, v := range su.Vectors {
				if v.TypeID != st.ID || v.Op != 1 {
					continue
				}
				want, werr := codec.Decode(su.Schema, st.Name, v.Input, codec.Options{})
				got, gerr := codec.Decode(small, st.Name, v.Input, codec.Options{})
				if !bytes.Equal(want, got) || (werr == nil) != (gerr == nil) || (werr != nil && rule(werr) != rule(gerr)) {
					t.Fatalf("%s: the closure decodes differently: %v / %v", v.ID, werr, gerr)
				}
			}
		}
	}
}
