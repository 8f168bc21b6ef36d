package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// cpuNow is the CPU time of the process (user + system, all threads,
// including the garbage collector's): on a shared machine it leaves out the
// time the benchmark waited for a CPU, which wall time would count.
func cpuNow() time.Duration {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

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
// about cfg.Target, then times cfg.Runs runs (3 for operations slower than
// 50 ms) and reports ns/op of each.
func measure(cfg Config, f func()) (samples []float64, iters int) {
	f() // warm up (and fault in buffers)
	runtime.GC()
	n := 1
	var el time.Duration
	for {
		t0 := cpuNow()
		for i := 0; i < n; i++ {
			f()
		}
		el = (cpuNow() - t0)
		if el >= cfg.Target/8 || n >= 1<<30 {
			break
		}
		n *= 2
	}
	iters = int(float64(n) * float64(cfg.Target) / float64(el+1))
	if iters < 1 {
		iters = 1
	}
	runs := cfg.Runs
	if el.Nanoseconds()/int64(n) > 50e6 {
		runs = 3
	}
	for r := 0; r < runs; r++ {
		// Every run starts from a collected heap, so that the garbage an
		// earlier run (or benchmark) left does not fall into this run's time.
		runtime.GC()
		t0 := cpuNow()
		for i := 0; i < iters; i++ {
			f()
		}
		samples = append(samples, float64((cpuNow()-t0).Nanoseconds())/float64(iters))
	}
	return samples, iters
}

// run measures one benchmark and its allocations per operation. In quick
// mode it runs f once, cold: that proves the benchmark works, and the time
// means little.
func run(cfg Config, impl, workload, op string, wire int, f func()) Result {
	fmt.Fprintf(os.Stderr, "go %-12s %-16s %s\n", impl, workload, op)
	r := Result{Impl: impl, Workload: workload, Op: op, Bytes: wire}
	if cfg.Quick {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t0 := cpuNow()
		f()
		ns := float64((cpuNow() - t0).Nanoseconds())
		runtime.ReadMemStats(&m1)
		r.MedianNs, r.MinNs, r.MaxNs, r.Runs, r.Iters = ns, ns, ns, 1, 1
		r.Allocs = float64(m1.Mallocs - m0.Mallocs)
		return r
	}
	samples, iters := measure(cfg, f)
	sort.Float64s(samples)
	allocRuns := 20
	if iters < allocRuns {
		allocRuns = iters
	}
	r.MedianNs, r.MinNs, r.MaxNs = samples[len(samples)/2], samples[0], samples[len(samples)-1]
	r.Runs, r.Iters = len(samples), iters
	r.Allocs = testing.AllocsPerRun(allocRuns, f)
	return r
}
