package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden outputs in testdata/compat")

// TestCompatGoldens runs sdp compat on pairs of schemas in testdata/compat
// and compares its output and exit status with the golden .out files
// (go test ./cmd/sdp -run Compat -update rewrites them).
func TestCompatGoldens(t *testing.T) {
	dir := filepath.Join("testdata", "compat")
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"v1_v2", []string{"v1.sdp", "v2.sdp"}, 1},
		{"v1_v1", []string{"v1.sdp", "v1.sdp"}, 0},
		{"v1_renamed", []string{"--rename", "Param=Parameter", "--rename", "Kind=Sort", "v1.sdp", "renamed.sdp"}, 0},
		{"v1_renamed_no_flag", []string{"v1.sdp", "renamed.sdp"}, 0},
		{"missing_file", []string{"v1.sdp", "nope.sdp"}, 2},
		{"bad_rename", []string{"--rename", "Nope=Plugin", "v1.sdp", "v2.sdp"}, 2},
		{"usage", []string{"v1.sdp"}, 2},
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		code, out, errOut := sdp(t, nil, append([]string{"compat"}, c.args...)...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, c.code, out, errOut)
		}
		got := out + errOut
		golden := c.name + ".out"
		if *updateGolden {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%s: %v (run go test ./cmd/sdp -run Compat -update)", c.name, err)
		}
		if got != string(want) {
			t.Errorf("%s: output differs from %s:\n%s", c.name, golden, got)
		}
	}
	code, out, _ := sdp(t, nil, "compat", "--json", "v1.sdp", "v2.sdp")
	var r struct {
		Compatible bool
		Types      []struct{ Name, Status string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Compatible || len(r.Types) != 4 {
		t.Errorf("--json: exit %d, %v, %+v", code, err, r)
	}
	// Every key is snake_case; a position is {"file", "line", "col"}, or
	// null where the thing does not exist (old of an added field).
	var doc interface{}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	var walk func(path string, v interface{})
	walk = func(path string, v interface{}) {
		switch v := v.(type) {
		case map[string]interface{}:
			for k, e := range v {
				if !snake.MatchString(k) {
					t.Errorf("--json: key %q at %s is not snake_case", k, path)
				}
				walk(path+"."+k, e)
			}
		case []interface{}:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("$", doc)
	var changes struct {
		Types []struct {
			Changes []struct {
				Kind     string
				Old, New json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &changes); err != nil {
		t.Fatal(err)
	}
	added := 0
	pos := regexp.MustCompile(`^\{\s*"file": "[^"]+",\s*"line": [1-9][0-9]*,\s*"col": [1-9][0-9]*\s*\}$`)
	for _, ty := range changes.Types {
		for _, c := range ty.Changes {
			if c.Kind != "field_added" {
				continue
			}
			added++
			if string(c.Old) != "null" || !pos.Match(c.New) {
				t.Errorf("--json: a field_added change has old %s and new %s, want null and a position", c.Old, c.New)
			}
		}
	}
	if added == 0 {
		t.Errorf("--json: no field_added change in v1 -> v2:\n%s", out)
	}
}

func TestFingerprintCommand(t *testing.T) {
	dir := filepath.Join("testdata", "compat")
	code, v1, _ := sdp(t, nil, "fingerprint", filepath.Join(dir, "v1.sdp"))
	if code != 0 || len(strings.Split(strings.TrimSpace(v1), "\n")) != 3 || !strings.Contains(v1, "  Plugin  @id(1)") {
		t.Fatalf("fingerprint: exit %d:\n%s", code, v1)
	}
	// Renamed types keep their fingerprints: Parameter's is Param's.
	_, renamed, _ := sdp(t, nil, "fingerprint", filepath.Join(dir, "renamed.sdp"), "Parameter")
	param := ""
	for _, l := range strings.Split(v1, "\n") {
		if strings.Contains(l, "  Param  ") {
			param = l[:16]
		}
	}
	if param == "" || !strings.HasPrefix(renamed, param+"  Parameter") {
		t.Errorf("Param %q, renamed: %s", param, renamed)
	}
	if code, _, errOut := sdp(t, nil, "fingerprint", filepath.Join(dir, "v1.sdp"), "Nope"); code != 1 || !strings.Contains(errOut, `no type "Nope"`) {
		t.Errorf("an unknown type: exit %d, %s", code, errOut)
	}
}
