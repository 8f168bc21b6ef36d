package swift

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen/emit"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestFuzz builds the corpus package's libFuzzer target (SDPFuzz, every
// corpus module's decoders behind the testee's handlers) with coverage
// instrumentation and AddressSanitizer, seeds it with the golden and invalid
// vectors and runs it briefly (SDP_SWIFT_FUZZ_SECONDS, default 20). The
// oracles are the handlers' and the target's: no crash (a Swift runtime trap
// or a sanitizer report), the [UInt8], raw-buffer, Data and prefix decoders
// and the message dispatcher agree on every input, and an accepted input
// re-encodes to exactly itself through every encoder.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	swift := gentest.RequireTool(t, "swift")
	seconds := gentest.FuzzSeconds(t, "SDP_SWIFT_FUZZ_SECONDS", 20)
	c := builtCorpus(t)
	buildPath := filepath.Join(c.dir, ".build-fuzz")
	// --sanitize fuzzer links libFuzzer's main; -sanitize=fuzzer,address on
	// every compilation instruments the modules for coverage and ASan (the
	// option alone instruments only for ASan in Swift 6.3's SwiftPM).
	args := append([]string{"build", "--product", "SDPFuzz", "--build-path", buildPath,
		"--sanitize", "fuzzer", "-Xswiftc", "-sanitize=fuzzer,address"}, swiftFlags...)
	runSwift(t, swift, c.dir, args...)
	corpus := gentest.FuzzCorpus(t, c.schemas)
	gentest.RunFuzzer(t, filepath.Join(buildPath, "debug", "SDPFuzz"), corpus, seconds)
}

// fuzzFile is the libFuzzer target's source. Its input is laid out as
// gentest.FuzzCorpus writes seeds: byte 0 picks the schema, byte 1 the
// struct (low 7 bits) or message mode (high bit), and the rest goes to the
// schema's testee handler. The handler reports disagreeing decoders or
// encoders as status 2; the target also checks that an accepted input
// re-encodes to itself. Either failure traps, which libFuzzer reports.
func fuzzFile(schemas []*schema.Schema) []byte {
	p := emit.New("    ")
	p.P("// The libFuzzer target over every corpus module's decoders.")
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
		p.P("let op: UInt8 = bytes[1] & 0x80 != 0 ? 2 : 1")
		p.P("let pick = Int(bytes[1] & 0x7F)")
		p.P("let (status, output): (UInt8, [UInt8])")
		switchBlock(p, fmt.Sprintf("switch Int(bytes[0]) %% %d {", len(schemas)), func() {
			for i, s := range schemas {
				var ids []string
				for _, st := range s.Structs {
					ids = append(ids, fmt.Sprint(st.ID))
				}
				caseBlock(p, fmt.Sprintf("case %d:", i), func() {
					p.P("let ids: [UInt16] = [", strings.Join(ids, ", "), "]")
					p.P("(status, output) = handle_", s.Name, "(op: op, typeID: ids[pick % ids.count], input: input)")
				})
			}
			caseBlock(p, "default:", func() {
				p.P("return 0")
			})
		})
		p.Block("if status == 2 {", "}", func() {
			p.P("fatalError(String(decoding: output, as: UTF8.self))")
		})
		p.Block("if status == 0 && output != input {", "}", func() {
			p.P(`fatalError("accepted \(input) but re-encoded \(output)")`)
		})
		p.P("return 0")
	})
	return p.Bytes()
}
