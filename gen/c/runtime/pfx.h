/* Decode errors: every decode function returns 0 or one of these. */
#define PFX_OK 0
/** truncated: the input ends inside a value. */
#define PFX_ERR_TRUNCATED (-1)
/** trailing: bytes remain after the top-level value. */
#define PFX_ERR_TRAILING (-2)
/** bool: a bool byte other than 0 or 1. */
#define PFX_ERR_BOOL (-3)
/** presence: an optional's presence byte other than 0 or 1. */
#define PFX_ERR_PRESENCE (-4)
/** enum: an enum number that names no value. */
#define PFX_ERR_ENUM (-5)
/** union_tag: a union tag with no variant. */
#define PFX_ERR_UNION_TAG (-6)
/** utf8: a string that is not valid UTF-8. */
#define PFX_ERR_UTF8 (-7)
/** count: an array count or string length the remaining input cannot hold. */
#define PFX_ERR_COUNT (-8)
/** depth: nesting deeper than the depth limit. */
#define PFX_ERR_DEPTH (-9)
/** message: a bad message header (magic, type id or payload length), or a malformed or misplaced hello. */
#define PFX_ERR_MESSAGE (-10)
/** no_memory: the arena could not provide the memory for the value. */
#define PFX_ERR_NO_MEMORY (-11)
/** memory: the decoded value would take more memory than the memory limit (rule 11). */
#define PFX_ERR_MEMORY (-12)
/** encode: a value its encoder refuses (see _size), given to _encode_ex or a message writer. */
#define PFX_ERR_ENCODE (-13)
/** write: a message writer's write callback took fewer bytes than it was given. */
#define PFX_ERR_WRITE (-14)
/** buffer: an encoder's buffer is smaller than the encoding (_encode_ex). */
#define PFX_ERR_BUFFER (-16)
/**
 * schema: a stream's hello shows that it was written from another version
 * of the schema, or a reader that requires a hello found none
 * (docs/wire-format.md, "The schema check (hello)").
 */
#define PFX_ERR_SCHEMA (-15)
/** Not an error: pfx_read_message found the end of the stream between two messages. */
#define PFX_END 1

/** The depth limit used when no other is given. */
#define PFX_DEFAULT_MAX_DEPTH 64u
/**
 * The default memory limit (rule 11) for an input of n bytes (a message's
 * payload length) is PFX_MEMORY_RATIO * n + PFX_MEMORY_ALLOWANCE bytes of
 * nominal size.
 */
#define PFX_MEMORY_RATIO 32u
#define PFX_MEMORY_ALLOWANCE 1048576u
/** The size of a message header: "SDP2", u16 type id, u32 payload length. */
#define PFX_MESSAGE_HEADER_SIZE 10u

/** A short description of an error code ("truncated: ..."); never NULL. */
const char* pfx_strerror(int code);

/**
 * A string: len bytes of UTF-8 at data, not necessarily NUL-terminated
 * (decoded strings are, for convenience). data may be NULL when len is 0.
 */
typedef struct pfx_str {
    const char* data;
    uint32_t len;
} pfx_str;

/**
 * Where decoded values live. A decoded value points only into its arena
 * (never into the input), so the value stays valid until the arena is reset
 * or freed. Set up with pfx_arena_init (a caller buffer; decoding fails
 * with PFX_ERR_NO_MEMORY when it is full) or pfx_arena_init_heap (grows
 * with malloc). The fields are private.
 */
typedef struct pfx_arena {
    unsigned char* base;
    size_t cap;
    size_t used;
    size_t retired;
    size_t next_chunk;
    struct pfx_arena_chunk_* chunks;
    int heap;
} pfx_arena;

/** Uses the cap bytes at buf (any alignment) and never allocates. */
void pfx_arena_init(pfx_arena* a, void* buf, size_t cap);
/** Grows in malloc'ed chunks as needed; release with pfx_arena_free. */
void pfx_arena_init_heap(pfx_arena* a);
/** Forgets every allocation but keeps the memory for reuse. */
void pfx_arena_reset(pfx_arena* a);
/** Releases a heap arena's memory; the arena must be initialized again before reuse. */
void pfx_arena_free(pfx_arena* a);
/** size bytes aligned for any type, or NULL when the arena is out of memory. */
void* pfx_arena_alloc(pfx_arena* a, size_t size);
/** The bytes handed out since the last init or reset, alignment included. */
size_t pfx_arena_used(const pfx_arena* a);

/** Options of the _decode_ex functions. Zero-initialize, then set what you need. */
typedef struct pfx_decode_options {
    /** The depth limit (docs/wire-format.md, rule 9); 0 means PFX_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** Nonzero decodes a prefix of the input: bytes after the value are not an error. */
    int allow_trailing;
    /**
     * The memory limit (docs/wire-format.md, rule 11) in bytes of nominal size;
     * 0 means PFX_MEMORY_RATIO * the input length (a message's payload length)
     * + PFX_MEMORY_ALLOWANCE. Only schemas with charged types ever check it.
     */
    uint64_t memory_limit;
} pfx_decode_options;

/**
 * The size of the path buffers of pfx_decode_result and pfx_stream_result,
 * with the terminating NUL: twice the longest path of the conformance
 * vectors (the corpus's deepest, 64 levels of "children[0].", is 767
 * characters; the random-schema suites' 1034). A longer path is cut: "..."
 * followed by its last PFX_MAX_PATH - 4 characters, so that the innermost
 * fields show.
 */
#define PFX_MAX_PATH 2048

/** What a _decode_ex function reports besides its return value. */
typedef struct pfx_decode_result {
    /** 0 or the PFX_ERR_* code, as returned. */
    int error;
    /** On error: the input offset of the item that failed (docs/wire-format.md, "Where an error is"). */
    size_t offset;
    /** On success: the bytes the value took (all of them unless allow_trailing is set). */
    size_t consumed;
    /**
     * On error: the field path of the value that holds the problem, by schema
     * names with [i] for array elements ("plugins[3].parameters[0].display_name";
     * "message" for a message header's problem); "" at the top level and on
     * success. Built only while an error unwinds; cut as PFX_MAX_PATH says.
     */
    char path[PFX_MAX_PATH];
} pfx_decode_result;

/**
 * Writes the error res reports as NUL-terminated text in the layout of every
 * language's decode error (docs/api.md, "One layout of error text"):
 * "<rule> at offset <offset> in <path>: <message>", without " in <path>"
 * when the path is empty. The text is cut to fit cap bytes (cap may be 0);
 * returns its full length, as snprintf does.
 */
size_t pfx_decode_error_text(const pfx_decode_result* res, char* buf, size_t cap);

/**
 * What an _encode_ex function (or pfx_write_message_ex) reports besides its
 * return value. A value that has no encoding (docs/wire-format.md, "Values
 * that have no encoding") is PFX_ERR_ENCODE with the rule it breaks and the
 * path of the value, the first in encoding order.
 */
typedef struct pfx_encode_result {
    /** 0 or the PFX_ERR_* code, as returned. */
    int error;
    /**
     * With PFX_ERR_ENCODE: the rule the value breaks: "enum" (a number the
     * enum does not name), "union_tag" (a tag the union does not declare),
     * "utf8" (a string that is not valid UTF-8), "size" (an encoding larger
     * than size_t holds, possible where it has 32 bits; the path is empty) or
     * "message" (a payload over 4 GiB or over a writer's max_size; the path
     * is "message"). Otherwise "".
     */
    const char* rule;
    /** The encoding's size in bytes: what was written, or with PFX_ERR_BUFFER the size needed; else 0. */
    size_t written;
    /**
     * With PFX_ERR_ENCODE: the field path of the value, as a decoder's
     * ("items[1].shape.Circle.radius"; see pfx_decode_result); "" otherwise
     * and for a problem with the top-level value itself.
     */
    char path[PFX_MAX_PATH];
} pfx_encode_result;

/**
 * Writes the error res reports as NUL-terminated text in the layout of every
 * language's encode error (docs/api.md, "One layout of error text"):
 * "<rule> in <path>: <message>", or "<rule>: <message>" when the path is
 * empty; cut to fit cap bytes (cap may be 0); returns its full length.
 */
size_t pfx_encode_error_text(const pfx_encode_result* res, char* buf, size_t cap);

/**
 * Reads a message header: checks the magic and returns the type id and the
 * payload length. 0, PFX_ERR_TRUNCATED (fewer than 10 bytes) or
 * PFX_ERR_MESSAGE. A stream reader calls this on the first 10 bytes and
 * checks payload_len against its own limit before reading the payload.
 */
int pfx_read_message_header(const uint8_t* data, size_t len, uint16_t* type_id, uint32_t* payload_len);
