package golang

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen"
	"sdp/gen/gentest"
)

// TestFuzzRandom fuzzes the Go decoders generated for random schemas
// (gentest.FuzzSuites: seed 1, plain and adversarial names; more with
// SDP_FUZZ_RANDOM_SEEDS) for SDP_GO_FUZZ_SECONDS (default 10) each, with go
// test -fuzz: every input must get the reference codec's verdict (same
// rule, same offset), what is accepted must re-encode to itself, and a
// decode may not allocate more than rule 11 allows (64 bytes per input byte
// plus 4 MiB, measured with runtime.MemStats).
func TestFuzzRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	seconds := gentest.FuzzSeconds(t, "SDP_GO_FUZZ_SECONDS", 10)
	suites := gentest.FuzzSuites(t)
	m := writeRandomModule(t, suites)
	for _, su := range suites {
		var seeds strings.Builder
		n := 0
		for _, v := range su.Vectors {
			if v.Op == conformance.OpMessage && len(v.Input) <= 4096 && n < 64 {
				fmt.Fprintf(&seeds, "\tf.Add([]byte(%s))\n", strconv.Quote(string(v.Input)))
				n++
			}
		}
		src := strings.NewReplacer("SCHEMA", su.Name, "PKG", goPackage(su.Schema, gen.Options{}), "SOURCE", strconv.Quote(string(su.Source)), "SEEDS", seeds.String()).Replace(randomFuzzTemplate)
		if err := os.WriteFile(filepath.Join(m.dir, su.Name, "fuzz_test.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, su := range suites {
		out := m.goCmd(t, nil, "test", "-run", "^$", "-fuzz", "^FuzzDecodeMessage$", "-fuzztime", fmt.Sprintf("%ds", seconds), "./"+su.Name)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := ""
		for _, l := range lines {
			if strings.Contains(l, "execs:") {
				last = strings.TrimSpace(l)
			}
		}
		t.Logf("%s: %s", su.Name, last)
	}
}

// randomFuzzTemplate is the fuzz test of one random schema's package.
const randomFuzzTemplate = `package PKG_test

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"sdp/codec"
	"sdp/schema"
	SCHEMA "sdptest/SCHEMA"
)

func FuzzDecodeMessage(f *testing.F) {
	s, err := schema.Parse("SCHEMA.sdp", []byte(SOURCE))
	if err != nil {
		f.Fatal(err)
	}
SEEDS	f.Fuzz(func(t *testing.T, b []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := SCHEMA.DecodeMessage(b)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64*uint64(len(b))+4<<20 {
			t.Fatalf("decoding %d bytes allocated %d bytes", len(b), alloc)
		}
		_, _, cerr := codec.DecodeMessage(s, b, codec.Options{})
		if (err == nil) != (cerr == nil) {
			t.Fatalf("the generated decoder says %v, the reference codec %v", err, cerr)
		}
		if err != nil {
			var de *SCHEMA.DecodeError
			var ce *codec.DecodeError
			if !errors.As(err, &de) || !errors.As(cerr, &ce) || string(de.Rule) != ce.Rule || de.Offset != ce.Offset {
				t.Fatalf("the generated decoder says %v, the reference codec %v", err, cerr)
			}
			return
		}
		again, err := m.AppendMessage(nil)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("re-encoded as %x (%v), want %x", again, err, b)
		}
	})
}
`
