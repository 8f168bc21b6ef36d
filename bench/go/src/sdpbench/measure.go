package main

import (
	"sort"
	"testing"
	"time"
)

// Result is one measured (implementation, workload, operation).
type Result struct {
	Impl     string  `json:"impl"`
	Workload string  `json:"workload"`
	Op       string  `json:"op"`
	MedianNs float64 `json:"median_ns"`
	MinNs    float64 `json:"min_ns"`
	MaxNs    float64 `json:"max_ns"`
	Runs     int     `json:"runs"`
	Iters    int     `json:"iters"`
	Bytes    int     `json:"bytes"`
	Allocs   float64 `json:"allocs"`
}

// Config is how long to measure.
type Config struct {
	Quick  bool
	Runs   int           // timed runs per benchmark; the report shows their median, min and max
	Target time.Duration // wall time of one run
}

// measure times f: it calibrates an iteration count so that one run lasts
// about cfg.Target, then times cfg.Runs runs and reports ns/op of each. In
// quick mode it runs f a few times, once, so that the suite is exercised
// without spending time on precision.
func measure(cfg Config, f func()) (samples []float64, iters int) {
	f() // warm up (and fault in buffers)
	if cfg.Quick {
		iters = 3
		t0 := time.Now()
		for i := 0; i < iters; i++ {
			f()
		}
		return []float64{float64(time.Since(t0).Nanoseconds()) / float64(iters)}, iters
	}
	n := 1
	var el time.Duration
	for {
		t0 := time.Now()
		for i := 0; i < n; i++ {
			f()
		}
		el = time.Since(t0)
		if el >= cfg.Target/8 || n >= 1<<30 {
			break
		}
		n *= 2
	}
	iters = int(float64(n) * float64(cfg.Target) / float64(el+1))
	if iters < 1 {
		iters = 1
	}
	for r := 0; r < cfg.Runs; r++ {
		t0 := time.Now()
		for i := 0; i < iters; i++ {
			f()
		}
		samples = append(samples, float64(time.Since(t0).Nanoseconds())/float64(iters))
	}
	return samples, iters
}

// run measures one benchmark and its allocations per operation.
func run(cfg Config, impl, workload, op string, wire int, f func()) Result {
	samples, iters := measure(cfg, f)
	sort.Float64s(samples)
	allocRuns := 20
	if cfg.Quick {
		allocRuns = 1
	}
	return Result{
		Impl: impl, Workload: workload, Op: op,
		MedianNs: samples[len(samples)/2], MinNs: samples[0], MaxNs: samples[len(samples)-1],
		Runs: len(samples), Iters: iters, Bytes: wire,
		Allocs: testing.AllocsPerRun(allocRuns, f),
	}
}
