package rust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestRandomSchemas runs the random-schema suites (gentest.RandomSuites:
// the regression schemas and the seeds from SDP_RANDOM_SEEDS) through one
// testee built from the crates generated for all of them. The crates are
// linted as TestCrateQuality lints the corpus crates (clippy with warnings
// denied; not rustfmt --check, whose line breaking of deeply nested
// expressions the generator does not reproduce yet) and the testee decodes every input through the
// owned and the view APIs as TestConformance's does. The workspace is its
// own (below os.TempDir(), sdp-rust-random) and builds incrementally.
func TestRandomSchemas(t *testing.T) {
	gentest.RequireTool(t, "cargo")
	suites := gentest.RandomSuites(t)
	w, err := setupRandomWorkspace(suites)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, n := range w.crates {
		pkgs = append(pkgs, "-p", crateName(n))
	}
	if _, err := exec.LookPath("cargo-clippy"); err == nil {
		args := append(append([]string{"clippy", "--quiet", "--keep-going", "--all-targets", "--message-format", "short"}, pkgs...), "--", "-D", "warnings")
		if out, err := w.cargo(t, args...); err != nil || strings.TrimSpace(out) != "" {
			t.Fatalf("cargo clippy: %v\n%s", err, out)
		}
	} else {
		t.Log("clippy is not installed: checked for compiler warnings only")
	}
	if out, err := w.cargo(t, "build", "--quiet", "--message-format", "short", "-p", "sdp_rust_testee"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("cargo build: %v\n%s", err, out)
	}
	start := func(t *testing.T, su *randschema.Suite) conformance.Testee {
		te, err := conformance.Start(exec.Command(w.testee, su.Name))
		if err != nil {
			t.Fatal(err)
		}
		return te
	}
	gentest.RunRandom(t, "rust", "./gen/rust", suites, start)
	t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "rust", "./gen/rust", suites, start) })
	t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "rust", "./gen/rust", suites, start) })
	t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "rust", "./gen/rust", suites, start) })
}

// setupRandomWorkspace writes a workspace with the crate of every suite and
// one testee for all of them. Warnings are errors in every build (RUSTFLAGS
// is the same for clippy and the build, so neither invalidates the other's
// artifacts).
func setupRandomWorkspace(suites []*randschema.Suite) (*randomWorkspace, error) {
	root := filepath.Join(os.TempDir(), "sdp-rust-random")
	w := &randomWorkspace{workspace{
		dir:    filepath.Join(root, "ws"),
		target: filepath.Join(root, "target"),
	}}
	w.testee = filepath.Join(w.target, "debug", "sdp_rust_testee")
	var schemas []*schema.Schema
	var deps, members []string
	for _, su := range suites {
		files, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", su.Name, err)
		}
		if err := syncFiles(filepath.Join(w.dir, "crates", su.Name), files); err != nil {
			return nil, err
		}
		schemas = append(schemas, su.Schema)
		w.crates = append(w.crates, su.Name)
		members = append(members, fmt.Sprintf("%q", "crates/"+su.Name))
		deps = append(deps, fmt.Sprintf("%s = { path = \"../crates/%s\" }", crateName(su.Name), su.Name))
	}
	// Crates of suites not run this time stay on disk (their build artifacts
	// are reused when they come back) but leave the workspace.
	sort.Strings(members)
	files := []gen.File{
		{Path: "Cargo.toml", Content: []byte("[workspace]\nresolver = \"2\"\nmembers = [" + strings.Join(members, ", ") + ", \"testee\"]\n")},
		{Path: "testee/Cargo.toml", Content: []byte("[package]\nname = \"sdp_rust_testee\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n" +
			"[lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = [\"cfg(sdp_fuzz)\"] }\n\n[dependencies]\n" + strings.Join(deps, "\n") + "\n")},
		{Path: "testee/src/main.rs", Content: testeeMain(schemas)},
	}
	if err := syncFiles(w.dir, files); err != nil {
		return nil, err
	}
	w.schemas = schemas
	return w, nil
}

// randomWorkspace is the random test's workspace: warnings are errors.
type randomWorkspace struct{ workspace }

func (w *randomWorkspace) cargo(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("cargo", args...)
	cmd.Dir = w.dir
	cmd.Env = append(w.cargoEnv(), "RUSTFLAGS=-D warnings")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
