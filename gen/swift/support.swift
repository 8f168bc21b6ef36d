// The SDP runtime support of this module: errors, options, and the reader
// and writer the generated codecs work through. Everything here except
// DecodeError and DecodeOptions is internal.

/// Why an input was rejected: the rule of the SDP wire format it breaks, the
/// byte offset in the input where the offending value starts, and the field
/// path of the value that holds it (docs/wire-format.md, "Where an error
/// is"): `plugins[3].parameters[0].display_name`, empty at the top level,
/// `message` for a message header. Errors built by hand may leave the path
/// out: it defaults to empty. Indirect: the payload is boxed, so that a
/// DecodeError is one pointer and the decoders' typed throws cost their
/// success path nothing for the path they carry.
public indirect enum DecodeError: Swift.Error, CustomStringConvertible, Sendable, Hashable {
    /// The input ends inside a value (rule "truncated").
    case truncated(offset: Int, path: Swift.String = "")
    /// Bytes remain after the top-level value (rule "trailing").
    case trailing(offset: Int, path: Swift.String = "")
    /// A bool byte other than 0 or 1 (rule "bool").
    case invalidBool(offset: Int, path: Swift.String = "")
    /// An optional's presence byte other than 0 or 1 (rule "presence").
    case invalidPresence(offset: Int, path: Swift.String = "")
    /// An enum number that names no value (rule "enum").
    case invalidEnum(offset: Int, path: Swift.String = "")
    /// A union tag that names no variant (rule "union_tag").
    case invalidUnionTag(offset: Int, path: Swift.String = "")
    /// A string that is not valid UTF-8 (rule "utf8").
    case invalidUTF8(offset: Int, path: Swift.String = "")
    /// An array count or string length larger than the remaining input can
    /// hold (rule "count").
    case invalidCount(offset: Int, path: Swift.String = "")
    /// Nesting deeper than DecodeOptions.maxDepth (rule "depth").
    case depthExceeded(offset: Int, path: Swift.String = "")
    /// Values that would take more memory than DecodeOptions.memoryLimit
    /// allows (rule "memory"): the offset of the array count or presence
    /// byte that crossed the limit.
    case memoryExceeded(offset: Int, path: Swift.String = "")
    /// A bad message header: wrong magic, unknown or unexpected type id, or a
    /// payload length that differs from the bytes that follow (rule "message").
    case invalidMessage(offset: Int, reason: Swift.String, path: Swift.String = "")
    /// A stream written from another version of the schema: its hello gives
    /// one of this schema's structs another fingerprint, or the reader
    /// requires a hello and the stream does not start with one (rule
    /// "schema"; docs/wire-format.md, "The schema check (hello)").
    case schemaMismatch(offset: Int, reason: Swift.String, path: Swift.String = "")

    /// The byte offset in the input where the offending value starts.
    public var offset: Int {
        switch self {
        case .truncated(let o, _), .trailing(let o, _), .invalidBool(let o, _), .invalidPresence(let o, _),
            .invalidEnum(let o, _), .invalidUnionTag(let o, _), .invalidUTF8(let o, _), .invalidCount(let o, _),
            .depthExceeded(let o, _), .memoryExceeded(let o, _), .invalidMessage(let o, _, _), .schemaMismatch(let o, _, _):
            return o
        }
    }

    /// The field path of the value that holds the problem, by schema names:
    /// `plugins[3].parameters[0].display_name`; empty at the top level (a
    /// top-level struct too deep, trailing bytes); `message` for a message
    /// header. The decoders find it only after an error, by reading the
    /// input again: decoding valid input pays nothing for it.
    public var path: Swift.String {
        switch self {
        case .truncated(_, let p), .trailing(_, let p), .invalidBool(_, let p), .invalidPresence(_, let p),
            .invalidEnum(_, let p), .invalidUnionTag(_, let p), .invalidUTF8(_, let p), .invalidCount(_, let p),
            .depthExceeded(_, let p), .memoryExceeded(_, let p), .invalidMessage(_, _, let p), .schemaMismatch(_, _, let p):
            return p
        }
    }

    /// The same error at path p.
    func _sdpAt(_ p: Swift.String) -> DecodeError {
        switch self {
        case .truncated(let o, _): return .truncated(offset: o, path: p)
        case .trailing(let o, _): return .trailing(offset: o, path: p)
        case .invalidBool(let o, _): return .invalidBool(offset: o, path: p)
        case .invalidPresence(let o, _): return .invalidPresence(offset: o, path: p)
        case .invalidEnum(let o, _): return .invalidEnum(offset: o, path: p)
        case .invalidUnionTag(let o, _): return .invalidUnionTag(offset: o, path: p)
        case .invalidUTF8(let o, _): return .invalidUTF8(offset: o, path: p)
        case .invalidCount(let o, _): return .invalidCount(offset: o, path: p)
        case .depthExceeded(let o, _): return .depthExceeded(offset: o, path: p)
        case .memoryExceeded(let o, _): return .memoryExceeded(offset: o, path: p)
        case .invalidMessage(let o, let reason, _): return .invalidMessage(offset: o, reason: reason, path: p)
        case .schemaMismatch(let o, let reason, _): return .schemaMismatch(offset: o, reason: reason, path: p)
        }
    }

    /// The name of the broken rule in the wire format specification:
    /// truncated, trailing, bool, presence, enum, union_tag, utf8, count,
    /// depth, memory, message or schema.
    public var rule: Swift.String {
        switch self {
        case .truncated: return "truncated"
        case .trailing: return "trailing"
        case .invalidBool: return "bool"
        case .invalidPresence: return "presence"
        case .invalidEnum: return "enum"
        case .invalidUnionTag: return "union_tag"
        case .invalidUTF8: return "utf8"
        case .invalidCount: return "count"
        case .depthExceeded: return "depth"
        case .memoryExceeded: return "memory"
        case .invalidMessage: return "message"
        case .schemaMismatch: return "schema"
        }
    }

    /// "utf8 at offset 78 in plugins[3].name: a string is not valid UTF-8"
    /// (without " in ..." at the top level; docs/api.md, "One layout of
    /// error text").
    public var description: Swift.String {
        let p = path
        return p.isEmpty ? "\(rule) at offset \(offset): \(_sdpReason)" : "\(rule) at offset \(offset) in \(p): \(_sdpReason)"
    }

    /// What is wrong, without the rule, offset and path.
    var _sdpReason: Swift.String {
        switch self {
        case .truncated: return "the input ends inside a value"
        case .trailing: return "bytes remain after the value"
        case .invalidBool: return "a bool byte is neither 0 nor 1"
        case .invalidPresence: return "an optional's presence byte is neither 0 nor 1"
        case .invalidEnum: return "an enum number names no value"
        case .invalidUnionTag: return "a union tag names no variant"
        case .invalidUTF8: return "a string is not valid UTF-8"
        case .invalidCount: return "a count or length exceeds the remaining input"
        case .depthExceeded: return "values are nested deeper than the depth limit"
        case .memoryExceeded: return "the values would take more memory than the memory limit"
        case .invalidMessage(_, let reason, _), .schemaMismatch(_, let reason, _): return reason
        }
    }
}

// ---- Field paths of errors ----
//
// A decoder finds an error's field path only after it failed: the public
// entry points catch the error and read the input again from the start
// through the type's _sdpLocate, which tries each field with the decoders
// themselves (a copy of the reader, so memory charges and depth are the
// same) and goes into the first one that fails, naming it, down to the
// value that holds the problem. Decoding that succeeds runs none of it.

/// Reports whether read fails at r; when it does not, r moves past the
/// value it read.
func _sdpFails(_ r: inout _SDPReader, _ read: (inout _SDPReader) throws(DecodeError) -> Void) -> Bool {
    var c = r
    do {
        try read(&c)
    } catch {
        return true
    }
    r = c
    return false
}

/// Adds a field or variant name to path.
func _sdpPushName(_ path: inout Swift.String, _ name: StaticString) {
    if !path.isEmpty {
        path += "."
    }
    path += name.description
}

/// Adds an element index to path.
func _sdpPushIndex(_ path: inout Swift.String, _ i: Int) {
    path += "["
    path += i.description
    path += "]"
}

/// e with the path that locate finds in the input from its start: the
/// error path of the public entry points (never inlined into them).
@inline(never)
func _sdpLocated(
    _ e: DecodeError, _ base: UnsafeRawPointer, _ end: Int, _ options: DecodeOptions,
    _ locate: (inout _SDPReader) -> Swift.String
) -> DecodeError {
    var r = _SDPReader(base: base, end: end, pos: 0, options: options)
    return e._sdpAt(locate(&r))
}

/// Options for decoding.
public struct DecodeOptions: Sendable, Hashable {
    /// The default maxDepth (docs/wire-format.md, rule 9).
    public static let defaultMaxDepth = 64

    /// The deepest nesting accepted: the top-level struct is at depth 1 and
    /// every struct or union value nested in another is one deeper. 0 or a
    /// negative number means defaultMaxDepth.
    public var maxDepth: Int

    /// The most nominal memory, in bytes, that the decoded values may take
    /// (rule "memory" of the wire format): arrays of large elements and
    /// recursive optionals of large values count against it. 0, the
    /// default, means 32 × the input length + 1 MiB (for a message, the
    /// payload length).
    public var memoryLimit: UInt64

    public init(maxDepth: Int = DecodeOptions.defaultMaxDepth, memoryLimit: UInt64 = 0) {
        self.maxDepth = maxDepth
        self.memoryLimit = memoryLimit
    }
}

/// The memory limit of rule "memory" for an input of n bytes when the caller
/// sets none: 32 × n + 1 MiB.
@inline(__always)
func _sdpDefaultMemoryLimit(_ n: Int) -> UInt64 {
    let (scaled, overflow) = UInt64(UInt(bitPattern: n)).multipliedReportingOverflow(by: 32)
    return overflow ? .max : scaled.addingReportingOverflow(1 << 20).overflow ? .max : scaled &+ (1 << 20)
}

/// A wire scalar that numeric arrays hold: the integers and floats, whose
/// memory layout equals the wire layout on little-endian machines.
protocol _SDPNumber {
    associatedtype _Bits: FixedWidthInteger
    var _sdpBits: _Bits { get }
    init(_sdpBits: _Bits)
}

extension UInt8: _SDPNumber {
    var _sdpBits: UInt8 { self }
    init(_sdpBits b: UInt8) { self = b }
}

extension UInt16: _SDPNumber {
    var _sdpBits: UInt16 { self }
    init(_sdpBits b: UInt16) { self = b }
}

extension UInt32: _SDPNumber {
    var _sdpBits: UInt32 { self }
    init(_sdpBits b: UInt32) { self = b }
}

extension UInt64: _SDPNumber {
    var _sdpBits: UInt64 { self }
    init(_sdpBits b: UInt64) { self = b }
}

extension Int8: _SDPNumber {
    var _sdpBits: UInt8 { UInt8(bitPattern: self) }
    init(_sdpBits b: UInt8) { self.init(bitPattern: b) }
}

extension Int16: _SDPNumber {
    var _sdpBits: UInt16 { UInt16(bitPattern: self) }
    init(_sdpBits b: UInt16) { self.init(bitPattern: b) }
}

extension Int32: _SDPNumber {
    var _sdpBits: UInt32 { UInt32(bitPattern: self) }
    init(_sdpBits b: UInt32) { self.init(bitPattern: b) }
}

extension Int64: _SDPNumber {
    var _sdpBits: UInt64 { UInt64(bitPattern: self) }
    init(_sdpBits b: UInt64) { self.init(bitPattern: b) }
}

extension Float: _SDPNumber {
    var _sdpBits: UInt32 { bitPattern }
    init(_sdpBits b: UInt32) { self.init(bitPattern: b) }
}

extension Double: _SDPNumber {
    var _sdpBits: UInt64 { bitPattern }
    init(_sdpBits b: UInt64) { self.init(bitPattern: b) }
}

/// A heap box for optionals that lead back to the type holding them. The
/// owner replaces the box on assignment, so values keep value semantics;
/// the only mutation is decoding into a box the decoder holds the one
/// reference to (isKnownUniquelyReferenced), as copy-on-write storage
/// does, so no other value or thread can observe it: hence @unchecked.
final class _SDPBox<T: Sendable & Hashable>: @unchecked Sendable, Hashable {
    var value: T

    init(_ value: T) {
        self.value = value
    }

    static func == (a: _SDPBox, b: _SDPBox) -> Bool {
        a === b || a.value == b.value
    }

    func hash(into h: inout Hasher) {
        value.hash(into: &h)
    }
}

/// Reads the wire format from a raw buffer. Every read is bounds-checked
/// against `end` before memory is touched (the unchecked `raw` reads follow
/// a `need` that covers them).
struct _SDPReader {
    let base: UnsafeRawPointer
    let end: Int
    var pos: Int
    let maxDepth: Int
    /// The memory limit of rule "memory" as the caller set it (0: the
    /// default, computed on the first charge from the length of the input
    /// after memStart, so that decoders that charge nothing pay nothing).
    let memLimit: UInt64
    /// Where the counted input starts: 0, or a message's payload.
    var memStart: Int = 0
    /// The nominal memory charged so far (never above the limit).
    var memUsed: UInt64 = 0

    @inline(__always)
    init(base: UnsafeRawPointer, end: Int, pos: Int, options: DecodeOptions) {
        self.base = base
        self.end = end
        self.pos = pos
        self.maxDepth = options.maxDepth > 0 ? options.maxDepth : DecodeOptions.defaultMaxDepth
        self.memLimit = options.memoryLimit
    }

    /// Throws unless n more bytes remain.
    @inline(__always)
    func need(_ n: Int) throws(DecodeError) {
        if n > end &- pos {
            throw DecodeError.truncated(offset: pos)
        }
    }

    /// Throws unless n more elements of size bytes remain, at the first
    /// element the input ends inside, as a reader going element by element
    /// would.
    @inline(__always)
    func needElements(_ n: Int, _ size: Int) throws(DecodeError) {
        if n &* size > end &- pos {
            throw DecodeError.truncated(offset: pos &+ (end &- pos) / size &* size)
        }
    }

    /// Throws when a struct or union value at depth is nested too deep.
    @inline(__always)
    func enter(_ depth: Int) throws(DecodeError) {
        if depth > maxDepth {
            throw DecodeError.depthExceeded(offset: pos)
        }
    }

    /// Reads an integer already covered by need.
    @inline(__always)
    mutating func raw<T: FixedWidthInteger>(_: T.Type) -> T {
        let v = T(littleEndian: base.loadUnaligned(fromByteOffset: pos, as: T.self))
        pos &+= MemoryLayout<T>.size
        return v
    }

    @inline(__always)
    mutating func rawF32() -> Float {
        Float(bitPattern: raw(UInt32.self))
    }

    @inline(__always)
    mutating func rawF64() -> Double {
        Double(bitPattern: raw(UInt64.self))
    }

    @inline(__always)
    mutating func rawBool() throws(DecodeError) -> Bool {
        switch raw(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw DecodeError.invalidBool(offset: pos &- 1)
        }
    }

    @inline(__always)
    mutating func int<T: FixedWidthInteger>(_: T.Type) throws(DecodeError) -> T {
        try need(MemoryLayout<T>.size)
        return raw(T.self)
    }

    @inline(__always)
    mutating func f32() throws(DecodeError) -> Float {
        try need(4)
        return rawF32()
    }

    @inline(__always)
    mutating func f64() throws(DecodeError) -> Double {
        try need(8)
        return rawF64()
    }

    @inline(__always)
    mutating func bool() throws(DecodeError) -> Bool {
        try need(1)
        return try rawBool()
    }

    /// Reads an optional's presence byte.
    @inline(__always)
    mutating func present() throws(DecodeError) -> Bool {
        try need(1)
        switch raw(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw DecodeError.invalidPresence(offset: pos &- 1)
        }
    }

    /// Reads a u32 count and checks count × minSize against the remaining
    /// input before anything is allocated. The comparison is made in UInt
    /// before the count becomes an Int, so a count of 2^31 or more is rule
    /// "count" on a 32-bit host too, never a trap.
    @inline(__always)
    mutating func count(minSize: Int) throws(DecodeError) -> Int {
        let at = pos
        let n = UInt(try int(UInt32.self))
        if n > UInt(bitPattern: end &- pos) / UInt(bitPattern: minSize) {
            throw DecodeError.invalidCount(offset: at)
        }
        return Int(bitPattern: n)
    }

    /// Adds n values of each bytes of nominal size to the memory total
    /// (rule "memory"), throwing at offset `at` when the total would exceed
    /// the limit. Never overflows: memUsed stays at most memLimit.
    @inline(__always)
    mutating func charge(_ n: Int, _ each: UInt64, at: Int) throws(DecodeError) {
        let limit = memLimit != 0 ? memLimit : _sdpDefaultMemoryLimit(end &- memStart)
        if UInt64(UInt(bitPattern: n)) > (limit &- memUsed) / each {
            throw DecodeError.memoryExceeded(offset: at)
        }
        memUsed &+= UInt64(UInt(bitPattern: n)) &* each
    }

    /// Reads a length-prefixed UTF-8 string, rejecting invalid UTF-8.
    @inline(__always)
    mutating func string() throws(DecodeError) -> Swift.String {
        let at = pos
        let n = try count(minSize: 1)
        let start = base + pos
        guard _sdpIsUTF8(start, n) else {
            throw DecodeError.invalidUTF8(offset: at)
        }
        pos &+= n
        if n <= 15 {
            // Fits in a small (inline) string, which this initializer builds
            // in place: fewer instructions than String(decoding:as:).
            if n == 0 {
                return ""
            }
            return Swift.String(unsafeUninitializedCapacity: n) { buf in
                UnsafeMutableRawPointer(buf.baseAddress!).copyMemory(from: start, byteCount: n)
                return n
            }
        }
        // Valid, so decoding repairs nothing. String(validating:) would do the
        // same but goes through unspecialized generic code: measured 2x slower.
        return UnsafeRawBufferPointer(start: start, count: n).withMemoryRebound(to: UInt8.self) {
            Swift.String(decoding: $0, as: UTF8.self)
        }
    }

    /// Copies n numbers already covered by need into a new array: one copy
    /// on little-endian machines (see _SDPNumbers).
    @inline(__always)
    mutating func rawNumbers<T: _SDPNumber>(_: T.Type, _ n: Int) -> [T] {
        let src = base + pos
        pos &+= n &* MemoryLayout<T>.size
        return [T](_SDPNumbers<T>(base: src, count: n))
    }

    /// Reads a counted array of numbers.
    @inline(__always)
    mutating func numbers<T: _SDPNumber>(_: T.Type) throws(DecodeError) -> [T] {
        let n = try count(minSize: MemoryLayout<T>.size)
        return rawNumbers(T.self, n)
    }

    /// Reads exactly n numbers (a fixed-length array).
    @inline(__always)
    mutating func fixedNumbers<T: _SDPNumber>(_: T.Type, _ n: Int) throws(DecodeError) -> [T] {
        try needElements(n, MemoryLayout<T>.size)
        return rawNumbers(T.self, n)
    }

    /// Reads a counted array whose elements encode to at least minSize bytes.
    @inline(__always)
    mutating func array<T>(
        minSize: Int, _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> [T] {
        let n = try count(minSize: minSize)
        return try elements(n, element)
    }

    /// Reads a counted array whose elements are charged to the memory total
    /// (rule "memory"): the count is checked against the input first, then
    /// charged at the count's offset, before anything is allocated.
    @inline(__always)
    mutating func chargedArray<T>(
        minSize: Int, charge each: UInt64, _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> [T] {
        let at = pos
        let n = try count(minSize: minSize)
        try charge(n, each, at: at)
        return try elements(n, element)
    }

    /// Reads exactly n elements.
    @inline(__always)
    mutating func elements<T>(
        _ n: Int, _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> [T] {
        var out = [T]()
        #if compiler(>=6.2)
        try out.append(addingCapacity: n) { (span: inout OutputSpan<T>) throws(DecodeError) in
            for _ in 0..<n {
                span.append(try element(&self))
            }
        }
        #else
        out.reserveCapacity(n)
        for _ in 0..<n {
            out.append(try element(&self))
        }
        #endif
        return out
    }

    /// Reads a counted array of plain structs (see plainElements).
    @inline(__always)
    mutating func plainArray<T>(
        size: Int, deepest: Int, plain: Bool, _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> [T] {
        let n = try count(minSize: size)
        return try plainElements(n, size: size, deepest: deepest, plain: plain, element)
    }

    /// Reads exactly n plain structs of size bytes each, whose deepest
    /// nested value would be at depth deepest: one copy when their layout
    /// is their encoding (plain, on a little-endian host not compiled with
    /// SDP_PORTABLE), the input holds all n and the depth limit allows
    /// them; otherwise element by element, which reports the exact error.
    @inline(__always)
    mutating func plainElements<T>(
        _ n: Int, size: Int, deepest: Int, plain: Bool, _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> [T] {
        #if _endian(little) && !SDP_PORTABLE
        if plain && deepest <= maxDepth && n <= (end &- pos) / size {
            if n == 0 {
                return []
            }
            let src = base + pos
            pos &+= n &* size
            return [T](_SDPPlains<T>(base: src, count: n))
        }
        #endif
        return try elements(n, element)
    }

    /// Reads an optional: a presence byte, then the value if present.
    @inline(__always)
    mutating func optional<T>(_ value: (inout _SDPReader) throws(DecodeError) -> T) throws(DecodeError) -> T? {
        if try present() {
            return try value(&self)
        }
        return nil
    }

    /// Reads a recursive optional whose present value is charged to the
    /// memory total (rule "memory") at its presence byte.
    @inline(__always)
    mutating func chargedOptional<T>(
        charge each: UInt64, _ value: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) -> T? {
        let at = pos
        if try present() {
            try charge(1, each, at: at)
            return try value(&self)
        }
        return nil
    }
}

// ---- Decoding into an existing value ----
//
// The forms below decode into a value that holds an earlier one, reusing
// its storage: the same reads, checks and charges in the same order as the
// owned forms above, so they accept, reject and charge exactly the same
// inputs. `make` reads a new element where there is none to decode into;
// `into` decodes into an existing one.
extension _SDPReader {
    /// Reads a string into s. s is kept when it holds the same bytes
    /// already (such bytes are valid UTF-8): no allocation for a string of
    /// more than 15 bytes, and no String initializer, which validates the
    /// bytes again (measured: building the registry's short inline strings
    /// took half the time of its decode into an existing value). Otherwise
    /// s is replaced: a Swift string offers no way to write into its
    /// storage.
    @inline(__always)
    mutating func string(into s: inout Swift.String) throws(DecodeError) {
        let at = pos
        let n = try count(minSize: 1)
        if s.utf8.count == n {
            if n == 0 {
                return
            }
            let start = base + pos
            let same: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
                _sdpEqualBytes(UnsafeRawPointer(u.baseAddress!), start, n)
            }
            if same == true {
                pos &+= n
                return
            }
        }
        pos = at
        s = try string()
    }

    /// Reads a counted array of numbers into a, keeping its storage when it
    /// is uniquely referenced and large enough.
    @inline(__always)
    mutating func numbers<T: _SDPNumber>(into a: inout [T]) throws(DecodeError) {
        let n = try count(minSize: MemoryLayout<T>.size)
        rawNumbers(into: &a, n)
    }

    /// Reads exactly n numbers (a fixed-length array) into a.
    @inline(__always)
    mutating func fixedNumbers<T: _SDPNumber>(into a: inout [T], _ n: Int) throws(DecodeError) {
        try needElements(n, MemoryLayout<T>.size)
        rawNumbers(into: &a, n)
    }

    /// Replaces the contents of a with n numbers already covered by need:
    /// one copy into the kept storage (Array.append(contentsOf:) fills its
    /// spare capacity through _SDPNumbers._copyContents).
    @inline(__always)
    mutating func rawNumbers<T: _SDPNumber>(into a: inout [T], _ n: Int) {
        let src = base + pos
        pos &+= n &* MemoryLayout<T>.size
        a.removeAll(keepingCapacity: true)
        a.append(contentsOf: _SDPNumbers<T>(base: src, count: n))
    }

    /// Reads a counted array into a.
    @inline(__always)
    mutating func array<T>(
        into a: inout [T], minSize: Int,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        let n = try count(minSize: minSize)
        try elements(into: &a, n, make, into)
    }

    /// Reads a counted array of charged elements into a (rule "memory"):
    /// the count is checked and charged as chargedArray does.
    @inline(__always)
    mutating func chargedArray<T>(
        into a: inout [T], minSize: Int, charge each: UInt64,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        let at = pos
        let n = try count(minSize: minSize)
        try charge(n, each, at: at)
        try elements(into: &a, n, make, into)
    }

    /// Makes a hold exactly n elements read from the input: the elements it
    /// keeps (the first n) are decoded into, in place, so their own storage
    /// is reused too; the ones past n are removed, keeping the capacity; the
    /// missing ones are appended.
    @inline(__always)
    mutating func elements<T>(
        into a: inout [T], _ n: Int,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        if a.count > n {
            a.removeLast(a.count &- n)
        }
        let kept = a.count
        if kept > 0 {
            try a.withUnsafeMutableBufferPointer { (b) throws(DecodeError) in
                let p = b.baseAddress!
                for i in 0..<kept {
                    try into(&self, &p[i])
                }
            }
        }
        if kept < n {
            a.reserveCapacity(n)
            for _ in kept..<n {
                a.append(try make(&self))
            }
        }
    }

    /// Reads a counted array of plain structs into a (see plainElements).
    @inline(__always)
    mutating func plainArray<T>(
        into a: inout [T], size: Int, deepest: Int, plain: Bool,
        _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) {
        let n = try count(minSize: size)
        try plainElements(into: &a, n, size: size, deepest: deepest, plain: plain, element)
    }

    /// Replaces the contents of a with exactly n plain structs, keeping its
    /// storage when it is uniquely referenced and large enough: one copy
    /// where plainElements makes one, otherwise element by element (a plain
    /// struct holds no storage to reuse).
    @inline(__always)
    mutating func plainElements<T>(
        into a: inout [T], _ n: Int, size: Int, deepest: Int, plain: Bool,
        _ element: (inout _SDPReader) throws(DecodeError) -> T
    ) throws(DecodeError) {
        #if _endian(little) && !SDP_PORTABLE
        if plain && deepest <= maxDepth && n <= (end &- pos) / size {
            let src = base + pos
            pos &+= n &* size
            a.removeAll(keepingCapacity: true)
            a.append(contentsOf: _SDPPlains<T>(base: src, count: n))
            return
        }
        #endif
        try elements(into: &a, n, element) { (r: inout _SDPReader, x: inout T) throws(DecodeError) in x = try element(&r) }
    }

    /// Reads an optional into v: decoded into when present in both.
    @inline(__always)
    mutating func optional<T>(
        into v: inout T?,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        if try present() {
            try presentValue(into: &v, make, into)
        } else {
            v = nil
        }
    }

    /// Reads a charged recursive optional into v (rule "memory").
    @inline(__always)
    mutating func chargedOptional<T>(
        into v: inout T?, charge each: UInt64,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        let at = pos
        if try present() {
            try charge(1, each, at: at)
            try presentValue(into: &v, make, into)
        } else {
            v = nil
        }
    }

    @inline(__always)
    mutating func presentValue<T>(
        into v: inout T?,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        if v != nil {
            try into(&self, &v!)
        } else {
            v = try make(&self)
        }
    }

    /// Reads a boxed optional (a struct field leading back to its struct)
    /// into b: a present value is decoded into the box when b holds the
    /// only reference to it, otherwise into a new box. each is the charge
    /// of a present value (rule "memory"), 0 for none.
    @inline(__always)
    mutating func boxed<T>(
        into b: inout _SDPBox<T>?, charge each: UInt64,
        _ make: (inout _SDPReader) throws(DecodeError) -> T,
        _ into: (inout _SDPReader, inout T) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        let at = pos
        guard try present() else {
            b = nil
            return
        }
        if each > 0 {
            try charge(1, each, at: at)
        }
        if isKnownUniquelyReferenced(&b) {
            try into(&self, &b!.value)
        } else {
            b = _SDPBox(try make(&self))
        }
    }
}

/// Reports whether the n > 0 bytes at p and q are equal, with loads that
/// stay inside both ranges: 8 bytes at a time and an overlapping last word,
/// or two overlapping 4-byte words, or the first, middle and last bytes
/// (most strings are short: a byte loop took a third of the registry's
/// decode into an existing value).
@inline(__always)
func _sdpEqualBytes(_ p: UnsafeRawPointer, _ q: UnsafeRawPointer, _ n: Int) -> Bool {
    if n >= 8 {
        var i = 0
        while i &+ 8 < n {
            if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) != q.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i &+= 8
        }
        return p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == q.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }
    if n >= 4 {
        return p.loadUnaligned(as: UInt32.self) == q.loadUnaligned(as: UInt32.self)
            && p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == q.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
    }
    return p.load(as: UInt8.self) == q.load(as: UInt8.self)
        && p.load(fromByteOffset: n >> 1, as: UInt8.self) == q.load(fromByteOffset: n >> 1, as: UInt8.self)
        && p.load(fromByteOffset: n &- 1, as: UInt8.self) == q.load(fromByteOffset: n &- 1, as: UInt8.self)
}

/// Decodes into a value through body: the in-place counterpart of
/// _sdpDecode, for the public decode(serializedBytes:) methods. With prefix
/// false the value must fill the input exactly.
@inline(__always)
func _sdpDecodeInPlace(
    _ input: UnsafeRawBufferPointer, _ options: DecodeOptions,
    at locate: (inout _SDPReader) -> Swift.String,
    _ body: (inout _SDPReader) throws(DecodeError) -> Void
) throws(DecodeError) {
    _ = try _sdpDecode(input, options, prefix: false, at: locate, body)
}

/// Decodes into a value from an array, through one withUnsafeBytes over it.
@inline(__always)
func _sdpDecodeInPlace(
    _ input: [UInt8], _ options: DecodeOptions,
    at locate: (inout _SDPReader) -> Swift.String,
    _ body: (inout _SDPReader) throws(DecodeError) -> Void
) throws(DecodeError) {
    _ = try _sdpDecode(input, options, prefix: false, at: locate, body)
}

/// Reports whether n bytes at p are well-formed UTF-8 (no overlong forms,
/// no surrogates, nothing above U+10FFFF). ASCII is checked 8 bytes at a time.
@inline(__always)
func _sdpIsUTF8(_ p: UnsafeRawPointer, _ n: Int) -> Bool {
    var i = 0
    while i &+ 8 <= n {
        if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
            break
        }
        i &+= 8
    }
    while i < n {
        let b0 = p.loadUnaligned(fromByteOffset: i, as: UInt8.self)
        if b0 < 0x80 {
            i &+= 1
            continue
        }
        // The length of the sequence, and the range its second byte must be in.
        var len = 0
        var lo: UInt8 = 0x80
        var hi: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: len = 2
        case 0xE0: len = 3; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: len = 3
        case 0xED: len = 3; hi = 0x9F
        case 0xF0: len = 4; lo = 0x90
        case 0xF1...0xF3: len = 4
        case 0xF4: len = 4; hi = 0x8F
        default: return false
        }
        if len > n &- i {
            return false
        }
        let b1 = p.loadUnaligned(fromByteOffset: i &+ 1, as: UInt8.self)
        if b1 < lo || b1 > hi {
            return false
        }
        var k = 2
        while k < len {
            if p.loadUnaligned(fromByteOffset: i &+ k, as: UInt8.self) & 0xC0 != 0x80 {
                return false
            }
            k &+= 1
        }
        i &+= len
    }
    return true
}

/// Copies n > 0 bytes. Most strings are short: fixed-size moves copy up to
/// 16 bytes inline, where a copyMemory call (memcpy) costs more than the
/// copy itself. Every load stays inside [src, src + n). A short string's
/// bytes come from a 16-byte copy of it on the stack, written as two 8-byte
/// words: the first 8 bytes are moved at once and the rest with loads that
/// each fall inside the second word, because a load straddling the two
/// stalls until both stores complete (store-to-load forwarding fails). The
/// registry encode took 5-10% less time than with overlapping 8-byte moves.
@inline(__always)
func _sdpCopy(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ n: Int) {
    if n > 16 {
        dst.copyMemory(from: src, byteCount: n)
    } else if n > 8 {
        dst.storeBytes(of: src.loadUnaligned(as: UInt64.self), as: UInt64.self)
        _sdpCopyShort(dst + 8, src + 8, n &- 8)
    } else {
        _sdpCopyShort(dst, src, n)
    }
}

/// Copies 1-8 bytes with moves that stay inside [src, src + n).
@inline(__always)
func _sdpCopyShort(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ n: Int) {
    if n == 8 {
        dst.storeBytes(of: src.loadUnaligned(as: UInt64.self), as: UInt64.self)
    } else if n >= 4 {
        dst.storeBytes(of: src.loadUnaligned(as: UInt32.self), as: UInt32.self)
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self),
                       toByteOffset: n &- 4, as: UInt32.self)
    } else {
        // 1-3 bytes: first, middle and last (some may coincide).
        dst.storeBytes(of: src.load(as: UInt8.self), as: UInt8.self)
        dst.storeBytes(of: src.load(fromByteOffset: n >> 1, as: UInt8.self), toByteOffset: n >> 1, as: UInt8.self)
        dst.storeBytes(of: src.load(fromByteOffset: n &- 1, as: UInt8.self), toByteOffset: n &- 1, as: UInt8.self)
    }
}

/// n little-endian numbers in the input, as a collection. Array.init copies
/// a collection by allocating storage for count elements and asking
/// _copyContents(initializing:) to fill it: one copyMemory on little-endian
/// machines, through code specialized for the element type (measured fewer
/// instructions than appending through OutputSpan or
/// Array(unsafeUninitializedCapacity:), which allocates through
/// unspecialized code). Element access reads one number.
struct _SDPNumbers<T: _SDPNumber>: RandomAccessCollection {
    let base: UnsafeRawPointer
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> T {
        precondition(i >= 0 && i < count, "sdp: index out of range")
        let size = MemoryLayout<T>.size
        return T(_sdpBits: T._Bits(littleEndian: base.loadUnaligned(fromByteOffset: i &* size, as: T._Bits.self)))
    }

    struct Iterator: IteratorProtocol {
        let numbers: _SDPNumbers
        var i: Int

        mutating func next() -> T? {
            if i == numbers.count {
                return nil
            }
            i &+= 1
            return numbers[i &- 1]
        }
    }

    func makeIterator() -> Iterator {
        Iterator(numbers: self, i: 0)
    }

    @inline(__always)
    func _copyContents(initializing buf: UnsafeMutableBufferPointer<T>) -> (Iterator, Int) {
        precondition(buf.count >= count, "sdp: array buffer too small")
        if count > 0 {
            #if _endian(little) && !SDP_PORTABLE
            UnsafeMutableRawPointer(buf.baseAddress!).copyMemory(from: base, byteCount: count &* MemoryLayout<T>.size)
            #else
            for i in 0..<count {
                (buf.baseAddress! + i).initialize(to: self[i])
            }
            #endif
        }
        return (Iterator(numbers: self, i: count), count)
    }
}

/// n plain structs in the input, as a collection, for the little-endian
/// bulk path only (their memory layout is their encoding, checked by the
/// caller): _copyContents(initializing:) fills a new array, or an array's
/// spare capacity, with one copyMemory, as _SDPNumbers does; element access
/// loads one struct.
struct _SDPPlains<T>: RandomAccessCollection {
    let base: UnsafeRawPointer
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> T {
        precondition(i >= 0 && i < count, "sdp: index out of range")
        return base.loadUnaligned(fromByteOffset: i &* MemoryLayout<T>.stride, as: T.self)
    }

    struct Iterator: IteratorProtocol {
        let plains: _SDPPlains
        var i: Int

        mutating func next() -> T? {
            if i == plains.count {
                return nil
            }
            i &+= 1
            return plains[i &- 1]
        }
    }

    func makeIterator() -> Iterator {
        Iterator(plains: self, i: 0)
    }

    @inline(__always)
    func _copyContents(initializing buf: UnsafeMutableBufferPointer<T>) -> (Iterator, Int) {
        precondition(buf.count >= count, "sdp: array buffer too small")
        if count > 0 {
            UnsafeMutableRawPointer(buf.baseAddress!).copyMemory(from: base, byteCount: count &* MemoryLayout<T>.stride)
        }
        return (Iterator(plains: self, i: count), count)
    }
}

/// Writes the wire format into a buffer whose exact size was computed
/// before: the generated encoders write exactly encodedSize bytes.
struct _SDPWriter {
    let base: UnsafeMutableRawPointer
    var pos: Int

    @inline(__always)
    mutating func int<T: FixedWidthInteger>(_ v: T) {
        base.storeBytes(of: v.littleEndian, toByteOffset: pos, as: T.self)
        pos &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func f32(_ v: Float) {
        int(v.bitPattern)
    }

    @inline(__always)
    mutating func f64(_ v: Double) {
        int(v.bitPattern)
    }

    @inline(__always)
    mutating func bool(_ v: Bool) {
        int(v ? 1 as UInt8 : 0)
    }

    /// Writes an array count or string length; traps above the format's
    /// u32 limit instead of writing a wrong count (the checked encoders
    /// throw EncodeError before writing anything).
    @inline(__always)
    mutating func count(_ n: Int) {
        int(UInt32(n))
    }

    @inline(__always)
    mutating func bytes(_ u: UnsafeBufferPointer<UInt8>) {
        count(u.count)
        if u.count > 0 {
            _sdpCopy(base + pos, UnsafeRawPointer(u.baseAddress!), u.count)
            pos &+= u.count
        }
    }

    @inline(__always)
    mutating func string(_ s: Swift.String) {
        // Native strings lend their UTF-8 without a copy; others are made
        // contiguous first.
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { u in bytes(u) }
        if done == nil {
            foreignString(s)
        }
    }

    /// A string without contiguous UTF-8 (bridged, on Apple platforms):
    /// out of line, so that the common path stays small enough to inline.
    @inline(never)
    mutating func foreignString(_ s: Swift.String) {
        var c = s
        c.withUTF8 { u in
            count(u.count)
            if u.count > 0 {
                (base + pos).copyMemory(from: u.baseAddress!, byteCount: u.count)
                pos &+= u.count
            }
        }
    }

    /// Writes numbers without a count: one copy on little-endian machines.
    @inline(__always)
    mutating func rawNumbers<T: _SDPNumber>(_ a: [T]) {
        #if _endian(little) && !SDP_PORTABLE
        a.withUnsafeBytes { b in
            if b.count > 0 {
                (base + pos).copyMemory(from: b.baseAddress!, byteCount: b.count)
                pos &+= b.count
            }
        }
        #else
        for v in a {
            int(v._sdpBits)
        }
        #endif
    }

    /// Writes a fixed-length array of numbers, which must hold exactly n
    /// (else the writer writes nothing for it: see _sdpFill).
    @inline(__always)
    mutating func fixedNumbers<T: _SDPNumber>(_ a: [T], _ n: Int) {
        if a.count != n {
            return
        }
        rawNumbers(a)
    }

    @inline(__always)
    mutating func numbers<T: _SDPNumber>(_ a: [T]) {
        count(a.count)
        rawNumbers(a)
    }

    /// Writes the elements of a fixed-length array, which must hold exactly n
    /// (else the writer writes nothing for it: see _sdpFill).
    @inline(__always)
    mutating func fixed<T>(_ a: [T], _ n: Int, _ element: (inout _SDPWriter, T) -> Void) {
        if a.count != n {
            return
        }
        elements(a, element)
    }

    /// Writes every element, borrowing each through the array's buffer
    /// (iterating the array directly copies each element, measured slower).
    @inline(__always)
    mutating func elements<T>(_ a: [T], _ element: (inout _SDPWriter, T) -> Void) {
        a.withUnsafeBufferPointer { b in
            for i in 0..<b.count {
                element(&self, b[i])
            }
        }
    }

    /// Writes every struct of an array through a pointer to it, which
    /// neither copies the struct nor retains what it holds.
    @inline(__always)
    mutating func structElements<T>(_ a: [T], _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        a.withUnsafeBufferPointer { b in
            if let base = b.baseAddress {
                for i in 0..<b.count {
                    element(&self, base + i)
                }
            }
        }
    }

    @inline(__always)
    mutating func structs<T>(_ a: [T], _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        count(a.count)
        structElements(a, element)
    }

    @inline(__always)
    mutating func fixedStructs<T>(_ a: [T], _ n: Int, _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        if a.count != n {
            return
        }
        structElements(a, element)
    }

    /// Writes the structs of an array of plain structs: one copy of the
    /// array's bytes when their layout is their encoding (plain, on a
    /// little-endian host not compiled with SDP_PORTABLE), otherwise each
    /// through element.
    @inline(__always)
    mutating func plainElements<T>(_ a: [T], plain: Bool, _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        #if _endian(little) && !SDP_PORTABLE
        if plain {
            a.withUnsafeBytes { b in
                if b.count > 0 {
                    (base + pos).copyMemory(from: b.baseAddress!, byteCount: b.count)
                    pos &+= b.count
                }
            }
            return
        }
        #endif
        structElements(a, element)
    }

    @inline(__always)
    mutating func plainStructs<T>(_ a: [T], plain: Bool, _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        count(a.count)
        plainElements(a, plain: plain, element)
    }

    @inline(__always)
    mutating func fixedPlainStructs<T>(_ a: [T], _ n: Int, plain: Bool, _ element: (inout _SDPWriter, UnsafePointer<T>) -> Void) {
        if a.count != n {
            return
        }
        plainElements(a, plain: plain, element)
    }

    @inline(__always)
    mutating func array<T>(_ a: [T], _ element: (inout _SDPWriter, T) -> Void) {
        count(a.count)
        elements(a, element)
    }

    @inline(__always)
    mutating func optional<T>(_ v: T?, _ value: (inout _SDPWriter, T) -> Void) {
        if let v {
            int(1 as UInt8)
            value(&self, v)
        } else {
            int(0 as UInt8)
        }
    }
}

/// The encoded size of the elements of an array of variable-size elements,
/// without a count: each element's constant part `each` plus its variable
/// part `size` (saturating at Int.max, see _sdpAdd).
@inline(__always)
func _sdpElementsSize<T>(_ a: [T], _ each: Int, _ size: (T) -> Int) -> Int {
    var n = _sdpMul(a.count, each)
    a.withUnsafeBufferPointer { b in
        for i in 0..<b.count {
            n = _sdpAdd(n, size(b[i]))
        }
    }
    return n
}

/// The encoded size of the elements of a fixed-length array of n
/// variable-size elements (see _sdpElementsSize), and 1 more when it holds
/// another number of elements, so that the writer, which writes nothing
/// for such an array, is seen to write fewer bytes than the size (_sdpFill).
@inline(__always)
func _sdpFixedElementsSize<T>(_ a: [T], _ n: Int, _ each: Int, _ size: (T) -> Int) -> Int {
    let s = _sdpElementsSize(a, each, size)
    return a.count == n ? s : _sdpAdd(s, 1)
}

/// The encoded size of an optional's value when present, 0 when absent
/// (the presence byte is counted by the caller).
@inline(__always)
func _sdpPresentSize<T>(_ v: T?, _ size: (T) -> Int) -> Int {
    if let v {
        return size(v)
    }
    return 0
}

/// The serialization API every struct, union and enum of the module offers,
/// so that generic code can encode and decode any of them (as Rust's
/// `SdpType` or swift-protobuf's `Message`). Only the module's own types
/// conform: its encoders rely on what the generator knows of them.
public protocol SDPValue: Hashable, Swift.Codable {
    /// The fingerprint of the type's wire shape (`sdp fingerprint`).
    static var fingerprint: UInt64 { get }
    init(serializedBytes: [UInt8]) throws(DecodeError)
    init(serializedBytes: [UInt8], options: DecodeOptions) throws(DecodeError)
    init(serializedBytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError)
    static func decodePrefix(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> (value: Self, bytesConsumed: Int)
    /// Decodes into self, reusing its storage; on an error self is the default value.
    mutating func decode(serializedBytes: [UInt8], options: DecodeOptions) throws(DecodeError)
    func serializedBytes() -> [UInt8]
    func serialize(into out: inout [UInt8])
    func checkedSerializedBytes() throws(EncodeError) -> [UInt8]
    func checkedSerialize(into out: inout [UInt8]) throws(EncodeError)
    /// The number of bytes serializedBytes() returns.
    var encodedSize: Int { get }
}

/// The message API every struct of the module offers (a message is the
/// 10-byte header, then the struct).
public protocol SDPMessageValue: SDPValue {
    /// The struct's message type id.
    static var messageTypeID: UInt16 { get }
    /// The number of bytes serializedMessage() returns.
    var encodedMessageSize: Int { get }
    init(serializedMessage: [UInt8], options: DecodeOptions) throws(DecodeError)
    func serializedMessage() -> [UInt8]
    func checkedSerializedMessage() throws(EncodeError) -> [UInt8]
}

/// A type whose generated writer reads the value through a pointer (a
/// struct passed by value to a function that is not inlined is copied
/// first, retaining every string and array it holds).
protocol _SDPEncodable {
    static func _sdpWrite(at p: UnsafePointer<Self>, _ out: inout _SDPWriter)
    func _sdpWrite(_ w: inout _SDPWriter)

    /// Throws for the first value in encoding order that has no encoding: a
    /// string or array whose length (bytes or elements) is over limit (the
    /// format's u32 limit, or a smaller one in the backend's tests; rule
    /// "count"), or a fixed-length array of another length (rule "length").
    /// Printed from the codec plan; it runs only when the size or the writer
    /// saw a problem.
    func _sdpCheck(_ limit: UInt64) throws(EncodeError)
}

/// A value that has no encoding (docs/wire-format.md, "Values that have no
/// encoding"): the rule it breaks, the field path of the value and what is
/// wrong. Thrown by the checked encoders (checkedSerializedBytes() and the
/// others) and by MessageWriter; the plain encoders trap instead. The rules
/// a Swift value can break (its types hold no undeclared enum number, no
/// valueless union, no invalid UTF-8, no out-of-range integer):
///
/// - `length`: a fixed-length array `[N]T` that holds another number of
///   elements; the path names the array.
/// - `count`: a string, byte array or array of more than 4,294,967,295
///   bytes or elements (the format's u32 limit).
/// - `size`: a value whose encoding is larger than `Int` can count (copies
///   of one array share their storage, so a value can describe more bytes
///   than memory holds); the path is empty.
/// - `message`: a message whose payload is over a MessageWriter's maxSize,
///   or over the u32 limit of the header; the path is `message`.
public struct EncodeError: Swift.Error, CustomStringConvertible, Sendable, Hashable {
    /// The rule's name: "length", "count", "size" or "message".
    public let rule: Swift.String
    /// The field path of the value, by schema names, as a decoder reports
    /// it: `items[1].pair`, `shape.Circle.points`; empty for the whole value
    /// (rule "size"), `message` for a message's payload.
    public let path: Swift.String
    /// What is wrong, in words.
    public let message: Swift.String

    public init(rule: Swift.String, path: Swift.String = "", message: Swift.String) {
        self.rule = rule
        self.path = path
        self.message = message
    }

    /// "length in items[1].pair: a fixed-length array of 2 elements holds
    /// 3"; "<rule>: <message>" with an empty path (docs/api.md, "One layout
    /// of error text").
    public var description: Swift.String {
        path.isEmpty ? "\(rule): \(message)" : "\(rule) in \(path): \(message)"
    }

    /// The error with component (a field name or "[i]") put in front of its path.
    func _sdpInside(_ component: Swift.String) -> EncodeError {
        if path.isEmpty {
            return EncodeError(rule: rule, path: component, message: message)
        }
        if path.hasPrefix("[") {
            return EncodeError(rule: rule, path: component + path, message: message)
        }
        return EncodeError(rule: rule, path: component + "." + path, message: message)
    }
}

/// The largest length the wire format's u32 counts can hold.
let _sdpMaxLength = UInt64(UInt32.max)

/// Throws rule "count" when n is over limit (the field path is added by the
/// callers).
@inline(__always)
func _sdpCheckLength(_ n: Int, _ limit: UInt64) throws(EncodeError) {
    if UInt64(n) > limit {
        throw EncodeError(rule: "count", message: "a length of \(n) is over the format's u32 limit (\(limit))")
    }
}

/// Throws rule "length" when a fixed-length array of n elements holds count.
@inline(__always)
func _sdpCheckFixed(_ count: Int, _ n: Int) throws(EncodeError) {
    if count != n {
        throw EncodeError(rule: "length", message: "a fixed-length array of \(n) elements holds \(count)")
    }
}

/// Runs body, putting component in front of the path of what it throws.
@inline(__always)
func _sdpIn(_ component: Swift.String, _ body: () throws(EncodeError) -> Void) throws(EncodeError) {
    do {
        try body()
    } catch {
        throw error._sdpInside(component)
    }
}

/// Checks an array's count (when counted: a fixed-length array of fixed
/// elements is checked by _sdpCheckFixed) and then each element, whose index
/// goes into the path.
func _sdpCheckArray<T>(_ a: [T], _ limit: UInt64, counted: Bool, _ element: (T) throws(EncodeError) -> Void) throws(EncodeError) {
    if counted {
        try _sdpCheckLength(a.count, limit)
    }
    for i in a.indices {
        do {
            try element(a[i])
        } catch {
            throw error._sdpInside("[\(i)]")
        }
    }
}

/// Checks a fixed-length array of n elements: its length, then each element.
func _sdpCheckFixedArray<T>(_ a: [T], _ n: Int, _ limit: UInt64, _ element: (T) throws(EncodeError) -> Void) throws(EncodeError) {
    try _sdpCheckFixed(a.count, n)
    try _sdpCheckArray(a, limit, counted: false, element)
}

/// Checks an optional's value when present.
@inline(__always)
func _sdpCheckPresent<T>(_ v: T?, _ check: (T) throws(EncodeError) -> Void) throws(EncodeError) {
    if let v {
        try check(v)
    }
}

/// The check of the checked encoders before they write: every length is at
/// most the encoded size (the schema checker rejects arrays of elements
/// that encode to zero bytes), so the value is walked (_sdpCheck, which
/// finds the first length over the u32 limit or fixed-length array of
/// another length, in encoding order) only when the size is over the u32
/// limit or saturated (Int.max: larger than Int counts, rule "size"); on
/// the normal path the check is this one comparison. A fixed-length array
/// of another length within the limit is found by the writer itself
/// (_sdpEncodeChecked).
@inline(__always)
func _sdpCheckSize<T: _SDPEncodable>(_ value: T, _ size: Int) throws(EncodeError) {
    if UInt64(size) > _sdpMaxLength || size == Int.max {
        try _sdpCheckWhole(value, size)
    }
}

@inline(never)
func _sdpCheckWhole<T: _SDPEncodable>(_ value: T, _ size: Int) throws(EncodeError) {
    try value._sdpCheck(_sdpMaxLength)
    if size == Int.max {
        throw EncodeError(rule: "size", message: "the encoding is larger than Int can count (\(Int.max) bytes)")
    }
}

/// The check of the checked message encoders and MessageWriter before they
/// write: the value's own problems (see _sdpCheckSize), then the payload's
/// size, which the header holds as a u32, against maxSize.
@inline(__always)
func _sdpCheckPayload<T: _SDPEncodable>(_ value: T, _ size: Int, maxSize: Int = Int.max) throws(EncodeError) {
    if UInt64(size) > _sdpMaxLength || size > maxSize {
        try _sdpCheckMessage(value, size, maxSize: maxSize)
    }
}

@inline(never)
func _sdpCheckMessage<T: _SDPEncodable>(_ value: T, _ size: Int, maxSize: Int) throws(EncodeError) {
    try _sdpCheckWhole(value, size)
    if UInt64(size) > _sdpMaxLength {
        throw EncodeError(rule: "message", path: "message", message: "the payload of \(size) bytes is over the header's u32 limit (\(_sdpMaxLength))")
    }
    throw EncodeError(rule: "message", path: "message", message: "the payload of \(size) bytes is over the writer's maximum of \(maxSize)")
}

/// The error of a value whose writer met a fixed-length array of another
/// length (and wrote nothing for it): the check walk finds it with its
/// path. Finding none, the size was wrong: a bug, which traps.
@inline(never)
func _sdpProblem<T: _SDPEncodable>(_ value: T) -> EncodeError {
    do {
        try value._sdpCheck(_sdpMaxLength)
    } catch {
        return error
    }
    preconditionFailure("sdp: the writer met a fixed-length array of another length that the check did not find")
}

/// Adds two encoded sizes, saturating at Int.max: a size that Int cannot
/// count (rule "size") stays Int.max through every later addition, and
/// the encoders refuse it (the checked ones throw, the plain ones trap).
@inline(__always)
func _sdpAdd(_ a: Int, _ b: Int) -> Int {
    let (r, o) = a.addingReportingOverflow(b)
    return o ? Int.max : r
}

/// Multiplies an element count by an element size, saturating at Int.max.
@inline(__always)
func _sdpMul(_ count: Int, _ size: Int) -> Int {
    let (r, o) = count.multipliedReportingOverflow(by: size)
    return o ? Int.max : r
}

/// Encodes value (framed as a message when messageTypeID is set) into a new
/// array of exactly size bytes: one allocation, filled through a raw
/// pointer, the count set once. See _SDPEncoding. The plain encoders' form:
/// it traps on a value that has no encoding.
@inline(__always)
func _sdpSerialize<T: _SDPEncodable>(_ value: T, size: Int, messageTypeID: UInt16? = nil) -> [UInt8] {
    _sdpCheckCountable(size)
    return withUnsafePointer(to: value) { p in
        [UInt8](_SDPEncoding(value: p, count: size, messageTypeID: messageTypeID, bad: nil))
    }
}

/// _sdpSerialize for the checked encoders, whose checks ran before on the
/// size: a fixed-length array of another length, which the writer skips
/// and reports, throws rule "length" with its path.
@inline(__always)
func _sdpSerializeChecked<T: _SDPEncodable>(_ value: T, size: Int, messageTypeID: UInt16? = nil) throws(EncodeError) -> [UInt8] {
    var bad = false
    let out = withUnsafeMutablePointer(to: &bad) { flag in
        withUnsafePointer(to: value) { p in
            [UInt8](_SDPEncoding(value: p, count: size, messageTypeID: messageTypeID, bad: flag))
        }
    }
    if bad {
        throw _sdpProblem(value)
    }
    return out
}

/// Traps for a size that Int cannot count (the saturated Int.max): the
/// plain encoders' refusal of rule "size".
@inline(__always)
func _sdpCheckCountable(_ size: Int) {
    if size == Int.max {
        fatalError("sdp: the encoding is larger than Int can count (the checked encoders throw EncodeError)")
    }
}

/// The plain encoders' refusal of rule "length": the writer wrote fewer
/// bytes than the size (see _sdpFill).
@inline(never)
func _sdpWrongLength() -> Never {
    fatalError("sdp: a fixed-length array field holds the wrong number of elements (the checked encoders throw EncodeError)")
}

/// The encoding of a value seen as a collection of its bytes. Array.init
/// copies a collection by allocating storage for count elements and asking
/// _copyContents(initializing:) to fill it, so the writer runs straight into
/// the new array, through code specialized for [UInt8]. Measured against
/// writing on the stack and copying: 100 x u32 encode 621 -> 513
/// instructions, 13% less time; [UInt8](unsafeUninitializedCapacity:)
/// allocates through unspecialized code and takes 812 instructions for 58
/// bytes. The value must outlive the collection (serializedBytes holds it
/// for the call). When the writer meets a fixed-length array of another
/// length (_sdpFill) it sets bad (the checked encoders then throw and drop
/// the array) or, without bad, traps.
struct _SDPEncoding<T: _SDPEncodable>: RandomAccessCollection {
    let value: UnsafePointer<T>
    let count: Int
    let messageTypeID: UInt16?
    let bad: UnsafeMutablePointer<Bool>?

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    func write(_ w: inout _SDPWriter) {
        if let id = messageTypeID {
            _sdpWriteHeader(&w, typeID: id, payloadSize: count &- _sdpMessageHeaderSize)
        }
        T._sdpWrite(at: value, &w)
    }

    @inline(__always)
    func _copyContents(initializing buf: UnsafeMutableBufferPointer<UInt8>) -> (IndexingIterator<[UInt8]>, Int) {
        precondition(buf.count >= count, "sdp: encoding buffer too small")
        if count > 0 && !_sdpFill(UnsafeMutableRawPointer(buf.baseAddress!), count, { write(&$0) }) {
            guard let bad else {
                _sdpWrongLength()
            }
            // The bytes are dropped unread: zero them, so that the array
            // holds initialized values until then.
            buf.update(repeating: 0)
            bad.pointee = true
        }
        return ([UInt8]().makeIterator(), count)
    }

    /// The bytes by appending: the path for element-wise access, which the
    /// stdlib's array initializer does not take (and which must not go back
    /// through Array.init(self)). Each element access encodes the whole
    /// value; nothing in the package uses them.
    var bytes: [UInt8] {
        var out = [UInt8]()
        if !_sdpAppend(&out, size: count, write) {
            _sdpWrongLength()
        }
        return out
    }

    subscript(i: Int) -> UInt8 {
        bytes[i]
    }

    func makeIterator() -> IndexingIterator<[UInt8]> {
        bytes.makeIterator()
    }
}

/// Runs body on a writer at base and reports whether it wrote exactly size
/// bytes. It writes fewer when it met a fixed-length array of another
/// length: the writer writes nothing for such an array, whose part of the
/// size is at least 1 (N fixed-size elements, or the elements it holds and
/// 1 more: _sdpFixedElementsSize), so it never writes past size either.
@inline(__always)
func _sdpFill(_ base: UnsafeMutableRawPointer, _ size: Int, _ body: (inout _SDPWriter) -> Void) -> Bool {
    var w = _SDPWriter(base: base, pos: 0)
    body(&w)
    return w.pos == size
}

/// Appends an encoding of exactly size bytes to out, writing straight into
/// its spare capacity where the compiler has OutputSpan (Swift 6.2). False,
/// with out unchanged, when the writer met a fixed-length array of another
/// length.
@inline(__always)
func _sdpAppend(_ out: inout [UInt8], size: Int, _ body: (inout _SDPWriter) -> Void) -> Bool {
    if size == 0 {
        return true
    }
    var ok = true
    #if compiler(>=6.2)
    out.append(addingCapacity: size) { span in
        span.withUnsafeMutableBufferPointer { buf, initialized in
            ok = _sdpFill(UnsafeMutableRawPointer(buf.baseAddress!), size, body)
            initialized = ok ? size : 0
        }
    }
    #else
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: size))
    out.withUnsafeMutableBytes { b in
        ok = _sdpFill(b.baseAddress! + start, size, body)
    }
    if !ok {
        out.removeLast(size)
    }
    #endif
    return ok
}

/// Appends the encoding of value, of size bytes, to out: the plain
/// encoders' form, which traps on a value that has no encoding.
@inline(__always)
func _sdpAppendPlain<T: _SDPEncodable>(_ value: T, to out: inout [UInt8], size: Int) {
    _sdpCheckCountable(size)
    if !_sdpAppend(&out, size: size, { w in value._sdpWrite(&w) }) {
        _sdpWrongLength()
    }
}

/// Appends the encoding of value to out, or throws EncodeError with out
/// unchanged: the checked encoders' form.
@inline(__always)
func _sdpAppendChecked<T: _SDPEncodable>(_ value: T, to out: inout [UInt8], size: Int) throws(EncodeError) {
    try _sdpCheckSize(value, size)
    if !_sdpAppend(&out, size: size, { w in value._sdpWrite(&w) }) {
        throw _sdpProblem(value)
    }
}

/// Decodes one value from the start of input. With prefix false the value
/// must fill the input exactly; the result carries the bytes consumed.
@inline(__always)
func _sdpDecode<T>(
    _ input: UnsafeRawBufferPointer, _ options: DecodeOptions, prefix: Bool,
    at locate: (inout _SDPReader) -> Swift.String,
    _ body: (inout _SDPReader) throws(DecodeError) -> T
) throws(DecodeError) -> (T, Int) {
    guard let base = input.baseAddress else {
        // An empty buffer may have no address: decode from an empty one that has.
        var zero: UInt64 = 0
        return try withUnsafeBytes(of: &zero) { (z) throws(DecodeError) -> (T, Int) in
            try _sdpDecode(UnsafeRawBufferPointer(rebasing: z[0..<0]), options, prefix: prefix, at: locate, body)
        }
    }
    var r = _SDPReader(base: base, end: input.count, pos: 0, options: options)
    let v: T
    do {
        v = try body(&r)
    } catch {
        throw _sdpLocated(error, base, input.count, options, locate)
    }
    if !prefix && r.pos != r.end {
        throw DecodeError.trailing(offset: r.pos)
    }
    return (v, r.pos)
}

/// Decodes from an array, through one withUnsafeBytes over it.
@inline(__always)
func _sdpDecode<T>(
    _ input: [UInt8], _ options: DecodeOptions, prefix: Bool,
    at locate: (inout _SDPReader) -> Swift.String,
    _ body: (inout _SDPReader) throws(DecodeError) -> T
) throws(DecodeError) -> (T, Int) {
    let result: Swift.Result<(T, Int), DecodeError> = input.withUnsafeBytes { b in
        Swift.Result { () throws(DecodeError) -> (T, Int) in try _sdpDecode(b, options, prefix: prefix, at: locate, body) }
    }
    return try result.get()
}

/// The size of a message header: magic "SDP2", u16 type id, u32 length.
let _sdpMessageHeaderSize = 10

/// Writes a message header.
@inline(__always)
func _sdpWriteHeader(_ w: inout _SDPWriter, typeID: UInt16, payloadSize: Int) {
    w.int(0x3250_4453 as UInt32)  // "SDP2" read as a little-endian u32
    w.int(typeID)
    w.count(payloadSize)
}

/// Reads a message header and checks that the payload fills the rest of the
/// input exactly; returns the type id. A type id that known refuses is
/// returned before the length is checked, for the caller to reject at offset
/// 4: the header is checked front to back, as in every SDP decoder.
@inline(__always)
func _sdpReadHeader(_ r: inout _SDPReader, known: (UInt16) -> Bool) throws(DecodeError) -> UInt16 {
    try r.need(_sdpMessageHeaderSize)
    if r.raw(UInt32.self) != 0x3250_4453 {
        throw DecodeError.invalidMessage(offset: 0, reason: "the input does not start with the magic \"SDP2\"")
    }
    let typeID = r.raw(UInt16.self)
    if !known(typeID) {
        return typeID
    }
    let length = UInt(r.raw(UInt32.self))
    if length != UInt(bitPattern: r.end &- r.pos) {
        throw DecodeError.invalidMessage(
            offset: 6,
            reason: "the header declares \(length) payload bytes but \(r.end &- r.pos) follow")
    }
    // The default memory limit counts the payload, not the header.
    r.memStart = r.pos
    return typeID
}

// MARK: Codable

/// The coding key of the generated Codable conformances: a field's or a
/// union case's Swift name, or `_0` for a case's one unlabeled value.
struct _SDPCodingKey: Swift.CodingKey, Swift.ExpressibleByStringLiteral {
    let stringValue: Swift.String

    init(stringLiteral value: Swift.String) {
        stringValue = value
    }

    init?(stringValue: Swift.String) {
        self.stringValue = stringValue
    }

    var intValue: Int? { nil }

    init?(intValue: Int) {
        return nil
    }
}

/// The Codable form of an optional whose value is itself an optional
/// (`??T`): the standard library encodes both `nil` and `.some(nil)` as
/// null. Here `nil` is null and a present value a one-element array, so
/// `.some(nil)` is `[null]`.
struct _SDPNested<Wrapped: Swift.Codable>: Swift.Codable {
    let value: Wrapped?

    init(_ value: Wrapped?) {
        self.value = value
    }

    func encode(to encoder: any Swift.Encoder) throws {
        guard let value else {
            var c = encoder.singleValueContainer()
            try c.encodeNil()
            return
        }
        var c = encoder.unkeyedContainer()
        try c.encode(value)
    }

    init(from decoder: any Swift.Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            value = nil
            return
        }
        var c = try decoder.unkeyedContainer()
        value = try c.decode(Wrapped.self)
        if !c.isAtEnd {
            throw Swift.DecodingError.dataCorruptedError(
                in: c, debugDescription: "a present nested optional is an array of one value")
        }
    }
}

/// Checks that a decoded fixed array `[N]T` holds N elements (the encoders
/// trap on another count).
func _sdpFixed<T>(
    _ a: [T], _ n: Int, _ key: _SDPCodingKey, _ c: Swift.KeyedDecodingContainer<_SDPCodingKey>
) throws -> [T] {
    if a.count != n {
        throw Swift.DecodingError.dataCorruptedError(
            forKey: key, in: c, debugDescription: "a fixed array of \(n) elements holds \(a.count)")
    }
    return a
}

/// Decodes a union (or AnyMessage) from its Codable form, an object with
/// one key, the case: returns the key and the object holding the case's
/// values.
func _sdpUnionCase(
    _ decoder: any Swift.Decoder
) throws -> (Swift.String, Swift.KeyedDecodingContainer<_SDPCodingKey>) {
    let c = try decoder.container(keyedBy: _SDPCodingKey.self)
    guard c.allKeys.count == 1, let key = c.allKeys.first else {
        throw Swift.DecodingError.dataCorrupted(
            .init(codingPath: c.codingPath, debugDescription: "a union is an object with exactly one key, its case"))
    }
    return (key.stringValue, try c.nestedContainer(keyedBy: _SDPCodingKey.self, forKey: key))
}

/// The error of a union's Codable form whose key names no case.
func _sdpUnknownCase(_ name: Swift.String, _ decoder: any Swift.Decoder, _ type: StaticString) -> Swift.DecodingError {
    .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(type) has no case \(name)"))
}
