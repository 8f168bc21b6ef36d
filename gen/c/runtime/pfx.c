/*
 * The C runtime: the part of every generated <pkg>.c that is the same for
 * every schema, written with the placeholder prefixes pfx and PFX. The
 * generator (runtime.go) cuts it into sections at its section markers and
 * copies the sections a package uses, with the package's prefix; this
 * preamble is not copied. With pfx.h it compiles on its own
 * (TestRuntimeSource).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfx.h"

/*@ core */
#include <stdlib.h>
#include <string.h>

/*
 * Byte order: on little-endian hosts numbers and numeric arrays are copied
 * as they are; elsewhere they are assembled byte by byte. Define
 * PFX_LITTLE_ENDIAN to 0 or 1 to override the detection.
 */
#ifndef PFX_LITTLE_ENDIAN
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PFX_LITTLE_ENDIAN 1
#else
#define PFX_LITTLE_ENDIAN 0
#endif
#elif defined(_MSC_VER) && (defined(_M_IX86) || defined(_M_X64) || defined(_M_ARM) || defined(_M_ARM64))
#define PFX_LITTLE_ENDIAN 1
#else
#define PFX_LITTLE_ENDIAN 0
#endif
#endif

/* The strictest alignment of any type (C99 has no max_align_t). */
typedef union pfx_max_align_ {
    long double ld;
    double d;
    long long ll;
    void* p;
    void (*f)(void);
} pfx_max_align_;
struct pfx_align_probe_ {
    char c;
    pfx_max_align_ u;
};
#define PFX_ALIGN_ offsetof(struct pfx_align_probe_, u)
#define PFX_CHUNK_MIN_ ((size_t)4096)
#define PFX_CHUNK_MAX_ ((size_t)1 << 20)

/* A heap arena's chunk; its memory follows the header. */
struct pfx_arena_chunk_ {
    struct pfx_arena_chunk_* next;
    pfx_max_align_ align;
};

void pfx_arena_init(pfx_arena* a, void* buf, size_t cap) {
    size_t pad;
    memset(a, 0, sizeof *a);
    if (buf == NULL) {
        return;
    }
    pad = (size_t)((PFX_ALIGN_ - (uintptr_t)buf % PFX_ALIGN_) % PFX_ALIGN_);
    if (pad >= cap) {
        return;
    }
    a->base = (unsigned char*)buf + pad;
    a->cap = cap - pad;
}

void pfx_arena_init_heap(pfx_arena* a) {
    memset(a, 0, sizeof *a);
    a->heap = 1;
    a->next_chunk = PFX_CHUNK_MIN_;
}

static void pfx_arena_release_(pfx_arena* a) {
    struct pfx_arena_chunk_* c = a->chunks;
    while (c != NULL) {
        struct pfx_arena_chunk_* next = c->next;
        free(c);
        c = next;
    }
    a->chunks = NULL;
    a->base = NULL;
    a->cap = 0;
}

void pfx_arena_reset(pfx_arena* a) {
    if (a->heap && a->chunks != NULL && a->chunks->next != NULL) {
        /* Several chunks: next time, one chunk holds everything. */
        size_t total = a->retired + a->used;
        pfx_arena_release_(a);
        if (a->next_chunk < total) {
            a->next_chunk = total;
        }
    }
    a->used = 0;
    a->retired = 0;
}

void pfx_arena_free(pfx_arena* a) {
    pfx_arena_release_(a);
    memset(a, 0, sizeof *a);
}

/* Slow path of every allocation: a new chunk (heap arenas only). */
static void* pfx_arena_grow_(pfx_arena* a, size_t bytes) {
    struct pfx_arena_chunk_* c;
    size_t size = a->next_chunk;
    if (!a->heap || bytes > SIZE_MAX - sizeof *c) {
        return NULL;
    }
    if (bytes > size / 4 && a->chunks != NULL) {
        /* A large block gets a chunk of its own; the current chunk stays in use. */
        c = (struct pfx_arena_chunk_*)malloc(sizeof *c + bytes);
        if (c == NULL) {
            return NULL;
        }
        c->next = a->chunks->next;
        a->chunks->next = c;
        a->retired += bytes;
        return c + 1;
    }
    if (size < bytes) {
        size = bytes;
    }
    c = (struct pfx_arena_chunk_*)malloc(sizeof *c + size);
    if (c == NULL) {
        return NULL;
    }
    c->next = a->chunks;
    a->chunks = c;
    a->retired += a->used;
    a->base = (unsigned char*)(c + 1);
    a->cap = size;
    a->used = bytes;
    if (a->next_chunk < PFX_CHUNK_MAX_) {
        a->next_chunk *= 2;
    }
    return a->base;
}

void* pfx_arena_alloc(pfx_arena* a, size_t size) {
    size_t off = (a->used + (PFX_ALIGN_ - 1)) & ~(size_t)(PFX_ALIGN_ - 1);
    if (size == 0) {
        size = 1;
    }
    if (off <= a->cap && size <= a->cap - off) {
        a->used = off + size;
        return a->base + off;
    }
    return pfx_arena_grow_(a, size);
}

size_t pfx_arena_used(const pfx_arena* a) {
    return a->retired + a->used;
}

const char* pfx_strerror(int code) {
    switch (code) {
    case PFX_OK:
        return "ok";
    case PFX_ERR_TRUNCATED:
        return "truncated: the input ends inside a value";
    case PFX_ERR_TRAILING:
        return "trailing: bytes remain after the value";
    case PFX_ERR_BOOL:
        return "bool: a bool byte other than 0 or 1";
    case PFX_ERR_PRESENCE:
        return "presence: an optional's presence byte other than 0 or 1";
    case PFX_ERR_ENUM:
        return "enum: a number that names no enum value";
    case PFX_ERR_UNION_TAG:
        return "union_tag: a union tag with no variant";
    case PFX_ERR_UTF8:
        return "utf8: a string that is not valid UTF-8";
    case PFX_ERR_COUNT:
        return "count: an array count or string length larger than the remaining input";
    case PFX_ERR_DEPTH:
        return "depth: nesting deeper than the depth limit";
    case PFX_ERR_MESSAGE:
        return "message: a bad message header (magic, type id or payload length) or hello";
    case PFX_ERR_NO_MEMORY:
        return "no_memory: the arena is out of memory";
    case PFX_ERR_MEMORY:
        return "memory: the value would take more memory than the memory limit";
    case PFX_ERR_ENCODE:
        return "encode: the value cannot be encoded";
    case PFX_ERR_WRITE:
        return "write: the write callback failed";
    case PFX_ERR_BUFFER:
        return "buffer: the buffer is smaller than the encoding";
    case PFX_ERR_SCHEMA:
        return "schema: the stream was written from another version of the schema, or lacks a required hello";
    case PFX_END:
        return "end: the stream ends between two messages";
    }
    return "unknown error";
}

/* Appends s to the text at buf (n bytes so far), as much as fits cap with a NUL; returns the full length. */
static size_t pfx_text_put_(char* buf, size_t cap, size_t n, const char* s) {
    for (; *s != '\0'; s++, n++) {
        if (n + 1 < cap) {
            buf[n] = *s;
        }
    }
    return n;
}

/* Appends v in decimal, or in 16 hex digits when hex is set. */
static size_t pfx_text_num_(char* buf, size_t cap, size_t n, uint64_t v, int hex) {
    char digits[21];
    size_t i = sizeof digits - 1;
    unsigned base = hex ? 16u : 10u;
    digits[i] = '\0';
    do {
        digits[--i] = "0123456789abcdef"[v % base];
        v /= base;
    } while (hex ? i > sizeof digits - 17 : v != 0);
    return pfx_text_put_(buf, cap, n, digits + i);
}

/* Terminates the text at buf (n bytes long, cut to cap) and returns n. */
static size_t pfx_text_end_(char* buf, size_t cap, size_t n) {
    if (cap > 0) {
        buf[n < cap ? n : cap - 1] = '\0';
    }
    return n;
}

/*
 * Appends the part of pfx_strerror(code) before its ": " (the rule's name)
 * when rule is set, else the part after it (the message).
 */
static size_t pfx_text_code_(char* buf, size_t cap, size_t n, int code, int rule) {
    const char* s = pfx_strerror(code);
    const char* colon = s;
    while (*colon != '\0' && *colon != ':') {
        colon++;
    }
    if (*colon == '\0') {
        return rule ? pfx_text_put_(buf, cap, n, s) : n;
    }
    if (!rule) {
        return pfx_text_put_(buf, cap, n, colon[1] == ' ' ? colon + 2 : colon + 1);
    }
    for (; s < colon; s++, n++) {
        if (n + 1 < cap) {
            buf[n] = *s;
        }
    }
    return n;
}

/* "<rule> at offset <offset>[ in <path>]: <message>", as pfx_decode_error_text. */
static size_t pfx_text_decode_(char* buf, size_t cap, size_t n, int code, uint64_t offset, const char* path) {
    n = pfx_text_code_(buf, cap, n, code, 1);
    n = pfx_text_put_(buf, cap, n, " at offset ");
    n = pfx_text_num_(buf, cap, n, offset, 0);
    if (path[0] != '\0') {
        n = pfx_text_put_(buf, cap, n, " in ");
        n = pfx_text_put_(buf, cap, n, path);
    }
    n = pfx_text_put_(buf, cap, n, ": ");
    return pfx_text_code_(buf, cap, n, code, 0);
}

size_t pfx_decode_error_text(const pfx_decode_result* res, char* buf, size_t cap) {
    return pfx_text_end_(buf, cap, pfx_text_decode_(buf, cap, 0, res->error, res->offset, res->path));
}

/* Whether the NUL-terminated strings a and b are equal. */
static int pfx_text_eq_(const char* a, const char* b) {
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

size_t pfx_encode_error_text(const pfx_encode_result* res, char* buf, size_t cap) {
    size_t n = 0;
    const char* rule = res->rule != NULL ? res->rule : "";
    const char* msg = NULL;
    if (res->error != PFX_ERR_ENCODE || rule[0] == '\0') {
        n = pfx_text_code_(buf, cap, n, res->error, 1);
    } else {
        n = pfx_text_put_(buf, cap, n, rule);
        if (pfx_text_eq_(rule, "enum")) {
            msg = "a number that names no value of the enum";
        } else if (pfx_text_eq_(rule, "union_tag")) {
            msg = "a tag that names no variant of the union";
        } else if (pfx_text_eq_(rule, "utf8")) {
            msg = "the string is not valid UTF-8";
        } else if (pfx_text_eq_(rule, "size")) {
            msg = "the encoding is larger than size_t holds on this host";
        } else if (pfx_text_eq_(rule, "message")) {
            msg = "the payload is over the writer's max_size, or over a message's 4294967295 bytes";
        } else {
            msg = "the value cannot be encoded";
        }
    }
    if (res->error == PFX_ERR_ENCODE && res->path[0] != '\0') {
        n = pfx_text_put_(buf, cap, n, " in ");
        n = pfx_text_put_(buf, cap, n, res->path);
    }
    n = pfx_text_put_(buf, cap, n, ": ");
    n = msg != NULL ? pfx_text_put_(buf, cap, n, msg) : pfx_text_code_(buf, cap, n, res->error, 0);
    return pfx_text_end_(buf, cap, n);
}

/* The state of one decode call. */
typedef struct pfx_dec_ {
    const uint8_t* origin; /* offsets are reported from here */
    const uint8_t* end;
    pfx_arena* arena;
    uint32_t max_depth;
    int err;
    const uint8_t* at;
    uint64_t mem_limit; /* rule 11, set by pfx_mem_init_ where the schema has charges */
    uint64_t mem_used;
    /*
     * On error: the path so far, built from the end of path back to
     * path + path_at as the error unwinds (innermost segment first); cut is
     * set when a segment did not fit. Untouched on success.
     */
    size_t path_at;
    int cut;
    char path[PFX_MAX_PATH];
} pfx_dec_;

static const uint8_t pfx_empty_[1] = {0};

static const uint8_t* pfx_fail_(pfx_dec_* d, const uint8_t* at, int err) {
    d->err = err;
    d->at = at;
    d->path_at = PFX_MAX_PATH - 1;
    d->path[PFX_MAX_PATH - 1] = '\0';
    d->cut = 0;
    return NULL;
}

/* Prepends the n bytes at s to the error's path, as many as fit. */
static void pfx_path_put_(pfx_dec_* d, const char* s, size_t n) {
    while (n > 0 && d->path_at > 0) {
        d->path[--d->path_at] = s[--n];
    }
    if (n > 0) {
        d->cut = 1;
    }
}

/*
 * Prepend a segment to the path of the error being returned (the field or
 * variant name; pfx_in_elem_, an array index), and return NULL: the
 * decoders call them on their error paths only, innermost segment first.
 */
static const uint8_t* pfx_in_field_(pfx_dec_* d, const char* name) {
    if (d->path[d->path_at] != '\0' && d->path[d->path_at] != '[') {
        pfx_path_put_(d, ".", 1);
    }
    size_t n = 0;
    while (name[n] != '\0') {
        n++;
    }
    pfx_path_put_(d, name, n);
    return NULL;
}

/* Copies the error's path to out (PFX_MAX_PATH bytes), cut as PFX_MAX_PATH says. */
static void pfx_path_out_(const pfx_dec_* d, char* out) {
    const char* s = d->path + d->path_at;
    size_t n = PFX_MAX_PATH - 1 - d->path_at;
    if (d->cut) {
        memcpy(out, "...", 3);
        out += 3;
        if (n > PFX_MAX_PATH - 4) {
            s += n - (PFX_MAX_PATH - 4);
            n = PFX_MAX_PATH - 4;
        }
    }
    memcpy(out, s, n);
    out[n] = '\0';
}

static const uint8_t* pfx_dec_init_(pfx_dec_* d, const uint8_t* data, size_t len, pfx_arena* arena,
                                    const pfx_decode_options* opt) {
    if (data == NULL) {
        data = pfx_empty_;
        len = 0;
    }
    d->origin = data;
    d->end = data + len;
    d->arena = arena;
    d->max_depth = opt != NULL && opt->max_depth != 0 ? opt->max_depth : PFX_DEFAULT_MAX_DEPTH;
    d->err = 0;
    d->at = data;
    return data;
}

static int pfx_dec_done_(pfx_dec_* d, const uint8_t* p, int allow_trailing, pfx_decode_result* res) {
    if (p != NULL && p != d->end && !allow_trailing) {
        p = pfx_fail_(d, p, PFX_ERR_TRAILING);
    }
    if (res != NULL) {
        res->error = p != NULL ? 0 : d->err;
        res->offset = p != NULL ? 0 : (size_t)(d->at - d->origin);
        res->consumed = p != NULL ? (size_t)(p - d->origin) : 0;
        if (p != NULL) {
            res->path[0] = '\0';
        } else {
            pfx_path_out_(d, res->path);
        }
    }
    return p != NULL ? 0 : d->err;
}

static uint16_t pfx_get_u16_(const uint8_t* p) {
#if PFX_LITTLE_ENDIAN
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
#else
    return (uint16_t)(p[0] | (p[1] << 8));
#endif
}

static uint32_t pfx_get_u32_(const uint8_t* p) {
#if PFX_LITTLE_ENDIAN
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}

static void pfx_put_u16_(uint8_t* p, uint16_t v) {
#if PFX_LITTLE_ENDIAN
    memcpy(p, &v, 2);
#else
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
#endif
}

static void pfx_put_u32_(uint8_t* p, uint32_t v) {
#if PFX_LITTLE_ENDIAN
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
#endif
}

int pfx_read_message_header(const uint8_t* data, size_t len, uint16_t* type_id, uint32_t* payload_len) {
    if (data == NULL || len < PFX_MESSAGE_HEADER_SIZE) {
        return PFX_ERR_TRUNCATED;
    }
    if (memcmp(data, "SDP2", 4) != 0) {
        return PFX_ERR_MESSAGE;
    }
    *type_id = pfx_get_u16_(data + 4);
    *payload_len = pfx_get_u32_(data + 6);
    return PFX_OK;
}

static int pfx_known_type_(uint16_t type_id);

/*
 * Checks a message header and limits d to the payload; NULL on error. want
 * is the only type id accepted, or -1 for any struct of the schema. Front
 * to back, as the reference decoder: the magic, the type id, the length.
 */
static const uint8_t* pfx_read_header_(pfx_dec_* d, const uint8_t* data, size_t len, pfx_arena* arena,
                                       const pfx_decode_options* opt, uint16_t* type_id, long want) {
    uint32_t payload;
    size_t n;
    int err;
    const uint8_t* p = pfx_dec_init_(d, data, len, arena, opt);
    n = (size_t)(d->end - p);
    err = pfx_read_message_header(p, n, type_id, &payload);
    if (err != PFX_OK) {
        pfx_fail_(d, p, err);
        return pfx_in_field_(d, "message");
    }
    if (want >= 0 ? *type_id != (uint16_t)want : !pfx_known_type_(*type_id)) {
        pfx_fail_(d, p + 4, PFX_ERR_MESSAGE);
        return pfx_in_field_(d, "message");
    }
    n -= PFX_MESSAGE_HEADER_SIZE;
    if (opt != NULL && opt->allow_trailing ? payload > n : payload != n) {
        pfx_fail_(d, p + 6, PFX_ERR_MESSAGE);
        return pfx_in_field_(d, "message");
    }
    d->end = p + PFX_MESSAGE_HEADER_SIZE + payload;
    return p + PFX_MESSAGE_HEADER_SIZE;
}

/* Writes a message header; the caller checked the room and the size. */
static uint8_t* pfx_put_header_(uint8_t* p, uint16_t type_id, size_t payload) {
    memcpy(p, "SDP2", 4);
    pfx_put_u16_(p + 4, type_id);
    pfx_put_u32_(p + 6, (uint32_t)payload);
    return p + PFX_MESSAGE_HEADER_SIZE;
}

/*@ add_ */
/* Saturating size arithmetic: SIZE_MAX means "too large to encode". */
static size_t pfx_add_(size_t a, size_t b) {
    return b > SIZE_MAX - a ? SIZE_MAX : a + b;
}

/*@ over_u32_ */
/* A payload size a message header cannot carry (never where size_t has 32 bits). */
static int pfx_over_u32_(size_t n) {
#if SIZE_MAX > UINT32_MAX
    return n > UINT32_MAX;
#else
    (void)n;
    return 0;
#endif
}

/*@ in_elem_ */
static const uint8_t* pfx_in_elem_(pfx_dec_* d, size_t i) {
    char digits[24];
    size_t n = sizeof digits;
    if (d->path[d->path_at] != '\0' && d->path[d->path_at] != '[') {
        pfx_path_put_(d, ".", 1);
    }
    digits[--n] = ']';
    do {
        digits[--n] = (char)('0' + i % 10);
        i /= 10;
    } while (i != 0);
    digits[--n] = '[';
    pfx_path_put_(d, digits + n, sizeof digits - n);
    return NULL;
}

/*@ mul_ */
static size_t pfx_mul_(size_t n, size_t size) {
    return n > SIZE_MAX / size ? SIZE_MAX : n * size;
}

/*@ get_u64_ */
static uint64_t pfx_get_u64_(const uint8_t* p) {
#if PFX_LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
#endif
}

/*@ put_u64_ */
static void pfx_put_u64_(uint8_t* p, uint64_t v) {
#if PFX_LITTLE_ENDIAN
    memcpy(p, &v, 8);
#else
    int i;
    for (i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
#endif
}

/*@ get_f32_ */
/*
 * Floating-point values go from bytes to memory and back without passing
 * through a floating-point register: x87 (i386) loads quiet signalling NaNs.
 */
static void pfx_get_f32_(float* f, const uint8_t* p) {
    uint32_t u = pfx_get_u32_(p);
    memcpy(f, &u, 4);
}

/*@ get_f64_: get_u64_ */
static void pfx_get_f64_(double* f, const uint8_t* p) {
    uint64_t u = pfx_get_u64_(p);
    memcpy(f, &u, 8);
}

/*@ put_f32_ */
static void pfx_put_f32_(uint8_t* p, const float* f) {
    uint32_t u;
    memcpy(&u, f, 4);
    pfx_put_u32_(p, u);
}

/*@ put_f64_: put_u64_ */
static void pfx_put_f64_(uint8_t* p, const double* f) {
    uint64_t u;
    memcpy(&u, f, 8);
    pfx_put_u64_(p, u);
}

/*@ get_le16s_ */
/* n little-endian 16-bit numbers from src into the array at dst. */
static void pfx_get_le16s_(void* dst, const uint8_t* src, size_t n) {
#if PFX_LITTLE_ENDIAN
    memcpy(dst, src, n * 2);
#else
    size_t i;
    for (i = 0; i < n; i++) {
        uint16_t v = pfx_get_u16_(src + 2 * i);
        memcpy((unsigned char*)dst + 2 * i, &v, 2);
    }
#endif
}

/*@ get_le32s_ */
static void pfx_get_le32s_(void* dst, const uint8_t* src, size_t n) {
#if PFX_LITTLE_ENDIAN
    memcpy(dst, src, n * 4);
#else
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t v = pfx_get_u32_(src + 4 * i);
        memcpy((unsigned char*)dst + 4 * i, &v, 4);
    }
#endif
}

/*@ get_le64s_ */
static void pfx_get_le64s_(void* dst, const uint8_t* src, size_t n) {
#if PFX_LITTLE_ENDIAN
    memcpy(dst, src, n * 8);
#else
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t v = (uint64_t)pfx_get_u32_(src + 8 * i) | ((uint64_t)pfx_get_u32_(src + 8 * i + 4) << 32);
        memcpy((unsigned char*)dst + 8 * i, &v, 8);
    }
#endif
}

/*@ put_le16s_ */
/* n numbers of 16 bits from the array at src, little-endian; returns the end. */
static uint8_t* pfx_put_le16s_(uint8_t* p, const void* src, size_t n) {
    if (n == 0) {
        return p;
    }
#if PFX_LITTLE_ENDIAN
    memcpy(p, src, n * 2);
#else
    {
        size_t i;
        for (i = 0; i < n; i++) {
            uint16_t v;
            memcpy(&v, (const unsigned char*)src + 2 * i, 2);
            pfx_put_u16_(p + 2 * i, v);
        }
    }
#endif
    return p + n * 2;
}

/*@ put_le32s_ */
static uint8_t* pfx_put_le32s_(uint8_t* p, const void* src, size_t n) {
    if (n == 0) {
        return p;
    }
#if PFX_LITTLE_ENDIAN
    memcpy(p, src, n * 4);
#else
    {
        size_t i;
        for (i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, (const unsigned char*)src + 4 * i, 4);
            pfx_put_u32_(p + 4 * i, v);
        }
    }
#endif
    return p + n * 4;
}

/*@ put_le64s_ */
static uint8_t* pfx_put_le64s_(uint8_t* p, const void* src, size_t n) {
    if (n == 0) {
        return p;
    }
#if PFX_LITTLE_ENDIAN
    memcpy(p, src, n * 8);
#else
    {
        size_t i;
        for (i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, (const unsigned char*)src + 8 * i, 8);
            pfx_put_u32_(p + 8 * i, (uint32_t)v);
            pfx_put_u32_(p + 8 * i + 4, (uint32_t)(v >> 32));
        }
    }
#endif
    return p + n * 8;
}

/*@ put_bytes_ */
/* A u32 count or length, then n bytes. */
static uint8_t* pfx_put_bytes_(uint8_t* p, const void* src, uint32_t n) {
    pfx_put_u32_(p, n);
    if (n != 0) {
        memcpy(p + 4, src, n);
    }
    return p + 4 + (size_t)n;
}

/*@ mem_init_ */
/* Rule 11: the memory limit for the input from p to d->end, and a zero total. */
static void pfx_mem_init_(pfx_dec_* d, const uint8_t* p, const pfx_decode_options* opt) {
    uint64_t n = (uint64_t)(d->end - p);
    d->mem_used = 0;
    if (opt != NULL && opt->memory_limit != 0) {
        d->mem_limit = opt->memory_limit;
    } else if (n > (UINT64_MAX - PFX_MEMORY_ALLOWANCE) / PFX_MEMORY_RATIO) {
        d->mem_limit = UINT64_MAX;
    } else {
        d->mem_limit = PFX_MEMORY_RATIO * n + PFX_MEMORY_ALLOWANCE;
    }
}

/*@ charge_ */
/* Adds n values of each bytes of nominal size to the total: 0 when that would exceed the limit. */
static int pfx_charge_(pfx_dec_* d, uint64_t n, uint64_t each) {
    if (n > (d->mem_limit - d->mem_used) / each) {
        return 0;
    }
    d->mem_used += n * each;
    return 1;
}

/*@ alloc_ */
/* n elements of size bytes, aligned for any type; NULL when out of memory. */
static void* pfx_alloc_(pfx_arena* a, size_t n, size_t size) {
    size_t off, bytes;
    if (n > SIZE_MAX / size) {
        return NULL;
    }
    bytes = n * size;
    off = (a->used + (PFX_ALIGN_ - 1)) & ~(size_t)(PFX_ALIGN_ - 1);
    if (off <= a->cap && bytes <= a->cap - off) {
        a->used = off + bytes;
        return a->base + off;
    }
    return pfx_arena_grow_(a, bytes);
}

/*@ alloc_bytes_ */
/* n unaligned bytes (n > 0); NULL when out of memory. */
static char* pfx_alloc_bytes_(pfx_arena* a, size_t n) {
    if (n <= a->cap - a->used) {
        char* s = (char*)a->base + a->used;
        a->used += n;
        return s;
    }
    return (char*)pfx_arena_grow_(a, n);
}

/*@ utf8_valid_ */
/* Well-formed UTF-8 (Unicode table 3-7): no overlong forms, surrogates or values above U+10FFFF. */
static int pfx_utf8_valid_(const uint8_t* s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c;
        if (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if ((w & UINT64_C(0x8080808080808080)) == 0) {
                i += 8;
                continue;
            }
        }
        c = s[i];
        if (c < 0x80) {
            i++;
        } else if (c >= 0xC2 && c <= 0xDF) {
            if (n - i < 2 || (s[i + 1] & 0xC0) != 0x80) {
                return 0;
            }
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            uint8_t lo = c == 0xE0 ? 0xA0 : 0x80;
            uint8_t hi = c == 0xED ? 0x9F : 0xBF;
            if (n - i < 3 || s[i + 1] < lo || s[i + 1] > hi || (s[i + 2] & 0xC0) != 0x80) {
                return 0;
            }
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            uint8_t lo = c == 0xF0 ? 0x90 : 0x80;
            uint8_t hi = c == 0xF4 ? 0x8F : 0xBF;
            if (n - i < 4 || s[i + 1] < lo || s[i + 1] > hi || (s[i + 2] & 0xC0) != 0x80 ||
                (s[i + 3] & 0xC0) != 0x80) {
                return 0;
            }
            i += 4;
        } else {
            return 0;
        }
    }
    return 1;
}

/*@ str_size_: utf8_valid_ */
/*
 * A string's length, or SIZE_MAX when it is not valid UTF-8 (a decoder would
 * reject it). Mostly short ASCII: that is checked inline, with overlapping
 * word loads as in pfx_put_str_; anything else goes to pfx_utf8_valid_.
 * Define PFX_ENCODE_UTF8_CHECK to 0 when compiling this file to skip the
 * check.
 */
#ifndef PFX_ENCODE_UTF8_CHECK
#define PFX_ENCODE_UTF8_CHECK 1
#endif
static inline size_t pfx_str_size_(const pfx_str* s) {
#if PFX_ENCODE_UTF8_CHECK
    const uint8_t* const d = (const uint8_t*)s->data;
    const uint32_t n = s->len;
    int ascii;
    if (n >= 8) {
        uint64_t w, acc = 0;
        uint32_t i;
        for (i = 0; n - i > 8; i += 8) {
            memcpy(&w, d + i, 8);
            acc |= w;
        }
        memcpy(&w, d + n - 8, 8);
        ascii = ((acc | w) & UINT64_C(0x8080808080808080)) == 0;
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, d, 4);
        memcpy(&b, d + n - 4, 4);
        ascii = ((a | b) & 0x80808080u) == 0;
    } else {
        ascii = n == 0 || ((d[0] | d[n / 2] | d[n - 1]) & 0x80) == 0;
    }
    if (!ascii && !pfx_utf8_valid_(d, n)) {
        return SIZE_MAX;
    }
#else
    (void)pfx_utf8_valid_;
#endif
    return s->len;
}

/*@ put_str_ */
/*
 * A length and the string's bytes. Strings are mostly short: a call to
 * memcpy with a variable length costs more than the copy, so up to 15 bytes
 * are copied with two fixed-size (overlapping) moves the compiler inlines.
 * inline: without it compilers keep this a call, and encoders spend their
 * time on calls.
 */
static inline uint8_t* pfx_put_str_(uint8_t* p, const pfx_str* s) {
    const uint32_t n = s->len;
    const char* const src = s->data;
    uint8_t* const d = p + 4;
    pfx_put_u32_(p, n);
    if (n >= 16) {
        memcpy(d, src, n);
    } else if (n >= 8) {
        memcpy(d, src, 8);
        memcpy(d + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, src, 4);
        memcpy(d + n - 4, src + n - 4, 4);
    } else if (n != 0) {
        d[0] = (uint8_t)src[0];
        d[n / 2] = (uint8_t)src[n / 2];
        d[n - 1] = (uint8_t)src[n - 1];
    }
    return d + n;
}

/*@ read_str_: alloc_bytes_ utf8_valid_ */
/* A string into arena memory, NUL-terminated. */
static const uint8_t* pfx_read_str_(pfx_dec_* d, const uint8_t* p, pfx_str* out) {
    uint32_t n;
    char* s;
    if ((size_t)(d->end - p) < 4) {
        return pfx_fail_(d, p, PFX_ERR_TRUNCATED);
    }
    n = pfx_get_u32_(p);
    if (n > (size_t)(d->end - p) - 4) {
        return pfx_fail_(d, p, PFX_ERR_COUNT);
    }
    if (!pfx_utf8_valid_(p + 4, n)) {
        return pfx_fail_(d, p, PFX_ERR_UTF8);
    }
    s = pfx_alloc_bytes_(d->arena, (size_t)n + 1);
    if (s == NULL) {
        return pfx_fail_(d, p, PFX_ERR_NO_MEMORY);
    }
    memcpy(s, p + 4, n);
    s[n] = '\0';
    out->data = s;
    out->len = n;
    return p + 4 + (size_t)n;
}

/*@ check_ */
/*
 * The check walk of an encode that failed (its size was SIZE_MAX): the
 * generated _check_ functions visit the value in encoding order and stop at
 * the first value that has no encoding, with a decoder's state d holding
 * its rule (as the decode error code of that rule: PFX_ERR_ENUM,
 * PFX_ERR_UNION_TAG, PFX_ERR_UTF8) and its path, built as the walk unwinds.
 * They return 1 when the value is fine, else 0.
 *
 * pfx_refuse_ fills res (may be NULL) for a value whose size was SIZE_MAX,
 * after its check walk: ok means the walk found nothing, so the size itself
 * is too large for size_t (rule size). It returns PFX_ERR_ENCODE.
 */
static int pfx_refuse_(pfx_encode_result* res, pfx_dec_* d, int ok) {
    if (res != NULL) {
        res->error = PFX_ERR_ENCODE;
        res->written = 0;
        res->path[0] = '\0';
        if (ok) {
            res->rule = "size";
        } else {
            res->rule = d->err == PFX_ERR_ENUM ? "enum" : d->err == PFX_ERR_UNION_TAG ? "union_tag" : "utf8";
            pfx_path_out_(d, res->path);
        }
    }
    return PFX_ERR_ENCODE;
}

/*@ check_fail_ */
static int pfx_check_fail_(pfx_dec_* d, int rule) {
    (void)pfx_fail_(d, NULL, rule);
    return 0;
}

/*@ check_str_: check_fail_ utf8_valid_ */
#ifndef PFX_ENCODE_UTF8_CHECK
#define PFX_ENCODE_UTF8_CHECK 1
#endif
static int pfx_check_str_(pfx_dec_* d, const pfx_str* s) {
#if PFX_ENCODE_UTF8_CHECK
    if (!pfx_utf8_valid_((const uint8_t*)s->data, s->len)) {
        return pfx_check_fail_(d, PFX_ERR_UTF8);
    }
#else
    (void)d;
    (void)s;
#endif
    return 1;
}

/*@ check_enum_: check_fail_ */
static int pfx_check_enum_(pfx_dec_* d, int valid) {
    return valid ? 1 : pfx_check_fail_(d, PFX_ERR_ENUM);
}

/*@ check_in_ */
/* Prepend a field's name to the path; return 0. */
static int pfx_check_in_(pfx_dec_* d, const char* name) {
    (void)pfx_in_field_(d, name);
    return 0;
}

/*@ check_at_: in_elem_ */
/* Prepend an element's index to the path; return 0. */
static int pfx_check_at_(pfx_dec_* d, size_t i) {
    (void)pfx_in_elem_(d, i);
    return 0;
}

/*@ encoded_: */
/* Fills res (may be NULL) for an encode that returns code (0 or PFX_ERR_BUFFER) and takes n bytes. */
static int pfx_encoded_(pfx_encode_result* res, int code, size_t n) {
    if (res != NULL) {
        res->error = code;
        res->rule = "";
        res->written = n;
        res->path[0] = '\0';
    }
    return code;
}

/* Fills res (may be NULL) for a message payload over max (rule message). */
static int pfx_refuse_message_(pfx_encode_result* res) {
    if (res != NULL) {
        res->error = PFX_ERR_ENCODE;
        res->rule = "message";
        res->written = 0;
        memcpy(res->path, "message", 8);
    }
    return PFX_ERR_ENCODE;
}
