//go:build cgo

// Command ffi is the FFI example (docs/ffi.md): a Go core that gets an
// encoded plugin registry from native collectors in the same process, C++
// and C through cgo and Rust as a static library (with -tags rust), decodes
// it with the generated Go package and checks it; and hands bytes to C the
// other way. With -swift FILE it also
// checks the registry that the Swift program in swift/ encoded with the
// generated C++ code through Swift's C++ interoperability.
//
//	go run .                                              # C++ and C
//	(cd rust && cargo build --release) && go run -tags rust .
//
// The test (ffi_test.go) builds and runs all of it.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"reflect"
	"strconv"

	"sdp/examples/go/registry"
)

// pluginCount is what the collectors enumerate: ~60 plugins with ~1,800
// parameters, as a plugin host finds on a musician's machine.
const pluginCount = 62

func main() {
	swift := flag.String("swift", "", "also check the registry the Swift program wrote to this `file`")
	flag.Parse()
	if err := run(os.Stdout, *swift); err != nil {
		fmt.Fprintln(os.Stderr, "ffi:", err)
		os.Exit(1)
	}
}

type collector struct {
	name    string
	collect func(plugins uint32, corrupt bool) ([]byte, error)
}

func collectors() []collector {
	cs := []collector{{"C++", cppCollect}, {"C", cCollect}}
	if haveRust {
		cs = append(cs, collector{"Rust", rustCollect})
	}
	return cs
}

func run(w io.Writer, swiftFile string) error {
	for _, c := range collectors() {
		data, err := c.collect(pluginCount, false)
		if err != nil {
			return err
		}
		if err := report(w, c.name, data); err != nil {
			return err
		}
		// A failure crosses the boundary as a status and a message.
		_, err = c.collect(pluginCount, true)
		var ce *NativeError
		if !errors.As(err, &ce) {
			return fmt.Errorf("%s collector, corrupt registry: %v, want a NativeError", c.name, err)
		}
		fmt.Fprintf(w, "%s, corrupt registry: %v\n", c.name, err)
	}
	// The other direction: Go encodes, C decodes.
	data, err := expected(pluginCount).MarshalBinary()
	if err != nil {
		return err
	}
	plugins, params, err := cSummarize(data)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Go -> C: %d bytes decoded by C: %d plugins, %d parameters\n", len(data), plugins, params)
	if _, _, err = cSummarize(data[:len(data)-1]); err == nil {
		return errors.New("C decoded a truncated registry")
	}
	fmt.Fprintf(w, "Go -> C, truncated: %v\n", err)
	if swiftFile != "" {
		data, err := os.ReadFile(swiftFile)
		if err != nil {
			return err
		}
		if err := report(w, "Swift (C++ interop)", data); err != nil {
			return err
		}
	}
	return nil
}

// report decodes a collector's bytes, compares the registry with the one
// Go builds itself, and prints what it found.
func report(w io.Writer, name string, data []byte) error {
	var reg registry.PluginRegistry
	if err := reg.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("%s collector: decode: %w", name, err)
	}
	want := expected(pluginCount)
	wantBytes, err := want.MarshalBinary()
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(&reg, want) {
		return fmt.Errorf("%s collector: the decoded registry differs from Go's", name)
	}
	if !bytes.Equal(data, wantBytes) {
		return fmt.Errorf("%s collector: the bytes differ from Go's encoding", name)
	}
	params := 0
	for _, p := range reg.Plugins {
		params += len(p.Parameters)
	}
	if len(reg.Plugins) != int(reg.TotalPluginCount) || params != int(reg.TotalParameterCount) {
		return fmt.Errorf("%s collector: the totals do not match the contents", name)
	}
	fmt.Fprintf(w, "%s: %d bytes (crc32 %08x), %d plugins, %d parameters, equal to Go's registry\n",
		name, len(data), crc32.ChecksumIEEE(data), len(reg.Plugins), params)
	return nil
}

// expected is the registry every collector builds (docs/ffi.md, "The
// example's registry"), built in Go.
func expected(n uint32) *registry.PluginRegistry {
	vendors := []string{"ACME", "Zölzer DSP", "FabFilter"}
	units := []string{"dB", "Hz", "%", "µs"}
	reg := &registry.PluginRegistry{Plugins: make([]registry.Plugin, n), TotalPluginCount: n}
	for i := uint32(0); i < n; i++ {
		is := strconv.FormatUint(uint64(i), 10)
		p := &reg.Plugins[i]
		p.Name = "Plugin " + is
		p.ManufacturerID = vendors[i%3]
		p.ComponentType = "aufx"
		p.ComponentSubtype = fmt.Sprintf("p%03d", i)
		p.Parameters = make([]registry.Parameter, 22+i%17)
		for j := range p.Parameters {
			u := uint32(j)
			js := strconv.Itoa(j)
			p.Parameters[j] = registry.Parameter{
				Address:      uint64(i)<<32 | uint64(u),
				DisplayName:  "Param " + js,
				Identifier:   "p" + is + "." + js,
				Unit:         units[u%4],
				MinValue:     -float32(u),
				MaxValue:     float32(u + 1),
				DefaultValue: 0.5 * float32(u),
				CurrentValue: 0.25 * float32(i),
				RawFlags:     i*1000 + u,
				IsWritable:   u%3 != 0,
				CanRamp:      u%2 == 0,
			}
		}
		reg.TotalParameterCount += uint32(len(p.Parameters))
	}
	return reg
}
