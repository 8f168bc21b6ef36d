package cpp

import (
	"os"
	"path/filepath"
	"testing"

	"sdp/gen/gentest"
	"sdp/schema"
)

// TestFuzz builds the conformance testee of every corpus schema and of the
// random-schema suites of gentest.FuzzSuites (SDP_FUZZ_RANDOM_SEEDS, default
// "1": a plain and an adversarial suite) as one libFuzzer target
// (SDP_TESTEE_FUZZ) under AddressSanitizer and UndefinedBehaviorSanitizer,
// seeds it with gentest.FuzzCorpusWith (the golden vectors, plain and as
// messages, and the invalid vectors; the suites' first vectors) and runs it
// briefly (SDP_CPP_FUZZ_SECONDS, default 20, shared by all the schemas)
// under gentest.RunFuzzer's memory limits. Byte 0 of an input picks the
// schema, byte 1 the struct (low 7 bits) and message mode (high bit). The
// oracles are the testee's: no sanitizer report, no allocation over the
// malloc limit, the owned and view decoders agree on every input (status and
// offset), an accepted input re-encodes to exactly itself through every
// encoder, and views convert to the same owned value; in message mode the
// input is also read as a stream by the owned and the view stream readers,
// which must agree.
// This covers the decoders' fast paths that read past a value's own bytes
// and the views' unchecked navigation of validated input.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	cxx, linkFlags := gentest.LibFuzzer(t, fuzzCompilers(t), "probe.cpp",
		"#include <cstddef>\n#include <cstdint>\n#include <string>\n"+
			"extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t* d, std::size_t n) { return static_cast<int>(std::string(d, d + n).size()) * 0; }\n",
		"-std=c++17")
	seconds := gentest.FuzzSeconds(t, "SDP_CPP_FUZZ_SECONDS", 20)
	schemas := corpusSchemas(t)
	suites := gentest.FuzzSuites(t)
	all := append([]*schema.Schema{}, schemas...)
	for _, su := range suites {
		all = append(all, su.Schema)
	}
	dir := t.TempDir()
	deps := generateAll(t, dir, all)
	src := filepath.Join(dir, "fuzz.cpp")
	if err := os.WriteFile(src, testeeProgram(all), 0o644); err != nil {
		t.Fatal(err)
	}
	corpus := gentest.FuzzCorpusWith(t, schemas, suites)
	flags := append(append(append([]string{}, strictFlags...), "-O1", "-g", "-DSDP_TESTEE_FUZZ"), gentest.FuzzFlags...)
	obj := compile(t, cxx, flags, src, deps...)
	exe := filepath.Join(dir, "fuzz")
	link(t, cxx, append(flags, linkFlags...), exe, obj)
	gentest.RunFuzzer(t, exe, corpus, seconds)
}

// fuzzCompilers are the clang++ that clangPath finds (Swift's toolchain
// ships the libFuzzer runtime) and Debian's clang++-14.
func fuzzCompilers(t *testing.T) []string {
	return []string{clangPath(t), "clang++-14"}
}
