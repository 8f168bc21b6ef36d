package c

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/gen/naming"
)

// TestAPI builds testdata/programs/api.c against four corpus schemas with
// sanitizers and runs it: arenas (including a fixed arena of every size
// running out), options, error offsets, messages, errors and hand-built values;
// once natively and once with -m32.
func TestAPI(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	for _, variant := range []struct {
		name  string
		flags []string
	}{{"native", nil}, {"m32", m32}} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			if variant.name == "m32" {
				if testing.Short() {
					t.Skip("short mode")
				}
				requireM32(t)
			}
			dir := t.TempDir()
			args := append(append(append([]string{}, strictFlags...), sanitize...), variant.flags...)
			for _, name := range []string{"enums_unions", "messages", "plugins", "recursive"} {
				generate(t, name, dir, gen.Options{})
				args = append(args, name+".c")
			}
			src, err := filepath.Abs(filepath.Join("testdata", "programs", "api.c"))
			if err != nil {
				t.Fatal(err)
			}
			run(t, dir, gcc, append(args, "-I", dir, src, "-o", "api")...)
			cmd := exec.Command(filepath.Join(dir, "api"),
				filepath.Join(conformance.Dir(), "golden", "plugins", "registry_62.sdpb"),
				filepath.Join(conformance.Dir(), "golden", "recursive", "tree_depth_64.sdpb"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("api tests failed: %v\n%s", err, out)
			}
		})
	}
}

// topProgram is a C program that decodes the inputs of gentest.TopCases with
// the functions of a union or enum decoded on its own and prints one line per
// case: "err\t<rule>\t<offset>\t<path>" (an enum's pair reports no offset or
// path: "-") or "ok\t<1 if it encodes back to its bytes>". It also checks
// that _decode agrees with _decode_ex, that a prefix decode (allow_trailing)
// fails alike unless the fault is trailing bytes, and that a failed decode
// leaves the default value.
func topProgram(cases []gentest.TopCase) string {
	var b strings.Builder
	b.WriteString(`#include <stdio.h>
#include <string.h>

#include "enums_unions.h"

static void print_err(int rc, size_t offset, const char* path) {
    const char* text = enums_unions_strerror(rc);
    printf("err\t%.*s\t%zu\t%s\n", (int)strcspn(text, ":"), text, offset, path);
}

#define UNION_CHECK(T)                                                                        \
    static void check_##T(const uint8_t* in, size_t len, uint32_t depth) {                    \
        unsigned char mem[256];                                                               \
        uint8_t out[64], def[64];                                                             \
        enums_unions_arena a;                                                                 \
        enums_unions_##T v, d;                                                                \
        enums_unions_decode_options opt;                                                      \
        enums_unions_decode_result res;                                                       \
        enums_unions_encode_result er;                                                        \
        size_t n;                                                                             \
        int rc;                                                                               \
        memset(&opt, 0, sizeof opt);                                                          \
        opt.max_depth = depth;                                                                \
        enums_unions_arena_init(&a, mem, sizeof mem);                                         \
        rc = enums_unions_##T##_decode_ex(in, len, &v, &a, &opt, &res);                       \
        if (rc != 0) {                                                                        \
            print_err(rc, res.offset, res.path);                                              \
            enums_unions_##T##_init(&d);                                                      \
            n = enums_unions_##T##_encode(&v, out, sizeof out);                               \
            if (n == 0 || n != enums_unions_##T##_encode(&d, def, sizeof def) ||              \
                memcmp(out, def, n) != 0) {                                                   \
                printf("failed decode did not leave the default value\n");                    \
            }                                                                                 \
            enums_unions_arena_reset(&a);                                                     \
            if (depth == 0 && enums_unions_##T##_decode(in, len, &v, &a) != rc) {             \
                printf("_decode and _decode_ex disagree\n");                                  \
            }                                                                                 \
            opt.allow_trailing = 1;                                                           \
            enums_unions_arena_reset(&a);                                                     \
            if (rc != ENUMS_UNIONS_ERR_TRAILING &&                                            \
                (enums_unions_##T##_decode_ex(in, len, &v, &a, &opt, &res) != rc)) {          \
                printf("prefix decode disagrees\n");                                          \
            }                                                                                 \
            return;                                                                           \
        }                                                                                     \
        n = enums_unions_##T##_encoded_size(&v);                                              \
        rc = enums_unions_##T##_encode_ex(&v, out, sizeof out, &er);                          \
        printf("ok\t%d\n", n == len && rc == 0 && er.written == len && memcmp(out, in, len) == 0 && \
                               enums_unions_##T##_encode(&v, out, sizeof out) == len &&        \
                               enums_unions_##T##_encode_ex(&v, out, len - 1, &er) ==          \
                                   ENUMS_UNIONS_ERR_BUFFER && er.written == len);             \
    }

#define ENUM_CHECK(T, first)                                                                  \
    static void check_##T(const uint8_t* in, size_t len, uint32_t depth) {                    \
        uint8_t out[8];                                                                       \
        enums_unions_##T v;                                                                   \
        int rc = enums_unions_##T##_decode(in, len, &v);                                      \
        (void)depth;                                                                          \
        if (rc != 0) {                                                                        \
            print_err(rc, 0, "");                                                             \
            if (v != first) {                                                                 \
                printf("failed decode did not leave the default value\n");                    \
            }                                                                                 \
            return;                                                                           \
        }                                                                                     \
        printf("ok\t%d\n", enums_unions_##T##_encode(v, out, sizeof out) == len &&             \
                               memcmp(out, in, len) == 0 &&                                   \
                               enums_unions_##T##_encode(v, out, len - 1) == 0);              \
    }

UNION_CHECK(shape)
UNION_CHECK(nested)
ENUM_CHECK(small, ENUMS_UNIONS_SMALL_ZERO)
ENUM_CHECK(sparse, ENUMS_UNIONS_SPARSE_FIRST)
ENUM_CHECK(wide, ENUMS_UNIONS_WIDE_MIN)

int main(void) {
    uint8_t out[8];
    /* A number that names no value, and a union with an unknown tag, do not encode. */
    enums_unions_shape bad;
    enums_unions_shape_init(&bad);
    bad.tag = 9;
    if (enums_unions_small_encode((enums_unions_small)7, out, sizeof out) != 0 ||
        enums_unions_shape_encoded_size(&bad) != SIZE_MAX || enums_unions_shape_encode(&bad, out, sizeof out) != 0) {
        printf("a value that has no encoding was encoded\n");
    }
`)
	for _, c := range cases {
		var bs []string
		for _, x := range c.Input {
			bs = append(bs, fmt.Sprintf("0x%02x", x))
		}
		bs = append(bs, "0") // no empty initializer in C99
		fmt.Fprintf(&b, "    { /* %s */\n        static const uint8_t in[] = {%s};\n        check_%s(in, %d, %d);\n    }\n",
			c.Name, strings.Join(bs, ", "), naming.Snake(c.Type), len(c.Input), c.MaxDepth)
	}
	b.WriteString("    return 0;\n}\n")
	return b.String()
}

// TestTopLevel encodes and decodes the unions and enums of enums_unions.sdp
// on their own (T_decode_ex of a union, T_encode/T_decode of an enum): every
// bad input of gentest.TopCases fails with the reference codec's rule, offset
// and path (an enum's pair: the rule), every valid one encodes back to its
// bytes; under the sanitizers.
func TestTopLevel(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	dir := t.TempDir()
	generate(t, "enums_unions", dir, gen.Options{})
	cases := gentest.TopCases()
	if err := os.WriteFile(filepath.Join(dir, "top.c"), []byte(topProgram(cases)), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append(append([]string{}, strictFlags...), sanitize...), "enums_unions.c", "top.c", "-o", "top")
	run(t, dir, gcc, args...)
	out, err := exec.Command(filepath.Join(dir, "top")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d lines for %d cases:\n%s", len(lines), len(cases), out)
	}
	s := gentest.EnumsUnions(t)
	for i, c := range cases {
		w, f := gentest.TopExpect(s, c), strings.Split(lines[i], "\t")
		enum := c.Type != "Shape" && c.Type != "Nested"
		switch {
		case w.Rule == "" && (len(f) != 2 || f[0] != "ok" || f[1] != "1"):
			t.Errorf("%s: %q, want a value that encodes back to its bytes", c.Name, lines[i])
		case w.Rule != "" && enum && (len(f) != 4 || f[0] != "err" || f[1] != w.Rule):
			t.Errorf("%s: %q, want rule %s", c.Name, lines[i], w.Rule)
		case w.Rule != "" && !enum && lines[i] != fmt.Sprintf("err\t%s\t%d\t%s", w.Rule, w.Offset, w.Path):
			t.Errorf("%s: %q, want %s @%d %q", c.Name, lines[i], w.Rule, w.Offset, w.Path)
		}
	}
}
