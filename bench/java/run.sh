#!/usr/bin/env bash
# The Java benchmark on its own: the SDP Java backend against protobuf-java
# (Debian's libprotobuf-java) on the registry, the u32 and f32 arrays, the
# mesh, the log and struct A, with a new array + System.arraycopy as the
# floor of the arrays. bench/run runs the same harness as language java
# (`bench/run --langs java`), with the report; this prints its table.
#
#   bench/java/run.sh            # 3 forks, each with warm-up; medians
#   bench/java/run.sh --quick    # 1 fork, short: proves it builds and runs
#   bench/java/run.sh --only registry --forks 5
#
# Needs a JDK (javac, java), protoc and /usr/share/java/protobuf.jar
# (apt-get install protobuf-compiler libprotobuf-java). The workload data is
# what bench/run uses (conformance/datagen + sdp encode), written under
# $BUILD/data; the build goes to $BUILD (default bench/build/java-alone).
set -euo pipefail
BENCH=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$BENCH/.." && pwd)
BUILD=${BUILD:-$BENCH/build/java-alone}
mkdir -p "$BUILD/logs" "$BUILD/gaps"
(cd "$ROOT" && go build -o "$BUILD/sdp" ./cmd/sdp)
if [ ! -f "$BUILD/data/registry.sdpb" ]; then
	rm -rf "$BUILD/gen" "$BUILD/data"
	(cd "$ROOT" && go run ./conformance/datagen/cmd/sdp-datagen --out "$BUILD/gen") >"$BUILD/datagen.log" 2>&1
	python3 "$BENCH/tools/prepare.py" --root "$ROOT" --sdp "$BUILD/sdp" --gen "$BUILD/gen" \
		--workloads "$BENCH/workloads.tsv" --out "$BUILD/data"
fi
bash "$BENCH/java/build.sh" "$BUILD" "$ROOT" "$BUILD/sdp"
exec "$BUILD/bin/bench-java" --data "$BUILD/data" "$@"
