// The SDP Swift backend's benchmarks (compiled with -D HAVE_SDP_SWIFT): the
// modules that `sdp gen --lang swift` generated from conformance/schemas,
// measured on the workload's .sdpb bytes. Names are module-qualified because
// the harness's own Codable structs (Model.swift) have the same names.
#if HAVE_SDP_SWIFT
import arrays
import leaderboard
import nested
import optionals
import plugins
import primitives

/// Measures one generated type; the closures are the type's generated API.
func benchSDPType<T: Equatable>(
    _ w: Workload,
    decode: @escaping ([UInt8]) -> T?,
    decodeInto: @escaping ([UInt8], inout T) -> Bool,
    encode: @escaping (T) -> [UInt8],
    append: @escaping (T, inout [UInt8]) -> Void,
    message: @escaping (T) -> [UInt8],
    dispatch: @escaping ([UInt8]) -> Bool
) {
    let data = [UInt8](w.sdpb)
    guard let value = decode(data) else {
        gap("sdp", w.name, "decoding the .sdpb failed")
        return
    }
    let enc = encode(value)
    guard enc == data else {
        gap("sdp", w.name, "self-check failed: re-encoding differs from the .sdpb")
        return
    }
    let msg = message(value)
    guard dispatch(msg) else {
        gap("sdp", w.name, "self-check failed: the message does not dispatch")
        return
    }
    var buf = [UInt8]()
    buf.reserveCapacity(enc.count)
    run("sdp", w.name, "encode", enc.count) { blackHole(encode(value)) }
    runReusing("sdp", w.name, "encode_reuse", enc.count, buf) { buf in
        buf.removeAll(keepingCapacity: true)
        append(value, &buf)
        blackHole(buf.count)
    }
    run("sdp", w.name, "decode", enc.count) { blackHole(decode(data)!) }
    // Decoding into the value the previous operation decoded (steady state:
    // its arrays keep their storage, equal strings are kept).
    var reused = decode(data)!
    guard decodeInto(data, &reused), reused == value else {
        gap("sdp", w.name, "self-check failed: decoding into an existing value differs")
        return
    }
    // A fresh value for the holder: a copy left anywhere else would share
    // its storage, and every decode into it would copy the arrays.
    runReusingValue("sdp", w.name, "decode_reuse", enc.count, { decode(data)! }) { v in
        _ = decodeInto(data, &v)
        blackHole(v)
    }
    run("sdp", w.name, "roundtrip", enc.count) { blackHole(decode(encode(value))!) }
    run("sdp", w.name, "msg_encode", msg.count) { blackHole(message(value)) }
    run("sdp", w.name, "msg_decode", msg.count) { blackHole(dispatch(msg)) }
}

func benchSDP(_ w: Workload) {
    switch w.type {
    case "AllPrimitives":
        benchSDPType(w, decode: { try? primitives.AllPrimitives(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? primitives.AnyMessage(serializedMessage: $0)) != nil })
    case "U32Array":
        benchSDPType(w, decode: { try? arrays.U32Array(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? arrays.AnyMessage(serializedMessage: $0)) != nil })
    case "I16Array":
        benchSDPType(w, decode: { try? arrays.I16Array(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? arrays.AnyMessage(serializedMessage: $0)) != nil })
    case "F32Array":
        benchSDPType(w, decode: { try? arrays.F32Array(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? arrays.AnyMessage(serializedMessage: $0)) != nil })
    case "ByteArray":
        benchSDPType(w, decode: { try? arrays.ByteArray(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? arrays.AnyMessage(serializedMessage: $0)) != nil })
    case "SmallArrays":
        benchSDPType(w, decode: { try? arrays.SmallArrays(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? arrays.AnyMessage(serializedMessage: $0)) != nil })
    case "Scene":
        benchSDPType(w, decode: { try? nested.Scene(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? nested.AnyMessage(serializedMessage: $0)) != nil })
    case "AudioDevice":
        benchSDPType(w, decode: { try? nested.AudioDevice(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? nested.AnyMessage(serializedMessage: $0)) != nil })
    case "PluginRegistry":
        benchSDPType(w, decode: { try? plugins.PluginRegistry(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? plugins.AnyMessage(serializedMessage: $0)) != nil })
    case "Reading":
        benchSDPType(w, decode: { try? optionals.Reading(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? optionals.AnyMessage(serializedMessage: $0)) != nil })
    case "StructA":
        benchSDPType(w, decode: { try? leaderboard.StructA(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? leaderboard.AnyMessage(serializedMessage: $0)) != nil })
    case "Mesh":
        benchSDPType(w, decode: { try? leaderboard.Mesh(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? leaderboard.AnyMessage(serializedMessage: $0)) != nil })
    case "Logs":
        benchSDPType(w, decode: { try? leaderboard.Logs(serializedBytes: $0) },
                     decodeInto: { (try? $1.decode(serializedBytes: $0)) != nil },
                     encode: { $0.serializedBytes() }, append: { $0.serialize(into: &$1) },
                     message: { $0.serializedMessage() },
                     dispatch: { (try? leaderboard.AnyMessage(serializedMessage: $0)) != nil })
    default:
        gap("sdp", w.name, "no generated type for \(w.type)")
    }
}
#endif
