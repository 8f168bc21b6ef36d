package main

// The runner: every writer → reader pair, every message kind, over a pipe
// and a Unix socket (a socketpair), timed in wall time from the writer's
// first write to the reader's last decoded message.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type side struct{ lang, mode string }

type pair struct {
	id, title string
	w, r      side
	kinds     []string // nil: every kind
}

var pairs = []pair{
	{"floor", "raw pipe floor: pre-encoded bytes written and discarded (Go → Go)", side{"go", "floor-write"}, side{"go", "floor-read"}, nil},
	{"go_go", "SDP Go → Go", side{"go", "write"}, side{"go", "read"}, nil},
	{"go_go_reuse", "SDP Go → Go, the reader decoding into the previous value (Options.Reuse)", side{"go", "write"}, side{"go", "read-reuse"}, nil},
	{"cpp_go", "SDP C++ → Go", side{"cpp", "write"}, side{"go", "read"}, nil},
	{"rust_go", "SDP Rust → Go", side{"rust", "write"}, side{"go", "read"}, nil},
	{"swift_go", "SDP Swift → Go", side{"swift", "write"}, side{"go", "read"}, nil},
	{"cpp_go_reuse", "SDP C++ → Go, the reader decoding into the previous value (Options.Reuse)", side{"cpp", "write"}, side{"go", "read-reuse"}, nil},
	{"rust_go_reuse", "SDP Rust → Go, the reader decoding into the previous value (Options.Reuse)", side{"rust", "write"}, side{"go", "read-reuse"}, nil},
	{"swift_go_reuse", "SDP Swift → Go, the reader decoding into the previous value (Options.Reuse)", side{"swift", "write"}, side{"go", "read-reuse"}, nil},
	{"go_swift", "SDP Go → Swift", side{"go", "write"}, side{"swift", "read"}, nil},
	{"go_swift_reuse", "SDP Go → Swift, the reader decoding into the previous message (next(into:))", side{"go", "write"}, side{"swift", "read-reuse"}, nil},
	{"go_rust", "SDP Go → Rust", side{"go", "write"}, side{"rust", "read"}, nil},
	{"go_rust_reuse", "SDP Go → Rust, the reader decoding into the previous message (read_message_into)", side{"go", "write"}, side{"rust", "read-reuse"}, nil},
	{"go_cpp", "SDP Go → C++", side{"go", "write"}, side{"cpp", "read"}, nil},
	{"protobuf", "protobuf C++ → Go (length-delimited)", side{"cpp", "pb-write"}, side{"go", "pb-read"}, nil},
}

var kinds = []string{"struct_a", "sensor", "i16_48k"}

var kindTitles = map[string]string{
	"struct_a": "leaderboard.sdp StructA",
	"sensor":   "ipc.sdp SensorFrame (30 fields)",
	"i16_48k":  "arrays.sdp I16Array, 48,000 samples",
}

type result struct {
	Workload     string  `json:"workload"`
	Kind         string  `json:"kind"`
	Impl         string  `json:"impl"`
	Op           string  `json:"op"`
	Title        string  `json:"title"`
	Transport    string  `json:"transport"`
	MedianNS     float64 `json:"median_ns"` // wall ns per message
	Messages     int     `json:"messages"`
	MessageBytes int     `json:"message_bytes"`
	WireBytes    int64   `json:"wire_bytes"`
	WallNS       int64   `json:"wall_ns"`
	MsgsPerS     float64 `json:"msgs_per_s"`
	MBPerS       float64 `json:"mb_per_s"`
	RunsNS       []int64 `json:"runs_ns"`
	Quick        bool    `json:"quick"`
	Load         string  `json:"load_average"` // /proc/loadavg after the runs
}

type gap struct {
	Impl     string `json:"impl"`
	Workload string `json:"workload"`
	Reason   string `json:"reason"`
}

type runOut struct {
	start, end int64
	count      int64
	sum        uint64
	bytes      int64
	writerErr  string
	readerErr  string
}

func runner(args []string) error {
	fs := flag.NewFlagSet("bench-ipc", flag.ContinueOnError)
	fs.String("workloads", "", "bench/workloads.tsv (unused: the IPC kinds are fixed)")
	dataDir := fs.String("data", "", "bench/build/data")
	quick := fs.Bool("quick", false, "a few messages per pair, once")
	only := fs.String("only", "", "kinds or pairs to run (struct_a,sensor,i16_48k,go_go,...)")
	out := fs.String("out", "", "results JSON")
	target := fs.Duration("target", 500*time.Millisecond, "wall time per run (N is calibrated to it)")
	reps := fs.Int("runs", 5, "timed runs per pair, kind and transport (median)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	build := filepath.Dir(filepath.Dir(exe)) // bench/build
	ipcDir := filepath.Join(build, "ipc")
	data := filepath.Join(ipcDir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return err
	}
	for _, k := range []string{"struct_a", "i16_48k"} {
		b, err := os.ReadFile(filepath.Join(*dataDir, k+".sdpb"))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(data, k+".sdpb"), b, 0o644); err != nil {
			return err
		}
	}
	sb, err := sensorFrame().MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(data, "sensor.sdpb"), sb, 0o644); err != nil {
		return err
	}

	// Languages build.sh could not build: lang \t reason.
	missing := map[string]string{}
	if f, err := os.Open(filepath.Join(ipcDir, "gaps.tsv")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l, r, ok := strings.Cut(sc.Text(), "\t"); ok {
				missing[l] = r
			}
		}
		f.Close()
	}
	bin := func(lang string) string { return filepath.Join(ipcDir, "bin", "ipc-"+lang) }
	for _, l := range []string{"go", "cpp", "rust", "swift"} {
		if _, ok := missing[l]; !ok {
			if _, err := os.Stat(bin(l)); err != nil {
				missing[l] = "not built: " + bin(l) + " is missing"
			}
		}
	}
	// --only: IPC kinds and pair names; each list that names any of its own
	// filters, and a list naming neither (other workloads) runs nothing.
	var onlyKinds, onlyPairs []string
	if *only != "" {
		for _, o := range strings.Split(*only, ",") {
			if contains(kinds, o) {
				onlyKinds = append(onlyKinds, o)
			}
			for _, p := range pairs {
				if p.id == o {
					onlyPairs = append(onlyPairs, o)
				}
			}
		}
		if onlyKinds == nil && onlyPairs == nil {
			onlyKinds = []string{"(none)"}
		}
	}
	kindSelected := func(k string) bool { return onlyKinds == nil || contains(onlyKinds, k) }
	pairSelected := func(p string) bool {
		return onlyPairs == nil || contains(onlyPairs, p) || p == "floor" || p == "protobuf"
	}

	loadStart := loadAvg()
	results := []result{}
	gaps := []gap{}
	ns := map[string]int{"struct_a": 20000, "sensor": 20000, "i16_48k": 200}
	if *quick {
		ns = map[string]int{"struct_a": 10, "sensor": 10, "i16_48k": 3}
		*reps = 1
	}
	for _, kind := range kinds {
		if !kindSelected(kind) {
			continue
		}
		msg, err := messageBytes(kind, data)
		if err != nil {
			return err
		}
		want, err := expectedSum(kind, data)
		if err != nil {
			return err
		}
		check := func(p pair, o runOut, n int) error {
			if o.writerErr != "" || o.readerErr != "" {
				return fmt.Errorf("self-check failed: the transfer did not complete: %s", strings.Join(nonEmpty(o.writerErr, o.readerErr), "; "))
			}
			switch {
			case p.id == "floor":
				if o.bytes != int64(n*len(msg)) {
					return fmt.Errorf("self-check failed: the reader got %d bytes, want %d", o.bytes, n*len(msg))
				}
			case o.count != int64(n) || o.sum != want*uint64(n):
				return fmt.Errorf("self-check failed: the reader decoded %d messages with checksum %d, want %d and %d", o.count, o.sum, n, want*uint64(n))
			case p.id != "protobuf" && o.bytes != int64(n*len(msg)):
				return fmt.Errorf("self-check failed: the reader counted %d wire bytes, want %d", o.bytes, n*len(msg))
			}
			return nil
		}
		type active struct {
			p      pair
			n      int
			failed error
			runs   map[string][]int64
			wire   map[string]int64
		}
		var act []*active
		for _, p := range pairs {
			if (p.kinds != nil && !contains(p.kinds, kind)) || !pairSelected(p.id) {
				continue
			}
			if reason, ok := missing[p.w.lang]; ok {
				gaps = append(gaps, gap{p.id, "ipc:" + kind, reason})
				continue
			}
			if reason, ok := missing[p.r.lang]; ok {
				gaps = append(gaps, gap{p.id, "ipc:" + kind, reason})
				continue
			}
			a := &active{p: p, n: ns[kind], runs: map[string][]int64{}, wire: map[string]int64{}}
			act = append(act, a)
			if *quick {
				continue
			}
			// Calibrate N so that a run lasts about target: two runs in a
			// row at the same N must last at least 60% of it (one run slowed
			// down by other work on the machine would leave N too small).
			long := 0
			for i := 0; i < 6 && long < 2; i++ {
				o := runPair(bin(p.w.lang), p.w.mode, bin(p.r.lang), p.r.mode, kind, a.n, data, "pipe")
				if err := check(p, o, a.n); err != nil {
					a.failed = err
					break
				}
				d := time.Duration(o.end - o.start)
				if d >= *target*6/10 {
					long++
					continue
				}
				long = 0
				scale := float64(*target) / float64(max64(int64(d), int64(time.Millisecond)))
				if scale > 20 {
					scale = 20
				}
				a.n = int(float64(a.n) * scale)
			}
		}
		// The timed runs go round the pairs (floor, pair, pair, ...,
		// floor, pair, ...), so that a drift in the machine's speed over
		// the minutes of a kind moves every pair and the floor alike.
		for _, tr := range []string{"pipe", "socket"} {
			for i := 0; i < *reps; i++ {
				for _, a := range act {
					if a.failed != nil {
						continue
					}
					p := a.p
					o := runPair(bin(p.w.lang), p.w.mode, bin(p.r.lang), p.r.mode, kind, a.n, data, tr)
					if err := check(p, o, a.n); err != nil {
						a.failed = err
						continue
					}
					a.runs[tr] = append(a.runs[tr], o.end-o.start)
					a.wire[tr] = o.bytes
				}
			}
		}
		for _, a := range act {
			p, n := a.p, a.n
			if a.failed != nil {
				fmt.Fprintf(os.Stderr, "ipc %s %s: %v\n", kind, p.id, a.failed)
				gaps = append(gaps, gap{p.id, "ipc:" + kind, a.failed.Error()})
				continue
			}
			for _, tr := range []string{"pipe", "socket"} {
				runs := a.runs[tr]
				sorted := append([]int64(nil), runs...)
				sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
				wall := sorted[len(sorted)/2]
				wire := a.wire[tr]
				results = append(results, result{
					Workload: "ipc:" + kind, Kind: kind, Impl: p.id, Op: "ipc_" + tr, Title: p.title, Transport: tr,
					MedianNS: float64(wall) / float64(n), Messages: n, MessageBytes: int(wire / int64(n)),
					WireBytes: wire, WallNS: wall,
					MsgsPerS: float64(n) / (float64(wall) / 1e9), MBPerS: float64(wire) / 1e6 / (float64(wall) / 1e9),
					RunsNS: runs, Quick: *quick, Load: loadAvg(),
				})
				fmt.Fprintf(os.Stderr, "ipc %-8s %-11s %-6s n=%-8d %9.0f msg/s %8.1f MB/s (%.0f ms)\n",
					kind, p.id, tr, n, float64(n)/(float64(wall)/1e9), float64(wire)/1e6/(float64(wall)/1e9), float64(wall)/1e6)
			}
		}
	}
	doc := map[string]interface{}{
		"language":     "ipc",
		"toolchain":    runtime.Version() + " (runner); see bench/build/logs/ipc-build.log",
		"results":      results,
		"gaps":         gaps,
		"kinds":        kindTitles,
		"load_average": [2]string{loadStart, loadAvg()},
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = os.Stdout.Write(append(b, '\n'))
		return err
	}
	return os.WriteFile(*out, append(b, '\n'), 0o644)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// runPair runs one transfer: the reader and the writer as two processes
// joined by a pipe or a Unix socket pair.
func runPair(wbin, wmode, rbin, rmode, kind string, n int, data, transport string) runOut {
	var o runOut
	var rEnd, wEnd *os.File
	if transport == "pipe" {
		r, w, err := os.Pipe()
		if err != nil {
			o.writerErr = err.Error()
			return o
		}
		rEnd, wEnd = r, w
	} else {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			o.writerErr = err.Error()
			return o
		}
		rEnd, wEnd = os.NewFile(uintptr(fds[0]), "ipc-r"), os.NewFile(uintptr(fds[1]), "ipc-w")
	}
	var wErr, rOut, rErr bytes.Buffer
	nArg := strconv.Itoa(n)
	rc := exec.Command(rbin, rmode, kind, nArg, data)
	rc.Stdin, rc.Stdout, rc.Stderr = rEnd, &rOut, &rErr
	wc := exec.Command(wbin, wmode, kind, nArg, data)
	wc.Stdout, wc.Stderr = wEnd, &wErr
	if err := rc.Start(); err != nil {
		o.readerErr = err.Error()
		rEnd.Close()
		wEnd.Close()
		return o
	}
	if err := wc.Start(); err != nil {
		o.writerErr = err.Error()
		rEnd.Close()
		wEnd.Close()
		rc.Process.Kill()
		rc.Wait()
		return o
	}
	rEnd.Close()
	wEnd.Close()
	kill := time.AfterFunc(5*time.Minute, func() { wc.Process.Kill(); rc.Process.Kill() })
	we := wc.Wait()
	re := rc.Wait()
	kill.Stop()
	if we != nil {
		o.writerErr = fmt.Sprintf("the writer (%s %s) %v: %s", filepath.Base(wbin), wmode, we, lastLine(wErr.String()))
	}
	if re != nil {
		o.readerErr = fmt.Sprintf("the reader (%s %s) %v: %s", filepath.Base(rbin), rmode, re, lastLine(rErr.String()))
	}
	if o.writerErr != "" || o.readerErr != "" {
		return o
	}
	o.start = -1
	for _, l := range strings.Split(wErr.String(), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "ipc-start" {
			o.start, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	ok := false
	for _, l := range strings.Split(rOut.String(), "\n") {
		if f := strings.Fields(l); len(f) == 5 && f[0] == "ipc-end" {
			o.end, _ = strconv.ParseInt(f[1], 10, 64)
			o.count, _ = strconv.ParseInt(f[2], 10, 64)
			o.sum, _ = strconv.ParseUint(f[3], 10, 64)
			o.bytes, _ = strconv.ParseInt(f[4], 10, 64)
			ok = true
		}
	}
	if o.start < 0 || !ok {
		o.readerErr = fmt.Sprintf("no ipc-start/ipc-end lines (writer: %q, reader: %q)", lastLine(wErr.String()), lastLine(rOut.String()+rErr.String()))
	}
	return o
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// loadAvg is /proc/loadavg's 1, 5 and 15 minute averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
