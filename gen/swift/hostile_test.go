package swift

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
)

// TestHostile sends the hostile inputs of issue #13 (gentest.RunHostile) to
// the conformance testee of hostile.sdp, the same debug build as
// TestConformance, serving them on a thread with a gentest.HostileStack
// (512 KiB) stack: a 60-level chain of 32 KiB values must decode and
// re-encode, 20 MB arrays of absent ?Big and unit variants must be rejected
// with rule memory, and the testee's peak resident memory stays under
// gentest.HostilePeakLimit (logged).
func TestHostile(t *testing.T) {
	c := builtCorpus(t)
	bin := filepath.Join(c.dir, ".build", "debug", "SDPTestee")
	te, err := conformance.Start(exec.Command(bin, "hostile", strconv.Itoa(gentest.HostileStack)))
	if err != nil {
		t.Fatal(err)
	}
	gentest.RunHostile(t, "swift", te)
}
