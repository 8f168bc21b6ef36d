package swift

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/gentest"
)

// unencodableSkips are the changes of the invalid-value corpus that a Swift
// value cannot hold, and why: a property of the types the backend
// generates, not of its encoders (docs/conformance.md, "Values that have no
// encoding"). Every other change must be made and refused.
var unencodableSkips = map[conformance.Change]string{
	conformance.ChangeEnum:      "an enum is a Swift enum, which holds only its declared cases",
	conformance.ChangeNoVariant: "a union is a Swift enum, which always holds one of its cases",
	conformance.ChangeBadUTF8:   "a Swift String always holds valid Unicode, stored as UTF-8",
	conformance.ChangeNull:      "a field that is not optional has a non-optional Swift type, which cannot hold nil",
	conformance.ChangeRange:     "an integer has the Swift integer type of its width (UInt8, UInt32, Int16, ...)",
	conformance.ChangeWrongType: "Swift is statically typed: a field holds only values of its type",
}

// unencodableAPIs are the encode APIs that refuse a value (the plain
// encoders trap instead, as documented): each line of the program names
// one.
var unencodableAPIs = []string{
	"checkedSerializedBytes", "checkedSerialize(into:)", "checkedSerializedData",
	"checkedSerializedMessage", "AnyMessage.checkedSerializedMessage",
	"MessageWriter.write", "MessageWriter.write(AnyMessage)",
}

// TestUnencodable compiles one program with the module generated from the
// invalid-value corpus's schema: for every case Swift's types can hold, it
// decodes the valid value, makes the change, and calls every checked
// encoder and the stream writer, printing the rule and path each refused
// it with; every line must be the reference codec's rule and path, and
// nothing may be written.
func TestUnencodable(t *testing.T) {
	swiftc := gentest.RequireTool(t, "swiftc")
	s := gentest.LoadSchema(t, conformance.UnencodableSchemaPath())
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s, gen.Options{Package: "unencodable"})
	if err != nil {
		t.Fatal(err)
	}
	g := newGen(s, gen.Options{Package: "unencodable"})
	p := emit.New("    ")
	p.P("// The invalid-value corpus (conformance/unencodable), printed by TestUnencodable.")
	p.P("import Foundation")
	p.P()
	p.P(unencodableHelpers)
	want := map[string]string{}
	var order []string
	skipped := map[conformance.Change]int{}
	for _, c := range cases {
		if _, skip := unencodableSkips[c.Change]; skip {
			skipped[c.Change]++
			continue
		}
		if c.Change != conformance.ChangeLength {
			t.Fatalf("case %s: change %s is neither made nor in unencodableSkips", c.Name, c.Change)
		}
		p.Block("do {", "}", func() {
			p.F("var v = try! %s(serializedBytes: %s)", g.typeName(c.Type), swiftBytes(c.Base))
			p.F("v%s = resized(v%s, %d)", swiftTarget(c.Target), swiftTarget(c.Target), c.N)
			p.F("refuse(%q, v, .%s(v))", c.Name, member(c.Type.Name))
		})
		for _, api := range unencodableAPIs {
			key := c.Name + " " + api
			want[key] = c.Rule + " " + pathOrDash(c.Path)
			order = append(order, key)
		}
	}
	for ch, n := range skipped {
		t.Logf("skipped %d cases of change %s: %s", n, ch, unencodableSkips[ch])
	}
	if len(want) == 0 {
		t.Fatal("no case of the invalid-value corpus is made in Swift")
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "Sources", "unencodable")
	if err := os.WriteFile(filepath.Join(src, "main.swift"), p.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(src, "*.swift"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "check")
	args := append([]string{"-swift-version", "6", "-warnings-as-errors", "-module-name", "unencodable", "-o", bin}, sources...)
	if out, err := exec.Command(swiftc, args...).CombinedOutput(); err != nil {
		t.Fatalf("swiftc: %v\n%s", err, tail(string(out), 8000))
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("the program failed: %v\n%s", err, tail(string(out), 8000))
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Errorf("bad line %q", line)
			continue
		}
		if f[2] == "wrote" || f[2] == "changed-its-buffer" {
			t.Errorf("refused but wrote: %s", line)
			continue
		}
		got[f[0]+" "+f[1]] = strings.Join(f[2:], " ")
	}
	for _, key := range order {
		if got[key] != want[key] {
			t.Errorf("%s: got %q, want %q (the reference's rule and path)", key, got[key], want[key])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d lines for %d expected:\n%s", len(got), len(want), out)
	}
}

func pathOrDash(p string) string {
	if p == "" {
		return "-"
	}
	return p
}

// swiftTarget is the Swift access path of a target: ".items[1].pair".
func swiftTarget(steps []conformance.Step) string {
	var b strings.Builder
	for _, st := range steps {
		if st.Field == nil {
			fmt.Fprintf(&b, "[%d]", st.Index)
		} else {
			b.WriteString("." + member(st.Field.Name))
		}
	}
	return b.String()
}

func swiftBytes(b []byte) string {
	var parts []string
	for _, c := range b {
		parts = append(parts, fmt.Sprint(c))
	}
	return "[" + strings.Join(parts, ", ") + "] as [UInt8]"
}

// unencodableHelpers are the program's helpers: the change of a fixed
// array's length (its first n elements, or copies of its last one added),
// and the calls of every API, each printing "<case> <api> <rule> <path>"
// ("-" for an empty path), "encoded" when it did not refuse, or what it
// wrote although it refused.
const unencodableHelpers = `func resized<T>(_ a: [T], _ n: Int) -> [T] {
    if n <= a.count {
        return Array(a.prefix(n))
    }
    return a + Array(repeating: a[a.count - 1], count: n - a.count)
}

func report(_ name: String, _ api: String, _ body: () throws -> Void) {
    do {
        try body()
        print("\(name) \(api) encoded")
    } catch let e as EncodeError {
        print("\(name) \(api) \(e.rule) \(e.path.isEmpty ? "-" : e.path)")
    } catch {
        print("\(name) \(api) not-an-EncodeError \(error)")
    }
}

func refuse(_ name: String, _ v: Box, _ m: AnyMessage) {
    report(name, "checkedSerializedBytes") { _ = try v.checkedSerializedBytes() }
    report(name, "checkedSerialize(into:)") {
        var out: [UInt8] = [1, 2, 3]
        defer {
            if out != [1, 2, 3] {
                print("\(name) checkedSerialize(into:) changed-its-buffer")
            }
        }
        try v.checkedSerialize(into: &out)
    }
    report(name, "checkedSerializedData") { _ = try v.checkedSerializedData() }
    report(name, "checkedSerializedMessage") { _ = try v.checkedSerializedMessage() }
    report(name, "AnyMessage.checkedSerializedMessage") { _ = try m.checkedSerializedMessage() }
    for (api, write) in [("MessageWriter.write", { (w: MessageWriter) throws in try w.write(v) }),
                         ("MessageWriter.write(AnyMessage)", { (w: MessageWriter) throws in try w.write(m) })] {
        var written = 0
        let writer = MessageWriter { written += $0.count }
        report(name, api) {
            defer {
                if written != 0 || writer.count != 0 || writer.offset != 0 {
                    print("\(name) \(api) wrote \(written) bytes")
                }
            }
            try write(writer)
        }
    }
}
`
