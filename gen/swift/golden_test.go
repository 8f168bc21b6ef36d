package swift

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

// TestGolden compares the package generated for every corpus schema with
// testdata/<schema>/ (rewrite with go test ./gen/swift -update).
func TestGolden(t *testing.T) {
	gentest.GoldenEach(t, Generate, gentest.CorpusSchemas(t))
}

func TestModuleName(t *testing.T) {
	for in, want := range map[string]string{
		"plugins":        "plugins",
		"Audio-Plugins":  "Audio_Plugins",
		"my.schema v2":   "my_schema_v2",
		"2fast":          "_fast",
		"":               "_",
		"PluginRegistry": "PluginRegistry",
	} {
		if got := identifier(in); got != want {
			t.Errorf("identifier(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMemberNames(t *testing.T) {
	for in, want := range map[string]string{
		"display_name": "displayName",
		"type":         "type",
		"self":         "`self`",
		"in":           "`in`",
		"Self_":        "`self`",
		"True":         "`true`",
		"encoded_size": "encodedSize_",
		"hash_value":   "hashValue_",
		"HTTPServer":   "httpServer",
	} {
		if got := member(in); got != want {
			t.Errorf("member(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"inout": "`inout`", "let": "let", "var": "var", "in": "in", "self": "self", "class": "class"} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPackageOption checks that --package names the package, the library
// product and the module, and that a name that is not a Swift identifier
// still gives a valid module.
func TestPackageOption(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("messages"))
	files, err := Generate(s, gen.Options{Package: "Net-Messages"})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for _, f := range files {
		paths[f.Path] = string(f.Content)
	}
	pkg := paths["Package.swift"]
	for _, want := range []string{
		"// swift-tools-version:6.0\n",
		`name: "Net-Messages",`,
		"platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1)],",
		`.library(name: "Net-Messages", targets: ["Net_Messages"]),`,
		`.target(name: "Net_Messages", path: "Sources/Net_Messages"),`,
		"swiftLanguageModes: [.v6]",
	} {
		if !strings.Contains(pkg, want) {
			t.Errorf("Package.swift lacks %q:\n%s", want, pkg)
		}
	}
	if _, ok := paths["Sources/Net_Messages/Types.swift"]; !ok {
		t.Errorf("no Sources/Net_Messages/Types.swift among %v", paths)
	}
	if !strings.Contains(paths["Tests/Net_MessagesTests/Net_MessagesTests.swift"], "import Net_Messages\n") {
		t.Errorf("the tests do not import the module Net_Messages")
	}
}

// TestReservedTypeNames checks that schema types named like the generated
// API or the standard library types it uses are renamed, never rejected.
func TestReservedTypeNames(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("keywords"))
	g := newGen(s, gen.Options{})
	for _, d := range s.Decls {
		if d.DeclName() == "Type" && g.typeName(d) != "`Type`" {
			t.Errorf("Type is named %s, want `Type`", g.typeName(d))
		}
		if d.DeclName() == "Error" && g.typeName(d) != "Error" {
			t.Errorf("Error is named %s", g.typeName(d))
		}
	}
	if !strings.Contains(string(g.supportFile()), "public indirect enum DecodeError: Swift.Error,") {
		t.Errorf("the support file does not qualify Swift.Error")
	}
}

// TestExample keeps examples/swift/PluginRegistry equal to what the
// generator writes for it (rewrite with -update).
func TestExample(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("plugins"))
	dir := filepath.Join(gentest.Root(t), "examples", "swift", "PluginRegistry")
	gentest.Golden(t, dir, Generate, s, gen.Options{Package: "PluginRegistry"})
}

// TestReservedNames checks reservedNames against the package generated for
// the probe schema (gentest.ReservedNames): the top-level declarations of
// its module and tests, and the members of the probe's types and their
// extensions.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineSwift,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return naming.Pascal(d.DeclName()), newGen(s, gen.Options{}).typeName(d)
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return naming.CamelInitialisms(f.Name), member(f.Name)
		},
		Unmined: strings.Fields(synthesizedMembers),
	})
}

// swiftDecl matches a declaration (the name is the last group); at column
// 0 it is top-level, indented by four spaces a member of the type or
// extension above.
var (
	swiftDecl  = regexp.MustCompile("^(?:@\\w+ )*(?:(?:public|internal|private|fileprivate|final|indirect|static|mutating|nonisolated|override|convenience|required) )*(?:struct|enum|class|protocol|typealias|func|let|var|actor|case|init|subscript) `?(\\w+)")
	swiftOwner = regexp.MustCompile("^(?:@\\w+ )*(?:(?:public|internal|private|fileprivate|final|indirect) )*(?:struct|enum|class|extension) (\\w+)")
)

func mineSwift(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".swift") || f.Path == "Package.swift" {
			continue
		}
		owner := ""
		for _, line := range strings.Split(string(f.Content), "\n") {
			if m := swiftOwner.FindStringSubmatch(line); m != nil {
				owner = m[1]
			} else if line == "}" {
				owner = ""
			}
			if m := swiftDecl.FindStringSubmatch(line); m != nil {
				if n := m[1]; n[0] >= 'A' && n[0] <= 'Z' {
					top = append(top, n) // types are PascalCase: a lower-case function cannot clash
				}
			} else if strings.HasPrefix(line, "    ") && (gentest.Own(owner) || owner == "AnyMessage") {
				// AnyMessage's cases are named after the structs.
				if strings.Contains(line, "func encode(to encoder:") || strings.Contains(line, "init(from decoder:") {
					continue // Codable's: a property encode compiles beside encode(to:)
				}
				if m := swiftDecl.FindStringSubmatch(line[4:]); m != nil && !strings.HasPrefix(line, "     ") {
					members = append(members, m[1])
				}
			}
		}
	}
	return top, members
}
