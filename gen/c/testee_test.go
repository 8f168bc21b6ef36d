package c

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"text/template"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// sanitize are the flags of every test program: C99, strict warnings,
// AddressSanitizer and UndefinedBehaviorSanitizer aborting on the first report.
var sanitize = []string{"-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}

// testeeTemplate is the conformance testee: it answers the runner's requests
// using every decode API (plain and _ex, heap and fixed arenas, per-type and
// dispatcher message decoding) and reports status 2 when they disagree, or
// when a type's default value (T_init), checked on its first request, does
// not round-trip.
var testeeTemplate = template.Must(template.New("testee").Parse(`{{if .Stack}}#define _POSIX_C_SOURCE 200112L

#include <pthread.h>
{{end}}#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "{{.Pkg}}.h"

#define BROKEN 1000

static char broken_msg[256];
/* The offset of the last rejection of a roundtrip or dispatch request, or
 * (size_t)-1 when there is none. */
static size_t reject_offset = (size_t)-1;
/* Its result: the reply is its text, {{.Pkg}}_decode_error_text's
 * ("<rule> at offset <offset> in <path>: <message>"). */
static {{.Pkg}}_decode_result reject_res;

static int broken(const char* what) {
    snprintf(broken_msg, sizeof broken_msg, "%s", what);
    return BROKEN;
}

{{range .Structs}}
static int encode_{{.T}}(const {{.T}}* v, int message, uint8_t** out, size_t* out_len) {
    size_t size = message ? {{.T}}_encoded_message_size(v) : {{.T}}_encoded_size(v);
    size_t n;
    uint8_t* buf = (uint8_t*)malloc(size + 1);
    if (buf == NULL) {
        return broken("out of memory");
    }
    n = message ? {{.T}}_encode_message(v, buf, size) : {{.T}}_encode(v, buf, size);
    if (n != size) {
        free(buf);
        return broken("{{.Name}}: encode wrote a different length than _encoded_size");
    }
    if (size > 0 && (message ? {{.T}}_encode_message(v, buf, size - 1) : {{.T}}_encode(v, buf, size - 1)) != 0) {
        free(buf);
        return broken("{{.Name}}: encode into a too small buffer did not fail");
    }
    *out = buf;
    *out_len = n;
    return 0;
}

static int decode_{{.T}}(const uint8_t* in, size_t len, int message, {{.T}}* v, {{$.Pkg}}_arena* a,
                         const {{$.Pkg}}_decode_options* opt, {{$.Pkg}}_decode_result* res) {
    if (opt == NULL) {
        return message ? {{.T}}_decode_message(in, len, v, a) : {{.T}}_decode(in, len, v, a);
    }
    return message ? {{.T}}_decode_message_ex(in, len, v, a, opt, res) : {{.T}}_decode_ex(in, len, v, a, opt, res);
}

/* Decodes with a fixed arena of cap bytes; want is the heap arena's outcome. */
static int fixed_{{.T}}(const uint8_t* in, size_t len, int message, size_t cap, int want, const uint8_t* want_bytes,
                        size_t want_len, int may_run_out) {
    {{.T}} v;
    {{$.Pkg}}_arena a;
    int rc, result = 0;
    void* mem = malloc(cap + 1);
    if (mem == NULL) {
        return broken("out of memory");
    }
    {{$.Pkg}}_arena_init(&a, mem, cap);
    rc = decode_{{.T}}(in, len, message, &v, &a, NULL, NULL);
    if (rc == {{$.Up}}_ERR_NO_MEMORY && may_run_out) {
        result = 0;
    } else if (rc != want) {
        result = broken("{{.Name}}: a fixed arena gave a different result than the heap arena");
    } else if (rc == 0) {
        uint8_t* bytes;
        size_t n;
        result = encode_{{.T}}(&v, message, &bytes, &n);
        if (result == 0) {
            if (n != want_len || (n > 0 && memcmp(bytes, want_bytes, n) != 0)) {
                result = broken("{{.Name}}: decoding with a fixed arena gave a different value");
            }
            free(bytes);
        }
    }
    {{$.Pkg}}_arena_free(&a);
    free(mem);
    return result;
}

/* The default value (_init) must encode to bytes that decode and re-encode to themselves. */
static int default_{{.T}}(void) {
    {{.T}} v, back;
    {{$.Pkg}}_arena heap;
    uint8_t* bytes;
    uint8_t* again;
    size_t n, again_len;
    int result;
    {{.T}}_init(&v);
    if ({{.T}}_encoded_size(&v) == SIZE_MAX) {
        return broken("{{.Name}}: the default value (_init) cannot be encoded");
    }
    result = encode_{{.T}}(&v, 0, &bytes, &n);
    if (result != 0) {
        return result;
    }
    {{$.Pkg}}_arena_init_heap(&heap);
    if ({{.T}}_decode(bytes, n, &back, &heap) != 0) {
        result = broken("{{.Name}}: the default value (_init) encodes to bytes its decoder rejects");
    } else if ((result = encode_{{.T}}(&back, 0, &again, &again_len)) == 0) {
        if (again_len != n || (n > 0 && memcmp(again, bytes, n) != 0)) {
            result = broken("{{.Name}}: the default value (_init) decodes to another value");
        }
        free(again);
    }
    {{$.Pkg}}_arena_free(&heap);
    free(bytes);
    return result;
}

/* Whether *v encodes like the default value (_init), as a failed decode must leave it. */
static int is_default_{{.T}}(const {{.T}}* v) {
    {{.T}} d;
    uint8_t* want;
    uint8_t* got;
    size_t want_len, got_len;
    int same;
    {{.T}}_init(&d);
    if (encode_{{.T}}(&d, 0, &want, &want_len) != 0) {
        return 0;
    }
    if (encode_{{.T}}(v, 0, &got, &got_len) != 0) {
        free(want);
        return 0;
    }
    same = got_len == want_len && (want_len == 0 || memcmp(got, want, want_len) == 0);
    free(got);
    free(want);
    return same;
}

/*
 * Decoding into an existing value (docs/conformance.md): the value and the
 * heap arena of the previous request of this type, whatever it left (a
 * longer array, a present optional, another union variant, the default
 * value of a rejected input), are reused: the arena is reset and the input
 * decoded into the old value. want is the first decode's result and
 * want_bytes its encoding.
 */
static {{.T}} kept_{{.T}};
static {{$.Pkg}}_arena kept_arena_{{.T}};

static int reuse_{{.T}}(const uint8_t* in, size_t len, int message, int want, const uint8_t* want_bytes,
                        size_t want_len) {
    static int ready = 0;
    uint8_t* bytes;
    size_t n;
    int rc, result = 0;
    if (!ready) {
        ready = 1;
        /* Garbage: a decode writes every field it does not leave to the encoder. */
        memset(&kept_{{.T}}, 0xA5, sizeof kept_{{.T}});
        {{$.Pkg}}_arena_init_heap(&kept_arena_{{.T}});
    }
    {{$.Pkg}}_arena_reset(&kept_arena_{{.T}});
    rc = message ? {{.T}}_decode_message(in, len, &kept_{{.T}}, &kept_arena_{{.T}})
                 : {{.T}}_decode(in, len, &kept_{{.T}}, &kept_arena_{{.T}});
    if (rc != want) {
        return broken("{{.Name}}: decoding into the previous value gave another result than a fresh decode");
    }
    if (rc != 0) {
        if (!is_default_{{.T}}(&kept_{{.T}})) {
            return broken("{{.Name}}: a failed decode into the previous value did not leave the default value");
        }
        return 0;
    }
    if ((result = encode_{{.T}}(&kept_{{.T}}, message, &bytes, &n)) != 0) {
        return result;
    }
    if (n != want_len || (n > 0 && memcmp(bytes, want_bytes, n) != 0)) {
        result = broken("{{.Name}}: decoding into the previous value gave another value than a fresh decode");
    }
    free(bytes);
    return result;
}

static int roundtrip_{{.T}}(const uint8_t* in, size_t len, int message, uint8_t** out, size_t* out_len) {
    static int default_checked = 0;
    {{.T}} v, v2;
    {{$.Pkg}}_arena heap;
    {{$.Pkg}}_decode_options opt;
    {{$.Pkg}}_decode_result res;
    size_t used;
    int rc, rc2, result;
    if (!default_checked) {
        default_checked = 1;
        if ((result = default_{{.T}}()) != 0) {
            return result;
        }
    }
    memset(&opt, 0, sizeof opt);
    opt.max_depth = {{$.Up}}_DEFAULT_MAX_DEPTH;
    {{$.Pkg}}_arena_init_heap(&heap);
    rc = decode_{{.T}}(in, len, message, &v, &heap, NULL, NULL);
    used = {{$.Pkg}}_arena_used(&heap);
    rc2 = decode_{{.T}}(in, len, message, &v2, &heap, &opt, &res);
    if (rc2 != rc || res.error != rc) {
        result = broken("{{.Name}}: _decode_ex disagrees with _decode");
    } else if (rc != 0 && res.offset > len) {
        result = broken("{{.Name}}: error offset beyond the input");
    } else if (rc == 0 && res.consumed != len) {
        result = broken("{{.Name}}: _decode_ex did not consume the whole input");
    } else if (rc != 0) {
        result = rc;
        reject_offset = res.offset;
        reject_res = res;
        if (!is_default_{{.T}}(&v) || !is_default_{{.T}}(&v2)) {
            result = broken("{{.Name}}: a failed decode did not leave the default value");
        } else if (fixed_{{.T}}(in, len, message, used + 4096, rc, NULL, 0, 0) == BROKEN ||
                   reuse_{{.T}}(in, len, message, rc, NULL, 0) == BROKEN) {
            result = BROKEN;
        }
    } else {
        uint8_t* again;
        size_t again_len;
        result = encode_{{.T}}(&v, message, out, out_len);
        if (result == 0) {
            result = encode_{{.T}}(&v2, message, &again, &again_len);
            if (result == 0) {
                if (again_len != *out_len || (again_len > 0 && memcmp(again, *out, again_len) != 0)) {
                    result = broken("{{.Name}}: decoding twice gave different values");
                }
                free(again);
            }
        }
        if (result == 0) {
            result = fixed_{{.T}}(in, len, message, used + 4096, 0, *out, *out_len, 0);
        }
        if (result == 0) {
            result = fixed_{{.T}}(in, len, message, used / 2, 0, *out, *out_len, 1);
        }
        if (result == 0) {
            result = reuse_{{.T}}(in, len, message, 0, *out, *out_len);
        }
        if (result != 0) {
            free(*out);
            *out = NULL;
        }
    }
    {{$.Pkg}}_arena_free(&heap);
    return result;
}
{{end}}
static int roundtrip(uint16_t type_id, const uint8_t* in, size_t len, int message, uint8_t** out, size_t* out_len) {
    switch (type_id) {
{{- range .Structs}}
    case {{.ID}}:
        return roundtrip_{{.T}}(in, len, message, out, out_len);
{{- end}}
    default:
        return broken("unknown type id");
    }
}

/* Op 2: the dispatcher, checked against the per-type message decoder. */
static int dispatch(const uint8_t* in, size_t len, uint8_t** out, size_t* out_len) {
    {{.Pkg}}_message m;
    {{.Pkg}}_arena heap;
    {{.Pkg}}_decode_options opt;
    {{.Pkg}}_decode_result res;
    int rc, result;
    memset(&opt, 0, sizeof opt);
    {{.Pkg}}_arena_init_heap(&heap);
    rc = {{.Pkg}}_decode_message(in, len, &m, &heap);
    if ({{.Pkg}}_decode_message_ex(in, len, &m, &heap, &opt, &res) != rc || res.error != rc) {
        result = broken("_decode_message_ex disagrees with _decode_message");
    } else if (rc != 0) {
        result = m.type_id != 0 ? broken("a failed _decode_message_ex did not leave the zero message") : rc;
        reject_offset = res.offset;
        reject_res = res;
    } else {
        size_t size = {{.Pkg}}_encoded_message_size(&m);
        uint8_t* buf = (uint8_t*)malloc(size + 1);
        uint8_t* typed = NULL;
        size_t typed_len = 0;
        if (buf == NULL) {
            result = broken("out of memory");
        } else if ({{.Pkg}}_encode_message(&m, buf, size) != size) {
            free(buf);
            result = broken("_encode_message wrote a different length than _encoded_message_size");
        } else {
            result = roundtrip(m.type_id, in, len, 1, &typed, &typed_len);
            if (result == 0 && (typed_len != size || memcmp(typed, buf, size) != 0)) {
                result = broken("the dispatcher and the per-type message decoder disagree");
            } else if (result < 0) {
                result = broken("the per-type message decoder rejects what the dispatcher accepts");
            }
            free(typed);
            if (result == 0) {
                *out = buf;
                *out_len = size;
            } else {
                free(buf);
            }
        }
    }
    {{.Pkg}}_arena_free(&heap);
    return result;
}

/* Op 3's source: the request's bytes, handed out at most 7 at a time so that the reader must collect them. */
typedef struct source {
    const uint8_t* data;
    size_t len;
} source;

static size_t source_read(void* ctx, uint8_t* buf, size_t n) {
    source* s = (source*)ctx;
    if (n > s->len) {
        n = s->len;
    }
    if (n > 7) {
        n = 7;
    }
    if (n > 0) {
        memcpy(buf, s->data, n);
    }
    s->data += n;
    s->len -= n;
    return n;
}

/* Op 3's sink: a growing buffer. */
typedef struct sink {
    uint8_t* data;
    size_t len, cap;
} sink;

static size_t sink_write(void* ctx, const uint8_t* buf, size_t n) {
    sink* s = (sink*)ctx;
    if (n > s->cap - s->len) {
        size_t cap = s->cap < 64 ? 64 : s->cap;
        uint8_t* data;
        while (cap - s->len < n) {
            cap *= 2;
        }
        if ((data = (uint8_t*)realloc(s->data, cap)) == NULL) {
            return 0;
        }
        s->data = data;
        s->cap = cap;
    }
    memcpy(s->data + s->len, buf, n);
    s->len += n;
    return n;
}

/*
 * Op 3: reads the stream after the u32 maximum payload length with the
 * stream reader and writes every message back with the stream writer,
 * after its own hello when the stream began with one. A rejection is
 * _stream_error_text's text ("message <index> at stream offset <start>: ...").
 */
static int stream(const uint8_t* in, size_t len, uint8_t** out, size_t* out_len, char* text, size_t text_cap) {
    {{.Pkg}}_arena heap;
    {{.Pkg}}_message_reader r;
    {{.Pkg}}_message_writer w;
    {{.Pkg}}_stream_result res;
    {{.Pkg}}_message m;
    source src;
    sink dst = {NULL, 0, 0};
    uint32_t max;
    int rc, result = 0, first = 1;
    uint64_t count = 0;
    if (len < 4) {
        return broken("a stream request needs the u32 maximum payload length");
    }
    max = (uint32_t)in[0] | ((uint32_t)in[1] << 8) | ((uint32_t)in[2] << 16) | ((uint32_t)in[3] << 24);
    src.data = in + 4;
    src.len = len - 4;
    {{.Pkg}}_arena_init_heap(&heap);
    {{.Pkg}}_message_reader_init(&r, source_read, &src, &heap);
    if (r.max_size != {{.Up}}_DEFAULT_MAX_MESSAGE_SIZE) {
        result = broken("the reader's default max_size is not _DEFAULT_MAX_MESSAGE_SIZE");
    }
    r.max_size = max == 0 ? UINT32_MAX : max;
    {{.Pkg}}_message_writer_init(&w, sink_write, &dst);
    w.max_size = r.max_size;
    while (result == 0) {
        rc = {{.Pkg}}_read_message(&r, &m, &res);
        if (first && {{.Pkg}}_message_reader_schema_checked(&r)) {
            /* The stream began with a hello that agreed: answer with ours. */
            int wrc = {{.Pkg}}_write_hello(&w);
            count = 1;
            if (wrc != 0) {
                result = broken({{.Pkg}}_strerror(wrc));
                break;
            }
        }
        first = 0;
        if (rc != 0) {
            break;
        }
        if (res.error != 0 || res.index != count++) {
            result = broken("_read_message: a wrong result for a message");
        } else if ((rc = {{.Pkg}}_write_message(&w, &m)) != 0) {
            result = broken({{.Pkg}}_strerror(rc));
        }
    }
    if (result == 0 && rc == {{.Up}}_END) {
        if (m.type_id != 0) {
            result = broken("_read_message: the end of the stream did not leave the zero message");
        } else if (res.error != {{.Up}}_END || res.index != count || {{.Pkg}}_read_message(&r, &m, NULL) != {{.Up}}_END) {
            result = broken("_read_message: a wrong result at the end of the stream");
        } else {
            *out = dst.data;
            *out_len = dst.len;
            dst.data = NULL;
        }
    } else if (result == 0) {
        {{.Pkg}}_stream_result again;
        if (res.error != rc || res.index != count) {
            result = broken("_read_message: a wrong result for a bad message");
        } else if (m.type_id != 0) {
            result = broken("_read_message: an error did not leave the zero message");
        } else if (!res.skipped && ({{.Pkg}}_read_message(&r, &m, &again) != rc || again.offset != res.offset)) {
            result = broken("_read_message: an error that cannot be skipped did not stick");
        } else {
            {{.Pkg}}_stream_error_text(&res, text, text_cap);
            result = rc;
        }
    }
    {{.Pkg}}_message_writer_free(&w);
    {{.Pkg}}_message_reader_free(&r);
    {{.Pkg}}_arena_free(&heap);
    free(dst.data);
    return result;
}

/* Appends the OpStreamAll line of a stream error to lines. */
static int error_line(const {{.Pkg}}_stream_result* res, sink* lines) {
    char buf[160];
    const char* e = {{.Pkg}}_strerror(res->error);
    const char* colon = strchr(e, ':');
    int rule_len = colon != NULL ? (int)(colon - e) : (int)strlen(e);
    int n = snprintf(buf, sizeof buf, "%.*s %llu %llu %d\n", rule_len, e, (unsigned long long)res->index,
                     (unsigned long long)res->offset, res->skipped ? 1 : 0);
    return n > 0 && sink_write(lines, (const uint8_t*)buf, (size_t)n) == (size_t)n;
}

/*
 * Op 4 (OpStreamAll): reads the stream after the u32 maximum payload length
 * to its end, going on after every error with res.skipped set and reading
 * once more after one that ends the stream; replies the error lines (after
 * their u32 length), then what the stream writer wrote.
 */
static int stream_all(const uint8_t* in, size_t len, uint8_t** out, size_t* out_len) {
    {{.Pkg}}_arena heap;
    {{.Pkg}}_message_reader r;
    {{.Pkg}}_message_writer w;
    {{.Pkg}}_stream_result res;
    {{.Pkg}}_message m;
    source src;
    sink dst = {NULL, 0, 0};
    sink lines = {NULL, 0, 0};
    uint32_t max;
    int rc, result = 0, answered = 0;
    if (len < 4) {
        return broken("a stream request needs the u32 maximum payload length");
    }
    max = (uint32_t)in[0] | ((uint32_t)in[1] << 8) | ((uint32_t)in[2] << 16) | ((uint32_t)in[3] << 24);
    src.data = in + 4;
    src.len = len - 4;
    {{.Pkg}}_arena_init_heap(&heap);
    {{.Pkg}}_message_reader_init(&r, source_read, &src, &heap);
    r.max_size = max == 0 ? UINT32_MAX : max;
    {{.Pkg}}_message_writer_init(&w, sink_write, &dst);
    w.max_size = r.max_size;
    for (;;) {
        rc = {{.Pkg}}_read_message(&r, &m, &res);
        if (!answered && {{.Pkg}}_message_reader_schema_checked(&r)) {
            /* The stream began with a hello that agreed: answer with ours. */
            answered = 1;
            if ({{.Pkg}}_write_hello(&w) != 0) {
                result = broken("_write_hello failed");
                break;
            }
        }
        if (rc == {{.Up}}_END) {
            break;
        }
        if (rc == 0) {
            if ({{.Pkg}}_write_message(&w, &m) != 0) {
                result = broken("_write_message failed");
                break;
            }
            continue;
        }
        if (res.error != rc) {
            result = broken("_read_message: a wrong result for a bad message");
            break;
        }
        if (!error_line(&res, &lines)) {
            result = broken("out of memory");
            break;
        }
        if (res.skipped) {
            continue;
        }
        /* The stream ends here: a second read must repeat the error. */
        rc = {{.Pkg}}_read_message(&r, &m, &res);
        if (rc == {{.Up}}_END) {
            sink_write(&lines, (const uint8_t*)"end\n", 4);
        } else if (rc == 0) {
            sink_write(&lines, (const uint8_t*)"message\n", 8);
        } else if (!error_line(&res, &lines)) {
            result = broken("out of memory");
        }
        break;
    }
    if (result == 0) {
        uint8_t* reply = (uint8_t*)malloc(4 + lines.len + dst.len);
        if (reply == NULL) {
            result = broken("out of memory");
        } else {
            reply[0] = (uint8_t)lines.len;
            reply[1] = (uint8_t)(lines.len >> 8);
            reply[2] = (uint8_t)(lines.len >> 16);
            reply[3] = (uint8_t)(lines.len >> 24);
            if (lines.len > 0) {
                memcpy(reply + 4, lines.data, lines.len);
            }
            if (dst.len > 0) {
                memcpy(reply + 4 + lines.len, dst.data, dst.len);
            }
            *out = reply;
            *out_len = 4 + lines.len + dst.len;
        }
    }
    {{.Pkg}}_message_writer_free(&w);
    {{.Pkg}}_message_reader_free(&r);
    {{.Pkg}}_arena_free(&heap);
    free(dst.data);
    free(lines.data);
    return result;
}

static int read_full(void* buf, size_t n) {
    return fread(buf, 1, n, stdin) == n;
}

static void reply(uint8_t status, const void* data, size_t n) {
    uint8_t hdr[5];
    uint32_t total = (uint32_t)(n + 1);
    hdr[0] = (uint8_t)total;
    hdr[1] = (uint8_t)(total >> 8);
    hdr[2] = (uint8_t)(total >> 16);
    hdr[3] = (uint8_t)(total >> 24);
    hdr[4] = status;
    fwrite(hdr, 1, 5, stdout);
    if (n > 0) {
        fwrite(data, 1, n, stdout);
    }
    fflush(stdout);
}

/* Serves the runner's requests until stdin ends. */
static int serve(void) {
    for (;;) {
        uint8_t hdr[4];
        uint8_t* req;
        uint8_t* out = NULL;
        size_t out_len = 0;
        uint32_t n;
        int rc;
        char text[{{.Up}}_MAX_PATH + 512];
        if (!read_full(hdr, 4)) {
            return 0;
        }
        n = (uint32_t)hdr[0] | ((uint32_t)hdr[1] << 8) | ((uint32_t)hdr[2] << 16) | ((uint32_t)hdr[3] << 24);
        if (n < 3 || (req = (uint8_t*)malloc(n)) == NULL || !read_full(req, n)) {
            fprintf(stderr, "bad request\n");
            return 1;
        }
        text[0] = 0;
        reject_offset = (size_t)-1;
        if (req[0] == 3) {
            rc = stream(req + 3, n - 3, &out, &out_len, text, sizeof text);
        } else if (req[0] == 4) {
            rc = stream_all(req + 3, n - 3, &out, &out_len);
        } else if (req[0] == 2) {
            rc = dispatch(req + 3, n - 3, &out, &out_len);
        } else {
            rc = roundtrip((uint16_t)(req[1] | (req[2] << 8)), req + 3, n - 3, 0, &out, &out_len);
        }
        if (rc == 0) {
            reply(0, out, out_len);
        } else if (rc == BROKEN) {
            reply(2, broken_msg, strlen(broken_msg));
        } else if (text[0] != 0) {
            reply(1, text, strlen(text));
        } else if (reject_offset != (size_t)-1) {
            /* The library's own text: "<rule> at offset <offset> in <path>: <message>". */
            {{.Pkg}}_decode_error_text(&reject_res, text, sizeof text);
            reply(1, text, strlen(text));
        } else {
            const char* msg = {{.Pkg}}_strerror(rc);
            reply(1, msg, strlen(msg));
        }
        free(out);
        free(req);
    }
}
{{if .Stack}}
static void* serve_thread(void* rc) {
    *(int*)rc = serve();
    return NULL;
}

/* Serves on a thread with a stack of {{.Stack}} bytes. */
{{end}}
{{- if .Main}}int {{.Main}}(void);

int {{.Main}}(void) {
{{- else}}int main(void) {
{{- end}}
{{- if .Stack}}
    pthread_attr_t attr;
    pthread_t thread;
    int rc = 1;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, {{.Stack}}) != 0 ||
        pthread_create(&thread, &attr, serve_thread, &rc) != 0 || pthread_join(thread, NULL) != 0) {
        fprintf(stderr, "cannot start the serving thread\n");
        return 1;
    }
    return rc;
{{- else}}
    return serve();
{{- end}}
}
`))

type testeeStruct struct {
	T, Name string
	ID      uint16
}

// writeTestee writes the testee source for a schema next to its generated code.
func writeTestee(t *testing.T, s *schema.Schema, dir string) {
	t.Helper()
	writeTesteeAs(t, s, dir, "")
}

// writeTesteeAs writes the testee source for a schema; a non-empty mainName
// renames its main function, so that the testees of several schemas link
// into one program.
func writeTesteeAs(t *testing.T, s *schema.Schema, dir, mainName string) {
	t.Helper()
	writeTesteeWith(t, s, dir, mainName, 0)
}

// writeTesteeWith writes the testee source for a schema; a nonzero stack
// makes it serve the requests on a thread with a stack of that many bytes.
func writeTesteeWith(t *testing.T, s *schema.Schema, dir, mainName string, stack int) {
	t.Helper()
	g, err := newGenerator(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := struct {
		Pkg, Up, Main string
		Stack         int
		Structs       []testeeStruct
	}{Pkg: g.pkg, Up: g.up, Main: mainName, Stack: stack}
	for _, st := range s.Structs {
		data.Structs = append(data.Structs, testeeStruct{T: g.typeName(st), Name: st.Name, ID: st.ID})
	}
	var b strings.Builder
	if err := testeeTemplate.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testee.c"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildTestees compiles one sanitized testee per corpus schema, two at a
// time; extra flags select variants (the portable byte-order path).
func buildTestees(t *testing.T, variant string, extra func(pkg string) []string) map[string]string {
	gcc := gentest.RequireTool(t, "gcc")
	builtMu.Lock()
	defer builtMu.Unlock()
	if bins := built[variant]; bins != nil {
		return bins
	}
	root := filepath.Join(scratch(t), "testee-"+variant)
	names := allSchemas(t)
	bins := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	errs := make([]string, len(names))
	for i, name := range names {
		dir := filepath.Join(root, name)
		generate(t, name, dir, gen.Options{})
		writeTestee(t, loadSchema(t, name), dir)
		wg.Add(1)
		go func(i int, name, dir string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := append(append(append([]string{}, strictFlags...), sanitize...), extra(packagePrefix(name))...)
			args = append(args, "testee.c", name+".c", "-o", "testee")
			cmd := exec.Command(gcc, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = name + ": " + err.Error() + "\n" + string(out)
				return
			}
			mu.Lock()
			bins[name] = filepath.Join(dir, "testee")
			mu.Unlock()
		}(i, name, dir)
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	built[variant] = bins
	return bins
}

var (
	builtMu sync.Mutex
	built   = map[string]map[string]string{}
)

func nativeTestees(t *testing.T) map[string]string {
	return buildTestees(t, "native", func(string) []string { return nil })
}

func startFrom(bins map[string]string) conformance.StartFunc {
	return func(t *testing.T, name string) conformance.Testee {
		cmd := exec.Command(bins[name])
		cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1")
		te, err := conformance.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return te
	}
}

// TestConformance runs the whole corpus against sanitized testees, once with
// the byte-order detection and once with the portable byte-by-byte path.
func TestConformance(t *testing.T) {
	start := startFrom(nativeTestees(t))
	conformance.Run(t, "c", start)
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "c", start) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "c", start) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "c", start) })
}

func TestConformancePortable(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	// -O0: the sanitizers still check the portable path; the build is cheaper.
	bins := buildTestees(t, "portable", func(pkg string) []string { return []string{"-D" + upper(pkg) + "_LITTLE_ENDIAN=0", "-O0"} })
	conformance.Run(t, "c", startFrom(bins))
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "c", startFrom(bins)) })
}

// m32 are the flags of the 32-bit variant: size_t, pointers and long of 32
// bits, as on i686 and armv7 (gcc-multilib).
var m32 = []string{"-m32"}

// requireM32 skips a test when gcc cannot build and run a 32-bit program.
func requireM32(t *testing.T) {
	t.Helper()
	gcc := gentest.RequireTool(t, "gcc")
	m32Once.Do(func() {
		dir, err := os.MkdirTemp(scratch(t), "m32-")
		if err != nil {
			m32Err = err.Error()
			return
		}
		src := filepath.Join(dir, "probe.c")
		if err := os.WriteFile(src, []byte("int main(void) { return sizeof(void*) == 4 ? 0 : 1; }\n"), 0o644); err != nil {
			m32Err = err.Error()
			return
		}
		bin := filepath.Join(dir, "probe")
		args := append(append(append([]string{}, m32...), sanitize...), src, "-o", bin)
		if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			m32Err = "gcc -m32: " + err.Error() + "\n" + string(out)
			return
		}
		if out, err := exec.Command(bin).CombinedOutput(); err != nil {
			m32Err = "a -m32 program: " + err.Error() + "\n" + string(out)
		}
	})
	if m32Err != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(m32Err)
		}
		t.Skip("no 32-bit gcc (install gcc-multilib): " + m32Err)
	}
}

var (
	m32Once sync.Once
	m32Err  string
)

// TestConformance32 runs the corpus through testees built with -m32, with
// the sanitizers: every count, length and size computation must hold where
// size_t has 32 bits.
func TestConformance32(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	requireM32(t)
	bins := buildTestees(t, "m32", func(string) []string { return m32 })
	conformance.Run(t, "c", startFrom(bins))
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "c", startFrom(bins)) })
}

// TestErrorRules checks that every invalid vector is rejected with the error
// code of the rule it breaks, so the C decoder agrees error for error.
func TestErrorRules(t *testing.T) {
	bins := nativeTestees(t)
	for _, name := range schemaNames(t) {
		name := name
		t.Run(name, func(t *testing.T) {
			s := gentest.LoadSchema(t, conformance.SchemaPath(name))
			invalid, err := conformance.Invalids(name)
			if err != nil {
				t.Fatal(err)
			}
			te := startFrom(bins)(t, name)
			defer te.Close()
			for _, v := range invalid {
				in, _ := v.Bytes()
				op := conformance.OpRoundtrip
				if v.Message {
					op = conformance.OpMessage
				}
				status, out, err := te.Do(op, s.Struct(v.Type).ID, in)
				if err != nil {
					t.Fatal(err)
				}
				if status != conformance.StatusRejected || !strings.HasPrefix(string(out), v.Rule+" at offset ") {
					t.Errorf("%s (rule %s): status %d, %q", v.ID(), v.Rule, status, out)
				}
			}
		})
	}
}
