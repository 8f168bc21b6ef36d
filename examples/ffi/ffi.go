//go:build cgo

package main

/*
#cgo CFLAGS: -std=c99
#cgo CXXFLAGS: -std=c++17
#cgo LDFLAGS: -lstdc++
#include <stdlib.h>
#include "collector.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// CollectError is a collector's failure as it crossed the boundary: the
// status code and the NUL-terminated reason of sdpffi_result.
type CollectError struct {
	Collector string
	Status    int
	Message   string
}

func (e *CollectError) Error() string {
	return fmt.Sprintf("%s collector: status %d (%s): %s", e.Collector, e.Status, statusName(e.Status), e.Message)
}

func statusName(s int) string {
	switch s {
	case C.SDPFFI_ERR_ENCODE:
		return "encode"
	case C.SDPFFI_ERR_NOMEM:
		return "nomem"
	case C.SDPFFI_ERR_INTERNAL:
		return "internal"
	}
	return "unknown"
}

// take copies a collector's bytes into Go memory and frees the malloc'd
// buffer: Go owns the result from here, C owns nothing. (Decoding straight
// from the C buffer with unsafe.Slice would save the copy; the Go decoder
// copies strings and arrays, so the buffer could be freed right after it.)
func take(collector string, r C.sdpffi_result) ([]byte, error) {
	if r.status != C.SDPFFI_OK {
		return nil, &CollectError{Collector: collector, Status: int(r.status), Message: C.GoString(&r.message[0])}
	}
	defer C.free(unsafe.Pointer(r.data))
	return C.GoBytes(unsafe.Pointer(r.data), C.int(r.len)), nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// cppCollect calls the C++ collector (collector_cpp.cpp).
func cppCollect(plugins uint32, corrupt bool) ([]byte, error) {
	return take("C++", C.sdpffi_cpp_collect(C.uint32_t(plugins), cbool(corrupt)))
}

// cCollect calls the C collector (collector_c.c).
func cCollect(plugins uint32, corrupt bool) ([]byte, error) {
	return take("C", C.sdpffi_c_collect(C.uint32_t(plugins), cbool(corrupt)))
}
