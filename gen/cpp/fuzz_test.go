package cpp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sdp/conformance"
)

// TestFuzz builds the conformance testee of every corpus schema as one
// libFuzzer target (SDP_TESTEE_FUZZ) under AddressSanitizer and
// UndefinedBehaviorSanitizer, seeds it with the golden vectors (plain and as
// messages) and the invalid vectors, and runs it briefly
// (SDP_CPP_FUZZ_SECONDS, default 20). Byte 0 of an input picks the schema,
// byte 1 the struct (low 7 bits) and message mode (high bit). The oracles are
// the testee's: no sanitizer report, the owned and view decoders agree on
// every input (status and offset), an accepted input re-encodes to exactly
// itself through every encoder, and views convert to the same owned value.
// This covers the decoders' fast paths that read past a value's own bytes
// and the views' unchecked navigation of validated input.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	cxx, linkFlags := fuzzCompiler(t)
	seconds := 20
	if s := os.Getenv("SDP_CPP_FUZZ_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("SDP_CPP_FUZZ_SECONDS: %v", err)
		}
		seconds = n
	}
	schemas := corpusSchemas(t)
	dir := t.TempDir()
	deps := generateAll(t, dir, schemas)
	src := filepath.Join(dir, "fuzz.cpp")
	if err := os.WriteFile(src, testeeProgram(schemas), 0o644); err != nil {
		t.Fatal(err)
	}
	corpusDir := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpusDir, 0o755); err != nil {
		t.Fatal(err)
	}
	seeds := 0
	add := func(sel []byte, in []byte) {
		seeds++
		name := filepath.Join(corpusDir, fmt.Sprintf("seed%04d", seeds))
		if err := os.WriteFile(name, append(append([]byte{}, sel...), in...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for si, s := range schemas {
		index := map[string]int{}
		for i, st := range s.Structs {
			index[st.Name] = i
			add([]byte{byte(si), byte(i)}, nil)
		}
		cases, err := conformance.Cases(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Golden != nil {
				add([]byte{byte(si), byte(index[c.Type])}, c.Golden)
				add([]byte{byte(si), byte(index[c.Type]) | 0x80}, conformance.Message(s.Struct(c.Type).ID, c.Golden))
			}
		}
		invalid, err := conformance.Invalids(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range invalid {
			in, err := v.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			sel := byte(index[v.Type])
			if v.Message {
				sel |= 0x80
			}
			add([]byte{byte(si), sel}, in)
		}
	}
	flags := append(append([]string{}, strictFlags...), "-O1", "-g", "-DSDP_TESTEE_FUZZ",
		"-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer")
	obj := compile(t, cxx, flags, src, deps...)
	exe := filepath.Join(dir, "fuzz")
	link(t, cxx, append(flags, linkFlags...), exe, obj)
	cmd := exec.Command(exe, fmt.Sprintf("-max_total_time=%d", seconds), "-max_len=65536",
		"-print_final_stats=1", corpusDir)
	cmd.Env = append(os.Environ(), "UBSAN_OPTIONS=print_stacktrace=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the fuzzer found a problem (%v):\n%s", err, lastLines(string(out), 60))
	}
	t.Logf("%d seeds, %s; %s", seeds, time.Since(start).Round(time.Second), fuzzStats(string(out)))
}

// fuzzCompiler finds a clang++ that links libFuzzer with the sanitizers:
// the one clangPath finds (Swift's toolchain ships the runtime) or Debian's
// clang++-14 with libclang-rt-14-dev, and the extra flags it links with.
// Without one the test fails under CI and is skipped elsewhere.
func fuzzCompiler(t *testing.T) (string, []string) {
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.cpp")
	src := "#include <cstddef>\n#include <cstdint>\n#include <string>\n" +
		"extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t* d, std::size_t n) { return static_cast<int>(std::string(d, d + n).size()) * 0; }\n"
	if err := os.WriteFile(probe, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	candidates := []string{clangPath(t)}
	if p, err := exec.LookPath("clang++-14"); err == nil {
		candidates = append(candidates, p)
	}
	var tried []string
	for _, cxx := range candidates {
		for _, extra := range [][]string{{"-fuse-ld=lld"}, nil} {
			flags := append([]string{"-std=c++17", "-fsanitize=fuzzer,address,undefined"}, extra...)
			out, err := exec.Command(cxx, append(flags, probe, "-o", filepath.Join(dir, "probe"))...).CombinedOutput()
			if err == nil {
				return cxx, extra
			}
			tried = append(tried, cxx+" "+strings.Join(flags, " ")+": "+strings.SplitN(string(out), "\n", 2)[0])
		}
	}
	msg := "no clang++ with libFuzzer (install clang-14 libclang-rt-14-dev); tried: " + strings.Join(tried, "; ")
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return "", nil
}

// fuzzStats is libFuzzer's final "stat::" lines, folded into one.
func fuzzStats(out string) string {
	var stats []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "stat::") {
			stats = append(stats, strings.Join(strings.Fields(strings.TrimPrefix(l, "stat::")), " "))
		}
	}
	return strings.Join(stats, ", ")
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
