// Swift glue to the shared C measurement loop (bench/c/harness.c): the same
// timing method and malloc counting as the C and C++ harnesses.
import BenchHarness
import Foundation

final class Box {
    let f: () -> Void
    init(_ f: @escaping () -> Void) { self.f = f }
}

/// Times f with the shared loop; the iterations run here, in Swift (see
/// bench_run_batch), as the Rust and Go harnesses loop in their own language.
func run(_ impl: String, _ workload: String, _ op: String, _ bytes: Int, _ f: @escaping () -> Void) {
    let box = Box(f)
    let ctx = Unmanaged.passRetained(box).toOpaque()
    bench_run_batch(impl, workload, op, bytes, { p, n in
        let f = Unmanaged<Box>.fromOpaque(p!).takeUnretainedValue().f
        for _ in 0..<n {
            f()
        }
    }, ctx)
    Unmanaged<Box>.fromOpaque(ctx).release()
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
