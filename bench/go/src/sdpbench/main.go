// Command sdpbench is the Go harness of the SDP benchmark suite: it measures
// the SDP Go backend, protobuf-go and msgpack on the workloads listed in
// bench/workloads.tsv and writes the results as JSON (bench/tools/report.py
// merges them with the other languages').
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

var (
	sink    int
	sinkAny interface{}
)

// Workload is one row of bench/workloads.tsv with its data.
type Workload struct {
	Name, Schema, Type, Kind string
	JSON                     []byte // the value, JSON mapping
	SDPB                     []byte // the same value, SDP wire format
}

// Gap is an implementation that was not measured, and why.
type Gap struct {
	Impl     string `json:"impl"`
	Workload string `json:"workload,omitempty"`
	Reason   string `json:"reason"`
}

// Output is the harness's JSON file.
type Output struct {
	Language  string   `json:"language"`
	Toolchain string   `json:"toolchain"`
	Quick     bool     `json:"quick"`
	Results   []Result `json:"results"`
	Gaps      []Gap    `json:"gaps"`
}

// suite measures one implementation on one workload.
type suite struct {
	impl string
	fn   func(Config, *Workload) ([]Result, error)
}

// sdpSuites is filled by sdp.go when the harness is built with the SDP Go
// backend's generated code (build tag sdp).
var sdpSuites []suite
var sdpGap = "not built: the Go backend (sdp gen --lang go) was not available"

func main() {
	list := flag.String("workloads", "bench/workloads.tsv", "workload table")
	data := flag.String("data", "bench/build/data", "directory with <workload>.json and <workload>.sdpb")
	out := flag.String("out", "", "write results here (default stdout)")
	quick := flag.Bool("quick", false, "run each benchmark once (checks that it works; the time means little)")
	only := flag.String("only", "", "comma-separated workloads to run (default all)")
	flag.Parse()

	cfg := Config{Quick: *quick, Runs: 11, Target: 5 * time.Millisecond}
	ws, err := loadWorkloads(*list, *data, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdpbench:", err)
		os.Exit(1)
	}
	o := Output{Language: "go", Toolchain: runtime.Version(), Quick: *quick}
	suites := append([]suite{}, sdpSuites...)
	if len(sdpSuites) == 0 {
		o.Gaps = append(o.Gaps, Gap{Impl: "sdp", Reason: sdpGap})
	}
	suites = append(suites, suite{"copy_floor", benchCopy}, suite{"protobuf", benchProtobuf}, suite{"msgpack", benchMsgpack})
	for _, w := range ws {
		for _, s := range suites {
			rs, err := s.fn(cfg, w)
			if err != nil {
				o.Gaps = append(o.Gaps, Gap{Impl: s.impl, Workload: w.Name, Reason: err.Error()})
				continue
			}
			o.Results = append(o.Results, rs...)
		}
	}
	b, _ := json.MarshalIndent(o, "", " ")
	if *out == "" {
		os.Stdout.Write(append(b, '\n'))
		return
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "sdpbench:", err)
		os.Exit(1)
	}
}

func loadWorkloads(list, dir, only string) ([]*Workload, error) {
	f, err := os.Open(list)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var ws []*Workload
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 5 {
			return nil, fmt.Errorf("%s: bad line %q", list, line)
		}
		if len(want) > 0 && !want[c[0]] {
			continue
		}
		w := &Workload{Name: c[0], Schema: c[1], Type: c[2], Kind: c[4]}
		if w.JSON, err = os.ReadFile(filepath.Join(dir, w.Name+".json")); err != nil {
			return nil, err
		}
		if w.SDPB, err = os.ReadFile(filepath.Join(dir, w.Name+".sdpb")); err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, sc.Err()
}

func jsonUnmarshal(b []byte, v interface{}) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// benchCopy is Go's floor for the arrays: the built-in copy of the wire
// bytes into a slice allocated once, which is all a decode into an existing
// value has to do for a large numeric or plain-struct array. Go's runtime
// memmove is not glibc's memcpy (the C floor), so it is measured here, in
// the same process as the SDP rows.
func benchCopy(cfg Config, w *Workload) ([]Result, error) {
	dst := make([]byte, len(w.SDPB))
	return []Result{run(cfg, "copy_floor", w.Name, "copy", len(w.SDPB), func() {
		sink += copy(dst, w.SDPB)
	})}, nil
}
