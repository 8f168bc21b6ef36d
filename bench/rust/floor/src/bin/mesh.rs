//! Floors for the Rust backend's mesh numbers (issue #15: mesh encode and
//! decode within 1.3x of memcpy): the generated encode into a kept buffer
//! and decode into a kept value, next to one-copy encode and decode of the
//! same []Triangle and a plain copy of the same bytes, in one process.
//!
//!   bench/rust/floor/run.sh mesh       CPU time per operation
//!
//! Modes: encode (generated `encode` into a cleared, kept buffer), floorenc
//! (the count and one copy of the triangles' memory), decode (generated
//! `decode_into` a kept Mesh), floordec (count check and one copy into the
//! kept vector), memcpy (the wire bytes copied into a kept buffer).
//!
//! The floors rely on Triangle's memory being its wire bytes: twelve f32 in
//! field order with no padding (checked with offset_of! below; Rust's default
//! layout does not promise it, so a generated bulk path needs #[repr(C)]) on
//! a little-endian host, where every bit pattern is a valid f32.

use leaderboard::{Mesh, Triangle, Vector3};
use std::hint::black_box;
use std::mem::{offset_of, size_of};

fn layout_is_wire() -> bool {
    cfg!(target_endian = "little")
        && size_of::<Vector3>() == 12
        && offset_of!(Vector3, y) == 4
        && offset_of!(Vector3, z) == 8
        && size_of::<Triangle>() == 48
        && offset_of!(Triangle, v1) == 12
        && offset_of!(Triangle, v2) == 24
        && offset_of!(Triangle, normal) == 36
}

/// Appends the mesh's encoding with one copy of the triangles.
fn floor_encode(m: &Mesh, out: &mut Vec<u8>) {
    let t = &m.triangles;
    out.reserve(4 + t.len() * 48);
    out.extend_from_slice(&(t.len() as u32).to_le_bytes());
    // SAFETY: layout_is_wire(): the triangles are t.len() * 48 initialized bytes.
    out.extend_from_slice(unsafe { std::slice::from_raw_parts(t.as_ptr().cast::<u8>(), t.len() * 48) });
}

/// Decodes a mesh into m with a count check and one copy; false when the
/// bytes are not exactly one Mesh.
fn floor_decode(b: &[u8], m: &mut Mesh) -> bool {
    let Some((count, rest)) = b.split_first_chunk::<4>() else { return false };
    let n = u32::from_le_bytes(*count) as usize;
    if rest.len() != n * 48 {
        return false;
    }
    let t = &mut m.triangles;
    t.clear();
    t.reserve(n);
    // SAFETY: layout_is_wire(): n triangles are n * 48 bytes, any of which
    // is a valid f32; the capacity holds n.
    unsafe {
        std::ptr::copy_nonoverlapping(rest.as_ptr(), t.as_mut_ptr().cast::<u8>(), n * 48);
        t.set_len(n);
    }
    true
}

#[inline(never)]
fn run(mode: &str, data: &[u8], v: &Mesh, iters: usize) -> u64 {
    let mut t = 0u64;
    let mut buf: Vec<u8> = Vec::with_capacity(data.len());
    let mut kept = Mesh::decode(data).unwrap();
    for _ in 0..iters {
        match mode {
            "encode" => {
                buf.clear();
                black_box(v).encode(&mut buf);
                t += black_box(&buf).len() as u64;
            }
            "floorenc" => {
                buf.clear();
                floor_encode(black_box(v), &mut buf);
                t += black_box(&buf).len() as u64;
            }
            "decode" => {
                kept.decode_into(black_box(data)).unwrap();
                t += black_box(&kept).triangles.len() as u64;
            }
            "floordec" => {
                assert!(floor_decode(black_box(data), &mut kept));
                t += black_box(&kept).triangles.len() as u64;
            }
            "memcpy" => {
                buf.clear();
                buf.extend_from_slice(black_box(data));
                t += black_box(&buf).len() as u64;
            }
            _ => panic!("mode"),
        }
    }
    t
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let data = std::fs::read(a.get(3).map_or("bench/build/data/mesh.sdpb", |s| s.as_str())).unwrap();
    assert!(layout_is_wire(), "Triangle's memory is not its wire encoding on this host");
    let v = Mesh::decode(&data).unwrap();
    let mut b = Vec::new();
    floor_encode(&v, &mut b);
    assert_eq!(b, data);
    let mut m = Mesh::default();
    assert!(floor_decode(&data, &mut m) && m == v);
    let iters: usize = a[2].parse().unwrap();
    let t0 = std::time::Instant::now();
    let x = run(&a[1], &data, &v, iters);
    let el = t0.elapsed();
    eprintln!("mesh {} {} iters: {:.1} us/iter (x={})", a[1], iters, el.as_secs_f64() * 1e6 / iters as f64, x);
}
