// Swift calling the SDP C++ backend through Swift's C++ interoperability
// (-cxx-interoperability-mode=default), the alternative to the pure-Swift
// backend. The values a Swift program works with are Swift types, so decode
// is C++ decode + conversion of the C++ values (std::string, std::vector) to
// the Swift structs of ../swift/Model.swift, and encode is the reverse. The
// conversions are written the way the interop invites: for-in over
// std::vector, String(std::string), std.string(String).
import BenchHarness
import Foundation
import SDPCxx

func s(_ x: std.string) -> String { String(x) }

func toSwift(_ r: plugins.PluginRegistry) -> PluginRegistry {
    var ps: [Plugin] = []
    ps.reserveCapacity(Int(r.plugins.size()))
    for p in r.plugins {
        var qs: [Parameter] = []
        qs.reserveCapacity(Int(p.parameters.size()))
        for q in p.parameters {
            qs.append(Parameter(
                address: q.address, displayName: s(q.display_name), identifier: s(q.identifier), unit: s(q.unit),
                minValue: q.min_value, maxValue: q.max_value, defaultValue: q.default_value,
                currentValue: q.current_value, rawFlags: q.raw_flags, isWritable: q.is_writable, canRamp: q.can_ramp))
        }
        ps.append(Plugin(
            name: s(p.name), manufacturerId: s(p.manufacturer_id), componentType: s(p.component_type),
            componentSubtype: s(p.component_subtype), parameters: qs))
    }
    return PluginRegistry(plugins: ps, totalPluginCount: r.total_plugin_count, totalParameterCount: r.total_parameter_count)
}

func toCxx(_ r: PluginRegistry) -> plugins.PluginRegistry {
    var out = plugins.PluginRegistry()
    out.plugins.reserve(r.plugins.count)
    for p in r.plugins {
        var cp = plugins.Plugin()
        cp.name = std.string(p.name)
        cp.manufacturer_id = std.string(p.manufacturerId)
        cp.component_type = std.string(p.componentType)
        cp.component_subtype = std.string(p.componentSubtype)
        cp.parameters.reserve(p.parameters.count)
        for q in p.parameters {
            var cq = plugins.Parameter()
            cq.address = q.address
            cq.display_name = std.string(q.displayName)
            cq.identifier = std.string(q.identifier)
            cq.unit = std.string(q.unit)
            cq.min_value = q.minValue
            cq.max_value = q.maxValue
            cq.default_value = q.defaultValue
            cq.current_value = q.currentValue
            cq.raw_flags = q.rawFlags
            cq.is_writable = q.isWritable
            cq.can_ramp = q.canRamp
            cp.parameters.push_back(cq)
        }
        out.plugins.push_back(cp)
    }
    out.total_plugin_count = r.totalPluginCount
    out.total_parameter_count = r.totalParameterCount
    return out
}

func toSwift(_ a: leaderboard.StructA) -> StructA {
    StructA(name: s(a.name), birthDay: a.birth_day, phone: s(a.phone), siblings: a.siblings, spouse: a.spouse, money: a.money)
}

func toCxx(_ a: StructA) -> leaderboard.StructA {
    var c = leaderboard.StructA()
    c.name = std.string(a.name)
    c.birth_day = a.birthDay
    c.phone = std.string(a.phone)
    c.siblings = a.siblings
    c.spouse = a.spouse
    c.money = a.money
    return c
}

func toSwift(_ v: leaderboard.Vector3) -> Vector3 { Vector3(x: v.x, y: v.y, z: v.z) }

func toCxx(_ v: Vector3) -> leaderboard.Vector3 {
    var c = leaderboard.Vector3()
    c.x = v.x
    c.y = v.y
    c.z = v.z
    return c
}

func toSwift(_ m: leaderboard.Mesh) -> Mesh {
    var ts: [Triangle] = []
    ts.reserveCapacity(Int(m.triangles.size()))
    for t in m.triangles {
        ts.append(Triangle(v0: toSwift(t.v0), v1: toSwift(t.v1), v2: toSwift(t.v2), normal: toSwift(t.normal)))
    }
    return Mesh(triangles: ts)
}

func toCxx(_ m: Mesh) -> leaderboard.Mesh {
    var out = leaderboard.Mesh()
    out.triangles.reserve(m.triangles.count)
    for t in m.triangles {
        var c = leaderboard.Triangle()
        c.v0 = toCxx(t.v0)
        c.v1 = toCxx(t.v1)
        c.v2 = toCxx(t.v2)
        c.normal = toCxx(t.normal)
        out.triangles.push_back(c)
    }
    return out
}

func toSwift(_ r: leaderboard.Logs) -> Logs {
    var ls: [Log] = []
    ls.reserveCapacity(Int(r.logs.size()))
    for l in r.logs {
        ls.append(Log(
            address: Address(x0: l.address.x0, x1: l.address.x1, x2: l.address.x2, x3: l.address.x3),
            identity: s(l.identity), userid: s(l.userid), date: s(l.date), request: s(l.request), code: l.code,
            size: l.size))
    }
    return Logs(logs: ls)
}

func toCxx(_ r: Logs) -> leaderboard.Logs {
    var out = leaderboard.Logs()
    out.logs.reserve(r.logs.count)
    for l in r.logs {
        var c = leaderboard.Log()
        c.address.x0 = l.address.x0
        c.address.x1 = l.address.x1
        c.address.x2 = l.address.x2
        c.address.x3 = l.address.x3
        c.identity = std.string(l.identity)
        c.userid = std.string(l.userid)
        c.date = std.string(l.date)
        c.request = std.string(l.request)
        c.code = l.code
        c.size = l.size
        out.logs.push_back(c)
    }
    return out
}

func bytesOf<V: Sequence>(_ v: V) -> [UInt8] where V.Element == UInt8 { Array(v) }

/// Measures one workload: decode (C++ decode + conversion to Swift),
/// encode (conversion to C++ + C++ encode into a Swift [UInt8]), roundtrip.
func measure<C, T>(
    _ w: Workload, decode: @escaping ([UInt8]) -> C?, toSwift: @escaping (C) -> T,
    toCxx: @escaping (T) -> C, encode: @escaping (C) -> [UInt8]
) {
    let data = [UInt8](w.sdpb)
    guard let c = decode(data) else {
        gap("sdp_cxx_interop", w.name, "the C++ decoder rejected the .sdpb")
        return
    }
    let value = toSwift(c)
    guard encode(toCxx(value)) == data else {
        gap("sdp_cxx_interop", w.name, "self-check failed: re-encoding differs from the .sdpb")
        return
    }
    run("sdp_cxx_interop", w.name, "encode", data.count) { blackHole(encode(toCxx(value))) }
    run("sdp_cxx_interop", w.name, "decode", data.count) { blackHole(toSwift(decode(data)!)) }
    run("sdp_cxx_interop", w.name, "roundtrip", data.count) { blackHole(toSwift(decode(encode(toCxx(value)))!)) }
}


let argv = CommandLine.unsafeArgv
bench_init(CommandLine.argc, argv, "swift", ProcessInfo.processInfo.environment["SDP_SWIFT_TOOLCHAIN"] ?? "swiftc")
var skipped: [String] = []
for w in loadWorkloads() {
    switch w.type {
    case "PluginRegistry":
        measure(w, decode: { (d: [UInt8]) -> plugins.PluginRegistry? in
            var r = plugins.PluginRegistry()
            let ok = d.withUnsafeBufferPointer { plugins.decode($0.baseAddress, $0.count, &r, plugins.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: toSwift, toCxx: toCxx, encode: { bytesOf(plugins.encode($0)) })
    case "F32Array":
        measure(w, decode: { (d: [UInt8]) -> arrays.F32Array? in
            var r = arrays.F32Array()
            let ok = d.withUnsafeBufferPointer { arrays.decode($0.baseAddress, $0.count, &r, arrays.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: { F32Array(values: Array($0.values)) },
        toCxx: { v in var c = arrays.F32Array(); c.values.reserve(v.values.count); for x in v.values { c.values.push_back(x) }; return c },
        encode: { bytesOf(arrays.encode($0)) })
    case "I16Array":
        measure(w, decode: { (d: [UInt8]) -> arrays.I16Array? in
            var r = arrays.I16Array()
            let ok = d.withUnsafeBufferPointer { arrays.decode($0.baseAddress, $0.count, &r, arrays.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: { I16Array(samples: Array($0.samples)) },
        toCxx: { v in var c = arrays.I16Array(); c.samples.reserve(v.samples.count); for x in v.samples { c.samples.push_back(x) }; return c },
        encode: { bytesOf(arrays.encode($0)) })
    case "U32Array":
        measure(w, decode: { (d: [UInt8]) -> arrays.U32Array? in
            var r = arrays.U32Array()
            let ok = d.withUnsafeBufferPointer { arrays.decode($0.baseAddress, $0.count, &r, arrays.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: { U32Array(values: Array($0.values)) },
        toCxx: { v in var c = arrays.U32Array(); c.values.reserve(v.values.count); for x in v.values { c.values.push_back(x) }; return c },
        encode: { bytesOf(arrays.encode($0)) })
    case "StructA":
        measure(w, decode: { (d: [UInt8]) -> leaderboard.StructA? in
            var r = leaderboard.StructA()
            let ok = d.withUnsafeBufferPointer { leaderboard.decode($0.baseAddress, $0.count, &r, leaderboard.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: toSwift, toCxx: toCxx, encode: { bytesOf(leaderboard.encode($0)) })
    case "Mesh":
        measure(w, decode: { (d: [UInt8]) -> leaderboard.Mesh? in
            var r = leaderboard.Mesh()
            let ok = d.withUnsafeBufferPointer { leaderboard.decode($0.baseAddress, $0.count, &r, leaderboard.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: toSwift, toCxx: toCxx, encode: { bytesOf(leaderboard.encode($0)) })
    case "Logs":
        measure(w, decode: { (d: [UInt8]) -> leaderboard.Logs? in
            var r = leaderboard.Logs()
            let ok = d.withUnsafeBufferPointer { leaderboard.decode($0.baseAddress, $0.count, &r, leaderboard.DecodeOptions()).ok() }
            return ok ? r : nil
        }, toSwift: toSwift, toCxx: toCxx, encode: { bytesOf(leaderboard.encode($0)) })
    default:
        skipped.append(w.name)
    }
}
if !skipped.isEmpty {
    gap("sdp_cxx_interop", nil,
        "measured on the registry, the u32/i16/f32 arrays, struct_a, mesh and log only; not on " + skipped.joined(separator: ", "))
}
exit(bench_finish())
