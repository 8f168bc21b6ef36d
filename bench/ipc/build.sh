#!/usr/bin/env bash
# Builds the IPC workload (bench/README.md, "IPC"): bench/build/bin/bench-ipc
# (the Go runner, also bench/build/ipc/bin/ipc-go: the Go writers, readers,
# raw-pipe floor and protobuf reader) and, each when its toolchain works,
# ipc-cpp (SDP C++ writer and reader, protobuf C++ writer), ipc-rust and
# ipc-swift (SDP writer and reader). A language that does not build is
# written to bench/build/ipc/gaps.tsv with the reason; the runner reports its
# pairs as not measured.
set -uo pipefail
BUILD=$1 ROOT=$2 SDP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/ipc
rm -rf "$OUT/bin" "$OUT/gen" "$OUT/gaps.tsv" "$OUT/gopath" "$OUT/cpp" "$OUT/swift"
mkdir -p "$OUT/bin" "$OUT/gen"
gap() { printf '%s\t%s\n' "$1" "$2" >>"$OUT/gaps.tsv"; echo "ipc: $1: $2" >&2; }
# schema name -> file
schema() { case $1 in ipc) echo "$HERE/ipc.sdp" ;; *) echo "$ROOT/conformance/schemas/$1.sdp" ;; esac; }
SCHEMAS="leaderboard arrays ipc"

# --- Go: the runner and the Go peers (GOPATH mode over Debian's gocode) ---
set -e
GP=$OUT/gopath
mkdir -p "$GP/src/benchpb/pb"
protoc -I"$HERE/../peers" --go_out="$GP/src/benchpb/pb" --go_opt=paths=source_relative "$HERE/../peers/bench.proto"
mkdir -p "$GP/src/benchpb/ipcpb"
protoc -I"$HERE" --go_out="$GP/src/benchpb/ipcpb" --go_opt=paths=source_relative "$HERE/ipc.proto"
for s in $SCHEMAS; do
	"$SDP" gen --lang go --out "$GP/src/sdpgen/$s" --package "$s" "$(schema $s)" >/dev/null
done
(export GO111MODULE=off GOPATH="$GP:$HERE/go:/usr/share/gocode" GOFLAGS=
	go build -o "$OUT/bin/ipc-go" sdpipc)
cp "$OUT/bin/ipc-go" "$BUILD/bin/bench-ipc"
set +e

# --- C++: SDP C++ writer and reader, protobuf C++ writer (-O2) ---
build_cpp() {
	local o=$OUT/cpp CXX=${CXX:-g++}
	mkdir -p "$o/peers" "$o/obj"
	command -v "$CXX" >/dev/null || { echo "$CXX not found"; return 1; }
	protoc -I"$HERE/../peers" --cpp_out="$o/peers" "$HERE/../peers/bench.proto" || return 1
	protoc -I"$HERE" --cpp_out="$o/peers" "$HERE/ipc.proto" || return 1
	if command -v ccache >/dev/null; then
		export CCACHE_BASEDIR="$ROOT" CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
		CXX="ccache $CXX"
	fi
	local inc=(-I"$o/peers") srcs=("$HERE/cpp/main.cpp" "$o/peers/bench.pb.cc" "$o/peers/ipc.pb.cc") objs=()
	for s in $SCHEMAS; do
		"$SDP" gen --lang cpp --out "$o/sdp/$s" "$(schema $s)" >/dev/null || { echo "sdp gen --lang cpp failed for $s.sdp"; return 1; }
		inc+=(-I"$o/sdp/$s")
		srcs+=("$o/sdp/$s/$s.cpp")
	done
	for s in "${srcs[@]}"; do
		$CXX -O2 -std=c++17 "${inc[@]}" -c -o "$o/obj/$(basename "$s").o" "$s" || return 1
		objs+=("$o/obj/$(basename "$s").o")
	done
	# shellcheck disable=SC2046
	${CXX#ccache } -o "$OUT/bin/ipc-cpp" "${objs[@]}" $(pkg-config --libs protobuf) || return 1
}
build_cpp >"$OUT/cpp.log" 2>&1 || gap cpp "not built: the C++ peer failed to build: $(tail -n1 "$OUT/cpp.log")"

# --- Rust: SDP Rust writer and reader (cargo --release, offline, no crates) ---
build_rust() {
	command -v cargo >/dev/null || [ -x "$HOME/.cargo/bin/cargo" ] || { echo "cargo not found"; return 1; }
	command -v cargo >/dev/null || export PATH=$HOME/.cargo/bin:$PATH
	local crate=$OUT/rust deps=""
	rm -rf "$crate/src" "$crate/gen" "$crate/Cargo.toml"
	mkdir -p "$crate/gen"
	cp -r "$HERE/rust/src" "$HERE/rust/Cargo.toml" "$crate/"
	for s in $SCHEMAS; do
		"$SDP" gen --lang rust --out "$crate/gen/$s" "$(schema $s)" >/dev/null || { echo "sdp gen --lang rust failed for $s.sdp"; return 1; }
		deps="$deps$s = { path = \"gen/$s\" }\n"
	done
	python3 - "$crate/Cargo.toml" "$deps" <<'PY' || return 1
import sys
p, deps = sys.argv[1], sys.argv[2].replace("\\n", "\n")
s = open(p).read()
open(p, "w").write(s.replace("[dependencies]\n", "[dependencies]\n" + deps, 1))
PY
	# A target directory outside the work tree, as bench/rust does.
	local target="${SDP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdp-bench}/ipc-rust-target"
	(cd "$crate" && CARGO_TARGET_DIR=$target cargo build --release --offline) || return 1
	cp "$target/release/ipc-rust" "$OUT/bin/ipc-rust"
}
build_rust >"$OUT/rust.log" 2>&1 || gap rust "not built: the Rust peer failed to build: $(tail -n1 "$OUT/rust.log")"

# --- Swift: SDP Swift writer and reader (swiftc -O -wmo, one module per schema) ---
build_swift() {
	local o=$OUT/swift SWIFTC=${SWIFTC:-swiftc} mods=()
	command -v "$SWIFTC" >/dev/null || SWIFTC=/opt/swift/usr/bin/swiftc
	[ -x "$(command -v "$SWIFTC")" ] || { echo "swiftc not found"; return 1; }
	mkdir -p "$o/mods"
	for s in $SCHEMAS; do
		"$SDP" gen --lang swift --out "$o/sdp/$s" "$(schema $s)" >/dev/null || { echo "sdp gen --lang swift failed for $s.sdp"; return 1; }
		"$SWIFTC" -O -wmo -parse-as-library -module-name "$s" -emit-module \
			-emit-module-path "$o/mods/$s.swiftmodule" -emit-library -static \
			-o "$o/mods/lib$s.a" "$o/sdp/$s/Sources/$s"/*.swift || return 1
		mods+=("$o/mods/lib$s.a")
	done
	"$SWIFTC" -O -wmo -I "$o/mods" -o "$OUT/bin/ipc-swift" "$HERE/swift/main.swift" "${mods[@]}" || return 1
}
build_swift >"$OUT/swift.log" 2>&1 || gap swift "not built: the Swift peer failed to build: $(tail -n1 "$OUT/swift.log")"
