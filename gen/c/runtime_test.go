package c

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/gen/gentest"
	"sdp/schema"
)

// TestRuntimeSource compiles the runtime as it is written (runtime/pfx.h and
// every section of runtime/pfx.c, with the placeholder prefixes), under the
// strict warnings of generated code, as C99 with gcc and clang, with the
// portable byte-order path forced, and as C++: a section no corpus schema
// uses is compiled too. Sections are static and a package emits only those
// it uses, so unused functions are allowed here.
func TestRuntimeSource(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	gxx := gentest.RequireTool(t, "g++")
	clang := gentest.RequireTool(t, "clang")
	dir := t.TempDir()
	all := `#include "pfx.c"

/* The generator defines these from the schema's message types. */
static int pfx_known_type_(uint16_t type_id) { return type_id == 1; }
typedef struct pfx_hello_entry_ {
    uint16_t type_id;
    uint64_t fingerprint;
    const char* name;
} pfx_hello_entry_;
static const pfx_hello_entry_ pfx_hello_entries_[] = {{1, 0x0123456789abcdefu, "Point"}};
static const size_t pfx_hello_count_ = 1;

#include "stream.c"
`
	// The stream declarations go into the header after pfx.h's and the
	// schema's message type, which the generator declares from its structs.
	header := runtimeHeader + `
typedef struct pfx_message {
    uint16_t type_id;
    union {
        uint32_t point;
    } value;
} pfx_message;
size_t pfx_encoded_message_size(const pfx_message* m);
size_t pfx_encode_message(const pfx_message* m, uint8_t* buf, size_t cap);
int pfx_encode_message_ex(const pfx_message* m, uint8_t* buf, size_t cap, pfx_encode_result* res);
int pfx_decode_message_ex(const uint8_t* data, size_t len, pfx_message* out, pfx_arena* arena,
        const pfx_decode_options* opt, pfx_decode_result* res);
#include "stream.h"
`
	for _, f := range [][2]string{{"pfx.h", header}, {"stream.h", streamHeader}, {"pfx.c", runtimeSource}, {"stream.c", streamSource}, {"all.c", all}} {
		if err := os.WriteFile(filepath.Join(dir, f[0]), []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flags := append(append([]string{}, strictFlags...), "-Wno-unused-function")
	for _, cc := range []string{gcc, clang} {
		run(t, dir, cc, append(flags, "-O1", "-c", "all.c", "-o", "/dev/null")...)
	}
	run(t, dir, gcc, append(flags, "-DPFX_LITTLE_ENDIAN=0", "-fsyntax-only", "all.c")...)
	run(t, dir, gxx, "-x", "c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function", "-fsyntax-only", "all.c")
}

// TestRuntimeConstants checks that the header's memory-rule constants are
// the schema package's (rule 11).
func TestRuntimeConstants(t *testing.T) {
	for _, want := range []string{
		fmt.Sprintf("#define PFX_MEMORY_RATIO %du\n", schema.MemoryRatio),
		fmt.Sprintf("#define PFX_MEMORY_ALLOWANCE %du\n", schema.MemoryAllowance),
	} {
		if !strings.Contains(runtimeHeader, want) {
			t.Errorf("runtime/pfx.h lacks %q", strings.TrimSpace(want))
		}
	}
}
