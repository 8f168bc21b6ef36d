package swift

import (
	"strings"

	"sdp/gen/emit"
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
		p.P("public private(set) var count = 0")
		p.P("/// How many bytes were written: the stream offset of the next message.")
		p.P("public private(set) var offset = 0")
		p.P("private let sink: (UnsafeRawBufferPointer) throws -> Void")
		p.P("private var buffer: [UInt8] = []")
		p.P()
		p.P("/// A writer handing every message's bytes to sink (valid only during the call).")
		p.Block("public init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {", "}", func() {
			p.P("self.sink = sink")
		})
		p.P()
		p.P("/// Writes the message; errors are the sink's.")
		p.Block("public func write(_ message: AnyMessage) throws {", "}", func() {
			switchBlock(p, "switch message {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): try write(v)", member(st.Name))
				}
			})
		})
		for _, st := range g.s.Structs {
			p.P()
			p.F("/// Writes a `%s` as a message; errors are the sink's.", st.Name)
			p.Block("public func write(_ value: "+g.typeName(st)+") throws {", "}", func() {
				p.P("buffer.removeAll(keepingCapacity: true)")
				p.P("_sdpAppendMessage(value, typeID: ", g.typeName(st), ".messageTypeID, payloadSize: value.encodedSize, to: &buffer)")
				p.P("try flush()")
			})
		}
		p.P()
		p.Block("private func flush() throws {", "}", func() {
			p.P("try buffer.withUnsafeBytes { try sink($0) }")
			p.P("count += 1")
			p.P("offset += buffer.count")
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

    public var description: Swift.String {
        "sdp: \(rule) at stream offset \(offset) (message #\(index)): \(error._sdpReason)"
    }
}

/// Appends value framed as a message to out.
@inline(__always)
func _sdpAppendMessage<T: _SDPEncodable>(_ value: T, typeID: UInt16, payloadSize: Int, to out: inout [UInt8]) {
    withUnsafePointer(to: value) { p in
        _sdpAppend(&out, size: _sdpMessageHeaderSize + payloadSize) { w in
            _sdpWriteHeader(&w, typeID: typeID, payloadSize: payloadSize)
            T._sdpWrite(at: p, &w)
        }
    }
}

/// Reads messages one at a time from a byte source: a closure that fills a
/// prefix of the buffer it is given and returns how many bytes it wrote, 0 at
/// the end of the stream (see the FileHandle and [UInt8] initializers). The
/// reader asks for exactly the bytes of one message, keeps one buffer of the
/// largest message so far, and refuses a payload length over maxSize before
/// reading or allocating anything for it; under maxSize, the buffer grows as
/// the payload arrives, so a length the stream does not back costs at most
/// twice the bytes it holds.
public final class MessageReader {
    /// The default maxSize: 64 MiB.
    public static let defaultMaxSize = 64 << 20

    /// The largest payload accepted, in bytes.
    public var maxSize: Int
    /// The options every message is decoded with.
    public var options: DecodeOptions
    /// The index of the next message, from 0.
    public private(set) var index = 0
    /// The stream offset of the next message: the bytes read so far.
    public private(set) var offset = 0

    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private var buffer = [UInt8](repeating: 0, count: _sdpMessageHeaderSize)

    /// A reader of the bytes source writes; see the type's documentation.
    public init(
        maxSize: Int = MessageReader.defaultMaxSize, options: DecodeOptions = DecodeOptions(),
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.maxSize = maxSize
        self.options = options
        self.source = source
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
    /// StreamError with isSkippable, next() goes on with the following
    /// message.
    public func next() throws -> AnyMessage? {
        guard let size = try nextMessage() else {
            return nil
        }
        let options = self.options
        let decoded: Swift.Result<AnyMessage, DecodeError> = buffer.withUnsafeBytes { b in
            Swift.Result { () throws(DecodeError) in
                try AnyMessage(serializedMessage: UnsafeRawBufferPointer(rebasing: b[0..<size]), options: options)
            }
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
            let options = self.options
            let failure: DecodeError? = buffer.withUnsafeBytes { (b) -> DecodeError? in
                do throws(DecodeError) {
                    try message.decode(serializedMessage: UnsafeRawBufferPointer(rebasing: b[0..<size]), options: options)
                    return nil
                } catch {
                    return error
                }
            }
            if let e = failure {
                throw consumed(e, size)
            }
            index += 1
            offset += size
            return true
        } catch {
            message = AnyMessage._sdpPlaceholder
            throw error
        }
    }

    /// Reads the next message's bytes into buffer, checking its header;
    /// returns its size (header included), nil when the stream ends between
    /// two messages.
    private func nextMessage() throws -> Int? {
        let got = try fill(0, _sdpMessageHeaderSize)
        if got == 0 {
            return nil
        }
        if got < _sdpMessageHeaderSize {
            throw fail(.truncated(offset: 0))
        }
        let (magic, id, n) = buffer.withUnsafeBytes { b in
            (b.loadUnaligned(as: UInt32.self), b.loadUnaligned(fromByteOffset: 4, as: UInt16.self), b.loadUnaligned(fromByteOffset: 6, as: UInt32.self))
        }
        if UInt32(littleEndian: magic) != 0x3250_4453 {
            throw fail(.invalidMessage(offset: 0, reason: "the message does not start with the magic \"SDP2\""))
        }
        // The length is compared as a UInt, so that one of 2^31 or more is no
        // trap where Int has 32 bits; a size that Int cannot hold is over any
        // maximum.
        let length = UInt(UInt32(littleEndian: n))
        let overMax = maxSize < 0 || length > UInt(maxSize) || length > UInt(Int.max - _sdpMessageHeaderSize)
        if !AnyMessage._sdpKnows(UInt16(littleEndian: id)) {
            let e = DecodeError.invalidMessage(offset: 4, reason: "type id \(UInt16(littleEndian: id)) names no struct of the schema")
            guard !overMax, try skip(Int(length)) else {
                throw fail(e)
            }
            throw consumed(e, _sdpMessageHeaderSize + Int(length))
        }
        if overMax {
            throw fail(.invalidMessage(offset: 6, reason: "the payload length \(length) is over the reader's maximum of \(maxSize)"))
        }
        // The buffer grows as the payload arrives, doubling, so a length the
        // bytes do not back costs at most twice the bytes really sent.
        let size = _sdpMessageHeaderSize + Int(length)
        var have = _sdpMessageHeaderSize
        while have < size {
            let want = min(size, max(buffer.count, 2 * have, 1 << 16))
            if buffer.count < want {
                buffer.append(contentsOf: repeatElement(0, count: want - buffer.count))
            }
            if try fill(have, want) < want {
                throw fail(.truncated(offset: _sdpMessageHeaderSize))
            }
            have = want
        }
        return size
    }

    /// Reads into buffer[from..<to] until it is full or the source ends;
    /// returns the end of what the buffer holds.
    private func fill(_ from: Int, _ to: Int) throws -> Int {
        var got = from
        while got < to {
            let n = try buffer.withUnsafeMutableBytes { b in try source(UnsafeMutableRawBufferPointer(rebasing: b[got..<to])) }
            precondition(n >= 0 && n <= to - got, "sdp: a MessageReader source returned \(n) for \(to - got) bytes")
            if n == 0 {
                break
            }
            got += n
        }
        return got
    }

    /// Reads and drops n bytes through the buffer; whether they were all there.
    private func skip(_ n: Int) throws -> Bool {
        var left = n
        while left > 0 {
            let chunk = min(left, max(buffer.count, 4096))
            if buffer.count < chunk {
                buffer.append(contentsOf: repeatElement(0, count: chunk - buffer.count))
            }
            let got = try fill(0, chunk)
            if got < chunk {
                return false
            }
            left -= chunk
        }
        return true
    }

    /// The error of the current message, which was not consumed.
    private func fail(_ e: DecodeError) -> StreamError {
        StreamError(index: index, messageOffset: offset, error: e, isSkippable: false)
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
	p.P("/// end) throws a StreamError of the given rule, index, offset and skippability.")
	p.Block("func assertStreamError(_ reader: MessageReader, _ rule: Swift.String, index: Int, offset: Int, skippable: Bool, file: StaticString = #filePath, line: UInt = #line, toEnd: Bool = false) {", "}", func() {
		p.Block("do {", "}", func() {
			p.Block("while try reader.next() != nil && toEnd {", "}", func() {})
			p.P(`XCTFail("read a stream that breaks rule \(rule)", file: file, line: line)`)
		})
		p.Block("catch let e as StreamError {", "}", func() {
			p.P(`XCTAssertEqual([e.rule, "\(e.index)", "\(e.offset)", "\(e.isSkippable)"], [rule, "\(index)", "\(offset)", "\(skippable)"], file: file, line: line)`)
			p.P("XCTAssertEqual(e.offset, e.messageOffset + e.error.offset, file: file, line: line)")
			p.P(`XCTAssert(e.description.hasPrefix("sdp: \(rule) at stream offset \(offset) (message #\(index)): "), e.description, file: file, line: line)`)
		})
		p.Block("catch {", "}", func() {
			p.P(`XCTFail("not a StreamError: \(error)", file: file, line: line)`)
		})
	})
}
