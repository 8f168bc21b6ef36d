// This go.mod only keeps the benchmark harness out of the root module (so
// `go test ./...` does not compile it): bench/go/build.sh builds it in GOPATH
// mode (GO111MODULE=off) against Debian's /usr/share/gocode, which ignores
// this file.
module sdpbench

go 1.19
