#!/usr/bin/env bash
# The Java benchmark: the SDP Java backend against protobuf-java (Debian's
# libprotobuf-java) on the registry, the u32 and f32 arrays, the mesh, the
# log and struct A, with System.arraycopy as the floor of the arrays.
#
#   bench/java/run.sh            # 3 forks, each with warm-up; medians
#   bench/java/run.sh --quick    # 1 fork, short: proves it builds and runs
#
# Needs a JDK (javac, java), protoc and /usr/share/java/protobuf.jar
# (apt-get install protobuf-compiler libprotobuf-java). The workload data is
# what bench/run uses (conformance/datagen + sdp encode), written under
# $BUILD/data; the build goes to $BUILD (default bench/build/java).
set -euo pipefail
BENCH=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$BENCH/.." && pwd)
BUILD=${BUILD:-$BENCH/build/java}
PBJAR=${PBJAR:-/usr/share/java/protobuf.jar}
mkdir -p "$BUILD"
for tool in javac java protoc; do
	command -v "$tool" >/dev/null || { echo "bench/java: $tool is not installed" >&2; exit 1; }
done
[ -f "$PBJAR" ] || { echo "bench/java: $PBJAR is missing (apt-get install libprotobuf-java)" >&2; exit 1; }

(cd "$ROOT" && go build -o "$BUILD/sdp" ./cmd/sdp)
if [ ! -f "$BUILD/data/registry.sdpb" ]; then
	rm -rf "$BUILD/gen" "$BUILD/data"
	(cd "$ROOT" && go run ./conformance/datagen/cmd/sdp-datagen --out "$BUILD/gen") >"$BUILD/datagen.log" 2>&1
	python3 "$BENCH/tools/prepare.py" --root "$ROOT" --sdp "$BUILD/sdp" --gen "$BUILD/gen" \
		--workloads "$BENCH/workloads.tsv" --out "$BUILD/data"
fi

rm -rf "$BUILD/src" "$BUILD/classes"
for s in arrays plugins leaderboard; do
	"$BUILD/sdp" gen --lang java --package "sdpbench.sdp.$s" --out "$BUILD/src/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null
done
mkdir -p "$BUILD/src/pb"
protoc --java_out="$BUILD/src/pb" -I "$BENCH/peers" "$BENCH/peers/bench.proto"
find "$BUILD/src" -name '*.java' >"$BUILD/sources.txt"
echo "$BENCH/java/JavaBench.java" >>"$BUILD/sources.txt"
javac --release 11 -nowarn -cp "$PBJAR" -d "$BUILD/classes" @"$BUILD/sources.txt"
exec java -cp "$BUILD/classes:$PBJAR" sdpbench.JavaBench --data "$BUILD/data" "$@"
