package rust

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/gen/naming"
	"sdp/schema"
)

// TestGolden compares the crate generated for every corpus schema with
// testdata/<schema>/ (rewrite with -update).
func TestGolden(t *testing.T) {
	gentest.GoldenEach(t, Generate, append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testdata", "schemas", "*.sdp"))...))
}

// extraSchemas are testdata/schemas/*.sdp: what the corpus does not cover.
// edge.sdp has names that clash with the crate's own, fixed arrays too long
// for derive(Default), unions whose first variant carries fields, u32 enums
// and recursion through a union; the others have no structs at all.
func extraSchemas(t testing.TB) []string {
	paths, err := filepath.Glob(filepath.Join(gentestRoot(), "gen", "rust", "testdata", "schemas", "*.sdp"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas in testdata/schemas: %v", err)
	}
	return paths
}

func TestCrateName(t *testing.T) {
	for in, want := range map[string]string{
		"plugins":        "plugins",
		"Audio-Plugins":  "audio_plugins",
		"my.schema v2":   "my_schema_v2",
		"2fast":          "sdp_2fast",
		"type":           "type_schema",
		"std":            "std_schema",
		"":               "sdp_schema",
		"PluginRegistry": "plugin_registry",
	} {
		if got := crateName(in); got != want {
			t.Errorf("crateName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPackageOption(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("messages"))
	files, err := Generate(s, gen.Options{Package: "Net-Messages"})
	if err != nil {
		t.Fatal(err)
	}
	var cargo string
	for _, f := range files {
		if f.Path == "Cargo.toml" {
			cargo = string(f.Content)
		}
	}
	if !strings.Contains(cargo, "name = \"net_messages\"\n") {
		t.Errorf("Cargo.toml does not name the crate net_messages:\n%s", cargo)
	}
}

func TestEscaping(t *testing.T) {
	for in, want := range map[string]string{
		"type": "r#type", "match": "r#match", "self": "self_", "crate": "crate_",
		"super": "super_", "fn": "r#fn", "async": "r#async", "value": "value",
	} {
		if got := ident(in); got != want {
			t.Errorf("ident(%q) = %q, want %q", in, got, want)
		}
	}
	if got := pascal("Self_"); got != "Self_" {
		t.Errorf("pascal(Self_) = %q", got)
	}
	if got := pascal("self"); got != "Self_" {
		t.Errorf("pascal(self) = %q", got)
	}
}

// TestReservedNames checks reservedNames against the crate generated for
// the probe schema (gentest.ReservedNames): the types its root defines.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineRust,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return naming.Pascal(d.DeclName()), newGenerator(s, "probe").name[d]
		},
	})
}

// rustItem matches an item of the type namespace at the top of a module;
// rustReexport the runtime's names lib.rs re-exports.
var (
	rustItem     = regexp.MustCompile(`(?m)^(?:pub(?:\([a-z]+\))? )?(?:struct|enum|trait|type|union) (\w+)`)
	rustReexport = regexp.MustCompile(`(?s)\npub use rt::\{([^}]*)\}`)
)

// mineRust returns the types the crate root defines: its modules' items
// (re-exported with a glob; not the runtime's, which the code names as
// rt::...) and the runtime's names it re-exports one by one.
func mineRust(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		src := string(f.Content)
		if !strings.HasSuffix(f.Path, ".rs") || strings.HasSuffix(f.Path, "/rt.rs") {
			continue
		}
		for _, m := range rustItem.FindAllStringSubmatch(src, -1) {
			top = append(top, m[1])
		}
		if m := rustReexport.FindStringSubmatch(src); m != nil {
			for _, n := range strings.Split(m[1], ",") {
				if n = strings.TrimSpace(n); n != "" && naming.Pascal(n) == n {
					top = append(top, n) // a type (constants and functions cannot clash)
				}
			}
		}
	}
	return top, nil
}
