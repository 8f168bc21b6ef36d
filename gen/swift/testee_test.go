package swift

import (
	_ "embed"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

// codableCheck is the testee handlers' check of the Codable conformances
// (codableProblem), shared by every schema's handler.
//
//go:embed testdata/codable_check.swift
var codableCheck []byte

// codableCheckFile is codableCheck as a file of the handlers' target.
func codableCheckFile() gen.File {
	return gen.File{Path: "Sources/SDPTesteeHandlers/CodableCheck.swift", Content: codableCheck}
}

// testeeFile is the conformance testee's handler for one schema module: a
// Swift file of the SDPTesteeHandlers library (shared by the testee
// executable and the fuzz target) that answers the testee protocol's
// requests, decoding through every decode API the module offers and
// reporting status 2 when they disagree.
func testeeFile(s *schema.Schema, module string) []byte {
	g := newGen(s, gen0(module))
	p := emit.New("    ")
	p.P("// The conformance testee handler for ", module, ".")
	p.P()
	p.P("import Foundation")
	p.P("import ", module)
	p.P()
	q := func(d schema.Decl) string { return module + "." + g.typeName(d) }
	p.Block(fmt.Sprintf("public func handle_%s(op: UInt8, typeID: UInt16, input: [UInt8]) -> (UInt8, [UInt8]) {", module), "}", func() {
		switchBlock(p, "switch (op, typeID) {", func() {
			for _, st := range s.Structs {
				p.F("case (1, %d): return roundTrip(input, %s.self, typeID)", st.ID, q(st))
			}
			caseBlock(p, "case (2, _):", func() {
				p.P("return message(input)")
			})
			caseBlock(p, "case (3, _):", func() {
				p.P("return stream(input)")
			})
			caseBlock(p, "case (4, _):", func() {
				p.P("return streamAll(input)")
			})
			caseBlock(p, "default:", func() {
				p.P(`return (2, Array("unknown op \(op) or type id \(typeID)".utf8))`)
			})
		})
	})
	p.P()
	first := s.Structs[0]
	defMessage := fmt.Sprintf("%s.AnyMessage.%s(%s())", module, member(first.Name), q(first))
	p.P("/// The value of each type id that the previous round-trip request left,")
	p.P("/// decoded into by the next one (the handler runs on one thread).")
	p.P("nonisolated(unsafe) private var reused: [UInt16: Any] = [:]")
	p.P()
	p.P("/// The message the previous message request left.")
	p.F("nonisolated(unsafe) private var reusedMessage: %s.AnyMessage? = nil", module)
	p.P()
	p.P("/// Drops the values kept for decoding into. The fuzz target calls it after")
	p.P("/// every input and the testee before it exits: LeakSanitizer does not follow")
	p.P("/// references that a multi-payload enum stores with its case in the")
	p.P("/// pointer's spare bits, so it would report what a kept value holds.")
	p.Block(fmt.Sprintf("public func reset_%s() {", module), "}", func() {
		p.P("reused = [:]")
		p.P("reusedMessage = nil")
	})
	p.P()
	p.P("/// Decodes input with decode(serializedBytes:) into the value the previous")
	p.P("/// request of the type id left, and reports how it disagrees with the owned")
	p.P("/// decoder, if it does: another outcome, error or value, or a rejected")
	p.P("/// input that does not leave the default value.")
	p.Block(fmt.Sprintf("private func reuseProblem<T: %sValue>(_ input: [UInt8], _ typeID: UInt16, _ owned: Swift.Result<T, %s.DecodeError>) -> Swift.String? {", module, module), "}", func() {
		p.P("var value = (reused.removeValue(forKey: typeID) as? T) ?? T.defaultValue")
		p.P("defer { reused[typeID] = value }")
		p.P("let result = Swift.Result { () throws(" + module + ".DecodeError) in try value.decode(serializedBytes: input, options: " + module + ".DecodeOptions()) }")
		switchBlock(p, "switch (owned, result) {", func() {
			caseBlock(p, "case (.success(let v), .success):", func() {
				p.Block("if value.serializedBytes() != v.serializedBytes() {", "}", func() {
					p.P(`return "decoding into the previous value gives another value"`)
				})
			})
			caseBlock(p, "case (.failure(let e), .failure(let f)):", func() {
				p.Block("if e != f {", "}", func() {
					p.P(`return "decoding into the previous value rejects with \(f), the owned decoder with \(e)"`)
				})
				p.Block("if value.serializedBytes() != T.defaultValue.serializedBytes() {", "}", func() {
					p.P(`return "a rejected decode into the previous value does not reset it to the default"`)
				})
			})
			caseBlock(p, "case (.success, .failure(let f)):", func() {
				p.P(`return "decoding into the previous value rejects what the owned decoder accepts: \(f)"`)
			})
			caseBlock(p, "case (.failure(let e), .success):", func() {
				p.P(`return "decoding into the previous value accepts what the owned decoder rejects: \(e)"`)
			})
		})
		p.P("return nil")
	})
	p.P()
	p.P("/// Decodes input as T through every decode API, checks they agree, and re-encodes.")
	p.Block(fmt.Sprintf("private func roundTrip<T: %sValue>(_ input: [UInt8], _: T.Type, _ typeID: UInt16) -> (UInt8, [UInt8]) {", module), "}", func() {
		p.P("let owned = Swift.Result { () throws(" + module + ".DecodeError) in try T(serializedBytes: input) }")
		p.Block("if let problem = reuseProblem(input, typeID, owned) {", "}", func() {
			p.P("return (2, Array(problem.utf8))")
		})
		p.P("let raw = input.withUnsafeBytes { b in Swift.Result { () throws(" + module + ".DecodeError) in try T(serializedBytes: b, options: " + module + ".DecodeOptions()) } }")
		p.P("let data = Swift.Result { () throws(" + module + ".DecodeError) in try T(serializedBytes: Foundation.Data(input), options: " + module + ".DecodeOptions()) }")
		switchBlock(p, "switch (owned, raw, data) {", func() {
			caseBlock(p, "case (.success(let v), .success(let w), .success(let x)):", func() {
				p.P("let out = v.serializedBytes()")
				p.Block("if w.serializedBytes() != out || x.serializedBytes() != out {", "}", func() {
					p.P(`return (2, Array("the [UInt8], raw-buffer and Data decoders disagree".utf8))`)
				})
				p.Block("if out.count != v.encodedSize {", "}", func() {
					p.P(`return (2, Array("encodedSize \(v.encodedSize) but \(out.count) bytes encoded".utf8))`)
				})
				p.P("var appended: [UInt8] = [0x5A]")
				p.P("v.serialize(into: &appended)")
				p.Block("if appended != [0x5A] + out {", "}", func() {
					p.P(`return (2, Array("serialize(into:) differs from serializedBytes()".utf8))`)
				})
				p.Block("guard let prefix = try? T.decodePrefix(input + [0xA5], options: "+module+".DecodeOptions()), prefix.bytesConsumed == input.count, prefix.value.serializedBytes() == out else {", "}", func() {
					p.P(`return (2, Array("decodePrefix disagrees with the exact decoder".utf8))`)
				})
				p.Block("if let problem = codableProblem(v, out, { $0.serializedBytes() }) {", "}", func() {
					p.P("return (2, Array(problem.utf8))")
				})
				p.P("return (0, out)")
			})
			caseBlock(p, "case (.failure(let e), .failure(let f), .failure(let g)):", func() {
				p.Block("if e != f || e != g {", "}", func() {
					p.P(`return (2, Array("decoders reject with different errors: \(e), \(f), \(g)".utf8))`)
				})
				p.P(`return (1, Array(e.description.utf8))`)
			})
			caseBlock(p, "default:", func() {
				p.P(`return (2, Array("one decode API accepted what another rejected".utf8))`)
			})
		})
	})
	p.P()
	p.P("/// Decodes input with the message dispatcher, cross-checks the type's own")
	p.P("/// message decoder, and re-encodes as a message.")
	p.Block("private func message(_ input: [UInt8]) -> (UInt8, [UInt8]) {", "}", func() {
		p.P("// Decoding into the message the previous request left (from a raw buffer).")
		p.F("var target = reusedMessage.take() ?? %s", defMessage)
		p.P("defer { reusedMessage = target }")
		p.P("let again = input.withUnsafeBytes { b in Swift.Result { () throws(" + module + ".DecodeError) in try target.decode(serializedMessage: b) } }")
		p.F("let owned = Swift.Result { () throws(%s.DecodeError) in try %s.AnyMessage(serializedMessage: input) }", module, module)
		switchBlock(p, "switch (owned, again) {", func() {
			caseBlock(p, "case (.success(let m), .success):", func() {
				p.Block("if target.serializedMessage() != m.serializedMessage() {", "}", func() {
					p.P(`return (2, Array("decoding a message into the previous one gives another value".utf8))`)
				})
			})
			caseBlock(p, "case (.failure(let e), .failure(let f)):", func() {
				p.Block("if e != f || target.serializedMessage() != "+defMessage+".serializedMessage() {", "}", func() {
					p.P(`return (2, Array("a rejected decode into the previous message: \(f), not \(e), or no reset to the default".utf8))`)
				})
			})
			caseBlock(p, "default:", func() {
				p.P(`return (2, Array("decoding a message into the previous one has another outcome".utf8))`)
			})
		})
		p.Block("do {", "}", func() {
			p.F("let m = try %s.AnyMessage(serializedMessage: input)", module)
			p.P("let out = m.serializedMessage()")
			p.F("let viaRaw = try input.withUnsafeBytes { try %s.AnyMessage(serializedMessage: $0) }", module)
			p.P("let direct: [UInt8]")
			switchBlock(p, "switch m {", func() {
				for _, st := range s.Structs {
					p.F("case .%s: direct = try %s(serializedMessage: input).serializedMessage()", member(st.Name), q(st))
				}
			})
			p.Block("if viaRaw.serializedMessage() != out || direct != out {", "}", func() {
				p.P(`return (2, Array("the message decoders disagree".utf8))`)
			})
			p.Block("if m.encodedMessageSize != out.count {", "}", func() {
				p.P(`return (2, Array("encodedMessageSize \(m.encodedMessageSize) but \(out.count) bytes encoded".utf8))`)
			})
			p.Block("if let problem = codableProblem(m, out, { $0.serializedMessage() }) {", "}", func() {
				p.P("return (2, Array(problem.utf8))")
			})
			p.P("var appended: [UInt8] = [0x5A]")
			p.P("m.serializeMessage(into: &appended)")
			p.Block("if appended != [0x5A] + out {", "}", func() {
				p.P(`return (2, Array("serializeMessage(into:) differs from serializedMessage()".utf8))`)
			})
			p.P("return (0, out)")
		})
		p.Block("catch let e as "+module+".DecodeError {", "}", func() {
			p.P(`return (1, Array(e.description.utf8))`)
		})
		p.Block("catch {", "}", func() {
			p.P(`return (2, Array("not a DecodeError: \(error)".utf8))`)
		})
	})
	p.P()
	p.P("/// Reads a stream (after its u32 maximum payload length) with MessageReader")
	p.P("/// and writes every message back with MessageWriter; reads it again from a")
	p.P("/// source that gives 7 bytes at a time and checks the outcome is the same.")
	p.Block("private func stream(_ input: [UInt8]) -> (UInt8, [UInt8]) {", "}", func() {
		p.Block("guard input.count >= 4 else {", "}", func() {
			p.P(`return (2, Array("a stream request without its maximum".utf8))`)
		})
		p.P("let max = Int(input[0]) | Int(input[1]) << 8 | Int(input[2]) << 16 | Int(input[3]) << 24")
		p.P("let stream = Array(input[4...])")
		p.P("let theirHello = stream.count < 10 ? 0 : 10 + (Int(stream[6]) | Int(stream[7]) << 8 | Int(stream[8]) << 16 | Int(stream[9]) << 24)")
		p.F("let whole = copyStream(%s.MessageReader(bytes: stream, maxSize: max == 0 ? Int.max : max), theirHello: theirHello)", module)
		p.P("var pos = 0")
		p.F("let chunked = %s.MessageReader(maxSize: max == 0 ? Int.max : max) { buf in", module)
		p.In()
		p.P("let n = min(buf.count, 7, stream.count - pos)")
		p.P("for i in 0..<n { buf[i] = stream[pos + i] }")
		p.P("pos += n")
		p.P("return n")
		p.Out()
		p.P("}")
		p.Block("if copyStream(chunked, theirHello: theirHello, reuse: true) != whole {", "}", func() {
			p.P(`return (2, Array("reading 7 bytes at a time gives another outcome".utf8))`)
		})
		p.P("return whole")
	})
	p.P()
	p.P("/// Copies every message of reader to a MessageWriter and returns the bytes")
	p.P("/// written, or the first StreamError's own text (docs/api.md, \"One layout")
	p.P("/// of error text\").")
	p.P("/// With reuse, reads every message into the previous one (next(into:)).")
	p.P("/// A stream that began with a hello is answered with the writer's hello.")
	p.P("/// theirHello is the size of the stream's first message, a hello if the")
	p.P("/// reader says so.")
	p.F("private func copyStream(_ reader: %s.MessageReader, theirHello: Int, reuse: Bool = false) -> (UInt8, [UInt8]) {", module)
	p.In()
	p.P("var out: [UInt8] = []")
	p.P("// The writer has the reader's maximum: it writes back whatever the reader")
	p.P("// returns (Go's and Rust's testees do the same).")
	p.F("let writer = %s.MessageWriter(maxSize: reader.maxSize) { out.append(contentsOf: $0) }", module)
	p.F("var m = %s", defMessage)
	p.Block("func advance() throws -> Bool {", "}", func() {
		p.Block("if reuse {", "}", func() {
			p.P("return try reader.next(into: &m)")
		})
		p.Block("guard let next = try reader.next() else {", "}", func() {
			p.P("return false")
		})
		p.P("m = next")
		p.P("return true")
	})
	p.P("/// A stream that began with a hello is answered with ours.")
	p.P("/// The reader's hello's size minus the writer's: the hello read may list")
	p.P("/// type ids this schema lacks.")
	p.P("var shift = 0")
	p.Block("func answerHello() throws {", "}", func() {
		p.Block("if reader.schemaChecked && writer.count == 0 {", "}", func() {
			p.P("try writer.writeHello()")
			p.P("shift = theirHello - writer.offset")
		})
	})
	p.Block("do {", "}", func() {
		p.Block("while try advance() {", "}", func() {
			p.P("try answerHello()")
			p.P("try writer.write(m)")
			p.Block("if writer.offset + shift != reader.offset || writer.count != reader.index || out.count != writer.offset {", "}", func() {
				p.P(`return (2, Array("reader at message \(reader.index), offset \(reader.offset); writer at \(writer.count), \(writer.offset)".utf8))`)
			})
		})
		p.P("try answerHello()")
		p.P("return (0, out)")
	})
	p.Block("catch let e as "+module+".StreamError {", "}", func() {
		p.Block("if reuse && m.serializedMessage() != "+defMessage+".serializedMessage() {", "}", func() {
			p.P(`return (2, Array("MessageReader.next(into:) does not reset the message after \(e)".utf8))`)
		})
		p.P(`return (1, Array(e.description.utf8))`)
	})
	p.Block("catch {", "}", func() {
		p.P(`return (2, Array("not a StreamError: \(error)".utf8))`)
	})
	p.Out()
	p.P("}")
	p.P()
	for _, line := range strings.Split(strings.NewReplacer("MODULE", module, "DEFAULT", defMessage).Replace(streamAllSwift), "\n") {
		p.P(line)
	}
	p.P()
	p.F("protocol %sValue: Swift.Codable {", module)
	p.In()
	p.P("static var defaultValue: Self { get }")
	p.F("mutating func decode(serializedBytes: [UInt8], options: %s.DecodeOptions) throws(%s.DecodeError)", module, module)
	p.F("init(serializedBytes: [UInt8]) throws(%s.DecodeError)", module)
	p.F("init(serializedBytes: UnsafeRawBufferPointer, options: %s.DecodeOptions) throws(%s.DecodeError)", module, module)
	p.F("init<B: Foundation.ContiguousBytes>(serializedBytes: B, options: %s.DecodeOptions) throws(%s.DecodeError)", module, module)
	p.F("static func decodePrefix(_ bytes: [UInt8], options: %s.DecodeOptions) throws(%s.DecodeError) -> (value: Self, bytesConsumed: Int)", module, module)
	p.P("func serializedBytes() -> [UInt8]")
	p.P("func serialize(into out: inout [UInt8])")
	p.P("var encodedSize: Int { get }")
	p.Out()
	p.P("}")
	p.P()
	for _, st := range s.Structs {
		p.F("extension %s: %sValue {", q(st), module)
		p.In()
		p.P("static var defaultValue: Self { Self() }")
		p.Out()
		p.P("}")
	}
	return p.Bytes()
}

// testeeMain is the testee executable's entry point: it picks the schema
// handler named by its argument and serves requests on stdin/stdout. With a
// second argument, a number of bytes, it serves them on a thread with a
// stack of that size (TestHostile: gentest.HostileStack).
func testeeMain(modules []string) []byte {
	p := emit.New("    ")
	p.P("// The SDP conformance testee: `SDPTestee SCHEMA [STACK]` answers the")
	p.P("// testee protocol on stdin/stdout until stdin closes, on a thread with a")
	p.P("// stack of STACK bytes when given.")
	p.P()
	p.P("#if canImport(Glibc)")
	p.P("import Glibc")
	p.P("#elseif canImport(Darwin)")
	p.P("import Darwin")
	p.P("#endif")
	p.P("import SDPTesteeHandlers")
	p.P()
	p.P("// Sendable closures are not isolated to the main actor, so a thread other")
	p.P("// than the main one may call them.")
	p.P("typealias Handler = @Sendable (UInt8, UInt16, [UInt8]) -> (UInt8, [UInt8])")
	p.P()
	p.Block("let handlers: [Swift.String: Handler] = [", "]", func() {
		for _, m := range modules {
			p.F("%q: { handle_%s(op: $0, typeID: $1, input: $2) },", m, m)
		}
	})
	p.P()
	p.P("/// Drop the values each handler keeps for decoding into, before exiting.")
	p.Block("let resets: [Swift.String: @Sendable () -> Void] = [", "]", func() {
		for _, m := range modules {
			p.F("%q: { reset_%s() },", m, m)
		}
	})
	p.P()
	p.Block("func readFull(_ n: Int) -> [UInt8]? {", "}", func() {
		p.P("var buf = [UInt8](repeating: 0, count: n)")
		p.P("var got = 0")
		p.Block("while got < n {", "}", func() {
			p.P("let r = buf.withUnsafeMutableBytes { read(0, $0.baseAddress! + got, n - got) }")
			p.Block("if r <= 0 {", "}", func() {
				p.P("return nil")
			})
			p.P("got += r")
		})
		p.P("return buf")
	})
	p.P()
	p.Block("func writeFull(_ bytes: [UInt8]) {", "}", func() {
		p.P("var done = 0")
		p.Block("while done < bytes.count {", "}", func() {
			p.P("let r = bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, bytes.count - done) }")
			p.Block("if r <= 0 {", "}", func() {
				p.P("exit(3)")
			})
			p.P("done += r")
		})
	})
	p.P()
	p.Block("nonisolated func serve(_ handle: Handler) {", "}", func() {
		p.Block("while let header = readFull(4) {", "}", func() {
			p.P("let n = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24")
			p.Block("guard n >= 3, let request = readFull(n) else {", "}", func() {
				p.P("exit(4)")
			})
			p.P("let (status, output) = handle(request[0], UInt16(request[1]) | UInt16(request[2]) << 8, Array(request[3...]))")
			p.P("let m = UInt32(1 + output.count)")
			p.P("writeFull([UInt8(truncatingIfNeeded: m), UInt8(truncatingIfNeeded: m >> 8), UInt8(truncatingIfNeeded: m >> 16), UInt8(truncatingIfNeeded: m >> 24), status] + output)")
		})
	})
	p.P()
	p.P("/// The handler, carried through pthread_create's argument.")
	p.Block("final class HandlerBox {", "}", func() {
		p.P("let handle: Handler")
		p.P("init(_ handle: @escaping Handler) { self.handle = handle }")
	})
	p.P()
	p.P("/// The served thread's entry: a function, not a closure of the top-level")
	p.P("/// code, which would be isolated to the main actor.")
	p.Block("nonisolated func serveThread(_ arg: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {", "}", func() {
		p.P("serve(Unmanaged<HandlerBox>.fromOpaque(arg!).takeRetainedValue().handle)")
		p.P("return nil")
	})
	p.P()
	p.P("let args = CommandLine.arguments")
	p.Block("guard args.count == 2 || args.count == 3, let handle = handlers[args[1]] else {", "}", func() {
		p.P(`let usage = Array("usage: SDPTestee SCHEMA [STACK]\n".utf8)`)
		p.P("_ = usage.withUnsafeBytes { write(2, $0.baseAddress!, usage.count) }")
		p.P("exit(2)")
	})
	p.Block("if args.count == 3 {", "}", func() {
		p.Block("guard let stack = Int(args[2]), stack > 0 else {", "}", func() {
			p.P("exit(2)")
		})
		p.P("var attr = pthread_attr_t()")
		p.P("pthread_attr_init(&attr)")
		p.Block("if pthread_attr_setstacksize(&attr, stack) != 0 {", "}", func() {
			p.P("exit(5)")
		})
		p.P("let box = Unmanaged.passRetained(HandlerBox(handle)).toOpaque()")
		p.P("var thread = pthread_t()")
		p.P("let started = pthread_create(&thread, &attr, serveThread, box)")
		p.Block("if started != 0 {", "}", func() {
			p.P("exit(5)")
		})
		p.P("pthread_join(thread, nil)")
		p.P("resets[args[1]]?()")
		p.P("exit(0)")
	})
	p.P("serve(handle)")
	p.P("resets[args[1]]?()")
	return p.Bytes()
}

// streamAllSwift answers OpStreamAll (conformance/testee.go): the stream read
// to its end with next(), going on after every skippable StreamError and
// reading once more after one that ends the stream, and again with
// next(into:) from a source that gives 7 bytes at a time, which must give
// the same reply. MODULE is the module, DEFAULT its default AnyMessage.
const streamAllSwift = `/// OpStreamAll: the error lines and the stream written (see conformance/testee.go).
private func streamAll(_ input: [UInt8]) -> (UInt8, [UInt8]) {
    guard input.count >= 4 else {
        return (2, Array("a stream request without its maximum".utf8))
    }
    let max = Int(input[0]) | Int(input[1]) << 8 | Int(input[2]) << 16 | Int(input[3]) << 24
    let stream = Array(input[4...])
    let whole = readAll(MODULE.MessageReader(bytes: stream, maxSize: max == 0 ? Int.max : max), reuse: false)
    var pos = 0
    let chunked = MODULE.MessageReader(maxSize: max == 0 ? Int.max : max) { buf in
        let n = min(buf.count, 7, stream.count - pos)
        for i in 0..<n { buf[i] = stream[pos + i] }
        pos += n
        return n
    }
    let again = readAll(chunked, reuse: true)
    if again != whole {
        return (2, Array("next(into:) 7 bytes at a time gives \(Swift.String(decoding: again.1, as: UTF8.self)), next() \(Swift.String(decoding: whole.1, as: UTF8.self))".utf8))
    }
    return whole
}

/// Reads the whole stream for streamAll, with next() or next(into:).
private func readAll(_ reader: MODULE.MessageReader, reuse: Bool) -> (UInt8, [UInt8]) {
    var out: [UInt8] = []
    let writer = MODULE.MessageWriter { out.append(contentsOf: $0) }
    var m = DEFAULT
    var lines = ""
    var answered = false
    func read() throws -> Bool {
        if reuse {
            return try reader.next(into: &m)
        }
        guard let next = try reader.next() else {
            return false
        }
        m = next
        return true
    }
    func answerHello() throws {
        if reader.schemaChecked && !answered {
            try writer.writeHello()
            answered = true
        }
    }
    func line(_ e: MODULE.StreamError) {
        lines += "\(e.rule) \(e.index) \(e.offset) \(e.isSkippable ? 1 : 0)\n"
    }
    do {
        while true {
            do {
                let got = try read()
                try answerHello()
                if !got {
                    break
                }
                try writer.write(m)
            } catch let e as MODULE.StreamError {
                try answerHello()
                line(e)
                if e.isSkippable {
                    continue
                }
                // The stream ends here: a second read must repeat the error.
                do {
                    lines += try read() ? "message\n" : "end\n"
                } catch let e as MODULE.StreamError {
                    line(e)
                }
                break
            }
        }
    } catch {
        return (2, Array("not a StreamError: \(error)".utf8))
    }
    let text = Array(lines.utf8)
    let n = text.count
    return (0, [UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24 & 0xff)] + text + out)
}`
