//go:build sdp

package main

// A hand-written floor for the generated Go encoder (issue #21): the plugin
// registry written the way SDP 0.2's generated Go writes it, into a buffer
// of the exact size at known offsets, strings copied with copy and NOT
// checked for valid UTF-8. No encoder that validates can be much faster; the
// generated one is judged by its ratio to this.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"sdpgen/leaderboard"
	"sdpgen/plugins"
)

func init() {
	sdpSuites = append(sdpSuites, suite{"offset_writer", benchOffsetWriter})
}

func benchOffsetWriter(cfg Config, w *Workload) ([]Result, error) {
	if w.Type == "StructA" {
		return benchStructAFloor(cfg, w)
	}
	if w.Type != "PluginRegistry" {
		return nil, nil
	}
	var reg plugins.PluginRegistry
	if err := reg.UnmarshalBinary(w.SDPB); err != nil {
		return nil, err
	}
	if b := floorEncodeRegistry(&reg); !bytes.Equal(b, w.SDPB) {
		return nil, fmt.Errorf("self-check failed: the offset writer's bytes differ from the .sdpb")
	}
	if b := floorEncodeRegistryInto(&reg, make([]byte, len(w.SDPB))); !bytes.Equal(b, w.SDPB) {
		return nil, fmt.Errorf("self-check failed: the offset writer's bytes into a kept buffer differ from the .sdpb")
	}
	kept := make([]byte, len(w.SDPB))
	return []Result{
		run(cfg, "offset_writer", w.Name, "encode", len(w.SDPB), func() {
			sink += len(floorEncodeRegistry(&reg))
		}),
		run(cfg, "offset_writer", w.Name, "encode_reuse", len(w.SDPB), func() {
			kept = floorEncodeRegistryInto(&reg, kept)
			sink += len(kept)
		}),
		run(cfg, "alloc_floor", w.Name, "decode", len(w.SDPB), func() {
			sinkAny = floorAllocRegistry(&reg)
		}),
	}, nil
}

// floorAllocRegistry makes the allocations an owned decode of r must make,
// and nothing else: the plugins slice, each plugin's parameters slice, and
// string storage in blocks of at most 8 KiB (as the generated decoder
// shares them), filled with copies of the strings. No decoder that returns
// owned Go values of these types can be faster; the owned decode is judged
// by its ratio to this.
func floorAllocRegistry(r *plugins.PluginRegistry) *plugins.PluginRegistry {
	out := &plugins.PluginRegistry{Plugins: make([]plugins.Plugin, len(r.Plugins))}
	var block []byte
	str := func(s string) string {
		if cap(block)-len(block) < len(s) {
			block = make([]byte, 0, 8192)
		}
		start := len(block)
		block = append(block, s...)
		t := block[start:]
		return *(*string)(unsafe.Pointer(&t)) // the block's bytes never change again
	}
	for i := range r.Plugins {
		p, q := &r.Plugins[i], &out.Plugins[i]
		q.Name, q.ManufacturerID, q.ComponentType, q.ComponentSubtype = str(p.Name), str(p.ManufacturerID), str(p.ComponentType), str(p.ComponentSubtype)
		q.Parameters = make([]plugins.Parameter, len(p.Parameters))
		for j := range p.Parameters {
			a, b := &p.Parameters[j], &q.Parameters[j]
			*b = *a
			b.DisplayName, b.Identifier, b.Unit = str(a.DisplayName), str(a.Identifier), str(a.Unit)
		}
	}
	return out
}

func floorEncodeRegistry(r *plugins.PluginRegistry) []byte {
	return floorEncodeRegistryInto(r, nil)
}

// floorEncodeRegistryInto writes r into buf when it has room, as the
// generated AppendBinary does into a kept buffer, and into a new buffer
// otherwise. Every byte is written, so buf may hold an earlier encoding.
func floorEncodeRegistryInto(r *plugins.PluginRegistry, buf []byte) []byte {
	size := 4 + 8
	for i := range r.Plugins {
		p := &r.Plugins[i]
		size += 16 + len(p.Name) + len(p.ManufacturerID) + len(p.ComponentType) + len(p.ComponentSubtype) + 4
		for j := range p.Parameters {
			q := &p.Parameters[j]
			size += 8 + 12 + len(q.DisplayName) + len(q.Identifier) + len(q.Unit) + 22
		}
	}
	var b []byte
	if cap(buf) >= size {
		b = buf[:size]
	} else {
		b = make([]byte, size)
	}
	off := 0
	putStr := func(s string) {
		binary.LittleEndian.PutUint32(b[off:], uint32(len(s)))
		off += 4 + copy(b[off+4:], s)
	}
	binary.LittleEndian.PutUint32(b[off:], uint32(len(r.Plugins)))
	off += 4
	for i := range r.Plugins {
		p := &r.Plugins[i]
		putStr(p.Name)
		putStr(p.ManufacturerID)
		putStr(p.ComponentType)
		putStr(p.ComponentSubtype)
		binary.LittleEndian.PutUint32(b[off:], uint32(len(p.Parameters)))
		off += 4
		for j := range p.Parameters {
			q := &p.Parameters[j]
			binary.LittleEndian.PutUint64(b[off:], q.Address)
			off += 8
			putStr(q.DisplayName)
			putStr(q.Identifier)
			putStr(q.Unit)
			binary.LittleEndian.PutUint32(b[off:], math.Float32bits(q.MinValue))
			binary.LittleEndian.PutUint32(b[off+4:], math.Float32bits(q.MaxValue))
			binary.LittleEndian.PutUint32(b[off+8:], math.Float32bits(q.DefaultValue))
			binary.LittleEndian.PutUint32(b[off+12:], math.Float32bits(q.CurrentValue))
			binary.LittleEndian.PutUint32(b[off+16:], q.RawFlags)
			b[off+20], b[off+21] = 0, 0
			if q.IsWritable {
				b[off+20] = 1
			}
			if q.CanRamp {
				b[off+21] = 1
			}
			off += 22
		}
	}
	binary.LittleEndian.PutUint32(b[off:], r.TotalPluginCount)
	binary.LittleEndian.PutUint32(b[off+4:], r.TotalParameterCount)
	return b
}

// benchStructAFloor measures the allocations a roundtrip of struct A through
// owned values must make, and nothing else: the encoding's buffer, the new
// value and one block holding both its strings (as the generated decoder
// shares them), the strings copied into it. It encodes and decodes nothing,
// so no plain-API roundtrip (MarshalBinary, then UnmarshalBinary into a new
// value) can be faster.
func benchStructAFloor(cfg Config, w *Workload) ([]Result, error) {
	var a leaderboard.StructA
	if err := a.UnmarshalBinary(w.SDPB); err != nil {
		return nil, err
	}
	return []Result{run(cfg, "alloc_floor", w.Name, "roundtrip", len(w.SDPB), func() {
		sinkAny = floorAllocStructA(&a)
	})}, nil
}

// floorBuf keeps the floor's encoding buffer reachable.
var floorBuf []byte

func floorAllocStructA(a *leaderboard.StructA) *leaderboard.StructA {
	floorBuf = make([]byte, 29+len(a.Name)+len(a.Phone)) // kept in a global: on the heap, as an encoding is
	out := new(leaderboard.StructA)
	*out = *a
	block := make([]byte, 0, len(a.Name)+len(a.Phone))
	block = append(block, a.Name...)
	block = append(block, a.Phone...)
	name, phone := block[:len(a.Name)], block[len(a.Name):]
	out.Name = *(*string)(unsafe.Pointer(&name))
	out.Phone = *(*string)(unsafe.Pointer(&phone))
	return out
}
