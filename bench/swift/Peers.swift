// Foundation's Codable coders on one workload.
import BenchHarness
import Foundation

func benchCodable<T: Codable & Equatable>(_ t: T.Type, _ w: Workload) {
    guard wanted("json") || wanted("plist") else { return }
    if bench_quick() != 0 && w.sdpb.count > 1_000_000 {
        // Seconds per operation: too slow for the quick (CI) mode.
        gap("json", w.name, "skipped in quick mode: Foundation's coders take seconds per operation here")
        gap("plist", w.name, "skipped in quick mode: Foundation's coders take seconds per operation here")
        return
    }
    let fill = JSONDecoder()
    fill.keyDecodingStrategy = .convertFromSnakeCase
    let value: T
    do {
        value = try fill.decode(T.self, from: w.json)
    } catch {
        gap("json", w.name, "cannot read the JSON document: \(error)")
        gap("plist", w.name, "cannot read the JSON document: \(error)")
        return
    }

    let je = JSONEncoder()
    let jd = JSONDecoder()
    if let enc = try? je.encode(value), (try? jd.decode(T.self, from: enc)) == value {
        run("json", w.name, "encode", enc.count) { blackHole(try! je.encode(value)) }
        run("json", w.name, "decode", enc.count) { blackHole(try! jd.decode(T.self, from: enc)) }
        run("json", w.name, "roundtrip", enc.count) {
            let b = try! je.encode(value)
            blackHole(try! jd.decode(T.self, from: b))
        }
    } else {
        gap("json", w.name, "self-check failed: decode(encode(x)) differs")
    }

    let pe = PropertyListEncoder()
    pe.outputFormat = .binary
    let pd = PropertyListDecoder()
    if let enc = try? pe.encode(value), (try? pd.decode(T.self, from: enc)) == value {
        run("plist", w.name, "encode", enc.count) { blackHole(try! pe.encode(value)) }
        run("plist", w.name, "decode", enc.count) { blackHole(try! pd.decode(T.self, from: enc)) }
        run("plist", w.name, "roundtrip", enc.count) {
            let b = try! pe.encode(value)
            blackHole(try! pd.decode(T.self, from: b))
        }
    } else {
        gap("plist", w.name, "self-check failed: decode(encode(x)) differs")
    }
}
