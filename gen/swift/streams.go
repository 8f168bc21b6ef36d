package swift

import (
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// streams prints the stream API of a schema with structs: StreamError,
// MessageReader and MessageWriter (docs/wire-format.md, "Streams").
func (g *generator) streams(p *emit.Printer) {
	p.Line(strings.TrimRight(streamReader, "\n"))
	p.P()
	p.P("/// Writes messages to a byte sink: each message is encoded into one reused")
	p.P("/// buffer and handed to the sink in one call.")
	p.Block("public final class MessageWriter {", "}", func() {
		p.P("/// How many messages were written.")
		p.P("@exclusivity(unchecked) public private(set) var count = 0")
		p.P("/// How many bytes were written: the stream offset of the next message.")
		p.P("@exclusivity(unchecked) public private(set) var offset = 0")
		p.P("/// The largest payload written, in bytes: write refuses a larger message")
		p.P("/// (an EncodeError whose maxSize is this, nothing written, the writer goes")
		p.P("/// on), which a MessageReader with the same maxSize would refuse to read.")
		p.P("/// The default is the reader's, MessageReader.defaultMaxSize (64 MiB).")
		p.P("@exclusivity(unchecked) public var maxSize: Int")
		p.P("private let sink: (UnsafeRawBufferPointer) throws -> Void")
		p.P("// The writer's state is unchecked for exclusive access, as the reader's:")
		p.P("// no access is held across a call out of the writer, because send moves")
		p.P("// the buffer out of the property while the sink has its bytes (a sink")
		p.P("// that writes to the same writer gets a buffer of its own). The runtime's")
		p.P("// checks took half the writer's time per struct_a message (perf).")
		p.P("@exclusivity(unchecked) private var buffer: [UInt8] = []")
		p.P()
		p.P("/// A writer handing every message's bytes to sink (valid only during the")
		p.P("/// call), refusing payloads over maxSize bytes.")
		p.Block("public init(maxSize: Int = MessageReader.defaultMaxSize, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {", "}", func() {
			p.P("self.maxSize = maxSize")
			p.P("self.sink = sink")
		})
		p.P()
		p.P("/// Writes the message; errors are EncodeError (see write(_:) of its struct)")
		p.P("/// and the sink's.")
		p.Block("public func write(_ message: AnyMessage) throws {", "}", func() {
			switchBlock(p, "switch message {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): try write(v)", member(st.Name))
				}
			})
		})
		for _, st := range g.s.Structs {
			p.P()
			p.F("/// Writes a `%s` as a message. Throws EncodeError, writing nothing, when a", st.Name)
			p.P("/// string or array or the payload is longer than the format's u32 limit,")
			p.P("/// or the payload is longer than maxSize; other errors are the sink's.")
			p.Block("public func write(_ value: "+g.typeName(st)+") throws {", "}", func() {
				p.P("let size = value.encodedSize")
				p.P("try _sdpCheckPayload(value, size)")
				p.Block("if size > maxSize {", "}", func() {
					p.P(`throw EncodeError(field: "", length: size, maxSize: maxSize)`)
				})
				p.P("try send(_sdpMessageHeaderSize + size) { _sdpWriteMessage(value, typeID: ", g.typeName(st), ".messageTypeID, payloadSize: size, &$0) }")
			})
		}
		p.P()
		p.P("/// Writes a hello (docs/wire-format.md, \"The schema check (hello)\"): the")
		p.P("/// fingerprint of every struct of the schema, so that a MessageReader built")
		p.P("/// from another version of the schema refuses the stream (rule \"schema\")")
		p.P("/// before any data is decoded. Call it before the first message; it counts")
		p.P("/// as one (count, offset). A stream without a hello is what SDP 0.2 writes.")
		p.P("/// Errors are the sink's.")
		p.Block("public func writeHello() throws {", "}", func() {
			p.P("let entries = AnyMessage._sdpHelloEntries")
			p.P("let size = 4 + 10 * entries.count")
			p.Block("try send(_sdpMessageHeaderSize + size) { w in", "}", func() {
				p.P("_sdpWriteHeader(&w, typeID: AnyMessage.helloTypeID, payloadSize: size)")
				p.P("w.count(entries.count)")
				p.Block("for e in entries {", "}", func() {
					p.P("w.int(e.id)")
					p.P("w.int(e.fingerprint)")
				})
			})
		})
		p.P()
		p.P("/// Has body write one message of size bytes into the buffer, hands them")
		p.P("/// to the sink and counts them; the buffer is out of its property")
		p.P("/// meanwhile. The buffer keeps the size of the largest message.")
		p.P("@inline(__always)")
		p.Block("private func send(_ size: Int, _ body: (inout _SDPWriter) -> Void) throws {", "}", func() {
			p.P("var out: [UInt8] = []")
			p.P("swap(&out, &buffer)")
			p.P("defer { swap(&out, &buffer) }")
			p.Block("if out.count < size {", "}", func() {
				p.P("out = [UInt8](repeating: 0, count: Swift.max(size, 2 * out.count))")
			})
			p.Block("try out.withUnsafeMutableBytes { b in", "}", func() {
				p.P("_sdpFill(b.baseAddress!, size, body)")
				p.P("try sink(UnsafeRawBufferPointer(rebasing: b[..<size]))")
			})
			p.P("count += 1")
			p.P("offset += size")
		})
	})
}

// streamReader is the schema-independent part of the stream API.
const streamReader = `/// A bad message of a stream (docs/wire-format.md, "Streams"): which message
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

    public var description: Swift.String {
        "sdp: \(rule) at stream offset \(offset) (message #\(index)): \(path.isEmpty ? "" : path + ": ")\(error._sdpReason)"
    }
}

/// Appends value framed as a message to out.
@inline(__always)
func _sdpAppendMessage<T: _SDPEncodable>(_ value: T, typeID: UInt16, payloadSize: Int, to out: inout [UInt8]) {
    _sdpAppend(&out, size: _sdpMessageHeaderSize + payloadSize) {
        _sdpWriteMessage(value, typeID: typeID, payloadSize: payloadSize, &$0)
    }
}

/// Writes value framed as a message: the header, then the payload.
@inline(__always)
func _sdpWriteMessage<T: _SDPEncodable>(_ value: T, typeID: UInt16, payloadSize: Int, _ w: inout _SDPWriter) {
    _sdpWriteHeader(&w, typeID: typeID, payloadSize: payloadSize)
    withUnsafePointer(to: value) { T._sdpWrite(at: $0, &w) }
}

/// v as 16 hex digits, as ` + "`sdp fingerprint`" + ` prints fingerprints.
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

    /// The largest payload accepted, in bytes.
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
                        reason: "the writer's schema has another version of \(e.name) (type id \(id)): fingerprint \(_sdpHex(theirs)), here \(_sdpHex(e.fingerprint)); run ` + "`sdp compat`" + ` on the two schemas")
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
        let overMax = maxSize < 0 || length > UInt(maxSize) || length > UInt(Int.max - _sdpMessageHeaderSize)
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
            throw fail(.invalidMessage(offset: 6, reason: "the payload length \(length) is over the reader's maximum of \(maxSize)"))
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
}`

// streamTests prints the XCTest of the stream API: a good stream written by
// MessageWriter and read back byte by byte, then streams cut inside a
// header and inside a payload, a payload length over the maximum, and a bad
// payload and an unknown type id that the reader skips to go on.
func (g *generator) streamTests(p *emit.Printer) {
	first := g.s.Structs[0]
	used := map[int]bool{}
	for _, st := range g.s.Structs {
		used[int(st.ID)] = true
	}
	unknown := 0
	for used[unknown] {
		unknown++
	}
	p.Block("func testMessageStream() throws {", "}", func() {
		p.Block("let values: [AnyMessage] = [", "]", func() {
			for _, st := range g.s.Structs {
				p.F(".%s(%s()),", member(st.Name), g.typeName(st))
			}
			p.F(".%s(%s),", member(first.Name), g.sampleDecl(first, 0, 3))
		})
		p.P("var stream: [UInt8] = []")
		p.P("let writer = MessageWriter { stream.append(contentsOf: $0) }")
		p.Block("for v in values {", "}", func() {
			p.P("try writer.write(v)")
		})
		p.P("XCTAssertEqual(stream, values.flatMap { $0.serializedMessage() })")
		p.P("XCTAssertEqual([writer.count, writer.offset], [values.count, stream.count])")
		p.P("// Appending each message to one buffer gives the same stream.")
		p.P("var appended: [UInt8] = []")
		p.Block("for v in values {", "}", func() {
			p.P("v.serializeMessage(into: &appended)")
		})
		p.P("XCTAssertEqual(appended, stream)")
		p.P("var one: [UInt8] = [0x5A]")
		p.F("%s().serializeMessage(into: &one)", g.typeName(first))
		p.F("XCTAssertEqual(one, [0x5A] + %s().serializedMessage())", g.typeName(first))
		p.P()
		p.P("// A writer refuses a payload over its maxSize, writes nothing and goes on.")
		p.P("XCTAssertEqual(MessageWriter { _ in }.maxSize, MessageReader.defaultMaxSize)")
		p.P("let last = values[values.count - 1]")
		p.P("let lastSize = last.serializedMessage().count - AnyMessage.headerSize")
		p.P("var small: [UInt8] = []")
		p.P("let limited = MessageWriter(maxSize: lastSize - 1) { small.append(contentsOf: $0) }")
		p.Block("do {", "}", func() {
			p.P("try limited.write(last)")
			p.P(`XCTFail("a payload over maxSize was written")`)
		})
		p.Block("catch let e as EncodeError {", "}", func() {
			p.P(`XCTAssertEqual(e, EncodeError(field: "", length: lastSize, maxSize: lastSize - 1))`)
			p.P(`XCTAssertEqual(e.description, "sdp: cannot write the message payload: length \(lastSize) is over the writer's maxSize (\(lastSize - 1))")`)
		})
		p.P("XCTAssertEqual([small.count, limited.count, limited.offset], [0, 0, 0])")
		p.P("limited.maxSize = lastSize")
		p.P("try limited.write(last)")
		p.P("XCTAssertEqual(small, last.serializedMessage())")
		p.P("XCTAssertEqual([limited.count, limited.offset], [1, small.count])")
		p.P()
		p.P("// A sink may write to its own writer: that message gets a buffer of its own.")
		p.P("var nested: [UInt8] = []")
		p.P("var reentrant: MessageWriter?")
		p.Block("let outer = MessageWriter { bytes in", "}", func() {
			p.P("nested.append(contentsOf: bytes)")
			p.Block("if nested.count == bytes.count {", "}", func() {
				p.P("try reentrant?.write(last)")
			})
		})
		p.P("reentrant = outer")
		p.P("try outer.write(values[0])")
		p.P("reentrant = nil")
		p.P("let first = values[0].serializedMessage()")
		p.P("XCTAssertEqual(nested, first + last.serializedMessage())")
		p.P("XCTAssertEqual([outer.count, outer.offset], [2, nested.count])")
		p.P("try outer.write(values[0])")
		p.P("XCTAssertEqual(Array(nested.suffix(first.count)), first)")
		p.P()
		p.P("// Read back one byte at a time.")
		p.P("var pos = 0")
		p.Block("let reader = MessageReader { buf in", "}", func() {
			p.Block("guard pos < stream.count, !buf.isEmpty else {", "}", func() {
				p.P("return 0")
			})
			p.P("buf[0] = stream[pos]")
			p.P("pos += 1")
			p.P("return 1")
		})
		p.P("var read: [AnyMessage] = []")
		p.Block("while let m = try reader.next() {", "}", func() {
			p.P("read.append(m)")
		})
		p.P("XCTAssertEqual(read, values)")
		p.P("XCTAssertEqual([reader.index, reader.offset], [values.count, stream.count])")
		p.P("XCTAssertNil(try reader.next())")
		p.P()
		p.F("let id = %s.messageTypeID", g.typeName(first))
		p.P("let n = values.count")
		p.P(`assertStreamError(stream + messageHeader(id, 0).prefix(5), "truncated", index: n, offset: stream.count, skippable: false)`)
		p.P(`assertStreamError(stream + messageHeader(id, 3) + [0], "truncated", index: n, offset: stream.count + 10, skippable: false)`)
		p.P(`assertStreamError(stream + messageHeader(id, UInt32(stream.count + 1)), maxSize: stream.count, "message", index: n, offset: stream.count + 6, skippable: false)`)
		p.P(`assertStreamError(stream + [0x53, 0x44, 0x50, 0x33] + messageHeader(id, 0).dropFirst(4), "message", index: n, offset: stream.count, skippable: false)`)
		p.F(`assertStreamError(stream + messageHeader(%d, 2) + [1], "message", index: n, offset: stream.count + 4, skippable: false)`, unknown)
		p.P()
		p.P("// A payload with a byte too many, then an unknown type id: both skipped.")
		p.F("let payload = %s().serializedBytes()", g.typeName(first))
		p.F("let skips = messageHeader(id, UInt32(payload.count + 1)) + payload + [0xFF] + messageHeader(%d, 2) + [1, 2]", unknown)
		p.P("let again = MessageReader(bytes: skips + stream)")
		p.P("assertStreamError(again, \"trailing\", index: 0, offset: 10 + payload.count, skippable: true)")
		p.F(`assertStreamError(again, "message", index: 1, offset: %d + payload.count, skippable: true)`, 10+1+4)
		p.P("XCTAssertEqual(try again.next(), values[0])")
		p.P("XCTAssertEqual([again.index, again.offset], [3, skips.count + values[0].serializedMessage().count])")
	})
}

// helloTests prints the XCTest of the schema check: a stream written with a
// hello and read by a reader that requires one, the hello's bytes, a changed
// fingerprint refused with rule schema naming the type, a stream without a
// hello refused by that reader, and a hello after the first message refused
// like an unknown type id.
func (g *generator) helloTests(p *emit.Printer) {
	sorted := sortedByID(g.s.Structs)
	low := sorted[0]
	n := len(sorted)
	p.Block("func testHello() throws {", "}", func() {
		p.Block("let values: [AnyMessage] = [", "]", func() {
			for _, st := range g.s.Structs {
				p.F(".%s(%s()),", member(st.Name), g.typeName(st))
			}
		})
		p.P("var stream: [UInt8] = []")
		p.P("let writer = MessageWriter { stream.append(contentsOf: $0) }")
		p.P("try writer.writeHello()")
		p.Block("for v in values {", "}", func() {
			p.P("try writer.write(v)")
		})
		p.F("let helloSize = 10 + 4 + 10 * %d", n)
		p.P("let hello = Array(stream[..<helloSize])")
		p.F("XCTAssertEqual(Array(hello[..<14]), messageHeader(0, UInt32(4 + 10 * %d)) + [%d, 0, 0, 0])", n, n)
		p.F("XCTAssertEqual(Array(hello[14..<16]), [%d, %d])", low.ID&0xFF, low.ID>>8)
		p.F("XCTAssertEqual(hello[16..<24].reversed().reduce(0) { $0 << 8 | UInt64($1) }, %s.fingerprint)", g.typeName(low))
		p.P("XCTAssertEqual(Array(stream[helloSize...]), values.flatMap { $0.serializedMessage() })")
		p.P("XCTAssertEqual([writer.count, writer.offset], [values.count + 1, stream.count])")
		p.P()
		p.P("// Read back by a reader that requires a hello: the hello is not a message.")
		p.P("let reader = MessageReader(bytes: stream)")
		p.P("reader.requireHello = true")
		p.P("XCTAssertFalse(reader.schemaChecked)")
		p.P("var read: [AnyMessage] = []")
		p.Block("while let m = try reader.next() {", "}", func() {
			p.P("read.append(m)")
		})
		p.P("XCTAssertEqual(read, values)")
		p.P("XCTAssert(reader.schemaChecked)")
		p.P("XCTAssertEqual([reader.index, reader.offset], [values.count + 1, stream.count])")
		p.P("let into = MessageReader(bytes: stream)")
		p.P("var m = values[0]")
		p.P("XCTAssert(try into.next(into: &m))")
		p.P("XCTAssertEqual([into.index, into.offset], [2, helloSize + values[0].serializedMessage().count])")
		p.P("XCTAssert(into.schemaChecked)")
		p.P()
		p.F("// A changed fingerprint of %s: rule schema, naming the type, not skippable.", low.Name)
		p.P("var changed = stream")
		p.P("changed[16] ^= 1")
		p.P("let refused = MessageReader(bytes: changed)")
		p.P(`assertStreamError(refused, "schema", index: 0, offset: 16, skippable: false)`)
		p.P("XCTAssertFalse(refused.schemaChecked)")
		p.Block("do {", "}", func() {
			p.P("_ = try MessageReader(bytes: changed).next()")
		})
		p.Block("catch {", "}", func() {
			p.P(`let text = "\(error)"`)
			p.F(`XCTAssert(text.contains(%q) && text.contains(%q) && text.contains("sdp compat"), text)`,
				"another version of "+low.Name+" ", "here "+schema.FormatFingerprint(schema.Fingerprint(low)))
		})
		p.P()
		p.P("// No hello: refused by a reader that requires one, read by the others.")
		p.P("let bare = Array(stream[helloSize...])")
		p.P("let requiring = MessageReader(bytes: bare)")
		p.P("requiring.requireHello = true")
		p.P(`assertStreamError(requiring, "schema", index: 0, offset: 4, skippable: false)`)
		p.P("let plain = MessageReader(bytes: bare)")
		p.P("XCTAssertEqual(try plain.next(), values[0])")
		p.P("XCTAssertFalse(plain.schemaChecked)")
		p.P("let empty = MessageReader(bytes: [])")
		p.P("empty.requireHello = true")
		p.P("XCTAssertNil(try empty.next())")
		p.P()
		p.P("// A hello after the first message: an unknown type id, skipped.")
		p.P("let first = values[0].serializedMessage()")
		p.P("let late = MessageReader(bytes: first + hello + first)")
		p.P("XCTAssertEqual(try late.next(), values[0])")
		p.P(`assertStreamError(late, "message", index: 1, offset: first.count + 4, skippable: true)`)
		p.P("XCTAssertEqual(try late.next(), values[0])")
		p.P("XCTAssertFalse(late.schemaChecked)")
	})
}

// streamTestHelpers prints the helpers of the stream test.
func (g *generator) streamTestHelpers(p *emit.Printer) {
	p.P("/// A message header: magic, type id, payload length.")
	p.Block("func messageHeader(_ id: UInt16, _ n: UInt32) -> [UInt8] {", "}", func() {
		p.P("[0x53, 0x44, 0x50, 0x32, UInt8(id & 0xFF), UInt8(id >> 8),")
		p.P(" UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]")
	})
	p.P()
	p.P("/// Asserts that reading a stream to its end throws a StreamError.")
	p.Block("func assertStreamError(_ stream: [UInt8], maxSize: Int = MessageReader.defaultMaxSize, _ rule: Swift.String, index: Int, offset: Int, skippable: Bool, file: StaticString = #filePath, line: UInt = #line) {", "}", func() {
		p.P("assertStreamError(MessageReader(bytes: stream, maxSize: maxSize), rule, index: index, offset: offset, skippable: skippable, file: file, line: line, toEnd: true)")
	})
	p.P()
	p.P("/// Asserts that the next message (or, with toEnd, some message before the")
	p.P("/// end) throws a StreamError of the given rule, index, offset and skippability;")
	p.P("/// after one that is not skippable, the next read throws it again.")
	p.Block("func assertStreamError(_ reader: MessageReader, _ rule: Swift.String, index: Int, offset: Int, skippable: Bool, file: StaticString = #filePath, line: UInt = #line, toEnd: Bool = false) {", "}", func() {
		p.Block("do {", "}", func() {
			p.Block("while try reader.next() != nil && toEnd {", "}", func() {})
			p.P(`XCTFail("read a stream that breaks rule \(rule)", file: file, line: line)`)
		})
		p.Block("catch let e as StreamError {", "}", func() {
			p.P(`XCTAssertEqual([e.rule, "\(e.index)", "\(e.offset)", "\(e.isSkippable)"], [rule, "\(index)", "\(offset)", "\(skippable)"], file: file, line: line)`)
			p.P("XCTAssertEqual(e.offset, e.messageOffset + e.error.offset, file: file, line: line)")
			p.P(`XCTAssert(e.description.hasPrefix("sdp: \(rule) at stream offset \(offset) (message #\(index)): "), e.description, file: file, line: line)`)
			p.P("// After an error that ends the stream, every read throws it again.")
			p.Block("if !e.isSkippable {", "}", func() {
				p.P(`XCTAssertThrowsError(try reader.next(), file: file, line: line) { XCTAssertEqual($0 as? StreamError, e, file: file, line: line) }`)
			})
		})
		p.Block("catch {", "}", func() {
			p.P(`XCTFail("not a StreamError: \(error)", file: file, line: line)`)
		})
	})
}
