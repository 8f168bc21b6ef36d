package main

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Plain Go structs of the workload types, as a MessagePack user would write
// them. They are filled from the workload's JSON document (the same value
// the .sdpb file holds) with encoding/json; msgpack encodes them with its
// default struct-as-map layout.

type AllPrimitives struct {
	Flag   bool    `json:"flag" msgpack:"flag"`
	U8Val  uint8   `json:"u8_val" msgpack:"u8_val"`
	U16Val uint16  `json:"u16_val" msgpack:"u16_val"`
	U32Val uint32  `json:"u32_val" msgpack:"u32_val"`
	U64Val uint64  `json:"u64_val" msgpack:"u64_val"`
	I8Val  int8    `json:"i8_val" msgpack:"i8_val"`
	I16Val int16   `json:"i16_val" msgpack:"i16_val"`
	I32Val int32   `json:"i32_val" msgpack:"i32_val"`
	I64Val int64   `json:"i64_val" msgpack:"i64_val"`
	F32Val float32 `json:"f32_val" msgpack:"f32_val"`
	F64Val float64 `json:"f64_val" msgpack:"f64_val"`
	Label  string  `json:"label" msgpack:"label"`
}

type U32Array struct {
	Values []uint32 `json:"values" msgpack:"values"`
}

type I16Array struct {
	Samples []int16 `json:"samples" msgpack:"samples"`
}

type F32Array struct {
	Values []float32 `json:"values" msgpack:"values"`
}

type ByteArray struct {
	Data []byte `json:"data" msgpack:"data"`
}

type SmallArrays struct {
	Bytes []byte    `json:"bytes" msgpack:"bytes"`
	Words []uint32  `json:"words" msgpack:"words"`
	Reals []float64 `json:"reals" msgpack:"reals"`
	Names []string  `json:"names" msgpack:"names"`
	Flags []bool    `json:"flags" msgpack:"flags"`
}

type Point struct {
	X float32 `json:"x" msgpack:"x"`
	Y float32 `json:"y" msgpack:"y"`
}

type Rectangle struct {
	TopLeft     Point  `json:"top_left" msgpack:"top_left"`
	BottomRight Point  `json:"bottom_right" msgpack:"bottom_right"`
	Color       uint32 `json:"color" msgpack:"color"`
}

type Scene struct {
	Name   string      `json:"name" msgpack:"name"`
	Rects  []Rectangle `json:"rects" msgpack:"rects"`
	Origin Point       `json:"origin" msgpack:"origin"`
}

// DeviceKind is the enum; the JSON mapping writes it as its name.
type DeviceKind uint8

var deviceKinds = []string{"Input", "Output", "Duplex"}

func (k *DeviceKind) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for i, n := range deviceKinds {
		if n == s {
			*k = DeviceKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown DeviceKind %q", s)
}

type DeviceParameter struct {
	ID    uint32  `json:"id" msgpack:"id"`
	Name  string  `json:"name" msgpack:"name"`
	Value float32 `json:"value" msgpack:"value"`
}

type DevicePlugin struct {
	Name       string            `json:"name" msgpack:"name"`
	Bypassed   bool              `json:"bypassed" msgpack:"bypassed"`
	Parameters []DeviceParameter `json:"parameters" msgpack:"parameters"`
}

type AudioDevice struct {
	ID         uint64         `json:"id" msgpack:"id"`
	Name       string         `json:"name" msgpack:"name"`
	Kind       DeviceKind     `json:"kind" msgpack:"kind"`
	SampleRate uint32         `json:"sample_rate" msgpack:"sample_rate"`
	Channels   uint16         `json:"channels" msgpack:"channels"`
	Plugins    []DevicePlugin `json:"plugins" msgpack:"plugins"`
}

type Parameter struct {
	Address      uint64  `json:"address" msgpack:"address"`
	DisplayName  string  `json:"display_name" msgpack:"display_name"`
	Identifier   string  `json:"identifier" msgpack:"identifier"`
	Unit         string  `json:"unit" msgpack:"unit"`
	MinValue     float32 `json:"min_value" msgpack:"min_value"`
	MaxValue     float32 `json:"max_value" msgpack:"max_value"`
	DefaultValue float32 `json:"default_value" msgpack:"default_value"`
	CurrentValue float32 `json:"current_value" msgpack:"current_value"`
	RawFlags     uint32  `json:"raw_flags" msgpack:"raw_flags"`
	IsWritable   bool    `json:"is_writable" msgpack:"is_writable"`
	CanRamp      bool    `json:"can_ramp" msgpack:"can_ramp"`
}

type Plugin struct {
	Name             string      `json:"name" msgpack:"name"`
	ManufacturerID   string      `json:"manufacturer_id" msgpack:"manufacturer_id"`
	ComponentType    string      `json:"component_type" msgpack:"component_type"`
	ComponentSubtype string      `json:"component_subtype" msgpack:"component_subtype"`
	Parameters       []Parameter `json:"parameters" msgpack:"parameters"`
}

type PluginRegistry struct {
	Plugins             []Plugin `json:"plugins" msgpack:"plugins"`
	TotalPluginCount    uint32   `json:"total_plugin_count" msgpack:"total_plugin_count"`
	TotalParameterCount uint32   `json:"total_parameter_count" msgpack:"total_parameter_count"`
}

type Reading struct {
	SensorID    uint32   `json:"sensor_id" msgpack:"sensor_id"`
	Value       float64  `json:"value" msgpack:"value"`
	Calibration *float64 `json:"calibration" msgpack:"calibration"`
	Note        *string  `json:"note" msgpack:"note"`
}

// StructA is struct A of alecthomas/go_serialization_benchmarks.
type StructA struct {
	Name     string  `json:"name" msgpack:"name"`
	BirthDay int64   `json:"birth_day" msgpack:"birth_day"`
	Phone    string  `json:"phone" msgpack:"phone"`
	Siblings int32   `json:"siblings" msgpack:"siblings"`
	Spouse   bool    `json:"spouse" msgpack:"spouse"`
	Money    float64 `json:"money" msgpack:"money"`
}

type Vector3 struct {
	X float32 `json:"x" msgpack:"x"`
	Y float32 `json:"y" msgpack:"y"`
	Z float32 `json:"z" msgpack:"z"`
}

type Triangle struct {
	V0     Vector3 `json:"v0" msgpack:"v0"`
	V1     Vector3 `json:"v1" msgpack:"v1"`
	V2     Vector3 `json:"v2" msgpack:"v2"`
	Normal Vector3 `json:"normal" msgpack:"normal"`
}

// Mesh is rust_serialization_benchmark's mesh.
type Mesh struct {
	Triangles []Triangle `json:"triangles" msgpack:"triangles"`
}

type Address struct {
	X0 uint8 `json:"x0" msgpack:"x0"`
	X1 uint8 `json:"x1" msgpack:"x1"`
	X2 uint8 `json:"x2" msgpack:"x2"`
	X3 uint8 `json:"x3" msgpack:"x3"`
}

type Log struct {
	Address  Address `json:"address" msgpack:"address"`
	Identity string  `json:"identity" msgpack:"identity"`
	Userid   string  `json:"userid" msgpack:"userid"`
	Date     string  `json:"date" msgpack:"date"`
	Request  string  `json:"request" msgpack:"request"`
	Code     uint16  `json:"code" msgpack:"code"`
	Size     uint64  `json:"size" msgpack:"size"`
}

// Logs is rust_serialization_benchmark's log.
type Logs struct {
	Logs []Log `json:"logs" msgpack:"logs"`
}

// plainTypes maps a schema type name to its plain Go struct.
var plainTypes = map[string]reflect.Type{
	"AllPrimitives":  reflect.TypeOf(AllPrimitives{}),
	"U32Array":       reflect.TypeOf(U32Array{}),
	"I16Array":       reflect.TypeOf(I16Array{}),
	"F32Array":       reflect.TypeOf(F32Array{}),
	"ByteArray":      reflect.TypeOf(ByteArray{}),
	"SmallArrays":    reflect.TypeOf(SmallArrays{}),
	"Scene":          reflect.TypeOf(Scene{}),
	"AudioDevice":    reflect.TypeOf(AudioDevice{}),
	"PluginRegistry": reflect.TypeOf(PluginRegistry{}),
	"Reading":        reflect.TypeOf(Reading{}),
	"StructA":        reflect.TypeOf(StructA{}),
	"Mesh":           reflect.TypeOf(Mesh{}),
	"Logs":           reflect.TypeOf(Logs{}),
}
