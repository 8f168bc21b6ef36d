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
		"truncated input: truncated at offset 112 in scanned_at: the input ends inside a value; 0 plugin(s) left",
		"decoded again into the same struct: 1 plugin(s)",
		"64-byte arena: no_memory",
		"a Registry with 1 plugin(s)",
		"stream message 2 at offset 260: 1 plugin(s)",
		"stream error: message 3 at stream offset 390: truncated at offset 0 in message: the input ends inside a value",
		"hello checked (1), then message 1",
		"refused: message 0 at stream offset 0: schema at offset 16 in message: the writer's schema has another version of Parameter",
		"; run `sdp compat` on the two schemas",
		"encode refused (encode: the value cannot be encoded, rule utf8, path plugins[0].vendor): utf8 in plugins[0].vendor: the string is not valid UTF-8",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
