// Swift building the example's registry with the generated C++ types
// (cpp/registry.hpp) through Swift's C++ interoperability, encoding it with
// the generated C++ encoder, and writing the bytes to a file for the Go
// program to decode (go run . -swift FILE). Build (docs/ffi.md):
//
//   g++ -std=c++17 -O2 -c ../cpp/registry.cpp -o registry.o
//   swiftc -cxx-interoperability-mode=default -Xcc -std=c++17 -I . main.swift registry.o -o collector
//   ./collector registry.sdpb
import RegistryCxx

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let vendors = ["ACME", "Zölzer DSP", "FabFilter"]
let units = ["dB", "Hz", "%", "µs"]

func padded(_ i: UInt32) -> String {
    let s = String(i)
    return String(repeating: "0", count: max(0, 3 - s.count)) + s
}

/// The example's deterministic registry (docs/ffi.md, "The example's
/// registry"), built as C++ values.
func collect(_ count: UInt32) -> registry.PluginRegistry {
    var reg = registry.PluginRegistry()
    reg.plugins.reserve(Int(count))
    var params: UInt32 = 0
    for i in 0..<count {
        var p = registry.Plugin()
        p.name = std.string("Plugin \(i)")
        p.manufacturer_id = std.string(vendors[Int(i % 3)])
        p.component_type = std.string("aufx")
        p.component_subtype = std.string("p" + padded(i))
        let n = 22 + i % 17
        p.parameters.reserve(Int(n))
        for j in 0..<n {
            var q = registry.Parameter()
            q.address = UInt64(i) << 32 | UInt64(j)
            q.display_name = std.string("Param \(j)")
            q.identifier = std.string("p\(i).\(j)")
            q.unit = std.string(units[Int(j % 4)])
            q.min_value = -Float(j)
            q.max_value = Float(j + 1)
            q.default_value = 0.5 * Float(j)
            q.current_value = 0.25 * Float(i)
            q.raw_flags = i * 1000 + j
            q.is_writable = j % 3 != 0
            q.can_ramp = j % 2 == 0
            p.parameters.push_back(q)
        }
        reg.plugins.push_back(p)
        params += n
    }
    reg.total_plugin_count = count
    reg.total_parameter_count = params
    return reg
}

func fail(_ message: String) -> Never {
    fputs("swift collector: \(message)\n", stderr)
    exit(1)
}

guard CommandLine.arguments.count == 2 else { fail("usage: collector OUT.sdpb") }
let reg = collect(62)
// encode returns a std::vector<uint8_t>; empty means the value cannot be
// encoded (the C++ backend gives no reason).
let bytes = registry.encode(reg)
if bytes.empty() { fail("registry::encode returned no bytes: the value cannot be encoded") }
guard let f = fopen(CommandLine.arguments[1], "wb") else { fail("cannot create \(CommandLine.arguments[1])") }
let written = bytes.__dataUnsafe().map { fwrite($0, 1, bytes.size(), f) } ?? 0
if written != bytes.size() || fclose(f) != 0 { fail("cannot write \(CommandLine.arguments[1])") }
print("swift collector: wrote \(bytes.size()) bytes")
