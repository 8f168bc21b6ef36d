package randschema

import (
	"fmt"
	"testing"

	"sdp/schema"
)

// TestSchemasCheck: every generated schema is accepted by the checker,
// and the same seed gives the same text.
func TestSchemasCheck(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		for _, adv := range []bool{false, true} {
			cfg := Config{Adversarial: adv}
			src := Schema(seed, cfg)
			if string(Schema(seed, cfg)) != string(src) {
				t.Fatalf("seed %d: not deterministic", seed)
			}
			if _, err := schema.Parse(fmt.Sprintf("r%d.sdp", seed), src); err != nil {
				t.Fatalf("seed %d adversarial=%v: checker rejects the generated schema:\n%v\n%s", seed, adv, err, src)
			}
		}
	}
}
