package c

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestRandomSchemas runs the random-schema suites (gentest.RandomSuites:
// seeds from SDP_RANDOM_SEEDS) through one sanitized testee program holding
// the code of every schema, once per byte-order path as TestConformance and
// TestConformancePortable do (and, with SDP_C_RANDOM_M32=1, a third time
// built with -m32 as TestConformance32 is: two to three minutes more; it is
// opt-in for that): each schema's source and testee (the
// conformance testee, main renamed) compile separately, in parallel, with the
// strict warnings and sanitizers, and link together (every identifier carries
// the package prefix); the program's argument picks the schema. A schema
// whose code does not compile fails its own subtest and is left out of the
// program. Each variant also runs the suites' stream vectors (OpStream).
func TestRandomSchemas(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	suites := gentest.RandomSuites(t)
	dir := t.TempDir()
	units := make([]*randomUnit, len(suites))
	for i, su := range suites {
		u := &randomUnit{su: su, dir: filepath.Join(dir, su.Name)}
		files, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatalf("%s: %v", su.Name, err)
		}
		if err := gen.Write(u.dir, files); err != nil {
			t.Fatal(err)
		}
		writeTesteeAs(t, su.Schema, u.dir, randomMain(su.Name))
		u.srcs = []string{packagePrefix(su.Name) + ".c", "testee.c"}
		units[i] = u
	}

	for _, variant := range []struct {
		name  string
		extra func(pkg string) []string
	}{
		{"native", func(string) []string { return nil }},
		// As TestConformancePortable: the byte-by-byte path, at -O0.
		{"portable", func(pkg string) []string { return []string{"-D" + upper(pkg) + "_LITTLE_ENDIAN=0", "-O0"} }},
		// As TestConformance32, only with SDP_C_RANDOM_M32=1: it adds over a minute.
		{"m32", func(string) []string { return m32 }},
	} {
		variant := variant
		t.Run(variant.name, func(t *testing.T) {
			if variant.name != "native" && testing.Short() {
				t.Skip("short mode")
			}
			if variant.name == "m32" {
				if os.Getenv("SDP_C_RANDOM_M32") != "1" {
					t.Skip("SDP_C_RANDOM_M32 is not 1")
				}
				requireM32(t)
			}
			ok, bin := buildRandom(t, gcc, dir, units, variant.name, variant.extra)
			start := func(t *testing.T, su *randschema.Suite) conformance.Testee {
				cmd := exec.Command(bin, su.Name)
				cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1")
				te, err := conformance.Start(cmd)
				if err != nil {
					t.Fatal(err)
				}
				return te
			}
			gentest.RunRandom(t, "c", "./gen/c", ok, start)
			t.Run("streams", func(t *testing.T) { gentest.RunRandomStreams(t, "c", "./gen/c", ok, start) })
			t.Run("streams_all", func(t *testing.T) { gentest.RunRandomStreamsAll(t, "c", "./gen/c", ok, start) })
			t.Run("hellos", func(t *testing.T) { gentest.RunRandomHellos(t, "c", "./gen/c", ok, start) })
		})
	}
}

// randomUnit is one schema of the random program: its directory and sources.
type randomUnit struct {
	su   *randschema.Suite
	dir  string
	srcs []string
}

// buildRandom compiles every unit's sources (objects named after the
// variant), as many at a time as there are CPUs, and links those of the
// schemas that compiled with a main that picks one by name. A schema that
// does not compile fails its own subtest.
func buildRandom(t *testing.T, gcc, dir string, units []*randomUnit, variant string, extra func(pkg string) []string) ([]*randschema.Suite, string) {
	type job struct {
		i   int
		src string
	}
	obj := func(u *randomUnit, src string) string {
		return filepath.Join(u.dir, strings.TrimSuffix(src, ".c")+"-"+variant+".o")
	}
	errs := make([]string, len(units))
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				u := units[j.i]
				args := append(append(append([]string{}, strictFlags...), sanitize...), extra(packagePrefix(u.su.Name))...)
				args = append(args, "-c", j.src, "-o", obj(u, j.src))
				cmd := exec.Command(gcc, args...)
				cmd.Dir = u.dir
				if out, err := cmd.CombinedOutput(); err != nil {
					mu.Lock()
					errs[j.i] += "gcc " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out)
					mu.Unlock()
				}
			}
		}()
	}
	for i, u := range units {
		for _, src := range u.srcs {
			jobs <- job{i, src}
		}
	}
	close(jobs)
	wg.Wait()

	var ok []*randschema.Suite
	var objs []string
	var main strings.Builder
	main.WriteString("#include <stdio.h>\n#include <string.h>\n\n")
	for i, u := range units {
		if errs[i] != "" {
			continue
		}
		ok = append(ok, u.su)
		for _, src := range u.srcs {
			objs = append(objs, obj(u, src))
		}
		main.WriteString("int " + randomMain(u.su.Name) + "(void);\n")
	}
	main.WriteString("\nint main(int argc, char** argv) {\n    if (argc != 2) {\n        return 2;\n    }\n")
	for _, su := range ok {
		main.WriteString("    if (strcmp(argv[1], \"" + su.Name + "\") == 0) {\n        return " + randomMain(su.Name) + "();\n    }\n")
	}
	main.WriteString("    fprintf(stderr, \"unknown schema %s\\n\", argv[1]);\n    return 2;\n}\n")
	src := "main-" + variant + ".c"
	if err := os.WriteFile(filepath.Join(dir, src), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "testee-"+variant)
	if len(ok) > 0 {
		args := append(append(append(append([]string{}, strictFlags...), sanitize...), extra("")...), src, "-o", bin)
		run(t, dir, gcc, append(args, objs...)...)
	}
	for i, u := range units {
		if errs[i] == "" {
			continue
		}
		u, e := u, errs[i]
		t.Run(u.su.Name, func(t *testing.T) {
			t.Error(e)
			gentest.ReportRandomFailure(t, "c", "./gen/c", u.su, nil)
		})
	}
	return ok, bin
}

// randomMain is the name of a schema's testee main in the random program.
func randomMain(name string) string { return "testee_main_" + packagePrefix(name) }
