package rust

import (
	"fmt"
	"os/exec"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
)

// TestHostile sends the hostile inputs of issue #13 (gentest.RunHostile) to
// the conformance testee, a debug build without sanitizers, serving
// hostile.sdp on a thread with a gentest.HostileStack stack: the chain of
// 32 KiB values decodes (its fixed arrays are boxed, so no level builds one
// on the stack) and the 20 MB arrays of absent values are refused with rule
// memory before anything is allocated.
func TestHostile(t *testing.T) {
	w := buildWorkspace(t)
	te, err := conformance.Start(exec.Command(w.testee, "hostile", fmt.Sprint(gentest.HostileStack)))
	if err != nil {
		t.Fatal(err)
	}
	gentest.RunHostile(t, "rust", te)
}
