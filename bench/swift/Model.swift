// Codable structs of the workload types, as a Swift user writes them today;
// Foundation's JSONEncoder/JSONDecoder and PropertyListEncoder (binary) are
// the peers. They are filled from the workload's JSON document.
import Foundation

struct AllPrimitives: Codable, Equatable {
    var flag: Bool
    var u8Val: UInt8
    var u16Val: UInt16
    var u32Val: UInt32
    var u64Val: UInt64
    var i8Val: Int8
    var i16Val: Int16
    var i32Val: Int32
    var i64Val: Int64
    var f32Val: Float
    var f64Val: Double
    var label: String
}

struct U32Array: Codable, Equatable { var values: [UInt32] }
struct I16Array: Codable, Equatable { var samples: [Int16] }
struct F32Array: Codable, Equatable { var values: [Float] }
struct ByteArray: Codable, Equatable { var data: Data }

struct SmallArrays: Codable, Equatable {
    var bytes: Data
    var words: [UInt32]
    var reals: [Double]
    var names: [String]
    var flags: [Bool]
}

struct Point: Codable, Equatable {
    var x: Float
    var y: Float
}

struct Rectangle: Codable, Equatable {
    var topLeft: Point
    var bottomRight: Point
    var color: UInt32
}

struct Scene: Codable, Equatable {
    var name: String
    var rects: [Rectangle]
    var origin: Point
}

enum DeviceKind: String, Codable, Equatable {
    case Input, Output, Duplex
}

struct DeviceParameter: Codable, Equatable {
    var id: UInt32
    var name: String
    var value: Float
}

struct DevicePlugin: Codable, Equatable {
    var name: String
    var bypassed: Bool
    var parameters: [DeviceParameter]
}

struct AudioDevice: Codable, Equatable {
    var id: UInt64
    var name: String
    var kind: DeviceKind
    var sampleRate: UInt32
    var channels: UInt16
    var plugins: [DevicePlugin]
}

struct Parameter: Codable, Equatable {
    var address: UInt64
    var displayName: String
    var identifier: String
    var unit: String
    var minValue: Float
    var maxValue: Float
    var defaultValue: Float
    var currentValue: Float
    var rawFlags: UInt32
    var isWritable: Bool
    var canRamp: Bool
}

struct Plugin: Codable, Equatable {
    var name: String
    var manufacturerId: String
    var componentType: String
    var componentSubtype: String
    var parameters: [Parameter]
}

struct PluginRegistry: Codable, Equatable {
    var plugins: [Plugin]
    var totalPluginCount: UInt32
    var totalParameterCount: UInt32
}

struct Reading: Codable, Equatable {
    var sensorId: UInt32
    var value: Double
    var calibration: Double?
    var note: String?
}

struct StructA: Codable, Equatable {
    var name: String
    var birthDay: Int64
    var phone: String
    var siblings: Int32
    var spouse: Bool
    var money: Double
}

struct Vector3: Codable, Equatable {
    var x: Float
    var y: Float
    var z: Float
}

struct Triangle: Codable, Equatable {
    var v0: Vector3
    var v1: Vector3
    var v2: Vector3
    var normal: Vector3
}

struct Mesh: Codable, Equatable { var triangles: [Triangle] }

struct Address: Codable, Equatable {
    var x0: UInt8
    var x1: UInt8
    var x2: UInt8
    var x3: UInt8
}

struct Log: Codable, Equatable {
    var address: Address
    var identity: String
    var userid: String
    var date: String
    var request: String
    var code: UInt16
    var size: UInt64
}

struct Logs: Codable, Equatable { var logs: [Log] }
