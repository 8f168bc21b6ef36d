/*
 * The C ABI that every collector of this example exports to Go: one
 * function per collector, returning the encoded PluginRegistry in a malloc'd
 * buffer, or a status and a reason. Plain C, so cgo, Rust and Swift all read
 * it; no C++ type and no exception crosses it.
 */
#ifndef SDPFFI_COLLECTOR_H
#define SDPFFI_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of sdpffi_result.status. */
#define SDPFFI_OK 0
#define SDPFFI_ERR_ENCODE 1   /* the value cannot be encoded (the encoder refused it) */
#define SDPFFI_ERR_NOMEM 2    /* malloc failed */
#define SDPFFI_ERR_INTERNAL 3 /* the collector failed (a C++ exception, a Rust panic), caught at the boundary */
#define SDPFFI_ERR_DECODE 4   /* sdpffi_c_summarize: the bytes are not a valid PluginRegistry */

/*
 * What a collector returns. On SDPFFI_OK, data holds len bytes from malloc:
 * the caller owns them and releases them with free() (Go: C.free), whichever
 * language allocated them. Otherwise data is NULL and message holds a
 * NUL-terminated reason.
 */
typedef struct sdpffi_result {
    uint8_t* data;
    size_t len;
    int32_t status;
    char message[160];
} sdpffi_result;

/*
 * Each collector enumerates plugin_count plugins (the same deterministic
 * registry in every language, see docs/ffi.md) and encodes it. With
 * corrupt != 0 it puts a value its encoder refuses into the registry (C and
 * C++: a plugin name that is not UTF-8; Rust: a panic in the collector), to
 * show how a failure crosses the boundary.
 */
sdpffi_result sdpffi_cpp_collect(uint32_t plugin_count, int corrupt); /* collector_cpp.cpp */
sdpffi_result sdpffi_c_collect(uint32_t plugin_count, int corrupt);   /* collector_c.c */
sdpffi_result sdpffi_rust_collect(uint32_t plugin_count, int corrupt); /* rust/src/lib.rs */

/*
 * The other direction: Go lends C bytes for the duration of the call (C
 * must not keep the pointer), and C decodes them with the generated C code
 * into a heap arena, counts plugins and parameters, and frees the arena.
 * SDPFFI_OK, or SDPFFI_ERR_DECODE with the rule, offset and field path in
 * message (message_cap bytes, NUL-terminated). collector_c.c.
 */
int32_t sdpffi_c_summarize(const uint8_t* data, size_t len, uint32_t* plugins, uint32_t* parameters, char* message,
                           size_t message_cap);

#ifdef __cplusplus
}
#endif

#endif
