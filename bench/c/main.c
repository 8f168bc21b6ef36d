/* The C harness: the memcpy floor for every workload (copying the SDP wire
 * bytes into a preallocated buffer) and, when the C backend is available,
 * SDP C (bench/c/sdp_c.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#ifdef HAVE_SDP_C
void bench_sdp_c(bench_workload *w);
#endif

typedef struct {
	const unsigned char *src;
	unsigned char *dst;
	size_t n;
} copy_ctx;

static void do_copy(void *p) {
	copy_ctx *c = p;
	memcpy(c->dst, c->src, c->n);
	BENCH_ESCAPE(c->dst);
}

int main(int argc, char **argv) {
	char tool[64];
#ifdef __clang__
	snprintf(tool, sizeof tool, "clang %s", __clang_version__);
#else
	snprintf(tool, sizeof tool, "gcc %s", __VERSION__);
#endif
	bench_init(argc, argv, "c", tool);
#ifndef HAVE_SDP_C
	bench_gap("sdp", NULL, SDP_C_GAP);
#endif
	for (int i = 0; i < bench_count(); i++) {
		bench_workload *w = bench_get(i);
		copy_ctx c = {w->sdpb, malloc(w->sdpb_len + 1), w->sdpb_len};
		memset(c.dst, 0, w->sdpb_len + 1);
		bench_run("memcpy", w->name, "copy", w->sdpb_len, do_copy, &c);
		free(c.dst);
#ifdef HAVE_SDP_C
		bench_sdp_c(w);
#endif
	}
	return bench_finish();
}
