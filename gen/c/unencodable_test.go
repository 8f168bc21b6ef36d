package c

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// cSkips are the changes of the invalid-value corpus that C's types cannot
// hold (docs/conformance.md, "Values that have no encoding"), and why.
// TestUnencodable fails if it skips a case for any other change.
var cSkips = map[conformance.Change]string{
	conformance.ChangeLength:    "a C array member T x[N] holds exactly N elements",
	conformance.ChangeNull:      "fields are values, not pointers (a str or array with data NULL and len 0 is the empty one, a valid value)",
	conformance.ChangeRange:     "an integer member has its schema type's width (uint8_t for u8, int16_t for i16, ...)",
	conformance.ChangeWrongType: "members are statically typed",
}

// cResultAPIs are the encode APIs that report a rule and a path; cPlainAPIs
// those that only refuse (SIZE_MAX, 0 or an error code).
var (
	cResultAPIs = []string{"encode_ex", "encode_message_ex", "dispatch_encode_message_ex", "write_message_ex"}
	cPlainAPIs  = []string{"encoded_size", "encoded_message_size", "encode", "encode_message", "dispatch_encode_message", "write_message"}
)

// TestUnencodable generates the invalid-value corpus's schema and one C
// program that, for every case C's types can hold, decodes the valid Box,
// makes the change and calls every encode API: each must refuse it, the
// result forms with the reference codec's rule and path and text in the
// layout of docs/api.md, and write nothing. The program also checks sizes
// past what size_t holds (rule size on a 32-bit host, message where the
// payload is over 4 GiB), that a writer refuses a payload over its maximum,
// and what 0 means for the options. It runs natively and with -m32.
func TestUnencodable(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	s, err := schema.Load(conformance.UnencodableSchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	optPath := filepath.Join(t.TempDir(), "opts.sdp")
	if err := os.WriteFile(optPath, []byte(optionsSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	optSchema, err := schema.Load(optPath)
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	want := map[string]string{} // "case api" -> "rule path" or "refused"
	skipped := map[conformance.Change]int{}
	for _, c := range cases {
		if _, skip := cSkips[c.Change]; skip {
			skipped[c.Change]++
			continue
		}
		x, cur := "v", &schema.Type{Kind: schema.StructRef, Struct: c.Type}
		for _, st := range c.Target {
			if st.Field != nil {
				x += "." + memberName(st.Field.Name)
				cur = st.Field.Type
				continue
			}
			if cur.Kind == schema.Array {
				// Decoded arrays are const; the arena's memory is not.
				x = fmt.Sprintf("((%s*)(uintptr_t)%s.data)", cElemType(t, cur.Elem), x)
			}
			x += "[" + strconv.Itoa(st.Index) + "]"
			cur = cur.Elem
		}
		elem := c.Elem
		if elem.Kind == schema.Optional {
			fmt.Fprintf(&body, "        %s.has = 1;\n", x)
			x += ".value"
			elem = elem.Elem
		}
		var stmt string
		switch c.Change {
		case conformance.ChangeEnum:
			stmt = fmt.Sprintf("%s = (unenc_%s)%d;", x, memberName(elem.Enum.Name), c.N)
		case conformance.ChangeBadUTF8:
			stmt = x + " = bad_utf8;"
		case conformance.ChangeNoVariant:
			stmt = x + ".tag = 200;"
		default:
			t.Fatalf("%s: change %s is neither skipped nor made", c.Name, c.Change)
		}
		fmt.Fprintf(&body, "        %s\n        encode_all(%q, &v);\n        base(&v);\n", stmt, c.Name)
		for _, api := range cResultAPIs {
			want[c.Name+" "+api] = c.Rule + " " + strconv.Quote(c.Path)
		}
		for _, api := range cPlainAPIs {
			want[c.Name+" "+api] = "refused"
		}
	}
	for change, k := range skipped {
		if cSkips[change] == "" {
			t.Errorf("%d cases of change %s skipped without a reason", k, change)
		}
	}
	if len(want) == 0 {
		t.Fatal("no case of the invalid-value corpus was run")
	}
	var base []string
	for _, b := range cases[0].Base {
		base = append(base, strconv.Itoa(int(b)))
	}
	src := strings.NewReplacer("BASE", strings.Join(base, ", "), "CASES", body.String()).Replace(unencodableMain)
	for _, variant := range []struct {
		name  string
		flags []string
	}{{"native", nil}, {"m32", m32}} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			if variant.name == "m32" {
				requireM32(t)
			}
			dir := t.TempDir()
			for _, g := range []struct {
				s   *schema.Schema
				pkg string
			}{{s, "unenc"}, {optSchema, "opts"}} {
				files, err := Generate(g.s, gen.Options{Package: g.pkg})
				if err != nil {
					t.Fatal(err)
				}
				if err := gen.Write(dir, files); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append(append([]string{}, strictFlags...), sanitize...), variant.flags...)
			run(t, dir, gcc, append(args, "-I", dir, "main.c", "unenc.c", "opts.c", "-o", "unenc")...)
			out, err := exec.Command(filepath.Join(dir, "unenc")).CombinedOutput()
			if err != nil {
				t.Fatalf("the invalid-value program: %v\n%s", err, out)
			}
			got := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.SplitN(line, " ", 3)
				if len(f) < 3 {
					t.Errorf("bad line %q", line)
					continue
				}
				if f[0] == "check" {
					if f[2] != "ok" {
						t.Errorf("%s: %s", f[1], f[2])
					}
				}
				got[f[0]+" "+f[1]] = f[2]
			}
			var keys []string
			for k := range want {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if got[k] != want[k] {
					t.Errorf("%s: %s, want %s", k, got[k], want[k])
				}
			}
			for _, k := range []string{"check size", "check writer_max", "check writer_max_0", "check reader_max_0", "check depth_0", "check memory_0"} {
				if _, ok := got[k]; !ok {
					t.Errorf("%s did not run", k)
				}
			}
			t.Logf("%d cases × %d encode APIs refused as the reference does; skipped by change: %v",
				len(want)/(len(cResultAPIs)+len(cPlainAPIs)), len(cResultAPIs)+len(cPlainAPIs), skipped)
		})
	}
}

// cElemType is the C type of an element of a counted array in the
// invalid-value corpus's package.
func cElemType(t *testing.T, e *schema.Type) string {
	switch e.Kind {
	case schema.StructRef:
		return "unenc_" + memberName(e.Struct.Name)
	case schema.EnumRef:
		return "unenc_" + memberName(e.Enum.Name)
	case schema.String:
		return "unenc_str"
	}
	t.Fatalf("no C element type for %s", e)
	return ""
}

// optionsSchema is the schema of the options checks: a recursive struct
// for the depth limit, a union one byte on the wire but large in memory for
// the memory limit, and bytes for payload sizes.
const optionsSchema = `struct Node {
    next: ?Node,
}

union Cell {
    Empty,
    Full { a: [64]u64 },
}

struct Blob {
    cells: []Cell,
    data: []u8,
}
`

const unencodableMain = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "unenc.h"

static const uint8_t base_bytes[] = {BASE};
static const unenc_str bad_utf8 = {"a\xff" "b", 3};
static unenc_arena arena;

static void base(unenc_box* v) {
    unenc_arena_reset(&arena);
    if (unenc_box_decode(base_bytes, sizeof base_bytes, v, &arena) != UNENC_OK) {
        printf("check base the valid Box does not decode\n");
        exit(1);
    }
}

/* A write callback that counts what it is given. */
static size_t count_write(void* ctx, const uint8_t* buf, size_t n) {
    (void)buf;
    *(size_t*)ctx += n;
    return n;
}

/*
 * Prints "<case> <api> <rule> <quoted path>" for a result form, or what went
 * wrong: another code, bytes written, text not in the layout of docs/api.md.
 */
static void result(const char* name, const char* api, int rc, const unenc_encode_result* res, size_t wrote) {
    char text[UNENC_MAX_PATH + 200], want[UNENC_MAX_PATH + 200];
    if (rc == UNENC_OK) {
        printf("%s %s encoded\n", name, api);
        return;
    }
    if (rc != UNENC_ERR_ENCODE || res->error != rc || res->written != 0) {
        printf("%s %s code %d, result %d, written %zu\n", name, api, rc, res->error, res->written);
        return;
    }
    if (wrote != 0) {
        printf("%s %s wrote %zu bytes\n", name, api, wrote);
        return;
    }
    unenc_encode_error_text(res, text, sizeof text);
    if (res->path[0] != '\0') {
        snprintf(want, sizeof want, "%s in %s: ", res->rule, res->path);
    } else {
        snprintf(want, sizeof want, "%s: ", res->rule);
    }
    if (strncmp(text, want, strlen(want)) != 0 || strlen(text) == strlen(want)) {
        printf("%s %s text not in the layout: %s\n", name, api, text);
        return;
    }
    printf("%s %s %s \"%s\"\n", name, api, res->rule, res->path);
}

static void refused(const char* name, const char* api, int ok) {
    printf("%s %s %s\n", name, api, ok ? "refused" : "encoded");
}

static uint8_t out[1 << 16];

static void encode_all(const char* name, const unenc_box* v) {
    unenc_encode_result res;
    unenc_message m;
    unenc_message_writer w;
    size_t wrote = 0;
    int rc;
    memset(out, 0x5a, sizeof out);
    refused(name, "encoded_size", unenc_box_encoded_size(v) == SIZE_MAX);
    refused(name, "encoded_message_size", unenc_box_encoded_message_size(v) == SIZE_MAX);
    refused(name, "encode", unenc_box_encode(v, out, sizeof out) == 0);
    refused(name, "encode_message", unenc_box_encode_message(v, out, sizeof out) == 0);
    rc = unenc_box_encode_ex(v, out, sizeof out, &res);
    result(name, "encode_ex", rc, &res, 0);
    rc = unenc_box_encode_message_ex(v, out, sizeof out, &res);
    result(name, "encode_message_ex", rc, &res, 0);
    m.type_id = UNENC_BOX_TYPE_ID;
    m.value.box = *v;
    refused(name, "dispatch_encode_message", unenc_encode_message(&m, out, sizeof out) == 0);
    rc = unenc_encode_message_ex(&m, out, sizeof out, &res);
    result(name, "dispatch_encode_message_ex", rc, &res, 0);
    if (out[0] != 0x5a) {
        printf("check %s an encoder wrote into the buffer\n", name);
    }
    unenc_message_writer_init(&w, count_write, &wrote);
    rc = unenc_write_message_ex(&w, &m, &res);
    result(name, "write_message_ex", rc, &res, wrote);
    refused(name, "write_message", unenc_write_message(&w, &m) == UNENC_ERR_ENCODE && wrote == 0);
    unenc_message_writer_free(&w);
}

static void check(const char* name, int ok, const char* what) {
    printf("check %s %s\n", name, ok ? "ok" : what);
}

/* An encoding larger than size_t holds where it has 32 bits, or than a message's payload: two
 * views of 2^31 - 1 u16 ids (never read: the size is known from the counts). */
static void sizes(void) {
    static uint16_t one[1];
    unenc_box v;
    unenc_encode_result res;
    unenc_message m;
    unenc_message_writer w;
    size_t wrote = 0, n;
    int ok = 1;
    base(&v);
    unenc_item* items = (unenc_item*)(uintptr_t)v.items.data;
    items[0].ids.data = one;
    items[0].ids.len = 0x7fffffffu;
    items[1].ids.data = one;
    items[1].ids.len = 0x7fffffffu;
    m.type_id = UNENC_BOX_TYPE_ID;
    m.value.box = v;
    n = unenc_box_encoded_size(&v);
    unenc_message_writer_init(&w, count_write, &wrote);
    if (sizeof(size_t) == 4) {
        /* rule size, empty path, from every form */
        ok = n == SIZE_MAX && unenc_box_encode(&v, out, sizeof out) == 0 &&
             unenc_box_encode_ex(&v, out, sizeof out, &res) == UNENC_ERR_ENCODE && strcmp(res.rule, "size") == 0 &&
             res.path[0] == '\0' &&
             unenc_box_encode_message_ex(&v, out, sizeof out, &res) == UNENC_ERR_ENCODE &&
             strcmp(res.rule, "size") == 0 && res.path[0] == '\0' &&
             unenc_encode_message_ex(&m, out, sizeof out, &res) == UNENC_ERR_ENCODE && strcmp(res.rule, "size") == 0 &&
             unenc_write_message_ex(&w, &m, &res) == UNENC_ERR_ENCODE && strcmp(res.rule, "size") == 0 && wrote == 0;
    } else {
        /* the exact size (no wrap), the buffer too small for it, a payload over 4 GiB: rule message */
        ok = n != SIZE_MAX && n > (size_t)0xfffffffcu * 2 &&
             unenc_box_encode_ex(&v, out, sizeof out, &res) == UNENC_ERR_BUFFER && res.written == n &&
             unenc_box_encode_message_ex(&v, out, sizeof out, &res) == UNENC_ERR_ENCODE &&
             strcmp(res.rule, "message") == 0 && strcmp(res.path, "message") == 0 &&
             unenc_write_message_ex(&w, &m, &res) == UNENC_ERR_ENCODE && strcmp(res.rule, "message") == 0 &&
             wrote == 0;
    }
    unenc_message_writer_free(&w);
    check("size", ok, "an encoding past size_t or 4 GiB is not refused as it should be");
}

/* A writer refuses a payload over its maximum: rule message, path message, nothing written. */
static void writer_max(void) {
    unenc_box v;
    unenc_encode_result res;
    unenc_message m;
    unenc_message_writer w;
    char text[300];
    size_t wrote = 0;
    int rc;
    base(&v);
    m.type_id = UNENC_BOX_TYPE_ID;
    m.value.box = v;
    unenc_message_writer_init(&w, count_write, &wrote);
    w.max_size = unenc_box_encoded_size(&v) - 1;
    rc = unenc_write_message_ex(&w, &m, &res);
    unenc_encode_error_text(&res, text, sizeof text);
    check("writer_max", rc == UNENC_ERR_ENCODE && strcmp(res.rule, "message") == 0 &&
          strcmp(res.path, "message") == 0 && wrote == 0 && strncmp(text, "message in message: ", 20) == 0,
          text);
    w.max_size = unenc_box_encoded_size(&v);
    rc = unenc_write_message_ex(&w, &m, &res);
    check("writer_max_exact", rc == UNENC_OK && res.written == wrote && wrote == unenc_box_encoded_message_size(&v),
          "a payload of max_size bytes is not written");
    unenc_message_writer_free(&w);
}

/* A writer's and a reader's max_size 0 is the default, 64 MiB. */
static void max_0(void) {
    size_t big = OPTS_DEFAULT_MAX_MESSAGE_SIZE - 8, wrote = 0;
    uint8_t* data = (uint8_t*)calloc(big + 1, 1);
    opts_message m;
    opts_message_writer w;
    opts_encode_result res;
    int ok;
    if (data == NULL) {
        check("writer_max_0", 0, "out of memory");
        return;
    }
    memset(&m, 0, sizeof m);
    m.type_id = OPTS_BLOB_TYPE_ID;
    m.value.blob.data.data = data;
    m.value.blob.data.len = (uint32_t)big;
    opts_message_writer_init(&w, count_write, &wrote);
    w.max_size = 0;
    ok = opts_write_message_ex(&w, &m, &res) == OPTS_OK && wrote == OPTS_MESSAGE_HEADER_SIZE + big + 8;
    m.value.blob.data.len++;
    wrote = 0;
    ok = ok && opts_write_message_ex(&w, &m, &res) == OPTS_ERR_ENCODE && strcmp(res.rule, "message") == 0 && wrote == 0;
    opts_message_writer_free(&w);
    check("writer_max_0", ok, "max_size 0 is not 64 MiB");
    free(data);
}

/* The reader: a header declaring 64 MiB + 1 is refused from the header alone; 64 MiB is read. */
typedef struct source {
    const uint8_t* data;
    size_t len;
} source;

static size_t source_read(void* ctx, uint8_t* buf, size_t n) {
    source* s = (source*)ctx;
    if (n > s->len) {
        n = s->len;
    }
    memcpy(buf, s->data, n);
    s->data += n;
    s->len -= n;
    return n;
}

static void reader_max_0(void) {
    size_t payload = OPTS_DEFAULT_MAX_MESSAGE_SIZE;
    uint8_t* data = (uint8_t*)calloc(payload, 1);
    uint8_t* msg = (uint8_t*)malloc(payload + OPTS_MESSAGE_HEADER_SIZE);
    opts_arena heap;
    opts_message_reader r;
    opts_stream_result res;
    opts_message m;
    opts_blob b;
    source src;
    int ok;
    if (msg == NULL || data == NULL) {
        check("reader_max_0", 0, "out of memory");
        free(msg);
        free(data);
        return;
    }
    memset(&b, 0, sizeof b);
    b.data.data = data;
    b.data.len = (uint32_t)(payload - 8);
    if (opts_blob_encode_message(&b, msg, payload + OPTS_MESSAGE_HEADER_SIZE) != payload + OPTS_MESSAGE_HEADER_SIZE) {
        check("reader_max_0", 0, "cannot encode 64 MiB");
        free(msg);
        free(data);
        return;
    }
    opts_arena_init_heap(&heap);
    src.data = msg;
    src.len = payload + OPTS_MESSAGE_HEADER_SIZE;
    opts_message_reader_init(&r, source_read, &src, &heap);
    r.max_size = 0;
    ok = opts_read_message(&r, &m, &res) == OPTS_OK;
    opts_message_reader_free(&r);
    msg[6] = 1; /* a payload length of 64 MiB + 1 */
    src.data = msg;
    src.len = OPTS_MESSAGE_HEADER_SIZE;
    opts_message_reader_init(&r, source_read, &src, &heap);
    r.max_size = 0;
    ok = ok && opts_read_message(&r, &m, &res) == OPTS_ERR_MESSAGE && res.offset == 6;
    opts_message_reader_free(&r);
    opts_arena_free(&heap);
    free(msg);
    free(data);
    check("reader_max_0", ok, "max_size 0 is not 64 MiB");
}

/* max_depth 0 is the default, 64. */
static void depth_0(void) {
    opts_node nodes[66];
    uint8_t buf[192];
    opts_arena heap;
    opts_decode_options opt;
    opts_node v;
    size_t n64, n65;
    int i, ok;
    memset(nodes, 0, sizeof nodes);
    for (i = 0; i < 65; i++) {
        nodes[i].next = &nodes[i + 1];
    }
    nodes[63].next = NULL;
    n64 = opts_node_encode(&nodes[0], buf, sizeof buf);
    nodes[63].next = &nodes[64];
    nodes[64].next = NULL;
    n65 = opts_node_encode(&nodes[0], buf + 64, sizeof buf - 64);
    memset(&opt, 0, sizeof opt);
    opts_arena_init_heap(&heap);
    ok = n64 == 64 && n65 == 65 && opts_node_decode_ex(buf, n64, &v, &heap, &opt, NULL) == OPTS_OK &&
         opts_node_decode_ex(buf + 64, n65, &v, &heap, &opt, NULL) == OPTS_ERR_DEPTH;
    opts_arena_free(&heap);
    check("depth_0", ok, "max_depth 0 is not 64");
}

/* memory_limit 0 is the default, 32 * input + 1 MiB: a Blob of k cells (one byte each, charged as a Full cell). */
static void memory_0(void) {
    static opts_cell cells[10000];
    static uint8_t buf[10100];
    opts_arena heap;
    opts_decode_options opt;
    opts_blob b, v;
    int ok = 1, i;
    size_t ks[2] = {1000, 10000};
    memset(&b, 0, sizeof b);
    b.cells.data = cells;
    opts_arena_init_heap(&heap);
    for (i = 0; i < 2; i++) {
        size_t n;
        int rc0, rc_set;
        b.cells.len = (uint32_t)ks[i];
        n = opts_blob_encode(&b, buf, sizeof buf);
        memset(&opt, 0, sizeof opt);
        rc0 = opts_blob_decode_ex(buf, n, &v, &heap, &opt, NULL);
        opt.memory_limit = 32u * (uint64_t)n + 1048576u;
        rc_set = opts_blob_decode_ex(buf, n, &v, &heap, &opt, NULL);
        ok = ok && n != 0 && rc0 == rc_set && (i == 0 ? rc0 == OPTS_OK : rc0 == OPTS_ERR_MEMORY);
        opts_arena_reset(&heap);
    }
    opts_arena_free(&heap);
    check("memory_0", ok, "memory_limit 0 is not 32 * input + 1 MiB");
}

int main(void) {
    unenc_box v;
    unenc_arena_init_heap(&arena);
    base(&v);
    {
CASES    }
    sizes();
    writer_max();
    max_0();
    reader_max_0();
    depth_0();
    memory_0();
    unenc_arena_free(&arena);
    return 0;
}
`
