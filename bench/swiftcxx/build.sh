#!/usr/bin/env bash
# Builds bench/build/bin/bench-swiftcxx: Swift calling the SDP C++ backend
# through Swift's C++ interoperability (swiftc -O
# -cxx-interoperability-mode=default). Results are reported under the Swift
# language as "SDP C++ via Swift interop".
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/swiftcxx
rm -rf "$OUT"
mkdir -p "$OUT/obj"
SWIFTC=${SWIFTC:-swiftc}
command -v "$SWIFTC" >/dev/null || SWIFTC=/opt/swift/usr/bin/swiftc
CC=${CC:-gcc}
CXX=${CXX:-g++}
# ccache (bench/setup.sh installs it) makes rebuilds of unchanged code
# instant, also from a fresh clone (CCACHE_BASEDIR makes paths relative).
if command -v ccache >/dev/null; then
	export CCACHE_BASEDIR="$ROOT" CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
	CC="ccache $CC"
	CXX="ccache $CXX"
fi
for s in arrays plugins leaderboard; do
	"$SDP" gen --lang cpp --out "$OUT/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null
	$CXX -std=c++17 -O2 -c -o "$OUT/obj/$s.o" "$OUT/$s/$s.cpp"
done
cat >"$OUT/module.modulemap" <<MAP
module SDPCxx {
    header "arrays/arrays.hpp"
    header "plugins/plugins.hpp"
    header "leaderboard/leaderboard.hpp"
    requires cplusplus
    export *
}
MAP
$CC -O2 -std=c11 -c -o "$OUT/obj/harness.o" "$HERE/../c/harness.c"
"$SWIFTC" -O -wmo -cxx-interoperability-mode=default -Xcc -std=c++17 \
	-I "$OUT" -I "$HERE/../swift/Harness" -o "$BUILD/bin/bench-swiftcxx.bin" \
	"$HERE/main.swift" "$HERE/../swift/Run.swift" "$HERE/../swift/Model.swift" \
	"$OUT/obj/arrays.o" "$OUT/obj/plugins.o" "$OUT/obj/leaderboard.o" "$OUT/obj/harness.o"
"$SWIFTC" --version 2>&1 | head -n1 >"$OUT/toolchain.txt"
cat >"$BUILD/bin/bench-swiftcxx" <<WRAP
#!/bin/sh
SDP_SWIFT_TOOLCHAIN="\$(cat "$OUT/toolchain.txt") -cxx-interoperability-mode=default" exec "$BUILD/bin/bench-swiftcxx.bin" "\$@"
WRAP
chmod +x "$BUILD/bin/bench-swiftcxx"
