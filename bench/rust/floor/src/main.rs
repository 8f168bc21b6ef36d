//! Floors for the Rust backend's plugin-registry numbers (docs/rust.md,
//! Performance): the tightest code we could write by hand for this one
//! schema, next to the generated code, on the same data in one process.
//!
//!   bench/rust/floor/run.sh            CPU time per operation
//!   bench/rust/floor/run.sh callgrind  instructions per operation
//!
//! Modes: encode (generated encode_to_vec), floorenc (hand-written encoder),
//! decode (owned), clone (PluginRegistry::clone: the same allocations and
//! copies as decoding, no parsing), view (view decode + walk, as in the
//! benchmark harness), viewonly (view decode), walkonly (walk of a view
//! decoded beforehand), floorvalidate (hand-written validation),
//! floorwalk (hand-written unchecked walk of every field).

use std::hint::black_box;
fn s(x: &str) -> u64 {
    x.len() as u64
}
fn walk_registry(r: plugins::PluginRegistryRef) -> u64 {
    let mut t = r.total_plugin_count as u64 + r.total_parameter_count as u64;
    for p in r.plugins.iter() {
        t += s(p.name) + s(p.manufacturer_id) + s(p.component_type) + s(p.component_subtype);
        for q in p.parameters.iter() {
            t += q.address
                + s(q.display_name)
                + s(q.identifier)
                + s(q.unit)
                + (q.min_value.to_bits() as u64)
                + (q.max_value.to_bits() as u64)
                + (q.default_value.to_bits() as u64)
                + (q.current_value.to_bits() as u64)
                + q.raw_flags as u64
                + q.is_writable as u64
                + q.can_ramp as u64;
        }
    }
    t
}
/// The tightest encoder of the registry we could write: exact size first,
/// one allocation, raw unchecked writes, short strings as fixed-size moves.
fn floor_encode(v: &plugins::PluginRegistry) -> Vec<u8> {
    let mut n = 12;
    for p in &v.plugins {
        n += 20
            + p.name.len()
            + p.manufacturer_id.len()
            + p.component_type.len()
            + p.component_subtype.len();
        for q in &p.parameters {
            n += 42 + q.display_name.len() + q.identifier.len() + q.unit.len();
        }
    }
    let mut out: Vec<u8> = Vec::with_capacity(n);
    unsafe {
        let mut d = out.as_mut_ptr();
        #[inline(always)]
        unsafe fn w<const N: usize>(d: &mut *mut u8, b: [u8; N]) {
            d.cast::<[u8; N]>().write_unaligned(b);
            *d = d.add(N);
        }
        #[inline(always)]
        unsafe fn s(d: &mut *mut u8, x: &str) {
            let b = x.as_bytes();
            let n = b.len();
            w(d, (n as u32).to_le_bytes());
            let src = b.as_ptr();
            if n >= 8 && n <= 16 {
                d.cast::<[u8; 8]>()
                    .write_unaligned(src.cast::<[u8; 8]>().read_unaligned());
                d.add(n - 8)
                    .cast::<[u8; 8]>()
                    .write_unaligned(src.add(n - 8).cast::<[u8; 8]>().read_unaligned());
            } else if n >= 4 && n < 8 {
                d.cast::<[u8; 4]>()
                    .write_unaligned(src.cast::<[u8; 4]>().read_unaligned());
                d.add(n - 4)
                    .cast::<[u8; 4]>()
                    .write_unaligned(src.add(n - 4).cast::<[u8; 4]>().read_unaligned());
            } else {
                core::ptr::copy_nonoverlapping(src, *d, n);
            }
            *d = d.add(n);
        }
        w(&mut d, (v.plugins.len() as u32).to_le_bytes());
        for p in &v.plugins {
            s(&mut d, &p.name);
            s(&mut d, &p.manufacturer_id);
            s(&mut d, &p.component_type);
            s(&mut d, &p.component_subtype);
            w(&mut d, (p.parameters.len() as u32).to_le_bytes());
            for q in &p.parameters {
                w(&mut d, q.address.to_le_bytes());
                s(&mut d, &q.display_name);
                s(&mut d, &q.identifier);
                s(&mut d, &q.unit);
                w(&mut d, q.min_value.to_le_bytes());
                w(&mut d, q.max_value.to_le_bytes());
                w(&mut d, q.default_value.to_le_bytes());
                w(&mut d, q.current_value.to_le_bytes());
                w(&mut d, q.raw_flags.to_le_bytes());
                w(&mut d, [q.is_writable as u8, q.can_ramp as u8]);
            }
        }
        w(&mut d, v.total_plugin_count.to_le_bytes());
        w(&mut d, v.total_parameter_count.to_le_bytes());
        out.set_len(n);
    }
    out
}

/// The tightest walk of the registry bytes we could write: no validation,
/// no view, unchecked reads of every field summed like walk_registry.
fn floor_walk(b: &[u8]) -> u64 {
    unsafe {
        let mut p = b.as_ptr();
        #[inline(always)]
        unsafe fn rd<const N: usize>(p: &mut *const u8) -> [u8; N] {
            let v = p.cast::<[u8; N]>().read_unaligned();
            *p = p.add(N);
            v
        }
        #[inline(always)]
        unsafe fn st(p: &mut *const u8) -> u64 {
            let n = u32::from_le_bytes(rd::<4>(p)) as usize;
            let s = std::str::from_utf8_unchecked(std::slice::from_raw_parts(*p, n));
            *p = p.add(n);
            s.len() as u64
        }
        let np = u32::from_le_bytes(rd::<4>(&mut p));
        let mut t = 0u64;
        for _ in 0..np {
            t += st(&mut p) + st(&mut p) + st(&mut p) + st(&mut p);
            let nq = u32::from_le_bytes(rd::<4>(&mut p));
            for _ in 0..nq {
                t += u64::from_le_bytes(rd::<8>(&mut p)) + st(&mut p) + st(&mut p) + st(&mut p);
                for _ in 0..4 {
                    t += f32::from_le_bytes(rd::<4>(&mut p)).to_bits() as u64;
                }
                t += u32::from_le_bytes(rd::<4>(&mut p)) as u64;
                t += rd::<1>(&mut p)[0] as u64 + rd::<1>(&mut p)[0] as u64;
            }
        }
        t + u32::from_le_bytes(rd::<4>(&mut p)) as u64 + u32::from_le_bytes(rd::<4>(&mut p)) as u64
    }
}

/// The tightest validation of the registry bytes we could write (safe
/// code): bounds, counts, ASCII/UTF-8 of every string, bools; no depth or
/// error details.
fn floor_validate(b: &[u8]) -> bool {
    #[inline(always)]
    fn u32at(b: &[u8], p: usize) -> Option<u32> {
        Some(u32::from_le_bytes(*b.get(p..)?.first_chunk::<4>()?))
    }
    #[inline(always)]
    fn st(b: &[u8], p: &mut usize) -> Option<()> {
        let n = u32at(b, *p)? as usize;
        let s = b.get(*p + 4..)?.get(..n)?;
        let ok = if n < 8 {
            if let Some(w) = b.get(*p + 4..).and_then(|r| r.first_chunk::<8>()) {
                u64::from_le_bytes(*w) & ((1u64 << (8 * n)) - 1) & 0x8080808080808080 == 0
            } else {
                s.is_ascii()
            }
        } else {
            s.is_ascii()
        };
        if !ok {
            std::str::from_utf8(s).ok()?;
        }
        *p += 4 + n;
        Some(())
    }
    fn go(b: &[u8]) -> Option<()> {
        let mut p = 0;
        let np = u32at(b, p)? as usize;
        p += 4;
        if np * 20 > b.len() - p {
            return None;
        }
        for _ in 0..np {
            st(b, &mut p)?;
            st(b, &mut p)?;
            st(b, &mut p)?;
            st(b, &mut p)?;
            let nq = u32at(b, p)? as usize;
            p += 4;
            if nq * 42 > b.len() - p {
                return None;
            }
            for _ in 0..nq {
                if b.len() - p < 8 {
                    return None;
                }
                p += 8;
                st(b, &mut p)?;
                st(b, &mut p)?;
                st(b, &mut p)?;
                let run = b.get(p..)?.first_chunk::<22>()?;
                if run[20] > 1 || run[21] > 1 {
                    return None;
                }
                p += 22;
            }
        }
        if b.len() - p != 8 {
            return None;
        }
        Some(())
    }
    go(b).is_some()
}

#[inline(never)]
fn run(mode: &str, data: &[u8], v: &plugins::PluginRegistry, iters: usize) -> u64 {
    let mut t = 0u64;
    let view = plugins::PluginRegistryRef::decode(data).unwrap();
    for _ in 0..iters {
        match mode {
            "encode" => {
                let b = black_box(v).encode_to_vec();
                t += b.len() as u64;
                black_box(b);
            }
            "decode" => {
                let d = plugins::PluginRegistry::decode(black_box(data)).unwrap();
                t += d.plugins.len() as u64;
                black_box(d);
            }
            "view" => {
                let r = plugins::PluginRegistryRef::decode(black_box(data)).unwrap();
                t += black_box(walk_registry(r));
            }
            "viewonly" => {
                let r = plugins::PluginRegistryRef::decode(black_box(data)).unwrap();
                t += r.plugins.len() as u64;
                black_box(r);
            }
            "floorenc" => {
                let b = floor_encode(black_box(v));
                t += b.len() as u64;
                black_box(b);
            }
            "walkonly" => {
                t += black_box(walk_registry(black_box(view)));
            }
            "floorwalk" => {
                t += black_box(floor_walk(black_box(data)));
            }
            "floorvalidate" => {
                t += black_box(floor_validate(black_box(data))) as u64;
            }
            "clone" => {
                let d = black_box(v).clone();
                t += d.plugins.len() as u64;
                black_box(d);
            }
            _ => panic!("mode"),
        }
    }
    t
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let data = std::fs::read(
        a.get(3)
            .map_or("bench/build/data/registry.sdpb", |s| s.as_str()),
    )
    .unwrap();
    let v = plugins::PluginRegistry::decode(&data).unwrap();
    assert_eq!(v.encode_to_vec(), data);
    assert_eq!(floor_encode(&v), data);
    assert!(floor_validate(&data));
    assert_eq!(
        floor_walk(&data),
        walk_registry(plugins::PluginRegistryRef::decode(&data).unwrap())
    );
    let iters: usize = a[2].parse().unwrap();
    let t0 = std::time::Instant::now();
    let x = run(&a[1], &data, &v, iters);
    let el = t0.elapsed();
    eprintln!(
        "{} {} iters: {:.2} us/iter (x={})",
        a[1],
        iters,
        el.as_secs_f64() * 1e6 / iters as f64,
        x
    );
}
