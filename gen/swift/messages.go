package swift

import (
	"fmt"
	"sort"
	"strings"

	"sdp/schema"
)

// messagesFile holds the message API: every struct's type id, message
// encoding and decoding, and AnyMessage, the dispatcher over all structs.
func (g *generator) messagesFile() []byte {
	p := g.header()
	for _, st := range g.s.Structs {
		p.Block("extension "+g.typeName(st)+" {", "}", func() {
			p.F("/// The message type id of %s.", st.Name)
			p.F("public static let messageTypeID: UInt16 = %d", st.ID)
			p.P()
			p.P("/// The number of bytes serializedMessage() returns: the header and encodedSize.")
			p.Block("public var encodedMessageSize: Int {", "}", func() {
				p.P("_sdpAdd(_sdpMessageHeaderSize, encodedSize)")
			})
			p.P()
			p.P("/// The encoding framed as a message: magic \"SDP2\", type id, payload length, payload.")
			p.Block("public func serializedMessage() -> [UInt8] {", "}", func() {
				p.P("_sdpSerialize(self, size: encodedMessageSize, messageTypeID: Self.messageTypeID)")
			})
			p.P()
			p.P("/// Appends the encoding framed as a message to out (as serializedMessage(),")
			p.P("/// which traps where this does).")
			p.Block("public func serializeMessage(into out: inout [UInt8]) {", "}", func() {
				p.P("_sdpAppendMessage(self, typeID: Self.messageTypeID, payloadSize: encodedSize, to: &out)")
			})
			p.P()
			p.P("/// The encoding framed as a message, or EncodeError for a value that has")
			p.P("/// no encoding (see checkedSerializedBytes()) or a payload over the")
			p.P("/// header's u32 limit (rule \"message\"), where serializedMessage() traps.")
			p.Block("public func checkedSerializedMessage() throws(EncodeError) -> [UInt8] {", "}", func() {
				p.P("let size = encodedSize")
				p.P("try _sdpCheckPayload(self, size)")
				p.P("return try _sdpSerializeChecked(self, size: _sdpMessageHeaderSize + size, messageTypeID: Self.messageTypeID)")
			})
			p.P()
			p.F("/// Decodes a message that must carry `%s` and fill bytes exactly.", st.Name)
			p.Block("public init(serializedMessage bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
				p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpMessagePath) { (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpMessage: &r) }.0")
			})
			p.P()
			p.F("/// Decodes a message that must carry `%s` and fill a raw buffer exactly.", st.Name)
			p.Block("public init(serializedMessage bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
				p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpMessagePath) { (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpMessage: &r) }.0")
			})
			p.P()
			p.Block("init(_sdpMessage r: inout _SDPReader) throws(DecodeError) {", "}", func() {
				p.Block("if try _sdpReadHeader(&r, known: { $0 == Self.messageTypeID }) != Self.messageTypeID {", "}", func() {
					p.F("throw DecodeError.invalidMessage(offset: 4, reason: %q)", fmt.Sprintf("the message does not carry a %s (type id %d)", st.Name, st.ID))
				})
				p.P("try self.init(_sdpFrom: &r, depth: 1)")
			})
			p.P()
			p.P("/// The field path of the error that decoding a message at r throws:")
			p.P("/// \"message\" for its header.")
			p.Block("static func _sdpMessagePath(_ r: inout _SDPReader) -> Swift.String {", "}", func() {
				p.Block("guard (try? _sdpReadHeader(&r, known: { $0 == Self.messageTypeID })) == Self.messageTypeID else {", "}", func() {
					p.P(`return "message"`)
				})
				p.P("return _sdpPath(&r)")
			})
			g.messageReuseAPI(p, st)
		})
		p.P()
	}

	p.P("/// A decoded message of any of the schema's structs.")
	p.Block("public enum AnyMessage: Sendable, Hashable, Swift.Codable {", "}", func() {
		for _, st := range g.s.Structs {
			indirect := ""
			if structLayoutSize(g.plan.Of(st)) > boxMessageOver {
				indirect = "indirect "
			}
			p.F("%scase %s(%s)", indirect, member(st.Name), g.typeName(st))
		}
		p.P()
		p.P("/// The size of a message's header: the magic \"SDP2\", the u16 type id and")
		p.P("/// the u32 payload length (docs/wire-format.md, messages).")
		p.P("public static let headerSize = _sdpMessageHeaderSize")
		p.P()
		p.P("/// The type id of a hello (MessageWriter.writeHello()), the schema check a")
		p.P("/// stream may begin with; no struct has it.")
		p.P("public static let helloTypeID: UInt16 = 0")
		p.P()
		p.P("/// Decodes a message of any of the schema's structs; it must fill bytes exactly.")
		p.Block("public init(serializedMessage bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
			p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpMessagePath) { (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpMessage: &r) }.0")
		})
		p.P()
		p.P("/// Decodes a message of any of the schema's structs from a raw buffer.")
		p.Block("public init(serializedMessage bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
			p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpMessagePath) { (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpMessage: &r) }.0")
		})
		p.P()
		p.Block("init(_sdpMessage r: inout _SDPReader) throws(DecodeError) {", "}", func() {
			switchBlock(p, "switch try _sdpReadHeader(&r, known: "+g.knownTypeIDs()+") {", func() {
				for _, st := range g.s.Structs {
					p.F("case %d: self = .%s(try %s(_sdpFrom: &r, depth: 1))", st.ID, member(st.Name), g.typeName(st))
				}
				caseBlock(p, "case let id:", func() {
					p.P(`throw DecodeError.invalidMessage(offset: 4, reason: "type id \(id) names no struct of the schema")`)
				})
			})
		})
		p.P()
		p.P("/// The field path of the error that decoding a message at r throws:")
		p.P("/// \"message\" for its header, the payload's path in its struct.")
		p.Block("static func _sdpMessagePath(_ r: inout _SDPReader) -> Swift.String {", "}", func() {
			switchBlock(p, "switch try? _sdpReadHeader(&r, known: "+g.knownTypeIDs()+") {", func() {
				for _, st := range g.s.Structs {
					p.F("case %d?: return %s._sdpPath(&r)", st.ID, g.typeName(st))
				}
				caseBlock(p, "default:", func() { p.P(`return "message"`) })
			})
		})
		g.anyMessageReuseAPI(p)
		p.P()
		g.anyMessageCodable(p)
		p.P()
		p.P("/// The message type id of the carried struct.")
		p.Block("public var messageTypeID: UInt16 {", "}", func() {
			switchBlock(p, "switch self {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s: return %d", member(st.Name), st.ID)
				}
			})
		})
		p.P()
		p.P("/// The number of bytes serializedMessage() returns.")
		p.Block("public var encodedMessageSize: Int {", "}", func() {
			switchBlock(p, "switch self {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): return v.encodedMessageSize", member(st.Name))
				}
			})
		})
		p.P()
		p.P("/// The carried struct encoded as a message.")
		p.Block("public func serializedMessage() -> [UInt8] {", "}", func() {
			switchBlock(p, "switch self {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): return v.serializedMessage()", member(st.Name))
				}
			})
		})
		p.P()
		p.P("/// Appends the carried struct encoded as a message to out.")
		p.Block("public func serializeMessage(into out: inout [UInt8]) {", "}", func() {
			switchBlock(p, "switch self {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): v.serializeMessage(into: &out)", member(st.Name))
				}
			})
		})
		p.P()
		p.P("/// The carried struct encoded as a message, or EncodeError (see")
		p.P("/// checkedSerializedMessage() of the struct).")
		p.Block("public func checkedSerializedMessage() throws(EncodeError) -> [UInt8] {", "}", func() {
			switchBlock(p, "switch self {", func() {
				for _, st := range g.s.Structs {
					p.F("case .%s(let v): return try v.checkedSerializedMessage()", member(st.Name))
				}
			})
		})
		p.P()
		p.P("/// Whether a message type id names a struct of the schema.")
		p.Block("static func _sdpKnows(_ id: UInt16) -> Bool {", "}", func() {
			switchBlock(p, "switch id {", func() {
				var ids []string
				for _, st := range g.s.Structs {
					ids = append(ids, fmt.Sprint(st.ID))
				}
				p.P("case ", strings.Join(ids, ", "), ": return true")
				p.P("default: return false")
			})
		})
		p.P()
		p.P("/// The structs of the schema by type id, with their fingerprints and names:")
		p.P("/// what a hello lists.")
		p.Block("static let _sdpHelloEntries: [(id: UInt16, fingerprint: UInt64, name: Swift.String)] = [", "]", func() {
			for _, st := range sortedByID(g.s.Structs) {
				p.F("(%d, %s.fingerprint, %q),", st.ID, g.typeName(st), st.Name)
			}
		})
	})
	p.P()
	g.streams(p)
	return p.Bytes()
}

// foundationFile adds Data conveniences when Foundation is available:
// decoding from any ContiguousBytes (Data, [UInt8], ...) without copying,
// and encoding to Data.
func (g *generator) foundationFile() []byte {
	p := g.header()
	p.P("#if canImport(Foundation)")
	p.P("import Foundation")
	if len(g.s.Structs) > 0 {
		// read(2), for MessageReader(fileHandle:).
		p.Line("#if canImport(Glibc)")
		p.P("import Glibc")
		p.Line("#elseif canImport(Musl)")
		p.P("import Musl")
		p.Line("#elseif canImport(Darwin)")
		p.P("import Darwin")
		p.Line("#endif")
		p.P()
		p.Line("#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)")
		p.P("/// read(2) on fd, for MessageReader(fileHandle:).")
		p.Block("private func _sdpRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int {", "}", func() {
			p.Line("#if canImport(Glibc)")
			p.P("Glibc.read(fd, p, n)")
			p.Line("#elseif canImport(Musl)")
			p.P("Musl.read(fd, p, n)")
			p.Line("#else")
			p.P("Darwin.read(fd, p, n)")
			p.Line("#endif")
		})
		p.Line("#endif")
	}
	p.P()
	p.P("/// Decodes from any contiguous bytes through one withUnsafeBytes.")
	p.P("@inline(__always)")
	p.Block("func _sdpDecode<Bytes: Foundation.ContiguousBytes, T>(", "}", func() {
		p.P("_ input: Bytes, _ options: DecodeOptions, prefix: Bool,")
		p.P("at locate: (inout _SDPReader) -> Swift.String,")
		p.P("_ body: (inout _SDPReader) throws(DecodeError) -> T")
		p.Out()
		p.P(") throws(DecodeError) -> (T, Int) {")
		p.In()
		p.Block("let result: Swift.Result<(T, Int), DecodeError> = input.withUnsafeBytes { b in", "}", func() {
			p.P("Swift.Result { () throws(DecodeError) -> (T, Int) in try _sdpDecode(b, options, prefix: prefix, at: locate, body) }")
		})
		p.P("return try result.get()")
	})
	for _, d := range g.s.Decls {
		var name string
		switch d := d.(type) {
		case *schema.Struct:
			name = d.Name
		case *schema.Union:
			name = d.Name
		case *schema.Enum:
			name = d.Name
		default:
			continue
		}
		_, isStruct := d.(*schema.Struct)
		decode := "{ (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpFrom: &r, depth: 1) }"
		p.P()
		p.Block("extension "+g.typeName(d)+" {", "}", func() {
			p.F("/// Decodes `%s` from bytes (Data, [UInt8], ...) that hold exactly one value, without copying them.", name)
			p.Block("public init<Bytes: Foundation.ContiguousBytes>(serializedBytes bytes: Bytes, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
				p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpPath) ", decode, ".0")
			})
			p.P()
			p.P("/// The encoding as Data.")
			p.Block("public func serializedData() -> Foundation.Data {", "}", func() {
				p.P("Foundation.Data(serializedBytes())")
			})
			p.P()
			p.P("/// The encoding as Data, or EncodeError (see checkedSerializedBytes()).")
			p.Block("public func checkedSerializedData() throws(EncodeError) -> Foundation.Data {", "}", func() {
				p.P("Foundation.Data(try checkedSerializedBytes())")
			})
			if isStruct && len(g.s.Structs) > 0 {
				p.P()
				p.F("/// Decodes a message that must carry `%s`, from Data or other contiguous bytes.", name)
				p.Block("public init<Bytes: Foundation.ContiguousBytes>(serializedMessage bytes: Bytes, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {", "}", func() {
					p.P("self = try _sdpDecode(bytes, options, prefix: false, at: Self._sdpMessagePath) { (r: inout _SDPReader) throws(DecodeError) in try Self(_sdpMessage: &r) }.0")
				})
			}
		})
	}
	if len(g.s.Structs) > 0 {
		p.P()
		p.Block("extension MessageReader {", "}", func() {
			p.P("/// A reader of a file, pipe or socket. Each read takes what the file")
			p.P("/// descriptor has, up to the reader's buffer (read(2)), so a message is")
			p.P("/// returned as soon as its bytes arrive; FileHandle.read(upToCount:) would")
			p.P("/// wait for the whole buffer (it is the fallback where there is no read(2)).")
			p.Block("public convenience init(fileHandle: Foundation.FileHandle, maxSize: Int = MessageReader.defaultMaxSize, options: DecodeOptions = DecodeOptions()) {", "}", func() {
				p.Line("#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)")
				p.P("let fd = fileHandle.fileDescriptor")
				p.Block("self.init(maxSize: maxSize, options: options) { buf in", "}", func() {
					p.Block("while true {", "}", func() {
						p.P("let n = _sdpRead(fd, buf.baseAddress, buf.count)")
						p.Block("if n >= 0 {", "}", func() {
							p.P("return n")
						})
						p.P("let code = Foundation.POSIXErrorCode(rawValue: errno) ?? .EIO")
						p.Block("if code != .EINTR {", "}", func() {
							p.P("throw Foundation.POSIXError(code)")
						})
					})
				})
				p.Line("#else")
				p.Block("self.init(maxSize: maxSize, options: options) { buf in", "}", func() {
					p.Block("guard let data = try fileHandle.read(upToCount: buf.count), !data.isEmpty else {", "}", func() {
						p.P("return 0")
					})
					p.P("data.withUnsafeBytes { buf.copyMemory(from: $0) }")
					p.P("return data.count")
				})
				p.Line("#endif")
			})
		})
		p.P()
		p.Block("extension MessageWriter {", "}", func() {
			p.P("/// A writer to a file, pipe or socket: one write(contentsOf:) per message.")
			p.Block("public convenience init(fileHandle: Foundation.FileHandle, maxSize: Int = MessageReader.defaultMaxSize) {", "}", func() {
				p.P("self.init(maxSize: maxSize) { bytes in try fileHandle.write(contentsOf: Foundation.Data(bytes)) }")
			})
		})
	}
	p.P()
	p.P("#endif")
	return p.Bytes()
}

// sortedByID returns the structs ordered by message type id.
func sortedByID(structs []*schema.Struct) []*schema.Struct {
	out := append([]*schema.Struct(nil), structs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// knownTypeIDs is a closure that says whether a type id names a struct of
// the schema, for _sdpReadHeader.
func (g *generator) knownTypeIDs() string {
	var ids []string
	for _, st := range g.s.Structs {
		ids = append(ids, fmt.Sprint(st.ID))
	}
	return "{ [" + strings.Join(ids, ", ") + "].contains($0) }"
}
