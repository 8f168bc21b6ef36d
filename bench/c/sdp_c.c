/* The SDP C backend's benchmarks: the code `sdp gen --lang c` generated from
 * conformance/schemas, measured on the workload's .sdpb bytes. C decodes
 * into an arena; the benchmark keeps one heap arena and resets it before
 * each decode (the documented way to reuse memory), so steady-state decodes
 * allocate nothing. "decode" decodes into a fresh local struct each time;
 * "decode_reuse" decodes into the same struct every time, with its own heap
 * arena, reset before each decode and grown to its size by a first decode
 * (docs/c.md "Decoding message after message"): C's decode into an existing
 * value. "encode" allocates an exact-size buffer with malloc and frees it;
 * "encode_reuse" encodes into a buffer kept between iterations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"
#include "harness.h"
#include "leaderboard.h"
#include "nested.h"
#include "optionals.h"
#include "plugins.h"
#include "primitives.h"

void bench_sdp_c(bench_workload *w);

#define SDP_C_TYPE(pkg, t)                                                                              \
	typedef struct {                                                                                    \
		bench_workload *w;                                                                              \
		pkg##_##t value;                                                                                \
		pkg##_arena scratch;                                                                            \
		pkg##_##t reused;                                                                               \
		pkg##_arena reuse;                                                                              \
		uint8_t *buf, *msg;                                                                             \
		size_t n, msg_n;                                                                                \
	} ctx_##pkg##_##t;                                                                                  \
	static void enc_##pkg##_##t(void *p) {                                                              \
		ctx_##pkg##_##t *c = p;                                                                         \
		size_t n = pkg##_##t##_encoded_size(&c->value);                                                 \
		uint8_t *b = malloc(n);                                                                         \
		bench_sink += pkg##_##t##_encode(&c->value, b, n);                                             \
		BENCH_ESCAPE(b);                                                                                \
		free(b);                                                                                        \
	}                                                                                                   \
	static void encr_##pkg##_##t(void *p) {                                                             \
		ctx_##pkg##_##t *c = p;                                                                         \
		bench_sink += pkg##_##t##_encode(&c->value, c->buf, c->n);                                     \
		BENCH_ESCAPE(c->buf);                                                                           \
	}                                                                                                   \
	static void dec_##pkg##_##t(void *p) {                                                              \
		ctx_##pkg##_##t *c = p;                                                                         \
		pkg##_##t out;                                                                                  \
		pkg##_arena_reset(&c->scratch);                                                                 \
		if (pkg##_##t##_decode(c->w->sdpb, c->w->sdpb_len, &out, &c->scratch) != 0) abort();            \
		BENCH_ESCAPE(&out);                                                                             \
	}                                                                                                   \
	static void decr_##pkg##_##t(void *p) {                                                             \
		ctx_##pkg##_##t *c = p;                                                                         \
		pkg##_arena_reset(&c->reuse);                                                                   \
		if (pkg##_##t##_decode(c->w->sdpb, c->w->sdpb_len, &c->reused, &c->reuse) != 0) abort();        \
		BENCH_ESCAPE(&c->reused);                                                                       \
	}                                                                                                   \
	static void rt_##pkg##_##t(void *p) {                                                               \
		ctx_##pkg##_##t *c = p;                                                                         \
		size_t n = pkg##_##t##_encoded_size(&c->value);                                                 \
		uint8_t *b = malloc(n);                                                                         \
		pkg##_##t##_encode(&c->value, b, n);                                                            \
		pkg##_##t out;                                                                                  \
		pkg##_arena_reset(&c->scratch);                                                                 \
		if (pkg##_##t##_decode(b, n, &out, &c->scratch) != 0) abort();                                  \
		BENCH_ESCAPE(&out);                                                                             \
		free(b);                                                                                        \
	}                                                                                                   \
	static void menc_##pkg##_##t(void *p) {                                                             \
		ctx_##pkg##_##t *c = p;                                                                         \
		size_t n = pkg##_##t##_encoded_message_size(&c->value);                                         \
		uint8_t *b = malloc(n);                                                                         \
		bench_sink += pkg##_##t##_encode_message(&c->value, b, n);                                     \
		BENCH_ESCAPE(b);                                                                                \
		free(b);                                                                                        \
	}                                                                                                   \
	static void mdec_##pkg##_##t(void *p) {                                                             \
		ctx_##pkg##_##t *c = p;                                                                         \
		pkg##_message m;                                                                                \
		pkg##_arena_reset(&c->scratch);                                                                 \
		if (pkg##_decode_message(c->msg, c->msg_n, &m, &c->scratch) != 0) abort();                      \
		BENCH_ESCAPE(&m);                                                                               \
	}                                                                                                   \
	static void bench_##pkg##_##t(bench_workload *w) {                                                  \
		ctx_##pkg##_##t c;                                                                              \
		pkg##_arena keep;                                                                               \
		memset(&c, 0, sizeof c);                                                                        \
		c.w = w;                                                                                        \
		pkg##_arena_init_heap(&keep);                                                                   \
		pkg##_arena_init_heap(&c.scratch);                                                              \
		pkg##_arena_init_heap(&c.reuse);                                                                \
		int rc = pkg##_##t##_decode(w->sdpb, w->sdpb_len, &c.value, &keep);                             \
		if (rc != 0) {                                                                                  \
			char why[256];                                                                              \
			snprintf(why, sizeof why, "decoding the .sdpb: %s", pkg##_strerror(rc));                   \
			bench_gap("sdp", w->name, why);                                                             \
		} else {                                                                                        \
			c.n = pkg##_##t##_encoded_size(&c.value);                                                   \
			c.buf = malloc(c.n + 1);                                                                    \
			c.msg_n = pkg##_##t##_encoded_message_size(&c.value);                                       \
			c.msg = malloc(c.msg_n + 1);                                                                \
			pkg##_message m;                                                                            \
			if (pkg##_##t##_encode(&c.value, c.buf, c.n) != w->sdpb_len ||                              \
			    memcmp(c.buf, w->sdpb, w->sdpb_len) != 0) {                                            \
				bench_gap("sdp", w->name, "self-check failed: re-encoding differs from the .sdpb");     \
			} else if (pkg##_##t##_encode_message(&c.value, c.msg, c.msg_n) != c.msg_n ||               \
			           pkg##_decode_message(c.msg, c.msg_n, &m, &c.scratch) != 0) {                     \
				bench_gap("sdp", w->name, "self-check failed: the message does not dispatch");          \
			} else {                                                                                    \
				bench_run("sdp", w->name, "encode", c.n, enc_##pkg##_##t, &c);                          \
				bench_run("sdp", w->name, "encode_reuse", c.n, encr_##pkg##_##t, &c);                   \
				bench_run("sdp", w->name, "decode", c.n, dec_##pkg##_##t, &c);                          \
				decr_##pkg##_##t(&c);                                                                   \
				bench_run("sdp", w->name, "decode_reuse", c.n, decr_##pkg##_##t, &c);                   \
				bench_run("sdp", w->name, "roundtrip", c.n, rt_##pkg##_##t, &c);                        \
				bench_run("sdp", w->name, "msg_encode", c.msg_n, menc_##pkg##_##t, &c);                 \
				bench_run("sdp", w->name, "msg_decode", c.msg_n, mdec_##pkg##_##t, &c);                 \
			}                                                                                           \
			free(c.buf);                                                                                \
			free(c.msg);                                                                                \
		}                                                                                               \
		pkg##_arena_free(&keep);                                                                        \
		pkg##_arena_free(&c.scratch);                                                                   \
		pkg##_arena_free(&c.reuse);                                                                     \
	}

SDP_C_TYPE(primitives, all_primitives)
SDP_C_TYPE(arrays, u32_array)
SDP_C_TYPE(arrays, i16_array)
SDP_C_TYPE(arrays, f32_array)
SDP_C_TYPE(arrays, byte_array)
SDP_C_TYPE(arrays, small_arrays)
SDP_C_TYPE(nested, scene)
SDP_C_TYPE(nested, audio_device)
SDP_C_TYPE(plugins, plugin_registry)
SDP_C_TYPE(optionals, reading)
SDP_C_TYPE(leaderboard, struct_a)
SDP_C_TYPE(leaderboard, mesh)
SDP_C_TYPE(leaderboard, logs)

void bench_sdp_c(bench_workload *w) {
	static const struct {
		const char *type;
		void (*fn)(bench_workload *);
	} types[] = {
		{"AllPrimitives", bench_primitives_all_primitives},
		{"U32Array", bench_arrays_u32_array},
		{"I16Array", bench_arrays_i16_array},
		{"F32Array", bench_arrays_f32_array},
		{"ByteArray", bench_arrays_byte_array},
		{"SmallArrays", bench_arrays_small_arrays},
		{"Scene", bench_nested_scene},
		{"AudioDevice", bench_nested_audio_device},
		{"PluginRegistry", bench_plugins_plugin_registry},
		{"Reading", bench_optionals_reading},
		{"StructA", bench_leaderboard_struct_a},
		{"Mesh", bench_leaderboard_mesh},
		{"Logs", bench_leaderboard_logs},
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (strcmp(types[i].type, w->type) == 0) {
			types[i].fn(w);
			return;
		}
	}
	bench_gap("sdp", w->name, "no generated type for this workload");
}
