package python

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/schema"
)

// unencodableSkips are the changes of the invalid-value corpus that Python's
// types cannot hold, with the reason (a property of the types, never of the
// encoder). Python holds every one: an attribute or a list element can be
// set to any object, an int is unbounded, a str holds lone surrogates, a
// list any number of elements (bytes and array.array fields are replaced
// by lists where an element is changed).
var unencodableSkips = map[conformance.Change]string{}

// TestUnencodable runs the invalid-value corpus (docs/conformance.md,
// "Values that have no encoding") on both implementations, pure Python and
// the C accelerator: one program decodes the valid Box of each case, makes
// its change in Python and calls every encode API, which must refuse the
// value with the reference's rule and path (and write nothing); the two
// implementations must report the same text too.
func TestUnencodable(t *testing.T) {
	py := python3(t)
	s, err := schema.Load(conformance.UnencodableSchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := writePackages(t, []*schema.Schema{s})
	buildAccel(t, py, dir, []*schema.Schema{s}, nil)
	n := newNames(s)
	type step struct {
		Field string `json:"field,omitempty"`
		Index int    `json:"index"`
	}
	type pyCase struct {
		Name   string `json:"name"`
		Base   string `json:"base"`
		Target []step `json:"target"`
		Change string `json:"change"`
		N      int64  `json:"n"`
	}
	var run []pyCase
	skipped := map[conformance.Change]int{}
	for _, u := range cases {
		if _, ok := unencodableSkips[u.Change]; ok {
			skipped[u.Change]++
			continue
		}
		c := pyCase{Name: u.Name, Base: hex.EncodeToString(u.Base), Change: string(u.Change), N: u.N}
		for _, st := range u.Target {
			if st.Field != nil {
				c.Target = append(c.Target, step{Field: n.fields[st.Field]})
			} else {
				c.Target = append(c.Target, step{Index: st.Index})
			}
		}
		run = append(run, c)
	}
	for ch, k := range skipped {
		t.Logf("skipped %d cases of change %s: %s", k, ch, unencodableSkips[ch])
	}
	text, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	casesPath := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(casesPath, text, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "unencodable.py"))
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	for _, impl := range impls {
		cmd := exec.Command(py, script, dir, PackageName(s, gen.Options{}), casesPath)
		cmd.Env = implEnv(impl)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("%s: unencodable.py: %v\n%s%s", impl, err, out, stderr)
		}
		outs[impl] = string(out)
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) == 0 || lines[0] != "implementation "+impl {
			t.Fatalf("%s: the program does not run implementation %s: %q", impl, impl, lines[0])
		}
		got := map[string][]string{}
		for _, l := range lines[1:] {
			f := strings.SplitN(l, "\t", 5)
			if len(f) != 5 {
				t.Fatalf("%s: malformed line %q", impl, l)
			}
			got[f[0]] = append(got[f[0]], l)
			name, api, rule, path, msg := f[0], f[1], f[2], f[3], f[4]
			var u *conformance.Unencodable
			for i := range cases {
				if cases[i].Name == name {
					u = &cases[i]
				}
			}
			switch {
			case u == nil:
				t.Errorf("%s: a line of no case: %q", impl, l)
			case rule == "encoded":
				t.Errorf("%s: %s (%s): %s encodes the value; the reference refuses it with %s in %q", impl, name, u.TargetText(), api, u.Rule, u.Path)
			case rule != u.Rule || path != u.Path:
				t.Errorf("%s: %s (%s): %s refuses it with %s in %q, the reference with %s in %q: %s", impl, name, u.TargetText(), api, rule, path, u.Rule, u.Path, msg)
			}
		}
		for _, c := range run {
			if len(got[c.Name]) != len(unencodableAPIs) {
				t.Errorf("%s: case %s: %d lines, want one per API (%s)", impl, c.Name, len(got[c.Name]), strings.Join(unencodableAPIs, ", "))
			}
		}
	}
	// Same rule, path and text: the C accelerator names the error with the
	// pure Python check walk.
	if outs["python"] != "" && outs["c"] != "" {
		p := strings.SplitN(outs["python"], "\n", 2)[1]
		c := strings.SplitN(outs["c"], "\n", 2)[1]
		if p != c {
			t.Errorf("the implementations report different errors:\npython:\n%s\nc:\n%s", p, c)
		}
	}
	if len(skipped) > len(unencodableSkips) {
		t.Errorf("skipped changes %v, more than the table says", skipped)
	}
}

// unencodableAPIs are the encode APIs testdata/unencodable.py calls, in
// the order it prints them.
var unencodableAPIs = []string{"encoded_size", "encode", "encode_into", "encoded_message_size", "encode_message",
	"encode_message_into", "MessageWriter.write_message"}

// TestUnencodableAPIs keeps the list above and the program's in step.
func TestUnencodableAPIs(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "unencodable.py"))
	if err != nil {
		t.Fatal(err)
	}
	want := "APIS = (\"" + strings.Join(unencodableAPIs, "\", \"") + "\")"
	if !strings.Contains(string(text), want) {
		t.Errorf("testdata/unencodable.py does not define %s", want)
	}
}
