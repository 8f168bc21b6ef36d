package python

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sdp/conformance"
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

// accelCache holds the extension modules compiled by this test binary, by
// the hash of their source, interpreter and flags: the corpus's packages are
// compiled once, not once per test.
var accelCache struct {
	sync.Mutex
	dir  string
	done map[string]bool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if accelCache.dir != "" {
		os.RemoveAll(accelCache.dir)
	}
	os.Exit(code)
}

// buildAccel compiles the C accelerator of every package in dir (two at a
// time) for py, with extra flags (sanitizers).
func buildAccel(t *testing.T, py, dir string, schemas []*schema.Schema, extra []string) {
	inc, suffix := pyConfig(t, py)
	compiler := cc(t)
	accelCache.Lock()
	if accelCache.dir == "" {
		d, err := os.MkdirTemp("", "sdp-accel-")
		if err != nil {
			accelCache.Unlock()
			t.Fatal(err)
		}
		accelCache.dir, accelCache.done = d, map[string]bool{}
	}
	accelCache.Unlock()
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan bool, 2)
	for _, s := range schemas {
		pkg := PackageName(s, gen.Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := filepath.Join(dir, pkg, "_sdp_accel.c")
			dst := filepath.Join(dir, pkg, "_sdp_accel"+suffix)
			text, err := os.ReadFile(src)
			if err != nil {
				mu.Lock()
				t.Error(err)
				mu.Unlock()
				return
			}
			args := append([]string{"-shared", "-fPIC", "-O1", "-std=c99", "-Wall", "-Wextra", "-I" + inc}, extra...)
			h := sha256.New()
			fmt.Fprintf(h, "%s\x00%s\x00%q\x00", compiler, suffix, args)
			h.Write(text)
			cached := filepath.Join(accelCache.dir, hex.EncodeToString(h.Sum(nil))+suffix)
			accelCache.Lock()
			done := accelCache.done[cached]
			accelCache.Unlock()
			if !done {
				sem <- true
				out, err := exec.Command(compiler, append(args, "-o", cached, src)...).CombinedOutput()
				<-sem
				mu.Lock()
				if err != nil {
					t.Errorf("compiling %s: %v\n%s", src, err, out)
				} else if len(out) > 0 {
					t.Errorf("compiling %s: warnings\n%s", src, out)
				}
				mu.Unlock()
				if err != nil {
					return
				}
				accelCache.Lock()
				accelCache.done[cached] = true
				accelCache.Unlock()
			}
			b, err := os.ReadFile(cached)
			if err == nil {
				err = os.WriteFile(dst, b, 0o755)
			}
			if err != nil {
				mu.Lock()
				t.Error(err)
				mu.Unlock()
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

// writeVectors writes the decode and message vectors of vs with inputs
// under max bytes for fuzz.py and leaks.py: u8 op, u16 type id, u32
// length, the input.
func writeVectors(t *testing.T, path string, vs []conformance.Vector, max int) {
	var b []byte
	for _, v := range vs {
		if (v.Op != conformance.OpRoundtrip && v.Op != conformance.OpMessage) || len(v.Input) >= max {
			continue
		}
		b = append(b, v.Op, byte(v.TypeID), byte(v.TypeID>>8))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Input)))
		b = append(b, v.Input...)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sanitizerEnv is the environment of a python running an accelerator
// built with -fsanitize=address,undefined: the compiler's ASan runtime
// preloaded (CPython itself is not instrumented), leaks not reported
// (CPython's own), the first error fatal.
func sanitizerEnv(t *testing.T, impl string) []string {
	out, err := exec.Command(cc(t), "-print-file-name=libasan.so").Output()
	lib := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(lib) || !fileExists(lib) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s has no libasan.so (%q): the sanitizer run cannot run", cc(t), lib)
		}
		t.Skipf("%s has no libasan.so: the sanitizer run is skipped", cc(t))
	}
	return append(implEnv(impl), "LD_PRELOAD="+lib, "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:quarantine_size_mb=8",
		"UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
}

var sanitizeFlags = []string{"-O0", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"}

// TestAccelSanitized runs the corpus and the hostile inputs through the C
// accelerator built with AddressSanitizer and UndefinedBehaviorSanitizer,
// then fuzzes it with the random schemas (fuzz.py: their vectors mutated,
// every outcome compared with the pure Python decoder's), also under the
// sanitizers.
func TestAccelSanitized(t *testing.T) {
	py := python3(t)
	env := sanitizerEnv(t, "c")
	suites := gentest.RandomSuites(t)
	schemas := gentest.CorpusSchemas(t)
	for _, su := range suites {
		schemas = append(schemas, su.Schema)
	}
	dir := writePackages(t, schemas)
	buildAccel(t, py, dir, schemas, sanitizeFlags)
	st := func(t *testing.T, name string) conformance.Testee { return startEnv(t, py, env, dir, name) }
	t.Run("corpus", func(t *testing.T) { conformance.Run(t, "python", st) })
	t.Run("hostile", func(t *testing.T) { gentest.RunHostile(t, "python", startEnv(t, py, env, dir, "hostile", "--stack")) })
	script, err := filepath.Abs(filepath.Join("testdata", "fuzz.py"))
	if err != nil {
		t.Fatal(err)
	}
	n := "400"
	if testing.Short() {
		n = "50"
	}
	t.Run("fuzz", func(t *testing.T) {
		for i, su := range suites {
			vf := filepath.Join(dir, su.Name+".vectors")
			writeVectors(t, vf, su.Vectors, 1<<12)
			cmd := exec.Command(py, script, dir, PackageName(su.Schema, gen.Options{}), vf, fmt.Sprint(i+1), n)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("fuzz.py %s: %v\n%s", su.Name, err, out)
			}
		}
	})
}

// corpusVectors are the corpus's golden encodings and invalid inputs of
// schema s, as vectors.
func corpusVectors(t *testing.T, s *schema.Schema) []conformance.Vector {
	ids := map[string]uint16{}
	for _, st := range s.Structs {
		ids[st.Name] = st.ID
	}
	var out []conformance.Vector
	cases, err := conformance.Cases(s.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Golden != nil {
			out = append(out, conformance.Vector{Op: conformance.OpRoundtrip, TypeID: ids[c.Type], Input: c.Golden})
		}
	}
	invalids, err := conformance.Invalids(s.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range invalids {
		b, err := v.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		op := conformance.OpRoundtrip
		if v.Message {
			op = conformance.OpMessage
		}
		out = append(out, conformance.Vector{Op: op, TypeID: ids[v.Type], Input: b})
	}
	return out
}

// TestAccelLeaks decodes (and encodes) 100,000 times per corpus schema with
// the C accelerator, and 25,000 times for each of six random schemas
// (leaks.py): memory must not grow, nor any class's reference count.
func TestAccelLeaks(t *testing.T) {
	py := python3(t)
	schemas := gentest.CorpusSchemas(t)
	vectors := map[string][]conformance.Vector{}
	for _, s := range schemas {
		vectors[s.Name] = corpusVectors(t, s)
	}
	suites := gentest.RandomSuites(t)
	if len(suites) > 6 {
		suites = suites[:6]
	}
	for _, su := range suites {
		schemas = append(schemas, su.Schema)
		vectors[PackageName(su.Schema, gen.Options{})] = su.Vectors
	}
	dir := writePackages(t, schemas)
	buildAccel(t, py, dir, schemas, nil)
	script, err := filepath.Abs(filepath.Join("testdata", "leaks.py"))
	if err != nil {
		t.Fatal(err)
	}
	corpus := len(gentest.CorpusSchemas(t))
	for i, s := range schemas {
		pkg := PackageName(s, gen.Options{})
		vf := filepath.Join(dir, pkg+".vectors")
		writeVectors(t, vf, vectors[pkg], 1<<12)
		n := "100000"
		if i >= corpus {
			n = "25000" // the random schemas: a quarter, for time
		}
		cmd := exec.Command(py, script, dir, pkg, vf, n)
		cmd.Env = implEnv("c")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("leaks.py %s: %v\n%s", pkg, err, out)
		}
	}
}
