package swift

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/gentest"
)

// randomDirEnv overrides the random-schema package's directory.
const randomDirEnv = "SDP_SWIFT_RANDOM_DIR"

// randomTestsEnv adds the generated XCTest targets to the random-schema
// package: built and run when it is 1 (they double the build time).
const randomTestsEnv = "SDP_SWIFT_RANDOM_TESTS"

// TestRandomSchemas runs the random-schema suites (gentest.RandomSuites:
// conformance/regress and the seeds of SDP_RANDOM_SEEDS) through a testee
// built like TestConformance's: every suite's generated module and one
// testee serving them all are targets of one SwiftPM package, built once
// with warnings as errors in the Swift 6 language mode (with
// SDP_SWIFT_RANDOM_TESTS=1 the generated XCTest targets too, built and
// run). The testee decodes every input through the [UInt8], raw-buffer,
// Data and prefix decoders and the message dispatcher and checks that they
// agree, and reads and writes the suites' stream vectors with the modules'
// MessageReader and MessageWriter.
//
// The package lives in its own directory (SDP_SWIFT_RANDOM_DIR, default
// sdp-swift-random in the system temporary directory, apart from the
// corpus package) and files are only rewritten when their content changes,
// so a rerun recompiles only the modules whose generated code changed.
// With SDP_SWIFT_ASAN=1 the testee is also built and run under
// AddressSanitizer.
func TestRandomSchemas(t *testing.T) {
	swift := gentest.RequireTool(t, "swift")
	suites := gentest.RandomSuites(t)
	dir := os.Getenv(randomDirEnv)
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "sdp-swift-random")
	}
	withTests := os.Getenv(randomTestsEnv) == "1"
	writeRandomPackage(t, dir, suites, withTests)
	buildPath := filepath.Join(dir, ".build")
	build := []string{"build", "--build-path", buildPath}
	if withTests {
		build = append(build, "--build-tests")
	}
	runSwift(t, swift, dir, append(build, swiftFlags...)...)
	variants := []struct{ name, bin string }{{"debug", filepath.Join(buildPath, "debug", "SDPTestee")}}
	if os.Getenv(asanEnv) == "1" {
		asanPath := filepath.Join(dir, ".build-asan")
		runSwift(t, swift, dir, append([]string{"build", "--product", "SDPTestee", "--build-path", asanPath, "-Xswiftc", "-sanitize=address"}, swiftFlags...)...)
		variants = append(variants, struct{ name, bin string }{"asan", filepath.Join(asanPath, "debug", "SDPTestee")})
	}
	for _, v := range variants {
		v := v
		t.Run(v.name, func(t *testing.T) {
			start := func(t *testing.T, su *randschema.Suite) conformance.Testee {
				te, err := conformance.Start(exec.Command(v.bin, su.Name))
				if err != nil {
					t.Fatal(err)
				}
				return te
			}
			gentest.RunRandom(t, "swift", "./gen/swift", suites, start)
			t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "swift", "./gen/swift", suites, start) })
			t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "swift", "./gen/swift", suites, start) })
			t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "swift", "./gen/swift", suites, start) })
		})
	}
	if withTests {
		start := time.Now()
		out := runSwift(t, swift, dir, append([]string{"test", "--skip-build", "--build-path", buildPath}, swiftFlags...)...)
		for _, su := range suites {
			if !strings.Contains(out, "Test Suite '"+su.Name+"Tests' passed") {
				t.Errorf("no passing test suite %sTests in the output:\n%s", su.Name, tail(out, 4000))
			}
		}
		t.Logf("generated tests: %v", time.Since(start).Round(time.Millisecond))
	}
}

// writeRandomPackage writes the package of every suite's module, its
// generated tests, the testee's handlers and the testee into dir, rewriting
// only files whose content changed and removing the modules of suites that
// are gone.
func writeRandomPackage(t *testing.T, dir string, suites []*randschema.Suite, withTests bool) {
	var files []gen.File
	var modules []string
	for _, su := range suites {
		out, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", su.Name, err)
		}
		for _, f := range out {
			if f.Path != "Package.swift" && (withTests || !strings.HasPrefix(f.Path, "Tests/")) {
				files = append(files, f)
			}
		}
		modules = append(modules, su.Name)
		files = append(files, gen.File{Path: "Sources/SDPTesteeHandlers/Testee_" + su.Name + ".swift", Content: testeeFile(su.Schema, su.Name)})
	}
	files = append(files, codableCheckFile(),
		gen.File{Path: "Sources/SDPTestee/main.swift", Content: testeeMain(modules)},
		gen.File{Path: "Package.swift", Content: randomManifest(modules, withTests)})
	keep := map[string]bool{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		keep[p] = true
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, f.Content) {
			continue
		}
		if err := gen.Write(dir, []gen.File{f}); err != nil {
			t.Fatal(err)
		}
	}
	// Remove sources of suites no longer in the set: SwiftPM ignores them,
	// but the handlers target would compile a stale handler.
	for _, top := range []string{"Sources", "Tests"} {
		filepath.Walk(filepath.Join(dir, top), func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && !keep[p] {
				os.Remove(p)
			}
			return nil
		})
	}
}

// randomManifest is the random-schema package's Package.swift: a library
// (and a test target) per module, the testee's handlers and the testee.
func randomManifest(modules []string, withTests bool) []byte {
	p := emit.New("    ")
	p.P("// swift-tools-version:6.0")
	p.P()
	p.P("import PackageDescription")
	p.P()
	p.Block("let package = Package(", ")", func() {
		p.P(`name: "SDPRandom",`)
		p.Block("targets: [", "],", func() {
			var deps []string
			for _, m := range modules {
				p.F(".target(name: %q, path: %q),", m, "Sources/"+m)
				if withTests {
					p.F(".testTarget(name: %q, dependencies: [%q], path: %q),", m+"Tests", m, "Tests/"+m+"Tests")
				}
				deps = append(deps, `"`+m+`"`)
			}
			p.F(`.target(name: "SDPTesteeHandlers", dependencies: [%s], path: "Sources/SDPTesteeHandlers"),`, strings.Join(deps, ", "))
			p.P(`.executableTarget(name: "SDPTestee", dependencies: ["SDPTesteeHandlers"], path: "Sources/SDPTestee"),`)
		})
		p.P("swiftLanguageModes: [.v6]")
	})
	return p.Bytes()
}
