package c

import (
	"sort"
	"strconv"
	"strings"

	"sdp/schema"
)

// The stream reader and writer (docs/wire-format.md, "Streams") are the
// same C for every schema, written with the placeholder prefixes; only
// pfx_known_type_ is generated from the schema's structs.

const streamDecls = `/** Reads up to n bytes into buf and returns how many: 0 only at the end of the stream (or on a read error). */
typedef size_t (*pfx_read_fn)(void* ctx, uint8_t* buf, size_t n);
/** Writes the n bytes at buf and returns how many it wrote: fewer is an error. */
typedef size_t (*pfx_write_fn)(void* ctx, const uint8_t* buf, size_t n);

/** The largest payload a message reader accepts unless told otherwise: 64 MiB. */
#define PFX_DEFAULT_MAX_MESSAGE_SIZE (64u << 20)
/**
 * The type id of a hello, the message pfx_write_hello writes first
 * (docs/wire-format.md, "The schema check (hello)"); no struct has it.
 */
#define PFX_HELLO_TYPE_ID 0u

/** What pfx_read_message reports besides its return value. */
typedef struct pfx_stream_result {
    /** 0, PFX_END or the PFX_ERR_* code, as returned. */
    int error;
    /** The message's index in the stream, from 0 (at PFX_END: the number of messages); a hello is message 0. */
    uint64_t index;
    /**
     * On error: the stream offset (from the start of the stream) of the
     * problem, as docs/wire-format.md "Streams" defines it; for a payload
     * its decoder rejects, the decoder's offset plus the payload's start.
     */
    uint64_t offset;
    /** The stream offset of the message's header. */
    uint64_t start;
    /**
     * On error: nonzero when the reader consumed the whole message (a bad
     * payload, or an unknown type id with a complete payload within
     * max_size), so the next pfx_read_message reads the next message.
     */
    int skipped;
    /**
     * On PFX_ERR_SCHEMA from a hello: the type id of the struct the writer's
     * schema has another version of, and the writer's fingerprint of it
     * (this schema's is the struct's _FINGERPRINT macro). 0 otherwise, and
     * when a required hello is missing.
     */
    uint16_t schema_type_id;
    uint64_t writer_fingerprint;
    /**
     * On error: the field path of the problem, as in pfx_decode_result: a
     * payload's decoder's path, "message" for a header's or a hello's.
     */
    char path[PFX_MAX_PATH];
} pfx_stream_result;

/**
 * Reads the messages of a stream one at a time (pfx_read_message). It reads
 * exactly the bytes of one message per call (give it a buffered source),
 * keeps one buffer, as large as the largest message so far, grown only as
 * the bytes arrive, and decodes into an arena it resets before every
 * message. Set up with pfx_message_reader_init; release with
 * pfx_message_reader_free. max_size and options may be changed between
 * reads, require_hello before the first; the other fields are private.
 *
 * A hello (pfx_write_hello) as the stream's first message is checked, not
 * returned: the next message has index 1. A hello that gives a struct of
 * this schema another fingerprint fails with PFX_ERR_SCHEMA (the result
 * names the struct; pfx_stream_error_text describes it), a malformed one
 * with PFX_ERR_MESSAGE; neither can be skipped.
 */
typedef struct pfx_message_reader {
    /** The largest payload length accepted, refused before it is read; UINT32_MAX accepts any. */
    uint32_t max_size;
    /** The decode options of every message (allow_trailing is ignored). */
    pfx_decode_options options;
    /**
     * Nonzero refuses a stream whose first message is not a hello, with
     * PFX_ERR_SCHEMA at offset 4 (an empty stream is not refused): set it
     * when the writer is known to send one.
     */
    int require_hello;
    int schema_checked;
    pfx_read_fn read;
    void* ctx;
    pfx_arena* arena;
    uint8_t* buf;
    size_t cap;
    uint64_t index;
    uint64_t offset;
    pfx_stream_result failed;
} pfx_message_reader;

/** Reads from fn(ctx, ...), decoding into arena, with max_size PFX_DEFAULT_MAX_MESSAGE_SIZE. */
void pfx_message_reader_init(pfx_message_reader* r, pfx_read_fn fn, void* ctx, pfx_arena* arena);
/**
 * Reads and decodes the next message into out: 0, PFX_END when the stream
 * ends between two messages, or a negative error code (res, which may be
 * NULL, tells which message and where). The reader resets its arena first:
 * the message stays valid until the next pfx_read_message or until the
 * arena is reset or freed; after the first messages, a heap arena and the
 * reader's buffer have the size the stream needs and reading allocates
 * nothing more. Unless it returns 0, *out is the zero message (type_id 0).
 * After an error with res->skipped set the reader can go on; after any
 * other error every call returns that error again.
 */
int pfx_read_message(pfx_message_reader* r, pfx_message* out, pfx_stream_result* res);
/** Releases the reader's buffer (not its arena). */
void pfx_message_reader_free(pfx_message_reader* r);
/**
 * Nonzero once the stream began with a hello that agreed with this schema
 * (every struct both schemas have has the same fingerprint).
 */
int pfx_message_reader_schema_checked(const pfx_message_reader* r);
/**
 * Describes the error res reports as NUL-terminated text "<rule>: ...",
 * cut to fit cap bytes (cap may be 0), and returns its full length: for a
 * hello from another version of the schema, the struct's name, both
 * fingerprints and a hint to run sdp compat; otherwise pfx_strerror's text.
 */
size_t pfx_stream_error_text(const pfx_stream_result* res, char* buf, size_t cap);

/** Writes messages to a stream (pfx_write_message), encoding into one buffer it keeps. */
typedef struct pfx_message_writer {
    /**
     * The largest payload written, in bytes (PFX_DEFAULT_MAX_MESSAGE_SIZE
     * after _init): pfx_write_message refuses a larger message, which a
     * reader with the same max_size would refuse, with PFX_ERR_ENCODE and
     * writes nothing.
     */
    size_t max_size;
    pfx_write_fn write;
    void* ctx;
    uint8_t* buf;
    size_t cap;
} pfx_message_writer;

/** Writes to fn(ctx, ...), with max_size PFX_DEFAULT_MAX_MESSAGE_SIZE. */
void pfx_message_writer_init(pfx_message_writer* w, pfx_write_fn fn, void* ctx);
/**
 * Writes a hello: the fingerprint of every struct of the schema, by type id
 * (docs/wire-format.md, "The schema check (hello)"). Call it first, if at
 * all: a reader built from another version of the schema then refuses the
 * stream (PFX_ERR_SCHEMA) before any data is decoded. A stream without a
 * hello is what SDP 0.2 writes. 0, PFX_ERR_NO_MEMORY or PFX_ERR_WRITE.
 */
int pfx_write_hello(pfx_message_writer* w);
/**
 * Encodes m as a message and writes it: 0, PFX_ERR_ENCODE (m cannot be
 * encoded, see _encoded_size, or its payload is over max_size: nothing is
 * written), PFX_ERR_NO_MEMORY or PFX_ERR_WRITE.
 */
int pfx_write_message(pfx_message_writer* w, const pfx_message* m);
/** Releases the writer's buffer. */
void pfx_message_writer_free(pfx_message_writer* w);
`

const streamDefs = `void pfx_message_reader_init(pfx_message_reader* r, pfx_read_fn fn, void* ctx, pfx_arena* arena) {
    memset(r, 0, sizeof *r);
    r->max_size = PFX_DEFAULT_MAX_MESSAGE_SIZE;
    r->read = fn;
    r->ctx = ctx;
    r->arena = arena;
}

void pfx_message_reader_free(pfx_message_reader* r) {
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}

/* Reads n bytes into buf: fewer only where the stream ends. */
static size_t pfx_read_full_(pfx_message_reader* r, uint8_t* buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        size_t k = r->read(r->ctx, buf + got, n - got);
        if (k == 0 || k > n - got) {
            break;
        }
        got += k;
    }
    return got;
}

/* Reads and drops n bytes: 0 when the stream ends first. */
static int pfx_reader_skip_(pfx_message_reader* r, uint32_t n) {
    uint8_t chunk[256];
    while (n > 0) {
        size_t k = n < sizeof chunk ? (size_t)n : sizeof chunk;
        if (pfx_read_full_(r, chunk, k) != k) {
            return 0;
        }
        n -= (uint32_t)k;
    }
    return 1;
}

/* Grows the buffer to cap bytes; 0 when out of memory. */
static int pfx_reader_grow_(pfx_message_reader* r, size_t cap) {
    uint8_t* buf = (uint8_t*)realloc(r->buf, cap);
    if (buf == NULL) {
        return 0;
    }
    r->buf = buf;
    r->cap = cap;
    return 1;
}

/*
 * Reports an error of the current message at stream offset at. A skipped
 * message of size bytes is behind the reader; any other error sticks.
 */
static int pfx_reader_fail_(pfx_message_reader* r, pfx_stream_result* res, int err, uint64_t at, int skipped,
                            size_t size, const char* path) {
    pfx_stream_result f;
    memset(&f, 0, sizeof f);
    size_t n = 0;
    while (path[n] != '\0' && n + 1 < sizeof f.path) {
        f.path[n] = path[n];
        n++;
    }
    f.path[n] = '\0';
    f.error = err;
    f.index = r->index;
    f.offset = at;
    f.start = r->offset;
    f.skipped = skipped;
    if (skipped) {
        r->index++;
        r->offset += size;
    } else {
        r->failed = f;
    }
    if (res != NULL) {
        *res = f;
    }
    return err;
}

int pfx_message_reader_schema_checked(const pfx_message_reader* r) {
    return r->schema_checked;
}

/*
 * Checks the hello of total bytes in the reader's buffer against the
 * schema's structs (docs/wire-format.md, "The schema check (hello)").
 */
static int pfx_check_hello_(pfx_message_reader* r, size_t total, pfx_stream_result* res) {
    const uint8_t* p = r->buf + PFX_MESSAGE_HEADER_SIZE;
    size_t len = total - PFX_MESSAGE_HEADER_SIZE;
    size_t j = 0;
    uint32_t count, i;
    uint16_t prev = 0;
    if (len < 4 || (uint64_t)len != 4 + 10 * (uint64_t)pfx_get_u32_(p)) {
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 6, 0, 0, "message");
    }
    count = pfx_get_u32_(p);
    for (i = 0; i < count; i++) {
        const uint8_t* e = p + 4 + 10 * (size_t)i;
        uint16_t id = pfx_get_u16_(e);
        uint64_t theirs;
        if (id <= prev) {
            /* Type id 0, or not above the previous entry's. */
            return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + (uint64_t)(e - r->buf), 0, 0, "message");
        }
        prev = id;
        while (j < pfx_hello_count_ && pfx_hello_entries_[j].type_id < id) {
            j++;
        }
        if (j == pfx_hello_count_ || pfx_hello_entries_[j].type_id != id) {
            continue; /* a struct this schema lacks */
        }
        theirs = pfx_get_u64_(e + 2);
        if (theirs != pfx_hello_entries_[j].fingerprint) {
            int rc = pfx_reader_fail_(r, res, PFX_ERR_SCHEMA, r->offset + (uint64_t)(e + 2 - r->buf), 0, 0, "message");
            r->failed.schema_type_id = id;
            r->failed.writer_fingerprint = theirs;
            if (res != NULL) {
                *res = r->failed;
            }
            return rc;
        }
    }
    r->schema_checked = 1;
    r->index++;
    r->offset += total;
    return PFX_OK;
}

/* Appends s to the text of n bytes so far at buf (cut to cap); the new length. */
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

size_t pfx_stream_error_text(const pfx_stream_result* res, char* buf, size_t cap) {
    size_t n = 0, j;
    for (j = 0; j < pfx_hello_count_; j++) {
        if (res->error == PFX_ERR_SCHEMA && res->schema_type_id != 0 &&
            pfx_hello_entries_[j].type_id == res->schema_type_id) {
            break;
        }
    }
    if (res->error == PFX_ERR_SCHEMA && j < pfx_hello_count_) {
        n = pfx_text_put_(buf, cap, n, "schema: the writer's schema has another version of ");
        n = pfx_text_put_(buf, cap, n, pfx_hello_entries_[j].name);
        n = pfx_text_put_(buf, cap, n, " (type id ");
        n = pfx_text_num_(buf, cap, n, res->schema_type_id, 0);
        n = pfx_text_put_(buf, cap, n, "): fingerprint ");
        n = pfx_text_num_(buf, cap, n, res->writer_fingerprint, 1);
        n = pfx_text_put_(buf, cap, n, ", here ");
        n = pfx_text_num_(buf, cap, n, pfx_hello_entries_[j].fingerprint, 1);
        n = pfx_text_put_(buf, cap, n, "; run ` + "`sdp compat`" + ` on the two schemas");
    } else if (res->error == PFX_ERR_SCHEMA) {
        n = pfx_text_put_(buf, cap, n,
                          "schema: the stream does not start with a hello (type id 0), and this reader requires one");
    } else {
        n = pfx_text_put_(buf, cap, n, pfx_strerror(res->error));
    }
    if (cap > 0) {
        buf[n < cap ? n : cap - 1] = '\0';
    }
    return n;
}

/* pfx_read_message, except that *out is left as it is on error or at the end. */
static int pfx_read_message_(pfx_message_reader* r, pfx_message* out, pfx_stream_result* res) {
    uint8_t hdr[PFX_MESSAGE_HEADER_SIZE];
    uint16_t type_id = 0;
    uint32_t payload = 0;
    size_t have, total;
    pfx_decode_options opt;
    pfx_decode_result dres;
    int rc, hello;
    if (r->failed.error != 0) {
        if (res != NULL) {
            *res = r->failed;
        }
        return r->failed.error;
    }
again:
    have = pfx_read_full_(r, hdr, PFX_MESSAGE_HEADER_SIZE);
    if (have == 0) {
        if (res != NULL) {
            memset(res, 0, sizeof *res);
            res->error = PFX_END;
            res->index = r->index;
            res->offset = r->offset;
            res->start = r->offset;
        }
        return PFX_END;
    }
    rc = pfx_read_message_header(hdr, have, &type_id, &payload);
    if (rc != PFX_OK) {
        return pfx_reader_fail_(r, res, rc, r->offset, 0, 0, "message");
    }
    hello = type_id == PFX_HELLO_TYPE_ID && r->index == 0;
    if (r->require_hello && r->index == 0 && !hello) {
        return pfx_reader_fail_(r, res, PFX_ERR_SCHEMA, r->offset + 4, 0, 0, "message");
    }
    if (!hello && !pfx_known_type_(type_id)) {
        /* Skip a payload within the maximum, so that reading can go on. */
        int skipped = payload <= r->max_size && pfx_reader_skip_(r, payload);
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 4, skipped,
                                PFX_MESSAGE_HEADER_SIZE + (size_t)payload, "message");
    }
    if (payload > r->max_size) {
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 6, 0, 0, "message");
    }
#if SIZE_MAX <= UINT32_MAX
    if (payload > SIZE_MAX - PFX_MESSAGE_HEADER_SIZE) {
        /* Too large for memory: a stream that ends inside it is still truncated. */
        int whole = pfx_reader_skip_(r, payload);
        return pfx_reader_fail_(r, res, whole ? PFX_ERR_NO_MEMORY : PFX_ERR_TRUNCATED,
                                r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0, "message");
    }
#endif
    /* The buffer grows as the payload arrives: never more than twice what was read. */
    total = PFX_MESSAGE_HEADER_SIZE + (size_t)payload;
    if (r->cap < 256 && !pfx_reader_grow_(r, total < 256 ? 256 : total < 4096 ? total : 4096)) {
        return pfx_reader_fail_(r, res, PFX_ERR_NO_MEMORY, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0, "message");
    }
    memcpy(r->buf, hdr, PFX_MESSAGE_HEADER_SIZE);
    while (have < total) {
        size_t want, got;
        if (have == r->cap && !pfx_reader_grow_(r, total - r->cap <= r->cap ? total : 2 * r->cap)) {
            return pfx_reader_fail_(r, res, PFX_ERR_NO_MEMORY, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0, "message");
        }
        want = (total < r->cap ? total : r->cap) - have;
        got = pfx_read_full_(r, r->buf + have, want);
        have += got;
        if (got < want) {
            return pfx_reader_fail_(r, res, PFX_ERR_TRUNCATED, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0, "message");
        }
    }
    if (hello) {
        rc = pfx_check_hello_(r, total, res);
        if (rc != PFX_OK) {
            return rc;
        }
        goto again; /* the hello is not a message: read the next one */
    }
    opt.max_depth = r->options.max_depth;
    opt.allow_trailing = 0;
    opt.memory_limit = r->options.memory_limit;
    pfx_arena_reset(r->arena);
    rc = pfx_decode_message_ex(r->buf, total, out, r->arena, &opt, &dres);
    if (rc != PFX_OK) {
        return pfx_reader_fail_(r, res, rc, r->offset + dres.offset, 1, total, dres.path);
    }
    if (res != NULL) {
        memset(res, 0, sizeof *res);
        res->index = r->index;
        res->start = r->offset;
    }
    r->index++;
    r->offset += total;
    return PFX_OK;
}

int pfx_read_message(pfx_message_reader* r, pfx_message* out, pfx_stream_result* res) {
    int rc = pfx_read_message_(r, out, res);
    if (rc != PFX_OK) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}

void pfx_message_writer_init(pfx_message_writer* w, pfx_write_fn fn, void* ctx) {
    memset(w, 0, sizeof *w);
    w->max_size = PFX_DEFAULT_MAX_MESSAGE_SIZE;
    w->write = fn;
    w->ctx = ctx;
}

void pfx_message_writer_free(pfx_message_writer* w) {
    free(w->buf);
    w->buf = NULL;
    w->cap = 0;
}

/* Grows the writer's buffer to at least n bytes; 0 when out of memory. */
static int pfx_writer_reserve_(pfx_message_writer* w, size_t n) {
    if (n > w->cap) {
        size_t cap = w->cap < 256 ? 256 : w->cap;
        uint8_t* buf;
        while (cap < n) {
            cap = cap > SIZE_MAX / 2 ? n : 2 * cap;
        }
        buf = (uint8_t*)realloc(w->buf, cap);
        if (buf == NULL) {
            return 0;
        }
        w->buf = buf;
        w->cap = cap;
    }
    return 1;
}

/* Writes the first n bytes of the writer's buffer. */
static int pfx_writer_flush_(pfx_message_writer* w, size_t n) {
    size_t done = 0;
    while (done < n) {
        size_t k = w->write(w->ctx, w->buf + done, n - done);
        if (k == 0 || k > n - done) {
            return PFX_ERR_WRITE;
        }
        done += k;
    }
    return PFX_OK;
}

int pfx_write_hello(pfx_message_writer* w) {
    size_t n = PFX_MESSAGE_HEADER_SIZE + 4 + 10 * pfx_hello_count_;
    size_t j;
    uint8_t* p;
    if (!pfx_writer_reserve_(w, n)) {
        return PFX_ERR_NO_MEMORY;
    }
    p = pfx_put_header_(w->buf, PFX_HELLO_TYPE_ID, n - PFX_MESSAGE_HEADER_SIZE);
    pfx_put_u32_(p, (uint32_t)pfx_hello_count_);
    for (j = 0; j < pfx_hello_count_; j++) {
        p += j == 0 ? 4 : 10;
        pfx_put_u16_(p, pfx_hello_entries_[j].type_id);
        pfx_put_u64_(p + 2, pfx_hello_entries_[j].fingerprint);
    }
    return pfx_writer_flush_(w, n);
}

int pfx_write_message(pfx_message_writer* w, const pfx_message* m) {
    size_t n = pfx_encoded_message_size(m);
    if (n == SIZE_MAX || n - PFX_MESSAGE_HEADER_SIZE > w->max_size) {
        return PFX_ERR_ENCODE;
    }
    if (!pfx_writer_reserve_(w, n)) {
        return PFX_ERR_NO_MEMORY;
    }
    if (pfx_encode_message(m, w->buf, n) != n) {
        return PFX_ERR_ENCODE;
    }
    return pfx_writer_flush_(w, n);
}`

// streamDecl prints the stream reader's and writer's declarations.
func (g *generator) streamDecl() {
	g.h.Line(g.prefixed(streamDecls))
	g.h.P()
}

// streamDefs prints the stream reader and writer.
func (g *generator) streamDefs() {
	p := g.c
	p.P("/* Whether a type id names a struct of the schema. */")
	p.Block(g.prefixed("static int pfx_known_type_(uint16_t type_id) {"), "}", func() {
		if len(g.s.Structs) == 0 {
			p.P("(void)type_id;")
			p.P("return 0;")
			return
		}
		p.P("switch (type_id) {")
		for _, s := range g.s.Structs {
			p.F("case %s_TYPE_ID:", g.macroName(s))
		}
		p.In()
		p.P("return 1;")
		p.Out()
		p.P("default:")
		p.In()
		p.P("return 0;")
		p.Out()
		p.P("}")
	})
	p.P()
	g.helloEntries()
	g.use("get_u64_")
	g.use("put_u64_")
	p.Line(strings.TrimRight(g.prefixed(streamDefs), "\n"))
	p.P()
}

// helloEntries prints the table a hello lists and is checked against: the
// schema's structs by type id, with their fingerprints and names.
func (g *generator) helloEntries() {
	p := g.c
	structs := append([]*schema.Struct{}, g.s.Structs...)
	sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
	p.P("/* The schema's structs by type id, with their fingerprints: what a hello lists. */")
	p.Block(g.prefixed("typedef struct pfx_hello_entry_ {"), g.prefixed("} pfx_hello_entry_;"), func() {
		p.P("uint16_t type_id;")
		p.P("uint64_t fingerprint;")
		p.P("const char* name;")
	})
	p.P()
	p.Block(g.prefixed("static const pfx_hello_entry_ pfx_hello_entries_[] = {"), "};", func() {
		if len(structs) == 0 {
			p.P(g.prefixed("{0u, 0u, \"\"}, /* C has no empty arrays: pfx_hello_count_ is 0 */"))
		}
		for _, s := range structs {
			m := g.macroName(s)
			p.F("{%s_TYPE_ID, %s_FINGERPRINT, %s},", m, m, strconv.Quote(s.Name))
		}
	})
	p.F(g.prefixed("static const size_t pfx_hello_count_ = %d;"), len(structs))
	p.P()
}
