package golang

import (
	"os/exec"
	"path/filepath"
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
	bin := filepath.Join(m.dir, "testee-"+variant.name)
	args := []string{"build", "-o", bin}
	if variant.tags != "" {
		args = append(args, "-tags", variant.tags)
	}
	m.goCmd(t, nil, append(args, "./testee")...)
	return bin
}
