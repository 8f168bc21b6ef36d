package ts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// tscFlags are the strictest options the generated code and the runtime
// type-check under.
var tscFlags = []string{
	"--strict", "--noImplicitReturns", "--noUnusedLocals", "--noUnusedParameters",
	"--exactOptionalPropertyTypes", "--noImplicitOverride",
	"--target", "es2020", "--module", "es2020", "--moduleResolution", "node", "--lib", "es2020,dom",
}

// allSchemas are the corpus schemas and the backend's own test schemas.
func allSchemas(t *testing.T) []*schema.Schema {
	return append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))...)
}

// TestGolden compares the generated packages of every conformance schema
// with testdata/<schema>/ (go test ./gen/ts -update rewrites them), and the
// JavaScript packages with testdata/js/<schema>/.
func TestGolden(t *testing.T) {
	for _, s := range allSchemas(t) {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			for _, g := range []struct {
				dir string
				gen gen.Generator
			}{{filepath.Join("testdata", "ts", s.Name), Generate}, {filepath.Join("testdata", "js", s.Name), GenerateJS}} {
				files := gentest.Golden(t, g.dir, g.gen, s, gen.Options{})
				for _, f := range files {
					if strings.HasSuffix(f.Path, "s") && !strings.HasPrefix(string(f.Content), "// "+gen.Header(s)+"\n") {
						t.Errorf("%s does not start with the generated-code header", f.Path)
					}
				}
			}
		})
	}
}

// writePackages generates the packages of schemas under dir/<name>.
func writePackages(t *testing.T, g gen.Generator, schemas []*schema.Schema) string {
	dir := t.TempDir()
	for _, s := range schemas {
		files, err := g(s, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if err := gen.Write(filepath.Join(dir, s.Name), files); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tsc type-checks and compiles files in one run (tsc is slow to start).
func tsc(t *testing.T, files []string, extra ...string) {
	t.Helper()
	args := append(append(append([]string{}, tscFlags...), extra...), files...)
	cmd := exec.Command(gentest.RequireTool(t, "tsc"), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// buildTS writes and compiles the TypeScript packages of schemas.
func buildTS(t *testing.T, schemas []*schema.Schema) string {
	dir := writePackages(t, Generate, schemas)
	var files []string
	for _, s := range schemas {
		files = append(files, filepath.Join(dir, s.Name, "index.ts"))
	}
	tsc(t, files)
	return dir
}

func testee(t *testing.T, node, pkg string) conformance.Testee {
	script, err := filepath.Abs(filepath.Join("testdata", "testee.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	te, err := conformance.Start(exec.Command(node, script, pkg))
	if err != nil {
		t.Fatal(err)
	}
	return te
}

// TestConformance compiles the corpus packages with tsc and runs the corpus,
// its streams and hellos through the Node testee; then the same through the
// JavaScript packages, which no compiler touched.
func TestConformance(t *testing.T) {
	node := gentest.RequireTool(t, "node")
	schemas := gentest.CorpusSchemas(t)
	dir := buildTS(t, schemas)
	st := func(t *testing.T, name string) conformance.Testee {
		return testee(t, node, filepath.Join(dir, name, "index.js"))
	}
	conformance.Run(t, "ts", st)
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "ts", st) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "ts", st) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "ts", st) })
	t.Run("js", func(t *testing.T) {
		jsdir := writePackages(t, GenerateJS, schemas)
		st := func(t *testing.T, name string) conformance.Testee {
			return testee(t, node, filepath.Join(jsdir, name, "index.js"))
		}
		conformance.Run(t, "js", st)
		t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "js", st) })
	})
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
