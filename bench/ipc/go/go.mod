// This go.mod only keeps the IPC runner out of the root module (so `go vet
// ./...` and `go test ./...` do not compile it): bench/ipc/build.sh builds it
// in GOPATH mode (GO111MODULE=off) against Debian's /usr/share/gocode, which
// ignores this file.
module sdpipc

go 1.19
