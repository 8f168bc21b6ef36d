package c

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"sdp/codec"
	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// fuzzTemplate is a libFuzzer target for every decoder of a schema. The
// first input byte picks the struct (low 7 bits) and whether the rest is a
// message (high bit). Oracles: no sanitizer report; an accepted input
// re-encodes to exactly itself (the encoding is canonical); a fixed arena,
// a lower depth limit and the message dispatcher agree with the heap arena.
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
        size_t n = message ? {{.T}}_message_size(&v) : {{.T}}_size(&v);
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
        int rc2;
        {{.Pkg}}_arena_init_heap(&heap);
        rc2 = {{.Pkg}}_decode_message(data + 1, size - 1, &m, &heap);
        if (rc == 0) {
            CHECK(rc2 == 0 && {{.Pkg}}_message_size(&m) == size - 1);
        }
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

// TestFuzz builds one libFuzzer target holding every corpus schema's
// decoders, seeds it with the golden and invalid vectors and runs it
// briefly (SDP_C_FUZZ_SECONDS, default 20).
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
	for _, name := range allSchemas(t) {
		generate(t, name, dir, gen.Options{})
		args = append(args, name+".c")
		s := loadSchema(t, name)
		g, err := newGenerator(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fs := fuzzSchema{Pkg: g.pkg, Up: g.up}
		for _, st := range s.Structs {
			fs.Structs = append(fs.Structs, testeeStruct{T: g.typeName(st), Name: st.Name, ID: st.ID})
		}
		data.Schemas = append(data.Schemas, fs)
		schemas = append(schemas, s)
	}
	corpus := gentest.FuzzCorpus(t, schemas)
	var b strings.Builder
	if err := fuzzTemplate.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fuzz.c"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, cc, append(args, "fuzz.c", "-o", "fuzz")...)
	gentest.RunFuzzer(t, filepath.Join(dir, "fuzz"), corpus, seconds)
	differential(t, corpus)
}

// differential feeds every input of the fuzzing corpus (the seeds and what
// the fuzzer found) to the conformance testees and to the reference codec:
// both must accept, or both reject for the same rule.
func differential(t *testing.T, corpus string) {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	names := allSchemas(t)
	bins := nativeTestees(t)
	schemas := map[string]*schema.Schema{}
	testees := map[string]conformance.Testee{}
	defer func() {
		for _, te := range testees {
			te.Close()
		}
	}()
	checked, mismatches := 0, 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(corpus, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 2 {
			continue
		}
		name := names[int(data[0])%len(names)]
		s := schemas[name]
		if s == nil {
			s = loadSchema(t, name)
			schemas[name] = s
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
		if de, ok := refErr.(*codec.DecodeError); ok {
			want = "rejected: " + de.Rule
		} else if refErr != nil {
			t.Fatalf("reference codec: %v", refErr)
		}
		got := "accepted"
		switch status {
		case conformance.StatusRejected:
			got = "rejected: " + strings.SplitN(string(out), ":", 2)[0]
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
	t.Logf("differential check against the reference codec: %d inputs, %d mismatches", checked, mismatches)
}
