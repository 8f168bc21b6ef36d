//go:build !cgo

package main

import (
	"os"
	"testing"
)

// Every file of the example needs cgo; without it (CGO_ENABLED=0, or no C
// compiler) only this test is left, and it fails under CI.
func TestNeedsCgo(t *testing.T) {
	if os.Getenv("CI") != "" {
		t.Fatal("cgo is disabled (CGO_ENABLED=0 or no C compiler): the FFI example cannot be built")
	}
	t.Skip("cgo is disabled: the FFI example needs it")
}
