package c

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
)

// TestExample builds and runs examples/c with sanitizers.
func TestExample(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	ex := filepath.Join(gentest.Root(t), "examples", "c")
	dir := t.TempDir()
	s := gentest.LoadSchema(t, filepath.Join(ex, "registry.sdp"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, strictFlags...), sanitize...)
	run(t, dir, gcc, append(args, "-I", dir, filepath.Join(ex, "main.c"), "registry.c", "-o", "example")...)
	out, err := exec.Command(filepath.Join(dir, "example")).CombinedOutput()
	if err != nil {
		t.Fatalf("example failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		"encoded 120 bytes",
		"Compressor by Example Audio (Clap), 2 parameters",
		"Gain [dB] -60.0..12.0 flags=0x3",
		"truncated input: truncated",
		"), 0 plugin(s) left",
		"decoded again into the same struct: 1 plugin(s)",
		"64-byte arena: no_memory",
		"a Registry with 1 plugin(s)",
		"stream message 2 at offset 260: 1 plugin(s)",
		"stream error: truncated: the input ends inside a value (message 3, stream offset 390)",
		"hello checked (1), then message 1",
		"refused at stream offset 16: schema: the writer's schema has another version of ",
		"; run `sdp compat` on the two schemas",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
