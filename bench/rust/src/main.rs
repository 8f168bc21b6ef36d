//! Rust harness of the SDP benchmark suite: SDP Rust (owned types and
//! views; src/sdp.rs, compiled with the `sdp` feature when
//! `sdp gen --lang rust` works) next to prost and bincode + serde on the same
//! data. Writes the results as JSON for bench/tools/report.py.

mod harness;
mod model;
mod peers;
#[cfg(feature = "sdp")]
mod sdp;

use harness::{Counting, Harness};
use model::{pbm, plain};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let mut h = Harness::from_args();
    #[cfg(not(feature = "sdp"))]
    h.gap("sdp", "", option_env!("SDP_RUST_GAP").unwrap_or("not built: the Rust backend was not available"));
    let ws = std::mem::take(&mut h.workloads);
    for w in &ws {
        // The floor of an encode into a fresh buffer: allocating one of the
        // encoding's size and copying the wire bytes into it (and freeing it).
        h.run("new_array", &w.name, "copy", w.sdpb.len(), || {
            std::hint::black_box(std::hint::black_box(&w.sdpb[..]).to_vec());
        });
        #[cfg(feature = "sdp")]
        sdp::bench(&mut h, w);
        macro_rules! peers {
            ($t:ident) => {{
                peers::bench_prost::<pbm::$t>(&mut h, w);
                peers::bench_bincode::<plain::$t>(&mut h, w);
            }};
        }
        match w.ty.as_str() {
            "AllPrimitives" => peers!(AllPrimitives),
            "U32Array" => peers!(U32Array),
            "I16Array" => peers!(I16Array),
            "F32Array" => peers!(F32Array),
            "ByteArray" => peers!(ByteArray),
            "SmallArrays" => peers!(SmallArrays),
            "Scene" => peers!(Scene),
            "AudioDevice" => peers!(AudioDevice),
            "PluginRegistry" => peers!(PluginRegistry),
            "Reading" => peers!(Reading),
            "StructA" => peers!(StructA),
            "Mesh" => peers!(Mesh),
            "Logs" => peers!(Logs),
            t => h.gap("prost", &w.name, &format!("no peer types for {t}")),
        }
    }
    h.finish(option_env!("RUSTC_VERSION_STRING").unwrap_or("rustc"));
}
