package cpp

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

// exampleDir is examples/cpp, whose plugins/ holds code generated from
// examples/cpp/plugins.sdp.
func exampleDir(t testing.TB) string { return filepath.Join(gentest.Root(t), "examples", "cpp") }

// TestExampleUpToDate regenerates examples/cpp/plugins and compares.
func TestExampleUpToDate(t *testing.T) {
	dir := exampleDir(t)
	s := gentest.LoadSchema(t, filepath.Join(dir, "plugins.sdp"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, "plugins", f.Path))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("examples/cpp/plugins/%s is out of date (sdp gen --lang cpp --out plugins plugins.sdp): %v", f.Path, err)
		}
	}
}

// TestExample builds the example with CMake (the generated CMakeLists.txt
// through add_subdirectory), runs it and checks its report.
func TestExample(t *testing.T) {
	cmake := gentest.RequireTool(t, "cmake")
	gentest.RequireTool(t, "g++")
	build := filepath.Join(t.TempDir(), "build")
	flags := "-DCMAKE_CXX_FLAGS=" + strings.Join(strictFlags[1:], " ")
	for _, args := range [][]string{
		{"-S", exampleDir(t), "-B", build, flags},
		{"--build", build},
	} {
		if out, err := exec.Command(cmake, args...).CombinedOutput(); err != nil {
			t.Fatalf("cmake %v: %v\n%s", args, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(build, "plugins", "libplugins.a")); err != nil {
		t.Fatalf("the generated library was not built: %v", err)
	}
	out, err := exec.Command(filepath.Join(build, "example")).CombinedOutput()
	if err != nil {
		t.Fatalf("example: %v\n%s", err, out)
	}
	for _, want := range []string{
		"encoded 188 bytes (encode_to wrote 188)",
		"plugin EQ with 2 parameters",
		"message of type 3 holding 2 plugins",
		"stream: 2 messages, ok, schema checked: yes",
		"decoded again into the same value: ok, storage kept: yes",
		"corrupted input: utf8 at byte 4", // the string's length
		"after the error: 0 plugins",
		"truncated input: truncated at byte 184",
		"depth limit 2: depth at byte 38",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("example output lacks %q:\n%s", want, out)
		}
	}
}
