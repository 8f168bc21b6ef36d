package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

var update = flag.Bool("update", false, "rewrite golden/ with the reference codec's encoding of every case")

// TestGolden encodes every case with the reference codec and compares the
// bytes and their annotated dump with golden/<schema>/<case>.sdpb and .hex
// (or rewrites them with -update). Golden files without a case are errors
// (removed by -update), and every golden vector must be canonical: decoding
// it to JSON and encoding that JSON gives the same bytes.
func TestGolden(t *testing.T) {
	names, err := SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		name := name
		t.Run(name, func(t *testing.T) { goldenSchema(t, name) })
	}
	// A golden directory must belong to a schema.
	dirs, err := os.ReadDir(filepath.Join(Dir(), "golden"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	for _, d := range dirs {
		if known[d.Name()] {
			continue
		}
		p := filepath.Join(Dir(), "golden", d.Name())
		if *update {
			if err := os.RemoveAll(p); err != nil {
				t.Error(err)
			}
			continue
		}
		t.Errorf("golden/%s belongs to no schema (run go test ./conformance -run Golden -update to remove it)", d.Name())
	}
}

func goldenSchema(t *testing.T, name string) {
	s, err := schema.Load(SchemaPath(name))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Cases(name)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(Dir(), "golden", name)
	expected := map[string]bool{}
	for _, c := range cases {
		expected[c.Name+".sdpb"] = true
		expected[c.Name+".hex"] = true
		if s.Struct(c.Type) == nil {
			t.Errorf("%s: type %q is not a struct of %s (a case's top-level type is a struct)", c.ID(), c.Type, name)
			continue
		}
		b, err := codec.Encode(s, c.Type, c.Value)
		if err != nil {
			t.Errorf("%s: encode %s: %v", c.ID(), c.CasePath(), err)
			continue
		}
		ann, err := codec.Annotate(s, c.Type, b)
		if err != nil {
			t.Errorf("%s: annotate its own encoding: %v", c.ID(), err)
			continue
		}
		hexPath := strings.TrimSuffix(c.GoldenPath(), ".sdpb") + ".hex"
		if *update {
			writeIfChanged(t, c.GoldenPath(), b)
			writeIfChanged(t, hexPath, []byte(ann))
			c.Golden = b
		} else {
			switch {
			case c.Golden == nil:
				t.Errorf("%s: no golden file (run go test ./conformance -run Golden -update)", c.ID())
				continue
			case !bytes.Equal(c.Golden, b):
				t.Errorf("%s: the reference codec encodes %s differently from %s: %s (run -update if the change is intended)",
					c.ID(), c.CasePath(), c.GoldenPath(), firstDiff(c.Golden, b))
			}
			if h, err := os.ReadFile(hexPath); err != nil {
				t.Errorf("%s: %v (run -update)", c.ID(), err)
			} else if string(h) != ann {
				t.Errorf("%s: %s is out of date (run -update)", c.ID(), hexPath)
			}
		}
		canonical(t, s, c)
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if expected[e.Name()] {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if *update {
			if err := os.RemoveAll(p); err != nil {
				t.Error(err)
			}
			continue
		}
		t.Errorf("golden/%s/%s has no case in cases/%s (run -update to remove it)", name, e.Name(), name)
	}
}

// canonical checks that the golden bytes decode, plainly and as a message,
// to JSON that encodes to the same bytes.
func canonical(t *testing.T, s *schema.Schema, c Case) {
	js, err := codec.Decode(s, c.Type, c.Golden, codec.Options{})
	if err != nil {
		t.Errorf("%s: golden vector does not decode: %v", c.ID(), err)
		return
	}
	again, err := codec.Encode(s, c.Type, js)
	if err != nil {
		t.Errorf("%s: decoded JSON does not encode: %v", c.ID(), err)
		return
	}
	if !bytes.Equal(again, c.Golden) {
		t.Errorf("%s: decode then encode differs: %s", c.ID(), firstDiff(c.Golden, again))
	}
	msg := Message(s.Struct(c.Type).ID, c.Golden)
	typ, mjs, err := codec.DecodeMessage(s, msg, codec.Options{})
	if err != nil || typ != c.Type || !bytes.Equal(mjs, js) {
		t.Errorf("%s: as a message: decoded %s, %v", c.ID(), typ, err)
		return
	}
	if m, err := codec.EncodeMessage(s, typ, mjs); err != nil || !bytes.Equal(m, msg) {
		t.Errorf("%s: message re-encoding differs (%v)", c.ID(), err)
	}
}

func writeIfChanged(t *testing.T, path string, content []byte) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, content) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	return fmt.Sprintf("golden has %d bytes, codec %d; first difference at offset %d", len(want), len(got), i)
}

// TestGoldenNames checks that golden files are named after cases only
// (golden/<schema>/<case>.sdpb and .hex), so runners in other languages can
// rely on the layout.
func TestGoldenNames(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(Dir(), "golden", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if ext := filepath.Ext(p); ext != ".sdpb" && ext != ".hex" {
			t.Errorf("%s: unexpected file in golden/", p)
		}
	}
}
