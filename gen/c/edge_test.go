package c

import (
	"testing"

	"sdp/codec"
	"sdp/conformance"
)

// edgeValues are values of testdata/schemas/edge.sdp, which the corpus does
// not cover, in the JSON mapping.
var edgeValues = []struct{ typ, json string }{
	{"Node", `{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [],
		"grid": null, "bools": [false, true], "levels": []}`},
	{"Node", `{
		"kids": [null, {"kids": [null, null, null], "pairs": [[1.5, -2]], "twins": null, "maybe_kids": [null],
			"points": [], "grid": null, "bools": [true, true], "levels": [["Low", "High"]]}, null],
		"pairs": [[0, 1], [2, 3]],
		"twins": [
			{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": []},
			{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [[{"x": 1, "y": -1}, {"x": 2, "y": 9}]], "grid": null, "bools": [true, false], "levels": []}
		],
		"maybe_kids": [null, {"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": []}],
		"points": [[{"x": 255, "y": 1}, {"x": 0, "y": -9223372036854775808}]],
		"grid": [
			[
				{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": []},
				{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, true], "levels": []},
				{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [true, false], "levels": []}
			],
			[
				{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": []},
				{"kids": [null, null, null], "pairs": [], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": []},
				{"kids": [null, null, null], "pairs": [[7, 8]], "twins": null, "maybe_kids": [], "points": [], "grid": null, "bools": [false, false], "levels": [["High", "High"]]}
			]
		],
		"bools": [true, false],
		"levels": [["High", "Low"], ["Low", "Low"]]}`},
	{"Flags", `{"flags": ["Off", "On", {"Empty": {}}], "first": "On"}`},
	{"Flags", `{"flags": [], "first": null}`},
}

// TestEdgeValues round-trips values of the edge schema, encoded by the
// reference codec, through the sanitized testee (every decode API and arena).
func TestEdgeValues(t *testing.T) {
	s := loadSchema(t, "edge")
	te := startFrom(nativeTestees(t))(t, "edge")
	defer te.Close()
	for i, v := range edgeValues {
		in, err := codec.Encode(s, v.typ, []byte(v.json))
		if err != nil {
			t.Fatalf("value %d: reference encode: %v", i, err)
		}
		id := s.Struct(v.typ).ID
		for _, op := range []byte{conformance.OpRoundtrip, conformance.OpMessage} {
			want := in
			if op == conformance.OpMessage {
				want = conformance.Message(id, in)
			}
			status, out, err := te.Do(op, id, want)
			if err != nil {
				t.Fatal(err)
			}
			if status != conformance.StatusOK || string(out) != string(want) {
				t.Errorf("value %d (op %d): status %d, %x; want %x", i, op, status, out, want)
			}
		}
	}
}
