package cpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
)

// buildSDP builds the sdp command into a temporary directory.
func buildSDP(t *testing.T) string {
	t.Helper()
	sdp := filepath.Join(t.TempDir(), "sdp")
	cmd := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	cmd.Dir = gentest.Root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	return sdp
}

// copyDir copies the regular files of src (not its subdirectories) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runCmd(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestCMakeGenerate configures and builds a copy of examples/cmake-generate,
// whose CMakeLists.txt generates C++ and C code with sdp_generate()
// (cmake/SDPGenerate.cmake) at build time, runs both programs, then edits the
// schema and checks that the next build regenerates the code.
func TestCMakeGenerate(t *testing.T) {
	cmake := gentest.RequireTool(t, "cmake")
	gentest.RequireTool(t, "g++")
	gentest.RequireTool(t, "gcc")
	root := gentest.Root(t)
	sdp := buildSDP(t)
	tmp := t.TempDir()
	src, build := filepath.Join(tmp, "src"), filepath.Join(tmp, "build")
	copyDir(t, filepath.Join(root, "examples", "cmake-generate"), src)
	runCmd(t, tmp, cmake, "-S", src, "-B", build, "-DSDP_ROOT="+root, "-DSDP_EXECUTABLE="+sdp,
		"-DCMAKE_CXX_FLAGS="+strings.Join(strictFlags[1:], " "),
		"-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror -Wconversion -Wsign-conversion")
	runCmd(t, tmp, cmake, "--build", build)
	for exe, want := range map[string]string{
		"sensors_cpp": "C++: greenhouse-1 sent 2 readings in 74 bytes; round trip ok",
		"sensors_c":   "C: greenhouse-1 sent 2 readings in 74 bytes; round trip ok",
	} {
		if out := runCmd(t, build, filepath.Join(build, exe)); !strings.Contains(out, want) {
			t.Errorf("%s printed %q, want %q", exe, out, want)
		}
	}

	// A schema change regenerates both libraries on the next build.
	schemaPath := filepath.Join(src, "sensors.sdp")
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schemaPath, append(b, "\nstruct Calibration { offset: f64 }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runCmd(t, tmp, cmake, "--build", build)
	if !strings.Contains(out, "sdp gen --lang cpp") || !strings.Contains(out, "sdp gen --lang c:") {
		t.Errorf("the build after a schema change did not run sdp gen:\n%s", out)
	}
	for _, f := range []string{"sdp/sensors/sensors.hpp", "sdp/sensors_c99/sensors.h"} {
		h, err := os.ReadFile(filepath.Join(build, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(h), "Calibration") {
			t.Errorf("%s was not regenerated after the schema changed", f)
		}
	}
	// Nothing changed: nothing is generated again.
	if out := runCmd(t, tmp, cmake, "--build", build); strings.Contains(out, "sdp gen") {
		t.Errorf("a build with nothing changed ran sdp gen again:\n%s", out)
	}
}

// TestCMakeInstallGenerated builds a C library with sdp_generate(... LANG c
// INSTALL), installs it into a temporary prefix and builds a second project
// that finds it with find_package() and links sdp::sensors_c99.
func TestCMakeInstallGenerated(t *testing.T) {
	cmake := gentest.RequireTool(t, "cmake")
	gentest.RequireTool(t, "gcc")
	root := gentest.Root(t)
	example := filepath.Join(root, "examples", "cmake-generate")
	sdp := buildSDP(t)
	tmp := t.TempDir()
	lib, prefix := filepath.Join(tmp, "lib"), filepath.Join(tmp, "prefix")
	project := `cmake_minimum_required(VERSION 3.14)
project(sensors_c99 LANGUAGES C)
list(APPEND CMAKE_MODULE_PATH "` + filepath.ToSlash(filepath.Join(root, "cmake")) + `")
include(SDPGenerate)
sdp_generate(sensors_c99 SCHEMA "` + filepath.ToSlash(filepath.Join(example, "sensors.sdp")) + `" LANG c INSTALL)
`
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "CMakeLists.txt"), []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	runCmd(t, tmp, cmake, "-S", lib, "-B", filepath.Join(tmp, "lib-build"), "-DCMAKE_INSTALL_PREFIX="+prefix, "-DSDP_EXECUTABLE="+sdp)
	runCmd(t, tmp, cmake, "--build", filepath.Join(tmp, "lib-build"))
	runCmd(t, tmp, cmake, "--install", filepath.Join(tmp, "lib-build"))
	if _, err := os.Stat(filepath.Join(prefix, "include", "sensors.h")); err != nil {
		t.Errorf("the header was not installed: %v", err)
	}

	app := filepath.Join(tmp, "app")
	copyDir(t, example, app)
	consumer := `cmake_minimum_required(VERSION 3.14)
project(consumer LANGUAGES C)
find_package(sensors_c99 CONFIG REQUIRED)
add_executable(sensors_c main.c)
target_link_libraries(sensors_c PRIVATE sdp::sensors_c99)
`
	if err := os.WriteFile(filepath.Join(app, "CMakeLists.txt"), []byte(consumer), 0o644); err != nil {
		t.Fatal(err)
	}
	build := filepath.Join(tmp, "app-build")
	runCmd(t, tmp, cmake, "-S", app, "-B", build, "-DCMAKE_PREFIX_PATH="+prefix)
	runCmd(t, tmp, cmake, "--build", build)
	if out := runCmd(t, build, filepath.Join(build, "sensors_c")); !strings.Contains(out, "round trip ok") {
		t.Errorf("the installed library's consumer printed %q", out)
	}
}

// TestCMakeInstall builds the CMakeLists.txt that `sdp gen --lang cpp`
// writes, installs the library into a temporary prefix and builds a second
// project that finds it with find_package() and links sdp::sensors.
func TestCMakeInstall(t *testing.T) {
	cmake := gentest.RequireTool(t, "cmake")
	gentest.RequireTool(t, "g++")
	root := gentest.Root(t)
	example := filepath.Join(root, "examples", "cmake-generate")
	s := gentest.LoadSchema(t, filepath.Join(example, "sensors.sdp"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	lib, prefix := filepath.Join(tmp, "sensors"), filepath.Join(tmp, "prefix")
	if err := gen.Write(lib, files); err != nil {
		t.Fatal(err)
	}
	runCmd(t, tmp, cmake, "-S", lib, "-B", filepath.Join(tmp, "lib-build"), "-DCMAKE_INSTALL_PREFIX="+prefix)
	runCmd(t, tmp, cmake, "--build", filepath.Join(tmp, "lib-build"))
	runCmd(t, tmp, cmake, "--install", filepath.Join(tmp, "lib-build"))
	if _, err := os.Stat(filepath.Join(prefix, "include", "sensors.hpp")); err != nil {
		t.Errorf("the header was not installed: %v", err)
	}
	// lib/ or lib64/, as GNUInstallDirs chooses.
	if m, _ := filepath.Glob(filepath.Join(prefix, "*", "cmake", "sensors", "sensorsConfig.cmake")); len(m) != 1 {
		t.Errorf("sensorsConfig.cmake was not installed")
	}

	app := filepath.Join(tmp, "app")
	copyDir(t, example, app)
	consumer := `cmake_minimum_required(VERSION 3.14)
project(consumer LANGUAGES CXX)
find_package(sensors CONFIG REQUIRED)
add_executable(sensors_cpp main.cpp)
target_link_libraries(sensors_cpp PRIVATE sdp::sensors)
`
	if err := os.WriteFile(filepath.Join(app, "CMakeLists.txt"), []byte(consumer), 0o644); err != nil {
		t.Fatal(err)
	}
	build := filepath.Join(tmp, "app-build")
	runCmd(t, tmp, cmake, "-S", app, "-B", build, "-DCMAKE_PREFIX_PATH="+prefix)
	runCmd(t, tmp, cmake, "--build", build)
	if out := runCmd(t, build, filepath.Join(build, "sensors_cpp")); !strings.Contains(out, "round trip ok") {
		t.Errorf("the installed library's consumer printed %q", out)
	}
}
