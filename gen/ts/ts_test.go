package ts

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// updateRuntime is -update (gentest registers the flag; it is read here
// by name).
var updateRuntime = boolFlag("update")

// tscFlags are the strictest options the generated code and the runtime
// type-check under.
var tscFlags = []string{
	"--strict", "--noImplicitReturns", "--noUnusedLocals", "--noUnusedParameters",
	"--exactOptionalPropertyTypes", "--noImplicitOverride", "--noUncheckedIndexedAccess",
	"--target", "es2020", "--module", "es2020", "--moduleResolution", "node", "--lib", "es2020,dom",
}

// allSchemas are the corpus schemas and the backend's own test schemas.
func allSchemas(t *testing.T) []*schema.Schema {
	return append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))...)
}

// TestGolden compares the generated packages of every conformance schema
// with testdata/<schema>/ (go test ./gen/ts -update rewrites them), and the
// JavaScript packages with testdata/js/<schema>/.
func TestGolden(t *testing.T) {
	for _, s := range allSchemas(t) {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			for _, g := range []struct {
				dir string
				gen gen.Generator
			}{{filepath.Join("testdata", "ts", s.Name), Generate}, {filepath.Join("testdata", "js", s.Name), GenerateJS}} {
				files := gentest.Golden(t, g.dir, g.gen, s, gen.Options{})
				for _, f := range files {
					if strings.HasSuffix(f.Path, "s") && !strings.HasPrefix(string(f.Content), "// "+gen.Header(s)+"\n") {
						t.Errorf("%s does not start with the generated-code header", f.Path)
					}
				}
			}
		})
	}
}

// writePackages generates the packages of schemas under dir/<name>.
func writePackages(t *testing.T, g gen.Generator, schemas []*schema.Schema) string {
	dir := t.TempDir()
	for _, s := range schemas {
		files, err := g(s, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if err := gen.Write(filepath.Join(dir, s.Name), files); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tsc type-checks and compiles files in one run (tsc is slow to start).
func tsc(t *testing.T, files []string, extra ...string) {
	t.Helper()
	args := append(append(append([]string{}, tscFlags...), extra...), files...)
	cmd := exec.Command(gentest.RequireTool(t, "tsc"), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// corpusBuild is the compiled corpus packages, built once for the tests
// that use them (TestConformance, TestBrowser).
var corpusBuild struct {
	sync.Mutex
	dir string
}

// buildTS writes and compiles the TypeScript packages of the corpus
// schemas, once per test binary.
func buildTS(t *testing.T, schemas []*schema.Schema) string {
	corpusBuild.Lock()
	defer corpusBuild.Unlock()
	if corpusBuild.dir != "" {
		return corpusBuild.dir
	}
	dir, err := os.MkdirTemp("", "sdp-ts-corpus")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, s := range schemas {
		fs, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(filepath.Join(dir, s.Name), fs); err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(dir, s.Name, "index.ts"))
	}
	tsc(t, files)
	corpusBuild.dir = dir
	return dir
}

func testee(t *testing.T, node, pkg string) conformance.Testee {
	script, err := filepath.Abs(filepath.Join("testdata", "testee.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	te, err := conformance.Start(exec.Command(node, script, pkg))
	if err != nil {
		t.Fatal(err)
	}
	return te
}

// TestConformance compiles the corpus packages with tsc and runs the corpus,
// its streams and hellos through the Node testee; then the same through the
// JavaScript packages, which no compiler touched.
func TestConformance(t *testing.T) {
	t.Parallel() // most of the time is waiting for node and chromium
	node := gentest.RequireTool(t, "node")
	schemas := gentest.CorpusSchemas(t)
	dir := buildTS(t, schemas)
	st := func(t *testing.T, name string) conformance.Testee {
		return testee(t, node, filepath.Join(dir, name, "index.js"))
	}
	conformance.Run(t, "ts", st)
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "ts", st) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "ts", st) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "ts", st) })
	t.Run("js", func(t *testing.T) {
		jsdir := writePackages(t, GenerateJS, schemas)
		st := func(t *testing.T, name string) conformance.Testee {
			return testee(t, node, filepath.Join(jsdir, name, "index.js"))
		}
		conformance.Run(t, "js", st)
		t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "js", st) })
	})
}

// boolFlag returns a pointer that reads the named boolean flag when the
// test runs.
func boolFlag(name string) *bool {
	v := new(bool)
	flagReaders = append(flagReaders, func() {
		if f := flag.Lookup(name); f != nil {
			*v = f.Value.String() == "true"
		}
	})
	return v
}

var flagReaders []func()

func TestMain(m *testing.M) {
	flag.Parse()
	for _, r := range flagReaders {
		r()
	}
	code := m.Run()
	if corpusBuild.dir != "" {
		os.RemoveAll(corpusBuild.dir)
	}
	os.Exit(code)
}

// TestCompile type-checks the golden packages under tsc's strictest
// options: the TypeScript sources, and the JavaScript packages' .d.ts
// files with a consumer (testdata/consumer.ts) that uses them.
func TestCompile(t *testing.T) {
	var files []string
	for _, s := range allSchemas(t) {
		files = append(files, filepath.Join("testdata", "ts", s.Name, "index.ts"))
	}
	tsc(t, append(files, filepath.Join("testdata", "consumer.ts")), "--noEmit")
}

// TestRuntimeCompiled checks that runtime/runtime.js and runtime.d.ts, which
// --lang js copies, are what tsc makes of runtime/runtime.ts (go test
// ./gen/ts -run TestRuntimeCompiled -update rewrites them).
func TestRuntimeCompiled(t *testing.T) {
	dir := t.TempDir()
	tsc(t, []string{filepath.Join("runtime", "runtime.ts")}, "--declaration", "--outDir", dir)
	for _, f := range []string{"runtime.js", "runtime.d.ts"} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join("runtime", f)
		if *updateRuntime {
			if err := os.WriteFile(want, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(want)
		if err != nil || string(old) != string(got) {
			t.Errorf("%s is not what tsc makes of runtime.ts (run go test ./gen/ts -run TestRuntimeCompiled -update)", want)
		}
	}
}

// TestRandomSchemas runs the random-schema suites (plain and adversarial
// names, and the regression schemas) through the Node testee: one tsc run
// for all of them.
func TestRandomSchemas(t *testing.T) {
	t.Parallel() // most of the time is waiting for node and chromium
	node := gentest.RequireTool(t, "node")
	suites := gentest.RandomSuites(t)
	dir := t.TempDir()
	var files []string
	pkg := map[*randschema.Suite]string{}
	for i, su := range suites {
		d := filepath.Join(dir, fmt.Sprintf("s%d", i))
		fs, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(d, fs); err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(d, "index.ts"))
		pkg[su] = filepath.Join(d, "index.js")
	}
	tsc(t, files)
	st := func(t *testing.T, su *randschema.Suite) conformance.Testee { return testee(t, node, pkg[su]) }
	gentest.RunRandom(t, "ts", "./gen/ts", suites, st)
	t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "ts", "./gen/ts", suites, st) })
	t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "ts", "./gen/ts", suites, st) })
	t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "ts", "./gen/ts", suites, st) })
}

// TestModule runs testdata/module_test.mjs on the compiled corpus packages:
// EncodeError and its path, the depth and memory limits, views,
// decodeInto, unions on their own.
func TestModule(t *testing.T) {
	node := gentest.RequireTool(t, "node")
	dir := buildTS(t, gentest.CorpusSchemas(t))
	out, err := exec.Command(node, filepath.Join("testdata", "module_test.mjs"), dir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("module_test.mjs: %v\n%s", err, out)
	}
}

// TestHostile sends the hostile inputs of gentest.RunHostile to the Node
// testee of hostile.sdp: a chain of 32 KiB values, and 20,000,000-element
// arrays that the memory rule must refuse before anything is allocated.
func TestHostile(t *testing.T) {
	node := gentest.RequireTool(t, "node")
	dir := buildTS(t, gentest.CorpusSchemas(t))
	gentest.RunHostile(t, "ts", testee(t, node, filepath.Join(dir, "hostile", "index.js")))
}
