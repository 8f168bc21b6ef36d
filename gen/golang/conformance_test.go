package golang

import (
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
