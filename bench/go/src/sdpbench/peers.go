package main

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/vmihailenco/msgpack/v5"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"benchpb/pb"
)

var pbTypes = map[string]func() proto.Message{
	"AllPrimitives":  func() proto.Message { return new(pb.AllPrimitives) },
	"U32Array":       func() proto.Message { return new(pb.U32Array) },
	"I16Array":       func() proto.Message { return new(pb.I16Array) },
	"F32Array":       func() proto.Message { return new(pb.F32Array) },
	"ByteArray":      func() proto.Message { return new(pb.ByteArray) },
	"SmallArrays":    func() proto.Message { return new(pb.SmallArrays) },
	"Scene":          func() proto.Message { return new(pb.Scene) },
	"AudioDevice":    func() proto.Message { return new(pb.AudioDevice) },
	"PluginRegistry": func() proto.Message { return new(pb.PluginRegistry) },
	"Reading":        func() proto.Message { return new(pb.Reading) },
	"StructA":        func() proto.Message { return new(pb.StructA) },
	"Mesh":           func() proto.Message { return new(pb.Mesh) },
	"Logs":           func() proto.Message { return new(pb.Logs) },
}

// benchProtobuf measures protobuf-go (generated code, proto.Marshal /
// proto.Unmarshal) on one workload.
func benchProtobuf(cfg Config, w *Workload) ([]Result, error) {
	mk := pbTypes[w.Type]
	m := mk()
	if err := protojson.Unmarshal(w.JSON, m); err != nil {
		return nil, fmt.Errorf("protojson: %v", err)
	}
	enc, err := proto.Marshal(m)
	if err != nil {
		return nil, err
	}
	back := mk()
	if err := proto.Unmarshal(enc, back); err != nil || !proto.Equal(m, back) {
		return nil, fmt.Errorf("self-check failed: %v", err)
	}
	buf := make([]byte, 0, len(enc))
	opts := proto.MarshalOptions{}
	n := len(enc)
	rs := []Result{
		run(cfg, "protobuf", w.Name, "encode", n, func() {
			b, _ := proto.Marshal(m)
			sink += len(b)
		}),
		run(cfg, "protobuf", w.Name, "encode_reuse", n, func() {
			b, _ := opts.MarshalAppend(buf[:0], m)
			buf = b
			sink += len(b)
		}),
		run(cfg, "protobuf", w.Name, "decode", n, func() {
			v := mk()
			_ = proto.Unmarshal(enc, v)
			sinkAny = v
		}),
		// proto.Unmarshal into a used message: protobuf-go resets it first
		// and does not reuse its storage, so this is its decode into an
		// existing value.
		run(cfg, "protobuf", w.Name, "decode_reuse", n, func() {
			_ = proto.Unmarshal(enc, back)
		}),
		run(cfg, "protobuf", w.Name, "roundtrip", n, func() {
			b, _ := proto.Marshal(m)
			v := mk()
			_ = proto.Unmarshal(b, v)
			sinkAny = v
		}),
	}
	if w.Type == "StructA" {
		// The reuse variant of go_serialization_benchmarks' marshal +
		// unmarshal: MarshalAppend into a kept buffer, Unmarshal into a
		// kept message.
		rs = append(rs, run(cfg, "protobuf", w.Name, "roundtrip_reuse", n, func() {
			b, _ := opts.MarshalAppend(buf[:0], m)
			buf = b
			_ = proto.Unmarshal(b, back)
		}))
	}
	return rs, nil
}

// benchMsgpack measures vmihailenco/msgpack v5 on plain Go structs.
func benchMsgpack(cfg Config, w *Workload) ([]Result, error) {
	t := plainTypes[w.Type]
	m := reflect.New(t).Interface()
	if err := jsonUnmarshal(w.JSON, m); err != nil {
		return nil, err
	}
	enc, err := msgpack.Marshal(m)
	if err != nil {
		return nil, err
	}
	back := reflect.New(t).Interface()
	if err := msgpack.Unmarshal(enc, back); err != nil || !reflect.DeepEqual(m, back) {
		return nil, fmt.Errorf("self-check failed: %v", err)
	}
	var bb bytes.Buffer
	e := msgpack.NewEncoder(&bb)
	n := len(enc)
	return []Result{
		run(cfg, "msgpack", w.Name, "encode", n, func() {
			b, _ := msgpack.Marshal(m)
			sink += len(b)
		}),
		run(cfg, "msgpack", w.Name, "encode_reuse", n, func() {
			bb.Reset()
			_ = e.Encode(m)
			sink += bb.Len()
		}),
		run(cfg, "msgpack", w.Name, "decode", n, func() {
			v := reflect.New(t).Interface()
			_ = msgpack.Unmarshal(enc, v)
			sinkAny = v
		}),
		run(cfg, "msgpack", w.Name, "roundtrip", n, func() {
			b, _ := msgpack.Marshal(m)
			v := reflect.New(t).Interface()
			_ = msgpack.Unmarshal(b, v)
			sinkAny = v
		}),
	}, nil
}
