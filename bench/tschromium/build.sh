#!/usr/bin/env bash
# Builds bench/build/bin/bench-tschromium: a launcher of bench/tschromium/run.py,
# which runs bench/ts/core.mjs (the TypeScript/JavaScript harness) in headless
# Chromium over the same generated packages as bench/ts (built here too).
# Not in bench/run's default languages: bench/run --langs ts,tschromium.
set -euo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=$(command -v chromium || command -v chromium-browser) || { echo "bench/tschromium: chromium is not installed (apt-get install chromium)" >&2; exit 1; }
[ -d "$BUILD/ts/gen" ] || bash "$HERE/../ts/build.sh" "$BUILD" "$ROOT" "$SDP"
python3 -m py_compile "$HERE/run.py"
cat >"$BUILD/bin/bench-tschromium" <<EOT
#!/bin/sh
exec python3 "$HERE/run.py" --gen "$BUILD/ts/gen" --chromium "$CHROMIUM" "\$@"
EOT
chmod +x "$BUILD/bin/bench-tschromium"
