package swift

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestEncodingCollection compiles testdata/encoding_check.swift into the
// generated primitives module (optimized, so the checks see the code users
// get) and runs it: serializedBytes() builds its array through
// _SDPEncoding's _copyContents(initializing:), and the collection's other
// paths (iterator, subscript, append) must give the same bytes.
func TestEncodingCollection(t *testing.T) {
	swiftc := gentest.RequireTool(t, "swiftc")
	s := gentest.LoadSchema(t, conformance.SchemaPath("primitives"))
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	check, err := os.ReadFile(filepath.Join("testdata", "encoding_check.swift"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "Sources", "primitives")
	if err := os.WriteFile(filepath.Join(src, "main.swift"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(src, "*.swift"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "check")
	args := append([]string{"-O", "-wmo", "-swift-version", "6", "-warnings-as-errors", "-module-name", "primitives", "-o", bin}, sources...)
	if out, err := exec.Command(swiftc, args...).CombinedOutput(); err != nil {
		t.Fatalf("swiftc: %v\n%s", err, tail(string(out), 8000))
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("encoding check: %v\n%s", err, out)
	}
}

// TestEncodeLimits compiles testdata/encode_limits.swift into the module
// generated from testdata/encode_limits.sdp and runs it: the length check
// of the checked encoders (checkedSerializedBytes() and the others) with
// small limits standing for the u32 limit, and the checked encoders against
// the plain ones. A real over-limit value would take 4 GiB of memory.
func TestEncodeLimits(t *testing.T) {
	swiftc := gentest.RequireTool(t, "swiftc")
	s := gentest.LoadSchema(t, filepath.Join(gentest.Root(t), "gen", "swift", "testdata", "encode_limits.sdp"))
	files, err := Generate(s, gen.Options{Package: "limits"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	check, err := os.ReadFile(filepath.Join("testdata", "encode_limits.swift"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "Sources", "limits")
	if err := os.WriteFile(filepath.Join(src, "main.swift"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(src, "*.swift"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "check")
	args := append([]string{"-swift-version", "6", "-warnings-as-errors", "-module-name", "limits", "-o", bin}, sources...)
	if out, err := exec.Command(swiftc, args...).CombinedOutput(); err != nil {
		t.Fatalf("swiftc: %v\n%s", err, tail(string(out), 8000))
	}
	out, err := exec.Command(bin).CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil || !strings.HasSuffix(text, "\nok") && text != "ok" {
		t.Fatalf("encode limits check: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(strings.TrimSuffix(text, "ok")))
}
