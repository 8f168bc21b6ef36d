/*
 * Tests of the generated C API beyond the conformance corpus: arenas (fixed
 * buffers running out at every size, heap growth and reuse, alignment),
 * _decode_ex options and error offsets, messages, the stream reader and
 * writer, the schema check (hello), errors, enum names, and values built by hand. Built with sanitizers by api_test.go; the corpus
 * vectors it reads are passed as arguments.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enums_unions.h"
#include "messages.h"
#include "plugins.h"
#include "recursive.h"

static int failures;

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

static uint8_t* read_file(const char* path, size_t* len) {
    FILE* f = fopen(path, "rb");
    uint8_t* buf;
    long n;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    buf = (uint8_t*)malloc((size_t)n + 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

struct align_probe {
    char c;
    long double x;
};

/* A fixed arena of every size from 0 up: NO_MEMORY until the value fits, then the same value. */
static void test_fixed_arena_exhaustion(const uint8_t* reg, size_t len) {
    plugins_arena heap;
    plugins_plugin_registry v;
    uint8_t* want;
    size_t want_len, need, cap, first_ok = 0;
    int seen_ok = 0;
    plugins_arena_init_heap(&heap);
    CHECK(plugins_plugin_registry_decode(reg, len, &v, &heap) == PLUGINS_OK);
    need = plugins_arena_used(&heap);
    want_len = plugins_plugin_registry_encoded_size(&v);
    want = (uint8_t*)malloc(want_len);
    CHECK(want != NULL && plugins_plugin_registry_encode(&v, want, want_len) == want_len);
    CHECK(want_len == len && memcmp(want, reg, len) == 0);
    plugins_arena_free(&heap);
    for (cap = 0; cap <= need + 4096; cap += cap < 4096 ? 1 : 251) {
        plugins_arena a;
        plugins_plugin_registry w;
        void* mem = malloc(cap == 0 ? 1 : cap);
        int rc;
        plugins_arena_init(&a, mem, cap);
        rc = plugins_plugin_registry_decode(reg, len, &w, &a);
        if (rc == PLUGINS_OK) {
            uint8_t* again = (uint8_t*)malloc(want_len);
            if (!seen_ok) {
                first_ok = cap;
            }
            seen_ok = 1;
            CHECK(plugins_arena_used(&a) <= cap);
            CHECK(plugins_plugin_registry_encode(&w, again, want_len) == want_len);
            CHECK(memcmp(again, want, want_len) == 0);
            free(again);
        } else {
            CHECK(rc == PLUGINS_ERR_NO_MEMORY);
            CHECK(!seen_ok);
        }
        plugins_arena_free(&a);
        free(mem);
    }
    CHECK(seen_ok);
    CHECK(first_ok <= need + 1024);
    free(want);
}

/* Deep recursion with a fixed arena of every size. */
static void test_fixed_arena_recursive(const uint8_t* tree, size_t len) {
    size_t cap;
    int seen_ok = 0;
    for (cap = 0; cap < 8192; cap++) {
        recursive_arena a;
        recursive_tree t;
        void* mem = malloc(cap == 0 ? 1 : cap);
        int rc;
        recursive_arena_init(&a, mem, cap);
        rc = recursive_tree_decode(tree, len, &t, &a);
        CHECK(rc == RECURSIVE_OK || rc == RECURSIVE_ERR_NO_MEMORY);
        CHECK(!(seen_ok && rc != RECURSIVE_OK));
        seen_ok = seen_ok || rc == RECURSIVE_OK;
        recursive_arena_free(&a);
        free(mem);
    }
    CHECK(seen_ok);
}

static void test_heap_arena(const uint8_t* reg, size_t len) {
    plugins_arena a;
    size_t align = offsetof(struct align_probe, x);
    unsigned char buf[256];
    int i;
    void* p;
    plugins_arena_init_heap(&a);
    CHECK(plugins_arena_used(&a) == 0);
    for (i = 0; i < 5; i++) {
        plugins_plugin_registry v;
        CHECK(plugins_plugin_registry_decode(reg, len, &v, &a) == PLUGINS_OK);
        CHECK(v.plugins.len == 62);
        CHECK(v.plugins.data[61].name.data[v.plugins.data[61].name.len] == '\0');
        CHECK(plugins_arena_used(&a) > len / 2);
        plugins_arena_reset(&a);
        CHECK(plugins_arena_used(&a) == 0);
    }
    p = plugins_arena_alloc(&a, 1);
    CHECK(p != NULL && (uintptr_t)p % align == 0);
    p = plugins_arena_alloc(&a, 3);
    CHECK(p != NULL && (uintptr_t)p % align == 0);
    p = plugins_arena_alloc(&a, (size_t)1 << 22);
    CHECK(p != NULL);
    memset(p, 0xAB, (size_t)1 << 22);
    p = plugins_arena_alloc(&a, 16);
    CHECK(p != NULL && (uintptr_t)p % align == 0);
    CHECK(plugins_arena_used(&a) >= ((size_t)1 << 22) + 20);
    plugins_arena_free(&a);

    /* A misaligned caller buffer still gives aligned memory. */
    plugins_arena_init(&a, buf + 1, sizeof buf - 1);
    p = plugins_arena_alloc(&a, 8);
    CHECK(p != NULL && (uintptr_t)p % align == 0);
    CHECK(plugins_arena_alloc(&a, sizeof buf) == NULL);
    plugins_arena_reset(&a);
    CHECK(plugins_arena_alloc(&a, 100) != NULL);
    plugins_arena_free(&a);
    plugins_arena_init(&a, NULL, 0);
    CHECK(plugins_arena_alloc(&a, 1) == NULL);
}

static void test_decode_ex(const uint8_t* reg, size_t len, const uint8_t* deep, size_t deep_len) {
    plugins_arena a;
    plugins_plugin_registry v;
    plugins_decode_options opt;
    plugins_decode_result res;
    uint8_t* longer = (uint8_t*)malloc(len + 3);
    recursive_arena ra;
    recursive_tree t;
    recursive_decode_options ropt;
    recursive_decode_result rres;

    plugins_arena_init_heap(&a);
    memcpy(longer, reg, len);
    memset(longer + len, 0, 3);
    memset(&opt, 0, sizeof opt);
    CHECK(plugins_plugin_registry_decode_ex(longer, len + 3, &v, &a, &opt, &res) == PLUGINS_ERR_TRAILING);
    CHECK(res.error == PLUGINS_ERR_TRAILING && res.offset == len && res.path[0] == '\0');
    opt.allow_trailing = 1;
    CHECK(plugins_plugin_registry_decode_ex(longer, len + 3, &v, &a, &opt, &res) == PLUGINS_OK);
    CHECK(res.error == 0 && res.consumed == len);
    CHECK(plugins_plugin_registry_decode(reg, len - 1, &v, &a) == PLUGINS_ERR_TRUNCATED);
    CHECK(plugins_plugin_registry_decode_ex(reg, 3, &v, &a, NULL, &res) == PLUGINS_ERR_TRUNCATED);
    CHECK(res.offset == 0 && strcmp(res.path, "plugins") == 0);
    /* 62 plugins cannot fit in 2 bytes. */
    CHECK(plugins_plugin_registry_decode_ex(reg, 6, &v, &a, NULL, &res) == PLUGINS_ERR_COUNT);
    CHECK(res.offset == 0);
    CHECK(plugins_plugin_registry_decode(NULL, 0, &v, &a) == PLUGINS_ERR_TRUNCATED);
    /* A count that the input cannot hold fails before allocating. */
    {
        static const uint8_t huge[12] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
        size_t before = plugins_arena_used(&a);
        CHECK(plugins_plugin_registry_decode_ex(huge, sizeof huge, &v, &a, NULL, &res) == PLUGINS_ERR_COUNT);
        CHECK(res.offset == 0 && plugins_arena_used(&a) == before);
    }
    plugins_arena_free(&a);
    free(longer);

    recursive_arena_init_heap(&ra);
    CHECK(recursive_tree_decode(deep, deep_len, &t, &ra) == RECURSIVE_OK);
    memset(&ropt, 0, sizeof ropt);
    ropt.max_depth = 64;
    CHECK(recursive_tree_decode_ex(deep, deep_len, &t, &ra, &ropt, &rres) == RECURSIVE_OK);
    ropt.max_depth = 63;
    CHECK(recursive_tree_decode_ex(deep, deep_len, &t, &ra, &ropt, &rres) == RECURSIVE_ERR_DEPTH);
    CHECK(rres.offset > 0 && rres.offset < deep_len);
    CHECK(strncmp(rres.path, "children[0].children[0].children[", 33) == 0);
    CHECK(strlen(rres.path) == 63 * strlen("children[0].") - 1);
    /* A path longer than RECURSIVE_MAX_PATH - 1 characters is cut: "..." and its end. */
    {
        enum { levels = 600 }; /* a path of 2999 characters */
        static uint8_t chain[5 * levels];
        recursive_node node;
        size_t k;
        for (k = 0; k < levels; k++) {
            chain[5 * k + 4] = 1; /* value "" and a next */
        }
        ropt.max_depth = 1000;
        CHECK(recursive_node_decode_ex(chain, sizeof chain - 1, &node, &ra, &ropt, &rres) == RECURSIVE_ERR_TRUNCATED);
        CHECK(rres.offset == sizeof chain - 1);
        CHECK(strlen(rres.path) == RECURSIVE_MAX_PATH - 1 && strncmp(rres.path, "...", 3) == 0);
        CHECK(strcmp(rres.path + strlen(rres.path) - 10, ".next.next") == 0);
    }
    ropt.max_depth = 1000;
    CHECK(recursive_tree_decode_ex(deep, deep_len, &t, &ra, &ropt, &rres) == RECURSIVE_OK);
    recursive_arena_free(&ra);
}

/* (double) literals: with -m32, x87 evaluates a bare 3.14 in long double (FLT_EVAL_METHOD 2). */
static void test_messages(void) {
    static const uint8_t point_msg[26] = {0x53, 0x44, 0x50, 0x32, 0x01, 0x00, 0x10, 0x00, 0x00,
                                          0x00, 0x1f, 0x85, 0xeb, 0x51, 0xb8, 0x1e, 0x09, 0x40,
                                          0xae, 0x47, 0xe1, 0x7a, 0x14, 0xae, 0x05, 0x40};
    messages_point pt;
    messages_message m;
    messages_arena a;
    messages_decode_result res;
    uint8_t buf[64];
    uint16_t id;
    uint32_t plen;

    pt.x = 3.14;
    pt.y = 2.71;
    CHECK(messages_point_encoded_message_size(&pt) == 26);
    CHECK(messages_point_encode_message(&pt, buf, 25) == 0);
    CHECK(messages_point_encode_message(&pt, buf, sizeof buf) == 26);
    CHECK(memcmp(buf, point_msg, 26) == 0);
    CHECK(messages_point_encode(&pt, buf, sizeof buf) == 16);
    CHECK(memcmp(buf, point_msg + 10, 16) == 0);
    {
        /* _encode_ex: a status, and the size written or needed. */
        messages_encode_result er;
        char text[256];
        memset(buf, 0xAA, sizeof buf);
        CHECK(messages_point_encode_ex(&pt, buf, 15, &er) == MESSAGES_ERR_BUFFER && er.written == 16 && buf[0] == 0xAA);
        CHECK(er.error == MESSAGES_ERR_BUFFER && strcmp(er.rule, "") == 0);
        messages_encode_error_text(&er, text, sizeof text);
        CHECK(strcmp(text, "buffer: the buffer is smaller than the encoding") == 0);
        CHECK(messages_point_encode_ex(&pt, buf, 16, &er) == MESSAGES_OK && er.written == 16 && er.error == 0);
        CHECK(messages_point_encode_ex(&pt, buf, 16, NULL) == MESSAGES_OK);
        CHECK(memcmp(buf, point_msg + 10, 16) == 0);
        CHECK(messages_point_encode_message_ex(&pt, buf, 25, &er) == MESSAGES_ERR_BUFFER && er.written == 26);
        CHECK(messages_point_encode_message_ex(&pt, buf, 26, &er) == MESSAGES_OK && er.written == 26);
        CHECK(memcmp(buf, point_msg, 26) == 0);
        CHECK(strcmp(messages_strerror(MESSAGES_ERR_BUFFER), "buffer: the buffer is smaller than the encoding") == 0);
    }

    CHECK(messages_read_message_header(point_msg, 26, &id, &plen) == MESSAGES_OK);
    CHECK(id == MESSAGES_POINT_TYPE_ID && plen == 16);
    CHECK(messages_read_message_header(point_msg, 9, &id, &plen) == MESSAGES_ERR_TRUNCATED);

    messages_arena_init_heap(&a);
    CHECK(messages_decode_message(point_msg, 26, &m, &a) == MESSAGES_OK);
    CHECK(m.type_id == MESSAGES_POINT_TYPE_ID && m.value.point.x == (double)3.14 && m.value.point.y == (double)2.71);
    CHECK(messages_encoded_message_size(&m) == 26);
    CHECK(messages_encode_message(&m, buf, sizeof buf) == 26 && memcmp(buf, point_msg, 26) == 0);
    m.type_id = 7;
    CHECK(messages_encoded_message_size(&m) == SIZE_MAX && messages_encode_message(&m, buf, sizeof buf) == 0);
    {
        /* A message of no struct: rule message, path message. */
        messages_encode_result er;
        CHECK(messages_encode_message_ex(&m, buf, sizeof buf, &er) == MESSAGES_ERR_ENCODE && er.written == 0);
        CHECK(strcmp(er.rule, "message") == 0 && strcmp(er.path, "message") == 0);
        m.type_id = MESSAGES_POINT_TYPE_ID;
        CHECK(messages_encode_message_ex(&m, buf, 20, &er) == MESSAGES_ERR_BUFFER && er.written == 26);
        m.type_id = 7;
    }

    memcpy(buf, point_msg, 26);
    buf[3] = '1';
    CHECK(messages_decode_message(buf, 26, &m, &a) == MESSAGES_ERR_MESSAGE);
    buf[3] = '2';
    buf[4] = 9; /* no such type */
    CHECK(messages_decode_message_ex(buf, 26, &m, &a, NULL, &res) == MESSAGES_ERR_MESSAGE);
    CHECK(res.offset == 4 && strcmp(res.path, "message") == 0);
    buf[4] = 1;
    CHECK(messages_decode_message(buf, 25, &m, &a) == MESSAGES_ERR_MESSAGE);
    CHECK(messages_decode_message(buf, 9, &m, &a) == MESSAGES_ERR_TRUNCATED);
    CHECK(messages_ping_decode_message(buf, 26, &m.value.ping, &a) == MESSAGES_ERR_MESSAGE);
    CHECK(messages_point_decode_message(buf, 26, &pt, &a) == MESSAGES_OK && pt.y == (double)2.71);
    {
        messages_last last;
        uint8_t lbuf[16];
        CHECK(messages_last_encoded_size(&last) == 0);
        CHECK(messages_last_decode(NULL, 0, &last, &a) == MESSAGES_OK);
        CHECK(messages_last_encode_message(&last, lbuf, sizeof lbuf) == 10);
        {
            /* An empty encoding is no error for _encode_ex (_encode returns 0 for both). */
            messages_encode_result er;
            CHECK(messages_last_encode_ex(&last, NULL, 0, &er) == MESSAGES_OK && er.written == 0);
        }
        CHECK(lbuf[4] == 0xff && lbuf[5] == 0xff);
        CHECK(messages_last_decode_message(lbuf, 10, &last, &a) == MESSAGES_OK);
    }
    messages_arena_free(&a);
}

/* A stream source over memory, handing out at most 3 bytes per call. */
typedef struct mem_source {
    const uint8_t* data;
    size_t len;
} mem_source;

static size_t mem_read(void* ctx, uint8_t* buf, size_t n) {
    mem_source* s = (mem_source*)ctx;
    n = n < s->len ? n : s->len;
    n = n < 3 ? n : 3;
    memcpy(buf, s->data, n);
    s->data += n;
    s->len -= n;
    return n;
}

/* A sink of a fixed capacity: writes past it fail (return 0). */
typedef struct mem_sink {
    uint8_t data[128];
    size_t len;
} mem_sink;

static size_t mem_write(void* ctx, const uint8_t* buf, size_t n) {
    mem_sink* s = (mem_sink*)ctx;
    if (n > sizeof s->data - s->len) {
        return 0;
    }
    memcpy(s->data + s->len, buf, n);
    s->len += n;
    return n;
}

static void test_streams(void) {
    static const uint8_t point_msg[26] = {0x53, 0x44, 0x50, 0x32, 0x01, 0x00, 0x10, 0x00, 0x00,
                                          0x00, 0x1f, 0x85, 0xeb, 0x51, 0xb8, 0x1e, 0x09, 0x40,
                                          0xae, 0x47, 0xe1, 0x7a, 0x14, 0xae, 0x05, 0x40};
    uint8_t stream[3 * 26 + 4];
    messages_arena a;
    messages_message_reader r;
    messages_message_writer w;
    messages_stream_result res;
    messages_message m;
    mem_source src;
    mem_sink sink;
    int i;

    /* A point, a message of unknown type id 9, a point, a cut header. */
    memcpy(stream, point_msg, 26);
    memcpy(stream + 26, point_msg, 26);
    stream[26 + 4] = 9;
    memcpy(stream + 52, point_msg, 26);
    memcpy(stream + 78, "SDP2", 4);
    messages_arena_init_heap(&a);
    src.data = stream;
    src.len = 78;
    messages_message_reader_init(&r, mem_read, &src, &a);
    CHECK(r.max_size == MESSAGES_DEFAULT_MAX_MESSAGE_SIZE);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK);
    CHECK(res.error == 0 && res.index == 0 && res.start == 0 && m.type_id == MESSAGES_POINT_TYPE_ID);
    CHECK(m.value.point.y == (double)2.71);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_MESSAGE);
    CHECK(res.index == 1 && res.offset == 30 && res.start == 26 && res.skipped && strcmp(res.path, "message") == 0);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK && res.index == 2 && res.start == 52);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_END && res.index == 3 && res.error == MESSAGES_END);
    CHECK(messages_read_message(&r, &m, NULL) == MESSAGES_END);
    messages_message_reader_free(&r);

    /* The cut header: truncated at its start, and it sticks. */
    src.data = stream + 52;
    src.len = 30;
    messages_message_reader_init(&r, mem_read, &src, &a);
    CHECK(messages_read_message(&r, &m, NULL) == MESSAGES_OK);
    for (i = 0; i < 2; i++) {
        CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_TRUNCATED);
        CHECK(res.index == 1 && res.offset == 26 && !res.skipped);
    }
    messages_message_reader_free(&r);

    /* A payload over max_size is refused at its length field, before it is read. */
    src.data = stream;
    src.len = 78;
    messages_message_reader_init(&r, mem_read, &src, &a);
    r.max_size = 15;
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_MESSAGE && res.offset == 6 && !res.skipped);
    CHECK(src.len == 68);
    messages_message_reader_free(&r);

    /* A payload its decoder rejects: the decoder's offset plus the message's start. */
    memcpy(stream + 26, point_msg, 26);
    stream[26 + 6] = 15; /* the header says 15 bytes: y is cut at payload offset 8 */
    src.data = stream;
    src.len = 26 + 25;
    messages_message_reader_init(&r, mem_read, &src, &a);
    CHECK(messages_read_message(&r, &m, NULL) == MESSAGES_OK);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_TRUNCATED);
    CHECK(res.index == 1 && res.offset == 26 + 18 && res.skipped);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_END && res.index == 2);
    messages_message_reader_free(&r);

    /* The writer. */
    sink.len = 0;
    messages_message_writer_init(&w, mem_write, &sink);
    CHECK(w.max_size == MESSAGES_DEFAULT_MAX_MESSAGE_SIZE);
    m.type_id = MESSAGES_POINT_TYPE_ID;
    m.value.point.x = 3.14;
    m.value.point.y = 2.71;
    /* A payload over max_size is refused and nothing is written: rule message, path message. */
    w.max_size = 15;
    CHECK(messages_write_message(&w, &m) == MESSAGES_ERR_ENCODE && sink.len == 0);
    {
        messages_encode_result er;
        char text[256];
        CHECK(messages_write_message_ex(&w, &m, &er) == MESSAGES_ERR_ENCODE && sink.len == 0);
        CHECK(strcmp(er.rule, "message") == 0 && strcmp(er.path, "message") == 0);
        messages_encode_error_text(&er, text, sizeof text);
        CHECK(strncmp(text, "message in message: ", 20) == 0);
    }
    w.max_size = 16;
    for (i = 0; i < 4; i++) {
        CHECK(messages_write_message(&w, &m) == MESSAGES_OK);
    }
    CHECK(sink.len == 104 && memcmp(sink.data + 78, point_msg, 26) == 0);
    CHECK(messages_write_message(&w, &m) == MESSAGES_ERR_WRITE);
    m.type_id = 7;
    CHECK(messages_write_message(&w, &m) == MESSAGES_ERR_ENCODE);
    messages_message_writer_free(&w);
    messages_arena_free(&a);
}

/* The schema check: a hello written, read, refused when it differs or is missing. */
static void test_hello(void) {
    static const uint8_t point_msg[26] = {0x53, 0x44, 0x50, 0x32, 0x01, 0x00, 0x10, 0x00, 0x00,
                                          0x00, 0x1f, 0x85, 0xeb, 0x51, 0xb8, 0x1e, 0x09, 0x40,
                                          0xae, 0x47, 0xe1, 0x7a, 0x14, 0xae, 0x05, 0x40};
    static const uint16_t ids[4] = {MESSAGES_POINT_TYPE_ID, MESSAGES_PONG_TYPE_ID, MESSAGES_PING_TYPE_ID,
                                    MESSAGES_LAST_TYPE_ID};
    static const uint64_t fingerprints[4] = {MESSAGES_POINT_FINGERPRINT, MESSAGES_PONG_FINGERPRINT,
                                             MESSAGES_PING_FINGERPRINT, MESSAGES_LAST_FINGERPRINT};
    const size_t hello_len = 10 + 4 + 4 * 10;
    uint8_t changed[128];
    char text[256], want[256];
    messages_arena a;
    messages_message_reader r;
    messages_message_writer w;
    messages_stream_result res;
    messages_message m;
    messages_point p;
    mem_source src;
    mem_sink sink;
    size_t i, ping = 0, n;
    uint16_t prev = 0;

    /* The writer: a hello listing every struct by type id, then two points. */
    messages_arena_init_heap(&a);
    sink.len = 0;
    messages_message_writer_init(&w, mem_write, &sink);
    CHECK(messages_write_hello(&w) == MESSAGES_OK);
    CHECK(sink.len == hello_len);
    CHECK(memcmp(sink.data, "SDP2\0\0", 6) == 0 && sink.data[6] == 44 && sink.data[10] == 4);
    for (i = 0; i < 4; i++) {
        const uint8_t* e = sink.data + 14 + 10 * i;
        uint16_t id = (uint16_t)(e[0] | e[1] << 8);
        uint64_t fp = 0;
        size_t k, j;
        for (k = 0; k < 8; k++) {
            fp |= (uint64_t)e[2 + k] << (8 * k);
        }
        CHECK(id > prev);
        prev = id;
        for (j = 0; j < 4 && ids[j] != id; j++) {
        }
        CHECK(j < 4 && fingerprints[j] == fp);
        if (id == MESSAGES_PING_TYPE_ID) {
            ping = i;
        }
    }
    messages_point_init(&p);
    p.x = 3.14;
    p.y = 2.71;
    m.type_id = MESSAGES_POINT_TYPE_ID;
    m.value.point = p;
    CHECK(messages_write_message(&w, &m) == MESSAGES_OK);
    CHECK(messages_write_message(&w, &m) == MESSAGES_OK);
    CHECK(sink.len == hello_len + 52 && memcmp(sink.data + hello_len, point_msg, 26) == 0);
    messages_message_writer_free(&w);

    /* A reader that requires the hello: it is checked, not returned. */
    src.data = sink.data;
    src.len = sink.len;
    messages_message_reader_init(&r, mem_read, &src, &a);
    r.require_hello = 1;
    CHECK(!messages_message_reader_schema_checked(&r));
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK);
    CHECK(res.index == 1 && res.start == hello_len && m.type_id == MESSAGES_POINT_TYPE_ID);
    CHECK(messages_message_reader_schema_checked(&r));
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK && res.index == 2);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_END && res.index == 3);
    messages_message_reader_free(&r);

    /* Another version of Ping: refused with rule schema at its fingerprint, naming it; it sticks. */
    memcpy(changed, sink.data, sink.len);
    changed[14 + 10 * ping + 2 + 5] ^= 1;
    src.data = changed;
    src.len = sink.len;
    messages_message_reader_init(&r, mem_read, &src, &a);
    for (i = 0; i < 2; i++) {
        CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_SCHEMA && m.type_id == 0);
        CHECK(res.index == 0 && res.offset == 14 + 10 * ping + 2 && !res.skipped);
        CHECK(res.schema_type_id == MESSAGES_PING_TYPE_ID);
        CHECK(res.writer_fingerprint == (MESSAGES_PING_FINGERPRINT ^ ((uint64_t)1 << 40)));
    }
    CHECK(!messages_message_reader_schema_checked(&r));
    n = messages_stream_error_text(&res, text, sizeof text);
    snprintf(want, sizeof want,
             "message 0 at stream offset 0: schema at offset %u in message: the writer's schema has another "
             "version of Ping (type id %u): fingerprint %016llx, here %016llx; run `sdp compat` on the two schemas",
             (unsigned)(14 + 10 * ping + 2), (unsigned)MESSAGES_PING_TYPE_ID,
             (unsigned long long)res.writer_fingerprint, (unsigned long long)MESSAGES_PING_FINGERPRINT);
    CHECK(strcmp(text, want) == 0 && n == strlen(want));
    /* Cut to the buffer, the full length returned. */
    CHECK(messages_stream_error_text(&res, text, 8) == n && strcmp(text, "message") == 0);
    CHECK(messages_stream_error_text(&res, NULL, 0) == n);
    messages_message_reader_free(&r);

    /* A reader that requires a hello refuses a stream without one at offset 4 of message 0. */
    src.data = point_msg;
    src.len = 26;
    messages_message_reader_init(&r, mem_read, &src, &a);
    r.require_hello = 1;
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_SCHEMA);
    CHECK(res.index == 0 && res.offset == 4 && !res.skipped && res.schema_type_id == 0);
    messages_stream_error_text(&res, text, sizeof text);
    CHECK(strcmp(text, "message 0 at stream offset 0: schema at offset 4 in message: the stream does not start "
                       "with a hello (type id 0), and this reader requires one") == 0);
    messages_message_reader_free(&r);
    /* ... but not an empty stream; and without require_hello the stream is read, unchecked. */
    src.len = 0;
    messages_message_reader_init(&r, mem_read, &src, &a);
    r.require_hello = 1;
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_END && res.index == 0);
    messages_message_reader_free(&r);
    src.data = point_msg;
    src.len = 26;
    messages_message_reader_init(&r, mem_read, &src, &a);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK && res.index == 0);
    CHECK(!messages_message_reader_schema_checked(&r));
    messages_message_reader_free(&r);

    /* A hello after the first message is an unknown type id: rule message at its type id, skipped. */
    memcpy(changed, point_msg, 26);
    memcpy(changed + 26, sink.data, hello_len);
    src.data = changed;
    src.len = 26 + hello_len;
    messages_message_reader_init(&r, mem_read, &src, &a);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_OK);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_ERR_MESSAGE);
    CHECK(res.index == 1 && res.offset == 26 + 4 && res.skipped);
    CHECK(messages_read_message(&r, &m, &res) == MESSAGES_END && res.index == 2);
    messages_message_reader_free(&r);
    messages_arena_free(&a);
}

static void test_errors(void) {
    int codes[] = {PLUGINS_ERR_TRUNCATED, PLUGINS_ERR_TRAILING, PLUGINS_ERR_BOOL, PLUGINS_ERR_PRESENCE,
                   PLUGINS_ERR_ENUM, PLUGINS_ERR_UNION_TAG, PLUGINS_ERR_UTF8, PLUGINS_ERR_COUNT,
                   PLUGINS_ERR_DEPTH, PLUGINS_ERR_MESSAGE, PLUGINS_ERR_NO_MEMORY, PLUGINS_ERR_MEMORY,
                   PLUGINS_ERR_ENCODE, PLUGINS_ERR_WRITE};
    size_t i, j;
    for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        CHECK(codes[i] < 0);
        CHECK(strcmp(plugins_strerror(codes[i]), "unknown error") != 0);
        for (j = 0; j < i; j++) {
            CHECK(codes[i] != codes[j] && strcmp(plugins_strerror(codes[i]), plugins_strerror(codes[j])) != 0);
        }
    }
    CHECK(strcmp(plugins_strerror(0), "ok") == 0);
    CHECK(strcmp(plugins_strerror(-99), "unknown error") == 0);
    CHECK(strncmp(plugins_strerror(PLUGINS_ERR_UNION_TAG), "union_tag:", 10) == 0);
    CHECK(strncmp(plugins_strerror(PLUGINS_END), "end:", 4) == 0);
}

static void test_enums_unions(void) {
    enums_unions_unions u;
    enums_unions_shape shapes[2];
    enums_unions_unions back;
    enums_unions_arena a;
    uint8_t buf[128];
    size_t n;
    CHECK(strcmp(enums_unions_small_name(ENUMS_UNIONS_SMALL_TWO), "Two") == 0);
    CHECK(enums_unions_small_name(3) == NULL);
    CHECK(strcmp(enums_unions_sparse_name(ENUMS_UNIONS_SPARSE_BIG), "Big") == 0);
    CHECK(enums_unions_wide_name(ENUMS_UNIONS_WIDE_MAX) != NULL);

    memset(&u, 0, sizeof u);
    u.shape.tag = ENUMS_UNIONS_SHAPE_RECT;
    u.shape.value.rect.width = 2.0f;
    u.shape.value.rect.height = 3.0f;
    shapes[0].tag = ENUMS_UNIONS_SHAPE_LABEL;
    shapes[0].value.label.text.data = "hi";
    shapes[0].value.label.text.len = 2;
    shapes[1].tag = ENUMS_UNIONS_SHAPE_NONE;
    u.shapes.data = shapes;
    u.shapes.len = 2;
    u.nested.tag = ENUMS_UNIONS_NESTED_LEAF;
    u.nested.value.leaf.value = ENUMS_UNIONS_SMALL_ONE;
    u.maybe.has = true;
    u.maybe.value.tag = ENUMS_UNIONS_SHAPE_MARKER;
    n = enums_unions_unions_encoded_size(&u);
    CHECK(n == 9 + 4 + 7 + 1 + 2 + 2 && enums_unions_unions_encode(&u, buf, sizeof buf) == n);
    enums_unions_arena_init(&a, NULL, 0);
    CHECK(enums_unions_unions_decode(buf, n, &back, &a) == ENUMS_UNIONS_ERR_NO_MEMORY);
    enums_unions_arena_init_heap(&a);
    CHECK(enums_unions_unions_decode(buf, n, &back, &a) == ENUMS_UNIONS_OK);
    CHECK(back.shapes.len == 2 && back.shapes.data[0].value.label.text.len == 2);
    CHECK(strcmp(back.shapes.data[0].value.label.text.data, "hi") == 0);
    CHECK(back.maybe.has && back.maybe.value.tag == ENUMS_UNIONS_SHAPE_MARKER);
    /* An unknown tag cannot be encoded. */
    shapes[1].tag = 200;
    CHECK(enums_unions_unions_encoded_size(&u) == SIZE_MAX && enums_unions_unions_encode(&u, buf, sizeof buf) == 0);
    CHECK(enums_unions_unions_encode_message(&u, buf, sizeof buf) == 0);
    {
        enums_unions_encode_result er;
        char text[256];
        CHECK(enums_unions_unions_encode_ex(&u, buf, sizeof buf, &er) == ENUMS_UNIONS_ERR_ENCODE && er.written == 0);
        CHECK(strcmp(er.rule, "union_tag") == 0 && strcmp(er.path, "shapes[1]") == 0);
        enums_unions_encode_error_text(&er, text, sizeof text);
        CHECK(strcmp(text, "union_tag in shapes[1]: a tag that names no variant of the union") == 0);
        CHECK(enums_unions_unions_encode_message_ex(&u, buf, sizeof buf, &er) == ENUMS_UNIONS_ERR_ENCODE &&
              er.written == 0 && strcmp(er.rule, "union_tag") == 0 && strcmp(er.path, "shapes[1]") == 0);
    }
    enums_unions_arena_free(&a);
}

static void test_built_values(void) {
    plugins_parameter params[2];
    plugins_plugin plugin;
    plugins_plugin_registry reg, back;
    plugins_arena a;
    uint8_t* buf;
    size_t n;
    recursive_node n1, n2;
    recursive_node nb;
    uint8_t nbuf[64];

    memset(params, 0, sizeof params);
    params[0].address = 42;
    params[0].display_name.data = "Gain";
    params[0].display_name.len = 4;
    params[0].unit.data = "dB";
    params[0].unit.len = 2;
    params[0].max_value = 1.5f;
    params[0].is_writable = true;
    params[1].address = 43;
    memset(&plugin, 0, sizeof plugin);
    plugin.name.data = "Comp\xc3\xa9";
    plugin.name.len = 6;
    plugin.parameters.data = params;
    plugin.parameters.len = 2;
    reg.plugins.data = &plugin;
    reg.plugins.len = 1;
    reg.total_plugin_count = 1;
    reg.total_parameter_count = 2;
    n = plugins_plugin_registry_encoded_size(&reg);
    buf = (uint8_t*)malloc(n);
    CHECK(plugins_plugin_registry_encode(&reg, buf, n) == n);
    CHECK(plugins_plugin_registry_encode(&reg, buf, n - 1) == 0);
    plugins_arena_init_heap(&a);
    CHECK(plugins_plugin_registry_decode(buf, n, &back, &a) == PLUGINS_OK);
    CHECK(back.plugins.len == 1 && back.plugins.data[0].parameters.len == 2);
    CHECK(strcmp(back.plugins.data[0].name.data, "Comp\xc3\xa9") == 0);
    CHECK(back.plugins.data[0].parameters.data[0].is_writable);
    CHECK(back.plugins.data[0].parameters.data[0].max_value == 1.5f);
    CHECK(back.plugins.data[0].parameters.data[1].display_name.len == 0);
    CHECK(back.plugins.data[0].parameters.data[1].display_name.data[0] == '\0');
    CHECK(back.total_parameter_count == 2);
    /* Invalid UTF-8 is rejected. */
    buf[4 + 4 + 4] = 0xff;
    CHECK(plugins_plugin_registry_decode(buf, n, &back, &a) == PLUGINS_ERR_UTF8);
    plugins_arena_free(&a);
    free(buf);

    /* A boxed optional: a linked list. */
    n2.value.data = "b";
    n2.value.len = 1;
    n2.next = NULL;
    n1.value.data = "a";
    n1.value.len = 1;
    n1.next = &n2;
    n = recursive_node_encoded_size(&n1);
    CHECK(n == 5 + 1 + 5 + 1 && recursive_node_encode(&n1, nbuf, sizeof nbuf) == n);
    {
        recursive_arena ra;
        recursive_arena_init_heap(&ra);
        CHECK(recursive_node_decode(nbuf, n, &nb, &ra) == RECURSIVE_OK);
        CHECK(nb.next != NULL && nb.next->value.data[0] == 'b' && nb.next->next == NULL);
        recursive_arena_free(&ra);
    }
}

/*
 * Rule 11: []Shape is charged 33 bytes of nominal size per element (8 + the
 * largest variant, Polygon: 24 + 1). 1000 unit variants ask for 33,000.
 */
static void test_memory_limit(void) {
    enum { N = 1000 };
    static enums_unions_shape shapes[N];
    static uint8_t buf[2 * N + 64];
    enums_unions_unions v, w;
    enums_unions_arena a;
    enums_unions_decode_options opt;
    enums_unions_decode_result res;
    size_t n, m;
    memset(&v, 0, sizeof v);
    memset(shapes, 0, sizeof shapes);
    v.shape.tag = ENUMS_UNIONS_SHAPE_NONE;
    v.shapes.data = shapes;
    v.shapes.len = N;
    v.nested.tag = ENUMS_UNIONS_NESTED_LEAF;
    n = enums_unions_unions_encode(&v, buf, sizeof buf);
    CHECK(n == 1 + 4 + N + 2 + 1);
    enums_unions_arena_init_heap(&a);
    memset(&opt, 0, sizeof opt);
    CHECK(enums_unions_unions_decode_ex(buf, n, &w, &a, &opt, &res) == ENUMS_UNIONS_OK);
    CHECK(w.shapes.len == N);
    opt.memory_limit = 33u * N;
    CHECK(enums_unions_unions_decode_ex(buf, n, &w, &a, &opt, &res) == ENUMS_UNIONS_OK);
    opt.memory_limit = 33u * N - 1;
    m = enums_unions_arena_used(&a);
    CHECK(enums_unions_unions_decode_ex(buf, n, &w, &a, &opt, &res) == ENUMS_UNIONS_ERR_MEMORY);
    CHECK(res.error == ENUMS_UNIONS_ERR_MEMORY && res.offset == 1);
    CHECK(enums_unions_arena_used(&a) == m);
    CHECK(strncmp(enums_unions_strerror(ENUMS_UNIONS_ERR_MEMORY), "memory:", 7) == 0);
    /* A message: the same limit, the offset past the header. */
    n = enums_unions_unions_encode_message(&v, buf, sizeof buf);
    CHECK(n == 10 + 1 + 4 + N + 2 + 1);
    CHECK(enums_unions_unions_decode_message_ex(buf, n, &w, &a, &opt, &res) == ENUMS_UNIONS_ERR_MEMORY);
    CHECK(res.offset == 11);
    {
        enums_unions_message msg;
        CHECK(enums_unions_decode_message_ex(buf, n, &msg, &a, &opt, &res) == ENUMS_UNIONS_ERR_MEMORY);
        CHECK(res.offset == 11);
        opt.memory_limit = 0;
        CHECK(enums_unions_decode_message_ex(buf, n, &msg, &a, &opt, &res) == ENUMS_UNIONS_OK);
    }
    enums_unions_arena_free(&a);
}

/* Encoders refuse what their decoders would reject: SIZE_MAX from _size, 0 from _encode. */
static void test_encode_checks(void) {
    static const char* const bad_utf8[] = {"\xff", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"};
    plugins_parameter param;
    plugins_plugin plugin;
    enums_unions_enums e;
    enums_unions_sparse list[3];
    enums_unions_unions u;
    uint8_t buf[256];
    size_t i;

    memset(&param, 0, sizeof param);
    param.unit.data = "\xce\xbcs";
    param.unit.len = 3;
    CHECK(plugins_parameter_encoded_size(&param) == 8 + 3 * 4 + 3 + 4 * 4 + 4 + 2);
    for (i = 0; i < sizeof bad_utf8 / sizeof bad_utf8[0]; i++) {
        param.unit.data = bad_utf8[i];
        param.unit.len = (uint32_t)strlen(bad_utf8[i]);
        CHECK(plugins_parameter_encoded_size(&param) == SIZE_MAX);
        CHECK(plugins_parameter_encode(&param, buf, sizeof buf) == 0);
        CHECK(plugins_parameter_encoded_message_size(&param) == SIZE_MAX);
        CHECK(plugins_parameter_encode_message(&param, buf, sizeof buf) == 0);
    }
    /* Deep inside: a parameter of a plugin. */
    param.unit.data = "\x80";
    param.unit.len = 1;
    memset(&plugin, 0, sizeof plugin);
    plugin.parameters.data = &param;
    plugin.parameters.len = 1;
    CHECK(plugins_plugin_encoded_size(&plugin) == SIZE_MAX);
    CHECK(plugins_plugin_encode(&plugin, buf, sizeof buf) == 0);

    /* Enum fields, arrays and fixed arrays of enums hold named values only. */
    memset(&e, 0, sizeof e);
    e.sparse = ENUMS_UNIONS_SPARSE_FIRST;
    CHECK(enums_unions_enums_encoded_size(&e) != SIZE_MAX);
    e.sparse = 0;
    CHECK(enums_unions_enums_encoded_size(&e) == SIZE_MAX);
    CHECK(enums_unions_enums_encode(&e, buf, sizeof buf) == 0);
    e.sparse = ENUMS_UNIONS_SPARSE_BIG;
    e.small = 3;
    CHECK(enums_unions_enums_encoded_size(&e) == SIZE_MAX);
    e.small = ENUMS_UNIONS_SMALL_TWO;
    e.fixed[1] = 7;
    CHECK(enums_unions_enums_encoded_size(&e) == SIZE_MAX);
    e.fixed[1] = ENUMS_UNIONS_SMALL_ONE;
    list[0] = ENUMS_UNIONS_SPARSE_TENTH;
    list[1] = ENUMS_UNIONS_SPARSE_SECOND;
    list[2] = 11;
    e.list.data = list;
    e.list.len = 3;
    CHECK(enums_unions_enums_encoded_size(&e) == SIZE_MAX);
    list[2] = ENUMS_UNIONS_SPARSE_BIG;
    CHECK(enums_unions_enums_encoded_size(&e) == 4 + 4 * 2 + 2 + 4 + 2);
    CHECK(enums_unions_enums_encode(&e, buf, sizeof buf) == 4 + 4 * 2 + 2 + 4 + 2);

    /* A union tag out of range, at the top and inside a variant. */
    memset(&u, 0, sizeof u);
    CHECK(enums_unions_unions_encoded_size(&u) == 1 + 4 + 2 + 1);
    u.shape.tag = 6;
    CHECK(enums_unions_unions_encoded_size(&u) == SIZE_MAX);
    u.shape.tag = ENUMS_UNIONS_SHAPE_NONE;
    u.nested.tag = ENUMS_UNIONS_NESTED_BRANCH;
    u.nested.value.branch.sparse = ENUMS_UNIONS_SPARSE_FIRST;
    u.nested.value.branch.shape.tag = 200;
    CHECK(enums_unions_unions_encoded_size(&u) == SIZE_MAX);
    u.nested.value.branch.shape.tag = ENUMS_UNIONS_SHAPE_MARKER;
    CHECK(enums_unions_unions_encoded_size(&u) == 1 + 4 + 1 + 1 + 2 + 1);
    u.nested.value.branch.sparse = 3;
    CHECK(enums_unions_unions_encoded_size(&u) == SIZE_MAX);
}

int main(int argc, char** argv) {
    size_t reg_len, tree_len;
    uint8_t* reg;
    uint8_t* tree;
    if (argc != 3) {
        fprintf(stderr, "usage: api registry_62.sdpb tree_depth_64.sdpb\n");
        return 2;
    }
    reg = read_file(argv[1], &reg_len);
    tree = read_file(argv[2], &tree_len);
    test_fixed_arena_exhaustion(reg, reg_len);
    test_fixed_arena_recursive(tree, tree_len);
    test_heap_arena(reg, reg_len);
    test_decode_ex(reg, reg_len, tree, tree_len);
    test_messages();
    test_streams();
    test_hello();
    test_errors();
    test_enums_unions();
    test_memory_limit();
    test_encode_checks();
    test_built_values();
    free(reg);
    free(tree);
    if (failures != 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    return 0;
}
