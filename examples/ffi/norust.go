//go:build cgo && !rust

package main

import "errors"

// Without the rust build tag the program does not link the Rust static
// library (rust.go), so that `go run .` works before cargo has built it.
const haveRust = false

func rustCollect(plugins uint32, corrupt bool) ([]byte, error) {
	return nil, errors.New("built without -tags rust")
}
