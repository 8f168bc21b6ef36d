// The Swift side of the IPC workload (bench/ipc):
//
//     ipc-swift write|read|read-reuse KIND N DATA
//
// The writer is the generated MessageWriter with a sink that copies into a
// 64 KiB buffer and write(2)s it when full; the reader is the generated
// MessageReader (which reads 64 KiB at a time into a buffer of its own) over
// a source that read(2)s into that buffer, decoding every message into a
// fresh owned value (next()), or with read-reuse into the previous message
// (next(into:)). (The FileHandle initializers
// would make one read or write system call, and one Data, per message.)
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import arrays
import ipc
import leaderboard

let bufSize = 64 << 10

func monoNS() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func die(_ msg: String) -> Never {
    fputs("ipc-swift: \(msg)\n", stderr)
    exit(1)
}

func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { die("cannot read \(path)") }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

// Buffered output to fd 1.
// Unchecked for exclusive access, as the generated MessageWriter: one
// thread, and no access is held across a call that could reach it.
final class Out {
    @exclusivity(unchecked) var buf = [UInt8](repeating: 0, count: bufSize)
    @exclusivity(unchecked) var used = 0
    func writeAll(_ p: UnsafeRawBufferPointer) {
        var off = 0
        while off < p.count {
            let w = write(1, p.baseAddress! + off, p.count - off)
            if w < 0 {
                if errno == EINTR { continue }
                die("write: \(String(cString: strerror(errno)))")
            }
            off += w
        }
    }
    func flush() {
        buf.withUnsafeBytes { b in writeAll(UnsafeRawBufferPointer(rebasing: b[0..<used])) }
        used = 0
    }
    func put(_ p: UnsafeRawBufferPointer) {
        if p.count > bufSize - used { flush() }
        if p.count >= bufSize {
            writeAll(p)
            return
        }
        let u = used
        buf.withUnsafeMutableBytes { b in
            UnsafeMutableRawBufferPointer(rebasing: b[u..<u + p.count]).copyMemory(from: p)
        }
        used += p.count
    }
}

// Input from fd 0, as a MessageReader source: read(2) straight into the
// reader's own buffer (MessageReader keeps 64 KiB and asks for as much as
// it can hold, so the source needs no buffer of its own).
final class In {
    func fill(_ out: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let r = read(0, out.baseAddress!, out.count)
            if r < 0 && errno == EINTR { continue }
            if r < 0 { die("read: \(String(cString: strerror(errno)))") }
            return r
        }
    }
}

// The checksums of bench/ipc/go/src/sdpipc/peers.go (wrapping u64 sums).
func strSum(_ s: String) -> UInt64 {
    // The bytes through withUTF8 (contiguous, no per-byte index checks):
    // iterating s.utf8 took 900 instructions per struct_a message.
    var s = s
    return s.withUTF8 { b in
        var r = UInt64(b.count)
        for c in b { r &+= UInt64(c) }
        return r
    }
}
func sum(_ m: leaderboard.StructA) -> UInt64 {
    strSum(m.name) &+ UInt64(bitPattern: m.birthDay) &+ strSum(m.phone) &+ UInt64(bitPattern: Int64(m.siblings))
        &+ m.money.bitPattern &+ (m.spouse ? 1 : 0)
}
/// Every 64th sample and the last, as the Go reader's `sumI16`.
func sum(_ m: arrays.I16Array) -> UInt64 {
    let v = m.samples
    var s = UInt64(v.count)
    for i in stride(from: 0, to: v.count, by: 64) { s &+= UInt64(bitPattern: Int64(v[i])) }
    if let last = v.last { s &+= UInt64(bitPattern: Int64(last)) }
    return s
}
func sum(_ m: ipc.SensorFrame) -> UInt64 {
    func f(_ v: Float) -> UInt64 { UInt64(v.bitPattern) }
    var s = m.seq &+ UInt64(bitPattern: m.timestampNs) &+ UInt64(bitPattern: m.receivedNs) &+ UInt64(m.deviceID)
    s &+= UInt64(m.sensorID) &+ UInt64(m.status) &+ UInt64(m.flags) &+ UInt64(m.quality) &+ UInt64(m.errorCount)
    s &+= f(m.accelX) &+ f(m.accelY) &+ f(m.accelZ) &+ f(m.gyroX) &+ f(m.gyroY) &+ f(m.gyroZ)
    s &+= f(m.magX) &+ f(m.magY) &+ f(m.magZ) &+ f(m.temperature) &+ f(m.humidity)
    s &+= m.pressure.bitPattern &+ m.altitude.bitPattern &+ m.latitude.bitPattern &+ m.longitude.bitPattern
    s &+= f(m.speed) &+ f(m.heading) &+ f(m.batteryV) &+ f(m.rssi) &+ f(m.snr)
    return s &+ strSum(m.label)
}

func start() { fputs("ipc-start \(monoNS())\n", stderr) }
func end(_ count: Int, _ s: UInt64, _ bytes: Int) {
    print("ipc-end \(monoNS()) \(count) \(s) \(bytes)")
}

let args = CommandLine.arguments
if args.count < 5 { die("usage: ipc-swift write|read|read-reuse KIND N DATA") }
let mode = args[1], kind = args[2]
guard let n = Int(args[3]) else { die("bad N") }
let path = args[4] + "/" + kind + ".sdpb"

do {
    switch (mode, kind) {
    case ("write", "struct_a"):
        let v = try leaderboard.StructA(serializedBytes: readFile(path))
        let out = Out()
        let w = leaderboard.MessageWriter(sink: out.put)
        start()
        for _ in 0..<n { try w.write(v) }
        out.flush()
    case ("write", "sensor"):
        let v = try ipc.SensorFrame(serializedBytes: readFile(path))
        let out = Out()
        let w = ipc.MessageWriter(sink: out.put)
        start()
        for _ in 0..<n { try w.write(v) }
        out.flush()
    case ("write", "i16_48k"):
        let v = try arrays.I16Array(serializedBytes: readFile(path))
        let out = Out()
        let w = arrays.MessageWriter(sink: out.put)
        start()
        for _ in 0..<n { try w.write(v) }
        out.flush()
    case ("read", "struct_a"):
        let input = In()
        let r = leaderboard.MessageReader(source: input.fill)
        var count = 0, s: UInt64 = 0
        while let m = try r.next() {
            guard case .structA(let v) = m else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    case ("read", "sensor"):
        let input = In()
        let r = ipc.MessageReader(source: input.fill)
        var count = 0, s: UInt64 = 0
        while let m = try r.next() {
            guard case .sensorFrame(let v) = m else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    case ("read", "i16_48k"):
        let input = In()
        let r = arrays.MessageReader(source: input.fill)
        var count = 0, s: UInt64 = 0
        while let m = try r.next() {
            guard case .i16Array(let v) = m else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    case ("read-reuse", "struct_a"):
        let input = In()
        let r = leaderboard.MessageReader(source: input.fill)
        var msg = leaderboard.AnyMessage.structA(leaderboard.StructA())
        var count = 0, s: UInt64 = 0
        while try r.next(into: &msg) {
            guard case .structA(let v) = msg else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    case ("read-reuse", "sensor"):
        let input = In()
        let r = ipc.MessageReader(source: input.fill)
        var msg = ipc.AnyMessage.sensorFrame(ipc.SensorFrame())
        var count = 0, s: UInt64 = 0
        while try r.next(into: &msg) {
            guard case .sensorFrame(let v) = msg else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    case ("read-reuse", "i16_48k"):
        let input = In()
        let r = arrays.MessageReader(source: input.fill)
        var msg = arrays.AnyMessage.i16Array(arrays.I16Array())
        var count = 0, s: UInt64 = 0
        while try r.next(into: &msg) {
            guard case .i16Array(let v) = msg else { die("message \(count) has another type") }
            s &+= sum(v)
            count += 1
        }
        end(count, s, r.offset)
    default:
        die("unknown mode or kind: \(mode) \(kind)")
    }
} catch {
    die("\(error)")
}
