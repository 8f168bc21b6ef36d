package gentest

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
)

// DefaultRandomSeeds are the random-schema seeds every backend's conformance
// test runs by default (in CI): each seed gives a schema with plain names and
// one with adversarial names. SDP_RANDOM_SEEDS overrides them ("1-200",
// "7", "3,9,20-25"); `make soak SEEDS=1-200` runs many.
const DefaultRandomSeeds = "1-6"

// RandomSeeds parses SDP_RANDOM_SEEDS, or the default set.
func RandomSeeds(t testing.TB) []uint64 {
	t.Helper()
	spec := os.Getenv("SDP_RANDOM_SEEDS")
	if spec == "" {
		spec = DefaultRandomSeeds
	}
	seeds, err := ParseSeeds(spec)
	if err != nil {
		t.Fatalf("SDP_RANDOM_SEEDS: %v", err)
	}
	return seeds
}

// ParseSeeds parses a list of seeds and ranges: "1-200", "7", "3,9,20-25".
func ParseSeeds(spec string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i > 0 {
			lo, hi = part[:i], part[i+1:]
		}
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad seed %q", part)
		}
		b, err := strconv.ParseUint(hi, 10, 64)
		if err != nil || b < a {
			return nil, fmt.Errorf("bad seed range %q", part)
		}
		for s := a; s <= b; s++ {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no seeds in %q", spec)
	}
	return out, nil
}

// RandomSuites returns the suites of the regression schemas
// (conformance/regress) and of the seeds: for every seed, a schema with
// plain names and one with adversarial names. SDP_RANDOM_NAMES=plain or
// =adversarial keeps one kind.
func RandomSuites(t testing.TB) []*randschema.Suite {
	t.Helper()
	var out []*randschema.Suite
	kinds := []bool{false, true}
	switch os.Getenv("SDP_RANDOM_NAMES") {
	case "plain":
		kinds = []bool{false}
	case "adversarial":
		kinds = []bool{true}
	}
	paths, err := conformance.RegressPaths()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		su, err := randschema.FromSource(strings.TrimSuffix(filepath.Base(p), ".sdp"), src, 1)
		if err != nil {
			t.Fatalf("regression schema %s: %v", p, err)
		}
		out = append(out, su)
	}
	for _, seed := range RandomSeeds(t) {
		for _, adv := range kinds {
			su, err := randschema.Generate(seed, randschema.Config{Adversarial: adv})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, su)
		}
	}
	return out
}

// RandomBatches splits suites into batches of at most n, so a backend builds
// one program per batch (compiling is the slow part).
func RandomBatches(suites []*randschema.Suite, n int) [][]*randschema.Suite {
	var out [][]*randschema.Suite
	for len(suites) > 0 {
		k := n
		if k > len(suites) {
			k = len(suites)
		}
		out = append(out, suites[:k])
		suites = suites[k:]
	}
	return out
}

// RunRandom runs every suite's vectors through a testee, one subtest per
// suite. A failing suite's schema is written to a file whose path is logged
// with the command that reproduces the failure.
func RunRandom(t *testing.T, lang, pkg string, suites []*randschema.Suite, start func(t *testing.T, su *randschema.Suite) conformance.Testee) {
	t.Helper()
	runSuites(t, lang, pkg, suites, start, "vectors", func(su *randschema.Suite) []conformance.Vector { return su.Vectors })
}

// RunRandomStreams runs every suite's stream vectors (OpStream) through a
// testee, one subtest per suite, for backends with a stream reader and
// writer.
func RunRandomStreams(t *testing.T, lang, pkg string, suites []*randschema.Suite, start func(t *testing.T, su *randschema.Suite) conformance.Testee) {
	t.Helper()
	runSuites(t, lang, pkg, suites, start, "stream vectors", func(su *randschema.Suite) []conformance.Vector { return su.Streams })
}

// RunRandomStreamsAll runs every suite's OpStreamAll vectors
// (conformance.StreamAllVectors) through a testee, one subtest per suite.
func RunRandomStreamsAll(t *testing.T, lang, pkg string, suites []*randschema.Suite, start func(t *testing.T, su *randschema.Suite) conformance.Testee) {
	t.Helper()
	runSuites(t, lang, pkg, suites, start, "stream_all vectors", func(su *randschema.Suite) []conformance.Vector { return su.StreamsAll })
}

// RunRandomHellos runs every suite's hello vectors (conformance.HelloVectors,
// with the suite's valid messages) through the language's testee: the
// schema check of streams, for backends whose stream reader and writer
// implement it.
func RunRandomHellos(t *testing.T, lang, pkg string, suites []*randschema.Suite, start func(t *testing.T, su *randschema.Suite) conformance.Testee) {
	t.Helper()
	runSuites(t, lang, pkg, suites, start, "hello vectors", func(su *randschema.Suite) []conformance.Vector {
		var valid [][]byte
		for _, v := range su.Vectors {
			if v.Op == conformance.OpMessage && v.Rule == "" && len(v.Input) < 1<<16 {
				valid = append(valid, v.Input)
			}
		}
		return conformance.HelloVectors(su.Schema, su.Name+".", valid)
	})
}

// runSuites runs the vectors of every suite (those vectors picks) through a
// fresh testee, one subtest per suite, and logs the tally.
func runSuites(t *testing.T, lang, pkg string, suites []*randschema.Suite, start func(t *testing.T, su *randschema.Suite) conformance.Testee, what string, vectors func(*randschema.Suite) []conformance.Vector) {
	t.Helper()
	total := 0
	for _, su := range suites {
		su := su
		t.Run(su.Name, func(t *testing.T) {
			testee := start(t, su)
			passed, failed := conformance.RunLangVectors(t, lang, testee, vectors(su))
			if err := testee.Close(); err != nil {
				t.Errorf("testee exit: %v", err)
			}
			total += passed
			if t.Failed() {
				ReportRandomFailure(t, lang, pkg, su, failed)
			}
		})
	}
	t.Logf("%s: %d random-schema %s passed in %d schemas", lang, total, what, len(suites))
}

// ReportRandomFailure writes a failing suite's schema where a developer can
// find it and logs how to reproduce the failure. For the first failing
// vector it also prints the smaller schema that holds only the failing
// struct and the declarations it uses (randschema.Closure), and the input,
// ready to paste into a regression schema and a test.
func ReportRandomFailure(t *testing.T, lang, pkg string, su *randschema.Suite, failed []conformance.Vector) {
	dir := filepath.Join(os.TempDir(), "sdp-random-failures")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, su.Name+".sdp")
	if err := os.WriteFile(path, su.Source, 0o644); err != nil {
		t.Logf("cannot write the failing schema: %v", err)
	} else if su.Name != randschema.SuiteName(su.Seed, true) && su.Name != randschema.SuiteName(su.Seed, false) {
		t.Logf("%s failed on regression schema %s (conformance/regress, run by every seed set), written to %s; reproduce with\n  SDP_RANDOM_SEEDS=1 go test %s -run 'TestRandomSchemas' -v",
			lang, su.Name, path, pkg)
	} else {
		names := "plain"
		if su.Name == randschema.SuiteName(su.Seed, true) {
			names = "adversarial"
		}
		t.Logf("%s failed on random schema %s (seed %d), written to %s; reproduce with\n  SDP_RANDOM_SEEDS=%d SDP_RANDOM_NAMES=%s go test %s -run 'TestRandomSchemas' -v\n  sdp gen --lang %s --out /tmp/%s %s",
			lang, su.Name, su.Seed, path, su.Seed, names, pkg, lang, su.Name, path)
	}
	if len(failed) > 0 {
		v := failed[0]
		want := "rejected for rule " + v.Rule
		if v.Rule == "" {
			want = "re-encoded as " + hex.EncodeToString(v.Want)
		}
		if v.Ref != nil {
			want += " at " + v.Ref.Where()
		}
		t.Logf("first failing vector %s (op %d, type id %d): input %s, want %s\nthe failing struct and what it uses:\n%s",
			v.ID, v.Op, v.TypeID, hex.EncodeToString(v.Input), want, randschema.Closure(su.Schema, v.TypeID))
	}
}
