package java

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// javaFlags are the JVM's flags for testees: a small heap (the hostile
// inputs are bounded by rule 11, not by the heap) and the C1 compiler
// only, which starts faster for short runs.
var javaFlags = []string{"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"}

// javacFlags are the strictest flags the generated code must pass.
var javacFlags = []string{"--release", "11", "-Xlint:all", "-Werror", "-encoding", "UTF-8"}

// allSchemas are the corpus schemas and the backend's landmine schemas.
func allSchemas(t *testing.T) []*schema.Schema {
	return append(gentest.CorpusSchemas(t), gentest.LoadGlob(t, filepath.Join("testschemas", "*.sdp"))...)
}

// TestGolden compares the generated sources of every corpus schema with
// testdata/<schema>/ (go test ./gen/java -update rewrites them); the
// compile tests below compile what the generator writes, so a golden that
// does not compile cannot hide.
func TestGolden(t *testing.T) {
	for _, s := range allSchemas(t) {
		s := s
		t.Run(s.Name, func(t *testing.T) {
			files := gentest.Golden(t, filepath.Join("testdata", s.Name), Generate, s, gen.Options{})
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".java") && !strings.HasPrefix(string(f.Content), "// "+gen.Header(s)+"\n") {
					t.Errorf("%s does not start with the generated-code header", f.Path)
				}
			}
			again, _ := Generate(s, gen.Options{})
			for i := range files {
				if string(files[i].Content) != string(again[i].Content) {
					t.Errorf("%s differs between two runs", files[i].Path)
				}
			}
		})
	}
}

// build generates the packages of schemas and their testees under a new
// directory and compiles them all with one javac run; it returns the
// directory of the classes.
func build(t *testing.T, schemas []*schema.Schema) string {
	javac := gentest.RequireTool(t, "javac")
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	testee, err := os.ReadFile(filepath.Join("testdata", "Testee.java.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, s := range schemas {
		fs, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		pkg := packageName(s, "")
		fs = append(fs, gen.File{Path: SourceDir + strings.ReplaceAll(pkg, ".", "/") + "/sdptestee/Main.java",
			Content: []byte(strings.ReplaceAll(string(testee), "PKG", pkg))})
		if err := gen.Write(filepath.Join(src, s.Name), fs); err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if strings.HasSuffix(f.Path, ".java") {
				files = append(files, filepath.Join(src, s.Name, f.Path))
			}
		}
	}
	javacRun(t, javac, filepath.Join(dir, "classes"), files)
	return filepath.Join(dir, "classes")
}

// javacRun compiles files into out under javacFlags, with an argument
// file (the list is long).
func javacRun(t *testing.T, javac, out string, files []string) {
	t.Helper()
	argfile := out + ".args"
	if err := os.WriteFile(argfile, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, javacFlags...), "-d", out, "@"+argfile)
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac %s: %v\n%s", strings.Join(javacFlags, " "), err, firstLines(string(out), 60))
	}
}

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

func startTestee(t *testing.T, classes string, s *schema.Schema) conformance.Testee {
	java := gentest.RequireTool(t, "java")
	args := append(append([]string{}, javaFlags...), "-cp", classes, packageName(s, "")+".sdptestee.Main")
	testee, err := conformance.Start(exec.Command(java, args...))
	if err != nil {
		t.Fatal(err)
	}
	return testee
}

// TestConformance compiles every corpus package (with -Xlint:all -Werror)
// and runs the corpus, its stream, hello and stream_all vectors through
// the Java testee: the owned decoder, decodeInto on the value the last
// request of the type left, the dispatcher, MessageReader and MessageWriter.
func TestConformance(t *testing.T) {
	schemas := allSchemas(t)
	classes := build(t, schemas)
	byName := map[string]*schema.Schema{}
	for _, s := range schemas {
		byName[s.Name] = s
	}
	st := func(t *testing.T, name string) conformance.Testee { return startTestee(t, classes, byName[name]) }
	conformance.Run(t, "java", st)
	t.Run("streams", func(t *testing.T) { conformance.RunStreams(t, "java", st) })
	t.Run("hellos", func(t *testing.T) { conformance.RunHellos(t, "java", st) })
	t.Run("streams_all", func(t *testing.T) { conformance.RunStreamsAll(t, "java", st) })
}

// TestRandomSchemas runs the random-schema suites (plain and adversarial
// names) through the Java testee, all packages compiled in one javac run.
func TestRandomSchemas(t *testing.T) {
	suites := gentest.RandomSuites(t)
	var schemas []*schema.Schema
	for _, su := range suites {
		schemas = append(schemas, su.Schema)
	}
	classes := build(t, schemas)
	st := func(t *testing.T, su *randschema.Suite) conformance.Testee { return startTestee(t, classes, su.Schema) }
	gentest.RunRandom(t, "java", "./gen/java", suites, st)
	t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "java", "./gen/java", suites, st) })
	t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "java", "./gen/java", suites, st) })
	t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "java", "./gen/java", suites, st) })
}

// TestHostile sends the hostile inputs to the testee of hostile.sdp, served
// on a thread with a 512 KiB stack: the 60-level chain decodes, the 20 MB
// arrays of absent values are refused by rule 11 before anything is
// allocated, and the JVM's peak memory stays under the limit.
func TestHostile(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.SchemaPath("hostile"))
	classes := build(t, []*schema.Schema{s})
	gentest.RunHostile(t, "java", startTestee(t, classes, s))
}

// TestRuntimeSource compiles the runtime on its own under the strict flags
// (runtime/Messages.java stands in for the generated dispatcher).
func TestRuntimeSource(t *testing.T) {
	javac := gentest.RequireTool(t, "javac")
	files, err := filepath.Glob(filepath.Join("runtime", "*.java"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime sources: %v", err)
	}
	javacRun(t, javac, filepath.Join(t.TempDir(), "classes"), files)
}

// TestPackageOption generates through the registry with a dotted package,
// as `sdp gen --lang java --package org.example.plugins` does.
func TestPackageOption(t *testing.T) {
	g, err := gen.Lookup("java")
	if err != nil {
		t.Fatal(err)
	}
	files, err := g(gentest.LoadSchema(t, conformance.SchemaPath("plugins")), gen.Options{Package: "org.example.plugins"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"pom.xml": true, "build.gradle": true,
		"src/main/java/org/example/plugins/PluginRegistry.java": true, "src/main/java/org/example/plugins/Messages.java": true}
	for _, f := range files {
		if want[f.Path] {
			delete(want, f.Path)
		}
		if strings.HasSuffix(f.Path, ".java") && !strings.Contains(string(f.Content), "\npackage org.example.plugins;\n") {
			t.Errorf("%s is not in package org.example.plugins", f.Path)
		}
	}
	if len(want) > 0 {
		t.Errorf("files missing: %v", want)
	}
	for in, want := range map[string]string{"plugins": "plugins", "my-schema": "my_schema", "3d": "_3d", "class": "class_",
		"org.example.plugins": "org.example.plugins", "a.int.b": "a.int_.b"} {
		if got := packageName(&schema.Schema{Name: "x"}, in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBuildFiles checks the pom.xml (well-formed, release 11, no
// dependencies) and the build.gradle (release 11). Neither Maven nor Gradle
// runs here: offline, neither has its plugins; the tests compile with javac.
func TestBuildFiles(t *testing.T) {
	files, err := Generate(gentest.LoadSchema(t, conformance.SchemaPath("plugins")), gen.Options{Package: "org.example.plugins"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch f.Path {
		case "pom.xml":
			var pom struct {
				XMLName      xml.Name `xml:"project"`
				GroupID      string   `xml:"groupId"`
				Release      string   `xml:"properties>maven.compiler.release"`
				Dependencies []string `xml:"dependencies>dependency"`
			}
			if err := xml.Unmarshal(f.Content, &pom); err != nil {
				t.Errorf("pom.xml: %v", err)
			}
			if pom.GroupID != "org.example.plugins" || pom.Release != "11" || len(pom.Dependencies) > 0 {
				t.Errorf("pom.xml: groupId %q, release %q, %d dependencies", pom.GroupID, pom.Release, len(pom.Dependencies))
			}
		case "build.gradle":
			if !strings.Contains(string(f.Content), "options.release = 11") || strings.Contains(string(f.Content), "dependencies") {
				t.Errorf("build.gradle:\n%s", f.Content)
			}
		}
	}
}

// TestAndroidBufferCalls compiles two packages and checks with javap that
// no call binds to a covariant override Java 9 added to ByteBuffer
// (position, limit, clear, flip, mark, reset, rewind returning ByteBuffer):
// Android's older ByteBuffer lacks them (NoSuchMethodError at run time).
func TestAndroidBufferCalls(t *testing.T) {
	javap := gentest.RequireTool(t, "javap")
	javac := gentest.RequireTool(t, "javac")
	var files []string
	dir := t.TempDir()
	for _, name := range []string{"arrays", "plugins"} {
		s := gentest.LoadSchema(t, conformance.SchemaPath(name))
		fs, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(filepath.Join(dir, name), fs); err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if strings.HasSuffix(f.Path, ".java") {
				files = append(files, filepath.Join(dir, name, f.Path))
			}
		}
	}
	classes := filepath.Join(dir, "classes")
	javacRun(t, javac, classes, files)
	var cls []string
	filepath.Walk(classes, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".class") {
			cls = append(cls, p)
		}
		return nil
	})
	out, err := exec.Command(javap, append([]string{"-c", "-p"}, cls...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("javap: %v\n%s", err, firstLines(string(out), 20))
	}
	bad := regexp.MustCompile(`java/nio/ByteBuffer\.(position|limit|clear|flip|mark|reset|rewind):\([^)]*\)Ljava/nio/ByteBuffer;`)
	if m := bad.FindAllString(string(out), -1); len(m) > 0 {
		t.Errorf("calls that need Java 9's ByteBuffer: %v", m)
	}
}

// TestAPI compiles testdata/ApiTest.java.txt with the packages it uses and
// runs it: encode errors and their paths, optionals, unions and their
// visitor, enums' numbers, decode errors, options, decodeInto's reset,
// ByteBuffer inputs, the writer's maximum, escaped names.
func TestAPI(t *testing.T) {
	javac := gentest.RequireTool(t, "javac")
	java := gentest.RequireTool(t, "java")
	dir := t.TempDir()
	var files []string
	schemas := []*schema.Schema{}
	for _, n := range []string{"primitives", "optionals", "enums_unions", "recursive", "arrays"} {
		schemas = append(schemas, gentest.LoadSchema(t, conformance.SchemaPath(n)))
	}
	schemas = append(schemas, gentest.LoadGlob(t, filepath.Join("testschemas", "javanames.sdp"))...)
	for _, s := range schemas {
		fs, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(filepath.Join(dir, s.Name), fs); err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if strings.HasSuffix(f.Path, ".java") {
				files = append(files, filepath.Join(dir, s.Name, f.Path))
			}
		}
	}
	src, err := os.ReadFile(filepath.Join("testdata", "ApiTest.java.txt"))
	if err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(dir, "ApiTest.java")
	if err := os.WriteFile(test, src, 0o644); err != nil {
		t.Fatal(err)
	}
	classes := filepath.Join(dir, "classes")
	javacRun(t, javac, classes, append(files, test))
	// The JIT's second tier: the 2 GiB sizes scan 64 MiB strings 100 times.
	out, err := exec.Command(java, append(append([]string{}, javaFlags[:2]...), "-cp", classes, "sdpapitest.ApiTest")...).CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Errorf("ApiTest: %v\n%s", err, out)
	}
}

// TestUtf8MatchesCharsetDecoder runs testdata/Utf8Check.java.txt with the
// runtime: the reader's UTF-8 check accepts and rejects exactly what the
// JDK's CharsetDecoder with CodingErrorAction.REPORT does (every sequence
// of up to 3 bytes, samples of 4 bytes, random strings).
func TestUtf8MatchesCharsetDecoder(t *testing.T) {
	javac := gentest.RequireTool(t, "javac")
	java := gentest.RequireTool(t, "java")
	files, err := filepath.Glob(filepath.Join("runtime", "*.java"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime sources: %v", err)
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "Utf8Check.java.txt"))
	if err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(dir, "Utf8Check.java")
	if err := os.WriteFile(check, src, 0o644); err != nil {
		t.Fatal(err)
	}
	classes := filepath.Join(dir, "classes")
	javacRun(t, javac, classes, append(files, check))
	out, err := exec.Command(java, append(append([]string{}, javaFlags[:2]...), "-cp", classes, "sdp.runtime.Utf8Check")...).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok ") {
		t.Errorf("Utf8Check: %v\n%s", err, out)
	}
}
