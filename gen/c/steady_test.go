package c

import (
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestSteadyState builds testdata/programs/steady.c against the plugins and
// recursive schemas with sanitizers and with malloc and realloc counted
// (-Wl,--wrap), and runs it: decoding message after message into one struct
// with the arena reset between them allocates nothing once a heap arena has
// grown (nor ever with a fixed arena), the stream reader reaches the same
// steady state, and a failed decode leaves the default value.
func TestSteadyState(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	dir := t.TempDir()
	args := append(append([]string{}, strictFlags...), sanitize...)
	for _, name := range []string{"plugins", "recursive"} {
		generate(t, name, dir, gen.Options{})
		args = append(args, name+".c")
	}
	src, err := filepath.Abs(filepath.Join("testdata", "programs", "steady.c"))
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, gcc, append(args, "-Wl,--wrap=malloc,--wrap=realloc", "-I", dir, src, "-o", "steady")...)
	out, err := exec.Command(filepath.Join(dir, "steady"), filepath.Join(conformance.Dir(), "golden")).CombinedOutput()
	if err != nil {
		t.Fatalf("steady-state tests failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
