package c

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

// strictFlags are the warnings every generated file must compile cleanly with.
var strictFlags = []string{"-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion",
	"-Wcast-qual", "-Wstrict-prototypes", "-Wmissing-prototypes", "-Werror"}

func schemaNames(t *testing.T) []string {
	t.Helper()
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// generate writes the C files of a corpus schema into dir.
func generate(t *testing.T, name, dir string, opt gen.Options) []gen.File {
	t.Helper()
	s := gentest.LoadSchema(t, conformance.SchemaPath(name))
	files, err := Generate(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGolden(t *testing.T) {
	for _, name := range schemaNames(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			s := gentest.LoadSchema(t, conformance.SchemaPath(name))
			gentest.Golden(t, filepath.Join("testdata", name), Generate, s, gen.Options{})
		})
	}
}

func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// TestCompile compiles every corpus schema's code with gcc and clang under
// strict warnings, as C99 and (the header, from a C++ file) as C++, and with
// the portable byte-order path forced.
func TestCompile(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	gxx := gentest.RequireTool(t, "g++")
	clang := gentest.RequireTool(t, "clang")
	dir := t.TempDir()
	for _, name := range schemaNames(t) {
		generate(t, name, filepath.Join(dir, name), gen.Options{})
	}
	for _, name := range schemaNames(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			d := filepath.Join(dir, name)
			src := name + ".c"
			for _, cc := range []string{gcc, clang} {
				run(t, d, cc, append(append([]string{}, strictFlags...), "-O1", "-c", src, "-o", "/dev/null")...)
			}
			run(t, d, gcc, append(append([]string{}, strictFlags...), "-D"+upper(packagePrefix(name))+"_LITTLE_ENDIAN=0", "-c", src, "-o", "/dev/null")...)
			cpp := filepath.Join(d, "include.cpp")
			if err := os.WriteFile(cpp, []byte("#include \""+name+".h\"\nint main() { return 0; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			run(t, d, gxx, "-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c", "include.cpp", "-o", "/dev/null")
			run(t, d, gxx, "-x", "c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-c", src, "-o", "/dev/null")
		})
	}
}

// TestTwoPackagesLink links the code of every corpus schema into one
// program: nothing may clash.
func TestTwoPackagesLink(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	dir := t.TempDir()
	var main strings.Builder
	args := append([]string{}, strictFlags...)
	for _, name := range schemaNames(t) {
		generate(t, name, dir, gen.Options{})
		main.WriteString("#include \"" + name + ".h\"\n")
		args = append(args, name+".c")
	}
	main.WriteString("int main(void) { return 0; }\n")
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, gcc, append(args, "main.c", "-o", "all")...)
}
