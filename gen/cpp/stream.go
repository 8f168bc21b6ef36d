package cpp

import (
	"sort"
	"strconv"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// messageReader is the stream reader every schema with structs gets in its
// header, after AnyMessage and decode_any_message.
const messageReader = `
/// The largest message payload a MessageReader accepts unless told
/// otherwise (64 MiB).
inline constexpr std::size_t kDefaultMaxMessageSize = std::size_t{64} << 20;

/// Reads messages (the 10-byte header, then the payload) one at a time from
/// a byte source: any callable std::size_t(std::uint8_t* data, std::size_t
/// size) that reads up to size bytes into data and returns how many it
/// read, 0 at the end of the stream (it reports its own failures, e.g.
/// through a flag it captures). A declared payload above the maximum size
/// is refused from the header, before anything is allocated for it, and the
/// buffer grows only as bytes arrive, so memory stays bounded by the
/// maximum. Not safe for concurrent use.
///
///     std::ifstream in("registry.sdps", std::ios::binary);
///     plugins::MessageReader reader([&](std::uint8_t* p, std::size_t n) {
///         in.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(n));
///         return static_cast<std::size_t>(in.gcount());
///     });
///     plugins::AnyMessage m;
///     while (reader.read(m)) { ... }
///     if (!reader.status()) { ... reader.index(), reader.error_offset() ... }
///
/// A hello (encode_hello) as the stream's first message is checked against
/// the schema and skipped: the first message read is then message 1, and
/// schema_checked() is true. A hello that gives a struct of the schema
/// another fingerprint is refused with ErrorCode::Schema (the stream was
/// written from another version of the schema; the reader stops there).
template <class Source>
class MessageReader {
public:
    explicit MessageReader(Source source, std::size_t max_size = kDefaultMaxMessageSize,
                           const sdp::DecodeOptions& options = {})
        : source_(std::move(source)), max_size_(max_size), options_(options) {}

    /// The largest payload accepted; a larger declared payload fails with
    /// ErrorCode::Message.
    void set_max_size(std::size_t max_size) noexcept { max_size_ = max_size; }
    std::size_t max_size() const noexcept { return max_size_; }
    void set_options(const sdp::DecodeOptions& options) noexcept { options_ = options; }
    /// Whether a stream that does not start with a hello is refused
    /// (ErrorCode::Schema at offset 4 of message 0; an empty stream is not
    /// refused). Off by default.
    void set_require_hello(bool require) noexcept { require_hello_ = require; }
    bool require_hello() const noexcept { return require_hello_; }
    /// Whether the stream started with a hello that agreed with the schema:
    /// every struct both schemas have has the same fingerprint in both.
    bool schema_checked() const noexcept { return schema_checked_; }

    /// Reads the next message into out. Returns false at the end of the
    /// stream, with status() ok when it ended between two messages, and on
    /// an error, which status() describes with the offset counted from the
    /// start of the message; index() and error_offset() place it in the
    /// stream. After a bad payload or an unknown type id the reader has read
    /// the whole message (resumable()) and the next read goes on with the
    /// following one; after any other error read keeps returning false.
    /// The message is decoded into out, reusing the storage of the message
    /// out holds when it has the same type (decode_any_message), so reading
    /// a stream into one AnyMessage allocates only for growth; on an error
    /// out is reset to AnyMessage{}, at the end of the stream it is kept.
    bool read(AnyMessage& out) { return reset_on_error(next(out), out); }
    /// The same into a view, which points into the reader's buffer: it is
    /// valid until the next read.
    bool read(AnyMessageView& out) { return reset_on_error(next(out), out); }

    /// Why the last read returned false (ok at the end of the stream). For
    /// ErrorCode::Schema, status().message() names the struct and both
    /// fingerprints; it points into the reader and lives as long as it does.
    const sdp::Status& status() const noexcept { return status_; }
    /// The index in the stream (from 0) of the message the last read
    /// returned or rejected.
    std::size_t index() const noexcept { return index_; }
    /// The stream offset of that message's header.
    std::size_t message_offset() const noexcept { return start_; }
    /// The stream offset of the last error: message_offset() +
    /// status().offset().
    std::size_t error_offset() const noexcept { return start_ + status_.offset(); }
    /// Whether the last error left the reader after the whole message, so
    /// that the next read goes on with the following one.
    bool resumable() const noexcept { return !status_ && resumable_; }
    /// Bytes taken from the source so far.
    std::size_t bytes_read() const noexcept { return total_; }

private:
    template <class M>
    bool reset_on_error(bool ok, M& out) {
        if (!ok && !status_) {
            out = M();
        }
        return ok;
    }

    // The checks and offsets of docs/wire-format.md, "Streams": the header,
    // its magic, the type id, the payload length against the maximum, the
    // payload, then the payload's decoder (or, for a hello as the first
    // message, the checks of "The schema check (hello)").
    template <class M>
    bool next(M& out) {
        if (!status_ && !resumable_) {
            return false;
        }
        status_.assign(sdp::ErrorCode::Ok, 0, "");
        resumable_ = false;
        index_ = count_;
        start_ = total_;
        have_ = 0;
        if (!fill(10)) {
            if (have_ != 0) {
                status_ =
                    sdp::Status(sdp::ErrorCode::Truncated, 0, "the stream ends inside a message header", "message");
            }
            return false;
        }
        const std::uint8_t* h = buf_.data();
        if (h[0] != 'S' || h[1] != 'D' || h[2] != 'P' || h[3] != '2') {
            status_ = sdp::Status(sdp::ErrorCode::Message, 0, "bad message magic", "message");
            return false;
        }
        const std::uint32_t payload = sdp::load<std::uint32_t>(h + 6);
        const std::size_t size = std::size_t{10} + payload;
        const std::uint16_t id = sdp::load<std::uint16_t>(h + 4);
        const bool hello = id == 0 && count_ == 0;
        if (require_hello_ && count_ == 0 && !hello) {
            status_ = sdp::Status(sdp::ErrorCode::Schema, 4,
                                  "the stream does not start with a hello (type id 0), and this reader requires one",
                                  "message");
            return false;
        }
        if (!hello && !is_message_type_id(id)) {
            status_ = sdp::Status(sdp::ErrorCode::Message, 4, "message type id names no type of the schema", "message");
            // The payload is skipped, so that the reader can go on.
            if (payload <= max_size_ && size >= 10 && fill(size)) {
                resumable_ = true;
                ++count_;
            }
            return false;
        }
        if (payload > max_size_) {
            status_ =
                sdp::Status(sdp::ErrorCode::Message, 6, "message payload exceeds the reader's maximum size", "message");
            return false;
        }
        if (size < 10) {
            // A 32-bit size_t cannot hold the message: it is read to its
            // end, which a real stream does not reach.
            if (drain(payload)) {
                status_ = sdp::Status(sdp::ErrorCode::Message, 6, "message too large for this platform", "message");
            } else {
                status_ =
                    sdp::Status(sdp::ErrorCode::Truncated, 10, "the stream ends inside a message payload", "message");
            }
            return false;
        }
        if (!fill(size)) {
            status_ = sdp::Status(sdp::ErrorCode::Truncated, 10, "the stream ends inside a message payload", "message");
            return false;
        }
        ++count_;
        if (hello) {
            status_ = check_hello(buf_.data() + 10, payload);
            if (!status_) {
                return false;
            }
            schema_checked_ = true;
            return next(out);
        }
        // (A Status holds its path: it is copied into status_ only on error.)
        sdp::Status st = decode_any_message(buf_.data(), size, out, options_);
        if (!st) {
            status_ = st;
            resumable_ = true;
            return false;
        }
        return true;
    }

    // Checks a hello's payload p of n bytes against kHelloEntries; offsets
    // count from the message's header.
    sdp::Status check_hello(const std::uint8_t* p, std::uint32_t n) {
        if (n < 4 || n != std::uint64_t{4} + std::uint64_t{10} * sdp::load<std::uint32_t>(p)) {
            return sdp::Status(sdp::ErrorCode::Message, 6,
                               "a hello's payload length is not 4 + 10 x its count of structs", "message");
        }
        const std::size_t count = sdp::load<std::uint32_t>(p);
        std::size_t mine = 0;
        std::uint32_t prev = 0;
        for (std::size_t i = 0; i < count; i++) {
            const std::size_t at = 4 + 10 * i;
            const std::uint16_t id = sdp::load<std::uint16_t>(p + at);
            if (id == 0 || (i != 0 && id <= prev)) {
                return sdp::Status(sdp::ErrorCode::Message, 10 + at,
                                   "a hello's type ids must be above 0 and strictly increasing", "message");
            }
            prev = id;
            while (mine < std::size(kHelloEntries) && kHelloEntries[mine].type_id < id) {
                ++mine;
            }
            if (mine == std::size(kHelloEntries) || kHelloEntries[mine].type_id != id) {
                continue;
            }
            const std::uint64_t theirs = sdp::load<std::uint64_t>(p + at + 2);
            const HelloEntry& e = kHelloEntries[mine];
            if (theirs != e.fingerprint) {
                schema_error_ = std::string("the writer's schema has another version of ") + e.name + " (type id " +
                                std::to_string(id) + "): fingerprint " + hex(theirs) + ", here " + hex(e.fingerprint) +
                                "; run ` + "`sdp compat`" + ` on the two schemas";
                return sdp::Status(sdp::ErrorCode::Schema, 10 + at + 2, schema_error_.c_str(), "message");
            }
        }
        return sdp::Status();
    }

    // The 16 hex digits of a fingerprint.
    static std::string hex(std::uint64_t f) {
        std::string s(16, '0');
        for (std::size_t i = 16; i-- > 0; f >>= 4) {
            s[i] = "0123456789abcdef"[f & 0xF];
        }
        return s;
    }

    // Reads until the buffer holds n bytes of the current message; false
    // when the source ends first. The buffer grows at most by doubling, and
    // only when it is full, so to hold bytes the source is about to deliver
    // however few it delivers per call.
    bool fill(std::size_t n) {
        while (have_ < n) {
            if (have_ == buf_.size()) {
                const std::size_t grown = buf_.size() < 4096 ? 4096 : buf_.size() * 2;
                buf_.resize(grown < n ? grown : n);
            }
            const std::size_t room = (buf_.size() < n ? buf_.size() : n) - have_;
            std::size_t got = source_(buf_.data() + have_, room);
            if (got == 0) {
                return false;
            }
            if (got > room) {
                got = room;
            }
            have_ += got;
            total_ += got;
        }
        return true;
    }

    // Reads and drops n bytes; false when the source ends first.
    bool drain(std::uint32_t n) {
        while (n != 0) {
            const std::size_t room = n < buf_.size() ? n : buf_.size();
            std::size_t got = source_(buf_.data(), room);
            if (got == 0) {
                return false;
            }
            if (got > room) {
                got = room;
            }
            n -= static_cast<std::uint32_t>(got);
            total_ += got;
        }
        return true;
    }

    Source source_;
    std::size_t max_size_;
    sdp::DecodeOptions options_;
    std::vector<std::uint8_t> buf_;
    std::size_t have_ = 0;
    std::size_t total_ = 0;
    std::size_t count_ = 0;
    std::size_t index_ = 0;
    std::size_t start_ = 0;
    bool resumable_ = false;
    bool require_hello_ = false;
    bool schema_checked_ = false;
    std::string schema_error_;
    sdp::Status status_;
};
`

// messageWriter is the stream writer every schema with structs gets in its
// header, after MessageReader.
const messageWriter = `
/// Writes messages (the 10-byte header, then the payload) to a byte sink:
/// any callable taking (const std::uint8_t* data, std::size_t size) that
/// either returns bool, true when it wrote all size bytes, or returns
/// std::size_t, how many of them it wrote (0 is a failure; the writer calls
/// again with the rest). Every message is encoded into one buffer the
/// writer keeps, so writing allocates only when a message is larger than
/// any before it, and each message is one sink call (a bool sink) from
/// start to end. Not safe for concurrent use.
///
///     std::ofstream out("registry.sdps", std::ios::binary);
///     plugins::MessageWriter writer([&](const std::uint8_t* p, std::size_t n) {
///         out.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n));
///         return out.good();
///     });
///     writer.write_hello();
///     if (!writer.write(registry)) { ... writer.status() ... }
///
/// A message whose payload is over the maximum size (the same option as
/// MessageReader's, whose reader would refuse it) or over the u32 length
/// of the header is refused with ErrorCode::Encode, writing nothing; the
/// writer can go on. When the sink fails the stream may hold part of a
/// message: status() is ErrorCode::Write, and every later write returns
/// false.
template <class Sink>
class MessageWriter {
public:
    explicit MessageWriter(Sink sink, std::size_t max_size = kDefaultMaxMessageSize)
        : sink_(std::move(sink)), max_size_(max_size) {}

    /// The largest payload written; a larger one fails with
    /// ErrorCode::Encode.
    void set_max_size(std::size_t max_size) noexcept { max_size_ = max_size; }
    std::size_t max_size() const noexcept { return max_size_; }

    /// Writes the hello of the schema (encode_hello). Write it first, so that
    /// a MessageReader built from another version of the schema refuses the
    /// stream (ErrorCode::Schema) before any data is decoded.
    bool write_hello() {
        if (!begin()) {
            return false;
        }
        constexpr std::size_t n = std::size(kHelloEntries);
        constexpr std::size_t size = 10 + 4 + 10 * n;
        if (buf_.size() < size) {
            buf_.resize(size);
        }
        std::uint8_t* b = buf_.data();
        sdp::store<std::uint32_t>(b, 0x32504453);
        sdp::store<std::uint16_t>(b + 4, 0);
        sdp::store<std::uint32_t>(b + 6, static_cast<std::uint32_t>(4 + 10 * n));
        sdp::store<std::uint32_t>(b + 10, static_cast<std::uint32_t>(n));
        for (std::size_t i = 0; i < n; i++) {
            sdp::store<std::uint16_t>(b + 14 + 10 * i, kHelloEntries[i].type_id);
            sdp::store<std::uint64_t>(b + 16 + 10 * i, kHelloEntries[i].fingerprint);
        }
        return put(size);
    }

    /// Writes a struct of the schema as a message. Returns false on an
    /// error, which status() describes.
    template <class T, class = decltype(encode_message_to(std::declval<const T&>(), nullptr, 0))>
    bool write(const T& value) {
        if (!begin()) {
            return false;
        }
        // Encoding into the buffer as it is computes the size once; only a
        // message larger than the buffer sizes the message first.
        std::size_t n = buf_.empty() ? 0 : encode_message_to(value, buf_.data(), buf_.size());
        if (n == 0) {
            const std::size_t size = encoded_message_size(value);
            if (size == 0) {
                status_ = sdp::Status(sdp::ErrorCode::Encode, 6,
                                      "the message payload is larger than the header's u32 length allows");
                return false;
            }
            if (size - 10 > max_size_) {
                return too_large();
            }
            buf_.resize(size);
            n = encode_message_to(value, buf_.data(), buf_.size());
        }
        if (n - 10 > max_size_) {
            return too_large();
        }
        return put(n);
    }

    /// Writes the message held (as write of its struct).
    bool write(const AnyMessage& message) {
        if (message.valueless_by_exception()) {
            if (begin()) {
                status_ = sdp::Status(sdp::ErrorCode::Encode, 0, "the AnyMessage holds no message");
            }
            return false;
        }
        return std::visit([this](const auto& value) { return this->write(value); }, message);
    }

    /// Why the last write returned false (ok after a write that succeeded).
    const sdp::Status& status() const noexcept { return status_; }
    /// How many messages (a hello counts as one) were written.
    std::size_t count() const noexcept { return count_; }
    /// Bytes the sink took so far: the stream offset of the next message.
    std::size_t bytes_written() const noexcept { return total_; }

private:
    // Clears the last error, unless the sink failed.
    bool begin() noexcept {
        if (status_.code() == sdp::ErrorCode::Write) {
            return false;
        }
        status_.assign(sdp::ErrorCode::Ok, 0, "");
        return true;
    }

    bool too_large() noexcept {
        status_ = sdp::Status(sdp::ErrorCode::Encode, 6, "message payload exceeds the writer's maximum size");
        return false;
    }

    // Hands the first n bytes of the buffer to the sink.
    bool put(std::size_t n) {
        const std::uint8_t* p = buf_.data();
        if constexpr (std::is_same_v<std::invoke_result_t<Sink&, const std::uint8_t*, std::size_t>, bool>) {
            if (!sink_(p, n)) {
                status_ = sdp::Status(sdp::ErrorCode::Write, 0, "the sink failed to write the message");
                return false;
            }
            total_ += n;
        } else {
            std::size_t done = 0;
            while (done < n) {
                std::size_t wrote = sink_(p + done, n - done);
                if (wrote == 0) {
                    status_ = sdp::Status(sdp::ErrorCode::Write, done, "the sink failed to write the message");
                    return false;
                }
                if (wrote > n - done) {
                    wrote = n - done;
                }
                done += wrote;
                total_ += wrote;
            }
        }
        ++count_;
        return true;
    }

    Sink sink_;
    std::size_t max_size_;
    std::vector<std::uint8_t> buf_;
    std::size_t count_ = 0;
    std::size_t total_ = 0;
    sdp::Status status_;
};
`

// streamReader emits is_message_type_id and the MessageReader template.
func (g *generator) streamReader(p *emit.Printer) {
	p.P("/// Whether id is the type id of a struct of the schema.")
	p.Block("inline constexpr bool is_message_type_id(std::uint16_t id) noexcept {", "}", func() {
		p.P("switch (id) {")
		for _, s := range g.s.Structs {
			p.F("case %s::kTypeId:", g.name(s))
		}
		p.P(indent + "return true;")
		p.P("default:")
		p.P(indent + "return false;")
		p.P("}")
	})
	p.P()
	p.P("/// One struct of a hello: its type id, fingerprint and name.")
	p.Block("struct HelloEntry {", "};", func() {
		p.P("std::uint16_t type_id;")
		p.P("std::uint64_t fingerprint;")
		p.P("const char* name;")
	})
	p.P()
	p.P("/// The structs of the schema by type id, as the schema's hello lists them.")
	p.Block("inline constexpr HelloEntry kHelloEntries[] = {", "};", func() {
		structs := append([]*schema.Struct(nil), g.s.Structs...)
		sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
		for _, s := range structs {
			p.F("{%d, %s, %s},", s.ID, fingerprintLiteral(s), strconv.Quote(s.Name))
		}
	})
	p.P()
	p.P("/// The hello of the schema (docs/wire-format.md, \"The schema check")
	p.P("/// (hello)\"): a message of type id 0 listing the fingerprint of every")
	p.P("/// struct. Write it first to let the reader check that both ends use the")
	p.P("/// same version of the schema; a stream without it is read as before.")
	p.Block("inline std::vector<std::uint8_t> encode_hello() {", "}", func() {
		p.P("constexpr std::size_t n = std::size(kHelloEntries);")
		p.P("std::vector<std::uint8_t> out(10 + 4 + 10 * n);")
		p.P("std::uint8_t* b = out.data();")
		p.P("sdp::store<std::uint32_t>(b, 0x32504453);")
		p.P("sdp::store<std::uint16_t>(b + 4, 0);")
		p.P("sdp::store<std::uint32_t>(b + 6, static_cast<std::uint32_t>(4 + 10 * n));")
		p.P("sdp::store<std::uint32_t>(b + 10, static_cast<std::uint32_t>(n));")
		p.Block("for (std::size_t i = 0; i < n; i++) {", "}", func() {
			p.P("sdp::store<std::uint16_t>(b + 14 + 10 * i, kHelloEntries[i].type_id);")
			p.P("sdp::store<std::uint64_t>(b + 16 + 10 * i, kHelloEntries[i].fingerprint);")
		})
		p.P("return out;")
	})
	p.P()
	p.Line(strings.TrimRight(strings.TrimPrefix(messageReader, "\n"), "\n"))
	p.P()
	p.Line(strings.TrimRight(strings.TrimPrefix(messageWriter, "\n"), "\n"))
}
