//go:build cgo && rust

package main

// The Rust collector is a static library (rust/, crate-type staticlib) that
// cargo builds before go does:
//
//	(cd rust && cargo build --release) && go run -tags rust .
//
// A Rust static library carries the parts of Rust's standard library it
// uses, which need libdl, libpthread and libm from the C library.

/*
#cgo LDFLAGS: -L${SRCDIR}/rust/target/release -lregistry_collector -ldl -lpthread -lm
#include "collector.h"
*/
import "C"

const haveRust = true

// rustCollect calls the Rust collector (rust/src/lib.rs).
func rustCollect(plugins uint32, corrupt bool) ([]byte, error) {
	return take("Rust collector", C.sdpffi_rust_collect(C.uint32_t(plugins), cbool(corrupt)))
}
