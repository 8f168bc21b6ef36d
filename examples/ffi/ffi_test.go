//go:build cgo

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/c"
	"sdp/gen/cpp"
	"sdp/gen/gentest"
	"sdp/gen/rust"
	"sdp/schema"
)

// TestGeneratedUpToDate regenerates cpp/, c/ and rust/registry/ from
// ../go/registry.sdp and compares them with the committed files.
func TestGeneratedUpToDate(t *testing.T) {
	s, err := schema.Load(filepath.Join("..", "go", "registry.sdp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		dir, cmd string
		gen      func(*schema.Schema, gen.Options) ([]gen.File, error)
		opt      gen.Options
	}{
		{"cpp", "--lang cpp --out cpp", cpp.Generate, gen.Options{}},
		{"c", "--lang c --package creg --out c", c.Generate, gen.Options{Package: "creg"}},
		{"rust/registry", "--lang rust --out rust/registry", rust.Generate, gen.Options{}},
	} {
		files, err := g.gen(s, g.opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			got, err := os.ReadFile(filepath.Join(g.dir, filepath.FromSlash(f.Path)))
			if err != nil || !bytes.Equal(got, f.Content) {
				t.Errorf("examples/ffi/%s/%s is out of date; in examples/ffi run\n  go run sdp/cmd/sdp gen %s ../go/registry.sdp", g.dir, f.Path, g.cmd)
			}
		}
	}
}

// TestCppAndC calls the C++ and C collectors in this process through cgo
// (the test binary links them as the program does), decodes their bytes and
// compares with Go's registry; a corrupt registry comes back as a status
// and a message.
func TestCppAndC(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"C++: 107237 bytes (crc32 6b5b6f4e), 62 plugins, 1827 parameters, equal to Go's registry",
		"C: 107237 bytes (crc32 6b5b6f4e), 62 plugins, 1827 parameters, equal to Go's registry",
		"C++, corrupt registry: C++ collector: status 1 (encode): registry::encoded_size returned 0",
		"C, corrupt registry: C collector: status 1 (encode): utf8 in plugins[61].name: the string is not valid UTF-8",
		"Go -> C: 107237 bytes decoded by C: 62 plugins, 1827 parameters",
		"Go -> C, truncated: C decoder: status 4 (decode): truncated: the input ends inside a value at byte 107233 (total_parameter_count)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Small and empty registries cross too.
	for _, n := range []uint32{0, 1, 3} {
		for _, c := range collectors() {
			data, err := c.collect(n, false)
			if err != nil {
				t.Fatalf("%s, %d plugins: %v", c.name, n, err)
			}
			want, _ := expected(n).MarshalBinary()
			if !bytes.Equal(data, want) {
				t.Errorf("%s, %d plugins: the bytes differ from Go's encoding", c.name, n)
			}
		}
	}
}

// TestStrictFlags compiles the collectors with warnings as errors, the C++
// one with -fno-exceptions too (its try/catch is compiled only when
// exceptions are on).
func TestStrictFlags(t *testing.T) {
	for _, c := range [][]string{
		{"g++", "-std=c++17", "-fno-exceptions", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "collector_cpp.cpp"},
		{"gcc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "collector_c.c"},
	} {
		tool := gentest.RequireTool(t, c[0])
		args := append(c[1:len(c):len(c)], "-c", "-o", filepath.Join(t.TempDir(), "collector.o"))
		if out, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", c[0], strings.Join(args, " "), err, out)
		}
	}
}

// TestRust builds the Rust collector as a static library with cargo (its
// target directory in the test's temporary directory), links it into the
// program with -tags rust and runs the program.
func TestRust(t *testing.T) {
	t.Parallel()
	cargo := gentest.RequireTool(t, "cargo")
	tmp := t.TempDir()
	target := filepath.Join(tmp, "target")
	cmd := exec.Command(cargo, "build", "--release", "--offline", "--locked", "--quiet")
	cmd.Dir = "rust"
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target, "CARGO_TERM_COLOR=never")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cargo build: %v\n%s", err, out)
	}
	exe := filepath.Join(tmp, "ffi")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-tags", "rust", "-o", exe, ".")
	build.Env = append(os.Environ(), "CGO_LDFLAGS="+strings.TrimSpace(os.Getenv("CGO_LDFLAGS")+" -L"+filepath.Join(target, "release")))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags rust: %v\n%s", err, out)
	}
	run := exec.Command(exe)
	run.Env = append(os.Environ(), "RUST_BACKTRACE=0")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("ffi: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Rust: 107237 bytes (crc32 6b5b6f4e), 62 plugins, 1827 parameters, equal to Go's registry",
		"Rust, corrupt registry: Rust collector: status 3 (internal): panic: the collector failed while enumerating plugins",
		"C++: 107237 bytes",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestSwift builds swift/main.swift against the generated C++ header with
// Swift's C++ interoperability and checks the registry it encodes.
func TestSwift(t *testing.T) {
	t.Parallel()
	swiftc := gentest.RequireTool(t, "swiftc")
	gxx := gentest.RequireTool(t, "g++")
	tmp := t.TempDir()
	obj, exe, file := filepath.Join(tmp, "registry.o"), filepath.Join(tmp, "collector"), filepath.Join(tmp, "registry.sdpb")
	for _, c := range [][]string{
		{gxx, "-std=c++17", "-O2", "-c", filepath.Join("cpp", "registry.cpp"), "-o", obj},
		{swiftc, "-cxx-interoperability-mode=default", "-Xcc", "-std=c++17", "-I", "swift",
			filepath.Join("swift", "main.swift"), obj, "-o", exe},
		{exe, file},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report(&out, "Swift (C++ interop)", data); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(out.String()))
}
