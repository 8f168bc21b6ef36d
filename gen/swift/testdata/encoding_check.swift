// Compiled into the generated primitives module by TestEncodingCollection:
// checks every way of reading an _SDPEncoding against serializedBytes(), and
// an _SDPNumbers against the numbers it holds, including the element-wise
// paths that Array.init does not take.

var failures = 0

@MainActor func check(_ ok: Bool, _ what: String, line: Int = #line) {
    if !ok {
        print("FAIL line \(line): \(what)")
        failures += 1
    }
}

@MainActor func checkEncoding<T: _SDPEncodable>(_ v: T, size: Int, messageTypeID: UInt16?, want: [UInt8]) {
    withUnsafePointer(to: v) { p in
        let e = _SDPEncoding(value: p, count: size, messageTypeID: messageTypeID, bad: nil)
        check(e.count == want.count, "count")
        check(Array(e) == want, "Array.init")
        check(ContiguousArray(e) == ContiguousArray(want), "ContiguousArray.init")
        check(Array(IteratorSequence(e.makeIterator())) == want, "iterator")
        check(e.map { $0 } == want, "map")
        check(e.indices.map { e[$0] } == want, "subscript")
        check(e.bytes == want, "bytes")
        check(Array(e.reversed()) == want.reversed(), "reversed")
        var a: [UInt8] = [1, 2, 3]
        a.append(contentsOf: e)
        check(a == [1, 2, 3] + want, "append(contentsOf:)")
        var b = [UInt8]()
        b.reserveCapacity(want.count)
        b.append(contentsOf: e)
        check(b == want, "append(contentsOf:) into exact capacity")
    }
}

var v = AllPrimitives()
checkEncoding(v, size: v.encodedSize, messageTypeID: nil, want: v.serializedBytes())
v.flag = true
v.u32Val = 0xDEAD_BEEF
v.f64Val = -2.5
v.label = "a label longer than sixteen bytes, with UTF-8: é"
checkEncoding(v, size: v.encodedSize, messageTypeID: nil, want: v.serializedBytes())
checkEncoding(v, size: _sdpMessageHeaderSize + v.encodedSize, messageTypeID: AllPrimitives.messageTypeID,
              want: v.serializedMessage())
check(v.serializedBytes().count == v.encodedSize, "serializedBytes size")
check(try! AllPrimitives(serializedBytes: v.serializedBytes()) == v, "round trip")
check(try! AllPrimitives(serializedMessage: v.serializedMessage()) == v, "message round trip")
let empty = Empty()
checkEncoding(empty, size: 0, messageTypeID: nil, want: [])
check(empty.serializedBytes() == [], "empty")
// Strings of every length up to 40, small (inline) and native (heap, even
// when short: reserved capacity keeps a string native): the writer copies
// them with fixed-size moves chosen by length.
for n in 0...40 {
    let text = String((0..<n).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
    var native = String()
    native.reserveCapacity(64)
    native += text
    for label in [text, native, text + "é"] {
        var t = Text()
        t.value = label
        let utf8 = Array(label.utf8)
        let c = UInt32(utf8.count)
        let want = [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), UInt8(c >> 24)] + utf8
        check(t.serializedBytes() == want, "string of \(utf8.count) bytes")
        var appended: [UInt8] = [9]
        t.serialize(into: &appended)
        check(appended == [9] + want, "appended string of \(utf8.count) bytes")
        check(try! Text(serializedBytes: want) == t, "decoded string of \(utf8.count) bytes")
    }
}

// Three u32 and three i16 at an odd offset: unaligned, little-endian.
let raw: [UInt8] = [0xFF, 0x01, 0x00, 0x00, 0x00, 0xEF, 0xBE, 0xAD, 0xDE, 0xFF, 0xFF, 0xFF, 0xFF]
raw.withUnsafeBytes { b in
    let u = _SDPNumbers<UInt32>(base: b.baseAddress! + 1, count: 3)
    let want: [UInt32] = [1, 0xDEAD_BEEF, 0xFFFF_FFFF]
    check(Array(u) == want, "numbers Array.init")
    check(Array(IteratorSequence(u.makeIterator())) == want, "numbers iterator")
    check(u.map { $0 } == want, "numbers map")
    check(u.indices.map { u[$0] } == want, "numbers subscript")
    check(Array(u.reversed()) == want.reversed(), "numbers reversed")
    let i = _SDPNumbers<Int16>(base: b.baseAddress! + 7, count: 3)
    check(Array(i) == [-8531, -1, -1], "i16 Array.init")
    check(Array(_SDPNumbers<Double>(base: b.baseAddress!, count: 0)) == [], "empty numbers")
}
print(failures == 0 ? "ok" : "\(failures) failures")
