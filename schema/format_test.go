package schema

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateFormat = flag.Bool("update-format", false, "rewrite testdata/format/*.golden")

// TestFormatGolden formats testdata/format/*.sdp and compares with the
// .golden files next to them (-update-format rewrites them).
func TestFormatGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/format/*.sdp")
	if len(paths) == 0 {
		t.Fatal("no testdata/format/*.sdp")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Format(p, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		golden := strings.TrimSuffix(p, ".sdp") + ".golden"
		if *updateFormat {
			os.WriteFile(golden, out, 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./schema -run Format -update-format)", err)
		}
		if string(out) != string(want) {
			t.Errorf("%s: formatted differently from %s:\n%s", p, golden, out)
		}
		checkFormatted(t, p, src, out)
	}
}

// TestFormatCorpus formats every corpus and regression schema and every
// error-free schema of testdata/errors: the result parses to the same model
// (names, docs, types, ids), is stable under another Format, and keeps CRLF.
func TestFormatCorpus(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../conformance/schemas/*.sdp", "../conformance/regress/*.sdp", "testdata/*.sdp", "../examples/*/*.sdp"} {
		p, _ := filepath.Glob(glob)
		paths = append(paths, p...)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d schemas", len(paths))
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Format(p, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkFormatted(t, p, src, out)
		crlf := strings.ReplaceAll(string(src), "\n", "\r\n")
		out, err = Format(p, []byte(crlf))
		if err != nil {
			t.Fatalf("%s (CRLF): %v", p, err)
		}
		if strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
			t.Errorf("%s: CRLF line endings were not kept", p)
		}
		checkFormatted(t, p, []byte(crlf), out)
	}
}

// TestFormatErrors: a file that does not parse is not formatted.
func TestFormatErrors(t *testing.T) {
	if _, err := Format("bad.sdp", []byte("struct A { x: }")); err == nil || !strings.Contains(err.Error(), "bad.sdp:1:15") {
		t.Errorf("Format of a syntax error: %v", err)
	}
	// Unknown types are fine: formatting needs only the syntax.
	if out, err := Format("u.sdp", []byte("struct A{x:Nope}")); err != nil || string(out) != "struct A {\n    x: Nope,\n}\n" {
		t.Errorf("Format of an unknown type: %q, %v", out, err)
	}
}

// checkFormatted checks that out, the formatting of src, describes the same
// schema and formats to itself.
func checkFormatted(t *testing.T, path string, src, out []byte) {
	t.Helper()
	a, errA := Parse(path, src)
	b, errB := Parse(path, out)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("%s: the source parses with %v, the formatted file with %v:\n%s", path, errA, errB, out)
	}
	if errA == nil && describe(a) != describe(b) {
		t.Errorf("%s: the formatted file describes another schema:\n%s\n--- formatted:\n%s", path, describe(b), out)
	}
	again, err := Format(path, out)
	if err != nil || string(again) != string(out) {
		t.Errorf("%s: formatting is not stable (%v):\n%s\n--- again:\n%s", path, err, out, again)
	}
}

// describe writes everything of a model that formatting must keep.
func describe(s *Schema) string {
	var b strings.Builder
	fields := func(fs []*Field) {
		for _, f := range fs {
			fmt.Fprintf(&b, "  %s: %s %q\n", f.Name, f.Type, f.Doc)
		}
	}
	for _, d := range s.Decls {
		fmt.Fprintf(&b, "%s %q\n", d.DeclName(), d.DeclDoc())
		switch d := d.(type) {
		case *Struct:
			fmt.Fprintf(&b, " id %d %v\n", d.ID, d.ExplicitID)
			fields(d.Fields)
		case *Enum:
			fmt.Fprintf(&b, " base %s\n", d.Base)
			for _, v := range d.Values {
				fmt.Fprintf(&b, "  %s = %d %q\n", v.Name, v.Value, v.Doc)
			}
		case *Union:
			for _, v := range d.Variants {
				fmt.Fprintf(&b, " variant %s %d %q\n", v.Name, v.Kind, v.Doc)
				fields(v.Fields)
			}
		}
	}
	return b.String()
}
