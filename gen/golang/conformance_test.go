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
	for _, variant := range []struct{ name, tags string }{
		{"native", ""},
		{"portable", PortableTag},
	} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			bin := filepath.Join(m.dir, "testee-"+variant.name)
			args := []string{"build", "-o", bin}
			if variant.tags != "" {
				args = append(args, "-tags", variant.tags)
			}
			m.goCmd(t, nil, append(args, "./testee")...)
			conformance.Run(t, "go", func(t *testing.T, schemaName string) conformance.Testee {
				testee, err := conformance.Start(exec.Command(bin, schemaName))
				if err != nil {
					t.Fatal(err)
				}
				return testee
			})
		})
	}
}
