#!/usr/bin/env bash
# Builds bench/build/bin/bench-go: the Go harness with protobuf-go and msgpack
# (Debian's Go packages in /usr/share/gocode, GOPATH mode, no module proxy)
# and, when `sdp gen --lang go` works, the SDP Go backend's generated code.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
GP=$BUILD/gopath
rm -rf "$GP"
mkdir -p "$GP/src/benchpb/pb"
protoc -I"$HERE/../peers" --go_out="$GP/src/benchpb/pb" --go_opt=paths=source_relative "$HERE/../peers/bench.proto"
tags=()
ok=1
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang go --out "$GP/src/sdpgen/$s" --package "$s" "$ROOT/conformance/schemas/$s.sdp" 2>"$BUILD/logs/go-gen.err"; then
		ok=0
		break
	fi
done
if [ $ok = 1 ]; then
	tags=(-tags sdp)
else
	printf 'sdp\tnot built: sdp gen --lang go failed: %s\n' "$(head -n1 "$BUILD/logs/go-gen.err")" >>"$BUILD/gaps/go.tsv"
fi
export GO111MODULE=off GOPATH="$GP:$HERE:/usr/share/gocode" GOFLAGS=
go build "${tags[@]}" -o "$BUILD/bin/bench-go" sdpbench
