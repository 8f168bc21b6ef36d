#!/usr/bin/env bash
# Builds bench/build/bin/bench-cpp (-O2): Protocol Buffers, FlatBuffers and
# Cap'n Proto from Debian's packages (code generated here by protoc, flatc
# and capnp) and, when `sdp gen --lang cpp` works, the SDP C++ backend.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
PEERS=$HERE/../peers
OUT=$BUILD/cpp
rm -rf "$OUT"
mkdir -p "$OUT/peers" "$OUT/obj"
protoc -I"$PEERS" --cpp_out="$OUT/peers" "$PEERS/bench.proto"
flatc --cpp --gen-object-api -o "$OUT/peers" "$PEERS/bench.fbs"
capnp compile -oc++:"$OUT/peers" --src-prefix="$PEERS" "$PEERS/bench.capnp"
CXX=${CXX:-g++}
CXXFLAGS="-O2 -std=c++17 -Wall -Wextra -Wno-unused-parameter"
CC=${CC:-gcc}
# ccache (bench/setup.sh installs it) makes rebuilds of unchanged code
# instant, also from a fresh clone (CCACHE_BASEDIR makes paths relative).
if command -v ccache >/dev/null; then
	export CCACHE_BASEDIR="$ROOT" CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
	CC="ccache $CC"
	CXX="ccache $CXX"
fi
inc=(-I"$HERE" -I"$HERE/../c" -I"$OUT/peers")
defs=()
srcs=("$HERE/main.cpp" "$HERE/peers.cpp" "$OUT/peers/bench.pb.cc" "$OUT/peers/bench.capnp.c++")
ok=1
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang cpp --out "$OUT/sdp/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null 2>"$BUILD/logs/cpp-gen.err"; then
		ok=0
		break
	fi
done
if [ $ok = 1 ] && [ -f "$HERE/sdp_cpp.cpp" ]; then
	defs=(-DHAVE_SDP_CPP)
	for s in primitives arrays nested plugins optionals leaderboard; do
		inc+=(-I"$OUT/sdp/$s")
		for f in "$OUT/sdp/$s"/*.cpp "$OUT/sdp/$s"/*.cc; do [ -f "$f" ] && srcs+=("$f"); done
	done
	srcs+=("$HERE/sdp_cpp.cpp")
else
	reason="not built: sdp gen --lang cpp failed: $(head -n1 "$BUILD/logs/cpp-gen.err" 2>/dev/null)"
	defs=(-DSDP_CPP_GAP="\"$reason\"")
fi
$CC -O2 -std=c11 -c -o "$OUT/obj/harness.o" "$HERE/../c/harness.c"
objs=("$OUT/obj/harness.o")
for s in "${srcs[@]}"; do
	o="$OUT/obj/$(basename "$s").o"
	$CXX $CXXFLAGS "${defs[@]}" "${inc[@]}" -c -o "$o" "$s"
	objs+=("$o")
done
# shellcheck disable=SC2046
${CXX#ccache } -o "$BUILD/bin/bench-cpp" "${objs[@]}" $(pkg-config --libs protobuf capnp) -lflatbuffers
