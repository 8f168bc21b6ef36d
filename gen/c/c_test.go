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
	"sdp/schema"
)

// strictFlags are the warnings every generated file must compile cleanly with.
var strictFlags = []string{"-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion",
	"-Wcast-qual", "-Wstrict-prototypes", "-Wmissing-prototypes", "-Werror"}

func schemaNames(t *testing.T) []string { return gentest.CorpusNames(t) }

// extraSchemas are schemas of this package's own tests, beyond the corpus.
var extraSchemas = []string{"clash", "edge"}

// allSchemas lists the corpus schemas and this package's own.
func allSchemas(t *testing.T) []string { return append(schemaNames(t), extraSchemas...) }

// schemaPath finds a schema of allSchemas.
func schemaPath(name string) string {
	for _, e := range extraSchemas {
		if e == name {
			return filepath.Join("testdata", "schemas", name+".sdp")
		}
	}
	return conformance.SchemaPath(name)
}

// loadSchema loads a schema of allSchemas.
func loadSchema(t *testing.T, name string) *schema.Schema {
	t.Helper()
	p, err := filepath.Abs(schemaPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return gentest.LoadSchema(t, p)
}

// generate writes the C files of a schema of allSchemas into dir.
func generate(t *testing.T, name, dir string, opt gen.Options) []gen.File {
	t.Helper()
	s := loadSchema(t, name)
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
	for _, name := range allSchemas(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			s := loadSchema(t, name)
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
	for _, name := range allSchemas(t) {
		generate(t, name, filepath.Join(dir, name), gen.Options{})
	}
	for _, name := range allSchemas(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := filepath.Join(dir, name)
			src := name + ".c"
			for _, cc := range []string{gcc, clang} {
				run(t, d, cc, append(append([]string{}, strictFlags...), "-O1", "-c", src, "-o", "/dev/null")...)
			}
			run(t, d, gcc, append(append([]string{}, strictFlags...), "-D"+upper(packagePrefix(name))+"_LITTLE_ENDIAN=0", "-fsyntax-only", src)...)
			cpp := filepath.Join(d, "include.cpp")
			if err := os.WriteFile(cpp, []byte("#include \""+name+".h\"\nint main() { return 0; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			run(t, d, gxx, "-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only", "include.cpp")
			run(t, d, gxx, "-x", "c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", src)
		})
	}
}

// stubHeaders are the parts of the C library the generated source uses,
// for compiling it for other targets without their system headers.
var stubHeaders = map[string]string{
	"stdlib.h": "#include <stddef.h>\nvoid* malloc(size_t n);\nvoid* realloc(void* p, size_t n);\nvoid free(void* p);\n",
	"string.h": "#include <stddef.h>\nvoid* memcpy(void* d, const void* s, size_t n);\n" +
		"void* memset(void* d, int c, size_t n);\nint memcmp(const void* a, const void* b, size_t n);\n",
}

// TestCrossCompile checks the code under strict warnings where size_t is 32
// bits (i686, armv7) and on big-endian hosts (powerpc, s390x), with clang's
// freestanding headers and stubs for the two C library headers used.
func TestCrossCompile(t *testing.T) {
	clang := gentest.RequireTool(t, "clang")
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub")
	os.MkdirAll(stub, 0o755)
	for name, text := range stubHeaders {
		if err := os.WriteFile(filepath.Join(stub, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range allSchemas(t) {
		generate(t, name, dir, gen.Options{})
	}
	for _, target := range []string{"i686-linux-gnu", "armv7-none-eabi", "powerpc-linux-gnu", "s390x-linux-gnu"} {
		args := append([]string{"--target=" + target, "-ffreestanding", "-nostdlibinc", "-isystem", stub}, strictFlags...)
		args = append(args, "-fsyntax-only")
		for _, name := range allSchemas(t) {
			args = append(args, name+".c")
		}
		run(t, dir, clang, args...)
	}
}

// TestTwoPackagesLink links the code of every corpus schema into one
// program: nothing may clash.
func TestTwoPackagesLink(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	dir := t.TempDir()
	var main strings.Builder
	args := append([]string{}, strictFlags...)
	for _, name := range allSchemas(t) {
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

// TestPackageOption checks that --package names the files and prefixes every
// identifier, made a valid C identifier.
func TestPackageOption(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("plugins"))
	files, err := Generate(s, gen.Options{Package: "My-Audio"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Path != "my_audio.h" || files[1].Path != "my_audio.c" {
		t.Fatalf("files: %v, %v", files[0].Path, files[1].Path)
	}
	h, c := string(files[0].Content), string(files[1].Content)
	for _, want := range []string{"#ifndef MY_AUDIO_H_INCLUDED", "int my_audio_plugin_registry_decode(", "} my_audio_message;", "#define MY_AUDIO_ERR_UTF8 (-7)"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q", want)
		}
	}
	if !strings.Contains(c, "#include \"my_audio.h\"") || strings.Contains(c, "plugins_") || strings.Contains(h, "plugins_") {
		t.Errorf("source not fully renamed")
	}
}

// TestNoStructs compiles the code of schemas without structs (no message can
// be read, the hello lists nothing) under strict warnings: the runtime emits
// only what such a package uses.
func TestNoStructs(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	clang := gentest.RequireTool(t, "clang")
	dir := t.TempDir()
	for name, src := range map[string]string{
		"nothing":  "",
		"enumonly": "/// Only an enum and a union.\nenum Color: u8 { Red = 1, Green = 2 }\nunion Shape { Dot, Line { length: u32 } }\n",
	} {
		s, err := schema.Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(dir, files); err != nil {
			t.Fatal(err)
		}
		for _, cc := range []string{gcc, clang} {
			run(t, dir, cc, append(append([]string{}, strictFlags...), "-O1", "-c", name+".c", "-o", "/dev/null")...)
		}
	}
}
