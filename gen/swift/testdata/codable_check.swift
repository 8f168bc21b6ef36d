// The conformance testee's check of the generated Codable conformances:
// every value it decodes goes through Codable twice, and the SDP encoding of
// what comes back must be the input's, bit for bit.
//
// - Through TreeEncoder and TreeDecoder, a lossless in-memory Coder (floats
//   kept as bit patterns): the conformances themselves lose nothing, NaN
//   payloads included.
// - Through JSONEncoder and JSONDecoder, with NaN and the infinities as the
//   strings "nan", "inf" and "-inf": JSON keeps -0.0, u64 max, i64 min and
//   every other number, but not a NaN's payload or sign, so the result is
//   compared with the value whose NaNs are all Swift's canonical `.nan`
//   (TreeDecoder with canonicalNaN).

import Foundation

/// What a check found wrong, or nil.
public func codableProblem<T: Swift.Codable>(_ value: T, _ bytes: [UInt8], _ encode: (T) -> [UInt8]) -> Swift.String? {
    do {
        let tree = try TreeEncoder.encode(value)
        let back = try T(from: TreeDecoder(tree, canonicalNaN: false))
        if encode(back) != bytes {
            return "Codable through a lossless coder changes the value: \(encode(back)) for \(bytes)"
        }
        let canonical = encode(try T(from: TreeDecoder(tree, canonicalNaN: true)))
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let json = try encoder.encode(value)
        let fromJSON = encode(try decoder.decode(T.self, from: json))
        if fromJSON != canonical {
            return "a JSON round trip changes the value: \(fromJSON) for \(canonical) (JSON \(Swift.String(decoding: json, as: UTF8.self)))"
        }
        return nil
    } catch {
        return "Codable failed: \(error)"
    }
}

/// A value as a Coder sees it.
final class TreeNode {
    enum Kind {
        case unset, null, bool(Bool), string(Swift.String), int(Int64), uint(UInt64), float(UInt32), double(UInt64), array, object
    }
    var kind: Kind = .unset
    var items: [TreeNode] = []
    var fields: [Swift.String: TreeNode] = [:]
    var order: [Swift.String] = []

    init() {}

    init(_ kind: Kind) {
        self.kind = kind
    }

    var isNull: Bool {
        if case .null = kind {
            return true
        }
        return false
    }
}

/// Encodes a value into a TreeNode.
struct TreeEncoder: Encoder {
    let node: TreeNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func encode<T: Encodable>(_ value: T) throws -> TreeNode {
        try leaf(value, path: [])
    }

    /// The node of one value: primitives directly, others through their encode(to:).
    static func leaf<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> TreeNode {
        switch value {
        case let v as Bool where T.self == Bool.self: return TreeNode(.bool(v))
        case let v as Swift.String where T.self == Swift.String.self: return TreeNode(.string(v))
        case let v as Double where T.self == Double.self: return TreeNode(.double(v.bitPattern))
        case let v as Float where T.self == Float.self: return TreeNode(.float(v.bitPattern))
        case let v as Int where T.self == Int.self: return TreeNode(.int(Int64(v)))
        case let v as Int8 where T.self == Int8.self: return TreeNode(.int(Int64(v)))
        case let v as Int16 where T.self == Int16.self: return TreeNode(.int(Int64(v)))
        case let v as Int32 where T.self == Int32.self: return TreeNode(.int(Int64(v)))
        case let v as Int64 where T.self == Int64.self: return TreeNode(.int(v))
        case let v as UInt where T.self == UInt.self: return TreeNode(.uint(UInt64(v)))
        case let v as UInt8 where T.self == UInt8.self: return TreeNode(.uint(UInt64(v)))
        case let v as UInt16 where T.self == UInt16.self: return TreeNode(.uint(UInt64(v)))
        case let v as UInt32 where T.self == UInt32.self: return TreeNode(.uint(UInt64(v)))
        case let v as UInt64 where T.self == UInt64.self: return TreeNode(.uint(v))
        default:
            let node = TreeNode()
            try value.encode(to: TreeEncoder(node: node, codingPath: path))
            return node
        }
    }

    func container<Key: CodingKey>(keyedBy: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else {
            node.kind = .object
        }
        return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .array
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, codingPath: codingPath)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: TreeNode
        let codingPath: [any CodingKey]

        func put(_ child: TreeNode, _ key: Key) {
            if node.fields[key.stringValue] == nil {
                node.order.append(key.stringValue)
            }
            node.fields[key.stringValue] = child
        }

        mutating func encodeNil(forKey key: Key) throws { put(TreeNode(.null), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            put(try TreeEncoder.leaf(value, path: codingPath + [key]), key)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(TreeNode(.bool(value)), key) }
        mutating func encode(_ value: Swift.String, forKey key: Key) throws { put(TreeNode(.string(value)), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(TreeNode(.double(value.bitPattern)), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(TreeNode(.float(value.bitPattern)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(TreeNode(.int(Int64(value))), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(TreeNode(.int(Int64(value))), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(TreeNode(.int(Int64(value))), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(TreeNode(.int(Int64(value))), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(TreeNode(.int(value)), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(TreeNode(.uint(UInt64(value))), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(TreeNode(.uint(UInt64(value))), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(TreeNode(.uint(UInt64(value))), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(TreeNode(.uint(UInt64(value))), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(TreeNode(.uint(value)), key) }

        mutating func nestedContainer<N: CodingKey>(keyedBy: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            let child = TreeNode(.object)
            put(child, key)
            return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = TreeNode(.array)
            put(child, key)
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { fatalError("superEncoder is not used by SDP's conformances") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("superEncoder is not used by SDP's conformances") }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: TreeNode
        let codingPath: [any CodingKey]
        var count: Int { node.items.count }

        mutating func encodeNil() throws { node.items.append(TreeNode(.null)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            node.items.append(try TreeEncoder.leaf(value, path: codingPath))
        }
        mutating func encode(_ value: Bool) throws { node.items.append(TreeNode(.bool(value))) }
        mutating func encode(_ value: Swift.String) throws { node.items.append(TreeNode(.string(value))) }
        mutating func encode(_ value: Double) throws { node.items.append(TreeNode(.double(value.bitPattern))) }
        mutating func encode(_ value: Float) throws { node.items.append(TreeNode(.float(value.bitPattern))) }
        mutating func encode(_ value: Int) throws { node.items.append(TreeNode(.int(Int64(value)))) }
        mutating func encode(_ value: Int8) throws { node.items.append(TreeNode(.int(Int64(value)))) }
        mutating func encode(_ value: Int16) throws { node.items.append(TreeNode(.int(Int64(value)))) }
        mutating func encode(_ value: Int32) throws { node.items.append(TreeNode(.int(Int64(value)))) }
        mutating func encode(_ value: Int64) throws { node.items.append(TreeNode(.int(value))) }
        mutating func encode(_ value: UInt) throws { node.items.append(TreeNode(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt8) throws { node.items.append(TreeNode(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt16) throws { node.items.append(TreeNode(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt32) throws { node.items.append(TreeNode(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt64) throws { node.items.append(TreeNode(.uint(value))) }

        mutating func nestedContainer<N: CodingKey>(keyedBy: N.Type) -> KeyedEncodingContainer<N> {
            let child = TreeNode(.object)
            node.items.append(child)
            return KeyedEncodingContainer(Keyed<N>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = TreeNode(.array)
            node.items.append(child)
            return Unkeyed(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder { fatalError("superEncoder is not used by SDP's conformances") }
    }

    struct Single: SingleValueEncodingContainer {
        let node: TreeNode
        let codingPath: [any CodingKey]

        func set(_ k: TreeNode.Kind) { node.kind = k }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let leaf = try TreeEncoder.leaf(value, path: codingPath)
            node.kind = leaf.kind
            node.items = leaf.items
            node.fields = leaf.fields
            node.order = leaf.order
        }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: Swift.String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.double(value.bitPattern)) }
        mutating func encode(_ value: Float) throws { set(.float(value.bitPattern)) }
        mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { set(.int(value)) }
        mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { set(.uint(value)) }
    }
}

/// Decodes a value from a TreeNode; with canonicalNaN every NaN comes back
/// as Swift's `.nan`, as JSON gives it.
struct TreeDecoder: Decoder {
    let node: TreeNode
    let canonicalNaN: Bool
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ node: TreeNode, canonicalNaN: Bool, codingPath: [any CodingKey] = []) {
        self.node = node
        self.canonicalNaN = canonicalNaN
        self.codingPath = codingPath
    }

    func mismatch(_ what: Swift.String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(what), found \(node.kind)"))
    }

    /// Decodes a value of type T from the node.
    func value<T: Decodable>(_: T.Type) throws -> T {
        func number<I: FixedWidthInteger>(_: I.Type) throws -> I {
            switch node.kind {
            case .int(let v):
                if let i = I(exactly: v) {
                    return i
                }
            case .uint(let v):
                if let i = I(exactly: v) {
                    return i
                }
            default:
                break
            }
            throw mismatch("\(I.self)")
        }
        switch T.self {
        case is Bool.Type:
            guard case .bool(let v) = node.kind else { throw mismatch("a bool") }
            return v as! T
        case is Swift.String.Type:
            guard case .string(let v) = node.kind else { throw mismatch("a string") }
            return v as! T
        case is Double.Type:
            guard case .double(let bits) = node.kind else { throw mismatch("a double") }
            let v = Double(bitPattern: bits)
            return (canonicalNaN && v.isNaN ? Double.nan : v) as! T
        case is Float.Type:
            guard case .float(let bits) = node.kind else { throw mismatch("a float") }
            let v = Float(bitPattern: bits)
            return (canonicalNaN && v.isNaN ? Float.nan : v) as! T
        case is Int.Type: return try number(Int.self) as! T
        case is Int8.Type: return try number(Int8.self) as! T
        case is Int16.Type: return try number(Int16.self) as! T
        case is Int32.Type: return try number(Int32.self) as! T
        case is Int64.Type: return try number(Int64.self) as! T
        case is UInt.Type: return try number(UInt.self) as! T
        case is UInt8.Type: return try number(UInt8.self) as! T
        case is UInt16.Type: return try number(UInt16.self) as! T
        case is UInt32.Type: return try number(UInt32.self) as! T
        case is UInt64.Type: return try number(UInt64.self) as! T
        default:
            return try T(from: self)
        }
    }

    func child(_ node: TreeNode, _ key: (any CodingKey)?) -> TreeDecoder {
        TreeDecoder(node, canonicalNaN: canonicalNaN, codingPath: key.map { codingPath + [$0] } ?? codingPath)
    }

    func container<Key: CodingKey>(keyedBy: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object = node.kind else { throw mismatch("an object") }
        return KeyedDecodingContainer(Keyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array = node.kind else { throw mismatch("an array") }
        return Unkeyed(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(decoder: self)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: TreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { decoder.node.order.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { decoder.node.fields[key.stringValue] != nil }

        func at(_ key: Key) throws -> TreeDecoder {
            guard let n = decoder.node.fields[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no key \(key.stringValue)"))
            }
            return decoder.child(n, key)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try at(key).node.isNull }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try at(key).value(T.self) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try at(key).value(type) }
        func decode(_ type: Swift.String.Type, forKey key: Key) throws -> Swift.String { try at(key).value(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try at(key).value(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try at(key).value(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try at(key).value(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try at(key).value(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try at(key).value(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try at(key).value(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try at(key).value(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try at(key).value(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try at(key).value(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try at(key).value(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try at(key).value(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try at(key).value(type) }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            try at(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try at(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { try at(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: TreeDecoder
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { decoder.node.items.count }
        var isAtEnd: Bool { currentIndex >= decoder.node.items.count }

        init(decoder: TreeDecoder) {
            self.decoder = decoder
        }

        mutating func next() throws -> TreeDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has ended"))
            }
            currentIndex += 1
            return decoder.child(decoder.node.items[currentIndex - 1], nil)
        }

        mutating func decodeNil() throws -> Bool {
            if !isAtEnd && decoder.node.items[currentIndex].isNull {
                currentIndex += 1
                return true
            }
            return false
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().value(T.self) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().value(type) }
        mutating func decode(_ type: Swift.String.Type) throws -> Swift.String { try next().value(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().value(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next().value(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().value(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().value(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().value(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().value(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().value(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().value(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().value(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().value(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().value(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().value(type) }

        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: TreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.node.isNull }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(T.self) }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.value(type) }
        func decode(_ type: Swift.String.Type) throws -> Swift.String { try decoder.value(type) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.value(type) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.value(type) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.value(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.value(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.value(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.value(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.value(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.value(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.value(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.value(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.value(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.value(type) }
    }
}
