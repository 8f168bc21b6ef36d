package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"sdp/conformance"
)

// TestConformance runs the corpus against a testee built from the generated
// code: every golden vector must decode and re-encode to the same bytes
// through every decode and encode API (plain and as a message, through the
// dispatcher and the stream reader), and every invalid vector must be
// rejected. It runs twice: with the little-endian bulk array code and with
// the portable element-by-element code that big-endian hosts use.
func TestConformance(t *testing.T) {
	m := buildModule(t)
	for _, variant := range testeeVariants {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			bin := m.buildTestee(t, variant)
			start := func(t *testing.T, schemaName string) conformance.Testee {
				testee, err := conformance.Start(exec.Command(bin, schemaName))
				if err != nil {
					t.Fatal(err)
				}
				return testee
			}
			conformance.Run(t, "go", start)
			t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "go", start) })
			t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "go", start) })
			t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "go", start) })
		})
	}
}

// testeeVariants are the two builds of a testee: the little-endian bulk
// array code, and the portable element-by-element code of big-endian hosts.
var testeeVariants = []struct{ name, tags string }{
	{"native", ""},
	{"portable", PortableTag},
}

// buildTestee builds the module's testee for a variant and returns its path.
func (m *testModule) buildTestee(t *testing.T, variant struct{ name, tags string }) string {
	return m.buildTesteeFor(t, variant, nil)
}

// buildTesteeFor builds a variant's testee with extra environment (GOARCH).
func (m *testModule) buildTesteeFor(t *testing.T, variant struct{ name, tags string }, env []string) string {
	bin := filepath.Join(m.dir, "testee-"+variant.name+strings.Join(env, "-"))
	args := []string{"build", "-o", bin}
	if variant.tags != "" {
		args = append(args, "-tags", variant.tags)
	}
	m.goCmd(t, env, append(args, "./testee")...)
	return bin
}

// TestConformance386 runs the corpus through a testee built for 32-bit x86
// (GOARCH=386), where int has 32 bits: counts, lengths and sizes must still
// be checked in 64 bits. It needs a kernel that runs i386 programs, as
// x86-64 Linux does; elsewhere it is skipped.
func TestConformance386(t *testing.T) {
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skip("runs i386 programs on x86-64 Linux only")
	}
	m := buildModule(t)
	bin := m.buildTesteeFor(t, testeeVariants[0], []string{"GOARCH=386"})
	start := func(t *testing.T, schemaName string) conformance.Testee {
		testee, err := conformance.Start(exec.Command(bin, schemaName))
		if err != nil {
			t.Fatal(err)
		}
		return testee
	}
	// Not the stream vectors: MessageReader.MaxSize is an int, so a 32-bit
	// reader refuses a declared payload of 2 GiB or more as over its maximum
	// where the vectors, read without a maximum, expect the cut stream.
	conformance.Run(t, "go", start)
}

// TestSizes386 encodes, in a program built for 32-bit x86, registries whose
// encodings are near and past what an int holds there: 31 and 33 plugins
// whose names share one 64 MiB string (2.08 GB and 2.21 GB). The sizes are
// summed in 64 bits, so the first is exact and the second is reported
// (EncodedSize -1, an *EncodeError with rule size and an empty path from
// every encoder) instead of wrapping to a negative size that made
// MarshalBinary panic in makeslice.
func TestSizes386(t *testing.T) {
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skip("runs i386 programs on x86-64 Linux only")
	}
	m := buildModule(t)
	dir := filepath.Join(m.dir, "sizes386")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(sizes386Main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(m.dir, "sizes386.bin")
	m.goCmd(t, []string{"GOARCH=386"}, "build", "-o", bin, "./sizes386")
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("32-bit sizes: %v\n%s", err, out)
	}
}

const sizes386Main = `package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"sdptest/plugins"
)

func registry(n int, name string) *plugins.PluginRegistry {
	r := &plugins.PluginRegistry{Plugins: make([]plugins.Plugin, n)}
	for i := range r.Plugins {
		r.Plugins[i].Name = name
	}
	return r
}

func fail(format string, args ...interface{}) {
	fmt.Printf(format+"\n", args...)
	os.Exit(1)
}

func main() {
	name := strings.Repeat("x", 64<<20)
	// 12 bytes of registry, then per plugin 20 bytes of counts and lengths
	// and the name's bytes.
	if got, want := registry(31, name).EncodedSize(), 12+31*(20+64<<20); got != want {
		fail("31 plugins: EncodedSize %d, want %d", got, want)
	}
	r := registry(33, name)
	if n := r.EncodedSize(); n != -1 {
		fail("33 plugins: EncodedSize %d, want -1", n)
	}
	if n := r.EncodedMessageSize(); n != -1 {
		fail("33 plugins: EncodedMessageSize %d, want -1", n)
	}
	check := func(what string, b []byte, err error) {
		var ee *plugins.EncodeError
		if !errors.As(err, &ee) || ee.Rule != plugins.RuleSize || ee.Path != "" || len(b) > 3 ||
			!strings.HasPrefix(err.Error(), "size: the encoding takes ") {
			fail("33 plugins: %s returned %d bytes and %v, want an *EncodeError with rule size", what, len(b), err)
		}
	}
	b, err := r.MarshalBinary()
	check("MarshalBinary", b, err)
	b, err = r.AppendBinary([]byte{1, 2, 3})
	check("AppendBinary", b, err)
	b, err = r.MarshalMessage()
	check("MarshalMessage", b, err)
	b, err = r.AppendMessage(nil)
	check("AppendMessage", b, err)
	_, err = r.WriteTo(io.Discard)
	check("WriteTo", nil, err)
	err = plugins.NewMessageWriter(io.Discard).WriteMessage(r)
	check("MessageWriter.WriteMessage", nil, err)
	fmt.Println("ok")
}
`
