package c

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"text/template"

	"sdp/codec"
	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// fuzzTemplate is a libFuzzer target for every decoder of a schema. The
// first input byte picks the struct (low 7 bits) and whether the rest is a
// message (high bit). Oracles: no sanitizer report; an accepted input
// re-encodes to exactly itself (the encoding is canonical); a fixed arena,
// a lower depth limit and the message dispatcher agree with the heap arena;
// in message mode the stream reader reads the input as a stream (a message
// the dispatcher accepts is a stream of one message; a hello that agrees
// with the schema counts as message 0).
var fuzzTemplate = template.Must(template.New("fuzz").Parse(`#include <stdlib.h>
#include <string.h>
{{range .Schemas}}
#include "{{.Pkg}}.h"
{{- end}}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            abort(); \
        } \
    } while (0)

/* The stream reader's source: the input, 5 bytes at a time at most. */
typedef struct source {
    const uint8_t* data;
    size_t len;
} source;

static size_t source_read(void* ctx, uint8_t* buf, size_t n) {
    source* s = (source*)ctx;
    if (n > s->len) {
        n = s->len;
    }
    if (n > 5) {
        n = 5;
    }
    if (n > 0) {
        memcpy(buf, s->data, n);
    }
    s->data += n;
    s->len -= n;
    return n;
}
{{range $sc := .Schemas}}{{range .Structs}}
static int decode_{{.T}}(const uint8_t* in, size_t len, int message, {{.T}}* v, {{$sc.Pkg}}_arena* a,
                         uint32_t max_depth) {
    {{$sc.Pkg}}_decode_options opt;
    {{$sc.Pkg}}_decode_result res;
    int rc;
    memset(&opt, 0, sizeof opt);
    opt.max_depth = max_depth;
    rc = message ? {{.T}}_decode_message_ex(in, len, v, a, &opt, &res) : {{.T}}_decode_ex(in, len, v, a, &opt, &res);
    CHECK(res.error == rc);
    CHECK(rc != 0 ? res.offset <= len : res.consumed == len);
    return rc;
}

static int check_{{.T}}(const uint8_t* in, size_t len, int message) {
    {{.T}} v;
    {{$sc.Pkg}}_arena heap, fixed;
    unsigned char small[512];
    int rc, rc2;
    {{$sc.Pkg}}_arena_init_heap(&heap);
    rc = decode_{{.T}}(in, len, message, &v, &heap, 0);
    CHECK(rc <= 0 && {{$sc.Pkg}}_strerror(rc) != NULL);
    if (rc == 0) {
        size_t n = message ? {{.T}}_encoded_message_size(&v) : {{.T}}_encoded_size(&v);
        uint8_t* buf = (uint8_t*)malloc(n + 1);
        CHECK(n == len && buf != NULL);
        CHECK((message ? {{.T}}_encode_message(&v, buf, n) : {{.T}}_encode(&v, buf, n)) == n);
        CHECK(n == 0 || memcmp(buf, in, n) == 0);
        free(buf);
    }
    {{$sc.Pkg}}_arena_reset(&heap);
    rc2 = decode_{{.T}}(in, len, message, &v, &heap, 3);
    CHECK(rc2 == rc || rc2 == {{$sc.Up}}_ERR_DEPTH);
    {{$sc.Pkg}}_arena_init(&fixed, small, sizeof small);
    rc2 = decode_{{.T}}(in, len, message, &v, &fixed, 0);
    CHECK(rc2 == rc || rc2 == {{$sc.Up}}_ERR_NO_MEMORY);
    {{$sc.Pkg}}_arena_free(&heap);
    return rc;
}
{{end}}
static void check_{{.Pkg}}(const uint8_t* data, size_t size) {
    int message = (data[0] & 0x80) != 0, rc = 0;
    switch ((data[0] & 0x7f) % {{len .Structs}}) {
{{- range $i, $s := .Structs}}
    case {{$i}}:
        rc = check_{{$s.T}}(data + 1, size - 1, message);
        break;
{{- end}}
    default:
        break;
    }
    if (message) {
        {{.Pkg}}_message m;
        {{.Pkg}}_arena heap;
        {{.Pkg}}_message_reader r;
        {{.Pkg}}_stream_result res;
        source src;
        int rc2, rc3;
        uint64_t count = 0;
        {{.Pkg}}_arena_init_heap(&heap);
        rc2 = {{.Pkg}}_decode_message(data + 1, size - 1, &m, &heap);
        if (rc == 0) {
            CHECK(rc2 == 0 && {{.Pkg}}_encoded_message_size(&m) == size - 1);
        }
        /* The stream reader: a message the dispatcher accepts is a stream of one message. */
        src.data = data + 1;
        src.len = size - 1;
        {{.Pkg}}_message_reader_init(&r, source_read, &src, &heap);
        r.max_size = UINT32_MAX;
        while ((rc3 = {{.Pkg}}_read_message(&r, &m, &res)) == 0 || (rc3 < 0 && res.skipped)) {
            if (count == 0 && {{.Pkg}}_message_reader_schema_checked(&r)) {
                count = 1; /* a hello that agreed was message 0 */
            }
            CHECK(res.index == count++ && res.start <= size - 1);
        }
        if (count == 0 && {{.Pkg}}_message_reader_schema_checked(&r)) {
            count = 1;
        }
        CHECK(res.error == rc3 && res.index == count);
        CHECK(rc3 == {{.Up}}_END || res.offset <= size - 1);
        if (rc2 == 0) {
            CHECK(count == 1 && rc3 == {{.Up}}_END);
        }
        {{.Pkg}}_message_reader_free(&r);
        {{.Pkg}}_arena_free(&heap);
    }
}
{{end}}
/* Byte 0 picks the schema; byte 1 the struct (low 7 bits) and message mode (high bit). */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) {
        return 0;
    }
    switch (data[0] % {{len .Schemas}}) {
{{- range $i, $sc := .Schemas}}
    case {{$i}}:
        check_{{$sc.Pkg}}(data + 1, size - 1);
        break;
{{- end}}
    default:
        break;
    }
    return 0;
}
`))

type fuzzSchema struct {
	Pkg, Up string
	Structs []testeeStruct
}

// TestFuzz builds one libFuzzer target holding the decoders of every corpus
// schema and of the random schemas of gentest.FuzzSuites (after them, in
// that order), seeds it with the golden and invalid vectors and the suites'
// vectors, and runs it briefly (SDP_C_FUZZ_SECONDS, default 20, shared by
// all the schemas).
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	gentest.RequireTool(t, "clang")
	cc, link := gentest.LibFuzzer(t, []string{"clang", "clang-14"}, "probe.c",
		"#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t* d, size_t n);\n"+
			"int LLVMFuzzerTestOneInput(const uint8_t* d, size_t n) { (void)d; (void)n; return 0; }\n")
	seconds := gentest.FuzzSeconds(t, "SDP_C_FUZZ_SECONDS", 20)
	dir := t.TempDir()
	var data struct{ Schemas []fuzzSchema }
	var schemas []*schema.Schema
	args := append(append(append([]string{}, strictFlags...), "-g", "-O1"), gentest.FuzzFlags...)
	args = append(args, link...)
	add := func(s *schema.Schema) {
		files, err := Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(dir, files); err != nil {
			t.Fatal(err)
		}
		g, err := newGenerator(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, g.pkg+".c")
		fs := fuzzSchema{Pkg: g.pkg, Up: g.up}
		for _, st := range s.Structs {
			fs.Structs = append(fs.Structs, testeeStruct{T: g.typeName(st), Name: st.Name, ID: st.ID})
		}
		data.Schemas = append(data.Schemas, fs)
	}
	for _, name := range allSchemas(t) {
		s := loadSchema(t, name)
		add(s)
		schemas = append(schemas, s)
	}
	suites := gentest.FuzzSuites(t)
	for _, su := range suites {
		add(su.Schema)
	}
	corpus := gentest.FuzzCorpusWith(t, schemas, suites)
	var b strings.Builder
	if err := fuzzTemplate.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fuzz.c"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, cc, append(args, "fuzz.c", "-o", "fuzz")...)
	gentest.RunFuzzer(t, filepath.Join(dir, "fuzz"), corpus, seconds)
	differential(t, corpus, suites)
}

// differential feeds every input of the fuzzing corpus (the seeds and what
// the fuzzer found) to the conformance testees (those of the corpus, and
// ones built for the random suites) and to the reference codec: both must
// accept, or both reject for the same rule.
func differential(t *testing.T, corpus string, suites []*randschema.Suite) {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	names := allSchemas(t)
	bins := map[string]string{}
	for name, bin := range nativeTestees(t) {
		bins[name] = bin
	}
	schemas := map[string]*schema.Schema{}
	for name, bin := range suiteTestees(t, suites) {
		bins[name] = bin
	}
	for _, su := range suites {
		names = append(names, su.Name)
		schemas[su.Name] = su.Schema
	}
	testees := map[string]conformance.Testee{}
	defer func() {
		for _, te := range testees {
			te.Close()
		}
	}()
	checked, random, mismatches := 0, 0, 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(corpus, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 2 {
			continue
		}
		si := int(data[0]) % len(names)
		if si >= len(names)-len(suites) {
			random++
		}
		name := names[si]
		s := schemas[name]
		if s == nil {
			s = loadSchema(t, name)
			schemas[name] = s
		}
		if testees[name] == nil {
			testees[name] = startFrom(bins)(t, name)
		}
		st := s.Structs[int(data[1]&0x7f)%len(s.Structs)]
		in := data[2:]
		var refErr error
		op := conformance.OpRoundtrip
		if data[1]&0x80 != 0 {
			op = conformance.OpMessage
			_, _, refErr = codec.DecodeMessage(s, in, codec.Options{})
		} else {
			_, refErr = codec.Decode(s, st.Name, in, codec.Options{})
		}
		status, out, err := testees[name].Do(op, st.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		want := "accepted"
		if ref, ok := conformance.ReferenceRejection(refErr); ok {
			want = fmt.Sprintf("rejected: %s @%d %q", ref.Rule, ref.Offset, ref.Path)
		} else if refErr != nil {
			t.Fatalf("reference codec: %v", refErr)
		}
		got := "accepted"
		switch status {
		case conformance.StatusRejected:
			// The testee reports the rule, the offset and the path
			// (conformance.RequiresDetail).
			got = "rejected: " + string(out)
			if r, ok := conformance.ParseRejection(string(out)); ok && r.HasPath {
				got = fmt.Sprintf("rejected: %s @%d %q", r.Rule, r.Offset, r.Path)
			}
		case conformance.StatusBroken:
			got = "broken: " + string(out)
		}
		if got != want {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("%s %s (message %v) %x: reference %s, C %s", name, st.Name, op == conformance.OpMessage, in, want, got)
			}
		}
	}
	t.Logf("differential check against the reference codec: %d inputs (%d of random schemas), %d mismatches", checked, random, mismatches)
}

// suiteTestees builds a sanitized conformance testee for every random
// suite, two at a time, and returns them by suite name.
func suiteTestees(t *testing.T, suites []*randschema.Suite) map[string]string {
	gcc := gentest.RequireTool(t, "gcc")
	root := filepath.Join(t.TempDir(), "suites")
	bins := map[string]string{}
	errs := make([]string, len(suites))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, su := range suites {
		dir := filepath.Join(root, su.Name)
		files, err := Generate(su.Schema, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.Write(dir, files); err != nil {
			t.Fatal(err)
		}
		writeTestee(t, su.Schema, dir)
		wg.Add(1)
		go func(i int, name, dir string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := append(append(append([]string{}, strictFlags...), sanitize...), "testee.c", packagePrefix(name)+".c", "-o", "testee")
			cmd := exec.Command(gcc, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = name + ": " + err.Error() + "\n" + string(out)
				return
			}
			mu.Lock()
			bins[name] = filepath.Join(dir, "testee")
			mu.Unlock()
		}(i, su.Name, dir)
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	return bins
}
