/* The C and C++ harnesses' shared measurement loop, workload table and
 * JSON output (bench/c/harness.c). Same method as the Go harness: calibrate
 * an iteration count to ~5 ms a run, time 11 runs, report median/min/max
 * ns/op; quick mode runs each benchmark 3 times. Allocations per operation
 * are counted by replacing malloc (operator new calls malloc). */
#ifndef SDP_BENCH_HARNESS_H
#define SDP_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	char name[64], schema[64], type[64], kind[32];
	unsigned char *json, *sdpb; /* the data, NUL-terminated */
	size_t json_len, sdpb_len;
} bench_workload;

/* Parses --workloads --data --out --quick --only; loads the workloads. */
void bench_init(int argc, char **argv, const char *language, const char *toolchain);
int bench_count(void);
int bench_quick(void); /* --quick given */
bench_workload *bench_get(int i);

typedef void (*bench_fn)(void *ctx);
/* Times fn(ctx) and records a result; bytes is the encoded size. */
void bench_run(const char *impl, const char *workload, const char *op, size_t bytes, bench_fn fn, void *ctx);
/* The same measurement for a harness whose loop lives in its own language:
 * fn(ctx, n) performs the operation n times. Swift uses it, so that each
 * iteration is a plain Swift call rather than a C-to-Swift transition that
 * retains and releases the closure: measured ~40 ns an iteration, more than
 * half of a whole all-primitives encode. */
typedef void (*bench_batch_fn)(void *ctx, long n);
void bench_run_batch(const char *impl, const char *workload, const char *op, size_t bytes, bench_batch_fn fn, void *ctx);
void bench_gap(const char *impl, const char *workload, const char *reason);
/* Writes the results file; returns the process exit status. */
int bench_finish(void);

/* Allocation counter (malloc, calloc, realloc calls). */
extern volatile uint64_t bench_allocs;
/* A value the optimizer must assume is read. */
extern volatile uint64_t bench_sink;
#define BENCH_ESCAPE(p) __asm__ volatile("" : : "g"(p) : "memory")

#ifdef __cplusplus
}
#endif
#endif
