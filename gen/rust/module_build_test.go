package rust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestModuleGolden compares `sdp gen --lang rust --module` output for
// plugins (a corpus schema) and edge (names that clash with the crate's own)
// with testdata/module/<schema>/ (rewrite with -update).
func TestModuleGolden(t *testing.T) {
	for _, path := range []string{conformance.SchemaPath("plugins"), filepath.Join(gentestRoot(), "gen", "rust", "testdata", "schemas", "edge.sdp")} {
		s := gentest.LoadSchema(t, path)
		t.Run(s.Name, func(t *testing.T) {
			gentest.Golden(t, filepath.Join("testdata", "module", s.Name), GenerateModule, s, gen.Options{})
		})
	}
}

// TestModuleOption checks the module's name and that it holds no inner
// attribute, no `mod x;` and no `crate::` path, which an included file
// cannot have or would resolve elsewhere.
func TestModuleOption(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("messages"))
	files, err := GenerateModule(s, gen.Options{Package: "Net-Messages"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "net_messages.rs" {
		t.Fatalf("GenerateModule wrote %d files, the first %q; want net_messages.rs only", len(files), files[0].Path)
	}
	for i, line := range strings.Split(string(files[0].Content), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(line, "#![") || strings.HasPrefix(line, "//!") ||
			(strings.HasPrefix(trimmed, "mod ") && strings.HasSuffix(trimmed, ";")) || strings.Contains(line, "crate::") {
			t.Errorf("line %d cannot be in an included module: %s", i+1, line)
		}
	}
}

// TestModuleCompiles includes the module generated for every corpus schema
// (and testdata/schemas) in a program, as private modules, where a program's
// unused API and clippy's lints for non-exported names apply, and the
// plugins module in a library, with include! as a public module and as a
// #[path] module file. It checks them the way TestCrateQuality checks the
// crates: clippy with warnings denied, or a warning-free build without
// clippy.
func TestModuleCompiles(t *testing.T) {
	gentest.RequireTool(t, "cargo")
	root := filepath.Join(os.TempDir(), "sdp-rust-module-test")
	host := filepath.Join(root, "host")
	schemas := append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testdata", "schemas", "*.sdp"))...)
	var main strings.Builder
	main.WriteString("//! Every SDP test schema as a module of one program.\n\n")
	var files []gen.File
	for _, s := range schemas {
		out, err := GenerateModule(s, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		files = append(files, gen.File{Path: "gen/" + out[0].Path, Content: out[0].Content})
		name := strings.TrimSuffix(out[0].Path, ".rs")
		fmt.Fprintf(&main, "mod %s {\n    include!(\"../gen/%s.rs\");\n}\n\n", name, name)
	}
	main.WriteString("fn main() {\n    let bytes = plugins::PluginRegistry::default().encode_to_vec();\n" +
		"    assert!(plugins::PluginRegistry::decode(&bytes).is_ok());\n}\n")
	lib := "//! The generated module exported by a library.\n\npub mod plugins {\n    include!(\"../gen/plugins.rs\");\n}\n\n" +
		"#[path = \"../gen/plugins.rs\"]\npub mod plugins_by_path;\n"
	files = append(files,
		gen.File{Path: "Cargo.toml", Content: []byte("[package]\nname = \"sdp_module_host\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n\n[workspace]\n")},
		gen.File{Path: "src/main.rs", Content: []byte(main.String())},
		gen.File{Path: "src/lib.rs", Content: []byte(lib)})
	if err := syncFiles(host, files); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--quiet", "--message-format", "short"}
	if _, err := exec.LookPath("cargo-clippy"); err == nil {
		args = []string{"clippy", "--quiet", "--", "-D", "warnings"}
	} else {
		t.Log("clippy is not installed: checked for compiler warnings only")
	}
	cmd := exec.Command("cargo", args...)
	cmd.Dir = host
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+filepath.Join(root, "target"), "CARGO_TERM_COLOR=never")
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("cargo %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestBuildRsExample builds and runs examples/rust-build-rs with cargo: its
// build.rs runs `sdp gen --lang rust --module` into OUT_DIR (with SDP naming
// the sdp built here) and src/main.rs include!s the result. Then it edits
// the schema and checks that the next build generates the code again.
func TestBuildRsExample(t *testing.T) {
	gentest.RequireTool(t, "cargo")
	repo := gentestRoot()
	sdp := filepath.Join(t.TempDir(), "sdp")
	build := exec.Command("go", "build", "-o", sdp, "./cmd/sdp")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sdp: %v\n%s", err, out)
	}
	// A copy at a fixed place, with a kept target directory, so that runs
	// after the first build incrementally.
	root := filepath.Join(os.TempDir(), "sdp-rust-build-rs")
	dir, target := filepath.Join(root, "example"), filepath.Join(root, "target")
	example := filepath.Join(repo, "examples", "rust-build-rs")
	var files []gen.File
	for _, f := range []string{"Cargo.toml", "Cargo.lock", "build.rs", "sensors.sdp", "src/main.rs"} {
		b, err := os.ReadFile(filepath.Join(example, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, gen.File{Path: f, Content: b})
	}
	if err := syncFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	cargo := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("cargo", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SDP="+sdp, "CARGO_TARGET_DIR="+target, "CARGO_TERM_COLOR=never", "RUSTFLAGS=-D warnings")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cargo %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := cargo("run", "--quiet", "--locked", "--offline")
	for _, want := range []string{"greenhouse-1 sent 2 readings in 74 bytes", "round trip ok", "truncated input: truncated at offset 70 in battery: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}

	// A schema change reruns build.rs, which generates the code again.
	schemaPath := filepath.Join(dir, "sensors.sdp")
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // a newer mtime than the last build's
	if err := os.WriteFile(schemaPath, append(b, "\nstruct Calibration { offset: f64 }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cargo("build", "--quiet", "--locked", "--offline")
	generated, _ := filepath.Glob(filepath.Join(target, "debug", "build", "*", "out", "sensors.rs"))
	sort.Slice(generated, func(i, j int) bool { return modTime(generated[i]).After(modTime(generated[j])) })
	if len(generated) == 0 {
		t.Fatal("build.rs wrote no sensors.rs into OUT_DIR")
	}
	if g, err := os.ReadFile(generated[0]); err != nil || !strings.Contains(string(g), "pub struct Calibration") {
		t.Errorf("%s was not regenerated after the schema changed (%v)", generated[0], err)
	}
	// The copy stays as the example is, for the next run.
	if err := os.WriteFile(schemaPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
