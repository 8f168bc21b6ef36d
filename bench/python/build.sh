#!/usr/bin/env bash
# Builds bench/build/bin/bench-python: a launcher that runs bench/python/harness.py
# with the project's venv (scripts/setup: numpy, protobuf, msgpack, msgspec from PyPI)
# over the SDP Python backend's generated packages (`sdp gen --lang python`)
# and protobuf's generated bench_pb2 (`protoc --python_out`).
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
VENV="${SDP_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sdp/pyvenv}"
PY=$VENV/bin/python3
if [ ! -x "$PY" ]; then
	echo "bench/python: no Python venv at $VENV: run scripts/setup (it installs numpy, protobuf and msgpack there)" >&2
	exit 1
fi
missing=""
for mod in numpy google.protobuf msgpack msgspec setuptools; do
	"$PY" -c "import $mod" 2>/dev/null || missing="$missing $mod"
done
if [ -n "$missing" ]; then
	echo "bench/python: the venv $VENV lacks:$missing; run scripts/setup (or $VENV/bin/pip install the versions its venv line pins)" >&2
	exit 1
fi
if ! "$PY" -c 'from google.protobuf.internal import api_implementation as a; import sys; sys.exit(a.Type() != "upb")'; then
	echo "bench/python: protobuf's Python package does not use its upb backend ($("$PY" -c 'from google.protobuf.internal import api_implementation as a; print(a.Type())')); install a protobuf wheel with upb (4.21 or newer)" >&2
	exit 1
fi
PYB=$BUILD/python
rm -rf "$PYB"
mkdir -p "$PYB/pb" "$PYB/gen"
protoc -I"$HERE/../peers" --python_out="$PYB/pb" "$HERE/../peers/bench.proto"
: >"$PYB/sdp-schemas"
for s in primitives arrays nested plugins optionals leaderboard; do
	if ! "$SDP" gen --lang python --out "$PYB/gen/$s" --package "sdp_$s" "$ROOT/conformance/schemas/$s.sdp" 2>"$BUILD/logs/python-gen.err"; then
		printf 'sdp\tnot built: sdp gen --lang python failed on %s.sdp: %s\n' "$s" "$(head -n1 "$BUILD/logs/python-gen.err")" >>"$BUILD/gaps/python.tsv"
		continue
	fi
	# The package's C accelerator, in place (as pip install builds it); the
	# harness measures it (sdp_c) beside a pure Python copy (sdp).
	if ! (cd "$PYB/gen/$s" && "$PY" setup.py -q build_ext --inplace) >"$BUILD/logs/python-accel-$s.log" 2>&1; then
		printf 'sdp_c\tnot built: the C accelerator of %s.sdp did not compile: %s\n' "$s" "$(tail -n1 "$BUILD/logs/python-accel-$s.log")" >>"$BUILD/gaps/python.tsv"
	fi
	echo "$s" >>"$PYB/sdp-schemas"
done
"$PY" -m py_compile "$HERE/harness.py"
cat >"$BUILD/bin/bench-python" <<EOF
#!/bin/sh
exec "$PY" "$HERE/harness.py" --gen "$PYB" "\$@"
EOF
chmod +x "$BUILD/bin/bench-python"
