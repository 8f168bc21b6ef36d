package c

import (
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestAPI builds testdata/programs/api.c against four corpus schemas with
// sanitizers and runs it: arenas (including a fixed arena of every size
// running out), options, error offsets, messages, errors and hand-built values;
// once natively and once with -m32.
func TestAPI(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	for _, variant := range []struct {
		name  string
		flags []string
	}{{"native", nil}, {"m32", m32}} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			if variant.name == "m32" {
				if testing.Short() {
					t.Skip("short mode")
				}
				requireM32(t)
			}
			dir := t.TempDir()
			args := append(append(append([]string{}, strictFlags...), sanitize...), variant.flags...)
			for _, name := range []string{"enums_unions", "messages", "plugins", "recursive"} {
				generate(t, name, dir, gen.Options{})
				args = append(args, name+".c")
			}
			src, err := filepath.Abs(filepath.Join("testdata", "programs", "api.c"))
			if err != nil {
				t.Fatal(err)
			}
			run(t, dir, gcc, append(args, "-I", dir, src, "-o", "api")...)
			cmd := exec.Command(filepath.Join(dir, "api"),
				filepath.Join(conformance.Dir(), "golden", "plugins", "registry_62.sdpb"),
				filepath.Join(conformance.Dir(), "golden", "recursive", "tree_depth_64.sdpb"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("api tests failed: %v\n%s", err, out)
			}
		})
	}
}
