// Package gentest is the golden-file harness every backend's tests share:
// generate code for a schema, compare it with testdata, rewrite testdata
// with `go test ./gen/... -update`.
package gentest

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/schema"
)

var update = flag.Bool("update", false, "rewrite golden files with the generator's current output")

// Root returns the repository root (the directory holding go.mod).
func Root(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// LoadSchema loads a schema; a relative path is taken from the repository root.
func LoadSchema(t testing.TB, path string) *schema.Schema {
	t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(Root(t), path)
	}
	s, err := schema.Load(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return s
}

// Golden compares files with the tree under dir, or rewrites that tree when
// -update is set. Extra files under dir are an error too, so a renamed output
// cannot leave a stale golden behind. It also checks that generating twice
// gives the same bytes.
func Golden(t *testing.T, dir string, g gen.Generator, s *schema.Schema, opt gen.Options) []gen.File {
	t.Helper()
	files, err := g(s, opt)
	if err != nil {
		t.Fatalf("generate %s: %v", s.Name, err)
	}
	again, err := g(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(files) {
		t.Fatalf("generating %s twice gave %d then %d files", s.Name, len(files), len(again))
	}
	for i := range files {
		if files[i].Path != again[i].Path || !bytes.Equal(files[i].Content, again[i].Content) {
			t.Fatalf("generating %s twice gave different output for %s", s.Name, files[i].Path)
		}
	}
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(dir, files); err != nil {
			t.Fatal(err)
		}
		return files
	}
	want := map[string]bool{}
	for _, f := range files {
		want[filepath.FromSlash(f.Path)] = true
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s: missing golden (run go test ./gen/... -update): %v", f.Path, err)
			continue
		}
		if !bytes.Equal(got, f.Content) {
			t.Errorf("%s differs from golden %s (run go test ./gen/... -update and review the diff):\n%s",
				f.Path, filepath.Join(dir, f.Path), firstDiff(got, f.Content))
		}
	}
	var extra []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if !want[rel] {
				extra = append(extra, rel)
			}
		}
		return nil
	})
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("golden files under %s that the generator no longer writes: %s (run -update)", dir, strings.Join(extra, ", "))
	}
	return files
}

func firstDiff(want, got []byte) string {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  golden:    " + w + "\n  generated: " + g
		}
	}
	return "(length differs)"
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[n:])
}

// RequireTool returns the path of a command the test needs. Where it is
// missing the test is skipped on a developer's machine but fails under CI
// (CI set in the environment), so CI never passes by skipping a backend.
func RequireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; the README's setup command installs it", name)
		}
		t.Skipf("%s is not installed (run the README's setup command)", name)
	}
	return p
}

// CorpusNames lists the conformance corpus schemas' base names, sorted.
func CorpusNames(t testing.TB) []string {
	t.Helper()
	names, err := conformance.SchemaNames()
	if err != nil || len(names) == 0 {
		t.Fatalf("no conformance schemas: %v", err)
	}
	return names
}

// CorpusSchemas loads every conformance corpus schema, sorted by name.
func CorpusSchemas(t testing.TB) []*schema.Schema {
	t.Helper()
	var out []*schema.Schema
	for _, n := range CorpusNames(t) {
		out = append(out, LoadSchema(t, conformance.SchemaPath(n)))
	}
	return out
}

// LoadGlob loads the schemas matching pattern (relative to the test's
// package directory), sorted by path; none is an error.
func LoadGlob(t testing.TB, pattern string) []*schema.Schema {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas match %s: %v", pattern, err)
	}
	var out []*schema.Schema
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, LoadSchema(t, abs))
	}
	return out
}

// GoldenEach runs Golden for every schema as a subtest named after it,
// against testdata/<schema>/ with default options.
func GoldenEach(t *testing.T, g gen.Generator, schemas []*schema.Schema) {
	t.Helper()
	for _, s := range schemas {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			Golden(t, filepath.Join("testdata", s.Name), g, s, gen.Options{})
		})
	}
}
