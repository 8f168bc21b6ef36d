/*
 * The stream reader and writer's declarations (docs/wire-format.md,
 * "Streams"): the same for every schema, written with the placeholder
 * prefixes pfx and PFX like pfx.h. The generator (stream.go) copies what
 * follows the marker into the header of a package with messages; this
 * preamble is not copied.
 */
/*@ stream */
/** Reads up to n bytes into buf and returns how many: 0 only at the end of the stream (or on a read error). */
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
    /**
     * The largest payload length accepted, refused before it is read; 0 means
     * PFX_DEFAULT_MAX_MESSAGE_SIZE, UINT32_MAX accepts any.
     */
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
 * Describes the error res reports as NUL-terminated text in the layout of
 * every language's stream error (docs/api.md, "One layout of error text"):
 * "message <index> at stream offset <start>: " and the decode error as
 * pfx_decode_error_text writes it, its offset counted from the message's
 * first byte ("<rule> at offset <offset> in <path>: <message>"). The
 * message of a hello from another version of the schema names the struct,
 * both fingerprints and suggests sdp compat. Cut to fit cap bytes (cap may
 * be 0); returns the full length.
 */
size_t pfx_stream_error_text(const pfx_stream_result* res, char* buf, size_t cap);

/** Writes messages to a stream (pfx_write_message), encoding into one buffer it keeps. */
typedef struct pfx_message_writer {
    /**
     * The largest payload written, in bytes (PFX_DEFAULT_MAX_MESSAGE_SIZE
     * after _init; 0 means that default too): pfx_write_message refuses a
     * larger message, which a reader with the same max_size would refuse,
     * with PFX_ERR_ENCODE (rule "message", path "message") and writes
     * nothing.
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
/**
 * pfx_write_message with a result: res (may be NULL) gets the rule and path
 * of a value that has no encoding, or rule "message" for a payload over
 * max_size, as _encode_ex reports them (pfx_encode_error_text describes
 * them), and on success the bytes written.
 */
int pfx_write_message_ex(pfx_message_writer* w, const pfx_message* m, pfx_encode_result* res);
/** Releases the writer's buffer. */
void pfx_message_writer_free(pfx_message_writer* w);
