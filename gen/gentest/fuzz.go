package gentest

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
	"sdp/conformance/randschema"
	"sdp/schema"
)

// FuzzFlags are the compile flags of a libFuzzer target with the sanitizers.
var FuzzFlags = []string{"-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}

// LibFuzzer finds a compiler that builds and links a libFuzzer target with
// AddressSanitizer and UndefinedBehaviorSanitizer: the first of compilers
// (names looked up on PATH, or paths) that builds probe, a source file name
// whose extension picks the language, holding source, with FuzzFlags plus
// flags, linking with -fuse-ld=lld or without. It returns the compiler and
// the extra link flags. Swift's toolchain ships a clang with the libFuzzer
// runtime; Debian's is clang-14 with libclang-rt-14-dev. Without one the
// test fails under CI and is skipped elsewhere.
func LibFuzzer(t testing.TB, compilers []string, probe, source string, flags ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, probe)
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	var tried []string
	for _, name := range compilers {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		for _, link := range [][]string{{"-fuse-ld=lld"}, nil} {
			args := append(append(append(append([]string{}, FuzzFlags...), flags...), link...), src, "-o", filepath.Join(dir, "probe"))
			out, err := exec.Command(path, args...).CombinedOutput()
			if err == nil {
				return path, link
			}
			tried = append(tried, path+" "+strings.Join(args, " ")+": "+strings.SplitN(string(out), "\n", 2)[0])
		}
	}
	msg := "no compiler links libFuzzer (install clang-14 libclang-rt-14-dev); tried: " + strings.Join(tried, "; ")
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return "", nil
}

// FuzzSeconds is how long a fuzz test runs: the environment variable name,
// or def seconds.
func FuzzSeconds(t testing.TB, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// The memory limits of a fuzzing run. Inputs are at most 64 KiB, so rule 11
// lets a decoder take at most 32 × 64 KiB + 1 MiB = 3 MiB of nominal size:
// a single allocation of more than FuzzMallocLimitMB, or a process above
// FuzzRSSLimitMB (AddressSanitizer's shadow memory and quarantine
// included), is a decoder out of its memory bound, and the fuzzer reports it
// as a failure.
const (
	FuzzMallocLimitMB = 64
	FuzzRSSLimitMB    = 1536
)

// RunFuzzer runs the libFuzzer binary exe on the corpus directory (which
// gains what it finds) for the given seconds, failing the test with the end
// of its output if it finds a problem, and logs its final statistics.
func RunFuzzer(t testing.TB, exe, corpus string, seconds int) {
	t.Helper()
	cmd := exec.Command(exe, fmt.Sprintf("-max_total_time=%d", seconds), "-max_len=65536",
		fmt.Sprintf("-malloc_limit_mb=%d", FuzzMallocLimitMB), fmt.Sprintf("-rss_limit_mb=%d", FuzzRSSLimitMB),
		"-print_final_stats=1", corpus)
	cmd.Dir = filepath.Dir(exe)
	cmd.Env = append(os.Environ(), "UBSAN_OPTIONS=print_stacktrace=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		lines := strings.Split(string(out), "\n")
		if len(lines) > 60 {
			lines = lines[len(lines)-60:]
		}
		t.Fatalf("the fuzzer found a problem (%v):\n%s", err, strings.Join(lines, "\n"))
	}
	var stats []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "stat::") {
			stats = append(stats, strings.Join(strings.Fields(strings.TrimPrefix(l, "stat::")), " "))
		}
	}
	t.Logf("fuzzed for %s: %s", time.Since(start).Round(time.Second), strings.Join(stats, ", "))
}

// FuzzCorpus writes the seed corpus of a libFuzzer target that covers
// schemas into a new temporary directory, logs how many seeds it wrote and
// returns the directory (which the fuzzer then grows). Every target built by
// the tests reads its input the same way: byte 0 picks the schema (its index
// in schemas), byte 1 the struct (its index, low 7 bits) and message mode
// (high bit), and the rest is the input. The seeds are, for every struct, an
// empty input and, for every conformance case, its golden vector plain and
// as a message, and every invalid vector.
func FuzzCorpus(t testing.TB, schemas []*schema.Schema) string {
	t.Helper()
	return FuzzCorpusWith(t, schemas, nil)
}

// FuzzSuites are the random-schema suites a backend's fuzz target covers
// besides the corpus: the seeds of SDP_FUZZ_RANDOM_SEEDS (default "1"),
// plain and adversarial names.
func FuzzSuites(t testing.TB) []*randschema.Suite {
	t.Helper()
	spec := os.Getenv("SDP_FUZZ_RANDOM_SEEDS")
	if spec == "" {
		spec = "1"
	}
	seeds, err := ParseSeeds(spec)
	if err != nil {
		t.Fatalf("SDP_FUZZ_RANDOM_SEEDS: %v", err)
	}
	var out []*randschema.Suite
	for _, seed := range seeds {
		for _, adv := range []bool{false, true} {
			su, err := randschema.Generate(seed, randschema.Config{Adversarial: adv})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, su)
		}
	}
	return out
}

// FuzzCorpusWith is FuzzCorpus for corpus schemas followed by random-schema
// suites: suite i is schema number len(schemas)+i, and its seeds are its
// first 64 vectors of at most 4 KiB.
func FuzzCorpusWith(t testing.TB, schemas []*schema.Schema, suites []*randschema.Suite) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seeds := 0
	add := func(si, sel int, in []byte) {
		seeds++
		name := filepath.Join(dir, fmt.Sprintf("seed%04d", seeds))
		if err := os.WriteFile(name, append([]byte{byte(si), byte(sel)}, in...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for si, s := range schemas {
		index := map[string]int{}
		for i, st := range s.Structs {
			index[st.Name] = i
			add(si, i, nil)
		}
		cases, err := conformance.Cases(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Golden != nil {
				add(si, index[c.Type], c.Golden)
				add(si, index[c.Type]|0x80, conformance.Message(s.Struct(c.Type).ID, c.Golden))
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
			sel := index[v.Type]
			if v.Message {
				sel |= 0x80
			}
			add(si, sel, in)
		}
	}
	for i, su := range suites {
		si := len(schemas) + i
		index := map[uint16]int{}
		for j, st := range su.Schema.Structs {
			index[st.ID] = j
			add(si, j, nil)
		}
		n := 0
		for _, v := range su.Vectors {
			if n == 64 || len(v.Input) > 4096 {
				continue
			}
			sel := index[v.TypeID]
			if v.Op == conformance.OpMessage {
				sel |= 0x80
			}
			add(si, sel, v.Input)
			n++
		}
	}
	t.Logf("%d seeds", seeds)
	return dir
}
