package cpp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen/gentest"
	"sdp/schema"
)

// randomBatch is how many random-schema suites go into one testee program
// (one translation unit). g++ needed about 5.5 GB to compile 29 suites in
// one unit under the sanitizers, twice at once (native and portable): small
// batches keep each compiler near 2 GB, so the C++ test fits beside the
// other backends' builds on a 24 GB machine, at little cost in time (the
// builds run two at a time).
const randomBatch = 10

// TestRandomSchemas runs the random-schema suites (gentest.RandomSuites:
// seeds from SDP_RANDOM_SEEDS, and conformance/regress) through testee
// programs built from the generated code like TestConformance's: strict
// warnings as errors, AddressSanitizer and UndefinedBehaviorSanitizer
// (native), and the portable byte-order code under
// UndefinedBehaviorSanitizer; with SDP_CPP_RANDOM_M32 set, also a 32-bit
// build (m32Variant: half as much build time again, too much for the
// default run). The testee decodes every input through the owned and the
// view API and checks that they agree. The suites' stream vectors
// (gentest.RunRandomStreams) go through the owned and the view stream
// readers: the rule, message index and stream offset of a rejection must be
// the reference's; so do the hello vectors (gentest.RunRandomHellos), and
// the testee must answer a hello with the schema's own.
//
// With SDP_CPP_RANDOM_CXX=clang++ the testees are built with clang++
// (clangPath: the one on PATH or Swift's) instead of g++, under the same
// strict flags and sanitizers: clang compiles the generated code of a
// random schema about 3.5 times faster than g++ at -O0 with the sanitizers
// (3.5 s against 12.8 s for seed 9's schema here), so `make soak` uses it,
// and it is the compiler of the macOS collectors SDP is made for. CI's
// default seeds build with g++. SDP_CPP_RANDOM_PORTABLE=0 builds only the
// native variant: the portable one differs in byte-order code only, which
// the corpus and the default seeds cover; `make soak` skips it to halve its
// build time.
func TestRandomSchemas(t *testing.T) {
	gxx := randomCompiler(t)
	suites := gentest.RandomSuites(t)
	batches := gentest.RandomBatches(suites, randomBatch)
	dir := t.TempDir()
	cache := cacheDirNamed(t, "sdp-cpp-random-cache")
	variants := testeeVariants()
	if os.Getenv("SDP_CPP_RANDOM_PORTABLE") == "0" {
		variants = variants[:1] // native only
	}
	if os.Getenv("SDP_CPP_RANDOM_M32") != "" {
		if v, ok := m32Variant(t, gxx); ok {
			variants = append(variants, v)
		}
	}
	exes := make([]map[string]string, len(batches))
	t.Run("build", func(t *testing.T) {
		for i, batch := range batches {
			i, batch := i, batch
			bdir := filepath.Join(dir, fmt.Sprintf("batch%d", i))
			var schemas []*schema.Schema
			for _, su := range batch {
				schemas = append(schemas, su.Schema)
			}
			deps := generateAll(t, bdir, schemas)
			src := filepath.Join(bdir, "testee.cpp")
			if err := os.WriteFile(src, testeeProgram(schemas), 0o644); err != nil {
				t.Fatal(err)
			}
			exes[i] = map[string]string{}
			for _, v := range variants {
				v := v
				exe := filepath.Join(bdir, "testee-"+v.name)
				exes[i][v.name] = exe
				t.Run(fmt.Sprintf("batch%d/%s", i, v.name), func(t *testing.T) {
					t.Parallel()
					obj := compileIn(t, cache, gxx, v.flags, src, deps...)
					link(t, gxx, v.flags, exe, obj)
				})
			}
		}
	})
	if t.Failed() {
		return
	}
	for _, v := range variants {
		v := v
		t.Run(v.name, func(t *testing.T) {
			for i, batch := range batches {
				exe := exes[i][v.name]
				start := func(t *testing.T, su *randschema.Suite) conformance.Testee { return startTestee(t, exe, su.Name) }
				gentest.RunRandom(t, "cpp", "./gen/cpp", batch, start)
				t.Run(fmt.Sprintf("streams/batch%d", i), func(t *testing.T) {
					gentest.RunRandomStreams(t, "cpp", "./gen/cpp", batch, start)
				})
				t.Run(fmt.Sprintf("hellos/batch%d", i), func(t *testing.T) {
					gentest.RunRandomHellos(t, "cpp", "./gen/cpp", batch, start)
				})
				t.Run(fmt.Sprintf("streams_all/batch%d", i), func(t *testing.T) {
					gentest.RunRandomStreamsAll(t, "cpp", "./gen/cpp", batch, start)
				})
			}
		})
	}
}

// randomCompiler is the C++ compiler of the random-schema testees: g++, or
// the clang++ that SDP_CPP_RANDOM_CXX=clang++ asks for.
func randomCompiler(t *testing.T) string {
	switch c := os.Getenv("SDP_CPP_RANDOM_CXX"); c {
	case "", "g++":
		return gentest.RequireTool(t, "g++")
	case "clang++":
		return clangPath(t)
	default:
		t.Fatalf("SDP_CPP_RANDOM_CXX=%q: want g++ or clang++", c)
		return ""
	}
}
