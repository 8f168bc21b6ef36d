// Builds a plugin registry, encodes it, decodes it back from [UInt8] and
// Data and into an existing value, frames it as a message, writes and reads
// a stream of messages, and shows decode errors.

import Foundation
import PluginRegistry

var gain = Parameter(address: 1, displayName: "Gain", unit: "dB", minValue: -60, maxValue: 12)
gain.isWritable = true
let registry = PluginRegistry(
    plugins: [Plugin(name: "EQ", manufacturerID: "acme", parameters: [gain])],
    totalPluginCount: 1, totalParameterCount: 1)

// Encode.
let bytes: [UInt8] = registry.serializedBytes()
var buffer: [UInt8] = []
buffer.reserveCapacity(1 << 16)
registry.serialize(into: &buffer)  // reuse one buffer in hot loops
print("encoded \(bytes.count) bytes (encodedSize \(registry.encodedSize))")

// Decode from [UInt8] or Data (Data is read in place, not copied).
let again = try PluginRegistry(serializedBytes: bytes)
let fromData = try PluginRegistry(serializedBytes: Data(bytes))
let shallow = try PluginRegistry(serializedBytes: bytes, options: DecodeOptions(maxDepth: 8))
print("decoded equal:", again == registry, fromData == registry, shallow == registry)

// Decode into an existing value: its arrays keep their storage and equal
// strings are kept, so decoding the same kind of value again allocates
// little or nothing. A failed decode resets the value to PluginRegistry().
var current = PluginRegistry()
for _ in 0..<3 {
    try current.decode(serializedBytes: bytes)
}
print("decoded into an existing value:", current == registry)
do {
    try current.decode(serializedBytes: Array(bytes.dropLast()))
} catch {
    print("rejected (\(error.rule)); reset to the default:", current == PluginRegistry())
}

// Messages.
let framed = registry.serializedMessage()  // "SDP2", type id, length, payload
switch try AnyMessage(serializedMessage: framed) {
case .pluginRegistry(let r): print("message of type \(PluginRegistry.messageTypeID) with \(r.plugins.count) plugin")
case .plugin, .parameter: print("another message")
}

// Streams: messages one after the other (here in memory; FileHandle works too).
var stream: [UInt8] = []
let writer = MessageWriter { stream.append(contentsOf: $0) }  // one call per message
try writer.write(registry)
try writer.write(.parameter(gain))
let reader = MessageReader(bytes: stream, maxSize: 1 << 20)
while let m = try reader.next() {
    print("stream message #\(reader.index - 1) of type \(m.messageTypeID)")
}
// The same, decoding every message into the previous one.
let reusing = MessageReader(bytes: stream)
var message = AnyMessage.pluginRegistry(PluginRegistry())
while try reusing.next(into: &message) {
    print("stream message #\(reusing.index - 1) of type \(message.messageTypeID), decoded in place")
}
do {
    let cut = MessageReader(bytes: Array(stream.dropLast()))
    while try cut.next() != nil {}
} catch let e as StreamError {
    print(e.rule, e.index, e.offset)  // truncated 1 106: the message's index, the stream offset of the problem
    print(e)  // message 1 at stream offset 96: truncated at offset 10 in message: the input ends inside a value
}

// The schema check: a hello first, with the fingerprint of every struct.
var checked: [UInt8] = []
let hello = MessageWriter { checked.append(contentsOf: $0) }
try hello.writeHello()
try hello.write(registry)
let requiring = MessageReader(bytes: checked)
requiring.requireHello = true  // refuse a stream without a hello
while let m = try requiring.next() {
    print("message #\(requiring.index - 1) of type \(m.messageTypeID), schema checked: \(requiring.schemaChecked)")  // #1: the hello was #0
}
checked[16] ^= 1  // another version of Parameter (type id 1)
do {
    while try MessageReader(bytes: checked).next() != nil {}
} catch let e as StreamError {
    print(e.rule, e.index, e.offset)  // schema 0 16: the hello's fingerprint of Parameter
    print(e)  // message 0 at stream offset 0: schema at offset 16 in message: the writer's schema has another version of Parameter ...
}

// Errors.
do {
    _ = try PluginRegistry(serializedBytes: Array(bytes.dropLast()))
} catch {
    print(error.rule, error.offset)
    print(error)
}
