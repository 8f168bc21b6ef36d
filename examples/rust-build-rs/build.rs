//! Generates the SDP code for sensors.sdp into OUT_DIR at build time.
//!
//! The sdp executable is $SDP if set, else `sdp` on PATH (build it from an
//! SDP checkout with `go build -o bin/sdp ./cmd/sdp` or `go install ./cmd/sdp`).

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let schema = "sensors.sdp";
    // Cargo reruns this script (and so regenerates) only when these change.
    println!("cargo:rerun-if-changed={schema}");
    println!("cargo:rerun-if-env-changed=SDP");

    let sdp = match env::var_os("SDP") {
        Some(path) => {
            // A new sdp may generate other code.
            println!("cargo:rerun-if-changed={}", path.to_string_lossy());
            path
        }
        None => "sdp".into(),
    };
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let output = Command::new(&sdp)
        .args(["gen", "--lang", "rust", "--module", "--out"])
        .arg(&out_dir)
        .arg(schema)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}\nset SDP to the sdp executable or put sdp on PATH",
                sdp.to_string_lossy()
            )
        });
    if !output.status.success() {
        panic!(
            "sdp gen failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // sensors.rs is now in OUT_DIR.
}
