package java

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

// TestExample checks that examples/java/generated is what the generator
// writes for examples/java/registry.sdp (package org.example.registry),
// and that the example compiles under the strict flags, runs and prints
// what it should.
func TestExample(t *testing.T) {
	dir := filepath.Join(gentest.Root(t), "examples", "java")
	s := gentest.LoadSchema(t, filepath.Join(dir, "registry.sdp"))
	files, err := Generate(s, gen.Options{Package: "org.example.registry"})
	if err != nil {
		t.Fatal(err)
	}
	srcs := []string{filepath.Join(dir, "Main.java")}
	for _, f := range files {
		p := filepath.Join(dir, "generated", filepath.FromSlash(f.Path))
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/java/generated/%s is stale: regenerate with\n"+
				"  go run ./cmd/sdp gen --lang java --package org.example.registry --out examples/java/generated examples/java/registry.sdp", f.Path)
		}
		if strings.HasSuffix(p, ".java") {
			srcs = append(srcs, p)
		}
	}
	javac := gentest.RequireTool(t, "javac")
	java := gentest.RequireTool(t, "java")
	classes := filepath.Join(t.TempDir(), "classes")
	javacRun(t, javac, classes, srcs)
	out, err := exec.Command(java, append(append([]string{}, javaFlags...), "-cp", classes, "example.Main")...).CombinedOutput()
	if err != nil {
		t.Fatalf("java example.Main: %v\n%s", err, out)
	}
	for _, want := range []string{"encoded 62 plugins", "decoded: equal to the original", "raw_flags as unsigned: 4294967295",
		"decodeInto: equal", "rule truncated, offset 12522, path total_parameter_count", "read a Parameter: Gain 1",
		"read 2 messages from the stream, checked against the hello: true"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
