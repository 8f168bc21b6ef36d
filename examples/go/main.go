// Command example shows the Go code sdp generates, on the audio plugin
// registry: it builds a registry, encodes it, decodes it back, streams a few
// messages, and prints the sizes.
//
//	go run ./examples/go
//	go run ./examples/go registry.sdpb   # decode a file made elsewhere
//
// The package registry/ is generated from registry.sdp (see generate.go);
// go test ./examples/go checks that it is up to date.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"

	"sdp/examples/go/registry"
)

func main() {
	var err error
	if len(os.Args) > 1 {
		err = decodeFile(os.Stdout, os.Args[1])
	} else {
		err = run(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}

func run(out io.Writer) error {
	reg := buildRegistry(62)
	fmt.Fprintf(out, "registry:  %d plugins, %d parameters\n", reg.TotalPluginCount, reg.TotalParameterCount)

	// Encode: one allocation of exactly EncodedSize bytes.
	data, err := reg.MarshalBinary()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "binary:    %d bytes (EncodedSize %d)\n", len(data), reg.EncodedSize())

	js, err := json.Marshal(reg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "JSON:      %d bytes (encoding/json, for comparison)\n", len(js))

	// Decode: strict, safe on untrusted input; errors are *registry.DecodeError.
	var back registry.PluginRegistry
	if err := back.UnmarshalBinary(data); err != nil {
		return err
	}
	if !reflect.DeepEqual(reg, &back) {
		return fmt.Errorf("the decoded registry differs from the original")
	}
	fmt.Fprintf(out, "decoded:   %d plugins, %d parameters, equal to the original\n", len(back.Plugins), countParameters(&back))

	// A damaged copy is rejected with the rule it breaks and where.
	bad := append([]byte(nil), data...)
	bad = bad[:len(bad)-3]
	if err := back.UnmarshalBinary(bad); err != nil {
		fmt.Fprintf(out, "truncated: %v\n", err)
	} else {
		return fmt.Errorf("a truncated registry decoded")
	}

	// Messages: a 10-byte header names the type, so a reader can dispatch.
	var stream bytes.Buffer
	w := registry.NewMessageWriter(&stream)
	for _, m := range []registry.Message{reg, &reg.Plugins[0], &reg.Plugins[0].Parameters[0]} {
		if err := w.WriteMessage(m); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "stream:    %d bytes, 3 messages\n", stream.Len())
	r := registry.NewMessageReader(&stream)
	r.MaxSize = 1 << 20 // refuse any message above 1 MiB before reading it
	for {
		m, err := r.ReadMessage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		// Messages come back as pointers: case *registry.Plugin, not
		// registry.Plugin (which compiles but never matches). Union
		// variants are the opposite: values (docs/go.md, "Unions").
		switch m := m.(type) {
		case *registry.PluginRegistry:
			fmt.Fprintf(out, "  read a PluginRegistry with %d plugins\n", len(m.Plugins))
		case *registry.Plugin:
			fmt.Fprintf(out, "  read a Plugin: %s (%d parameters)\n", m.Name, len(m.Parameters))
		case *registry.Parameter:
			fmt.Fprintf(out, "  read a Parameter: %s [%g, %g] %s\n", m.DisplayName, m.MinValue, m.MaxValue, m.Unit)
		}
	}
	return nil
}

// decodeFile decodes a PluginRegistry written by any SDP implementation
// (`sdp encode`, another language's generated code), prints what it holds,
// and checks that re-encoding reproduces the file byte for byte.
func decodeFile(out io.Writer, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var reg registry.PluginRegistry
	if err := reg.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(out, "decoded:   %s: %d bytes, %d plugins, %d parameters\n", path, len(data), len(reg.Plugins), countParameters(&reg))
	if len(reg.Plugins) > 0 && len(reg.Plugins[0].Parameters) > 0 {
		p, q := reg.Plugins[0], reg.Plugins[0].Parameters[0]
		fmt.Fprintf(out, "first:     %s by %s, parameter %q [%g, %g] %s\n", p.Name, p.ManufacturerID, q.DisplayName, q.MinValue, q.MaxValue, q.Unit)
	}
	again, err := reg.MarshalBinary()
	if err != nil {
		return err
	}
	if !bytes.Equal(again, data) {
		return fmt.Errorf("re-encoding %s gave different bytes", path)
	}
	fmt.Fprintf(out, "encoded:   %d bytes again, identical to the file\n", len(again))
	return nil
}

func countParameters(r *registry.PluginRegistry) int {
	n := 0
	for i := range r.Plugins {
		n += len(r.Plugins[i].Parameters)
	}
	return n
}

// buildRegistry makes a deterministic registry that looks like a real scan.
func buildRegistry(plugins int) *registry.PluginRegistry {
	kinds := []string{"aufx", "aumu", "aumf", "auou"}
	vendors := []string{"Appl", "FabF", "Valh", "SoTo", "NatI", "UADx"}
	names := []string{"Gain", "Frequency", "Resonance", "Attack", "Release", "Mix", "Drive", "Threshold", "Ratio", "Decay"}
	units := []string{"dB", "Hz", "%", "ms", ""}
	seed := uint32(1)
	next := func() uint32 { // a small LCG keeps the data reproducible
		seed = seed*1664525 + 1013904223
		return seed >> 8
	}
	reg := &registry.PluginRegistry{}
	for i := 0; i < plugins; i++ {
		p := registry.Plugin{
			Name:             fmt.Sprintf("%s %s %d", vendors[i%len(vendors)], names[i%len(names)], i),
			ManufacturerID:   vendors[i%len(vendors)],
			ComponentType:    kinds[i%len(kinds)],
			ComponentSubtype: fmt.Sprintf("p%03d", i),
		}
		for j, n := 0, 10+int(next()%40); j < n; j++ {
			name := names[int(next())%len(names)]
			lo := -float32(next() % 100)
			hi := float32(next()%20000) + 1
			p.Parameters = append(p.Parameters, registry.Parameter{
				Address:      uint64(i)<<32 | uint64(j),
				DisplayName:  fmt.Sprintf("%s %d", name, j+1),
				Identifier:   fmt.Sprintf("param.%d.%d", i, j),
				Unit:         units[int(next())%len(units)],
				MinValue:     lo,
				MaxValue:     hi,
				DefaultValue: (lo + hi) / 2,
				CurrentValue: lo + float32(next()%1000)/1000*(hi-lo),
				RawFlags:     next(),
				IsWritable:   next()%4 != 0,
				CanRamp:      next()%2 == 0,
			})
		}
		reg.TotalParameterCount += uint32(len(p.Parameters))
		reg.Plugins = append(reg.Plugins, p)
	}
	reg.TotalPluginCount = uint32(len(reg.Plugins))
	return reg
}
