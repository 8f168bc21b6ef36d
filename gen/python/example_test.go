package python

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

// TestExample checks that examples/python/registry is what the generator
// writes for examples/python/registry.sdp, that the example runs and prints
// what it should, and that it passes mypy --strict and ruff.
func TestExample(t *testing.T) {
	dir := filepath.Join(gentest.Root(t), "examples", "python")
	s := gentest.LoadSchema(t, filepath.Join(dir, "registry.sdp"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, "registry", filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/python/registry/%s is stale: regenerate with\n"+
				"  go run ./cmd/sdp gen --lang python --out examples/python/registry examples/python/registry.sdp", f.Path)
		}
	}
	py := python3(t)
	cmd := exec.Command(py, "-B", "main.py")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 examples/python/main.py: %v\n%s", err, out)
	}
	for _, want := range []string{"62 plugins", "equal to the original", "(rule truncated)", "read a Parameter", "checked against the hello: True"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
	// The linters see main.py next to the package, as an installed package would be.
	tmp := t.TempDir()
	if err := gen.Write(filepath.Join(tmp, "pkg"), files); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(tmp, "pkg", "registry"), filepath.Join(tmp, "registry")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "main.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "main.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	lint(t, tmp, []string{"main.py"})
}
