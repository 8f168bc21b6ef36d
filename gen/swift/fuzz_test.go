package swift

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen/emit"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestFuzz builds the libFuzzer target (SDPFuzz: every corpus module's
// decoders, and those of the random-schema suites of gentest.FuzzSuites,
// behind the testee's handlers, in a corpus package of their own) with
// coverage instrumentation and AddressSanitizer, seeds it with the golden
// and invalid vectors and the suites' first vectors
// (gentest.FuzzCorpusWith) and runs it briefly (SDP_SWIFT_FUZZ_SECONDS,
// default 20, shared by all the schemas) under gentest.RunFuzzer's memory
// limits. The oracles are the handlers' and the target's: no crash (a Swift
// runtime trap or a sanitizer report), no allocation or process size over
// the limits, the [UInt8], raw-buffer, Data and prefix decoders and the
// message dispatcher agree on every input, and an accepted input re-encodes
// to exactly itself through every encoder.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	swift := gentest.RequireTool(t, "swift")
	seconds := gentest.FuzzSeconds(t, "SDP_SWIFT_FUZZ_SECONDS", 20)
	suites := gentest.FuzzSuites(t)
	c := writeCorpusPackage(t, swift, suites)
	buildPath := filepath.Join(c.dir, ".build-fuzz")
	// --sanitize fuzzer links libFuzzer's main; -sanitize=fuzzer,address on
	// every compilation instruments the modules for coverage and ASan (the
	// option alone instruments only for ASan in Swift 6.3's SwiftPM).
	args := append([]string{"build", "--product", "SDPFuzz", "--build-path", buildPath,
		"--sanitize", "fuzzer", "-Xswiftc", "-sanitize=fuzzer,address"}, swiftFlags...)
	runSwift(t, swift, c.dir, args...)
	corpus := gentest.FuzzCorpusWith(t, c.schemas, suites)
	addStreamSeeds(t, corpus, c.schemas, suites)
	gentest.RunFuzzer(t, filepath.Join(buildPath, "debug", "SDPFuzz"), corpus, seconds)
}

// fuzzFile is the libFuzzer target's source. Its input is laid out as
// gentest.FuzzCorpusWith writes seeds: byte 0 picks the schema, byte 1 the
// struct (low 7 bits) or message mode (high bit), and the rest goes to the
// schema's testee handler; byte 1 = 0xFF makes the rest a stream request
// (conformance.OpStream), read and written back by MessageReader and
// MessageWriter, whole and 7 bytes at a time. The handler reports disagreeing decoders or
// encoders as status 2; the target also checks that an accepted input
// re-encodes to itself. Either failure traps, which libFuzzer reports.
// After every input the handler's values kept for decoding into are dropped
// (reset_<module>), so each input decodes into a default value: LeakSanitizer
// would report what kept values hold (see testeeFile).
func fuzzFile(names []string, schemas []*schema.Schema) []byte {
	p := emit.New("    ")
	p.P("// The libFuzzer target over every module's decoders.")
	p.P()
	p.P("import SDPTesteeHandlers")
	p.P()
	p.P("@_cdecl(\"LLVMFuzzerTestOneInput\")")
	p.Block("public func fuzzOneInput(_ data: UnsafeRawPointer, _ size: Int) -> Int32 {", "}", func() {
		p.Block("guard size >= 2 else {", "}", func() {
			p.P("return 0")
		})
		p.P("let bytes = UnsafeRawBufferPointer(start: data, count: size)")
		p.P("let input = Array(bytes[2...])")
		p.P("// Byte 1 = 0xFF: the rest is a stream request (u32 maximum, stream).")
		p.P("let stream = bytes[1] == 0xFF")
		p.Block("if stream && input.count < 4 {", "}", func() {
			p.P("return 0")
		})
		p.P("let op: UInt8 = stream ? 3 : bytes[1] & 0x80 != 0 ? 2 : 1")
		p.P("let pick = Int(bytes[1] & 0x7F)")
		p.P("let (status, output): (UInt8, [UInt8])")
		switchBlock(p, fmt.Sprintf("switch Int(bytes[0]) %% %d {", len(schemas)), func() {
			for i, s := range schemas {
				var ids []string
				for _, st := range s.Structs {
					ids = append(ids, fmt.Sprint(st.ID))
				}
				if len(ids) == 0 {
					continue
				}
				caseBlock(p, fmt.Sprintf("case %d:", i), func() {
					p.P("let ids: [UInt16] = [", strings.Join(ids, ", "), "]")
					p.P("(status, output) = handle_", names[i], "(op: op, typeID: ids[pick % ids.count], input: input)")
					p.P("reset_", names[i], "()")
				})
			}
			caseBlock(p, "default:", func() {
				p.P("return 0")
			})
		})
		p.Block("if status == 2 {", "}", func() {
			p.P("fatalError(String(decoding: output, as: UTF8.self))")
		})
		p.P("var got = output[...]")
		p.P("var want = stream ? input[4...] : input[...]")
		p.P("// A stream that began with a hello is answered with the writer's own, which")
		p.P("// lists only this schema's structs: compare what follows the two hellos.")
		p.Block("if status == 0 && stream && got.count >= 10 && got[4] == 0 && got[5] == 0 && want.count >= 10 {", "}", func() {
			p.P("got = got.dropFirst(10 + (Int(got[6]) | Int(got[7]) << 8 | Int(got[8]) << 16 | Int(got[9]) << 24))")
			p.P("let w = want.startIndex")
			p.P("want = want.dropFirst(10 + (Int(want[w + 6]) | Int(want[w + 7]) << 8 | Int(want[w + 8]) << 16 | Int(want[w + 9]) << 24))")
		})
		p.Block("if status == 0 && got != want {", "}", func() {
			p.P(`fatalError("accepted \(input) but re-encoded \(output)")`)
		})
		p.P("return 0")
	})
	return p.Bytes()
}

// addStreamSeeds adds to the fuzz corpus the stream vectors and the hello
// vectors (at most 16 of each, of at most 4 KiB, per schema) of every corpus
// schema and suite, as stream requests (byte 1 = 0xFF).
func addStreamSeeds(t *testing.T, dir string, schemas []*schema.Schema, suites []*randschema.Suite) {
	var sets [][][]conformance.Vector // per schema, then suite: its stream vectors and its hello vectors
	for _, s := range schemas {
		vs, err := conformance.CorpusStreamVectors(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		hellos, err := conformance.CorpusHelloVectors(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, [][]conformance.Vector{vs, hellos})
	}
	for _, su := range suites {
		sets = append(sets, [][]conformance.Vector{su.Streams, conformance.HelloVectors(su.Schema, su.Name+".", nil)})
	}
	seeds := 0
	for si, kinds := range sets {
		for _, vs := range kinds {
			n := 0
			for _, v := range vs {
				if len(v.Input) > 4096 || n == 16 {
					continue
				}
				n++
				seeds++
				name := filepath.Join(dir, fmt.Sprintf("stream%04d", seeds))
				if err := os.WriteFile(name, append([]byte{byte(si), 0xFF}, v.Input...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d stream and hello seeds", seeds)
}
