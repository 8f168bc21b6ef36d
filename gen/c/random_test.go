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
// the code of every schema: each schema's source and testee (the
// conformance testee, main renamed) compile separately, in parallel, with the
// strict warnings and sanitizers of TestConformance, and link together (every
// identifier carries the package prefix); the program's argument picks the
// schema. A schema whose code does not compile fails its own subtest and is
// left out of the program.
func TestRandomSchemas(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	suites := gentest.RandomSuites(t)
	dir := t.TempDir()
	type unit struct {
		su   *randschema.Suite
		dir  string
		srcs []string
		err  string
	}
	units := make([]*unit, len(suites))
	for i, su := range suites {
		u := &unit{su: su, dir: filepath.Join(dir, su.Name)}
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

	// Compile every file, as many at a time as there are CPUs.
	type job struct {
		u   *unit
		src string
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				args := append(append(append([]string{}, strictFlags...), sanitize...), "-c", j.src, "-o", strings.TrimSuffix(j.src, ".c")+".o")
				cmd := exec.Command(gcc, args...)
				cmd.Dir = j.u.dir
				if out, err := cmd.CombinedOutput(); err != nil {
					mu.Lock()
					j.u.err += "gcc " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out)
					mu.Unlock()
				}
			}
		}()
	}
	for _, u := range units {
		for _, src := range u.srcs {
			jobs <- job{u, src}
		}
	}
	close(jobs)
	wg.Wait()

	// Link the schemas that compiled with a main that picks one by name.
	var ok []*randschema.Suite
	var objs []string
	var main strings.Builder
	main.WriteString("#include <stdio.h>\n#include <string.h>\n\n")
	for _, u := range units {
		if u.err != "" {
			continue
		}
		ok = append(ok, u.su)
		for _, src := range u.srcs {
			objs = append(objs, filepath.Join(u.dir, strings.TrimSuffix(src, ".c")+".o"))
		}
		main.WriteString("int " + randomMain(u.su.Name) + "(void);\n")
	}
	main.WriteString("\nint main(int argc, char** argv) {\n    if (argc != 2) {\n        return 2;\n    }\n")
	for _, su := range ok {
		main.WriteString("    if (strcmp(argv[1], \"" + su.Name + "\") == 0) {\n        return " + randomMain(su.Name) + "();\n    }\n")
	}
	main.WriteString("    fprintf(stderr, \"unknown schema %s\\n\", argv[1]);\n    return 2;\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "testee")
	if len(ok) > 0 {
		args := append(append(append([]string{}, strictFlags...), sanitize...), "main.c", "-o", bin)
		run(t, dir, gcc, append(args, objs...)...)
	}

	for _, u := range units {
		if u.err == "" {
			continue
		}
		u := u
		t.Run(u.su.Name, func(t *testing.T) {
			t.Error(u.err)
			gentest.ReportRandomFailure(t, "c", "./gen/c", u.su, nil)
		})
	}
	gentest.RunRandom(t, "c", "./gen/c", ok, func(t *testing.T, su *randschema.Suite) conformance.Testee {
		cmd := exec.Command(bin, su.Name)
		cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1")
		te, err := conformance.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return te
	})
}

// randomMain is the name of a schema's testee main in the random program.
func randomMain(name string) string { return "testee_main_" + packagePrefix(name) }
