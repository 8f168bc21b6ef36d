#!/usr/bin/env bash
# Builds bench/build/bin/bench-swift (swiftc -O, whole-module) with the
# shared C measurement loop, Foundation's coders and, when
# `sdp gen --lang swift` works, the SDP Swift backend's generated code.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/swift
rm -rf "$OUT"
mkdir -p "$OUT"
SWIFTC=${SWIFTC:-swiftc}
command -v "$SWIFTC" >/dev/null || SWIFTC=/opt/swift/usr/bin/swiftc
rm -f "$OUT/gap.txt"
gcc -O2 -std=c11 -c -o "$OUT/harness.o" "$HERE/../c/harness.c"
srcs=("$HERE/main.swift" "$HERE/Run.swift" "$HERE/Model.swift" "$HERE/Peers.swift" "$HERE/Sdp.swift")
defs=()
ok=1
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang swift --out "$OUT/sdp/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null 2>"$BUILD/logs/swift-gen.err"; then
		ok=0
		break
	fi
done
mods=()
if [ $ok = 1 ]; then
	# Each generated package is its own module (as with SwiftPM), built
	# -O -wmo into a static library.
	mkdir -p "$OUT/mods"
	for s in primitives arrays nested plugins optionals leaderboard; do
		"$SWIFTC" -O -wmo -parse-as-library -module-name "$s" -emit-module \
			-emit-module-path "$OUT/mods/$s.swiftmodule" -emit-library -static \
			-o "$OUT/mods/lib$s.a" "$OUT/sdp/$s/Sources/$s"/*.swift
		mods+=("$OUT/mods/lib$s.a")
	done
	defs=(-D HAVE_SDP_SWIFT -I "$OUT/mods")
else
	echo "not built: sdp gen --lang swift failed: $(head -n1 "$BUILD/logs/swift-gen.err" 2>/dev/null)" >"$OUT/gap.txt"
fi
"$SWIFTC" --version 2>&1 | head -n1 >"$OUT/toolchain.txt"
"$SWIFTC" -O -wmo "${defs[@]}" -I "$HERE/Harness" -o "$BUILD/bin/bench-swift.bin" "${srcs[@]}" "${mods[@]}" "$OUT/harness.o"
# A wrapper that passes the build's notes to the harness.
cat >"$BUILD/bin/bench-swift" <<WRAP
#!/bin/sh
SDP_SWIFT_TOOLCHAIN="\$(cat "$OUT/toolchain.txt")" SDP_SWIFT_GAP="\$(cat "$OUT/gap.txt" 2>/dev/null)" exec "$BUILD/bin/bench-swift.bin" "\$@"
WRAP
chmod +x "$BUILD/bin/bench-swift"
