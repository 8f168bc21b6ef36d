package swift

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/gentest"
	"sdp/schema"
)

func gen0(pkg string) gen.Options { return gen.Options{Package: pkg} }

// The Swift tests build one SwiftPM package holding every corpus schema's
// generated module and tests, plus the conformance testee executable, so
// that the slow Swift compiler runs once. The package lives in the system
// temporary directory under a name derived from its content and the
// compiler version, so an unchanged generator reuses the previous build.

// asanEnv enables the extra conformance run of a testee built with
// -sanitize=address (CI sets it).
const asanEnv = "SDP_SWIFT_ASAN"

type corpusPackage struct {
	dir     string
	modules []string         // every module, with generated tests
	testees []string         // the corpus modules the testee serves
	schemas []*schema.Schema // the corpus schemas, in the order of testees
	err     error
	log     string
}

var (
	corpusOnce sync.Once
	corpus     corpusPackage
)

// writeCorpusPackage generates the combined package into a content-keyed
// directory and returns it. The modules of fuzz (random-schema suites, for
// TestFuzz) join it as libraries behind the testee's handlers, without
// their tests, and the fuzz target covers them after the corpus schemas.
func writeCorpusPackage(t *testing.T, swift string, fuzz []*randschema.Suite) corpusPackage {
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	var files []gen.File
	var modules []string
	var schemas []*schema.Schema
	for _, name := range names {
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		out, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range out {
			if f.Path != "Package.swift" {
				files = append(files, f)
			}
		}
		modules = append(modules, name)
		schemas = append(schemas, s)
		files = append(files, gen.File{Path: "Sources/SDPTesteeHandlers/Testee_" + name + ".swift", Content: testeeFile(s, name)})
	}
	testees := append([]string(nil), modules...)
	// Extra schemas whose generated tests run too (not part of the corpus).
	for _, path := range extraSchemas {
		s := gentest.LoadSchema(t, filepath.Join("gen", "swift", path))
		out, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range out {
			if f.Path != "Package.swift" {
				files = append(files, f)
			}
		}
		modules = append(modules, s.Name)
	}
	fuzzNames := append([]string(nil), testees...)
	fuzzSchemas := append([]*schema.Schema(nil), schemas...)
	for _, su := range fuzz {
		out, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", su.Name, err)
		}
		for _, f := range out {
			if f.Path != "Package.swift" && !strings.HasPrefix(f.Path, "Tests/") {
				files = append(files, f)
			}
		}
		files = append(files, gen.File{Path: "Sources/SDPTesteeHandlers/Testee_" + su.Name + ".swift", Content: testeeFile(su.Schema, su.Name)})
		fuzzNames = append(fuzzNames, su.Name)
		fuzzSchemas = append(fuzzSchemas, su.Schema)
	}
	files = append(files, codableCheckFile(),
		gen.File{Path: "Sources/SDPTestee/main.swift", Content: testeeMain(testees)},
		gen.File{Path: "Sources/SDPFuzz/Fuzz.swift", Content: fuzzFile(fuzzNames, fuzzSchemas)},
		gen.File{Path: "Package.swift", Content: corpusManifest(modules, testees, fuzzNames[len(testees):])})
	version, err := exec.Command(swift, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("swift --version: %v\n%s", err, version)
	}
	h := sha256.New()
	h.Write(version)
	for _, f := range files {
		h.Write([]byte(f.Path + "\x00"))
		h.Write(f.Content)
		h.Write([]byte{0})
	}
	dir := filepath.Join(os.TempDir(), "sdp-swift-"+hex.EncodeToString(h.Sum(nil))[:16])
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return corpusPackage{dir: dir, modules: modules, testees: testees, schemas: schemas}
}

// extraSchemas are schemas (relative to gen/swift) whose generated packages
// are built and tested with the corpus.
var extraSchemas = []string{"testdata/swift_edge.sdp"}

// corpusManifest is the combined package's Package.swift: a library and a
// test target per module, the testee's handlers (a library depending on the
// corpus modules), and two executables using them: the conformance testee
// and the libFuzzer target. The fuzz modules are libraries without tests
// that only the handlers use.
func corpusManifest(modules, testees, fuzz []string) []byte {
	p := emit.New("    ")
	p.P("// swift-tools-version:6.0")
	p.P()
	p.P("import PackageDescription")
	p.P()
	p.Block("let package = Package(", ")", func() {
		p.P(`name: "SDPCorpus",`)
		p.Block("targets: [", "],", func() {
			var deps []string
			for _, m := range modules {
				p.F(".target(name: %q, path: %q),", m, "Sources/"+m)
				p.F(".testTarget(name: %q, dependencies: [%q], path: %q),", m+"Tests", m, "Tests/"+m+"Tests")
			}
			for _, m := range fuzz {
				p.F(".target(name: %q, path: %q),", m, "Sources/"+m)
			}
			for _, m := range append(append([]string(nil), testees...), fuzz...) {
				deps = append(deps, `"`+m+`"`)
			}
			p.F(`.target(name: "SDPTesteeHandlers", dependencies: [%s], path: "Sources/SDPTesteeHandlers"),`, strings.Join(deps, ", "))
			p.P(`.executableTarget(name: "SDPTestee", dependencies: ["SDPTesteeHandlers"], path: "Sources/SDPTestee"),`)
			p.P(`.executableTarget(name: "SDPFuzz", dependencies: ["SDPTesteeHandlers"], path: "Sources/SDPFuzz"),`)
		})
		p.P("swiftLanguageModes: [.v6]")
	})
	return p.Bytes()
}

// swiftFlags are the flags of every build: warnings are errors.
var swiftFlags = []string{"-Xswiftc", "-warnings-as-errors"}

// runSwift runs `swift args...` in dir and fails the test with its output
// on error.
func runSwift(t *testing.T, swift, dir string, args ...string) string {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(swift, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swift %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, tail(string(out), 12000))
	}
	t.Logf("swift %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return string(out)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// builtCorpus generates and builds the combined package (debug, with its
// tests) once per test binary.
func builtCorpus(t *testing.T) corpusPackage {
	swift := gentest.RequireTool(t, "swift")
	corpusOnce.Do(func() {
		c := writeCorpusPackage(t, swift, nil)
		marker := filepath.Join(c.dir, ".build", "sdp-built")
		if _, err := os.Stat(marker); err != nil {
			cmd := exec.Command(swift, append([]string{"build", "--build-tests"}, swiftFlags...)...)
			cmd.Dir = c.dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				c.err = err
				c.log = tail(string(out), 20000)
			} else {
				os.WriteFile(marker, nil, 0o644)
			}
		}
		corpus = c
	})
	if corpus.err != nil {
		t.Fatalf("swift build --build-tests in %s: %v\n%s", corpus.dir, corpus.err, corpus.log)
	}
	return corpus
}

// TestGeneratedTests runs the XCTest tests generated for every corpus
// schema (built with warnings as errors in the Swift 6 language mode).
func TestGeneratedTests(t *testing.T) {
	c := builtCorpus(t)
	out := runSwift(t, gentest.RequireTool(t, "swift"), c.dir, append([]string{"test", "--skip-build"}, swiftFlags...)...)
	for _, m := range c.modules {
		if !strings.Contains(out, "Test Suite '"+m+"Tests' passed") {
			t.Errorf("no passing test suite %sTests in the output:\n%s", m, tail(out, 4000))
		}
	}
}

// TestConformance runs the corpus against the Swift testee, then the corpus
// stream and hello vectors through its MessageReader and MessageWriter.
func TestConformance(t *testing.T) {
	c := builtCorpus(t)
	bin := filepath.Join(c.dir, ".build", "debug", "SDPTestee")
	conformance.Run(t, "swift", startTestee(bin))
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "swift", startTestee(bin)) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "swift", startTestee(bin)) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "swift", startTestee(bin)) })
}

// TestConformanceASan runs the corpus and its stream vectors against a
// testee built with -sanitize=address when SDP_SWIFT_ASAN=1 (a separate
// build directory, so it does not disturb the debug build).
func TestConformanceASan(t *testing.T) {
	if os.Getenv(asanEnv) != "1" {
		t.Skipf("set %s=1 to run the conformance corpus under AddressSanitizer", asanEnv)
	}
	swift := gentest.RequireTool(t, "swift")
	c := builtCorpus(t)
	buildPath := filepath.Join(c.dir, ".build-asan")
	args := append([]string{"build", "--product", "SDPTestee", "--build-path", buildPath, "-Xswiftc", "-sanitize=address"}, swiftFlags...)
	runSwift(t, swift, c.dir, args...)
	bin := filepath.Join(buildPath, "debug", "SDPTestee")
	conformance.Run(t, "swift", startTestee(bin))
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "swift", startTestee(bin)) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "swift", startTestee(bin)) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "swift", startTestee(bin)) })
}

// TestConformancePortable runs the corpus against a testee built with
// -DSDP_PORTABLE (a separate build directory): the runtime then takes the
// element-by-element paths of big-endian hosts wherever the little-endian
// ones copy in bulk (numbers and plain structs), so those stay tested.
func TestConformancePortable(t *testing.T) {
	swift := gentest.RequireTool(t, "swift")
	c := builtCorpus(t)
	buildPath := filepath.Join(c.dir, ".build-portable")
	args := append([]string{"build", "--product", "SDPTestee", "--build-path", buildPath, "-Xswiftc", "-DSDP_PORTABLE"}, swiftFlags...)
	runSwift(t, swift, c.dir, args...)
	conformance.Run(t, "swift", startTestee(filepath.Join(buildPath, "debug", "SDPTestee")))
}

func startTestee(bin string) conformance.StartFunc {
	return func(t *testing.T, schemaName string) conformance.Testee {
		te, err := conformance.Start(exec.Command(bin, schemaName))
		if err != nil {
			t.Fatal(err)
		}
		return te
	}
}

// TestStandalonePackage builds and tests one generated package on its own,
// as a user would, with a --package name that is not an identifier.
func TestStandalonePackage(t *testing.T) {
	swift := gentest.RequireTool(t, "swift")
	s := gentest.LoadSchema(t, conformance.SchemaPath("keywords"))
	files, err := Generate(s, gen.Options{Package: "SDP-Keywords"})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		h.Write([]byte(f.Path + "\x00"))
		h.Write(f.Content)
	}
	sort.Strings(paths)
	dir := filepath.Join(os.TempDir(), "sdp-swift-standalone-"+hex.EncodeToString(h.Sum(nil))[:16])
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	out := runSwift(t, swift, dir, append([]string{"test"}, swiftFlags...)...)
	if !strings.Contains(out, "Test Suite 'SDP_KeywordsTests' passed") {
		t.Errorf("the package's tests did not pass:\n%s", tail(out, 4000))
	}
}

// TestMutatedInputs sends the testee corrupted versions of every golden
// vector (bytes flipped, truncated, extended): it must never crash or report
// an inconsistency, and whatever it accepts must re-encode to the same bytes,
// since every value has exactly one encoding.
func TestMutatedInputs(t *testing.T) {
	c := builtCorpus(t)
	bin := filepath.Join(c.dir, ".build", "debug", "SDPTestee")
	if os.Getenv(asanEnv) == "1" {
		if asan := filepath.Join(c.dir, ".build-asan", "debug", "SDPTestee"); fileExists(asan) {
			bin = asan
		}
	}
	for _, name := range c.testees {
		name := name
		t.Run(name, func(t *testing.T) {
			s := gentest.LoadSchema(t, conformance.SchemaPath(name))
			cases, err := conformance.Cases(name)
			if err != nil {
				t.Fatal(err)
			}
			te, err := conformance.Start(exec.Command(bin, name))
			if err != nil {
				t.Fatal(err)
			}
			defer te.Close()
			rng := uint64(0x9E3779B97F4A7C15)
			next := func(n int) int {
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				return int(rng % uint64(n))
			}
			sent, accepted := 0, 0
			for _, cs := range cases {
				st := s.Struct(cs.Type)
				if st == nil || len(cs.Golden) == 0 || len(cs.Golden) > 1<<16 {
					continue
				}
				for i := 0; i < 40; i++ {
					in := append([]byte(nil), cs.Golden...)
					switch i % 4 {
					case 0, 1:
						for k := 0; k <= next(3); k++ {
							in[next(len(in))] ^= byte(1 + next(255))
						}
					case 2:
						in = in[:next(len(in))]
					case 3:
						at := next(len(in))
						in[at] = []byte{0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF}[next(6)]
					}
					status, out, err := te.Do(conformance.OpRoundtrip, st.ID, in)
					if err != nil {
						t.Fatalf("%s mutation %d (%x): %v", cs.ID(), i, in, err)
					}
					sent++
					switch status {
					case conformance.StatusOK:
						accepted++
						if string(out) != string(in) {
							t.Errorf("%s mutation %d: accepted %x but re-encoded %x", cs.ID(), i, in, out)
						}
					case conformance.StatusRejected:
					default:
						t.Errorf("%s mutation %d (%x): status %d: %s", cs.ID(), i, in, status, out)
					}
				}
			}
			t.Logf("%d mutated inputs, %d accepted (and re-encoded identically)", sent, accepted)
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
