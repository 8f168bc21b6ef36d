//! The peers' Rust types for the workload types of conformance/schemas:
//! `plain` (serde derive, exact integer widths) for bincode, `pbm`
//! (prost derive, the messages of bench/peers/bench.proto) for prost. Both
//! are filled from the workload's JSON document with serde_json.

use serde::{Deserialize, Deserializer, Serializer};

/// Base64 (standard alphabet, padded), as the JSON mapping writes `[]u8`.
fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    fn val(c: u8) -> Result<u32, String> {
        Ok(match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(format!("bad base64 byte {c}")),
        })
    }
    let b = s.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(b.len() * 3 / 4);
    for chunk in b.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= val(c)? << (18 - 6 * i);
        }
        let n = chunk.len() * 6 / 8;
        for i in 0..n {
            out.push((acc >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

/// `[]u8` fields: base64 in JSON, a byte string in bincode (what
/// serde_bytes does; a plain Vec<u8> would go byte by byte).
pub mod bytes_field {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Vec<u8>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            base64_decode(&s).map_err(serde::de::Error::custom)
        } else {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Vec<u8>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                    Ok(v.to_vec())
                }
                fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                    Ok(v)
                }
            }
            d.deserialize_byte_buf(V)
        }
    }
}

pub mod plain {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct AllPrimitives {
        pub flag: bool,
        pub u8_val: u8,
        pub u16_val: u16,
        pub u32_val: u32,
        pub u64_val: u64,
        pub i8_val: i8,
        pub i16_val: i16,
        pub i32_val: i32,
        pub i64_val: i64,
        pub f32_val: f32,
        pub f64_val: f64,
        pub label: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct U32Array {
        pub values: Vec<u32>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct I16Array {
        pub samples: Vec<i16>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct F32Array {
        pub values: Vec<f32>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct ByteArray {
        #[serde(with = "super::bytes_field")]
        pub data: Vec<u8>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct SmallArrays {
        #[serde(with = "super::bytes_field")]
        pub bytes: Vec<u8>,
        pub words: Vec<u32>,
        pub reals: Vec<f64>,
        pub names: Vec<String>,
        pub flags: Vec<bool>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Point {
        pub x: f32,
        pub y: f32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Rectangle {
        pub top_left: Point,
        pub bottom_right: Point,
        pub color: u32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Scene {
        pub name: String,
        pub rects: Vec<Rectangle>,
        pub origin: Point,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
    pub enum DeviceKind {
        Input,
        Output,
        Duplex,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct DeviceParameter {
        pub id: u32,
        pub name: String,
        pub value: f32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct DevicePlugin {
        pub name: String,
        pub bypassed: bool,
        pub parameters: Vec<DeviceParameter>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct AudioDevice {
        pub id: u64,
        pub name: String,
        pub kind: DeviceKind,
        pub sample_rate: u32,
        pub channels: u16,
        pub plugins: Vec<DevicePlugin>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Parameter {
        pub address: u64,
        pub display_name: String,
        pub identifier: String,
        pub unit: String,
        pub min_value: f32,
        pub max_value: f32,
        pub default_value: f32,
        pub current_value: f32,
        pub raw_flags: u32,
        pub is_writable: bool,
        pub can_ramp: bool,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Plugin {
        pub name: String,
        pub manufacturer_id: String,
        pub component_type: String,
        pub component_subtype: String,
        pub parameters: Vec<Parameter>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct PluginRegistry {
        pub plugins: Vec<Plugin>,
        pub total_plugin_count: u32,
        pub total_parameter_count: u32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Reading {
        pub sensor_id: u32,
        pub value: f64,
        pub calibration: Option<f64>,
        pub note: Option<String>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct StructA {
        pub name: String,
        pub birth_day: i64,
        pub phone: String,
        pub siblings: i32,
        pub spouse: bool,
        pub money: f64,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
    pub struct Vector3 {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
    pub struct Triangle {
        pub v0: Vector3,
        pub v1: Vector3,
        pub v2: Vector3,
        pub normal: Vector3,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Mesh {
        pub triangles: Vec<Triangle>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
    pub struct Address {
        pub x0: u8,
        pub x1: u8,
        pub x2: u8,
        pub x3: u8,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Log {
        pub address: Address,
        pub identity: String,
        pub userid: String,
        pub date: String,
        pub request: String,
        pub code: u16,
        pub size: u64,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Logs {
        pub logs: Vec<Log>,
    }
}

/// The messages of bench/peers/bench.proto, as prost-build would generate
/// them (written with prost's derive macro: Debian packages prost and
/// prost-derive; prost-build's dependency tree is not needed for this).
pub mod pbm {
    use serde::{Deserialize, Deserializer};

    fn b64<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        super::base64_decode(&s).map_err(serde::de::Error::custom)
    }

    fn kind<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "Input" => Ok(DeviceKind::Input as i32),
            "Output" => Ok(DeviceKind::Output as i32),
            "Duplex" => Ok(DeviceKind::Duplex as i32),
            _ => Err(serde::de::Error::custom(format!("unknown DeviceKind {s}"))),
        }
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct AllPrimitives {
        #[prost(bool, tag = "1")]
        pub flag: bool,
        #[prost(uint32, tag = "2")]
        pub u8_val: u32,
        #[prost(uint32, tag = "3")]
        pub u16_val: u32,
        #[prost(uint32, tag = "4")]
        pub u32_val: u32,
        #[prost(uint64, tag = "5")]
        pub u64_val: u64,
        #[prost(int32, tag = "6")]
        pub i8_val: i32,
        #[prost(int32, tag = "7")]
        pub i16_val: i32,
        #[prost(int32, tag = "8")]
        pub i32_val: i32,
        #[prost(int64, tag = "9")]
        pub i64_val: i64,
        #[prost(float, tag = "10")]
        pub f32_val: f32,
        #[prost(double, tag = "11")]
        pub f64_val: f64,
        #[prost(string, tag = "12")]
        pub label: String,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct U32Array {
        #[prost(uint32, repeated, tag = "1")]
        pub values: Vec<u32>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct I16Array {
        #[prost(sint32, repeated, tag = "1")]
        pub samples: Vec<i32>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct F32Array {
        #[prost(float, repeated, tag = "1")]
        pub values: Vec<f32>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct ByteArray {
        #[prost(bytes = "vec", tag = "1")]
        #[serde(deserialize_with = "b64")]
        pub data: Vec<u8>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct SmallArrays {
        #[prost(bytes = "vec", tag = "1")]
        #[serde(deserialize_with = "b64")]
        pub bytes: Vec<u8>,
        #[prost(uint32, repeated, tag = "2")]
        pub words: Vec<u32>,
        #[prost(double, repeated, tag = "3")]
        pub reals: Vec<f64>,
        #[prost(string, repeated, tag = "4")]
        pub names: Vec<String>,
        #[prost(bool, repeated, tag = "5")]
        pub flags: Vec<bool>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Point {
        #[prost(float, tag = "1")]
        pub x: f32,
        #[prost(float, tag = "2")]
        pub y: f32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Rectangle {
        #[prost(message, optional, tag = "1")]
        pub top_left: Option<Point>,
        #[prost(message, optional, tag = "2")]
        pub bottom_right: Option<Point>,
        #[prost(uint32, tag = "3")]
        pub color: u32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Scene {
        #[prost(string, tag = "1")]
        pub name: String,
        #[prost(message, repeated, tag = "2")]
        pub rects: Vec<Rectangle>,
        #[prost(message, optional, tag = "3")]
        pub origin: Option<Point>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum DeviceKind {
        Input = 0,
        Output = 1,
        Duplex = 2,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct DeviceParameter {
        #[prost(uint32, tag = "1")]
        pub id: u32,
        #[prost(string, tag = "2")]
        pub name: String,
        #[prost(float, tag = "3")]
        pub value: f32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct DevicePlugin {
        #[prost(string, tag = "1")]
        pub name: String,
        #[prost(bool, tag = "2")]
        pub bypassed: bool,
        #[prost(message, repeated, tag = "3")]
        pub parameters: Vec<DeviceParameter>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct AudioDevice {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(string, tag = "2")]
        pub name: String,
        #[prost(enumeration = "DeviceKind", tag = "3")]
        #[serde(deserialize_with = "kind")]
        pub kind: i32,
        #[prost(uint32, tag = "4")]
        pub sample_rate: u32,
        #[prost(uint32, tag = "5")]
        pub channels: u32,
        #[prost(message, repeated, tag = "6")]
        pub plugins: Vec<DevicePlugin>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Parameter {
        #[prost(uint64, tag = "1")]
        pub address: u64,
        #[prost(string, tag = "2")]
        pub display_name: String,
        #[prost(string, tag = "3")]
        pub identifier: String,
        #[prost(string, tag = "4")]
        pub unit: String,
        #[prost(float, tag = "5")]
        pub min_value: f32,
        #[prost(float, tag = "6")]
        pub max_value: f32,
        #[prost(float, tag = "7")]
        pub default_value: f32,
        #[prost(float, tag = "8")]
        pub current_value: f32,
        #[prost(uint32, tag = "9")]
        pub raw_flags: u32,
        #[prost(bool, tag = "10")]
        pub is_writable: bool,
        #[prost(bool, tag = "11")]
        pub can_ramp: bool,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Plugin {
        #[prost(string, tag = "1")]
        pub name: String,
        #[prost(string, tag = "2")]
        pub manufacturer_id: String,
        #[prost(string, tag = "3")]
        pub component_type: String,
        #[prost(string, tag = "4")]
        pub component_subtype: String,
        #[prost(message, repeated, tag = "5")]
        pub parameters: Vec<Parameter>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct PluginRegistry {
        #[prost(message, repeated, tag = "1")]
        pub plugins: Vec<Plugin>,
        #[prost(uint32, tag = "2")]
        pub total_plugin_count: u32,
        #[prost(uint32, tag = "3")]
        pub total_parameter_count: u32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Reading {
        #[prost(uint32, tag = "1")]
        pub sensor_id: u32,
        #[prost(double, tag = "2")]
        pub value: f64,
        #[prost(double, optional, tag = "3")]
        pub calibration: Option<f64>,
        #[prost(string, optional, tag = "4")]
        pub note: Option<String>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct StructA {
        #[prost(string, tag = "1")]
        pub name: String,
        #[prost(int64, tag = "2")]
        pub birth_day: i64,
        #[prost(string, tag = "3")]
        pub phone: String,
        #[prost(int32, tag = "4")]
        pub siblings: i32,
        #[prost(bool, tag = "5")]
        pub spouse: bool,
        #[prost(double, tag = "6")]
        pub money: f64,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Vector3 {
        #[prost(float, tag = "1")]
        pub x: f32,
        #[prost(float, tag = "2")]
        pub y: f32,
        #[prost(float, tag = "3")]
        pub z: f32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Triangle {
        #[prost(message, optional, tag = "1")]
        pub v0: Option<Vector3>,
        #[prost(message, optional, tag = "2")]
        pub v1: Option<Vector3>,
        #[prost(message, optional, tag = "3")]
        pub v2: Option<Vector3>,
        #[prost(message, optional, tag = "4")]
        pub normal: Option<Vector3>,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Mesh {
        #[prost(message, repeated, tag = "1")]
        pub triangles: Vec<Triangle>,
    }

    /// The address bytes as uint32 fields (protobuf has no 8-bit integer),
    /// as in rust_serialization_benchmark's prost schema.
    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Address {
        #[prost(uint32, tag = "1")]
        pub x0: u32,
        #[prost(uint32, tag = "2")]
        pub x1: u32,
        #[prost(uint32, tag = "3")]
        pub x2: u32,
        #[prost(uint32, tag = "4")]
        pub x3: u32,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Log {
        #[prost(message, optional, tag = "1")]
        pub address: Option<Address>,
        #[prost(string, tag = "2")]
        pub identity: String,
        #[prost(string, tag = "3")]
        pub userid: String,
        #[prost(string, tag = "4")]
        pub date: String,
        #[prost(string, tag = "5")]
        pub request: String,
        #[prost(uint32, tag = "6")]
        pub code: u32,
        #[prost(uint64, tag = "7")]
        pub size: u64,
    }

    #[derive(Clone, PartialEq, prost::Message, Deserialize)]
    pub struct Logs {
        #[prost(message, repeated, tag = "1")]
        pub logs: Vec<Log>,
    }
}
