package cpp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestHostile sends the hostile inputs of issue #13 (gentest.RunHostile) to
// a testee of hostile.sdp that serves them on a thread with a
// gentest.HostileStack stack: a chain of 60 values of 32 KiB must decode
// (each level is decoded in place into its Box on the heap, so a level
// takes a small constant of stack), and 20 MB arrays of absent values must
// be rejected with rule memory before anything is allocated. The testee is
// built like the conformance testee (strict flags, -O0) but without
// sanitizers, whose frames and shadow memory would distort both the stack
// and the peak memory.
func TestHostile(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	schemas := []*schema.Schema{gentest.LoadSchema(t, conformance.SchemaPath("hostile"))}
	dir := t.TempDir()
	deps := generateAll(t, dir, schemas)
	src := filepath.Join(dir, "testee.cpp")
	if err := os.WriteFile(src, testeeProgram(schemas), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := append(append([]string{}, strictFlags...), "-O0", "-pthread",
		fmt.Sprintf("-DSDP_TESTEE_STACK=%d", gentest.HostileStack))
	exe := filepath.Join(dir, "testee-hostile")
	link(t, gxx, flags, exe, compile(t, gxx, flags, src, deps...))
	testee, err := conformance.Start(exec.Command(exe, "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	gentest.RunHostile(t, "cpp", testee)
}
