package cpp

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

func corpus(t *testing.T) []string { return gentest.CorpusNames(t) }

// TestGolden compares the generated code for every corpus schema with
// testdata/<schema>/ (go test ./gen/cpp -update rewrites it).
func TestGolden(t *testing.T) {
	gentest.GoldenEach(t, Generate, gentest.CorpusSchemas(t))
}

// generateAll generates the schemas into dir/<name>/ and returns every
// generated source file (the inputs a compilation depends on).
func generateAll(t *testing.T, dir string, schemas []*schema.Schema) []string {
	t.Helper()
	var deps []string
	for _, s := range schemas {
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(filepath.Join(dir, s.Name), files); err != nil {
			t.Fatal(err)
		}
		deps = append(deps, filepath.Join(dir, s.Name, s.Name+".hpp"), filepath.Join(dir, s.Name, s.Name+".cpp"))
	}
	return deps
}

func corpusSchemas(t *testing.T) []*schema.Schema {
	var out []*schema.Schema
	for _, name := range corpus(t) {
		out = append(out, gentest.LoadSchema(t, conformance.SchemaPath(name)))
	}
	return out
}

// clashSchema holds names that collide with C++ keywords and macros, with
// the generated names (views, kTypeId, kFingerprint, to_owned, the hello's)
// and, inside a union, a variant type that hides a schema type of the same
// name; unions and variants named like the runtime's namespace of variant
// types (sdp::variants), its hashing helpers (Hash, hash_combine) and
// boxes; an enum whose values are named like the locals of the enum
// encoders and decoders.
const clashSchema = `struct Point { x: f32 }
enum Kind: u8 { A, B, errno, NULL }
union U {
    Point { y: f64 },
    Other { p: Point, k: Kind, ps: []Point, op: ?Point },
    value { k: Kind },
    U2 { u: ?U },
}
struct Holder { u: U, us: []U }
struct HolderView { x: u8 }
struct class { errno: u8, kTypeId: u8, kFingerprint: u8, class: u8, to_owned: u8, std: str }
struct HelloEntry { type_id: u16, kHelloEntries: u8 }
union kFingerprint { kFingerprint { kFingerprint: u8 }, encode_hello }
struct encode { decode: u8 }
struct std { sdp: u8 }
struct Status { code: u8 }
struct DecodeOptions { max_depth: u32 }
enum ErrorCode: u8 { Ok }
union AnyMessage { A }
union variants { variants { variants: ?variants, h: u8 }, Hash { seed: f32, value: [2]Hash } }
struct Hash { h: u8, seed: u8, value: f64 }
union Box { detail { b: ?Box, v: variants }, hash_combine, Hash }
union detail { Box { x: u8 }, ShapeView }
enum size: u16 { v = 1, value, out, consumed }
struct Sizes { s: size, ss: [3]size }
`

// TestCompile builds the code of every corpus schema (and of clashSchema
// and defaultsSchema)
// with g++ and clang++ under strict warnings as errors, and with g++
// -fno-exceptions. All schemas go into one translation unit, each in its own
// namespace, which also shows that generated headers coexist.
func TestCompile(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	clang := clangPath(t)
	clashes, err := schema.Parse("clashes.sdp", []byte(clashSchema))
	if err != nil {
		t.Fatal(err)
	}
	defaults, err := schema.Parse("defaults.sdp", []byte(defaultsSchema))
	if err != nil {
		t.Fatal(err)
	}
	schemas := append(corpusSchemas(t), clashes, defaults)
	dir := t.TempDir()
	deps := generateAll(t, dir, schemas)
	unity := filepath.Join(dir, "all.cpp")
	var src strings.Builder
	for _, s := range schemas {
		fmt.Fprintf(&src, "#include \"%s/%s.cpp\"\n", s.Name, s.Name)
	}
	if err := os.WriteFile(unity, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		label, cxx string
		extra      []string
	}{
		// -O2: g++'s flow-sensitive warnings (-Wstringop-overflow,
		// -Warray-bounds, -Wmaybe-uninitialized) come from passes that -O1
		// does not run, and users build at -O2.
		{"g++", gxx, []string{"-O2"}},
		{"clang++", clang, []string{"-O1"}},
		{"g++-fno-exceptions", gxx, []string{"-O0", "-fno-exceptions"}},
	} {
		c := c
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			compile(t, c.cxx, append(append([]string{}, strictFlags...), c.extra...), unity, deps...)
		})
	}
	// Each source alone, as a user compiles it: clang warns about an unused
	// function of an anonymous namespace only in the main file, which the
	// unity build above never is.
	for _, s := range schemas {
		s := s
		t.Run("clang++-alone/"+s.Name, func(t *testing.T) {
			t.Parallel()
			compile(t, clang, append(append([]string{}, strictFlags...), "-O0"),
				filepath.Join(dir, s.Name, s.Name+".cpp"), deps...)
		})
	}
}

// TestPackageOption checks --package: a nested namespace and file names.
func TestPackageOption(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	s := gentest.LoadSchema(t, conformance.SchemaPath("keywords"))
	dir := generate(t, s, gen.Options{Package: "acme::wire-v2"})
	for _, f := range []string{"acme_wire_v2.hpp", "acme_wire_v2.cpp", "CMakeLists.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	main := filepath.Join(dir, "main.cpp")
	prog := `#include "acme_wire_v2.cpp"
int main() {
    acme::wire_v2::Holder h;
    h.result.value = acme::wire_v2::Result::Err{-7};
    h.kinds = {acme::wire_v2::Type::Self_, acme::wire_v2::Type::True};
    const auto bytes = acme::wire_v2::encode(h);
    acme::wire_v2::Holder back;
    const acme::wire_v2::Status st = acme::wire_v2::decode(bytes.data(), bytes.size(), back);
    return st && back == h ? 0 : 1;
}
`
	if err := os.WriteFile(main, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := compile(t, gxx, append(append([]string{}, strictFlags...), "-O1"), main,
		filepath.Join(dir, "acme_wire_v2.cpp"), filepath.Join(dir, "acme_wire_v2.hpp"))
	exe := filepath.Join(dir, "main")
	link(t, gxx, nil, exe, obj)
	if out, err := exec.Command(exe).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestConformance runs the corpus against a testee program built from the
// generated code of every schema with AddressSanitizer and
// UndefinedBehaviorSanitizer, then again with the portable byte-order code
// that big-endian targets use (under UndefinedBehaviorSanitizer), and again
// built for a 32-bit target (m32Variant).
func TestConformance(t *testing.T) {
	gxx := gentest.RequireTool(t, "g++")
	schemas := corpusSchemas(t)
	dir := t.TempDir()
	deps := generateAll(t, dir, schemas)
	src := filepath.Join(dir, "testee.cpp")
	if err := os.WriteFile(src, testeeProgram(schemas), 0o644); err != nil {
		t.Fatal(err)
	}
	variants := testeeVariants()
	if v, ok := m32Variant(t, gxx); ok {
		variants = append(variants, v)
	}
	// clang++ takes paths of its own (assign_wire: arrays decoded into
	// vectors without a zero-fill), so the native build runs under it too.
	variants = append(variants, testeeVariant{"clang-native", asanFlags()})
	t.Run("build", func(t *testing.T) {
		for _, v := range variants {
			v := v
			cxx := gxx
			if strings.HasPrefix(v.name, "clang-") {
				cxx = clangPath(t)
			}
			t.Run(v.name, func(t *testing.T) {
				t.Parallel()
				obj := compile(t, cxx, v.flags, src, deps...)
				link(t, cxx, v.flags, filepath.Join(dir, "testee-"+v.name), obj)
			})
		}
	})
	if t.Failed() {
		return
	}
	for _, v := range variants {
		exe := filepath.Join(dir, "testee-"+v.name)
		start := func(t *testing.T, name string) conformance.Testee { return startTestee(t, exe, name) }
		t.Run(v.name, func(t *testing.T) {
			conformance.Run(t, "cpp", start)
			t.Run("rules", func(t *testing.T) { checkRules(t, corpus(t), start) })
			t.Run("mutations", func(t *testing.T) { checkMutations(t, corpus(t), start) })
			t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "cpp", start) })
			t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "cpp", start) })
			t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "cpp", start) })
		})
	}
}

// testeeVariant is one build of the conformance testee.
type testeeVariant struct {
	name  string
	flags []string
}

// testeeVariants are the builds of the conformance testee: with
// AddressSanitizer and UndefinedBehaviorSanitizer, and with the portable
// byte-order code under UndefinedBehaviorSanitizer.
func testeeVariants() []testeeVariant {
	return []testeeVariant{
		{"native", asanFlags()},
		{"portable", append(append([]string{}, strictFlags...), "-O0", "-DSDP_PORTABLE_BYTE_ORDER",
			"-fsanitize=undefined", "-fno-sanitize-recover=all")},
	}
}

// m32Variant is the conformance testee built for a 32-bit target (g++ -m32,
// from gcc-multilib) with AddressSanitizer and UndefinedBehaviorSanitizer:
// std::size_t is 32 bits there, so count and size arithmetic that relies
// on a 64-bit size_t shows. It uses SSE for floating point (-msse2
// -mfpmath=sse, as every x86 CPU of this century allows): with x87 code the
// implicit copy constructors of the generated types copy a float through
// an x87 register, which quiets a signalling NaN, and the testee checks
// that a copy encodes like the original (the generated decoders and
// encoders move floats as bits and keep them either way). It is skipped
// where g++ cannot build -m32 programs.
func m32Variant(t *testing.T, gxx string) (testeeVariant, bool) {
	flags := append(asanFlags(), "-m32", "-msse2", "-mfpmath=sse")
	dir := t.TempDir()
	src := filepath.Join(dir, "probe.cpp")
	if err := os.WriteFile(src, []byte("#include <vector>\nint main() { return std::vector<int>(1)[0]; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, append(flags, src, "-o", filepath.Join(dir, "probe"))...).CombinedOutput(); err != nil {
		t.Logf("no -m32 build (install g++-multilib): %v\n%s", err, out)
		return testeeVariant{}, false
	}
	return testeeVariant{"m32", flags}, true
}

// startTestee starts a testee program serving one schema, with leak
// detection on.
func startTestee(t *testing.T, exe, schemaName string) conformance.Testee {
	cmd := exec.Command(exe, schemaName)
	cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1", "UBSAN_OPTIONS=print_stacktrace=1")
	testee, err := conformance.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return testee
}

// checkRules checks that every invalid vector is rejected with the rule the
// corpus names (the testee's rejection text starts with Status::rule()).
func checkRules(t *testing.T, names []string, start conformance.StartFunc) {
	for _, name := range names {
		invalid, err := conformance.Invalids(name)
		if err != nil {
			t.Fatal(err)
		}
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		testee := start(t, name)
		for _, v := range invalid {
			in, _ := v.Bytes()
			op := conformance.OpRoundtrip
			if v.Message {
				op = conformance.OpMessage
			}
			status, out, err := testee.Do(op, s.Struct(v.Type).ID, in)
			if err != nil {
				t.Fatalf("%s: %v", v.ID(), err)
			}
			if status != conformance.StatusRejected || !strings.HasPrefix(string(out), v.Rule+" @") {
				t.Errorf("%s: want rule %s, got status %d: %s", v.ID(), v.Rule, status, out)
			}
		}
		if err := testee.Close(); err != nil {
			t.Errorf("%s testee: %v", name, err)
		}
	}
}

// checkMutations feeds the testee corrupted golden vectors (bytes changed,
// inserted, removed, the input cut short; from a fixed seed): the owned and
// view decoders must agree on each and nothing may crash, which the
// sanitizers would report.
func checkMutations(t *testing.T, names []string, start conformance.StartFunc) {
	rng := rand.New(rand.NewSource(1))
	for _, name := range names {
		cases, err := conformance.Cases(name)
		if err != nil {
			t.Fatal(err)
		}
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		testee := start(t, name)
		for _, c := range cases {
			id := s.Struct(c.Type).ID
			for i := 0; i < 30; i++ {
				in := mutate(rng, c.Golden)
				op := conformance.OpRoundtrip
				if i%3 == 0 {
					op = conformance.OpMessage
					in = mutate(rng, conformance.Message(id, c.Golden))
				}
				status, out, err := testee.Do(op, id, in)
				if err != nil {
					t.Fatalf("%s mutated to %x: %v", c.ID(), in, err)
				}
				if status != conformance.StatusOK && status != conformance.StatusRejected {
					t.Errorf("%s mutated to %x: status %d: %s", c.ID(), in, status, out)
				}
			}
		}
		if err := testee.Close(); err != nil {
			t.Errorf("%s testee: %v", name, err)
		}
	}
}

func mutate(rng *rand.Rand, in []byte) []byte {
	out := append([]byte{}, in...)
	for n := 1 + rng.Intn(3); n > 0; n-- {
		switch k := rng.Intn(4); {
		case k == 0 && len(out) > 0:
			out[rng.Intn(len(out))] = byte(rng.Intn(256))
		case k == 1 && len(out) > 0:
			out[rng.Intn(len(out))] ^= 1 << uint(rng.Intn(8))
		case k == 2:
			i := rng.Intn(len(out) + 1)
			out = append(out[:i], append([]byte{byte(rng.Intn(256))}, out[i:]...)...)
		case len(out) > 0:
			out = out[:rng.Intn(len(out))]
		}
	}
	return out
}
