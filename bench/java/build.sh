#!/usr/bin/env bash
# Builds bench/build/bin/bench-java: a launcher of bench/java/JavaBench.java
# (SDP's Java backend, `sdp gen --lang java`, against protobuf-java from
# Debian's libprotobuf-java, with a new array + System.arraycopy as the
# floor of the arrays), compiled with javac --release 11.
#
#   bench/java/build.sh BUILD ROOT SDP    (bench/run calls it)
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
PBJAR=${PBJAR:-/usr/share/java/protobuf.jar}
for tool in javac java protoc; do
	command -v "$tool" >/dev/null || { echo "bench/java: $tool is not installed (apt-get install openjdk-17-jdk-headless protobuf-compiler)" >&2; exit 1; }
done
[ -f "$PBJAR" ] || { echo "bench/java: $PBJAR is missing (apt-get install libprotobuf-java)" >&2; exit 1; }
JB=$BUILD/java
rm -rf "$JB"
mkdir -p "$JB/src/pb" "$BUILD/bin"
for s in arrays plugins leaderboard; do
	"$SDP" gen --lang java --package "sdpbench.sdp.$s" --out "$JB/src/$s" "$ROOT/conformance/schemas/$s.sdp" >/dev/null
done
protoc --java_out="$JB/src/pb" -I "$HERE/../peers" "$HERE/../peers/bench.proto"
find "$JB/src" -name '*.java' >"$JB/sources.txt"
echo "$HERE/JavaBench.java" >>"$JB/sources.txt"
javac --release 11 -nowarn -cp "$PBJAR" -d "$JB/classes" @"$JB/sources.txt"
JAVA=$(command -v java)
PBVER=$(basename "$(readlink -f "$PBJAR")" .jar)
cat >"$BUILD/bin/bench-java" <<LAUNCH
#!/bin/sh
exec "$JAVA" -Dsdpbench.protobuf=$PBVER -cp "$JB/classes:$PBJAR" sdpbench.JavaBench "\$@"
LAUNCH
chmod +x "$BUILD/bin/bench-java"
