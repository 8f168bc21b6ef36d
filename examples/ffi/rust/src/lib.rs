//! The Rust collector: fills a `registry::PluginRegistry`, encodes it with
//! the generated crate into a buffer from C's `malloc`, and hands it to Go
//! through `sdpffi_rust_collect` (declared in ../collector.h).
//!
//! Go frees the buffer with `C.free`, so it must come from `malloc`, not
//! from Rust's allocator: a `Vec<u8>` handed to C's `free` would be
//! undefined behaviour. No panic may unwind into Go: the entry point
//! catches it and returns a status instead.

use std::os::raw::{c_char, c_int, c_void};
use std::panic;

use registry::{Parameter, Plugin, PluginRegistry};

const OK: i32 = 0;
const ERR_ENCODE: i32 = 1;
const ERR_NOMEM: i32 = 2;
const ERR_INTERNAL: i32 = 3;

/// `sdpffi_result` of collector.h, field for field.
#[repr(C)]
pub struct SdpffiResult {
    data: *mut u8,
    len: usize,
    status: i32,
    message: [c_char; 160],
}

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
}

fn failure(status: i32, message: &str) -> SdpffiResult {
    let mut r = SdpffiResult { data: std::ptr::null_mut(), len: 0, status, message: [0; 160] };
    // Truncate to the buffer, keeping the final NUL.
    for (dst, &src) in r.message.iter_mut().zip(message.as_bytes().iter().take(159)) {
        *dst = src as c_char;
    }
    r
}

const VENDORS: [&str; 3] = ["ACME", "Zölzer DSP", "FabFilter"];
const UNITS: [&str; 4] = ["dB", "Hz", "%", "µs"];

/// The example's deterministic registry (docs/ffi.md, "The example's
/// registry"), standing in for enumerating the machine's plugins.
fn collect(plugin_count: u32) -> PluginRegistry {
    let mut reg = PluginRegistry { plugins: Vec::with_capacity(plugin_count as usize), ..Default::default() };
    for i in 0..plugin_count {
        let n = 22 + i % 17;
        let parameters = (0..n)
            .map(|j| Parameter {
                address: (u64::from(i) << 32) | u64::from(j),
                display_name: format!("Param {j}"),
                identifier: format!("p{i}.{j}"),
                unit: UNITS[(j % 4) as usize].to_string(),
                min_value: -(j as f32),
                max_value: (j + 1) as f32,
                default_value: 0.5 * j as f32,
                current_value: 0.25 * i as f32,
                raw_flags: i * 1000 + j,
                is_writable: j % 3 != 0,
                can_ramp: j % 2 == 0,
            })
            .collect();
        reg.plugins.push(Plugin {
            name: format!("Plugin {i}"),
            manufacturer_id: VENDORS[(i % 3) as usize].to_string(),
            component_type: "aufx".to_string(),
            component_subtype: format!("p{i:03}"),
            parameters,
        });
        reg.total_parameter_count += n;
    }
    reg.total_plugin_count = plugin_count;
    reg
}

fn collect_and_encode(plugin_count: u32, corrupt: bool) -> SdpffiResult {
    if corrupt {
        // A Rust String is always UTF-8, so the only value the encoder
        // refuses is one with a count over u32::MAX (try_encode_to_vec's
        // EncodeError, handled below). Show the other failure instead: a
        // panic in the collector, caught at the boundary.
        panic!("the collector failed while enumerating plugins");
    }
    let reg = collect(plugin_count);
    let bytes = match reg.try_encode_to_vec() {
        Ok(bytes) => bytes,
        Err(e) => return failure(ERR_ENCODE, &e.to_string()),
    };
    // Copy into C's heap so that Go can free it with C.free. (To avoid the
    // copy, encode into a malloc'd slice of encoded_size() bytes, or export
    // a free function of your own and make Go call it.)
    let data = unsafe { malloc(bytes.len().max(1)) } as *mut u8;
    if data.is_null() {
        return failure(ERR_NOMEM, "malloc failed");
    }
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len()) };
    SdpffiResult { data, len: bytes.len(), status: OK, message: [0; 160] }
}

/// Enumerates `plugin_count` plugins and returns their encoded registry in
/// a malloc'd buffer that the caller frees with `free`.
#[no_mangle]
pub extern "C" fn sdpffi_rust_collect(plugin_count: u32, corrupt: c_int) -> SdpffiResult {
    // The panic hook still prints the panic to stderr, as it does for any
    // panic; the caller gets the message as the status's reason.
    match panic::catch_unwind(|| collect_and_encode(plugin_count, corrupt != 0)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            failure(ERR_INTERNAL, &format!("panic: {what}"))
        }
    }
}
