package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// implEnv is the environment of a process that runs implementation impl:
// SDP_PURE_PYTHON=1 for "python"; SDP_TESTEE_IMPL makes the testee check
// IMPLEMENTATION.
func implEnv(impl string) []string {
	env := os.Environ()
	if impl == "python" {
		env = append(env, "SDP_PURE_PYTHON=1")
	}
	return append(env, "SDP_TESTEE_IMPL="+impl)
}

// pyConfig is what compiling an extension module for py takes: the include
// directory and the file name suffix.
func pyConfig(t *testing.T, py string) (include, suffix string) {
	out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['include']); print(sysconfig.get_config_var('EXT_SUFFIX'))").Output()
	if err != nil {
		t.Fatalf("%s: sysconfig: %v", py, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		t.Fatalf("%s: sysconfig says %q", py, out)
	}
	if !fileExists(filepath.Join(f[0], "Python.h")) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s has no Python.h in %s: the C accelerator cannot be built", py, f[0])
		}
		t.Skipf("%s has no Python.h in %s: the C accelerator is not tested", py, f[0])
	}
	return f[0], f[1]
}

// cc is the C compiler of the tests: $CC, else cc.
func cc(t *testing.T) string {
	if c := os.Getenv("CC"); c != "" {
		return c
	}
	return gentest.RequireTool(t, "cc")
}

// buildAccel compiles the C accelerator of every package in dir (two at a
// time) for py, with extra flags (sanitizers).
func buildAccel(t *testing.T, py, dir string, schemas []*schema.Schema, extra []string) {
	inc, suffix := pyConfig(t, py)
	compiler := cc(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan bool, 2)
	for _, s := range schemas {
		pkg := PackageName(s, gen.Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			defer func() { <-sem }()
			src := filepath.Join(dir, pkg, "_sdp_accel.c")
			args := append([]string{"-shared", "-fPIC", "-O1", "-std=c99", "-Wall", "-I" + inc, "-o", filepath.Join(dir, pkg, "_sdp_accel"+suffix), src}, extra...)
			out, err := exec.Command(compiler, args...).CombinedOutput()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("compiling %s: %v\n%s", src, err, out)
			} else if len(out) > 0 {
				t.Errorf("compiling %s: warnings\n%s", src, out)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// TestAccelRuntime compiles the accelerator's runtime on its own, with
// every warning an error, with gcc and clang where they are installed.
func TestAccelRuntime(t *testing.T) {
	inc, _ := pyConfig(t, python3(t))
	for _, c := range []string{"gcc", "clang"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Logf("%s is not installed: not checked", c)
			continue
		}
		out, err := exec.Command(c, "-x", "c", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"+inc,
			"-fsyntax-only", "accel_runtime.h").CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", c, err, out)
		}
	}
}
