package gentest

import (
	"os"
	"path/filepath"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
)

// TestReportRandomFailure: the report writes the failing schema where it
// says, for a seeded suite and for a regression schema.
func TestReportRandomFailure(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	seeded, err := randschema.Generate(3, randschema.Config{Adversarial: true})
	if err != nil {
		t.Fatal(err)
	}
	regress, err := randschema.FromSource("my_regress", []byte("struct A { x: u8 }\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, su := range []*randschema.Suite{seeded, regress} {
		ReportRandomFailure(t, "go", "./gen/golang", su, []conformance.Vector{su.Vectors[0]})
		got, err := os.ReadFile(filepath.Join(os.TempDir(), "sdp-random-failures", su.Name+".sdp"))
		if err != nil || string(got) != string(su.Source) {
			t.Errorf("%s: schema not written: %v", su.Name, err)
		}
	}
}

func TestParseSeeds(t *testing.T) {
	got, err := ParseSeeds("3, 7-9,1")
	if err != nil || len(got) != 5 || got[0] != 3 || got[3] != 9 || got[4] != 1 {
		t.Errorf("ParseSeeds = %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "9-7", "1-"} {
		if _, err := ParseSeeds(bad); err == nil {
			t.Errorf("ParseSeeds(%q) accepted", bad)
		}
	}
}
