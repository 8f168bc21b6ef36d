//! The SDP Rust backend's benchmarks (feature `sdp`): the crates that
//! `sdp gen --lang rust` generated from conformance/schemas, measured on the
//! workload's .sdpb bytes. Owned decode and encode, reused-buffer encode,
//! decode into an existing value (`decode_into`), zero-copy views (decode +
//! read every field), messages.

use crate::harness::{Harness, Workload};
use std::hint::black_box;

fn s(x: &str) -> u64 {
    x.len() as u64
}

fn walk_primitives(r: primitives::AllPrimitivesRef) -> u64 {
    r.flag as u64 + r.u8_val as u64 + r.u16_val as u64 + r.u32_val as u64 + r.u64_val
        + r.i8_val as u64 + r.i16_val as u64 + r.i32_val as u64 + r.i64_val as u64
        + r.f32_val.to_bits() as u64 + r.f64_val.to_bits() + s(r.label)
}
fn walk_u32(r: arrays::U32ArrayRef) -> u64 {
    r.values.iter().map(|x| x as u64).sum()
}
fn walk_i16(r: arrays::I16ArrayRef) -> u64 {
    r.samples.iter().map(|x| x as u64).sum()
}
fn walk_f32(r: arrays::F32ArrayRef) -> u64 {
    r.values.iter().map(|x| x.to_bits() as u64).sum()
}
fn walk_bytes(r: arrays::ByteArrayRef) -> u64 {
    r.data.iter().map(|&x| x as u64).sum()
}
fn walk_small(r: arrays::SmallArraysRef) -> u64 {
    r.bytes.iter().map(|&x| x as u64).sum::<u64>()
        + r.words.iter().map(|x| x as u64).sum::<u64>()
        + r.reals.iter().map(|x| x.to_bits()).sum::<u64>()
        + r.names.iter().map(s).sum::<u64>()
        + r.flags.iter().map(|x| x as u64).sum::<u64>()
}
fn walk_point(p: nested::Point) -> u64 {
    p.x.to_bits() as u64 + p.y.to_bits() as u64
}
fn walk_scene(r: nested::SceneRef) -> u64 {
    s(r.name)
        + walk_point(r.origin)
        + r.rects.iter().map(|x| walk_point(x.top_left) + walk_point(x.bottom_right) + x.color as u64).sum::<u64>()
}
fn walk_device(r: nested::AudioDeviceRef) -> u64 {
    let mut t = r.id + s(r.name) + r.kind as u64 + r.sample_rate as u64 + r.channels as u64;
    for p in r.plugins.iter() {
        t += s(p.name) + p.bypassed as u64;
        for q in p.parameters.iter() {
            t += q.id as u64 + s(q.name) + q.value.to_bits() as u64;
        }
    }
    t
}
fn walk_registry(r: plugins::PluginRegistryRef) -> u64 {
    let mut t = r.total_plugin_count as u64 + r.total_parameter_count as u64;
    for p in r.plugins.iter() {
        t += s(p.name) + s(p.manufacturer_id) + s(p.component_type) + s(p.component_subtype);
        for q in p.parameters.iter() {
            t += q.address + s(q.display_name) + s(q.identifier) + s(q.unit)
                + (q.min_value.to_bits() as u64)
                + (q.max_value.to_bits() as u64)
                + (q.default_value.to_bits() as u64)
                + (q.current_value.to_bits() as u64)
                + q.raw_flags as u64 + q.is_writable as u64 + q.can_ramp as u64;
        }
    }
    t
}
fn walk_reading(r: optionals::ReadingRef) -> u64 {
    r.sensor_id as u64 + r.value.to_bits() + r.calibration.map_or(0, f64::to_bits) + r.note.map_or(0, s)
}

fn walk_struct_a(r: leaderboard::StructARef) -> u64 {
    s(r.name) + r.birth_day as u64 + s(r.phone) + r.siblings as u64 + r.spouse as u64 + r.money.to_bits()
}
fn walk_vector(v: leaderboard::Vector3) -> u64 {
    v.x.to_bits() as u64 + v.y.to_bits() as u64 + v.z.to_bits() as u64
}
fn walk_mesh(r: leaderboard::MeshRef) -> u64 {
    r.triangles.iter().map(|t| walk_vector(t.v0) + walk_vector(t.v1) + walk_vector(t.v2) + walk_vector(t.normal)).sum()
}
fn walk_logs(r: leaderboard::LogsRef) -> u64 {
    let mut t = 0;
    for l in r.logs.iter() {
        let a = l.address;
        t += a.x0 as u64 + a.x1 as u64 + a.x2 as u64 + a.x3 as u64
            + s(l.identity) + s(l.userid) + s(l.date) + s(l.request) + l.code as u64 + l.size;
    }
    t
}

macro_rules! sdp_bench {
    ($h:expr, $w:expr, $krate:ident, $t:ident, $view:ident, $walk:ident) => {{
        let (h, w): (&mut Harness, &Workload) = ($h, $w);
        match $krate::$t::decode(&w.sdpb) {
            Err(e) => h.gap("sdp", &w.name, &format!("decoding the .sdpb: {e}")),
            Ok(v) => {
                let enc = v.encode_to_vec();
                let msg = v.encode_message();
                if enc != w.sdpb {
                    h.gap("sdp", &w.name, "self-check failed: re-encoding differs from the .sdpb");
                } else if $krate::decode_message(&msg).is_err() {
                    h.gap("sdp", &w.name, "self-check failed: the message does not dispatch");
                } else {
                    let n = enc.len();
                    let data = &w.sdpb[..];
                    let mut buf = Vec::with_capacity(n);
                    h.run("sdp", &w.name, "encode", n, || {
                        black_box(black_box(&v).encode_to_vec());
                    });
                    h.run("sdp", &w.name, "encode_reuse", n, || {
                        buf.clear();
                        black_box(&v).encode(&mut buf);
                        black_box(&buf);
                    });
                    h.run("sdp", &w.name, "decode", n, || {
                        black_box($krate::$t::decode(black_box(data)).unwrap());
                    });
                    // Decoding into the value the previous iteration
                    // decoded: its strings, vectors and boxes are reused.
                    let mut reused = $krate::$t::decode(data).unwrap();
                    h.run("sdp", &w.name, "decode_reuse", n, || {
                        reused.decode_into(black_box(data)).unwrap();
                        black_box(&reused);
                    });
                    h.run("sdp", &w.name, "decode_view", n, || {
                        let r = $krate::$view::decode(black_box(data)).unwrap();
                        black_box($walk(r));
                    });
                    h.run("sdp", &w.name, "roundtrip", n, || {
                        let b = black_box(&v).encode_to_vec();
                        black_box($krate::$t::decode(&b).unwrap());
                    });
                    h.run("sdp", &w.name, "msg_encode", msg.len(), || {
                        black_box(black_box(&v).encode_message());
                    });
                    h.run("sdp", &w.name, "msg_decode", msg.len(), || {
                        black_box($krate::decode_message(black_box(&msg[..])).unwrap());
                    });
                }
            }
        }
    }};
}

pub fn bench(h: &mut Harness, w: &Workload) {
    match w.ty.as_str() {
        "AllPrimitives" => sdp_bench!(h, w, primitives, AllPrimitives, AllPrimitivesRef, walk_primitives),
        "U32Array" => sdp_bench!(h, w, arrays, U32Array, U32ArrayRef, walk_u32),
        "I16Array" => sdp_bench!(h, w, arrays, I16Array, I16ArrayRef, walk_i16),
        "F32Array" => sdp_bench!(h, w, arrays, F32Array, F32ArrayRef, walk_f32),
        "ByteArray" => sdp_bench!(h, w, arrays, ByteArray, ByteArrayRef, walk_bytes),
        "SmallArrays" => sdp_bench!(h, w, arrays, SmallArrays, SmallArraysRef, walk_small),
        "Scene" => sdp_bench!(h, w, nested, Scene, SceneRef, walk_scene),
        "AudioDevice" => sdp_bench!(h, w, nested, AudioDevice, AudioDeviceRef, walk_device),
        "PluginRegistry" => sdp_bench!(h, w, plugins, PluginRegistry, PluginRegistryRef, walk_registry),
        "Reading" => sdp_bench!(h, w, optionals, Reading, ReadingRef, walk_reading),
        "StructA" => sdp_bench!(h, w, leaderboard, StructA, StructARef, walk_struct_a),
        "Mesh" => sdp_bench!(h, w, leaderboard, Mesh, MeshRef, walk_mesh),
        "Logs" => sdp_bench!(h, w, leaderboard, Logs, LogsRef, walk_logs),
        t => h.gap("sdp", &w.name, &format!("no generated type for {t}")),
    }
}
