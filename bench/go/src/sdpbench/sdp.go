//go:build sdp

package main

// The SDP Go backend's benchmarks. Built with -tags sdp by bench/go/build.sh
// after `sdp gen --lang go` has generated sdpgen/<schema> from
// conformance/schemas.

import (
	"bytes"
	"encoding"
	"fmt"

	"sdpgen/arrays"
	"sdpgen/leaderboard"
	"sdpgen/nested"
	"sdpgen/optionals"
	"sdpgen/plugins"
	"sdpgen/primitives"
)

// sdpValue is the API every generated struct has.
type sdpValue interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
	AppendBinary(b []byte) ([]byte, error)
	MarshalMessage() ([]byte, error)
}

type sdpType struct {
	mk       func() sdpValue
	dispatch func([]byte) (interface{}, error) // the schema's message dispatcher
}

// The decode-into-existing API: UnmarshalBinaryWith with DecodeOptions.Reuse,
// whose options type is each package's own.
type (
	reuseArrays interface {
		UnmarshalBinaryWith([]byte, arrays.DecodeOptions) error
	}
	reuseLeaderboard interface {
		UnmarshalBinaryWith([]byte, leaderboard.DecodeOptions) error
	}
	reuseNested interface {
		UnmarshalBinaryWith([]byte, nested.DecodeOptions) error
	}
	reuseOptionals interface {
		UnmarshalBinaryWith([]byte, optionals.DecodeOptions) error
	}
	reusePlugins interface {
		UnmarshalBinaryWith([]byte, plugins.DecodeOptions) error
	}
	reusePrimitives interface {
		UnmarshalBinaryWith([]byte, primitives.DecodeOptions) error
	}
)

// reuser returns a function that decodes into v with DecodeOptions.Reuse.
func reuser(v sdpValue) func([]byte) error {
	switch x := v.(type) {
	case reuseArrays:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, arrays.DecodeOptions{Reuse: true}) }
	case reuseLeaderboard:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, leaderboard.DecodeOptions{Reuse: true}) }
	case reuseNested:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, nested.DecodeOptions{Reuse: true}) }
	case reuseOptionals:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, optionals.DecodeOptions{Reuse: true}) }
	case reusePlugins:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, plugins.DecodeOptions{Reuse: true}) }
	case reusePrimitives:
		return func(b []byte) error { return x.UnmarshalBinaryWith(b, primitives.DecodeOptions{Reuse: true}) }
	}
	panic(fmt.Sprintf("no reuse decoder for %T", v))
}

var sdpTypes = map[string]sdpType{
	"AllPrimitives": {func() sdpValue { return new(primitives.AllPrimitives) },
		func(b []byte) (interface{}, error) { return primitives.DecodeMessage(b) }},
	"U32Array": {func() sdpValue { return new(arrays.U32Array) },
		func(b []byte) (interface{}, error) { return arrays.DecodeMessage(b) }},
	"I16Array": {func() sdpValue { return new(arrays.I16Array) },
		func(b []byte) (interface{}, error) { return arrays.DecodeMessage(b) }},
	"F32Array": {func() sdpValue { return new(arrays.F32Array) },
		func(b []byte) (interface{}, error) { return arrays.DecodeMessage(b) }},
	"ByteArray": {func() sdpValue { return new(arrays.ByteArray) },
		func(b []byte) (interface{}, error) { return arrays.DecodeMessage(b) }},
	"SmallArrays": {func() sdpValue { return new(arrays.SmallArrays) },
		func(b []byte) (interface{}, error) { return arrays.DecodeMessage(b) }},
	"Scene": {func() sdpValue { return new(nested.Scene) },
		func(b []byte) (interface{}, error) { return nested.DecodeMessage(b) }},
	"AudioDevice": {func() sdpValue { return new(nested.AudioDevice) },
		func(b []byte) (interface{}, error) { return nested.DecodeMessage(b) }},
	"PluginRegistry": {func() sdpValue { return new(plugins.PluginRegistry) },
		func(b []byte) (interface{}, error) { return plugins.DecodeMessage(b) }},
	"Reading": {func() sdpValue { return new(optionals.Reading) },
		func(b []byte) (interface{}, error) { return optionals.DecodeMessage(b) }},
	"StructA": {func() sdpValue { return new(leaderboard.StructA) },
		func(b []byte) (interface{}, error) { return leaderboard.DecodeMessage(b) }},
	"Mesh": {func() sdpValue { return new(leaderboard.Mesh) },
		func(b []byte) (interface{}, error) { return leaderboard.DecodeMessage(b) }},
	"Logs": {func() sdpValue { return new(leaderboard.Logs) },
		func(b []byte) (interface{}, error) { return leaderboard.DecodeMessage(b) }},
}

func init() {
	sdpSuites = append(sdpSuites, suite{"sdp", benchSDP})
}

// benchSDP decodes the workload's .sdpb with the generated code, checks that
// re-encoding reproduces it byte for byte, and measures.
func benchSDP(cfg Config, w *Workload) ([]Result, error) {
	t, ok := sdpTypes[w.Type]
	if !ok {
		return nil, fmt.Errorf("no generated type for %s", w.Type)
	}
	v := t.mk()
	if err := v.UnmarshalBinary(w.SDPB); err != nil {
		return nil, fmt.Errorf("decoding the .sdpb: %v", err)
	}
	enc, err := v.MarshalBinary()
	if err != nil || !bytes.Equal(enc, w.SDPB) {
		return nil, fmt.Errorf("self-check failed: re-encoding differs from the .sdpb (%v)", err)
	}
	msg, err := v.MarshalMessage()
	if err != nil {
		return nil, err
	}
	if _, err := t.dispatch(msg); err != nil {
		return nil, fmt.Errorf("self-check failed: dispatching the message: %v", err)
	}
	n := len(enc)
	buf := make([]byte, 0, n)
	kept := t.mk()
	decodeInto := reuser(kept)
	if err := decodeInto(w.SDPB); err != nil {
		return nil, fmt.Errorf("decoding the .sdpb into a value: %v", err)
	}
	if b, err := kept.MarshalBinary(); err != nil || !bytes.Equal(b, w.SDPB) {
		return nil, fmt.Errorf("self-check failed: decoding into a value re-encodes differently (%v)", err)
	}
	rs := []Result{
		run(cfg, "sdp", w.Name, "encode", n, func() {
			b, _ := v.MarshalBinary()
			sink += len(b)
		}),
		run(cfg, "sdp", w.Name, "encode_reuse", n, func() {
			b, _ := v.AppendBinary(buf[:0])
			buf = b
			sink += len(b)
		}),
		run(cfg, "sdp", w.Name, "decode", n, func() {
			x := t.mk()
			_ = x.UnmarshalBinary(w.SDPB)
			sinkAny = x
		}),
		run(cfg, "sdp", w.Name, "decode_reuse", n, func() {
			_ = decodeInto(w.SDPB)
		}),
		run(cfg, "sdp", w.Name, "roundtrip", n, func() {
			b, _ := v.MarshalBinary()
			x := t.mk()
			_ = x.UnmarshalBinary(b)
			sinkAny = x
		}),
		run(cfg, "sdp", w.Name, "msg_encode", len(msg), func() {
			b, _ := v.MarshalMessage()
			sink += len(b)
		}),
		run(cfg, "sdp", w.Name, "msg_decode", len(msg), func() {
			x, _ := t.dispatch(msg)
			sinkAny = x
		}),
	}
	if w.Type == "StructA" {
		// go_serialization_benchmarks' /reuse variants: marshal into a
		// kept buffer, unmarshal into a kept value.
		rs = append(rs, run(cfg, "sdp", w.Name, "roundtrip_reuse", n, func() {
			b, _ := v.AppendBinary(buf[:0])
			buf = b
			_ = decodeInto(b)
		}))
	}
	return rs, nil
}
