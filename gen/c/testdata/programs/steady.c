/*
 * Steady-state decoding (issue #17): message after message decoded into the
 * same struct, with the arena reset between them, allocates nothing once a
 * heap arena has grown to the size the messages need; a fixed arena never
 * allocates; the stream reader reuses its buffer and arena; a failed decode
 * leaves the default value and the next decode into it succeeds. Every call
 * to malloc and realloc is counted: the program is linked with
 * -Wl,--wrap=malloc,--wrap=realloc (steady_test.go). The argument is the
 * conformance corpus's golden directory.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"
#include "recursive.h"

void* __real_malloc(size_t n);
void* __real_realloc(void* p, size_t n);
void* __wrap_malloc(size_t n);
void* __wrap_realloc(void* p, size_t n);

static unsigned long allocations;

void* __wrap_malloc(size_t n) {
    allocations++;
    return __real_malloc(n);
}

void* __wrap_realloc(void* p, size_t n) {
    allocations++;
    return __real_realloc(p, n);
}

static int failures;

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

/* The rounds over all the inputs; the last STEADY_ROUNDS must not allocate. */
#define ROUNDS 6
#define STEADY_ROUNDS 3

typedef struct input {
    uint8_t* data;
    size_t len;
} input;

static input read_golden(const char* dir, const char* schema, const char* name) {
    char path[4096];
    FILE* f;
    long n;
    input in;
    snprintf(path, sizeof path, "%s/%s/%s.sdpb", dir, schema, name);
    f = fopen(path, "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    in.len = (size_t)n;
    in.data = (uint8_t*)malloc(in.len + 1);
    if (in.data == NULL || fread(in.data, 1, in.len, f) != in.len) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return in;
}

/* Whether encoding gives back the (canonical) input, into a buffer of the caller. */
#define SAME_BYTES(T, v, in, buf, cap) (T##_encoded_size(v) == (in).len && T##_encode(v, buf, cap) == (in).len && \
                                        memcmp(buf, (in).data, (in).len) == 0)

static uint8_t scratch[1 << 20];

/*
 * Decodes the inputs round after round into one value with one heap arena
 * reset before each decode, then with a fixed arena of the largest size a
 * decode used; checks every value, and that the last rounds allocate
 * nothing. Then a truncated input must leave the default value, and the
 * next decode into it must succeed.
 */
#define STEADY(pkg, T) \
    static void steady_##T(const input* inputs, size_t count) { \
        T v; \
        T def; \
        pkg##_arena heap; \
        pkg##_arena fixed; \
        size_t most = 0; \
        size_t i, round; \
        void* mem; \
        unsigned long before; \
        memset(&v, 0xA5, sizeof v); \
        pkg##_arena_init_heap(&heap); \
        for (round = 0; round < ROUNDS; round++) { \
            before = allocations; \
            for (i = 0; i < count; i++) { \
                pkg##_arena_reset(&heap); \
                CHECK(T##_decode(inputs[i].data, inputs[i].len, &v, &heap) == 0); \
                CHECK(SAME_BYTES(T, &v, inputs[i], scratch, sizeof scratch)); \
                if (pkg##_arena_used(&heap) > most) { \
                    most = pkg##_arena_used(&heap); \
                } \
            } \
            printf(#T " heap round %lu: %lu allocations\n", (unsigned long)round, allocations - before); \
            if (round >= ROUNDS - STEADY_ROUNDS) { \
                CHECK(allocations == before); \
            } \
        } \
        mem = malloc(most); \
        CHECK(mem != NULL); \
        pkg##_arena_init(&fixed, mem, most); \
        before = allocations; \
        for (round = 0; round < 2; round++) { \
            for (i = 0; i < count; i++) { \
                pkg##_arena_reset(&fixed); \
                CHECK(T##_decode(inputs[i].data, inputs[i].len, &v, &fixed) == 0); \
                CHECK(SAME_BYTES(T, &v, inputs[i], scratch, sizeof scratch)); \
            } \
        } \
        CHECK(allocations == before); \
        T##_init(&def); \
        for (i = 0; i < count; i++) { \
            size_t n = T##_encode(&def, scratch, sizeof scratch); \
            pkg##_arena_reset(&fixed); \
            CHECK(T##_decode(inputs[i].data, inputs[i].len, &v, &fixed) == 0); \
            if (inputs[i].len > 1) { \
                pkg##_arena_reset(&heap); \
                CHECK(T##_decode(inputs[i].data, inputs[i].len - 1, &v, &heap) != 0); \
                CHECK(T##_encoded_size(&v) == n && T##_encode(&v, scratch + n, sizeof scratch - n) == n && \
                      memcmp(scratch, scratch + n, n) == 0); \
            } \
        } \
        CHECK(allocations == before); \
        free(mem); \
        pkg##_arena_free(&heap); \
    }

STEADY(plugins, plugins_plugin_registry)
STEADY(recursive, recursive_tree)

/* A stream held in memory, read at most 4096 bytes at a time. */
typedef struct source {
    const uint8_t* data;
    size_t len;
} source;

static size_t source_read(void* ctx, uint8_t* buf, size_t n) {
    source* s = (source*)ctx;
    if (n > s->len) {
        n = s->len;
    }
    if (n > 4096) {
        n = 4096;
    }
    memcpy(buf, s->data, n);
    s->data += n;
    s->len -= n;
    return n;
}

/*
 * The plugins messages, ROUNDS times in one stream: after the first rounds
 * the reader's buffer and heap arena hold the largest message and reading
 * allocates nothing; every message comes back as it was.
 */
static void test_stream(const input* payloads, const uint16_t* type_ids, size_t count) {
    uint8_t* stream;
    size_t len = 0, cap = 0, i, round;
    plugins_arena heap;
    plugins_message_reader r;
    plugins_message m;
    plugins_stream_result res;
    source src;
    for (i = 0; i < count; i++) {
        cap += PLUGINS_MESSAGE_HEADER_SIZE + payloads[i].len;
    }
    cap *= ROUNDS;
    stream = (uint8_t*)malloc(cap);
    CHECK(stream != NULL);
    for (round = 0; round < ROUNDS; round++) {
        for (i = 0; i < count; i++) {
            uint32_t n = (uint32_t)payloads[i].len;
            uint8_t* h = stream + len;
            memcpy(h, "SDP2", 4);
            h[4] = (uint8_t)type_ids[i];
            h[5] = (uint8_t)(type_ids[i] >> 8);
            h[6] = (uint8_t)n;
            h[7] = (uint8_t)(n >> 8);
            h[8] = (uint8_t)(n >> 16);
            h[9] = (uint8_t)(n >> 24);
            memcpy(h + PLUGINS_MESSAGE_HEADER_SIZE, payloads[i].data, n);
            len += PLUGINS_MESSAGE_HEADER_SIZE + n;
        }
    }
    src.data = stream;
    src.len = len;
    plugins_arena_init_heap(&heap);
    plugins_message_reader_init(&r, source_read, &src, &heap);
    for (round = 0; round < ROUNDS; round++) {
        unsigned long before = allocations;
        for (i = 0; i < count; i++) {
            size_t n;
            CHECK(plugins_read_message(&r, &m, &res) == PLUGINS_OK);
            CHECK(m.type_id == type_ids[i]);
            n = plugins_encoded_message_size(&m);
            CHECK(n == PLUGINS_MESSAGE_HEADER_SIZE + payloads[i].len &&
                  plugins_encode_message(&m, scratch, sizeof scratch) == n &&
                  memcmp(scratch + PLUGINS_MESSAGE_HEADER_SIZE, payloads[i].data, payloads[i].len) == 0);
        }
        printf("stream round %lu: %lu allocations\n", (unsigned long)round, allocations - before);
        if (round >= ROUNDS - STEADY_ROUNDS) {
            CHECK(allocations == before);
        }
    }
    CHECK(plugins_read_message(&r, &m, &res) == PLUGINS_END);
    CHECK(m.type_id == 0);
    plugins_message_reader_free(&r);
    plugins_arena_free(&heap);
    free(stream);
}

int main(int argc, char** argv) {
    static const char* registries[] = {"registry_62", "registry_small", "registry_empty", "registry_62"};
    static const char* trees[] = {"tree_depth_64", "tree_leaf", "tree_wide", "tree_small", "tree_depth_64"};
    static const char* messages[] = {"registry_62", "plugin_no_parameters", "registry_small", "parameter_extremes",
                                     "registry_empty"};
    static const uint16_t message_ids[] = {PLUGINS_PLUGIN_REGISTRY_TYPE_ID, PLUGINS_PLUGIN_TYPE_ID,
                                           PLUGINS_PLUGIN_REGISTRY_TYPE_ID, PLUGINS_PARAMETER_TYPE_ID,
                                           PLUGINS_PLUGIN_REGISTRY_TYPE_ID};
    input reg_in[4], tree_in[5], msg_in[5];
    size_t i;
    if (argc != 2) {
        fprintf(stderr, "usage: steady GOLDEN_DIR\n");
        return 2;
    }
    for (i = 0; i < 4; i++) {
        reg_in[i] = read_golden(argv[1], "plugins", registries[i]);
    }
    for (i = 0; i < 5; i++) {
        tree_in[i] = read_golden(argv[1], "recursive", trees[i]);
        msg_in[i] = read_golden(argv[1], "plugins", messages[i]);
    }
    steady_plugins_plugin_registry(reg_in, 4);
    steady_recursive_tree(tree_in, 5);
    test_stream(msg_in, message_ids, 5);
    for (i = 0; i < 5; i++) {
        free(tree_in[i].data);
        free(msg_in[i].data);
        if (i < 4) {
            free(reg_in[i].data);
        }
    }
    if (failures > 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    return 0;
}
