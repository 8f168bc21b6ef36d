// Swift glue to the shared C measurement loop (bench/c/harness.c): the same
// timing method and malloc counting as the C and C++ harnesses.
import BenchHarness
import Foundation

final class Box<F> {
    let f: F
    init(_ f: F) { self.f = f }
}

/// Times batch, which performs the operation n times, with the shared
/// measurement loop (bench_run_batch): the iterations run here, in Swift, as
/// the Rust and Go harnesses loop in their own language.
func runBatch(_ impl: String, _ workload: String, _ op: String, _ bytes: Int, _ batch: @escaping (Int) -> Void) {
    let ctx = Unmanaged.passRetained(Box(batch)).toOpaque()
    bench_run_batch(impl, workload, op, bytes, { p, n in
        Unmanaged<Box<(Int) -> Void>>.fromOpaque(p!).takeUnretainedValue().f(n)
    }, ctx)
    Unmanaged<Box<(Int) -> Void>>.fromOpaque(ctx).release()
}

/// Times f, one call per operation.
func run(_ impl: String, _ workload: String, _ op: String, _ bytes: Int, _ f: @escaping () -> Void) {
    let ctx = Unmanaged.passRetained(Box(f)).toOpaque()
    bench_run_batch(impl, workload, op, bytes, { p, n in
        let f = Unmanaged<Box<() -> Void>>.fromOpaque(p!).takeUnretainedValue().f
        for _ in 0..<n {
            f()
        }
    }, ctx)
    Unmanaged<Box<() -> Void>>.fromOpaque(ctx).release()
}

/// Times f on a buffer kept between operations. The buffer is moved into a
/// local for each batch, so the loop passes it inout without the dynamic
/// exclusivity checks that a variable captured by an escaping closure gets
/// (Rust's borrow checker makes the same guarantee at compile time).
func runReusing(_ impl: String, _ workload: String, _ op: String, _ bytes: Int, _ buffer: [UInt8],
                _ f: @escaping (inout [UInt8]) -> Void) {
    final class Holder {
        var buf: [UInt8]
        init(_ b: [UInt8]) { buf = b }
    }
    let holder = Holder(buffer)
    runBatch(impl, workload, op, bytes) { n in
        var buf = [UInt8]()
        swap(&buf, &holder.buf)
        for _ in 0..<n {
            f(&buf)
        }
        swap(&buf, &holder.buf)
    }
}

/// A value kept between batches.
final class ValueHolder<T> {
    var value: T?
    init(_ v: T) { value = v }
}

/// Times f on a value kept between operations (decoding into an existing
/// value), made by make and referenced only by the holder, moved into a
/// local for each batch as runReusing does.
func runReusingValue<T>(_ impl: String, _ workload: String, _ op: String, _ bytes: Int, _ make: () -> T,
                        _ f: @escaping (inout T) -> Void) {
    let holder = ValueHolder(make())
    runBatch(impl, workload, op, bytes) { n in
        var v = holder.value.take()!
        for _ in 0..<n {
            f(&v)
        }
        holder.value = v
    }
}

/// The implementations --impls names (empty: all). The shared loop skips
/// the others' timings; wanted lets a peer skip its setup and self-checks
/// too (the paired runs time only SDP and the floor).
let timedImpls: [String] = {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: "--impls"), i + 1 < args.count else { return [] }
    return args[i + 1].split(separator: ",").map(String.init)
}()

func wanted(_ impl: String) -> Bool {
    timedImpls.isEmpty || timedImpls.contains(impl)
}

func gap(_ impl: String, _ workload: String?, _ reason: String) {
    bench_gap(impl, workload, reason)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ x: T) {
    withExtendedLifetime(x) {}
}

struct Workload {
    let name: String
    let type: String
    let kind: String
    let json: Data
    let sdpb: Data
}

func loadWorkloads() -> [Workload] {
    var ws: [Workload] = []
    for i in 0..<bench_count() {
        let w = bench_get(i)!.pointee
        func str<T>(_ t: T) -> String {
            withUnsafeBytes(of: t) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        }
        ws.append(Workload(
            name: str(w.name), type: str(w.type), kind: str(w.kind),
            json: Data(bytes: w.json, count: w.json_len),
            sdpb: Data(bytes: w.sdpb, count: w.sdpb_len)))
    }
    return ws
}
