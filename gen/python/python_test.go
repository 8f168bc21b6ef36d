package python

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// python3 returns the interpreter the tests run: $SDP_PYTHON (to test
// another version, such as 3.9, the oldest supported), else python3 from
// PATH, skipped where it is missing and a failure under CI.
func python3(t *testing.T) string {
	if p := os.Getenv("SDP_PYTHON"); p != "" {
		return p
	}
	return gentest.RequireTool(t, "python3")
}

// numpyPython returns an interpreter that imports numpy, for the runs with
// DecodeOptions(numpy=True): $SDP_PYTHON (or python3) if it does, else the
// python of the lint venv, where scripts/setup installs numpy. Without one
// the test is skipped locally and fails under CI.
func numpyPython(t *testing.T) string {
	var cands []string
	if p := os.Getenv("SDP_PYTHON"); p != "" {
		cands = append(cands, p)
	} else if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, filepath.Join(lintVenv(), "bin", "python3"))
	for _, p := range cands {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("numpy is not installed (scripts/setup installs it in %s)", lintVenv())
	}
	t.Skipf("numpy is not installed (scripts/setup installs it in %s): DecodeOptions(numpy=True) not tested", lintVenv())
	return ""
}

// allSchemas are the corpus schemas and the backend's own test schemas
// (testschemas/*.sdp: names and doc comments that collide with Python's).
func allSchemas(t *testing.T) []*schema.Schema {
	return append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))...)
}

// TestGolden compares the generated package of every conformance schema with
// testdata/<schema>/ (go test ./gen/python -update rewrites it).
func TestGolden(t *testing.T) {
	for _, s := range allSchemas(t) {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			files := gentest.Golden(t, filepath.Join("testdata", s.Name), Generate, s, gen.Options{})
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".py") && !strings.HasPrefix(string(f.Content), "# "+gen.Header(s)+"\n") {
					t.Errorf("%s does not start with the generated-code header", f.Path)
				}
			}
		})
	}
}

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"plugins": "plugins", "my-schema": "my_schema", "3d": "sdp_3d", "class": "sdp_class",
	} {
		s := &schema.Schema{Name: in}
		if got := PackageName(s, gen.Options{}); got != want {
			t.Errorf("PackageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// writePackages generates the packages of schemas under a new directory.
func writePackages(t *testing.T, schemas []*schema.Schema) string {
	dir := t.TempDir()
	for _, s := range schemas {
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if err := gen.Write(dir, files); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func testeePath(t *testing.T) string {
	p, err := filepath.Abs(filepath.Join("testdata", "testee.py"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// impls are the two implementations of a package: pure Python, and the C
// accelerator (built by buildAccel).
var impls = []string{"python", "c"}

// start starts the testee of module in dir on implementation impl ("python"
// sets SDP_PURE_PYTHON=1; the testee checks IMPLEMENTATION).
func start(t *testing.T, py, impl, dir, module string, extra ...string) conformance.Testee {
	return startEnv(t, py, implEnv(impl), dir, module, extra...)
}

// startEnv starts the testee of module in dir with the environment env.
func startEnv(t *testing.T, py string, env []string, dir, module string, extra ...string) conformance.Testee {
	args := append([]string{testeePath(t), dir, module}, extra...)
	cmd := exec.Command(py, args...)
	cmd.Env = env
	testee, err := conformance.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return testee
}

// TestCompile checks that every generated corpus package imports and
// compiles (py_compile), and, where mypy and ruff are installed (in PATH or
// in the venv named by SDP_PYTHON_VENV), that they pass mypy --strict and ruff.
func TestCompile(t *testing.T) {
	py := python3(t)
	schemas := allSchemas(t)
	dir := writePackages(t, schemas)
	var inits []string
	for _, s := range schemas {
		inits = append(inits, filepath.Join(dir, s.Name, "__init__.py"))
		cmd := exec.Command(py, "-c", "import "+s.Name)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("import %s: %v\n%s", s.Name, err, out)
		}
	}
	if out, err := exec.Command(py, append([]string{"-m", "py_compile"}, inits...)...).CombinedOutput(); err != nil {
		t.Errorf("py_compile: %v\n%s", err, out)
	}
	// Python 3.9's grammar (the oldest the packages support).
	parse39 := "import ast, sys\nfor p in sys.argv[1:]:\n    ast.parse(open(p, encoding='utf-8').read(), p, feature_version=(3, 9))\n"
	if out, err := exec.Command(py, append([]string{"-c", parse39}, inits...)...).CombinedOutput(); err != nil {
		t.Errorf("parsing with Python 3.9's grammar: %v\n%s", err, out)
	}
	lint(t, dir, inits)
}

// TestModule runs testdata/module_test.py on the generated packages: default
// values round-trip, errors carry rule, offset and path, options limit depth
// and memory, encoders validate, streams work on files, names and docstrings
// survive escaping; all without numpy (its import blocked), then with it:
// the views of DecodeOptions(numpy=True) and encoding from ndarrays.
func TestModule(t *testing.T) {
	py := python3(t)
	schemas := allSchemas(t)
	dir := writePackages(t, schemas)
	buildAccel(t, py, dir, schemas, nil)
	script, err := filepath.Abs(filepath.Join("testdata", "module_test.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range impls {
		impl := impl
		t.Run(impl, func(t *testing.T) {
			cmd := exec.Command(py, script, dir)
			cmd.Env = implEnv(impl)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("module_test.py: %v\n%s", err, out)
			}
			t.Run("numpy", func(t *testing.T) {
				npy := numpyPython(t)
				if impl == "c" && npy != py {
					buildAccel(t, npy, dir, schemas, nil)
				}
				cmd := exec.Command(npy, script, dir, "--numpy")
				cmd.Env = implEnv(impl)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("module_test.py --numpy: %v\n%s", err, out)
				}
			})
		})
	}
}

// lint runs mypy --strict and ruff on files where they are installed.
func lint(t *testing.T, dir string, files []string) {
	tool := func(name string) string {
		if p := filepath.Join(lintVenv(), "bin", name); fileExists(p) {
			return p
		}
		p, _ := exec.LookPath(name)
		if p == "" && os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (scripts/setup installs it in %s)", name, lintVenv())
		}
		return p
	}
	if mypy := tool("mypy"); mypy != "" {
		cmd := exec.Command(mypy, append([]string{"--strict", "--no-incremental", "--cache-dir", filepath.Join(dir, ".mypy_cache")}, files...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("mypy --strict: %v\n%s", err, out)
		}
	} else {
		t.Log("mypy is not installed: not checked")
	}
	if ruff := tool("ruff"); ruff != "" {
		// The default rules, then pycodestyle's with its preview rules
		// (blank lines) but not line lengths nor E741, which objects to
		// fields the schema names l, O or I.
		for _, rules := range [][]string{nil, {"--preview", "--select", "E,W", "--ignore", "E501,E741"}} {
			args := append([]string{"check", "--no-cache", "--isolated", "--target-version", "py39"}, rules...)
			cmd := exec.Command(ruff, append(args, files...)...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("ruff check %s: %v\n%s", strings.Join(rules, " "), err, out)
			}
		}
	} else {
		t.Log("ruff is not installed: not checked")
	}
}

// TestConformance runs the corpus, its stream and hello vectors through the Python
// testee: every decode API on every input.
func TestConformance(t *testing.T) {
	py := python3(t)
	schemas := gentest.CorpusSchemas(t)
	dir := writePackages(t, schemas)
	buildAccel(t, py, dir, schemas, nil)
	for _, impl := range impls {
		impl := impl
		t.Run(impl, func(t *testing.T) {
			st := func(t *testing.T, name string) conformance.Testee { return start(t, py, impl, dir, name) }
			conformance.Run(t, "python", st)
			t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "python", st) })
			t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "python", st) })
			t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "python", st) })
			t.Run("numpy", func(t *testing.T) {
				npy := numpyPython(t)
				if impl == "c" && npy != py {
					buildAccel(t, npy, dir, schemas, nil)
				}
				st := func(t *testing.T, name string) conformance.Testee { return start(t, npy, impl, dir, name, "--numpy") }
				conformance.Run(t, "python", st)
				t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "python", st) })
				t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "python", st) })
			})
		})
	}
}

// TestRandomSchemas runs the random-schema suites (plain and adversarial
// names) and their streams through the Python testee.
func TestRandomSchemas(t *testing.T) {
	py := python3(t)
	suites := gentest.RandomSuites(t)
	var schemas []*schema.Schema
	for _, su := range suites {
		schemas = append(schemas, su.Schema)
	}
	dir := writePackages(t, schemas)
	var inits []string
	for _, su := range suites {
		inits = append(inits, filepath.Join(dir, PackageName(su.Schema, gen.Options{}), "__init__.py"))
	}
	if out, err := exec.Command(py, append([]string{"-m", "py_compile"}, inits...)...).CombinedOutput(); err != nil {
		t.Errorf("py_compile: %v\n%s", err, out)
	}
	lint(t, dir, inits)
	buildAccel(t, py, dir, schemas, nil)
	for _, impl := range impls {
		impl := impl
		t.Run(impl, func(t *testing.T) {
			st := func(t *testing.T, su *randschema.Suite) conformance.Testee {
				return start(t, py, impl, dir, PackageName(su.Schema, gen.Options{}))
			}
			gentest.RunRandom(t, "python", "./gen/python", suites, st)
			t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "python", "./gen/python", suites, st) })
			t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "python", "./gen/python", suites, st) })
			t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "python", "./gen/python", suites, st) })
			t.Run("numpy", func(t *testing.T) {
				npy := numpyPython(t)
				if impl == "c" && npy != py {
					buildAccel(t, npy, dir, schemas, nil)
				}
				st := func(t *testing.T, su *randschema.Suite) conformance.Testee {
					return start(t, npy, impl, dir, PackageName(su.Schema, gen.Options{}), "--numpy")
				}
				gentest.RunRandom(t, "python", "./gen/python", suites, st)
				t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "python", "./gen/python", suites, st) })
				t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "python", "./gen/python", suites, st) })
			})
		})
	}
}

// TestHostile sends the hostile inputs to the testee of hostile.sdp, served
// on a thread with a 512 KiB stack.
func TestHostile(t *testing.T) {
	py := python3(t)
	schemas := []*schema.Schema{gentest.LoadSchema(t, conformance.SchemaPath("hostile"))}
	dir := writePackages(t, schemas)
	buildAccel(t, py, dir, schemas, nil)
	for _, impl := range impls {
		impl := impl
		t.Run(impl, func(t *testing.T) { gentest.RunHostile(t, "python", start(t, py, impl, dir, "hostile", "--stack")) })
	}
}

// TestPackageOption generates through the registry (as `sdp gen --lang
// python --package my-plugins` does) and imports the package by its name.
func TestPackageOption(t *testing.T) {
	py := python3(t)
	g, err := gen.Lookup("python")
	if err != nil {
		t.Fatal(err)
	}
	files, err := g(gentest.LoadSchema(t, conformance.SchemaPath("plugins")), gen.Options{Package: "my-plugins"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		if f.Path == "pyproject.toml" && !strings.Contains(string(f.Content), `name = "my-plugins"`) {
			t.Errorf("pyproject.toml does not name the distribution my-plugins:\n%s", f.Content)
		}
	}
	if want := "pyproject.toml setup.py my_plugins/__init__.py my_plugins/_sdp_accel.c my_plugins/py.typed"; strings.Join(paths, " ") != want {
		t.Errorf("files %v, want %s", paths, want)
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", "import my_plugins as m; v = m.PluginRegistry(total_plugin_count=3); assert m.decode_message(v.encode_message()) == v")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("import my_plugins: %v\n%s", err, out)
	}
}

// lintVenv is the virtual environment that scripts/setup installs mypy and
// ruff in: $SDP_PYTHON_VENV, or the user's cache directory.
func lintVenv() string {
	if v := os.Getenv("SDP_PYTHON_VENV"); v != "" {
		return v
	}
	if v := os.Getenv("XDG_CACHE_HOME"); v != "" {
		return filepath.Join(v, "sdp", "pyvenv")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "sdp", "pyvenv")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// topScript decodes, with the module-level functions of a union or enum,
// each case of the JSON list in argv[2] (from gentest.TopCases) and prints,
// per case, the DecodeError's rule, offset and path, or for a valid input
// whether it encodes back to its bytes (encode_x, x_encoded_size,
// decode_x_prefix); every bad input is also decoded with decode_x_prefix,
// which must fail alike unless the input's fault is trailing bytes.
const topScript = `import json, sys
sys.path.insert(0, sys.argv[1])
import enums_unions as m
import pynames

out = []
for c in json.loads(sys.argv[2]):
    snake = {"Shape": "shape", "Nested": "nested", "Small": "small", "Sparse": "sparse", "Wide": "wide"}[c["type"]]
    dec = getattr(m, "decode_" + snake)
    pre = getattr(m, "decode_" + snake + "_prefix")
    enc = getattr(m, "encode_" + snake)
    size = getattr(m, snake + "_encoded_size")
    data = bytes.fromhex(c["input"])
    opts = m.DecodeOptions(max_depth=c["depth"]) if c["depth"] else None
    try:
        v = dec(data, opts)
    except m.DecodeError as e:
        got = {"rule": e.rule, "offset": e.offset, "path": e.path}
        if e.rule != "trailing":
            try:
                pre(bytearray(data), opts)
                got["prefix"] = "accepted"
            except m.DecodeError as e2:
                if (e2.rule, e2.offset, e2.path) != (e.rule, e.offset, e.path):
                    got["prefix"] = "%s @%d %s" % (e2.rule, e2.offset, e2.path)
        out.append(got)
        continue
    b = enc(v)
    ok = b == data and size(v) == len(data) and pre(memoryview(data + b"\x07"), opts) == (v, len(data))
    out.append({"rule": "", "offset": 0, "path": "", "roundtrip": ok})

# Where one of a type's function names is taken, all four get a "_":
# pynames' union Message decodes with decode_message_ (decode_message is the
# message dispatcher) and its enum value with decode_value_ (decode_value is
# an enum of the schema).
assert pynames.decode_message_(pynames.encode_message_(pynames.Message_Pong(3))) == pynames.Message_Pong(3)
assert pynames.decode_value_(b"\x01") is pynames.value(1)
assert pynames.decode_value.A == 0 and pynames.encode_value_(pynames.value(1)) == b"\x01"
try:
    m.encode_small(7)
    raise SystemExit("encode_small(7) did not raise")
except m.EncodeError as e:
    assert (e.rule, e.path, str(e)) == ("enum", "", "enum: 7 is not a value of enum Small"), str(e)
try:
    m.shape_encoded_size(3)
    raise SystemExit("shape_encoded_size(3) did not raise")
except m.EncodeError as e:
    assert (e.rule, e.path) == ("union_tag", ""), str(e)
print(json.dumps(out))
`

// TestTopLevel encodes and decodes unions and enums on their own (not as
// fields) with the module-level functions (decode_shape, encode_small, ...):
// every bad input of gentest.TopCases fails with the reference codec's rule,
// offset and path, every valid one encodes back to its bytes.
func TestTopLevel(t *testing.T) {
	py := python3(t)
	s := gentest.EnumsUnions(t)
	dir := writePackages(t, append([]*schema.Schema{s}, gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))...))
	type jcase struct {
		Input string `json:"input"`
		Type  string `json:"type"`
		Depth int    `json:"depth"`
	}
	cases := gentest.TopCases()
	var in []jcase
	for _, c := range cases {
		in = append(in, jcase{hex.EncodeToString(c.Input), c.Type, c.MaxDepth})
	}
	arg, _ := json.Marshal(in)
	out, err := exec.Command(py, "-c", topScript, dir, string(arg)).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []struct {
		Rule      string `json:"rule"`
		Offset    int    `json:"offset"`
		Path      string `json:"path"`
		Prefix    string `json:"prefix"`
		Roundtrip bool   `json:"roundtrip"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("output: %v\n%s", err, out)
	}
	for i, c := range cases {
		w, g := gentest.TopExpect(s, c), got[i]
		if g.Rule != w.Rule || g.Offset != w.Offset || g.Path != w.Path {
			t.Errorf("%s: got %s @%d %q, want %s @%d %q", c.Name, g.Rule, g.Offset, g.Path, w.Rule, w.Offset, w.Path)
		}
		if g.Prefix != "" {
			t.Errorf("%s: decode_%s_prefix: %s", c.Name, strings.ToLower(c.Type), g.Prefix)
		}
		if w.Rule == "" && !g.Roundtrip {
			t.Errorf("%s: does not encode back to its bytes", c.Name)
		}
	}
}
