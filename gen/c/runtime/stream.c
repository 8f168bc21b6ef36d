/*
 * The stream reader and writer: the same C for every schema, written with
 * the placeholder prefixes; only pfx_known_type_ is generated from the
 * schema's structs. The generator (stream.go) copies what follows the
 * marker; with pfx.c and stream.h it compiles on its own
 * (TestRuntimeSource).
 */
/*@ stream */
void pfx_message_reader_init(pfx_message_reader* r, pfx_read_fn fn, void* ctx, pfx_arena* arena) {
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

/* The reader's maximum payload length: max_size, or the default when it is 0. */
static uint32_t pfx_reader_max_(const pfx_message_reader* r) {
    return r->max_size != 0 ? r->max_size : PFX_DEFAULT_MAX_MESSAGE_SIZE;
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

size_t pfx_stream_error_text(const pfx_stream_result* res, char* buf, size_t cap) {
    size_t n = 0, j;
    for (j = 0; j < pfx_hello_count_; j++) {
        if (res->error == PFX_ERR_SCHEMA && res->schema_type_id != 0 &&
            pfx_hello_entries_[j].type_id == res->schema_type_id) {
            break;
        }
    }
    n = pfx_text_put_(buf, cap, n, "message ");
    n = pfx_text_num_(buf, cap, n, res->index, 0);
    n = pfx_text_put_(buf, cap, n, " at stream offset ");
    n = pfx_text_num_(buf, cap, n, res->start, 0);
    n = pfx_text_put_(buf, cap, n, ": ");
    if (res->error != PFX_ERR_SCHEMA) {
        n = pfx_text_decode_(buf, cap, n, res->error, res->offset - res->start, res->path);
        return pfx_text_end_(buf, cap, n);
    }
    n = pfx_text_put_(buf, cap, n, "schema at offset ");
    n = pfx_text_num_(buf, cap, n, res->offset - res->start, 0);
    if (res->path[0] != '\0') {
        n = pfx_text_put_(buf, cap, n, " in ");
        n = pfx_text_put_(buf, cap, n, res->path);
    }
    if (j < pfx_hello_count_) {
        n = pfx_text_put_(buf, cap, n, ": the writer's schema has another version of ");
        n = pfx_text_put_(buf, cap, n, pfx_hello_entries_[j].name);
        n = pfx_text_put_(buf, cap, n, " (type id ");
        n = pfx_text_num_(buf, cap, n, res->schema_type_id, 0);
        n = pfx_text_put_(buf, cap, n, "): fingerprint ");
        n = pfx_text_num_(buf, cap, n, res->writer_fingerprint, 1);
        n = pfx_text_put_(buf, cap, n, ", here ");
        n = pfx_text_num_(buf, cap, n, pfx_hello_entries_[j].fingerprint, 1);
        n = pfx_text_put_(buf, cap, n, "; run `sdp compat` on the two schemas");
    } else {
        n = pfx_text_put_(buf, cap, n, ": the stream does not start with a hello (type id 0), and this reader requires one");
    }
    return pfx_text_end_(buf, cap, n);
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
        int skipped = payload <= pfx_reader_max_(r) && pfx_reader_skip_(r, payload);
        return pfx_reader_fail_(r, res, PFX_ERR_MESSAGE, r->offset + 4, skipped,
                                PFX_MESSAGE_HEADER_SIZE + (size_t)payload, "message");
    }
    if (payload > pfx_reader_max_(r)) {
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
    return pfx_write_message_ex(w, m, NULL);
}

int pfx_write_message_ex(pfx_message_writer* w, const pfx_message* m, pfx_encode_result* res) {
    size_t max = w->max_size != 0 ? w->max_size : PFX_DEFAULT_MAX_MESSAGE_SIZE;
    size_t n = pfx_encoded_message_size(m);
    int rc;
    if (n == SIZE_MAX) {
        /* The dispatcher's _encode_message_ex finds the rule and the path. */
        rc = pfx_encode_message_ex(m, NULL, 0, res);
        /* Else the header makes the size too large for size_t (rule size). */
        return rc == PFX_ERR_ENCODE ? rc : pfx_refuse_(res, NULL, 1);
    }
    if (n - PFX_MESSAGE_HEADER_SIZE > max) {
        return pfx_refuse_message_(res);
    }
    if (!pfx_writer_reserve_(w, n)) {
        return pfx_encoded_(res, PFX_ERR_NO_MEMORY, 0);
    }
    if (pfx_encode_message(m, w->buf, n) != n) {
        return pfx_encode_message_ex(m, NULL, 0, res);
    }
    rc = pfx_writer_flush_(w, n);
    return pfx_encoded_(res, rc, rc == PFX_OK ? n : 0);
}