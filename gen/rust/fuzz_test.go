package rust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen/emit"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestFuzz builds the conformance testee of the corpus schemas and of the
// random-schema suites of gentest.FuzzSuites (SDP_FUZZ_RANDOM_SEEDS, default
// seed 1, plain and adversarial) as a libFuzzer target (`--cfg sdp_fuzz`)
// with coverage instrumentation and debug assertions, seeds it with the
// golden and invalid vectors and the suites' vectors
// (gentest.FuzzCorpusWith) and runs it briefly (SDP_RUST_FUZZ_SECONDS,
// default 20, shared by all the schemas) under libFuzzer's memory limits.
// The oracles are the testee's: no panic (a failed debug assertion in the
// unchecked view code, an overflow or an index out of bounds aborts), the
// owned, view, prefix, stream and message decoders agree on every input, an
// accepted input re-encodes to exactly itself through every encoder, and a
// message input read as a stream is accepted when the dispatcher accepts it
// and an accepted stream is written back unchanged. The workspace is its
// own (below os.TempDir(), sdp-rust-fuzz) and builds incrementally.
//
// Stable rustc has no -Zsanitizer, so there is no AddressSanitizer: the
// unsafe reads of validated input are covered by their debug_assert!s,
// which this build keeps.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	gentest.RequireTool(t, "cargo")
	suites := gentest.FuzzSuites(t)
	w, err := setupWorkspace("sdp-rust-fuzz", nil, suites)
	if err != nil {
		t.Fatal(err)
	}
	seconds := gentest.FuzzSeconds(t, "SDP_RUST_FUZZ_SECONDS", 20)
	runtime := libFuzzerRuntime(t)
	target := w.target
	// rustc's sancov pass with libFuzzer's options: inline 8-bit counters,
	// the PC table and comparison tracing (what clang's -fsanitize=fuzzer
	// enables). libFuzzer's runtime supplies main.
	flags := []string{
		"--cfg", "sdp_fuzz", "-Cdebug-assertions", "-Copt-level=1",
		"-Cpasses=sancov-module",
		"-Cllvm-args=-sanitizer-coverage-level=4",
		"-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
		"-Cllvm-args=-sanitizer-coverage-pc-table",
		"-Cllvm-args=-sanitizer-coverage-trace-compares",
		"-Clink-arg=" + runtime, "-Clink-arg=-lstdc++",
	}
	cmd := exec.Command("cargo", "build", "--quiet", "-p", "sdp_rust_testee")
	cmd.Dir = w.dir
	// A later entry wins: the fuzz build gets its own target directory.
	cmd.Env = append(w.cargoEnv(), "CARGO_TARGET_DIR="+target, "RUSTFLAGS="+strings.Join(flags, " "))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cargo build of the fuzz target: %v\n%s", err, out)
	}
	corpus := gentest.FuzzCorpusWith(t, w.schemas[:len(w.schemas)-len(suites)], suites)
	gentest.RunFuzzer(t, filepath.Join(target, "debug", "sdp_rust_testee"), corpus, seconds)
}

// libFuzzerRuntime is the path of libFuzzer's runtime library (with main),
// asked of the clang of Swift's toolchain or Debian's clang-14
// (libclang-rt-14-dev). Without one the test fails under CI and is skipped
// elsewhere.
func libFuzzerRuntime(t *testing.T) string {
	for _, cc := range []string{"clang", "clang-14"} {
		for _, name := range []string{"libclang_rt.fuzzer-x86_64.a", "libclang_rt.fuzzer.a"} {
			out, err := exec.Command(cc, "-print-file-name="+name).Output()
			path := strings.TrimSpace(string(out))
			if err == nil && filepath.IsAbs(path) {
				if _, err := os.Stat(path); err == nil {
					return path
				}
			}
		}
		out, err := exec.Command(cc, "-print-runtime-dir").Output()
		if err == nil {
			path := filepath.Join(strings.TrimSpace(string(out)), "libclang_rt.fuzzer.a")
			if _, err := os.Stat(path); err == nil {
				return path
			}
		}
	}
	msg := "no libFuzzer runtime (clang with libclang_rt.fuzzer; install clang-14 libclang-rt-14-dev)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// fuzzEntry writes the testee's libFuzzer entry point. Its input is laid
// out as gentest.FuzzCorpusWith writes seeds: byte 0 picks the schema, byte
// 1 the struct (low 7 bits) or message mode (high bit), and the rest goes to
// the schema's handler; in message mode the rest is also read as a stream
// (OpStream, no maximum), which must accept it when the dispatcher does and
// write back a stream it accepts unchanged. A disagreement (status 2) or an accepted input that re-encodes
// differently panics, which aborts (a panic cannot unwind out of an extern
// "C" function) and libFuzzer reports it.
func fuzzEntry(p *emit.Printer, schemas []*schema.Schema) {
	p.P("/// The libFuzzer entry point (`--cfg sdp_fuzz`).")
	p.P("#[cfg(sdp_fuzz)]")
	p.P("#[no_mangle]")
	p.Block(`pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {`, "}", func() {
		p.P("type Handler = fn(u8, u16, &[u8]) -> Reply;")
		p.Block("const SCHEMAS: &[(Handler, &[u16])] = &[", "];", func() {
			for _, s := range schemas {
				var ids []string
				for _, st := range s.Structs {
					ids = append(ids, fmt.Sprint(st.ID))
				}
				p.F("(%s_testee::handle, &[%s]),", s.Name, strings.Join(ids, ", "))
			}
		})
		p.Block("if data.is_null() || size < 2 {", "}", func() {
			p.P("return 0;")
		})
		p.P("// SAFETY: libFuzzer passes `size` readable bytes at `data`.")
		p.P("let bytes = unsafe { std::slice::from_raw_parts(data, size) };")
		p.P("let (handle, ids) = SCHEMAS[usize::from(bytes[0]) % SCHEMAS.len()];")
		p.P("let op = if bytes[1] & 0x80 != 0 { 2 } else { 1 };")
		p.P("let input = &bytes[2..];")
		p.P("let (status, out) = handle(op, ids[usize::from(bytes[1] & 0x7f) % ids.len()], input);")
		p.P(`assert!(status != 2, "{}", String::from_utf8_lossy(&out));`)
		p.P(`assert!(status != 0 || out == input, "accepted {input:02x?} but re-encoded {out:02x?}");`)
		p.Block("if op == 2 {", "}", func() {
			p.P("let mut request = vec![0u8; 4];")
			p.P("request.extend_from_slice(input);")
			p.P("let (streamed, out) = handle(3, 0, &request);")
			p.P(`assert!(streamed != 2, "{}", String::from_utf8_lossy(&out));`)
			p.P("// A stream that began with a hello is written back after the schema's own.")
			p.P("fn rest(s: &[u8]) -> Option<&[u8]> {")
			p.P("    match s {")
			p.P(`        [b'S', b'D', b'P', b'2', 0, 0, a, b, c, d, more @ ..] => {`)
			p.P("            more.get(u32::from_le_bytes([*a, *b, *c, *d]) as usize..)")
			p.P("        }")
			p.P("        _ => None,")
			p.P("    }")
			p.P("}")
			p.P(`assert!(streamed != 0 || out == input || (rest(input).is_some() && rest(input) == rest(&out)), "streamed {input:02x?} but wrote {out:02x?}");`)
			p.P(`assert!(status != 0 || streamed == 0, "the stream reader rejects a message the dispatcher accepts");`)
		})
		p.P("0")
	})
}
