package golang

import (
	"os/exec"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
)

// TestHostile sends the hostile inputs of issue #13 (gentest.RunHostile) to
// the testee of hostile.sdp, whose goroutines may not grow their stacks past
// 512 KiB (debug.SetMaxStack): the 60-level chain of 32 KiB values decodes,
// the 20 MB arrays of absent values are refused by rule 11 (memory), and the
// testee's peak memory is logged.
func TestHostile(t *testing.T) {
	m := buildModule(t)
	bin := m.buildTestee(t, testeeVariants[0])
	testee, err := conformance.Start(exec.Command(bin, "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	gentest.RunHostile(t, "go", testee)
}
