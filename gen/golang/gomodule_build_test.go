package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen/gentest"
)

// TestGoModuleExample is the route a user's own module takes: `go install
// ./cmd/sdp` from this checkout (into a temporary GOBIN put on PATH), then
// `go generate`, `go vet` and `go run` in a copy of examples/go-module, a
// module of its own whose main.go has a `//go:generate sdp gen ...` line.
func TestGoModuleExample(t *testing.T) {
	goTool := gentest.RequireTool(t, "go")
	root := gentest.Root(t)
	tmp := t.TempDir()
	bin, dir := filepath.Join(tmp, "bin"), filepath.Join(tmp, "greenhouse")
	env := append(os.Environ(), "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOFLAGS=-buildvcs=false", "GOWORK=off", "GOPROXY=off", "GO111MODULE=on")
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(root, "install", "./cmd/sdp")

	example := filepath.Join(root, "examples", "go-module")
	for _, f := range []string{"go.mod", "main.go", "sensors.sdp"} {
		b, err := os.ReadFile(filepath.Join(example, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out := run(dir, "generate"); !strings.Contains(out, "wrote sensors.go") {
		t.Errorf("go generate did not run sdp gen:\n%s", out)
	}
	run(dir, "vet", "./...")
	out := run(dir, "run", ".")
	for _, want := range []string{"greenhouse-1 sent 2 readings (Celsius first) in 74 bytes; round trip ok", "truncated input: truncated at offset 70 in battery: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}
}
