#!/usr/bin/env bash
# Builds bench/build/bin/bench-cppclang (-O2, clang++): the SDP C++ backend
# alone, from the same generated code and harness as bench/cpp, compiled by
# clang++ (on PATH, or the one shipped with Swift).
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
CPP=$HERE/../cpp
OUT=$BUILD/cppclang
rm -rf "$OUT"
mkdir -p "$OUT/obj"
CXX=$(command -v clang++ || true)
[ -n "$CXX" ] || CXX=/opt/swift/usr/bin/clang++
[ -x "$CXX" ] || { echo "bench/cppclang: no clang++ on PATH or in /opt/swift/usr/bin" >&2; exit 1; }
CC=${CC:-gcc}
CXXFLAGS="-O2 -std=c++17 -Wall -Wextra -Wno-unused-parameter"
inc=(-I"$CPP" -I"$HERE/../c")
srcs=("$HERE/main.cpp" "$CPP/sdp_cpp.cpp")
for s in primitives arrays nested plugins optionals leaderboard; do
	"$SDP" gen --lang cpp --out "$OUT/sdp/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null
	inc+=(-I"$OUT/sdp/$s")
	srcs+=("$OUT/sdp/$s/$s.cpp")
done
$CC -O2 -std=c11 -c -o "$OUT/obj/harness.o" "$HERE/../c/harness.c"
objs=("$OUT/obj/harness.o")
for s in "${srcs[@]}"; do
	o="$OUT/obj/$(basename "$s").o"
	"$CXX" $CXXFLAGS "${inc[@]}" -c -o "$o" "$s"
	objs+=("$o")
done
"$CXX" -o "$BUILD/bin/bench-cppclang" "${objs[@]}"
