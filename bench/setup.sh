#!/bin/sh
# Installs the peer serializers the benchmark suite compares SDP against, all
# from Debian 12's own packages (this project's machines reach no crates.io or
# Go module proxy). Run as root (or with sudo) on Debian 12:
#
#   sudo bench/setup.sh
#
# Go packages land in /usr/share/gocode/src and Rust crates in
# /usr/share/cargo/registry; bench/go/go.mod and bench/rust/.cargo/config.toml
# point there. Nothing outside bench/ depends on these packages.
set -eu

PKGS="
golang-google-protobuf-dev
golang-github-vmihailenco-msgpack.v5-dev
protobuf-compiler
libprotobuf-dev
libprotobuf-java
libflatbuffers-dev
flatbuffers-compiler
libcapnp-dev
capnproto
librust-prost-dev
librust-prost-derive-dev
librust-bytes-dev
librust-bincode-dev
librust-serde-dev
librust-serde-derive-dev
librust-serde-json-dev
protoc-gen-go
python3
make
g++
ccache
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	echo "bench/setup.sh: all peer packages are installed"
	exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
echo "bench/setup.sh: installing$missing"
$SUDO apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
