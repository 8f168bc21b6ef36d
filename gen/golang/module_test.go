package golang

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
)

var keep = flag.Bool("keep", false, "keep the generated test module and print its path (to run go test -fuzz in it)")

// testModule is a Go module in a temporary directory holding the generated
// package of every conformance schema, with a fuzz and stream test per
// package and one testee program for all of them. It requires the sdp
// module through a replace directive, so it builds offline.
type testModule struct {
	dir     string
	schemas []string // schema names = package directories
	files   []string // the generated files
	tested  []string // the packages with test files
	err     error
}

var (
	moduleOnce sync.Once
	module     testModule
)

// buildModule writes the module once per test binary.
func buildModule(t *testing.T) *testModule {
	t.Helper()
	moduleOnce.Do(func() {
		module.err = module.write(t)
	})
	if module.err != nil {
		t.Fatal(module.err)
	}
	return &module
}

func (m *testModule) write(t *testing.T) error {
	dir, err := os.MkdirTemp("", "sdp-go-test-")
	if err != nil {
		return err
	}
	m.dir = dir
	if *keep {
		t.Logf("test module kept in %s", dir)
	}
	root := gentest.Root(t)
	gomod := "module sdptest\n\ngo 1.19\n\nrequire sdp v0.0.0\n\nreplace sdp => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	var main strings.Builder
	main.WriteString(testeeMainHead)
	for _, s := range corpusSchemas(t) {
		m.schemas = append(m.schemas, s.Name)
		files, err := Generate(s, gen.Options{})
		if err != nil {
			return err
		}
		pkgDir := filepath.Join(dir, s.Name)
		if err := gen.Write(pkgDir, files); err != nil {
			return err
		}
		for _, f := range files {
			m.files = append(m.files, filepath.Join(pkgDir, f.Path))
		}
		var fuzz strings.Builder
		fuzz.WriteString(strings.NewReplacer("SCHEMA", s.Name, "PKG", goPackage(s, gen.Options{})).Replace(fuzzHead))
		for _, st := range s.Structs {
			r := strings.NewReplacer("SCHEMA", s.Name, "TYPE", newNames(s).decl[st], "SNAME", st.Name)
			fuzz.WriteString(r.Replace(fuzzType))
		}
		if err := os.WriteFile(filepath.Join(pkgDir, "sdp_fuzz_test.go"), []byte(fuzz.String()), 0o644); err != nil {
			return err
		}
		m.tested = append(m.tested, s.Name)
		n := newNames(s)
		if len(s.Enums) > 0 {
			src := strings.NewReplacer("SCHEMA", s.Name, "PKG", goPackage(s, gen.Options{})).Replace(enumHead)
			for _, en := range s.Enums {
				src += strings.NewReplacer("SCHEMA", s.Name, "TYPE", n.decl[en], "SNAME", en.Name).Replace(enumTest)
			}
			if err := os.WriteFile(filepath.Join(pkgDir, "sdp_enum_test.go"), []byte(src), 0o644); err != nil {
				return err
			}
		}
		if len(s.Unions) > 0 {
			src := strings.NewReplacer("SCHEMA", s.Name, "PKG", goPackage(s, gen.Options{})).Replace(unionHead)
			for _, u := range s.Unions {
				var variants []string
				for _, v := range u.Variants {
					variants = append(variants, s.Name+"."+n.vtype[v]+"{}")
				}
				src += strings.NewReplacer("SCHEMA", s.Name, "TYPE", n.decl[u], "VARIANTS", strings.Join(variants, ", ")).Replace(unionTest)
			}
			if err := os.WriteFile(filepath.Join(pkgDir, "sdp_union_test.go"), []byte(src), 0o644); err != nil {
				return err
			}
		}
		src := strings.ReplaceAll(testeeHandler, "SCHEMA", s.Name)
		if err := os.MkdirAll(filepath.Join(dir, "testee"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "testee", "h_"+s.Name+".go"), []byte(src), 0o644); err != nil {
			return err
		}
		main.WriteString("\t" + `"` + s.Name + `": handle_` + s.Name + ",\n")
	}
	main.WriteString("}\n")
	for _, s := range testSchemas(t) {
		m.schemas = append(m.schemas, s.Name)
		files, err := Generate(s, gen.Options{})
		if err != nil {
			return err
		}
		pkgDir := filepath.Join(dir, s.Name)
		if err := gen.Write(pkgDir, files); err != nil {
			return err
		}
		for _, f := range files {
			m.files = append(m.files, filepath.Join(pkgDir, f.Path))
		}
		if len(s.Structs) > 0 {
			src := strings.NewReplacer("SCHEMA", s.Name, "PKG", goPackage(s, gen.Options{})).Replace(zeroHead)
			for _, st := range s.Structs {
				src += strings.NewReplacer("SCHEMA", s.Name, "TYPE", newNames(s).decl[st]).Replace(zeroTest)
			}
			if err := os.WriteFile(filepath.Join(pkgDir, "sdp_zero_test.go"), []byte(src), 0o644); err != nil {
				return err
			}
			m.tested = append(m.tested, s.Name)
		}
		if src, ok := schemaTests[s.Name]; ok {
			if err := os.WriteFile(filepath.Join(pkgDir, "sdp_test.go"), []byte(src), 0o644); err != nil {
				return err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "testee", "common.go"), []byte(testeeCommon), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "testee", "main.go"), []byte(main.String()), 0o644)
}

// goTool is the go command of the toolchain running the tests, or the one
// on PATH.
func goTool(t *testing.T) string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return gentest.RequireTool(t, "go")
}

// goCmd runs the go command in the module, offline.
func (m *testModule) goCmd(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(goTool(t), args...)
	cmd.Dir = m.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s go %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if module.dir != "" && !*keep {
		os.RemoveAll(module.dir)
	}
	os.Exit(code)
}

// TestGeneratedVet runs go vet and gofmt on the generated packages, natively
// and with the portable tag, and builds them for a big-endian
// (s390x) and a 32-bit (386) target, so both bulk-array files
// and every build constraint compile.
func TestGeneratedVet(t *testing.T) {
	m := buildModule(t)
	m.goCmd(t, nil, "vet", "./...")
	m.goCmd(t, nil, "vet", "-tags", PortableTag, "./...")
	// The generated packages alone (not the tests, which need more of the
	// standard library) for a big-endian and a 32-bit target.
	var pkgs []string
	for _, s := range m.schemas {
		pkgs = append(pkgs, "./"+s)
	}
	m.goCmd(t, []string{"GOARCH=s390x"}, append([]string{"build"}, pkgs...)...)
	m.goCmd(t, []string{"GOARCH=386"}, append([]string{"build"}, pkgs...)...)
	gofmt := filepath.Join(filepath.Dir(goTool(t)), "gofmt")
	if _, err := os.Stat(gofmt); err != nil {
		gofmt = gentest.RequireTool(t, "gofmt")
	}
	out, err := exec.Command(gofmt, append([]string{"-l"}, m.files...)...).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("gofmt -l: %v\n%s", err, out)
	}
}

// TestGeneratedPackages runs the tests written into the generated packages:
// the fuzz targets' seed corpora (every golden and invalid vector), invalid
// vector rules, depth limits against the reference codec, message streams,
// and the enum and union APIs. (The portable array code is run by
// TestConformance.)
func TestGeneratedPackages(t *testing.T) {
	m := buildModule(t)
	out := m.goCmd(t, nil, "test", "-count=1", "-v", "./...")
	passed := strings.Count(out, "--- PASS")
	if passed == 0 || strings.Contains(out, "--- FAIL") || strings.Contains(out, "--- SKIP") {
		t.Fatalf("go test in the generated packages:\n%s", out)
	}
	for _, s := range m.tested {
		if !strings.Contains(out, "ok  \tsdptest/"+s) {
			t.Errorf("no tests passed in the generated package %s:\n%s", s, out)
		}
	}
	for _, name := range []string{"TestCollisions", "FuzzDecodePluginRegistry", "TestInvalidRules", "TestDepthOption", "TestMessageStream", "TestUnionShape", "TestEnumSparse"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
	t.Logf("%d tests and fuzz seed corpora passed in the generated packages", passed)
}
