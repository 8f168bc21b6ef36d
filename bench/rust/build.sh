#!/usr/bin/env bash
# Builds bench/build/bin/bench-rust (cargo --release, offline, crates from
# Debian's /usr/share/cargo/registry via .cargo/config.toml) and, when
# `sdp gen --lang rust` works, the SDP Rust backend's generated code
# (feature `sdp`, src/sdp.rs).
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/rust-sdp
rm -rf "$OUT"
mkdir -p "$OUT"
features=()
ok=1
for s in primitives arrays nested plugins optionals; do
	if ! "$SDP" gen --lang rust --out "$OUT/$s" "$ROOT/conformance/schemas/$s.sdp" 2>"$BUILD/logs/rust-gen.err"; then
		ok=0
		break
	fi
done
if [ $ok = 1 ] && [ -f "$HERE/src/sdp.rs" ]; then
	features=(--features sdp)
	export SDP_RUST_GEN="$OUT"
else
	export SDP_RUST_GAP="not built: sdp gen --lang rust failed: $(head -n1 "$BUILD/logs/rust-gen.err" 2>/dev/null)"
fi
export RUSTC_VERSION_STRING="$(rustc --version)"
export CARGO_TARGET_DIR="$BUILD/rust-target"
cd "$HERE"
cargo build --release --offline "${features[@]}"
cp "$CARGO_TARGET_DIR/release/bench-rust" "$BUILD/bin/bench-rust"
