// Compiled into the module generated from encode_limits.sdp by
// TestEncodeLimits: the length check of the checked encoders, run with small
// limits in place of the format's u32 limit (a value with a length over
// 4,294,967,295 would take 4 GiB), so that every kind of field is found and
// named; and the checked encoders on values within the limit, which must
// give the plain encoders' bytes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var failures = 0

@MainActor func check(_ ok: Bool, _ what: String, line: Int = #line) {
    if !ok {
        print("FAIL line \(line): \(what)")
        failures += 1
    }
}

/// The error the check walk throws for v at limit, or nil.
func lengthError<T: _SDPEncodable>(_ v: T, _ limit: UInt64) -> EncodeError? {
    do {
        try v._sdpCheck(limit)
        return nil
    } catch {
        return error
    }
}

/// The count error of a length over limit at path.
func countError(_ path: String, _ length: Int, _ limit: UInt64) -> EncodeError {
    EncodeError(rule: "count", path: path, message: "a length of \(length) is over the format's u32 limit (\(limit))")
}

@MainActor func expect<T: _SDPEncodable>(_ v: T, _ limit: UInt64, _ field: String?, _ length: Int = 0, line: Int = #line) {
    let e = lengthError(v, limit)
    if let field {
        check(e == countError(field, length, limit), "want \(field) (\(length)), got \(String(describing: e))", line: line)
    } else {
        check(e == nil, "want no error, got \(String(describing: e))", line: line)
    }
}

let leaf = Leaf(name: "abc", data: [1, 2])
var root = Root(
    id: 7, title: "title", leaves: [leaf, Leaf(name: "a", data: [1, 2, 3, 4, 5])],
    grid: [[nil, leaf], [Leaf(name: "abcdef", data: [])]], maybe: "maybe!",
    choice: .item(leaf: leaf), choices: [.empty, .inline(label: "lbl", ids: [1, 2, 3, 4, 5, 6, 7])])

// Found in field order, with the path of the first one over the limit.
expect(root, 100, nil)
expect(root, 7, nil)
expect(root, 6, "choices[1].Inline.ids", 7)
expect(root, 5, "grid[1][0].name", 6)
expect(root, 4, "title", 5)
expect(root, 0, "title", 5)
root.title = ""
expect(root, 4, "leaves[1].data", 5)
expect(root, 2, "leaves[0].name", 3)
expect(root, 1, "leaves", 2)
root.leaves = []
expect(root, 1, "grid[0]", 2)
expect(root, 0, "grid[0]", 2)
root.grid = [[nil, nil, nil], []]
expect(root, 2, "grid[0]", 3)
root.grid = [[nil, leaf], []]
expect(root, 2, "grid[0][1].name", 3)
root.grid = [[], [Leaf(name: "ab", data: [1, 2, 3])]]
expect(root, 2, "grid[1][0].data", 3)
root.grid = [[], []]
expect(root, 5, "maybe", 6)
root.maybe = nil
expect(root, 2, "choice.Item.leaf.name", 3)
root.choice = .leaf(Leaf(name: "", data: [1, 2, 3]))
expect(root, 2, "choice.Leaf.data", 3)
root.choice = .inline(label: "", ids: [1, 2, 3])
expect(root, 2, "choice.Inline.ids", 3)
root.choice = .empty
expect(root, 1, "choices", 2)
root.choices = [.empty]
expect(root, 0, "choices", 1)
expect(root, 1, nil)
expect(Choice.inline(label: "label", ids: []), 4, "Inline.label", 5)
expect(Choice.empty, 0, nil)
expect(leaf, 2, "name", 3)
expect(Root(), 0, nil)

check(countError("leaves[3].name", 4_294_967_296, 4_294_967_295).description
        == "count in leaves[3].name: a length of 4294967296 is over the format's u32 limit (4294967295)",
      "description")
check(EncodeError(rule: "size", message: "too large").description == "size: too large", "description without a path")

// Within the limit the checked encoders give the plain encoders' bytes.
let full = Root(
    id: 1, title: "t", leaves: [leaf], grid: [[leaf, nil], []], maybe: "m",
    choice: .inline(label: "x", ids: [9]), choices: [.item(leaf: leaf)])
for v in [full, Root()] {
    check((try? v.checkedSerializedBytes()) == v.serializedBytes(), "checkedSerializedBytes")
    check((try? v.checkedSerializedMessage()) == v.serializedMessage(), "checkedSerializedMessage")
    check((try? AnyMessage.root(v).checkedSerializedMessage()) == v.serializedMessage(), "AnyMessage")
    var out: [UInt8] = [1, 2]
    try! v.checkedSerialize(into: &out)
    check(out == [1, 2] + v.serializedBytes(), "checkedSerialize(into:)")
    var stream = [UInt8]()
    let writer = MessageWriter { stream += $0 }
    try! writer.write(v)
    check(stream == v.serializedMessage(), "MessageWriter")
}
check((try? Choice.empty.checkedSerializedBytes()) == [0], "union")
// The size check itself (64-bit Int: a 32-bit one cannot hold the limit):
// nothing to walk at the limit; over it the lengths are walked (all fit
// here), and a message payload over it is an error.
if Int.bitWidth == 64 {
    let at = Int(truncatingIfNeeded: _sdpMaxLength)
    check((try? _sdpCheckSize(full, at)) != nil, "size at the limit")
    check((try? _sdpCheckPayload(full, at)) != nil, "payload at the limit")
    check((try? _sdpCheckSize(full, at + 1)) != nil, "size over the limit, lengths within")
    do {
        try _sdpCheckPayload(full, at + 1)
        check(false, "payload over the limit accepted")
    } catch {
        check(error.rule == "message" && error.path == "message", "payload error \(error)")
    }
    var long = full
    long.title = "too long"
    check(lengthError(long, 7) == countError("title", 8, 7), "walk")
    do {
        try _sdpCheckSize(long, at + 1)
    } catch {
        check(false, "over-limit size walked with the u32 limit: \(error)")
    }
}

// A real array of 2^32 bytes through the public API: its storage is
// allocated (mmap'd) but never touched, because the check throws before
// anything is written, so it takes address space and not memory.
if Int.bitWidth == 64 {
    let big = [UInt8](unsafeUninitializedCapacity: 1 << 32) { _, n in n = 1 << 32 }
    let huge = Root(leaves: [leaf, Leaf(name: "x", data: big)])
    let want = countError("leaves[1].data", 1 << 32, _sdpMaxLength)
    do {
        _ = try huge.checkedSerializedBytes()
        check(false, "checkedSerializedBytes accepted 2^32 bytes")
    } catch {
        check(error == want, "checkedSerializedBytes: \(error)")
    }
    var out: [UInt8] = [1]
    do {
        try huge.checkedSerialize(into: &out)
        check(false, "checkedSerialize accepted 2^32 bytes")
    } catch {
        check(error == want && out == [1], "checkedSerialize: \(error)")
    }
    do {
        _ = try AnyMessage.root(huge).checkedSerializedMessage()
        check(false, "checkedSerializedMessage accepted 2^32 bytes")
    } catch {
        check(error == want, "checkedSerializedMessage: \(error)")
    }
    var written = 0
    let writer = MessageWriter { written += $0.count }
    do {
        try writer.write(huge)
        check(false, "MessageWriter accepted 2^32 bytes")
    } catch let error as EncodeError {
        check(error == want && written == 0 && writer.count == 0, "MessageWriter: \(error)")
    } catch {
        check(false, "MessageWriter: \(error)")
    }
    // A message payload over the limit whose lengths all fit: 8 bytes of
    // counts and 2^32 - 4 of data (its plain encoding would be valid, and
    // would take 4 GiB: not made here).
    let edge = Leaf(name: "", data: [UInt8](unsafeUninitializedCapacity: (1 << 32) - 4) { _, n in n = (1 << 32) - 4 })
    let payload = EncodeError(rule: "message", path: "message", message: "the payload of \((1 << 32) + 4) bytes is over the header's u32 limit (4294967295)")
    do {
        _ = try edge.checkedSerializedMessage()
        check(false, "checkedSerializedMessage accepted a payload of 2^32 + 4 bytes")
    } catch {
        check(error == payload, "payload: \(error)")
    }
    do {
        try writer.write(edge)
        check(false, "MessageWriter accepted a payload of 2^32 + 4 bytes")
    } catch let error as EncodeError {
        check(error == payload && written == 0, "MessageWriter payload: \(error)")
    } catch {
        check(false, "MessageWriter payload: \(error)")
    }
}

// An encoding larger than Int counts (rule "size", an empty path). Sizes
// add and multiply saturating at Int.max, which stays there; a value that
// really describes 2^63 bytes (copies of copies of one array) takes 2^30
// or more element visits to size, too slow here, so the encoders' check is
// run on the saturated size itself.
check(_sdpAdd(Int.max - 1, 2) == Int.max && _sdpAdd(Int.max, 0) == Int.max && _sdpAdd(3, 4) == 7, "_sdpAdd")
check(_sdpMul(Int.max / 2, 3) == Int.max && _sdpMul(1 << 40, 1 << 30) == Int.max && _sdpMul(6, 7) == 42, "_sdpMul")
check(_sdpAdd(_sdpMul(1 << 62, 2), 10) == Int.max, "saturation stays")
for v in [full, Root()] {
    do {
        try _sdpCheckSize(v, Int.max)
        check(false, "a saturated size accepted")
    } catch {
        check(error.rule == "size" && error.path == "", "size: \(error)")
    }
    do {
        try _sdpCheckPayload(v, Int.max)
        check(false, "a saturated payload accepted")
    } catch {
        check(error.rule == "size" && error.path == "", "payload size: \(error)")
    }
}
// A value's own problems come before the size: a fixed-length array of
// another length is found by the walk.
var badGrid = full
badGrid.grid = [[]]
do {
    try _sdpCheckSize(badGrid, Int.max)
    check(false, "a saturated size accepted")
} catch {
    check(error == EncodeError(rule: "length", path: "grid", message: "a fixed-length array of 2 elements holds 1"), "length before size: \(error)")
}
// The checked encoders refuse a fixed-length array of another length that
// the writer met, with its path, and write nothing.
do {
    _ = try badGrid.checkedSerializedBytes()
    check(false, "checkedSerializedBytes accepted [2] holding 1")
} catch {
    check(error.rule == "length" && error.path == "grid", "checkedSerializedBytes: \(error)")
}
var kept: [UInt8] = [9]
do {
    try badGrid.checkedSerialize(into: &kept)
    check(false, "checkedSerialize accepted [2] holding 1")
} catch {
    check(error.rule == "length" && error.path == "grid" && kept == [9], "checkedSerialize: \(error)")
}

// The untouched 4 GiB arrays above must not have become resident.
#if canImport(Glibc) || canImport(Darwin)
var usage = rusage()
getrusage(0, &usage)  // RUSAGE_SELF (0), spelled differently by Glibc and Darwin
#if canImport(Darwin)
let peak = Int(usage.ru_maxrss)  // bytes
#else
let peak = Int(usage.ru_maxrss) * 1024  // KiB
#endif
check(peak < 256 << 20, "peak resident memory \(peak) bytes")
print("peak resident memory: \(peak >> 20) MiB")
#endif

if failures == 0 {
    print("ok")
}
