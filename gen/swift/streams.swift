/// A bad message of a stream (docs/wire-format.md, "Streams"): which message
/// it is and where the problem is, counted from the start of the stream.
public struct StreamError: Swift.Error, CustomStringConvertible, Sendable, Hashable {
    /// The message's position in the stream, from 0.
    public let index: Int
    /// The stream offset of the message's header.
    public let messageOffset: Int
    /// The error, its offset counted from the start of the message (header
    /// included).
    public let error: DecodeError
    /// Whether the reader consumed the whole message (a payload its decoder
    /// rejects, or an unknown type id with a complete payload), so that
    /// reading can go on with the next one. After any other error the stream
    /// cannot be resynchronized.
    public let isSkippable: Bool

    /// The stream offset of the problem: messageOffset + error.offset.
    public var offset: Int { messageOffset + error.offset }

    /// The broken rule, as DecodeError.rule.
    public var rule: Swift.String { error.rule }

    /// The field path of the problem, as DecodeError.path: in the payload's
    /// struct, or "message" for the header or a hello.
    public var path: Swift.String { error.path }

    /// "message 3 at stream offset 120: utf8 at offset 17 in name: a string
    /// is not valid UTF-8": the message's index and the stream offset of its
    /// header, then the DecodeError, whose offset counts from the header
    /// (docs/api.md, "One layout of error text").
    public var description: Swift.String {
        "message \(index) at stream offset \(messageOffset): \(error)"
    }
}

/// Appends value framed as a message to out.
@inline(__always)
func _sdpAppendMessage<T: _SDPEncodable>(_ value: T, typeID: UInt16, payloadSize: Int, to out: inout [UInt8]) {
    let size = _sdpAdd(_sdpMessageHeaderSize, payloadSize)
    _sdpCheckCountable(size)
    let ok = _sdpAppend(&out, size: size) {
        _sdpWriteMessage(value, typeID: typeID, payloadSize: payloadSize, &$0)
    }
    if !ok {
        _sdpWrongLength()
    }
}

/// Writes value framed as a message: the header, then the payload.
@inline(__always)
func _sdpWriteMessage<T: _SDPEncodable>(_ value: T, typeID: UInt16, payloadSize: Int, _ w: inout _SDPWriter) {
    _sdpWriteHeader(&w, typeID: typeID, payloadSize: payloadSize)
    withUnsafePointer(to: value) { T._sdpWrite(at: $0, &w) }
}

/// v as 16 hex digits, as `sdp fingerprint` prints fingerprints.
func _sdpHex(_ v: UInt64) -> Swift.String {
    let digits = Swift.String(v, radix: 16)
    return Swift.String(repeating: "0", count: 16 - digits.count) + digits
}

/// Reads messages one at a time from a byte source: a closure that fills a
/// prefix of the buffer it is given and returns how many bytes it wrote, 0 at
/// the end of the stream (see the FileHandle and [UInt8] initializers). The
/// reader has a buffer of its own, 64 KiB or the largest message so far,
/// which it asks the source to fill as far as it can (so it may read past
/// the message it returns, as a buffered reader does), and decodes every
/// message where it lies in that buffer. It refuses a payload length over
/// maxSize before reading or allocating anything for it; under maxSize, the
/// buffer grows as a large payload arrives, doubling, so a length the
/// stream does not back costs at most twice the bytes it holds.
public final class MessageReader {
    /// The default maxSize: 64 MiB.
    public static let defaultMaxSize = 64 << 20

    /// The largest payload accepted, in bytes; 0 or a negative number means
    /// defaultMaxSize.
    @exclusivity(unchecked) public var maxSize: Int
    /// The options every message is decoded with.
    @exclusivity(unchecked) public var options: DecodeOptions
    /// Whether to refuse a stream that does not start with a hello (rule
    /// "schema" at offset 4 of message 0; an empty stream is not refused).
    @exclusivity(unchecked) public var requireHello = false
    /// Whether the stream began with a hello that agreed with this schema
    /// (see MessageWriter.writeHello()).
    @exclusivity(unchecked) public private(set) var schemaChecked = false
    /// The index of the next message, from 0.
    @exclusivity(unchecked) public private(set) var index = 0
    /// The stream offset of the next message: the bytes read so far.
    @exclusivity(unchecked) public private(set) var offset = 0

    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    /// The error that ended the stream, thrown again by every read.
    @exclusivity(unchecked) private var failed: StreamError?
    // The reader's state is unchecked for exclusive access: it is a
    // non-Sendable class, used from one thread, whose methods hold no access
    // across a call that could reach the same property (the source is
    // handed a raw buffer, not the properties). The runtime's checks cost
    // 700 of the 3,000 instructions per struct_a message it took over a
    // pipe (callgrind).
    /// The bytes read from the source and not yet consumed are
    /// buffer[start..<end]; the current message starts at start.
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0

    /// The buffer's first size: the source is asked for this much at a time.
    static let _sdpChunk = 64 << 10

    /// A reader of the bytes source writes; see the type's documentation.
    public init(
        maxSize: Int = MessageReader.defaultMaxSize, options: DecodeOptions = DecodeOptions(),
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.maxSize = maxSize
        self.options = options
        self.source = source
        self.capacity = MessageReader._sdpChunk
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: MessageReader._sdpChunk, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// A reader of a stream held in memory.
    public convenience init(bytes: [UInt8], maxSize: Int = MessageReader.defaultMaxSize, options: DecodeOptions = DecodeOptions()) {
        var pos = 0
        self.init(maxSize: maxSize, options: options) { buf in
            let n = min(buf.count, bytes.count - pos)
            if n > 0 {
                bytes.withUnsafeBytes { b in buf.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[pos..<pos + n])) }
                pos += n
            }
            return n
        }
    }

    /// Reads and decodes the next message; nil when the stream ends between
    /// two messages. A bad message, or a stream that ends inside one, throws
    /// a StreamError; the source's errors are thrown as they are. After a
    /// StreamError with isSkippable (the reader read the whole message: a
    /// payload its decoder rejects, an unknown type id, a hello after the
    /// first message), next() goes on with the following message; after any
    /// other StreamError the stream cannot be followed, and every further
    /// read throws the same error again, never a message.
    ///
    /// A hello at the start of the stream (see MessageWriter.writeHello()) is
    /// checked and not returned (the first message returned then has index
    /// 1): if the writer's schema gives one of this schema's structs another
    /// fingerprint, next() throws a StreamError of rule "schema", naming the
    /// type, before any data is decoded; such a stream cannot be skipped.
    public func next() throws -> AnyMessage? {
        guard let size = try nextMessage() else {
            return nil
        }
        let message = UnsafeRawBufferPointer(start: buffer + start, count: size)
        start += size
        let decoded = Swift.Result { () throws(DecodeError) in
            try AnyMessage(serializedMessage: message, options: options)
        }
        switch decoded {
        case .success(let m):
            index += 1
            offset += size
            return m
        case .failure(let e):
            throw consumed(e, size)
        }
    }

    /// Reads the next message and decodes it into message, reusing the
    /// storage message holds when it carries the same struct (see
    /// AnyMessage.decode(serializedMessage:options:)): in a loop over a
    /// stream, the values of one struct type allocate only what they hold
    /// beyond the previous message's value. Returns false, leaving message
    /// as it is, when the stream ends between two messages. Errors are
    /// next()'s; on any error message is reset to AnyMessage's default
    /// value (the first struct of the schema, default-constructed), and
    /// after a StreamError with isSkippable reading can go on.
    public func next(into message: inout AnyMessage) throws -> Bool {
        do {
            guard let size = try nextMessage() else {
                return false
            }
            let bytes = UnsafeRawBufferPointer(start: buffer + start, count: size)
            start += size
            do throws(DecodeError) {
                try message.decode(serializedMessage: bytes, options: options)
            } catch {
                throw consumed(error, size)
            }
            index += 1
            offset += size
            return true
        } catch {
            message = AnyMessage._sdpPlaceholder
            throw error
        }
    }

    /// Reads the next message into buffer[start...], checking its header;
    /// returns its size (header included), nil when the stream ends between
    /// two messages. A hello at the start is checked and passed over.
    private func nextMessage() throws -> Int? {
        if let e = failed {
            throw e
        }
        while true {
            guard let message = try readMessage() else {
                return nil
            }
            if !message.hello {
                return message.size
            }
            if let e = checkHello(message.size) {
                throw fail(e)
            }
            start += message.size
            schemaChecked = true
            index += 1
            offset += message.size
        }
    }

    /// Checks the hello in buffer[start..<start + size] against the schema;
    /// offsets count from the start of the message.
    private func checkHello(_ size: Int) -> DecodeError? {
        do {
            let p = UnsafeRawBufferPointer(start: buffer + start + _sdpMessageHeaderSize, count: size - _sdpMessageHeaderSize)
            guard p.count >= 4 else {
                return .invalidMessage(offset: 6, reason: "a hello's payload holds a u32 count and 10 bytes per struct; this one has \(p.count) bytes")
            }
            let n = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
            guard UInt64(p.count) == 4 + 10 * UInt64(n) else {
                return .invalidMessage(offset: 6, reason: "a hello of \(n) structs has a payload of \(p.count) bytes, not \(4 + 10 * UInt64(n))")
            }
            var prev = -1
            for i in 0..<Int(n) {
                let at = 4 + 10 * i
                let id = UInt16(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt16.self))
                if id == 0 || Int(id) <= prev {
                    return .invalidMessage(offset: _sdpMessageHeaderSize + at, reason: "hello entry \(i) has type id \(id): type ids must be above 0 and strictly increasing")
                }
                prev = Int(id)
                let theirs = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at + 2, as: UInt64.self))
                for e in AnyMessage._sdpHelloEntries where e.id == id && e.fingerprint != theirs {
                    return .schemaMismatch(
                        offset: _sdpMessageHeaderSize + at + 2,
                        reason: "the writer's schema has another version of \(e.name) (type id \(id)): fingerprint \(_sdpHex(theirs)), here \(_sdpHex(e.fingerprint)); run `sdp compat` on the two schemas")
                }
            }
            return nil
        }
    }

    /// Reads the next message's bytes into buffer[start...], checking its
    /// header; returns its size (header included) and whether it is a hello
    /// (type id 0 as the first message), nil when the stream ends between two
    /// messages.
    private func readMessage() throws -> (size: Int, hello: Bool)? {
        let got = end - start >= _sdpMessageHeaderSize ? end - start : try want(_sdpMessageHeaderSize)
        if got == 0 {
            return nil
        }
        if got < _sdpMessageHeaderSize {
            throw fail(.truncated(offset: 0))
        }
        let header = buffer + start
        let magic = header.loadUnaligned(as: UInt32.self)
        let id = header.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        let n = header.loadUnaligned(fromByteOffset: 6, as: UInt32.self)
        if UInt32(littleEndian: magic) != 0x3250_4453 {
            throw fail(.invalidMessage(offset: 0, reason: "the message does not start with the magic \"SDP2\""))
        }
        // The length is compared as a UInt, so that one of 2^31 or more is no
        // trap where Int has 32 bits; a size that Int cannot hold is over any
        // maximum.
        let length = UInt(UInt32(littleEndian: n))
        let max = maxSize > 0 ? maxSize : MessageReader.defaultMaxSize
        let overMax = length > UInt(max) || length > UInt(Int.max - _sdpMessageHeaderSize)
        let typeID = UInt16(littleEndian: id)
        let hello = typeID == 0 && index == 0
        if requireHello && index == 0 && !hello {
            throw fail(.schemaMismatch(offset: 4, reason: "the stream does not start with a hello (type id 0), and this reader requires one"))
        }
        if !hello && !AnyMessage._sdpKnows(typeID) {
            let e = DecodeError.invalidMessage(
                offset: 4,
                reason: typeID == 0
                    ? "a hello (type id 0) may only be a stream's first message; this is message #\(index)"
                    : "type id \(typeID) names no struct of the schema",
                path: "message")
            guard !overMax, try discard(_sdpMessageHeaderSize + Int(length)) else {
                throw fail(e)
            }
            throw consumed(e, _sdpMessageHeaderSize + Int(length))
        }
        if overMax {
            throw fail(.invalidMessage(offset: 6, reason: "the payload length \(length) is over the reader's maximum of \(max)"))
        }
        let size = _sdpMessageHeaderSize + Int(length)
        if end - start < size, try want(size) < size {
            throw fail(.truncated(offset: _sdpMessageHeaderSize))
        }
        return (size, hello)
    }

    /// Reads from the source until buffer[start..<end] holds n bytes or the
    /// source ends; returns how many it holds. The unconsumed bytes move to
    /// the front when the rest of the buffer cannot hold n; the buffer grows,
    /// doubling as the bytes arrive, when it cannot hold n at all.
    private func want(_ n: Int) throws -> Int {
        if start > 0 && capacity - start < n {
            if end > start {
                buffer.copyMemory(from: buffer + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        while end - start < n {
            if end == capacity {
                grow(to: min(start + n, max(2 * capacity, MessageReader._sdpChunk)))
            }
            let got = try source(UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            precondition(got >= 0 && got <= capacity - end, "sdp: a MessageReader source returned \(got) for \(capacity - end) bytes")
            if got == 0 {
                break
            }
            end += got
        }
        return end - start
    }

    /// Replaces the buffer with one of count bytes holding the same bytes.
    private func grow(to count: Int) {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        bigger.copyMemory(from: buffer, byteCount: end)
        buffer.deallocate()
        buffer = bigger
        capacity = count
    }

    /// Drops n bytes from start, reading them from the source as needed;
    /// whether they were all there.
    private func discard(_ n: Int) throws -> Bool {
        var left = n
        while true {
            let take = min(left, end - start)
            start += take
            left -= take
            if left == 0 {
                return true
            }
            start = 0
            end = 0
            if try want(min(left, capacity)) == 0 {
                return false
            }
        }
    }

    /// The error of the current message, which was not consumed: one the
    /// reader finds in a header or a hello (its path is "message"). The
    /// stream cannot be followed: every further read throws it again.
    private func fail(_ e: DecodeError) -> StreamError {
        let err = StreamError(index: index, messageOffset: offset, error: e._sdpAt("message"), isSkippable: false)
        failed = err
        return err
    }

    /// The error of the current message, consumed (size bytes): the reader
    /// moves on to the next one.
    private func consumed(_ e: DecodeError, _ size: Int) -> StreamError {
        let err = StreamError(index: index, messageOffset: offset, error: e, isSkippable: true)
        index += 1
        offset += size
        return err
    }
}
