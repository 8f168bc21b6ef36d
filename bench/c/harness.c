#define _GNU_SOURCE
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile uint64_t bench_allocs;
volatile uint64_t bench_sink;

/* Counting malloc: glibc's allocator under the standard names. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
void *malloc(size_t n) { bench_allocs++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { bench_allocs++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { bench_allocs++; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
int posix_memalign(void **out, size_t align, size_t n) {
	bench_allocs++;
	void *p = __libc_memalign(align, n);
	if (!p) return 12;
	*out = p;
	return 0;
}
void *aligned_alloc(size_t align, size_t n) { bench_allocs++; return __libc_memalign(align, n); }
void *memalign(size_t align, size_t n) { bench_allocs++; return __libc_memalign(align, n); }

typedef struct {
	char impl[48], workload[64], op[32];
	double median, min, max, allocs;
	int runs;
	long iters;
	size_t bytes;
} result;

typedef struct {
	char impl[48], workload[64], reason[512];
} gap;

static bench_workload *workloads;
static int nworkloads;
static result *results;
static int nresults, capresults;
static gap *gaps;
static int ngaps, capgaps;
static int quick;
static const char *outpath, *lang, *tool;
static const char *impls; /* --impls: only these implementations are timed */

/* CPU time of the process (user + system, all threads): on a shared machine
 * it leaves out the time the benchmark waited for a CPU, which wall time
 * would count. */
static double now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static unsigned char *slurp(const char *dir, const char *name, const char *ext, size_t *len) {
	char path[4096];
	snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench: cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = __libc_malloc((size_t)n + 1);
	if (fread(b, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "bench: cannot read %s\n", path);
		exit(1);
	}
	b[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int wanted(const char *only, const char *name) {
	if (!only || !*only) return 1;
	size_t n = strlen(name);
	for (const char *p = only; *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == n && strncmp(p, name, n) == 0) return 1;
		if (!e) break;
		p = e + 1;
	}
	return 0;
}

void bench_init(int argc, char **argv, const char *language, const char *toolchain) {
	const char *list = "bench/workloads.tsv", *data = "bench/build/data", *only = NULL;
	/* Copies: callers (Swift) may pass temporary strings. */
	size_t ll = strlen(language) + 1, tl = strlen(toolchain) + 1;
	char *l = __libc_malloc(ll), *t = __libc_malloc(tl);
	memcpy(l, language, ll);
	memcpy(t, toolchain, tl);
	lang = l;
	tool = t;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) quick = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "--workloads")) list = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--data")) data = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--out")) outpath = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--only")) only = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--impls")) impls = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--quick] [--workloads F] [--data DIR] [--out F] [--only a,b] [--impls a,b]\n", argv[0]);
			exit(2);
		}
	}
	FILE *f = fopen(list, "r");
	if (!f) {
		fprintf(stderr, "bench: cannot open %s\n", list);
		exit(1);
	}
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '\n') continue;
		bench_workload w;
		memset(&w, 0, sizeof w);
		char doc[128];
		if (sscanf(line, "%63[^\t]\t%63[^\t]\t%63[^\t]\t%127[^\t]\t%31[^\t\n]", w.name, w.schema, w.type, doc, w.kind) != 5) {
			fprintf(stderr, "bench: bad line in %s: %s", list, line);
			exit(1);
		}
		if (!wanted(only, w.name)) continue;
		w.json = slurp(data, w.name, ".json", &w.json_len);
		w.sdpb = slurp(data, w.name, ".sdpb", &w.sdpb_len);
		workloads = __libc_realloc(workloads, sizeof *workloads * (size_t)(nworkloads + 1));
		workloads[nworkloads++] = w;
	}
	fclose(f);
}

int bench_count(void) { return nworkloads; }
int bench_quick(void) { return quick; }
bench_workload *bench_get(int i) { return &workloads[i]; }

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct {
	bench_fn fn;
	void *ctx;
} one_at_a_time;

static void run_each(void *p, long n) {
	one_at_a_time *o = p;
	for (long i = 0; i < n; i++) o->fn(o->ctx);
}

void bench_run(const char *impl, const char *workload, const char *op, size_t bytes, bench_fn fn, void *ctx) {
	one_at_a_time o = {fn, ctx};
	bench_run_batch(impl, workload, op, bytes, run_each, &o);
}

void bench_run_batch(const char *impl, const char *workload, const char *op, size_t bytes, bench_batch_fn fn, void *ctx) {
	enum { RUNS = 11 };
	double samples[RUNS];
	int runs = 1;
	long iters;
	if (!wanted(impls, impl)) return;
	fprintf(stderr, "%s %-12s %-16s %s\n", lang, impl, workload, op);
	double allocs;
	if (quick) {
		/* Once, cold: proves the benchmark runs; the time means little. */
		iters = 1;
		uint64_t a0 = bench_allocs;
		double t0 = now_ns();
		fn(ctx, 1);
		samples[0] = now_ns() - t0;
		allocs = (double)(bench_allocs - a0);
	} else {
		double w0 = now_ns();
		fn(ctx, 1); /* warm up */
		double warm = now_ns() - w0;
		const double target = 5e6;
		long n = 1;
		double el = 0;
		if (warm > 500e6) {
			/* Over half a second a call (Foundation's coders on a million
			 * floats): one timed run of one call after the warm-up. */
			iters = 1;
			uint64_t a0 = bench_allocs;
			double t0 = now_ns();
			fn(ctx, 1);
			samples[0] = now_ns() - t0;
			allocs = (double)(bench_allocs - a0);
			goto done;
		}
		for (;;) {
			double t0 = now_ns();
			fn(ctx, n);
			el = now_ns() - t0;
			if (el >= target / 8 || n >= (1L << 30)) break;
			n *= 2;
		}
		iters = (long)((double)n * target / (el + 1));
		if (iters < 1) iters = 1;
		/* Slow operations (over ~50 ms) get 3 runs instead of 11. */
		runs = el / (double)n > 50e6 ? 3 : RUNS;
		for (int r = 0; r < runs; r++) {
			double t0 = now_ns();
			fn(ctx, iters);
			samples[r] = (now_ns() - t0) / (double)iters;
		}
		long arun = iters < 20 ? iters : 20;
		uint64_t a0 = bench_allocs;
		fn(ctx, arun);
		allocs = (double)(bench_allocs - a0) / (double)arun;
	}
done:
	qsort(samples, (size_t)runs, sizeof samples[0], cmp_double);
	if (nresults == capresults) {
		capresults = capresults ? 2 * capresults : 64;
		results = __libc_realloc(results, sizeof *results * (size_t)capresults);
	}
	result *r = &results[nresults++];
	memset(r, 0, sizeof *r);
	snprintf(r->impl, sizeof r->impl, "%s", impl);
	snprintf(r->workload, sizeof r->workload, "%s", workload);
	snprintf(r->op, sizeof r->op, "%s", op);
	r->median = samples[runs / 2];
	r->min = samples[0];
	r->max = samples[runs - 1];
	r->runs = runs;
	r->iters = iters;
	r->bytes = bytes;
	r->allocs = allocs;
}

void bench_gap(const char *impl, const char *workload, const char *reason) {
	if (ngaps == capgaps) {
		capgaps = capgaps ? 2 * capgaps : 16;
		gaps = __libc_realloc(gaps, sizeof *gaps * (size_t)capgaps);
	}
	gap *g = &gaps[ngaps++];
	snprintf(g->impl, sizeof g->impl, "%s", impl);
	snprintf(g->workload, sizeof g->workload, "%s", workload ? workload : "");
	snprintf(g->reason, sizeof g->reason, "%s", reason);
}

static void json_str(FILE *f, const char *s) {
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\') fputc('\\', f);
		if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
		else fputc(*s, f);
	}
	fputc('"', f);
}

int bench_finish(void) {
	FILE *f = outpath ? fopen(outpath, "w") : stdout;
	if (!f) {
		fprintf(stderr, "bench: cannot write %s\n", outpath);
		return 1;
	}
	fprintf(f, "{\"language\":");
	json_str(f, lang);
	fprintf(f, ",\"toolchain\":");
	json_str(f, tool);
	fprintf(f, ",\"quick\":%s,\"results\":[", quick ? "true" : "false");
	for (int i = 0; i < nresults; i++) {
		result *r = &results[i];
		fprintf(f, "%s\n{\"impl\":", i ? "," : "");
		json_str(f, r->impl);
		fprintf(f, ",\"workload\":");
		json_str(f, r->workload);
		fprintf(f, ",\"op\":");
		json_str(f, r->op);
		fprintf(f, ",\"median_ns\":%.3f,\"min_ns\":%.3f,\"max_ns\":%.3f,\"runs\":%d,\"iters\":%ld,\"bytes\":%zu,\"allocs\":%.2f}",
			r->median, r->min, r->max, r->runs, r->iters, r->bytes, r->allocs);
	}
	fprintf(f, "],\"gaps\":[");
	for (int i = 0; i < ngaps; i++) {
		fprintf(f, "%s\n{\"impl\":", i ? "," : "");
		json_str(f, gaps[i].impl);
		fprintf(f, ",\"workload\":");
		json_str(f, gaps[i].workload);
		fprintf(f, ",\"reason\":");
		json_str(f, gaps[i].reason);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
	if (f != stdout) fclose(f);
	return 0;
}
