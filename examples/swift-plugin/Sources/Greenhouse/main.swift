// Encodes a batch of sensor readings with the Sensors module, which the
// SDPGenerator plugin generated from Sources/Sensors/sensors.sdp during
// this build, and decodes it back.

import Sensors

let batch = Batch(
    device: "greenhouse-1",
    readings: [
        Reading(sensor: "air", unit: .celsius, value: 21.5, takenAt: 1_700_000_000),
        Reading(sensor: "soil", unit: .percent, value: 43, takenAt: 1_700_000_001),
    ],
    battery: 0.87)

let bytes = batch.serializedBytes()
let back = try Batch(serializedBytes: bytes)
guard back == batch else {
    fatalError("round trip failed")
}
print("\(back.device) sent \(back.readings.count) readings in \(bytes.count) bytes; round trip ok")

do {
    _ = try Batch(serializedBytes: Array(bytes.dropLast(3)))
} catch {
    print("truncated input: \(error)")
}
print("readings in percent: \(back.readings(in: .percent).count)")
