package codec_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/schema"
)

func load(t testing.TB, name string) *schema.Schema {
	t.Helper()
	s, err := schema.Load(conformance.SchemaPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPointMessage(t *testing.T) {
	s := load(t, "messages")
	want := unhex(t, "534450320100100000001f85eb51b81e0940ae47e17a14ae0540")
	got, err := codec.EncodeMessage(s, "Point", []byte(`{"x": 3.14, "y": 2.71}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got %x\nwant %x", got, want)
	}
	name, js, err := codec.DecodeMessage(s, got, codec.Options{})
	if err != nil || name != "Point" || string(js) != "{\n  \"x\": 3.14,\n  \"y\": 2.71\n}\n" {
		t.Fatalf("DecodeMessage = %q, %q, %v", name, js, err)
	}
	if _, err := codec.DecodeMessageAs(s, "Ping", got, codec.Options{}); !isRule(err, codec.RuleMessage) {
		t.Fatalf("DecodeMessageAs(Ping) of a Point: %v", err)
	}
	env := codec.EnvelopeJSON(name, js)
	typ, again, err := codec.EncodeEnvelope(s, env)
	if err != nil || typ != "Point" || !bytes.Equal(again, want) {
		t.Fatalf("EncodeEnvelope(%s) = %s %x %v", env, typ, again, err)
	}
}

func isRule(err error, rule string) bool {
	var de *codec.DecodeError
	return errors.As(err, &de) && de.Rule == rule
}

// roundTrips are values in their canonical output form: encoding then
// decoding must give back the same text.
var roundTrips = []struct {
	schema, typ, json string
}{
	{"primitives", "AllPrimitives", `{
  "flag": true,
  "u8_val": 255,
  "u16_val": 65535,
  "u32_val": 4294967295,
  "u64_val": 18446744073709551615,
  "i8_val": -128,
  "i16_val": -32768,
  "i32_val": -2147483648,
  "i64_val": -9223372036854775808,
  "f32_val": 3.4028235e+38,
  "f64_val": 5e-324,
  "label": "quote \" backslash \\ newline \n tab \t nul \u0000 \u2028 é 😀"
}
`},
	{"primitives", "AllPrimitives", `{
  "flag": false,
  "u8_val": 0,
  "u16_val": 0,
  "u32_val": 0,
  "u64_val": 0,
  "i8_val": 127,
  "i16_val": 32767,
  "i32_val": 2147483647,
  "i64_val": 9223372036854775807,
  "f32_val": "NaN:0x7f800001",
  "f64_val": -0,
  "label": ""
}
`},
	{"primitives", "AllPrimitives", `{
  "flag": false,
  "u8_val": 1,
  "u16_val": 2,
  "u32_val": 3,
  "u64_val": 4,
  "i8_val": -1,
  "i16_val": -2,
  "i32_val": -3,
  "i64_val": -4,
  "f32_val": "-Infinity",
  "f64_val": "NaN",
  "label": "x"
}
`},
	{"primitives", "AllPrimitives", `{
  "flag": false,
  "u8_val": 1,
  "u16_val": 2,
  "u32_val": 3,
  "u64_val": 4,
  "i8_val": -1,
  "i16_val": -2,
  "i32_val": -3,
  "i64_val": -4,
  "f32_val": "NaN",
  "f64_val": "NaN:0xfff8000000000000",
  "label": "x"
}
`},
	{"primitives", "Empty", "{}\n"},
	{"arrays", "Fixed", `{
  "rgba": [
    1,
    2,
    3,
    255
  ],
  "matrix": [
    [
      1,
      0,
      0
    ],
    [
      0,
      0.1,
      0
    ],
    [
      0,
      0,
      "Infinity"
    ]
  ],
  "names": [
    "a",
    ""
  ],
  "flags": [
    true,
    false,
    true
  ],
  "points": [
    {
      "x": 1,
      "y": 2
    },
    {
      "x": -1.5,
      "y": 1e+100
    }
  ],
  "lists": [
    [],
    [
      7
    ]
  ]
}
`},
	{"arrays", "SmallArrays", `{
  "bytes": "AAECA/8=",
  "words": [],
  "reals": [
    0.1
  ],
  "names": [
    "x",
    "yz"
  ],
  "flags": [
    false
  ]
}
`},
	{"enums_unions", "Unions", `{
  "shape": {
    "Rect": {
      "width": 1,
      "height": 2
    }
  },
  "shapes": [
    {
      "None": null
    },
    {
      "Circle": {
        "radius": 2.5
      }
    },
    {
      "Polygon": {
        "points": [
          1,
          2
        ],
        "closed": true
      }
    },
    {
      "Label": {
        "text": "hi"
      }
    },
    {
      "Marker": {}
    }
  ],
  "nested": {
    "Branch": {
      "shape": {
        "None": null
      },
      "sparse": "Big"
    }
  },
  "maybe": null
}
`},
	{"enums_unions", "Enums", `{
  "small": "Two",
  "sparse": "Tenth",
  "wide": "Max",
  "default_value": "B",
  "list": [
    "First",
    "Second"
  ],
  "fixed": [
    "Zero",
    "One"
  ]
}
`},
	{"optionals", "Optionals", `{
  "maybe_bool": null,
  "maybe_u8": 7,
  "maybe_i64": null,
  "maybe_f64": -0,
  "maybe_str": "",
  "maybe_inner": null,
  "maybe_level": "Low",
  "maybe_choice": {
    "Nothing": null
  },
  "maybe_list": [],
  "list_of_maybe": [],
  "maybe_fixed": null,
  "maybe_maybe": [
    5
  ]
}
`},
	{"recursive", "Program", `{
  "body": {
    "Add": {
      "terms": [
        {
          "Neg": {
            "inner": {
              "Lit": {
                "value": -9007199254740993
              }
            }
          }
        },
        {
          "Neg": {
            "inner": null
          }
        }
      ]
    }
  }
}
`},
}

func TestRoundTrip(t *testing.T) {
	for i, c := range roundTrips {
		s := load(t, c.schema)
		b, err := codec.Encode(s, c.typ, []byte(c.json))
		if err != nil {
			t.Errorf("%d %s: encode: %v", i, c.typ, err)
			continue
		}
		js, err := codec.Decode(s, c.typ, b, codec.Options{})
		if err != nil {
			t.Errorf("%d %s: decode %x: %v", i, c.typ, b, err)
			continue
		}
		if string(js) != c.json {
			t.Errorf("%d %s: decoded\n%s\nwant\n%s", i, c.typ, js, c.json)
		}
		ann, err := codec.Annotate(s, c.typ, b)
		if err != nil || !strings.HasPrefix(ann, "# "+c.typ+" ") {
			t.Errorf("%d %s: annotate: %v\n%s", i, c.typ, err, ann)
		}
		msg, err := codec.EncodeMessage(s, c.typ, []byte(c.json))
		if err != nil || !bytes.Equal(msg[10:], b) {
			t.Errorf("%d %s: message %x, %v", i, c.typ, msg, err)
		}
	}
}

func TestInputForms(t *testing.T) {
	s := load(t, "optionals")
	// Keys in any order, missing optionals, 64-bit ints as strings, a bare
	// unit variant name.
	a, err := codec.Encode(s, "Optionals", []byte(`{"maybe_maybe": [null], "list_of_maybe": [null, "a"],
		"maybe_i64": "-12", "maybe_choice": "Nothing", "maybe_bool": false}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := codec.Encode(s, "Optionals", []byte(`{"maybe_bool": false, "maybe_u8": null, "maybe_i64": -12,
		"maybe_f64": null, "maybe_str": null, "maybe_inner": null, "maybe_level": null,
		"maybe_choice": {"Nothing": null}, "maybe_list": null, "list_of_maybe": [null, "a"],
		"maybe_fixed": null, "maybe_maybe": [null]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("%x != %x", a, b)
	}
	p := load(t, "primitives")
	f, err := codec.Encode(p, "AllPrimitives", []byte(`{"flag": true, "u8_val": 1, "u16_val": 2, "u32_val": 3,
		"u64_val": "18446744073709551615", "i8_val": 0, "i16_val": 0, "i32_val": 0, "i64_val": 0,
		"f32_val": 16777217, "f64_val": 1E2, "label": "\ud83d\ude00\/"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := unhex(t, `01 01 0200 03000000 ffffffffffffffff 00 0000 00000000 0000000000000000
		0000804b 0000000000005940 05000000 f09f98802f`)
	if !bytes.Equal(f, want) {
		t.Fatalf("got  %x\nwant %x", f, want)
	}
}

func TestEncodeErrors(t *testing.T) {
	prims := `"flag": true, "u8_val": 1, "u16_val": 2, "u32_val": 3, "u64_val": 4, "i8_val": 0, "i16_val": 0, "i32_val": 0, "i64_val": 0, "f64_val": 1, "label": "x"`
	tests := []struct{ schema, typ, json, want string }{ // want: the message; rules[i]: its rule
		{"plugins", "PluginRegistry", `{"plugins": [{"name": "a", "manufacturer_id": "b", "component_type": "c", "component_subtype": "d",
			"parameters": [{"address": 1, "display_name": "", "identifier": "", "unit": "", "min_value": "x"}]}],
			"total_plugin_count": 1, "total_parameter_count": 1}`, `plugins[0].parameters[0].min_value: "x" is not an f32`},
		{"plugins", "PluginRegistry", `{"plugins": [{"name": true}]}`, "plugins[0].name: expected a string, found a bool"},
		{"plugins", "PluginRegistry", `{"plugins": [], "total_plugin_count": 1}`, `missing field "total_parameter_count" (u32) of struct PluginRegistry`},
		{"plugins", "PluginRegistry", `{"plugins": [], "total_plugin_count": 1, "total_parameter_count": 1, "extra": 1}`, `unknown field "extra" in struct PluginRegistry`},
		{"plugins", "PluginRegistry", `{"plugins": [], "plugins": []}`, `duplicate field "plugins"`},
		{"plugins", "PluginRegistry", `{"plugins": [], "total_plugin_count": 1, "total_parameter_count": 1} x`, "unexpected data after the JSON value"},
		{"primitives", "AllPrimitives", `{` + prims + `, "f32_val": 1e39}`, "f32_val: 1e39 is out of range for f32"},
		{"primitives", "AllPrimitives", `{` + prims + `, "f32_val": "NaN:0x7f800000"}`, `f32_val: "NaN:0x7f800000" is not an f32`},
		{"primitives", "AllPrimitives", `{` + prims + `, "f32_val": 01}`, "malformed number"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"u8_val": 1`, `"u8_val": 256`, 1) + `, "f32_val": 1}`, "u8_val: 256 is out of range for u8"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"u8_val": 1`, `"u8_val": 1.0`, 1) + `, "f32_val": 1}`, "u8_val: 1.0 is not an integer (u8)"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"u8_val": 1`, `"u8_val": "1"`, 1) + `, "f32_val": 1}`, "u8_val: expected an integer, found a string"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"u64_val": 4`, `"u64_val": -1`, 1) + `, "f32_val": 1}`, "u64_val: -1 is out of range for u64"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"u64_val": 4`, `"u64_val": "18446744073709551616"`, 1) + `, "f32_val": 1}`, "u64_val: 18446744073709551616 is out of range for u64"},
		{"primitives", "AllPrimitives", `{` + strings.Replace(prims, `"i64_val": 0`, `"i64_val": "+1"`, 1) + `, "f32_val": 1}`, `i64_val: "+1" is not a decimal integer`},
		{"primitives", "Text", `{"value": "\ud800"}`, `value: lone surrogate \ud800`},
		{"primitives", "Text", `{"value": "\udc00\ud800"}`, `value: lone surrogate \udc00`},
		{"primitives", "Text", "{\"value\": \"a\xffb\"}", "JSON text is not valid UTF-8 at byte 12"},
		{"primitives", "Text", "{\"value\": \"a\tb\"}", "value: control character 0x09"},
		{"arrays", "SmallArrays", `{"bytes": "AAE", "words": [], "reals": [], "names": [], "flags": []}`, "bytes: invalid base64"},
		{"arrays", "SmallArrays", `{"bytes": "AB==", "words": [], "reals": [], "names": [], "flags": []}`, "bytes: invalid base64"},
		{"arrays", "SmallArrays", `{"bytes": [1], "words": [], "reals": [], "names": [], "flags": []}`, "bytes: expected a base64 string"},
		{"arrays", "Fixed", `{"rgba": [1, 2, 3]}`, "rgba: 3 elements, want exactly 4"},
		{"arrays", "Fixed", `{"rgba": [1, 2, 3, 4, 5]}`, "rgba: too many elements: want exactly 4"},
		{"enums_unions", "Enums", `{"small": "Three"}`, `small: "Three" is not a value of enum Small (values: Zero, One, Two)`},
		{"enums_unions", "Enums", `{"small": 1}`, `small: expected the name of a value of enum Small, found a number`},
		{"enums_unions", "Unions", `{"shape": "Circle"}`, `shape: variant Circle of union Shape carries data`},
		{"enums_unions", "Unions", `{"shape": {"Square": null}}`, `shape: "Square" is not a variant of union Shape`},
		{"enums_unions", "Unions", `{"shape": {}}`, `shape: a value of union Shape needs exactly one key`},
		{"enums_unions", "Unions", `{"shape": {"None": null, "Marker": {}}}`, `shape: a value of union Shape has exactly one key`},
		{"enums_unions", "Unions", `{"shape": {"None": {}}}`, `shape.None: expected null`},
		{"enums_unions", "Unions", `{"shape": {"Rect": {"width": 1}}}`, `shape.Rect: missing field "height" (f32) of variant Shape.Rect`},
		{"optionals", "Optionals", `{"maybe_maybe": 5}`, `maybe_maybe: expected null or a one-element array`},
		{"optionals", "Optionals", `{"maybe_maybe": [1, 2]}`, `maybe_maybe: too many elements: want exactly 1`},
		{"primitives", "Nope", `{}`, `schema primitives has no type "Nope"`},
		{"primitives", "Text", `{"value": "x"`, `expected ',' or '}', found the end of the input`},
		{"primitives", "Text", strings.Repeat("[", 20000), `expected an object (struct Text), found an array`},
		{"recursive", "Tree", strings.Repeat(`{"value": 1, "children": [`, 6000), `JSON nested deeper than 10000 levels`},
	}
	// The rule of each case (docs/wire-format.md, "Values that have no
	// encoding"); "" where the error is not an *EncodeError.
	rules := []string{"type", "type", "json", "json", "json", "json", "range", "type", "json", "range", "type", "type", "range", "range", "type", "utf8", "utf8", "json", "json", "json", "json", "type", "length", "length", "enum", "type", "type", "union_tag", "union_tag", "json", "type", "json", "type", "length", "", "json", "type", "json"}
	if len(rules) != len(tests) {
		t.Fatalf("%d rules for %d cases", len(rules), len(tests))
	}
	for i, tc := range tests {
		_, err := codec.Encode(load(t, tc.schema), tc.typ, []byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %.60s: got error %v, want %q", tc.typ, tc.json, err, tc.want)
			continue
		}
		var ee *codec.EncodeError
		if errors.As(err, &ee) != (rules[i] != "") || ee != nil && ee.Rule != rules[i] {
			t.Errorf("%s %.60s: %v: want rule %q", tc.typ, tc.json, err, rules[i])
		}
		if ee != nil && !strings.HasPrefix(err.Error(), ee.Rule) {
			t.Errorf("%s %.60s: %q does not start with its rule", tc.typ, tc.json, err)
		}
	}
	if _, err := codec.EncodeMessage(load(t, "enums_unions"), "Shape", []byte(`"None"`)); err == nil || !strings.Contains(err.Error(), "Shape is not a struct") {
		t.Errorf("EncodeMessage of a union: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		schema, typ string
		message     bool
		hex         string
		rule        string
		offset      int
		path        string
	}{
		{"primitives", "Text", false, "05000000 6869", codec.RuleCount, 0, "value"},
		{"primitives", "Text", false, "020000", codec.RuleTruncated, 0, "value"},
		{"primitives", "Text", false, "02000000 6869 00", codec.RuleTrailing, 6, ""},
		{"primitives", "Text", false, "02000000 c328", codec.RuleUTF8, 0, "value"},
		{"primitives", "Text", false, "03000000 eda080", codec.RuleUTF8, 0, "value"},
		{"primitives", "Empty", false, "00", codec.RuleTrailing, 0, ""},
		{"optionals", "Reading", false, "01000000 0000000000000000 02", codec.RulePresence, 12, "calibration"},
		{"optionals", "Reading", false, "01000000 0000000000000000 00 01", codec.RuleTruncated, 14, "note"},
		{"enums_unions", "Enums", false, "03", codec.RuleEnum, 0, "small"},
		{"enums_unions", "Enums", false, "02 0300", codec.RuleEnum, 1, "sparse"},
		{"enums_unions", "Enums", false, "02 0100 ffffffff 01 01000000 0b00", codec.RuleEnum, 12, "list[0]"},
		{"enums_unions", "Unions", false, "06", codec.RuleUnionTag, 0, "shape"},
		{"enums_unions", "Unions", false, "00 01000000 02 00000000", codec.RuleTruncated, 10, "shapes[0].Rect.height"},
		{"arrays", "SmallArrays", false, "00000000 00000000 00000000 00000000 02000000 01 02", codec.RuleBool, 21, "flags[1]"},
		{"arrays", "U32Array", false, "ffffffff 00000000", codec.RuleCount, 0, "values"},
		{"arrays", "ByteArray", false, "05000000 01020304", codec.RuleCount, 0, "data"},
		{"arrays", "Fixed", false, "01020304", codec.RuleTruncated, 4, "matrix[0][0]"},
		{"messages", "Point", true, "53445033 0100 10000000 1f85eb51b81e0940ae47e17a14ae0540", codec.RuleMessage, 0, "message"},
		{"messages", "Point", true, "53445032 0900 10000000 1f85eb51b81e0940ae47e17a14ae0540", codec.RuleMessage, 4, "message"},
		{"messages", "Point", true, "53445032 0100 11000000 1f85eb51b81e0940ae47e17a14ae0540", codec.RuleMessage, 6, "message"},
		{"messages", "Point", true, "53445032 0100 0f000000 1f85eb51b81e0940ae47e17a14ae0540", codec.RuleMessage, 6, "message"},
		{"messages", "Point", true, "53445032 0100 0f000000 1f85eb51b81e0940ae47e17a14ae05", codec.RuleTruncated, 18, "y"},
		{"messages", "Point", true, "53445032 01", codec.RuleTruncated, 0, "message"},
		{"messages", "Pong", true, "53445032 0300 09000000 01000000 01000000 41 00", codec.RuleMessage, 6, "message"},
		{"messages", "Pong", true, "53445032 0300 0a000000 01000000 01000000 41 00", codec.RuleTrailing, 19, ""},
	}
	for _, tc := range tests {
		s := load(t, tc.schema)
		in := unhex(t, tc.hex)
		var err error
		if tc.message {
			_, _, err = codec.DecodeMessage(s, in, codec.Options{})
		} else {
			_, err = codec.Decode(s, tc.typ, in, codec.Options{})
		}
		var de *codec.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s %s: got %v, want a %s error", tc.typ, tc.hex, err, tc.rule)
			continue
		}
		if de.Rule != tc.rule || de.Offset != tc.offset || de.Path != tc.path {
			t.Errorf("%s %s: got %s [rule %s], want rule %s at offset %d (%s)", tc.typ, tc.hex, de, de.Rule, tc.rule, tc.offset, tc.path)
		}
		// Annotate agrees and ends with the error.
		var ann string
		var aerr error
		if tc.message {
			ann, aerr = codec.AnnotateMessage(s, "", in)
		} else {
			ann, aerr = codec.Annotate(s, tc.typ, in)
		}
		if aerr == nil || aerr.Error() != err.Error() || !strings.Contains(ann, "error: "+err.Error()) {
			t.Errorf("%s %s: Annotate error %v, want %v\n%s", tc.typ, tc.hex, aerr, err, ann)
		}
	}
	err := &codec.DecodeError{Offset: 17, Rule: codec.RuleUTF8, Path: "plugins[0].name", Msg: "string is not valid UTF-8"}
	if got := err.Error(); got != "utf8 at offset 17 in plugins[0].name: string is not valid UTF-8" {
		t.Errorf("Error() = %q", got)
	}
}

// nestedTree is a Tree whose deepest node is at depth n.
func nestedTree(n int) string {
	return strings.Repeat(`{"value": 1, "children": [`, n-1) + `{"value": 2, "children": []}` + strings.Repeat("]}", n-1)
}

// nestedExpr is a Program whose body holds n-1 Neg unions nested in each other.
func nestedExpr(n int) string {
	return `{"body": ` + strings.Repeat(`{"Neg": {"inner": `, n-2) + `{"Lit": {"value": 1}}` + strings.Repeat("}}", n-2) + "}"
}

func TestDepth(t *testing.T) {
	s := load(t, "recursive")
	for _, tc := range []struct {
		typ  string
		json func(int) string
	}{{"Tree", nestedTree}, {"Program", nestedExpr}} {
		at, err := codec.Encode(s, tc.typ, []byte(tc.json(64)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := codec.Decode(s, tc.typ, at, codec.Options{}); err != nil {
			t.Errorf("%s at depth 64: %v", tc.typ, err)
		}
		over, err := codec.Encode(s, tc.typ, []byte(tc.json(65)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := codec.Decode(s, tc.typ, over, codec.Options{}); !isRule(err, codec.RuleDepth) {
			t.Errorf("%s at depth 65: %v, want a depth error", tc.typ, err)
		}
		if _, err := codec.Decode(s, tc.typ, over, codec.Options{MaxDepth: 65}); err != nil {
			t.Errorf("%s at depth 65 with MaxDepth 65: %v", tc.typ, err)
		}
		if _, err := codec.Decode(s, tc.typ, at, codec.Options{MaxDepth: 63}); !isRule(err, codec.RuleDepth) {
			t.Errorf("%s at depth 64 with MaxDepth 63: %v, want a depth error", tc.typ, err)
		}
	}
	// A struct carried by a struct variant is one deeper than its union:
	// Unions (1) → Shape (2) → Circle (3).
	u := load(t, "enums_unions")
	b, err := codec.Encode(u, "Unions", []byte(`{"shape": {"Circle": {"radius": 1}}, "shapes": [], "nested": "Leaf", "maybe": null}`))
	if err == nil {
		t.Fatalf("Leaf carries a field; encoding it bare should fail, got %x", b)
	}
	b, err = codec.Encode(u, "Unions", []byte(`{"shape": {"Circle": {"radius": 1}}, "shapes": [], "nested": {"Leaf": {"value": "One"}}, "maybe": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := codec.Decode(u, "Unions", b, codec.Options{MaxDepth: 3}); err != nil {
		t.Errorf("depth 3 with limit 3: %v", err)
	}
	if _, err := codec.Decode(u, "Unions", b, codec.Options{MaxDepth: 2}); !isRule(err, codec.RuleDepth) {
		t.Errorf("depth 3 with limit 2: %v", err)
	}
	// Fields of an inline variant are inside their union: Unions (1) →
	// Nested (2) → Branch.shape: Shape (3) → Circle (4).
	b, err = codec.Encode(u, "Unions", []byte(`{"shape": "None", "shapes": [], "maybe": null,
		"nested": {"Branch": {"shape": {"Circle": {"radius": 1}}, "sparse": "First"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := codec.Decode(u, "Unions", b, codec.Options{MaxDepth: 4}); err != nil {
		t.Errorf("depth 4 with limit 4: %v", err)
	}
	_, err = codec.Decode(u, "Unions", b, codec.Options{MaxDepth: 3})
	var de *codec.DecodeError
	if !errors.As(err, &de) || de.Rule != codec.RuleDepth || de.Path != "nested.Branch.shape.Circle" {
		t.Errorf("depth 4 with limit 3: %v", err)
	}
}

func TestFloatBits(t *testing.T) {
	s := load(t, "primitives")
	f32s := []string{"00000080", "0000c07f", "0100c07f", "0100807f", "0000c0ff", "0000807f", "000080ff", "01000000", "ffff7f7f", "cdcccc3d"}
	f64s := []string{"0000000000000080", "000000000000f87f", "010000000000f07f", "000000000000f8ff", "ffffffffffffffff", "0100000000000000", "9a9999999999b93f"}
	for i := 0; i < len(f32s) || i < len(f64s); i++ {
		a, b := f32s[i%len(f32s)], f64s[i%len(f64s)]
		in := unhex(t, "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000"+a+b+"00000000")
		js, err := codec.Decode(s, "AllPrimitives", in, codec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := codec.Encode(s, "AllPrimitives", js)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(in, out) {
			t.Errorf("f32 %s f64 %s: re-encoded as %x via\n%s", a, b, out, js)
		}
	}
}

func TestLargeArrays(t *testing.T) {
	s := load(t, "arrays")
	n := 100000
	var sb strings.Builder
	sb.WriteString(`{"values": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("4294967295")
	}
	sb.WriteString("]}")
	b, err := codec.Encode(s, "U32Array", []byte(sb.String()))
	if err != nil || len(b) != 4+4*n {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	ann, err := codec.Annotate(s, "U32Array", b)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(ann, "\n"); lines > 20 || !strings.Contains(ann, "values[16:100000]: 99984 more elements (399936 bytes)") {
		t.Errorf("annotation of a long array is not summarized (%d lines):\n%s", lines, ann)
	}
}

func TestEnvelope(t *testing.T) {
	good := []string{
		`{"type": "Ping", "value": {"seq": 7}}`,
		` { "value" : { "seq" : 7 } , "type" : "Ping" } `,
	}
	for _, g := range good {
		env, err := codec.ParseEnvelope([]byte(g))
		if err != nil || env.Type != "Ping" || strings.TrimSpace(string(env.Value)) != strings.TrimSpace(`{ "seq" : 7 }`) && string(env.Value) != `{"seq": 7}` {
			t.Errorf("%s: %+v %v", g, env, err)
		}
	}
	bad := map[string]string{
		`{"type": "Ping", "value": {"seq": 7},}`:                `expected a key, found '}'`,
		`{"type": "Ping", "value": {"seq": 7}, "Type": "Pong"}`: `unexpected key "Type"`,
		`{"type": "Ping", "type": "Pong", "value": {}}`:         `unexpected key "type"`,
		`{"type": "Ping"}`:                 `a message envelope is`,
		`{"type": "Ping", "value": [1,]}`:  `expected a JSON value, found ']'`,
		`{"type": "Ping" "value": {}}`:     `expected ',' or '}', found a string`,
		`{"type": "Ping", "value": {}} {}`: `unexpected data after the JSON value`,
		"\ufeff{}":                         `expected '{', found a non-ASCII character`,
	}
	for in, want := range bad {
		if _, err := codec.ParseEnvelope([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
	s := load(t, "messages")
	typ, msg, err := codec.EncodeEnvelope(s, []byte(good[1]))
	if err != nil || typ != "Ping" || hex.EncodeToString(msg) != "53445032640004000000"+"07000000" {
		t.Errorf("EncodeEnvelope: %s %x %v", typ, msg, err)
	}
}

// TestAnnotateLimits: AnnotateElems sets how many elements of an array are
// annotated before the summary, and AnnotateFull shows every element and
// every byte.
func TestAnnotateLimits(t *testing.T) {
	s := load(t, "arrays")
	n := 40
	vals := make([]string, n)
	for i := range vals {
		vals[i] = strconv.Itoa(i)
	}
	b, err := codec.Encode(s, "U32Array", []byte(`{"values": [`+strings.Join(vals, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt           codec.Options
		shown         int
		summary       string
		wantNoSummary bool
	}{
		{codec.Options{}, 16, "values[16:40]: 24 more elements (96 bytes)", false},
		{codec.Options{AnnotateElems: 3}, 3, "values[3:40]: 37 more elements (148 bytes)", false},
		{codec.Options{AnnotateElems: 40}, 40, "", true},
		{codec.Options{AnnotateElems: 100}, 40, "", true},
		{codec.Options{AnnotateFull: true}, 40, "", true},
	} {
		ann, err := codec.AnnotateWith(s, "U32Array", b, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if got, want := strings.Contains(ann, fmt.Sprintf("values[%d] = %d\n", i, i)), i < c.shown; got != want {
				t.Errorf("%+v: element %d annotated: %v, want %v\n%s", c.opt, i, got, want, ann)
			}
		}
		if c.wantNoSummary == strings.Contains(ann, "more elements") || !strings.Contains(ann, c.summary) {
			t.Errorf("%+v: summary, want %q:\n%s", c.opt, c.summary, ann)
		}
	}
	// A long byte array and a long string: cut (after 4 lines of bytes, 48
	// characters of text), whole with AnnotateFull.
	long := strings.Repeat("abcdefghij", 10)
	b, err = codec.Encode(s, "Arrays", []byte(`{"bools": [], "bytes": "`+base64.StdEncoding.EncodeToString([]byte(long))+`", "i8s": [], "u16s": [], "i16s": [], "u32s": [], "i32s": [], "u64s": [], "i64s": [], "f32s": [], "f64s": [], "strings": ["`+long+`"], "points": [], "nested": [], "blobs": []}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		ann, err := codec.AnnotateWith(s, "Arrays", b, codec.Options{AnnotateFull: full})
		if err != nil {
			t.Fatal(err)
		}
		cut := strings.Contains(ann, "(36 more bytes)") && strings.Contains(ann, "... (100 characters)")
		whole := strings.Contains(ann, `strings[0] = "`+long+`"`) && strings.Contains(ann, hex.EncodeToString([]byte(long[96:])))
		if cut == full || whole != full {
			t.Errorf("AnnotateFull %v: cut %v, whole %v:\n%s", full, cut, whole, ann)
		}
	}
}
