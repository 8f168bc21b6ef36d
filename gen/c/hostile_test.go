package c

import (
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestHostile sends the hostile inputs of issue #13 (gentest.RunHostile) to
// a testee of hostile.sdp that serves them on a thread with a
// gentest.HostileStack stack: a chain of 60 values of 32 KiB must decode
// (every level is decoded in place, into arena memory, so a level takes a
// small constant of stack), and 20 MB arrays of absent values must be
// rejected with rule memory before anything is allocated. The testee is
// built like the conformance testee (-O1) but without sanitizers, whose
// frames and shadow memory would distort both the stack and the peak memory;
// once natively and once with -m32.
func TestHostile(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	for _, variant := range []struct {
		name  string
		flags []string
	}{{"native", nil}, {"m32", m32}} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			if variant.name == "m32" {
				requireM32(t)
			}
			dir := t.TempDir()
			generate(t, "hostile", dir, gen.Options{})
			writeTesteeWith(t, loadSchema(t, "hostile"), dir, "", gentest.HostileStack)
			args := append(append(append([]string{}, strictFlags...), variant.flags...), "-O1", "-pthread", "testee.c", "hostile.c", "-o", "testee")
			run(t, dir, gcc, args...)
			te, err := conformance.Start(exec.Command(filepath.Join(dir, "testee")))
			if err != nil {
				t.Fatal(err)
			}
			gentest.RunHostile(t, "c", te)
		})
	}
}
