#!/usr/bin/env bash
# Builds and runs the floor measurements (see src/main.rs). Needs a prior
# `bench/run --langs rust ...` (the generated crates and the data).
#   run.sh             CPU time per operation (2,000 iterations, best of 3)
#   run.sh callgrind   instructions per operation (valgrind)
#   run.sh mesh        the mesh (src/bin/mesh.rs): time per operation
#                      (200 iterations, best of 3)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
export CARGO_TARGET_DIR="${SDP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdp-bench}/rust-floor-target"
(cd "$HERE" && cargo build --release --offline --quiet)
BIN=$CARGO_TARGET_DIR/release/sdp-rust-floor
if [ "${1:-}" = mesh ]; then
	for m in memcpy encode floorenc decode floordec; do
		for _ in 1 2 3; do "$CARGO_TARGET_DIR/release/mesh" "$m" 200 "$ROOT/bench/build/data/mesh.sdpb"; done 2>&1 | sort -t: -k2 -n | head -n1
	done
	exit 0
fi
DATA=$ROOT/bench/build/data/registry.sdpb
MODES="encode floorenc decode clone view viewonly walkonly floorvalidate floorwalk"
if [ "${1:-}" = callgrind ]; then
	for m in $MODES; do
		n() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='sdp_rust_floor::run' "$BIN" "$m" "$1" "$DATA" 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*'; }
		a=$(n 1) b=$(n 11)
		echo "$m: $(((b - a) / 10)) instructions"
	done
else
	for m in $MODES; do
		for _ in 1 2 3; do "$BIN" "$m" 2000 "$DATA"; done 2>&1 | sort -t: -k2 -n | head -n1
	done
fi
