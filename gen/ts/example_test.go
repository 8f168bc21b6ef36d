package ts

import (
	"bytes"
	"net/http"
	"net/http/httptest"
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

// TestWebExample checks that examples/web/registry is what --lang js writes
// for examples/web/registry.sdp, and runs examples/web/index.html in
// headless Chromium, served over HTTP (ES modules are not loaded from
// file: URLs).
func TestWebExample(t *testing.T) {
	dir := filepath.Join(gentest.Root(t), "examples", "web")
	s := gentest.LoadSchema(t, filepath.Join(dir, "registry.sdp"))
	files, err := GenerateJS(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, "registry", filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/web/registry/%s is stale: regenerate with\n"+
				"  go run ./cmd/sdp gen --lang js --out examples/web/registry examples/web/registry.sdp", f.Path)
		}
	}
	chromium := gentest.RequireTool(t, "chromium")
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000", "--dump-dom", srv.URL+"/index.html")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	for _, want := range []string{"decoded: Pro-Q 3, Band 1 Gain", "rule ", "read a Plugin from a stream (schema checked: true)", "done"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the page lacks %q:\n%s", want, out)
		}
	}
}
