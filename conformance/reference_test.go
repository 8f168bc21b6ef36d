package conformance

import (
	"errors"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// TestReference runs the whole corpus against the reference codec.
func TestReference(t *testing.T) {
	Run(t, "reference", func(t *testing.T, name string) Testee {
		s, err := schema.Load(SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		return ReferenceTestee(s)
	})
}

// TestInvalidRules proves every invalid vector tests what it claims: the
// reference codec rejects it for exactly the rule its file names.
func TestInvalidRules(t *testing.T) {
	names, err := SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, r := range codec.Rules {
		rules[r] = 0
	}
	for _, name := range names {
		s, err := schema.Load(SchemaPath(name))
		if err != nil {
			t.Fatal(err)
		}
		vectors, err := Invalids(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vectors {
			if _, ok := rules[v.Rule]; !ok {
				t.Errorf("%s: rule %q is not a rule of docs/wire-format.md %v", v.ID(), v.Rule, codec.Rules)
				continue
			}
			if s.Struct(v.Type) == nil {
				t.Errorf("%s: type %q is not a struct of %s", v.ID(), v.Type, name)
				continue
			}
			in, _ := v.Bytes()
			if v.Message {
				_, _, err = codec.DecodeMessage(s, in, codec.Options{})
			} else {
				_, err = codec.Decode(s, v.Type, in, codec.Options{})
			}
			var de *codec.DecodeError
			switch {
			case err == nil:
				t.Errorf("%s: the reference codec accepts it", v.ID())
			case !errors.As(err, &de):
				t.Errorf("%s: unexpected error: %v", v.ID(), err)
			case de.Rule != v.Rule:
				t.Errorf("%s: claims rule %s, but the reference codec rejects it for rule %s: %v", v.ID(), v.Rule, de.Rule, err)
			default:
				rules[v.Rule]++
			}
		}
	}
	for _, r := range codec.Rules {
		if rules[r] == 0 {
			t.Errorf("no invalid vector breaks rule %q", r)
		}
	}
}
