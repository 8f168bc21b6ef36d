#!/usr/bin/env bash
# Builds bench/build/bin/bench-rust (cargo --release, offline, crates from
# Debian's /usr/share/cargo/registry via .cargo/config.toml) and, when
# `sdp gen --lang rust` works, the crates it generates from
# conformance/schemas (feature `sdp`, src/sdp.rs). The build happens in a copy
# of this crate under bench/build/rust, whose Cargo.toml gains path
# dependencies on the generated crates.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
CRATE=$BUILD/rust
GEN=$BUILD/rust-sdp
rm -rf "$GEN" "$CRATE/src" "$CRATE/Cargo.toml"
mkdir -p "$GEN" "$CRATE/.cargo"
cp -r "$HERE/src" "$HERE/Cargo.toml" "$CRATE/"
cp "$HERE/.cargo/config.toml" "$CRATE/.cargo/"
[ -f "$CRATE/Cargo.lock" ] || cp "$HERE/Cargo.lock" "$CRATE/"
schemas="primitives arrays nested plugins optionals leaderboard"
features=()
ok=1
for s in $schemas; do
	if ! "$SDP" gen --lang rust --out "$GEN/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null 2>"$BUILD/logs/rust-gen.err"; then
		ok=0
		break
	fi
done
if [ $ok = 1 ]; then
	features=(--features sdp)
	deps=""
	for s in $schemas; do deps="$deps$s = { path = \"$GEN/$s\" }\n"; done
	# The generated crates go right under [dependencies].
	python3 - "$CRATE/Cargo.toml" "$deps" <<'PY'
import sys
p, deps = sys.argv[1], sys.argv[2].replace("\\n", "\n")
s = open(p).read()
s = s.replace("[dependencies]\n", "[dependencies]\n" + deps, 1)
open(p, "w").write(s)
PY
else
	export SDP_RUST_GAP="not built: sdp gen --lang rust failed: $(head -n1 "$BUILD/logs/rust-gen.err" 2>/dev/null)"
fi
export RUSTC_VERSION_STRING="$(rustc --version)"
# The target directory lives in a cache outside the work tree, so a fresh
# clone (CI) reuses the compiled peer crates (serde, prost, bincode, ...).
export CARGO_TARGET_DIR="${SDP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdp-bench}/rust-target"
cd "$CRATE"
cargo build --release --offline "${features[@]}"
cp "$CARGO_TARGET_DIR/release/bench-rust" "$BUILD/bin/bench-rust"
