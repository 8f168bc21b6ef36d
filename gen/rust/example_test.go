package rust

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
)

// TestExample checks that examples/rust/registry is what the generator
// writes for examples/rust/registry.sdp, and that the example runs.
func TestExample(t *testing.T) {
	dir := filepath.Join(gentestRoot(), "examples", "rust")
	s := gentest.LoadSchema(t, filepath.Join(dir, "registry.sdp"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, "registry", filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/rust/registry/%s is stale: regenerate with\n"+
				"  go run ./cmd/sdp gen --lang rust --out examples/rust/registry examples/rust/registry.sdp", f.Path)
		}
	}
	w := buildWorkspace(t)
	cmd := exec.Command("cargo", "run", "--quiet", "--locked")
	cmd.Dir = dir
	cmd.Env = w.cargoEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cargo run in examples/rust: %v\n%s", err, out)
	}
	for _, want := range []string{"encoded 3 plugins", "streamed message 4: type id 3", "cut stream: message 3 at stream offset ", "schema check: message 0 at stream offset 0: schema at offset ", "the writer's schema has another version of Plugin", "truncated input: truncated at offset "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
