package cpp

import (
	"strings"

	"sdp/gen/emit"
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

    /// Why the last read returned false (ok at the end of the stream).
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
    // payload, then the payload's decoder.
    template <class M>
    bool next(M& out) {
        if (!status_ && !resumable_) {
            return false;
        }
        status_ = sdp::Status();
        resumable_ = false;
        index_ = count_;
        start_ = total_;
        have_ = 0;
        if (!fill(10)) {
            if (have_ != 0) {
                status_ = sdp::Status(sdp::ErrorCode::Truncated, 0, "the stream ends inside a message header");
            }
            return false;
        }
        const std::uint8_t* h = buf_.data();
        if (h[0] != 'S' || h[1] != 'D' || h[2] != 'P' || h[3] != '2') {
            status_ = sdp::Status(sdp::ErrorCode::Message, 0, "bad message magic");
            return false;
        }
        const std::uint32_t payload = sdp::load<std::uint32_t>(h + 6);
        const std::size_t size = std::size_t{10} + payload;
        if (!is_message_type_id(sdp::load<std::uint16_t>(h + 4))) {
            status_ = sdp::Status(sdp::ErrorCode::Message, 4, "message type id names no type of the schema");
            // The payload is skipped, so that the reader can go on.
            if (payload <= max_size_ && size >= 10 && fill(size)) {
                resumable_ = true;
                ++count_;
            }
            return false;
        }
        if (payload > max_size_) {
            status_ = sdp::Status(sdp::ErrorCode::Message, 6, "message payload exceeds the reader's maximum size");
            return false;
        }
        if (size < 10) {
            // A 32-bit size_t cannot hold the message: it is read to its
            // end, which a real stream does not reach.
            status_ = drain(payload) ? sdp::Status(sdp::ErrorCode::Message, 6, "message too large for this platform")
                                     : sdp::Status(sdp::ErrorCode::Truncated, 10, "the stream ends inside a message payload");
            return false;
        }
        if (!fill(size)) {
            status_ = sdp::Status(sdp::ErrorCode::Truncated, 10, "the stream ends inside a message payload");
            return false;
        }
        ++count_;
        status_ = decode_any_message(buf_.data(), size, out, options_);
        resumable_ = !status_.ok();
        return status_.ok();
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
	p.Line(strings.TrimRight(strings.TrimPrefix(messageReader, "\n"), "\n"))
}
