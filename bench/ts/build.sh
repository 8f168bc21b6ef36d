#!/usr/bin/env bash
# Builds bench/build/bin/bench-ts: a launcher that runs bench/ts/harness.mjs
# with Node over the SDP JavaScript backend's generated packages
# (`sdp gen --lang js`; the TypeScript package compiles to the same code),
# with NODE_PATH=/usr/share/nodejs for Debian's node-cbor.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
NODE=$(command -v node) || { echo "bench/ts: node is not installed (apt-get install nodejs)" >&2; exit 1; }
TSB=$BUILD/ts
rm -rf "$TSB"
mkdir -p "$TSB/gen"
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang js --out "$TSB/gen/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null 2>"$BUILD/logs/ts-gen.err"; then
		printf 'sdp\tnot built: sdp gen --lang js failed on %s.sdp: %s\n' "$s" "$(head -n1 "$BUILD/logs/ts-gen.err")" >>"$BUILD/gaps/ts.tsv"
	fi
done
"$NODE" --check "$HERE/harness.mjs"
cat >"$BUILD/bin/bench-ts" <<EOF
#!/bin/sh
NODE_PATH=\${NODE_PATH:-/usr/share/nodejs} exec "$NODE" "$HERE/harness.mjs" --gen "$TSB/gen" "\$@"
EOF
chmod +x "$BUILD/bin/bench-ts"
