package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestRandomSchemas runs the random-schema suites (gentest.RandomSuites:
// seeds from SDP_RANDOM_SEEDS) through a testee built from the Go code
// generated for each schema, natively and with the portable array code, and
// vets the generated packages.
func TestRandomSchemas(t *testing.T) {
	suites := gentest.RandomSuites(t)
	m := writeRandomModule(t, suites)
	m.goCmd(t, nil, "vet", "./...")
	// The generated packages alone for a 32-bit target (constants and
	// conversions that only fit a 64-bit int), and formatted as gofmt would.
	// The portable run below covers the big-endian code paths.
	m.goCmd(t, []string{"GOARCH=386"}, append([]string{"build"}, prefixAll("./", m.schemas)...)...)
	gofmt := filepath.Join(filepath.Dir(goTool(t)), "gofmt")
	if _, err := os.Stat(gofmt); err != nil {
		gofmt = gentest.RequireTool(t, "gofmt")
	}
	if out, err := exec.Command(gofmt, append([]string{"-l"}, m.files...)...).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("gofmt -l: %v\n%s", err, out)
	}
	for _, variant := range testeeVariants {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			bin := m.buildTestee(t, variant)
			start := func(t *testing.T, su *randschema.Suite) conformance.Testee {
				testee, err := conformance.Start(exec.Command(bin, su.Name))
				if err != nil {
					t.Fatal(err)
				}
				return testee
			}
			gentest.RunRandom(t, "go", "./gen/golang", suites, start)
			t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "go", "./gen/golang", suites, start) })
			t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "go", "./gen/golang", suites, start) })
			t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "go", "./gen/golang", suites, start) })
		})
	}
}

// writeRandomModule writes a module with the generated package of every
// suite and one testee for all of them.
func writeRandomModule(t *testing.T, suites []*randschema.Suite) *testModule {
	dir := t.TempDir()
	m := &testModule{dir: dir}
	gomod := "module sdptest\n\ngo 1.19\n\nrequire sdp v0.0.0\n\nreplace sdp => " + gentest.Root(t) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "testee"), 0o755); err != nil {
		t.Fatal(err)
	}
	var main strings.Builder
	main.WriteString(testeeMainHead)
	for _, su := range suites {
		files, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", su.Name, err)
		}
		if err := gen.Write(filepath.Join(dir, su.Name), files); err != nil {
			t.Fatal(err)
		}
		m.schemas = append(m.schemas, su.Name)
		for _, f := range files {
			m.files = append(m.files, filepath.Join(dir, su.Name, f.Path))
		}
		src := strings.ReplaceAll(testeeHandler, "SCHEMA", su.Name)
		if err := os.WriteFile(filepath.Join(dir, "testee", "h_"+su.Name+".go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		main.WriteString("\t" + `"` + su.Name + `": handle_` + su.Name + ",\n")
	}
	main.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "testee", "main.go"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testee", "common.go"), []byte(testeeCommon), 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

func prefixAll(prefix string, list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = prefix + s
	}
	return out
}
