package swift

import (
	_ "embed"
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
		p.P("/// (an EncodeError of rule \"message\", nothing written, the writer goes")
		p.P("/// on), which a MessageReader with the same maxSize would refuse to read.")
		p.P("/// The default is the reader's, MessageReader.defaultMaxSize (64 MiB); 0")
		p.P("/// or a negative number means the default too.")
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
			p.F("/// Writes a `%s` as a message. Throws EncodeError, writing nothing, for a", st.Name)
			p.P("/// value that has no encoding (see checkedSerializedBytes()) or a payload")
			p.P("/// over maxSize (rule \"message\"); other errors are the sink's.")
			p.Block("public func write(_ value: "+g.typeName(st)+") throws {", "}", func() {
				p.P("let size = value.encodedSize")
				p.P("try _sdpCheckPayload(value, size, maxSize: maxSize > 0 ? maxSize : MessageReader.defaultMaxSize)")
				p.Block("if try !send(_sdpMessageHeaderSize + size, { _sdpWriteMessage(value, typeID: "+g.typeName(st)+".messageTypeID, payloadSize: size, &$0) }) {", "}", func() {
					p.P("throw _sdpProblem(value)")
				})
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
			p.Block("_ = try send(_sdpMessageHeaderSize + size) { w in", "}", func() {
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
		p.P("/// meanwhile. The buffer keeps the size of the largest message. False,")
		p.P("/// with nothing handed to the sink, when the writer met a fixed-length")
		p.P("/// array of another length.")
		p.P("@inline(__always)")
		p.Block("private func send(_ size: Int, _ body: (inout _SDPWriter) -> Void) throws -> Bool {", "}", func() {
			p.P("var out: [UInt8] = []")
			p.P("swap(&out, &buffer)")
			p.P("defer { swap(&out, &buffer) }")
			p.Block("if out.count < size {", "}", func() {
				p.P("out = [UInt8](repeating: 0, count: Swift.max(size, 2 * out.count))")
			})
			p.Block("let ok = try out.withUnsafeMutableBytes { b in", "}", func() {
				p.Block("if !_sdpFill(b.baseAddress!, size, body) {", "}", func() {
					p.P("return false")
				})
				p.P("try sink(UnsafeRawBufferPointer(rebasing: b[..<size]))")
				p.P("return true")
			})
			p.Block("if ok {", "}", func() {
				p.P("count += 1")
				p.P("offset += size")
			})
			p.P("return ok")
		})
	})
}

// streamReader is the schema-independent part of the stream API, written as
// Swift so it can be read as such.
//
//go:embed streams.swift
var streamReader string

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
		p.P("// A writer refuses a payload over its maxSize, writes nothing and goes on;")
		p.P("// a maxSize of 0 or less means the default.")
		p.P("XCTAssertEqual(MessageWriter { _ in }.maxSize, MessageReader.defaultMaxSize)")
		p.P("let last = values[values.count - 1]")
		p.P("let lastSize = last.serializedMessage().count - AnyMessage.headerSize")
		p.Block("for unlimited in [0, -1] {", "}", func() {
			p.P("var all: [UInt8] = []")
			p.P("try MessageWriter(maxSize: unlimited) { all.append(contentsOf: $0) }.write(last)")
			p.P("XCTAssertEqual(all, last.serializedMessage())")
		})
		p.Block("if lastSize > 1 {", "}", func() {
			p.P("var small: [UInt8] = []")
			p.P("let limited = MessageWriter(maxSize: lastSize - 1) { small.append(contentsOf: $0) }")
			p.Block("do {", "}", func() {
				p.P("try limited.write(last)")
				p.P(`XCTFail("a payload over maxSize was written")`)
			})
			p.Block("catch let e as EncodeError {", "}", func() {
				p.P(`XCTAssertEqual([e.rule, e.path], ["message", "message"])`)
				p.P(`XCTAssertEqual(e.description, "message in message: the payload of \(lastSize) bytes is over the writer's maximum of \(lastSize - 1)")`)
			})
			p.P("XCTAssertEqual([small.count, limited.count, limited.offset], [0, 0, 0])")
			p.P("limited.maxSize = lastSize")
			p.P("try limited.write(last)")
			p.P("XCTAssertEqual(small, last.serializedMessage())")
			p.P("XCTAssertEqual([limited.count, limited.offset], [1, small.count])")
		})
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
		p.P("// A maxSize of 0 or less means the default.")
		p.Block("for unlimited in [0, -1] {", "}", func() {
			p.P("let whole = MessageReader(bytes: stream, maxSize: unlimited)")
			p.P("var all: [AnyMessage] = []")
			p.Block("while let m = try whole.next() {", "}", func() {
				p.P("all.append(m)")
			})
			p.P("XCTAssertEqual(all, values)")
		})
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
			p.P(`XCTAssertEqual(e.description, "message \(index) at stream offset \(e.messageOffset): \(e.error)", file: file, line: line)`)
			p.P(`XCTAssert(e.error.description.hasPrefix("\(rule) at offset \(offset - e.messageOffset)"), e.description, file: file, line: line)`)
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
