// The Swift harness of the SDP benchmark suite: SDP Swift (Sdp.swift, built
// when `sdp gen --lang swift` works) next to Foundation's JSONEncoder /
// JSONDecoder and binary PropertyListEncoder with Codable, on the same data.
import BenchHarness
import Foundation

var argv = CommandLine.unsafeArgv
#if swift(>=6.0)
let toolchain = "swiftc (Swift 6)"
#else
let toolchain = "swiftc"
#endif
bench_init(CommandLine.argc, argv, "swift", ProcessInfo.processInfo.environment["SDP_SWIFT_TOOLCHAIN"] ?? toolchain)
#if !HAVE_SDP_SWIFT
gap("sdp", nil, ProcessInfo.processInfo.environment["SDP_SWIFT_GAP"] ?? "not built: the Swift backend was not available")
#endif

for w in loadWorkloads() {
    // The floor of an encode into a fresh array: allocating one of the
    // encoding's size and copying the wire bytes into it (and releasing it).
    let wire = [UInt8](w.sdpb)
    run("new_array", w.name, "copy", wire.count) { blackHole(wire.withUnsafeBytes { [UInt8]($0) }) }
    #if HAVE_SDP_SWIFT
    benchSDP(w)
    #endif
    switch w.type {
    case "AllPrimitives": benchCodable(AllPrimitives.self, w)
    case "U32Array": benchCodable(U32Array.self, w)
    case "I16Array": benchCodable(I16Array.self, w)
    case "F32Array": benchCodable(F32Array.self, w)
    case "ByteArray": benchCodable(ByteArray.self, w)
    case "SmallArrays": benchCodable(SmallArrays.self, w)
    case "Scene": benchCodable(Scene.self, w)
    case "AudioDevice": benchCodable(AudioDevice.self, w)
    case "PluginRegistry": benchCodable(PluginRegistry.self, w)
    case "Reading": benchCodable(Reading.self, w)
    case "StructA": benchCodable(StructA.self, w)
    case "Mesh": benchCodable(Mesh.self, w)
    case "Logs": benchCodable(Logs.self, w)
    default: gap("json", w.name, "no Codable types for \(w.type)")
    }
}
exit(bench_finish())
