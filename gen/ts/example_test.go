package ts

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

// TestExample checks that examples/node/registry is what --lang js writes
// for examples/node/registry.sdp, and that the example runs and prints what
// it should.
func TestExample(t *testing.T) {
	dir := filepath.Join(gentest.Root(t), "examples", "node")
	s := gentest.LoadSchema(t, filepath.Join(dir, "registry.sdp"))
	files, err := GenerateJS(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, "registry", filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/node/registry/%s is stale: regenerate with\n"+
				"  go run ./cmd/sdp gen --lang js --out examples/node/registry examples/node/registry.sdp", f.Path)
		}
	}
	cmd := exec.Command(gentest.RequireTool(t, "node"), "main.mjs")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node examples/node/main.mjs: %v\n%s", err, out)
	}
	for _, want := range []string{"62 plugins", "equal to the original", "(rule count)", "read a Parameter", "checked against the hello: true"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
