package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestPipInstall installs a generated package with pip, as a user would
// (pip install DIR), into a directory of its own: with a C compiler the
// accelerator is built and IMPLEMENTATION is "c"; with a compiler that
// fails (CC=/bin/false) the install still succeeds and IMPLEMENTATION is
// "python"; both decode and encode a registry. pip runs from scripts/setup's
// venv, which has setuptools, without build isolation (there is no index to
// fetch setuptools from in CI).
func TestPipInstall(t *testing.T) {
	py := filepath.Join(lintVenv(), "bin", "python3")
	if exec.Command(py, "-c", "import setuptools, pip").Run() != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s lacks pip or setuptools (scripts/setup installs them)", py)
		}
		t.Skipf("%s lacks pip or setuptools (run scripts/setup)", py)
	}
	gentest.RequireTool(t, "gcc")
	files, err := Generate(gentest.LoadSchema(t, conformance.SchemaPath("plugins")), gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join(conformance.Dir(), "golden", "plugins", "registry_62.sdpb"))
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(t.TempDir(), "registry.sdpb")
	if err := os.WriteFile(input, golden, 0o644); err != nil {
		t.Fatal(err)
	}
	check := `import sys, plugins
data = open(sys.argv[1], "rb").read()
r = plugins.PluginRegistry.decode(data)
assert r.encode() == data and len(r.plugins) == 62, "round trip"
print(plugins.IMPLEMENTATION)
`
	for _, c := range []struct {
		name string
		env  []string
		want string
	}{
		{"compiler", nil, "c"},
		{"no_compiler", []string{"CC=/bin/false"}, "python"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// pip builds in the source tree: each run has its own, so none
			// finds another's build directory.
			src, target := t.TempDir(), t.TempDir()
			if err := gen.Write(src, files); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
				"--no-build-isolation", "--no-deps", "--no-cache-dir", "--target", target, src)
			cmd.Env = append(append(os.Environ(), "SDP_PURE_PYTHON="), c.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("pip install: %v\n%s", err, out)
			}
			run := exec.Command(py, "-c", check, input)
			run.Env = append(os.Environ(), "PYTHONPATH="+target, "SDP_PURE_PYTHON=")
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("the installed package: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != c.want {
				t.Errorf("IMPLEMENTATION is %q, want %q", got, c.want)
			}
		})
	}
}
