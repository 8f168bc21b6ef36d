package golang

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/gen/naming"
	"sdp/schema"
)

// corpusSchemas loads every conformance schema.
func corpusSchemas(t *testing.T) []*schema.Schema { return gentest.CorpusSchemas(t) }

// testSchemas loads the backend's own test schemas (testschemas/*.sdp):
// names that collide with generated ones.
func testSchemas(t *testing.T) []*schema.Schema {
	return gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))
}

// TestGolden compares the generated source of every conformance schema (and
// of the test schemas) with testdata/<schema>/ (go test ./gen/golang -update
// rewrites it).
func TestGolden(t *testing.T) {
	for _, s := range append(corpusSchemas(t), testSchemas(t)...) {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			files := gentest.Golden(t, filepath.Join("testdata", s.Name), Generate, s, gen.Options{})
			for _, f := range files {
				if !strings.HasPrefix(string(f.Content), "// "+gen.Header(s)+"\n") {
					t.Errorf("%s does not start with the generated-code header", f.Path)
				}
				formatted, err := format.Source(f.Content)
				if err != nil || !bytes.Equal(formatted, f.Content) {
					t.Errorf("%s is not gofmt-clean (%v)", f.Path, err)
				}
			}
		})
	}
}

func TestDefaultPackage(t *testing.T) {
	for in, want := range map[string]string{
		"plugins": "plugins", "enums_unions": "enumsunions", "My-Schema": "myschema", "type": "type_",
		"3d": "p3d", "_": "sdp", "main": "main_",
	} {
		if got := goPackage(&schema.Schema{Name: in}, gen.Options{}); got != want {
			t.Errorf("goPackage(%q) = %q, want %q", in, got, want)
		}
	}
	if got := goPackage(&schema.Schema{Name: "enums_unions"}, gen.Options{Package: "enums_unions"}); got != "enums_unions" {
		t.Errorf("an explicit --package enums_unions gives %q", got)
	}
}

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"plugins": "plugins", "enums_unions": "enums_unions", "type": "type_",
		"my-schema": "my_schema", "3d": "p3d", "": "sdp", "main": "main_",
	} {
		if got := packageName(in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"display_name": "DisplayName", "manufacturer_id": "ManufacturerID", "id": "ID",
		"u8_val": "U8Val", "string": "String_", "encoded_size": "EncodedSize_",
		"self": "Self", "type": "Type", "url": "URL",
	} {
		if got := fieldName(&schema.Field{Name: in}); got != want {
			t.Errorf("fieldName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOptions checks --package and that the files are named after it.
func TestOptions(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("plugins"))
	files, err := Generate(s, gen.Options{Package: "plugin_registry"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		if !bytes.Contains(f.Content, []byte("\npackage plugin_registry\n")) {
			t.Errorf("%s: wrong package clause", f.Path)
		}
	}
	want := "pluginregistry.go pluginregistry_encode.go pluginregistry_decode.go pluginregistry_message.go pluginregistry_runtime.go"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
}

// TestReservedNames checks reservedNames against the generated code
// (gentest.ReservedNames): the exported package-level names and methods
// the generated package defines, mined with go/parser.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineGo,
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			return naming.Pascal(d.DeclName()), newNames(s).decl[d]
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return pascalWithInitialisms(f.Name), fieldName(f)
		},
	})
}

// mineGo returns the exported package-level names Go files define, and the
// exported methods of the probe schema's structs and variant types.
func mineGo(t testing.TB, files []gen.File) (top, methods []string) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	structs := map[string]bool{} // the probe's struct types (enums have no fields)
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Path, f.Content, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, file)
		for name, obj := range file.Scope.Objects {
			if spec, ok := obj.Decl.(*ast.TypeSpec); ok && gentest.Own(name) {
				if _, ok := spec.Type.(*ast.StructType); ok {
					structs[name] = true
				}
			}
		}
	}
	for _, file := range parsed {
		for name := range file.Scope.Objects {
			if ast.IsExported(name) {
				top = append(top, name)
			}
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok && structs[id.Name] {
				methods = append(methods, fn.Name.Name)
			}
		}
	}
	return top, methods
}
