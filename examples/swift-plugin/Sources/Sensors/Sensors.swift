// The Sensors module: Batch, Reading, Unit and their encoders and decoders
// are generated at build time from sensors.sdp by the SDPGenerator plugin.
// Hand-written additions go in files like this one (SwiftPM also needs at
// least one Swift source file in the target to build it).

extension Batch {
    /// The readings in one unit.
    public func readings(in unit: Unit) -> [Reading] {
        readings.filter { $0.unit == unit }
    }
}
