package c

import "strings"

// The stream reader and writer (docs/wire-format.md, "Streams") are the
// same C for every schema, written with the placeholder prefixes; only
// pfx_known_type_ is generated from the schema's structs.

const streamDecls = `/** Reads up to n bytes into buf and returns how many: 0 only at the end of the stream (or on a read error). */
typedef size_t (*pfx_read_fn)(void* ctx, uint8_t* buf, size_t n);
/** Writes the n bytes at buf and returns how many it wrote: fewer is an error. */
typedef size_t (*pfx_write_fn)(void* ctx, const uint8_t* buf, size_t n);

/** The largest payload a message reader accepts unless told otherwise: 64 MiB. */
#define PFX_DEFAULT_MAX_MESSAGE_SIZE (64u << 20)

/** What pfx_read_message reports besides its return value. */
typedef struct pfx_stream_result {
    /** 0, PFX_END or the PFX_ERR_* code, as returned. */
    int error;
    /** The message's index in the stream, from 0 (at PFX_END: the number of messages). */
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
} pfx_stream_result;

/**
 * Reads the messages of a stream one at a time (pfx_read_message). It reads
 * exactly the bytes of one message per call (give it a buffered source),
 * keeps one buffer, as large as the largest message so far, grown only as
 * the bytes arrive, and decodes into an arena it resets before every
 * message. Set up with pfx_message_reader_init; release with
 * pfx_message_reader_free. max_size and options may be changed between
 * reads; the other fields are private.
 */
typedef struct pfx_message_reader {
    /** The largest payload length accepted, refused before it is read; UINT32_MAX accepts any. */
    uint32_t max_size;
    /** The decode options of every message (allow_trailing is ignored). */
    pfx_decode_options options;
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

/** Writes messages to a stream (pfx_write_message), encoding into one buffer it keeps. */
typedef struct pfx_message_writer {
    pfx_write_fn write;
    void* ctx;
    uint8_t* buf;
    size_t cap;
} pfx_message_writer;

/** Writes to fn(ctx, ...). */
void pfx_message_writer_init(pfx_message_writer* w, pfx_write_fn fn, void* ctx);
/**
 * Encodes m as a message and writes it: 0, PFX_ERR_ENCODE (m cannot be
 * encoded: see _size), PFX_ERR_NO_MEMORY or PFX_ERR_WRITE.
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
                            size_t size) {
    pfx_stream_result f;
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

/* pfx_read_message, except that *out is left as it is on error or at the end. */
static int pfx_read_message_(pfx_message_reader* r, pfx_message* out, pfx_stream_result* res) {
    uint8_t hdr[PFX_MESSAGE_HEADER_SIZE];
    uint16_t type_id = 0;
    uint32_t payload = 0;
    size_t have, total;
    pfx_decode_options opt;
    pfx_decode_result dres;
    int rc;
    if (r->failed.error != 0) {
        if (res != NULL) {
            *res = r->failed;
        }
        return r->failed.error;
    }
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
        return pfx_reader_fail_(r, res, rc, r->offset, 0, 0);
    }
    if (!pfx_known_type_(type_id)) {
        /* Skip a payload within the maximum, so that reading can go on. */
        int skipped = payload <= r->max_size && pfx_reader_skip_(r, payload);
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 4, skipped,
                                PFX_MESSAGE_HEADER_SIZE + (size_t)payload);
    }
    if (payload > r->max_size) {
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 6, 0, 0);
    }
#if SIZE_MAX <= UINT32_MAX
    if (payload > SIZE_MAX - PFX_MESSAGE_HEADER_SIZE) {
        /* Too large for memory: a stream that ends inside it is still truncated. */
        int whole = pfx_reader_skip_(r, payload);
        return pfx_reader_fail_(r, res, whole ? PFX_ERR_NO_MEMORY : PFX_ERR_TRUNCATED,
                                r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0);
    }
#endif
    /* The buffer grows as the payload arrives: never more than twice what was read. */
    total = PFX_MESSAGE_HEADER_SIZE + (size_t)payload;
    if (r->cap < 256 && !pfx_reader_grow_(r, total < 256 ? 256 : total < 4096 ? total : 4096)) {
        return pfx_reader_fail_(r, res, PFX_ERR_NO_MEMORY, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0);
    }
    memcpy(r->buf, hdr, PFX_MESSAGE_HEADER_SIZE);
    while (have < total) {
        size_t want, got;
        if (have == r->cap && !pfx_reader_grow_(r, total - r->cap <= r->cap ? total : 2 * r->cap)) {
            return pfx_reader_fail_(r, res, PFX_ERR_NO_MEMORY, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0);
        }
        want = (total < r->cap ? total : r->cap) - have;
        got = pfx_read_full_(r, r->buf + have, want);
        have += got;
        if (got < want) {
            return pfx_reader_fail_(r, res, PFX_ERR_TRUNCATED, r->offset + PFX_MESSAGE_HEADER_SIZE, 0, 0);
        }
    }
    opt.max_depth = r->options.max_depth;
    opt.allow_trailing = 0;
    opt.memory_limit = r->options.memory_limit;
    pfx_arena_reset(r->arena);
    rc = pfx_decode_message_ex(r->buf, total, out, r->arena, &opt, &dres);
    if (rc != PFX_OK) {
        return pfx_reader_fail_(r, res, rc, r->offset + dres.offset, 1, total);
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
    w->write = fn;
    w->ctx = ctx;
}

void pfx_message_writer_free(pfx_message_writer* w) {
    free(w->buf);
    w->buf = NULL;
    w->cap = 0;
}

int pfx_write_message(pfx_message_writer* w, const pfx_message* m) {
    size_t n = pfx_message_size(m);
    size_t done = 0;
    if (n == SIZE_MAX) {
        return PFX_ERR_ENCODE;
    }
    if (n > w->cap) {
        size_t cap = w->cap < 256 ? 256 : w->cap;
        uint8_t* buf;
        while (cap < n) {
            cap = cap > SIZE_MAX / 2 ? n : 2 * cap;
        }
        buf = (uint8_t*)realloc(w->buf, cap);
        if (buf == NULL) {
            return PFX_ERR_NO_MEMORY;
        }
        w->buf = buf;
        w->cap = cap;
    }
    if (pfx_encode_message(m, w->buf, n) != n) {
        return PFX_ERR_ENCODE;
    }
    while (done < n) {
        size_t k = w->write(w->ctx, w->buf + done, n - done);
        if (k == 0 || k > n - done) {
            return PFX_ERR_WRITE;
        }
        done += k;
    }
    return PFX_OK;
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
	p.Line(strings.TrimRight(g.prefixed(streamDefs), "\n"))
	p.P()
}
