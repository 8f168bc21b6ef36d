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

// NativeError is a failure on the native side as it crossed the boundary:
// the status code and the NUL-terminated reason of sdpffi_result.
type NativeError struct {
	Side    string
	Status  int
	Message string
}

func (e *NativeError) Error() string {
	return fmt.Sprintf("%s: status %d (%s): %s", e.Side, e.Status, statusName(e.Status), e.Message)
}

func statusName(s int) string {
	switch s {
	case C.SDPFFI_ERR_ENCODE:
		return "encode"
	case C.SDPFFI_ERR_NOMEM:
		return "nomem"
	case C.SDPFFI_ERR_INTERNAL:
		return "internal"
	case C.SDPFFI_ERR_DECODE:
		return "decode"
	}
	return "unknown"
}

// take copies a collector's bytes into Go memory and frees the malloc'd
// buffer: Go owns the result from here, C owns nothing. (Decoding straight
// from the C buffer with unsafe.Slice would save the copy; the Go decoder
// copies strings and arrays, so the buffer could be freed right after it.)
func take(collector string, r C.sdpffi_result) ([]byte, error) {
	if r.status != C.SDPFFI_OK {
		return nil, &NativeError{Side: collector, Status: int(r.status), Message: C.GoString(&r.message[0])}
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
	return take("C++ collector", C.sdpffi_cpp_collect(C.uint32_t(plugins), cbool(corrupt)))
}

// cCollect calls the C collector (collector_c.c).
func cCollect(plugins uint32, corrupt bool) ([]byte, error) {
	return take("C collector", C.sdpffi_c_collect(C.uint32_t(plugins), cbool(corrupt)))
}

// cSummarize lends data to C for the duration of the call (cgo's rule: C
// may not keep a pointer to Go memory after the call returns), and C decodes
// it with the generated C code (collector_c.c).
func cSummarize(data []byte) (plugins, parameters uint32, err error) {
	var p *C.uint8_t
	if len(data) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&data[0]))
	}
	var np, nq C.uint32_t
	var msg [160]C.char
	if st := C.sdpffi_c_summarize(p, C.size_t(len(data)), &np, &nq, &msg[0], C.size_t(len(msg))); st != C.SDPFFI_OK {
		return 0, 0, &NativeError{Side: "C decoder", Status: int(st), Message: C.GoString(&msg[0])}
	}
	return uint32(np), uint32(nq), nil
}
