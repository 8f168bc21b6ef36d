package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/examples/go/registry"
	"sdp/gen"
	"sdp/gen/golang"
	"sdp/schema"
)

// TestGeneratedUpToDate regenerates registry/ from registry.sdp and compares:
// run `go generate ./examples/go` after changing the schema or the backend.
func TestGeneratedUpToDate(t *testing.T) {
	s, err := schema.Load("registry.sdp")
	if err != nil {
		t.Fatal(err)
	}
	files, err := golang.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join("registry", f.Path))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("registry/%s is out of date (run go generate ./examples/go): %v", f.Path, err)
		}
	}
	entries, err := os.ReadDir("registry")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("registry/ holds %d files, the generator writes %d", len(entries), len(files))
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"62 plugins", "equal to the original", "truncated: truncated at offset ", "read a Parameter"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// The registry schema is the corpus's plugins schema, so its golden and
// invalid vectors seed the fuzz targets.
func seeds(f *testing.F, typ string) {
	cases, err := conformance.Cases("plugins")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Type == typ {
			f.Add(c.Golden)
		}
	}
	invalid, err := conformance.Invalids("plugins")
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range invalid {
		if v.Type == typ && !v.Message {
			b, _ := v.Bytes()
			f.Add(b)
		}
	}
}

type value interface {
	registry.Message
	EncodedSize() int
}

// fuzzDecode: decoding never panics, fails only with a *DecodeError, and
// whatever decodes re-encodes to the same bytes.
func fuzzDecode(f *testing.F, typ string, newValue func() value) {
	seeds(f, typ)
	f.Fuzz(func(t *testing.T, b []byte) {
		v := newValue()
		if err := v.UnmarshalBinary(b); err != nil {
			var de *registry.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("not a *DecodeError: %v", err)
			}
			return
		}
		out, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) || v.EncodedSize() != len(b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}

func FuzzDecodeParameter(f *testing.F) {
	fuzzDecode(f, "Parameter", func() value { return new(registry.Parameter) })
}

func FuzzDecodePlugin(f *testing.F) {
	fuzzDecode(f, "Plugin", func() value { return new(registry.Plugin) })
}

func FuzzDecodePluginRegistry(f *testing.F) {
	fuzzDecode(f, "PluginRegistry", func() value { return new(registry.PluginRegistry) })
}

func BenchmarkMarshalBinary(b *testing.B) {
	reg := buildRegistry(62)
	b.SetBytes(int64(reg.EncodedSize()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := reg.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendBinary(b *testing.B) {
	reg := buildRegistry(62)
	buf := make([]byte, 0, reg.EncodedSize())
	b.SetBytes(int64(reg.EncodedSize()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if buf, err = reg.AppendBinary(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalBinary(b *testing.B) {
	data, err := buildRegistry(62).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r registry.PluginRegistry
		if err := r.UnmarshalBinary(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodeFile decodes the corpus's golden 62-plugin registry, which the
// reference codec wrote, and re-encodes it to the same bytes.
func TestDecodeFile(t *testing.T) {
	path := filepath.Join(conformance.Dir(), "golden", "plugins", "registry_62.sdpb")
	var out bytes.Buffer
	if err := decodeFile(&out, path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "62 plugins, 1759 parameters") || !strings.Contains(out.String(), "identical to the file") {
		t.Errorf("unexpected output:\n%s", out.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.sdpb")
	if err := os.WriteFile(bad, []byte{1, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := decodeFile(&out, bad); err == nil {
		t.Error("a truncated file decoded")
	}
}

// TestDecodeReuse decodes registries of different sizes into one value with
// DecodeOptions.Reuse: each decode must equal a fresh decode, strings handed
// out by an earlier decode keep their contents, and a steady stream of the
// same registry decodes without allocating.
func TestDecodeReuse(t *testing.T) {
	reuse := registry.DecodeOptions{Reuse: true}
	big, err := buildRegistry(62).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	small := buildRegistry(5)
	small.Plugins[0].Name = "renamed"
	smallData, err := small.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var r registry.PluginRegistry
	if err := r.UnmarshalBinaryWith(big, reuse); err != nil {
		t.Fatal(err)
	}
	name, firstParam := r.Plugins[0].Name, r.Plugins[0].Parameters[0].DisplayName
	for _, data := range [][]byte{smallData, big, smallData} {
		if err := r.UnmarshalBinaryWith(data, reuse); err != nil {
			t.Fatal(err)
		}
		if got, err := r.MarshalBinary(); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("a decode into a used value re-encodes differently (%v)", err)
		}
	}
	if name != "Appl Gain 0" || firstParam != buildRegistry(1).Plugins[0].Parameters[0].DisplayName {
		t.Errorf("a string from an earlier decode changed: %q, %q", name, firstParam)
	}
	if err := r.UnmarshalBinaryWith(big[:len(big)-1], reuse); err == nil {
		t.Fatal("a truncated registry decoded")
	}
	if r.Plugins != nil || r.TotalPluginCount != 0 {
		t.Error("a failed decode did not leave the zero value")
	}
	if err := r.UnmarshalBinaryWith(big, reuse); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if err := r.UnmarshalBinaryWith(big, reuse); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("decoding the same registry into a used value allocates %.0f times, want 0", allocs)
	}
}

func BenchmarkUnmarshalBinaryReuse(b *testing.B) {
	data, err := buildRegistry(62).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	var r registry.PluginRegistry
	opts := registry.DecodeOptions{Reuse: true}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.UnmarshalBinaryWith(data, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStringValidation checks the encoder's and decoder's UTF-8 checks on
// strings of every length up to 40 with a bad byte at every position, after
// prefixes of every length (the fast path reads the bytes before a string
// and must ignore them).
func TestStringValidation(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for pos := -1; pos < n; pos++ {
			s := []byte(strings.Repeat("a", n))
			if pos >= 0 {
				s[pos] = 0xFF
			}
			for _, valid := range []bool{pos < 0, true} {
				v := registry.Plugin{Name: string(s)}
				if valid && pos >= 0 {
					// A valid non-ASCII string of the same length: é at pos
					// (or ÿ's last byte alone would be invalid, so use 2 bytes).
					if pos+1 >= n {
						continue
					}
					copy(s[pos:], "é")
					v.Name = string(s)
				}
				for prefix := 0; prefix < 20; prefix++ {
					pre := bytes.Repeat([]byte{0xFF}, prefix)
					out, err := v.AppendBinary(pre)
					if valid != (err == nil) {
						t.Fatalf("len %d, bad byte at %d, prefix %d: AppendBinary error %v, want valid=%v", n, pos, prefix, err, valid)
					}
					if !valid {
						continue
					}
					var back registry.Plugin
					if err := back.UnmarshalBinary(out[prefix:]); err != nil || back.Name != v.Name {
						t.Fatalf("len %d, prefix %d: decode %v", n, prefix, err)
					}
				}
				if !valid {
					// The decoder must reject the same bytes, wherever they are.
					good, err := (&registry.Plugin{Name: strings.Repeat("a", n)}).MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					copy(good[4:], s)
					var back registry.Plugin
					var de *registry.DecodeError
					if err := back.UnmarshalBinary(good); !errors.As(err, &de) || de.Rule != registry.RuleUTF8 {
						t.Fatalf("len %d, bad byte at %d: decode error %v, want rule utf8", n, pos, err)
					}
				}
			}
		}
	}
}

// TestHello: a stream that starts with a hello is read by a reader that
// requires one; a hello from another version of a struct is refused with
// rule schema, naming the type; a stream without a hello is refused by a
// reader that requires one.
func TestHello(t *testing.T) {
	var buf bytes.Buffer
	w := registry.NewMessageWriter(&buf)
	if err := w.WriteHello(); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(buildRegistry(2)); err != nil {
		t.Fatal(err)
	}
	stream := buf.Bytes()
	r := registry.NewMessageReader(bytes.NewReader(stream))
	r.RequireHello = true
	if m, err := r.ReadMessage(); err != nil || !r.SchemaChecked() {
		t.Fatalf("reading after a hello: %v, %v", m, err)
	}
	// Another version of Plugin (type id 2, the second entry).
	bad := append([]byte{}, stream...)
	bad[registry.MessageHeaderSize+4+10+2] ^= 1
	_, err := registry.NewMessageReader(bytes.NewReader(bad)).ReadMessage()
	var se *registry.StreamError
	if !errors.As(err, &se) || se.Err.Rule != registry.RuleSchema || se.Err.Type != "Plugin" || se.Offset != 26 || se.Index != 0 {
		t.Fatalf("another version of Plugin: %v", err)
	}
	r = registry.NewMessageReader(bytes.NewReader(stream[registry.MessageHeaderSize+4+10*3:]))
	r.RequireHello = true
	if _, err := r.ReadMessage(); !errors.As(err, &se) || se.Err.Rule != registry.RuleSchema {
		t.Fatalf("no hello, RequireHello: %v", err)
	}
}
