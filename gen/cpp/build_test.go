package cpp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// The helpers here compile generated C++ for the tests. Object files are
// cached under os.TempDir() by a hash of the compiler, flags and every input
// byte, so re-running unchanged tests costs little; at most two compilers
// run at once (the machines this runs on have two cores).

var strictFlags = []string{"-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
	"-Wshadow", "-Wconversion", "-Wsign-conversion"}

var sanitizeFlags = []string{"-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}

// asanFlags are the strict flags plus the sanitizers, for test programs.
// Optimizing sanitized code costs more compile time than the tests save in
// running it, so these build at -O0 (the strict -O1 builds of TestCompile
// still catch the warnings that need optimization).
func asanFlags() []string {
	return append(append([]string{}, strictFlags...), append([]string{"-O0"}, sanitizeFlags...)...)
}

var jobs = make(chan struct{}, 2)

// clangPath finds clang++: on PATH, or the one shipped with Swift.
func clangPath(t testing.TB) string {
	if p, err := exec.LookPath("clang++"); err == nil {
		return p
	}
	if _, err := os.Stat("/opt/swift/usr/bin/clang++"); err == nil {
		return "/opt/swift/usr/bin/clang++"
	}
	return gentest.RequireTool(t, "clang++")
}

// generate writes the generated files for a corpus schema into a fresh
// directory and returns it.
func generate(t testing.TB, s *schema.Schema, opt gen.Options) string {
	t.Helper()
	files, err := Generate(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

var pruned sync.Map // cache directory name → *sync.Once

// cacheDir returns the object cache, first deleting objects no run has used
// for three days (a hit refreshes an object's time).
func cacheDir(t testing.TB) string {
	return cacheDirNamed(t, "sdp-cpp-test-cache")
}

// cacheDirNamed returns the object cache of that name under os.TempDir().
func cacheDirNamed(t testing.TB, name string) string {
	dir := filepath.Join(os.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	once, _ := pruned.LoadOrStore(name, new(sync.Once))
	once.(*sync.Once).Do(func() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 72*time.Hour {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	})
	return dir
}

// compile compiles src (which may include headers from its directory, all
// listed in deps) with the given compiler and flags, returning the object.
func compile(t testing.TB, cxx string, flags []string, src string, deps ...string) string {
	t.Helper()
	return compileIn(t, cacheDir(t), cxx, flags, src, deps...)
}

// compileIn is compile with the object cache in dir.
func compileIn(t testing.TB, dir, cxx string, flags []string, src string, deps ...string) string {
	t.Helper()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", cxx, compilerVersion(cxx), strings.Join(flags, "\x00"))
	for _, f := range append([]string{src}, deps...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(f), len(b))
		h.Write(b)
	}
	obj := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:32]+".o")
	if _, err := os.Stat(obj); err == nil {
		now := time.Now()
		os.Chtimes(obj, now, now)
		return obj
	}
	jobs <- struct{}{}
	defer func() { <-jobs }()
	tmp := obj + fmt.Sprintf(".%d.tmp", os.Getpid())
	args := append(append([]string{}, flags...), "-c", src, "-o", tmp)
	out, err := exec.Command(cxx, args...).CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		t.Fatalf("%s %s:\n%s", cxx, strings.Join(args, " "), out)
	}
	if err := os.Rename(tmp, obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

var versions sync.Map // compiler path → its --version output

// compilerVersion identifies a compiler build, so an upgrade invalidates the
// cached objects.
func compilerVersion(cxx string) string {
	if v, ok := versions.Load(cxx); ok {
		return v.(string)
	}
	out, _ := exec.Command(cxx, "--version").Output()
	versions.Store(cxx, string(out))
	return string(out)
}

// link links objects into an executable.
func link(t testing.TB, cxx string, flags []string, exe string, objs ...string) {
	t.Helper()
	jobs <- struct{}{}
	defer func() { <-jobs }()
	args := append(append(append([]string{}, flags...), objs...), "-o", exe)
	if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s:\n%s", cxx, strings.Join(args, " "), out)
	}
}
