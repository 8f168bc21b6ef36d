# Cap'n Proto schema of the benchmark workloads (the types of
# conformance/schemas/*.sdp). Optionals become unions, as Cap'n Proto has no
# optional scalars.
@0x863477f22e189a3c;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("cp");

struct AllPrimitives {
  flag @0 :Bool;
  u8Val @1 :UInt8;
  u16Val @2 :UInt16;
  u32Val @3 :UInt32;
  u64Val @4 :UInt64;
  i8Val @5 :Int8;
  i16Val @6 :Int16;
  i32Val @7 :Int32;
  i64Val @8 :Int64;
  f32Val @9 :Float32;
  f64Val @10 :Float64;
  label @11 :Text;
}

struct U32Array { values @0 :List(UInt32); }
struct I16Array { samples @0 :List(Int16); }
struct F32Array { values @0 :List(Float32); }
struct ByteArray { data @0 :Data; }

struct SmallArrays {
  bytes @0 :Data;
  words @1 :List(UInt32);
  reals @2 :List(Float64);
  names @3 :List(Text);
  flags @4 :List(Bool);
}

struct Point {
  x @0 :Float32;
  y @1 :Float32;
}

struct Rectangle {
  topLeft @0 :Point;
  bottomRight @1 :Point;
  color @2 :UInt32;
}

struct Scene {
  name @0 :Text;
  rects @1 :List(Rectangle);
  origin @2 :Point;
}

enum DeviceKind {
  input @0;
  output @1;
  duplex @2;
}

struct DeviceParameter {
  id @0 :UInt32;
  name @1 :Text;
  value @2 :Float32;
}

struct DevicePlugin {
  name @0 :Text;
  bypassed @1 :Bool;
  parameters @2 :List(DeviceParameter);
}

struct AudioDevice {
  id @0 :UInt64;
  name @1 :Text;
  kind @2 :DeviceKind;
  sampleRate @3 :UInt32;
  channels @4 :UInt16;
  plugins @5 :List(DevicePlugin);
}

struct Parameter {
  address @0 :UInt64;
  displayName @1 :Text;
  identifier @2 :Text;
  unit @3 :Text;
  minValue @4 :Float32;
  maxValue @5 :Float32;
  defaultValue @6 :Float32;
  currentValue @7 :Float32;
  rawFlags @8 :UInt32;
  isWritable @9 :Bool;
  canRamp @10 :Bool;
}

struct Plugin {
  name @0 :Text;
  manufacturerId @1 :Text;
  componentType @2 :Text;
  componentSubtype @3 :Text;
  parameters @4 :List(Parameter);
}

struct PluginRegistry {
  plugins @0 :List(Plugin);
  totalPluginCount @1 :UInt32;
  totalParameterCount @2 :UInt32;
}

struct Reading {
  sensorId @0 :UInt32;
  value @1 :Float64;
  calibration :union {
    noCalibration @2 :Void;
    calibrationValue @3 :Float64;
  }
  note :union {
    noNote @4 :Void;
    noteValue @5 :Text;
  }
}

# leaderboard.sdp, as rust_serialization_benchmark's Cap'n Proto schemas
# write mesh and log.
struct StructA {
  name @0 :Text;
  birthDay @1 :Int64;
  phone @2 :Text;
  siblings @3 :Int32;
  spouse @4 :Bool;
  money @5 :Float64;
}

struct Vector3 {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
}

struct Triangle {
  v0 @0 :Vector3;
  v1 @1 :Vector3;
  v2 @2 :Vector3;
  normal @3 :Vector3;
}

struct Mesh { triangles @0 :List(Triangle); }

struct Address {
  x0 @0 :UInt8;
  x1 @1 :UInt8;
  x2 @2 :UInt8;
  x3 @3 :UInt8;
}

struct Log {
  address @0 :Address;
  identity @1 :Text;
  userid @2 :Text;
  date @3 :Text;
  request @4 :Text;
  code @5 :UInt16;
  size @6 :UInt64;
}

struct Logs { logs @0 :List(Log); }
