/*
 * The C backend in one program: build a value, encode it, decode it with a
 * heap arena and with a fixed buffer, handle errors, decode message after
 * message into one struct, frame messages, write and read a stream of
 * messages, check that both ends of a stream share the schema (hello), and
 * refuse a value that has no encoding with its rule and field path.
 *
 *     make            # runs sdp gen, builds and runs the example
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

/* Builds a pointer + length string from a C string literal. */
static registry_str str(const char* s) {
    registry_str out;
    out.data = s;
    out.len = (uint32_t)strlen(s);
    return out;
}

/* A stream's callbacks over a FILE*. */
static size_t file_read(void* f, uint8_t* buf, size_t n) {
    return fread(buf, 1, n, (FILE*)f);
}

static size_t file_write(void* f, const uint8_t* buf, size_t n) {
    return fwrite(buf, 1, n, (FILE*)f);
}

int main(void) {
    registry_parameter params[2];
    registry_plugin plugins[1];
    registry_registry reg, back;
    registry_arena arena;
    unsigned char small[64];
    uint8_t* buf;
    size_t size, i;
    int rc;

    /* 1. Build a value. Nothing is copied: the value points at your data. */
    memset(params, 0, sizeof params);
    params[0].address = 1;
    params[0].name = str("Gain");
    params[0].unit = str("dB");
    params[0].min_value = -60.0f;
    params[0].max_value = 12.0f;
    params[0].flags.has = true;
    params[0].flags.value = 0x3;
    params[1].address = 2;
    params[1].name = str("Mix");
    params[1].unit = str("%");
    params[1].max_value = 100.0f;
    params[1].value = 50.0f;
    plugins[0].name = str("Compressor");
    plugins[0].vendor = str("Example Audio");
    plugins[0].format = REGISTRY_FORMAT_CLAP;
    plugins[0].parameters.data = params;
    plugins[0].parameters.len = 2;
    reg.plugins.data = plugins;
    reg.plugins.len = 1;
    reg.scanned_at = 1700000000;

    /* 2. Encode: the size is known up front, so allocate once. */
    size = registry_registry_encoded_size(&reg);
    buf = (uint8_t*)malloc(size);
    if (buf == NULL || registry_registry_encode(&reg, buf, size) != size) {
        return 1;
    }
    printf("encoded %zu bytes\n", size);

    /* 3. Decode into a heap arena: one arena_free releases everything. */
    registry_arena_init_heap(&arena);
    rc = registry_registry_decode(buf, size, &back, &arena);
    if (rc != REGISTRY_OK) {
        fprintf(stderr, "decode: %s\n", registry_strerror(rc));
        return 1;
    }
    for (i = 0; i < back.plugins.len; i++) {
        const registry_plugin* p = &back.plugins.data[i];
        uint32_t j;
        /* Decoded strings are NUL-terminated, so %s works. */
        printf("%s by %s (%s), %u parameters\n", p->name.data, p->vendor.data,
               registry_format_name(p->format), (unsigned)p->parameters.len);
        for (j = 0; j < p->parameters.len; j++) {
            const registry_parameter* q = &p->parameters.data[j];
            printf("  %s [%s] %.1f..%.1f", q->name.data, q->unit.data, q->min_value, q->max_value);
            if (q->flags.has) {
                printf(" flags=0x%x", (unsigned)q->flags.value);
            }
            printf("\n");
        }
    }
    printf("arena holds %zu bytes\n", registry_arena_used(&arena));

    /*
     * 4. Errors: a truncated input, with the offset where decoding stopped.
     * A failed decode leaves the default value (registry_registry_init) in
     * back, never a partial one.
     */
    {
        registry_decode_result res;
        char text[300];
        rc = registry_registry_decode_ex(buf, size - 1, &back, &arena, NULL, &res);
        /* "<rule> at offset <offset> in <path>: <message>", as in every language */
        registry_decode_error_text(&res, text, sizeof text);
        printf("truncated input: %s; %u plugin(s) left\n", text, (unsigned)back.plugins.len);
    }

    /*
     * Message after message: reset the arena and decode into the same
     * struct. Once the arena has grown to the largest message, decoding
     * allocates nothing; each value lives until the next reset.
     */
    for (i = 0; i < 3; i++) {
        registry_arena_reset(&arena);
        rc = registry_registry_decode(buf, size, &back, &arena);
        if (rc != REGISTRY_OK) {
            return 1;
        }
    }
    printf("decoded again into the same struct: %u plugin(s), arena holds %zu bytes\n",
           (unsigned)back.plugins.len, registry_arena_used(&arena));
    registry_arena_free(&arena);

    /* 5. A fixed buffer never allocates; too small fails cleanly. */
    registry_arena_init(&arena, small, sizeof small);
    rc = registry_registry_decode(buf, size, &back, &arena);
    printf("64-byte arena: %s\n", registry_strerror(rc));

    /* 6. Messages: a header names the type, the dispatcher picks it. */
    {
        uint8_t msg[512];
        registry_message m;
        size_t n = registry_registry_encode_message(&reg, msg, sizeof msg);
        registry_arena_init_heap(&arena);
        rc = registry_decode_message(msg, n, &m, &arena);
        if (rc == REGISTRY_OK && m.type_id == REGISTRY_REGISTRY_TYPE_ID) {
            printf("message of %zu bytes: a Registry with %u plugin(s)\n", n, (unsigned)m.value.registry.plugins.len);
        }
        registry_arena_free(&arena);
    }

    /*
     * 7. Streams: messages one after the other (a file, a pipe, a socket).
     * The reader reads one message per call into an arena it resets first;
     * errors name the message and the offset from the start of the stream.
     */
    {
        FILE* f = tmpfile();
        registry_message_writer w;
        registry_message_reader r;
        registry_stream_result sres;
        registry_message m;
        if (f == NULL) {
            return 1;
        }
        m.type_id = REGISTRY_REGISTRY_TYPE_ID;
        m.value.registry = reg;
        registry_message_writer_init(&w, file_write, f);
        for (i = 0, rc = 0; i < 3 && rc == REGISTRY_OK; i++) {
            rc = registry_write_message(&w, &m);
        }
        registry_message_writer_free(&w);
        fputs("SDP2", f); /* a fourth message, cut inside its header */
        rewind(f);
        registry_arena_init_heap(&arena);
        registry_message_reader_init(&r, file_read, f, &arena);
        r.max_size = 1 << 16; /* refuse larger payloads before reading them */
        while ((rc = registry_read_message(&r, &m, &sres)) == REGISTRY_OK) {
            printf("stream message %llu at offset %llu: %u plugin(s)\n", (unsigned long long)sres.index,
                   (unsigned long long)sres.start, (unsigned)m.value.registry.plugins.len);
        }
        if (rc != REGISTRY_END) {
            char text[300];
            /* "message <index> at stream offset <start>: <rule> at offset ..." */
            registry_stream_error_text(&sres, text, sizeof text);
            printf("stream error: %s\n", text);
        }
        registry_message_reader_free(&r);
        registry_arena_free(&arena);
        fclose(f);
    }

    /*
     * 8. The schema check: the writer starts the stream with a hello (the
     * fingerprint of every struct); a reader built from another version of
     * the schema refuses it before decoding any data.
     */
    {
        FILE* f = tmpfile();
        registry_message_writer w;
        registry_message_reader r;
        registry_stream_result sres;
        registry_message m;
        char text[400];
        int pass;
        if (f == NULL) {
            return 1;
        }
        m.type_id = REGISTRY_REGISTRY_TYPE_ID;
        m.value.registry = reg;
        registry_message_writer_init(&w, file_write, f);
        rc = registry_write_hello(&w); /* once, before the first message */
        if (rc == REGISTRY_OK) {
            rc = registry_write_message(&w, &m);
        }
        registry_message_writer_free(&w);
        registry_arena_init_heap(&arena);
        for (pass = 0; pass < 2 && rc == REGISTRY_OK; pass++) {
            if (pass == 1) {
                /* Pretend the writer's Parameter (type id 1, the first entry) changed. */
                fseek(f, 10 + 4 + 2, SEEK_SET);
                fputc(0x5d, f);
            }
            rewind(f);
            registry_message_reader_init(&r, file_read, f, &arena);
            r.require_hello = 1; /* refuse a writer that does not send one */
            rc = registry_read_message(&r, &m, &sres);
            if (rc == REGISTRY_OK) {
                printf("hello checked (%d), then message %llu\n", registry_message_reader_schema_checked(&r),
                       (unsigned long long)sres.index);
            } else {
                registry_stream_error_text(&sres, text, sizeof text);
                printf("refused: %s\n", text);
            }
            registry_message_reader_free(&r);
        }
        registry_arena_free(&arena);
        fclose(f);
    }

    /*
     * 9. A value that has no encoding (here a name that is not UTF-8) is
     * refused by every encoder: _encode returns 0, _encode_ex
     * REGISTRY_ERR_ENCODE with the rule and the field path, as a decoder
     * would name them.
     */
    {
        registry_encode_result res;
        char text[300];
        uint8_t out[512];
        plugins[0].vendor = str("Example \xff Audio");
        rc = registry_registry_encode_ex(&reg, out, sizeof out, &res);
        registry_encode_error_text(&res, text, sizeof text);
        printf("encode refused (%s, rule %s, path %s): %s\n", registry_strerror(rc), res.rule, res.path, text);
    }
    free(buf);
    return 0;
}
