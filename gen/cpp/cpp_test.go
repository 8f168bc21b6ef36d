package cpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

func corpus(t *testing.T) []string {
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestGolden compares the generated code for every corpus schema with
// testdata/<schema>/ (go test ./gen/cpp -update rewrites it).
func TestGolden(t *testing.T) {
	for _, name := range corpus(t) {
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		gentest.Golden(t, filepath.Join("testdata", name), Generate, s, gen.Options{})
	}
}

// TestCompile builds every corpus schema's code with g++ and clang++ under
// strict warnings as errors, and with g++ -fno-exceptions.
func TestCompile(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	clang := clangPath(t)
	for _, name := range corpus(t) {
		name := name
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		dir := generate(t, s, gen.Options{})
		src, hdr := filepath.Join(dir, name+".cpp"), filepath.Join(dir, name+".hpp")
		for _, c := range []struct {
			label, cxx string
			extra      []string
		}{
			{"g++", gxx, []string{"-O2"}},
			{"clang++", clang, []string{"-O1"}},
			{"g++-fno-exceptions", gxx, []string{"-O0", "-fno-exceptions"}},
		} {
			c := c
			t.Run(name+"/"+c.label, func(t *testing.T) {
				t.Parallel()
				compile(t, c.cxx, append(append([]string{}, strictFlags...), c.extra...), src, hdr)
			})
		}
	}
}

// TestPackageOption checks --package: a nested namespace and file names.
func TestPackageOption(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	s := gentest.LoadSchema(t, conformance.SchemaPath("keywords"))
	dir := generate(t, s, gen.Options{Package: "acme::wire-v2"})
	for _, f := range []string{"acme_wire_v2.hpp", "acme_wire_v2.cpp", "CMakeLists.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	main := filepath.Join(dir, "main.cpp")
	prog := `#include "acme_wire_v2.hpp"
int main() {
    acme::wire_v2::Holder h;
    h.result.value = acme::wire_v2::Result::Err{-7};
    h.kinds = {acme::wire_v2::Type::Self_, acme::wire_v2::Type::True};
    const auto bytes = acme::wire_v2::encode(h);
    acme::wire_v2::Holder back;
    const acme::wire_v2::Status st = acme::wire_v2::decode(bytes.data(), bytes.size(), back);
    return st && back == h ? 0 : 1;
}
`
	if err := os.WriteFile(main, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := append(append([]string{}, strictFlags...), "-O1")
	objs := []string{
		compile(t, gxx, flags, filepath.Join(dir, "acme_wire_v2.cpp"), filepath.Join(dir, "acme_wire_v2.hpp")),
		compile(t, gxx, flags, main, filepath.Join(dir, "acme_wire_v2.hpp")),
	}
	exe := filepath.Join(dir, "main")
	link(t, gxx, nil, exe, objs...)
	if out, err := exec.Command(exe).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestConformance runs the corpus against one testee per schema, built with
// AddressSanitizer and UndefinedBehaviorSanitizer.
func TestConformance(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	names := corpus(t)
	exes := map[string]string{}
	flags := append(append([]string{}, strictFlags...), "-O1", "-g1")
	flags = append(flags, sanitizeFlags...)
	dirs := map[string]string{}
	schemas := map[string]*schema.Schema{}
	for _, name := range names {
		schemas[name] = gentest.LoadSchema(t, conformance.SchemaPath(name))
		dirs[name] = generate(t, schemas[name], gen.Options{})
		exes[name] = filepath.Join(dirs[name], "testee")
	}
	t.Run("build", func(t *testing.T) {
		for _, name := range names {
			name := name
			s, dir := schemas[name], dirs[name]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				buildTestee(t, gxx, flags, dir, s)
			})
		}
	})
	if t.Failed() {
		return
	}
	conformance.Run(t, "cpp", func(t *testing.T, name string) conformance.Testee {
		cmd := exec.Command(exes[name])
		cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1")
		testee, err := conformance.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return testee
	})
}

func buildTestee(t *testing.T, cxx string, flags []string, dir string, s *schema.Schema) {
	main := filepath.Join(dir, "testee.cpp")
	if err := os.WriteFile(main, testeeMain(s), 0o644); err != nil {
		t.Fatal(err)
	}
	hdr := filepath.Join(dir, s.Name+".hpp")
	objs := []string{
		compile(t, cxx, flags, filepath.Join(dir, s.Name+".cpp"), hdr),
		compile(t, cxx, flags, main, hdr),
	}
	link(t, cxx, sanitizeFlags, filepath.Join(dir, "testee"), objs...)
}

// TestCMake configures and builds one generated library with CMake.
func TestCMake(t *testing.T) {
	cmake := gentest.RequireTool(t, "cmake")
	gentest.RequireTool(t, "g++")
	s := gentest.LoadSchema(t, conformance.SchemaPath("plugins"))
	dir := generate(t, s, gen.Options{})
	build := filepath.Join(t.TempDir(), "build")
	for _, args := range [][]string{
		{"-S", dir, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror"},
		{"--build", build},
	} {
		if out, err := exec.Command(cmake, args...).CombinedOutput(); err != nil {
			t.Fatalf("cmake %v: %v\n%s", args, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(build, "libplugins.a")); err != nil {
		t.Fatalf("the library was not built: %v", err)
	}
}
