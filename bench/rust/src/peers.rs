//! prost and bincode on one workload.

use crate::harness::{Harness, Workload};
use prost::Message;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::hint::black_box;

pub fn bench_prost<T: Message + Default + PartialEq + DeserializeOwned>(h: &mut Harness, w: &Workload) {
    if !h.wants("prost") {
        return;
    }
    let m: T = match serde_json::from_slice(&w.json) {
        Ok(m) => m,
        Err(e) => return h.gap("prost", &w.name, &format!("cannot read the JSON document: {e}")),
    };
    let enc = m.encode_to_vec();
    match T::decode(&enc[..]) {
        Ok(back) if back == m => {}
        _ => return h.gap("prost", &w.name, "self-check failed: decode(encode(x)) differs"),
    }
    let n = enc.len();
    let mut buf = Vec::with_capacity(n);
    h.run("prost", &w.name, "encode", n, || {
        black_box(black_box(&m).encode_to_vec());
    });
    h.run("prost", &w.name, "encode_reuse", n, || {
        buf.clear();
        black_box(&m).encode(&mut buf).unwrap();
        black_box(&buf);
    });
    h.run("prost", &w.name, "decode", n, || {
        black_box(T::decode(black_box(&enc[..])).unwrap());
    });
    // prost's reuse: clear() keeps the vectors' capacity (not their
    // elements'), merge() decodes into the cleared message.
    let mut reused = T::decode(&enc[..]).unwrap();
    h.run("prost", &w.name, "decode_reuse", n, || {
        reused.clear();
        reused.merge(black_box(&enc[..])).unwrap();
        black_box(&reused);
    });
    h.run("prost", &w.name, "roundtrip", n, || {
        let b = black_box(&m).encode_to_vec();
        black_box(T::decode(&b[..]).unwrap());
    });
}

pub fn bench_bincode<T: Serialize + DeserializeOwned + PartialEq>(h: &mut Harness, w: &Workload) {
    if !h.wants("bincode") {
        return;
    }
    let m: T = match serde_json::from_slice(&w.json) {
        Ok(m) => m,
        Err(e) => return h.gap("bincode", &w.name, &format!("cannot read the JSON document: {e}")),
    };
    let enc = bincode::serialize(&m).unwrap();
    match bincode::deserialize::<T>(&enc) {
        Ok(back) if back == m => {}
        _ => return h.gap("bincode", &w.name, "self-check failed: decode(encode(x)) differs"),
    }
    let n = enc.len();
    let mut buf = Vec::with_capacity(n);
    h.run("bincode", &w.name, "encode", n, || {
        black_box(bincode::serialize(black_box(&m)).unwrap());
    });
    h.run("bincode", &w.name, "encode_reuse", n, || {
        buf.clear();
        bincode::serialize_into(&mut buf, black_box(&m)).unwrap();
        black_box(&buf);
    });
    h.run("bincode", &w.name, "decode", n, || {
        black_box(bincode::deserialize::<T>(black_box(&enc)).unwrap());
    });
    h.run("bincode", &w.name, "roundtrip", n, || {
        let b = bincode::serialize(black_box(&m)).unwrap();
        black_box(bincode::deserialize::<T>(&b).unwrap());
    });
}
