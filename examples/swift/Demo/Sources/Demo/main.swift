// Builds a plugin registry, encodes it, decodes it back from [UInt8] and
// Data, frames it as a message, and shows a decode error.

import Foundation
import PluginRegistry

var gain = Parameter(address: 1, displayName: "Gain", unit: "dB", minValue: -60, maxValue: 12)
gain.isWritable = true
let registry = PluginRegistry(
    plugins: [Plugin(name: "EQ", manufacturerId: "acme", parameters: [gain])],
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

// Messages.
let framed = registry.serializedMessage()  // "SDP2", type id, length, payload
switch try AnyMessage(serializedMessage: framed) {
case .pluginRegistry(let r): print("message of type \(PluginRegistry.messageTypeID) with \(r.plugins.count) plugin")
case .plugin, .parameter: print("another message")
}

// Errors.
do {
    _ = try PluginRegistry(serializedBytes: Array(bytes.dropLast()))
} catch {
    print(error.rule, error.offset)
    print(error)
}
