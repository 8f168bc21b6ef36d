package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
)

// TestLayoutGoldens runs sdp layout (text and --json) on a sample schema and
// on conformance schemas, and compares with testdata/layout/*.txt and *.json
// (go test ./cmd/sdp -run Layout -update rewrites them).
func TestLayoutGoldens(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"sample", []string{filepath.Join("testdata", "layout", "sample.sdp")}},
		{"sample_types", []string{filepath.Join("testdata", "layout", "sample.sdp"), "Event", "Kind"}},
		{"plugins", []string{conformance.SchemaPath("plugins")}},
		{"enums_unions", []string{conformance.SchemaPath("enums_unions")}},
		{"recursive", []string{conformance.SchemaPath("recursive")}},
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, asJSON := range []bool{false, true} {
			args, ext := append([]string{"layout"}, c.args...), ".txt"
			if asJSON {
				args, ext = append([]string{"layout", "--json"}, c.args...), ".json"
			}
			code, out, errOut := sdp(t, nil, args...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
			}
			// Paths of conformance schemas are absolute: keep goldens portable.
			out = strings.ReplaceAll(out, root+string(filepath.Separator), "")
			if asJSON && !json.Valid([]byte(out)) {
				t.Errorf("%s: --json output is not JSON", c.name)
			}
			golden := filepath.Join("testdata", "layout", c.name+ext)
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/sdp -run Layout -update writes it)", err)
			}
			if out != string(want) {
				t.Errorf("sdp %s differs from %s:\n--- got\n%s--- want\n%s", strings.Join(args, " "), golden, out, want)
			}
		}
	}
}

func TestLayoutErrors(t *testing.T) {
	sample := filepath.Join("testdata", "layout", "sample.sdp")
	if code, _, errOut := sdp(t, nil, "layout", sample, "Nope"); code != 1 || !strings.Contains(errOut, `has no type "Nope"`) {
		t.Errorf("unknown type: exit %d: %s", code, errOut)
	}
	if code, _, _ := sdp(t, nil, "layout"); code != 2 {
		t.Errorf("no schema: exit %d, want 2", code)
	}
}
