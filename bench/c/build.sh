#!/usr/bin/env bash
# Builds bench/build/bin/bench-c: the memcpy floor and, when `sdp gen --lang c`
# works, the SDP C backend (-O2).
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/c
rm -rf "$OUT"
mkdir -p "$OUT"
CC=${CC:-gcc}
CFLAGS="-O2 -std=c11 -Wall -Wextra"
srcs=("$HERE/main.c" "$HERE/harness.c")
defs=()
ok=1
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang c --out "$OUT/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null 2>"$BUILD/logs/c-gen.err"; then
		ok=0
		break
	fi
done
if [ $ok = 1 ] && [ -f "$HERE/sdp_c.c" ]; then
	defs=(-DHAVE_SDP_C)
	for s in primitives arrays nested plugins optionals leaderboard; do
		srcs+=("$OUT/$s"/*.c)
	done
	srcs+=("$HERE/sdp_c.c")
	incs=()
	for s in primitives arrays nested plugins optionals leaderboard; do incs+=(-I"$OUT/$s"); done
	defs+=("${incs[@]}")
else
	reason="not built: sdp gen --lang c failed: $(head -n1 "$BUILD/logs/c-gen.err" 2>/dev/null)"
	defs=(-DSDP_C_GAP="\"$reason\"")
fi
$CC $CFLAGS "${defs[@]}" -I"$HERE" -o "$BUILD/bin/bench-c" "${srcs[@]}"
