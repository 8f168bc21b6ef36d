package datagen

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/schema"
)

// The generated corpus files must be what the generator writes now: run
// `go run ./conformance/datagen/cmd/sdp-datagen --corpus conformance` after
// changing the generator (then `go test ./conformance -run Golden -update`).
func TestCorpusUpToDate(t *testing.T) {
	for _, f := range Corpus() {
		p := filepath.Join(conformance.Dir(), filepath.FromSlash(f.Path))
		got, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v (regenerate with sdp-datagen --corpus conformance)", f.Path, err)
			continue
		}
		if !bytes.Equal(got, f.Content) {
			t.Errorf("%s differs from what the generator writes (regenerate with sdp-datagen --corpus conformance)", f.Path)
		}
		if len(f.Content) > 1<<20 {
			t.Errorf("%s is %d bytes; keep committed cases below 1 MB", f.Path, len(f.Content))
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Corpus(), Corpus()
	for i := range a {
		if !bytes.Equal(a[i].Content, b[i].Content) {
			t.Errorf("%s: two runs differ", a[i].Path)
		}
	}
	for _, seed := range []uint64{1, 2} {
		x, y := Documents(seed), Documents(seed)
		for i := range x {
			if x[i].Name == "f32_1000000" {
				// Rendering 10 MB of JSON twice is slow; compare the values.
				a := x[i].Value.(Object).Get("values").([]float32)
				b := y[i].Value.(Object).Get("values").([]float32)
				for j := range a {
					if math.Float32bits(a[j]) != math.Float32bits(b[j]) {
						t.Fatalf("seed %d: %s: two runs differ at %d", seed, x[i].Name, j)
					}
				}
				continue
			}
			if !bytes.Equal(Marshal(x[i].Value), Marshal(y[i].Value)) {
				t.Errorf("seed %d: %s: two runs differ", seed, x[i].Name)
			}
		}
	}
	if bytes.Equal(Marshal(Registry(1)), Marshal(Registry(2))) {
		t.Error("seeds 1 and 2 give the same registry")
	}
}

// splitmix64 reference outputs for seed 0 (Vigna's splitmix64.c).
func TestRandKnownAnswers(t *testing.T) {
	r := NewRand(0)
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec} {
		if got := r.Uint64(); got != want {
			t.Fatalf("output %d: got %#x, want %#x", i, got, want)
		}
	}
	r = NewRand(42)
	for i := 0; i < 10000; i++ {
		if n := r.Intn(7); n < 0 || n >= 7 {
			t.Fatalf("Intn(7) = %d", n)
		}
		if u := r.Unit(); u < 0 || u >= 1 {
			t.Fatalf("Unit() = %v", u)
		}
	}
}

func TestRegistry(t *testing.T) {
	s := loadSchema(t, "plugins")
	for _, seed := range []uint64{DefaultSeed, 2, 12345} {
		reg := Registry(seed)
		plugins := reg.Get("plugins").([]interface{})
		if len(plugins) != RegistryPlugins {
			t.Errorf("seed %d: %d plugins, want %d", seed, len(plugins), RegistryPlugins)
		}
		params := 0
		for _, p := range plugins {
			p := p.(Object)
			params += len(p.Get("parameters").([]interface{}))
			for _, code := range []string{"manufacturer_id", "component_type", "component_subtype"} {
				if n := len(p.Get(code).(string)); n != 4 {
					t.Errorf("seed %d: %s %s is %d bytes, want a four-char code", seed, p.Get("name"), code, n)
				}
			}
			if ct := p.Get("component_type"); ct != "aufx" && ct != "aumu" {
				t.Errorf("seed %d: %s has component type %v", seed, p.Get("name"), ct)
			}
			for _, q := range p.Get("parameters").([]interface{}) {
				q := q.(Object)
				lo, hi := float32(q.Get("min_value").(F32)), float32(q.Get("max_value").(F32))
				def, cur := float32(q.Get("default_value").(F32)), float32(q.Get("current_value").(F32))
				if !(lo <= def && def <= hi && lo <= cur && cur <= hi) {
					t.Errorf("seed %d: %s: %s: default %v / current %v outside [%v, %v]", seed, p.Get("name"), q.Get("display_name"), def, cur, lo, hi)
				}
				flags := q.Get("raw_flags").(uint32)
				if (flags&flagIsWritable != 0) != q.Get("is_writable").(bool) || (flags&flagCanRamp != 0) != q.Get("can_ramp").(bool) {
					t.Errorf("seed %d: %s: flags %#x disagree with is_writable/can_ramp", seed, q.Get("display_name"), flags)
				}
			}
		}
		if params != RegistryParameters {
			t.Errorf("seed %d: %d parameters, want %d", seed, params, RegistryParameters)
		}
		if got := reg.Get("total_plugin_count").(uint32); int(got) != len(plugins) {
			t.Errorf("seed %d: total_plugin_count %d, but %d plugins", seed, got, len(plugins))
		}
		if got := reg.Get("total_parameter_count").(uint32); int(got) != params {
			t.Errorf("seed %d: total_parameter_count %d, but %d parameters", seed, got, params)
		}
		b, err := codec.Encode(s, "PluginRegistry", Marshal(reg))
		if err != nil {
			t.Fatalf("seed %d: the reference codec rejects the registry: %v", seed, err)
		}
		if len(b) < 100_000 || len(b) > 125_000 {
			t.Errorf("seed %d: the registry encodes to %d bytes, want about 112 KB", seed, len(b))
		}
	}
}

// Every benchmark document must be a valid value of its type.
func TestDocumentsEncode(t *testing.T) {
	schemas := map[string]*schema.Schema{}
	for _, d := range Documents(DefaultSeed) {
		if d.Name == "f32_1000000" {
			// 10 MB of JSON: check the same generator at a smaller size.
			d.Value = F32Array(DefaultSeed, 1000)
		}
		s := schemas[d.Schema]
		if s == nil {
			s = loadSchema(t, d.Schema)
			schemas[d.Schema] = s
		}
		b, err := codec.Encode(s, d.Type, Marshal(d.Value))
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		t.Logf("%s: %s %s, %d bytes encoded", d.Name, d.Schema, d.Type, len(b))
	}
}

func TestAudioBuffer(t *testing.T) {
	samples := AudioBuffer(DefaultSeed, 48000).Get("samples").([]int16)
	if len(samples) != 48000 {
		t.Fatalf("%d samples", len(samples))
	}
	var sum float64
	peak := 0
	for _, s := range samples {
		sum += float64(s) * float64(s)
		if a := int(s); a > peak {
			peak = a
		} else if -a > peak {
			peak = -a
		}
	}
	rms := math.Sqrt(sum / float64(len(samples)))
	// A sine at 0.6 full scale has an RMS of 0.6/√2 of full scale.
	if want := 0.6 * 32767 / math.Sqrt2; math.Abs(rms-want) > 0.02*want {
		t.Errorf("RMS %.0f, want about %.0f", rms, want)
	}
	if peak < 19000 || peak > 20500 {
		t.Errorf("peak %d, want about 0.6 full scale plus noise", peak)
	}
	if samples[0] > 400 || samples[0] < -400 {
		t.Errorf("the buffer does not start with a fade-in: %d", samples[0])
	}
}

func TestSinPhase(t *testing.T) {
	for i := 0; i < 100000; i++ {
		phase := uint32(i) * 42949 // spread over the whole circle
		want := math.Sin(2 * math.Pi * float64(phase) / (1 << 32))
		if got := sinPhase(phase); math.Abs(got-want) > 1e-8 {
			t.Fatalf("sinPhase(%#x) = %v, want %v", phase, got, want)
		}
	}
}

func TestFloatText(t *testing.T) {
	for _, f := range []float32{0.1, 1.0 / 3, 3.14, 16777216, 1e-45, 1.1754942e-38, 3.4028235e38, -2.5} {
		s := formatF32(f)
		for _, bits := range []int{32, 64} {
			g, err := strconv.ParseFloat(s, bits)
			if err != nil || float32(g) != f {
				t.Errorf("%v: %s parses (%d-bit) to %v, %v", f, s, bits, g, err)
			}
		}
	}
	cases := map[string]interface{}{
		`"NaN"`:                    F32(math.Float32frombits(0x7fc00000)),
		`"NaN:0x7fc00001"`:         F32(math.Float32frombits(0x7fc00001)),
		`"NaN:0x7ff0000000000001"`: F64(math.Float64frombits(0x7ff0000000000001)),
		`"-Infinity"`:              F64(math.Inf(-1)),
		`-0.0`:                     F64(math.Copysign(0, -1)),
		`1e-7`:                     F64(1e-7),
		`18446744073709551615`:     uint64(math.MaxUint64),
		`-9223372036854775808`:     int64(math.MinInt64),
		`"AAEC"`:                   Bytes{0, 1, 2},
	}
	for want, v := range cases {
		if got, _ := scalar(v); got != want {
			t.Errorf("%#v renders as %s, want %s", v, got, want)
		}
	}
}

func TestMarshalIsJSON(t *testing.T) {
	for _, c := range CorpusCases() {
		var v interface{}
		if err := json.Unmarshal(Marshal(Case(c.Type, c.Value)), &v); err != nil {
			t.Errorf("%s/%s: %v", c.Schema, c.Name, err)
		}
	}
}

func TestInvalidVectors(t *testing.T) {
	rules := map[string]int{}
	for _, r := range Rules {
		rules[r] = 0
	}
	for _, name := range InvalidSchemas() {
		s := loadSchema(t, name)
		seen := map[string]bool{}
		for _, v := range InvalidVectors(name) {
			if seen[v.Name] {
				t.Errorf("%s: duplicate vector %s", name, v.Name)
			}
			seen[v.Name] = true
			if _, ok := rules[v.Rule]; !ok {
				t.Errorf("%s.%s: unknown rule %q", name, v.Name, v.Rule)
			}
			rules[v.Rule]++
			if s.Struct(v.Type) == nil {
				t.Errorf("%s.%s: %s is not a struct", name, v.Name, v.Type)
			}
			if _, err := hex.DecodeString(strings.ReplaceAll(v.Hex.String(), " ", "")); err != nil {
				t.Errorf("%s.%s: %v", name, v.Name, err)
			}
		}
	}
	for r, n := range rules {
		if n == 0 {
			t.Errorf("no vector breaks rule %s", r)
		}
	}
}

// The depth chains must be exactly at the limit: their valid forms decode
// with the default limit, and fail with a limit one lower.
func TestDepthChains(t *testing.T) {
	s := loadSchema(t, "recursive")
	for _, c := range []struct {
		typ   string
		value Object
		wire  wire
	}{
		{"Tree", TreeChain(DepthLimit), treeChainWire(DepthLimit)},
		{"Node", NodeChain(DepthLimit), nodeChainWire(DepthLimit)},
		{"Dir", DirChain(DepthLimit), dirChainWire(DepthLimit)},
		{"Program", ProgramChain(DepthLimit), programChainWire(DepthLimit)},
	} {
		b, err := codec.Encode(s, c.typ, Marshal(c.value))
		if err != nil {
			t.Fatalf("%s: %v", c.typ, err)
		}
		if got := strings.ReplaceAll(c.wire.String(), " ", ""); got != hex.EncodeToString(b) {
			t.Errorf("%s: the hand-built chain differs from the codec's encoding of the JSON chain", c.typ)
		}
		if _, err := codec.Decode(s, c.typ, b, codec.Options{}); err != nil {
			t.Errorf("%s at depth %d: %v", c.typ, DepthLimit, err)
		}
		if _, err := codec.Decode(s, c.typ, b, codec.Options{MaxDepth: DepthLimit - 1}); err == nil {
			t.Errorf("%s: decodes with limit %d too: not as deep as claimed", c.typ, DepthLimit-1)
		}
	}
}

// The messages case pinned by the issue: Point{3.14, 2.71} as a message.
func TestPointMessageGolden(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(conformance.Dir(), "golden", "messages", "point_check.sdpb"))
	if err != nil {
		t.Skip("no golden yet:", err)
	}
	got := hex.EncodeToString(conformance.Message(1, b))
	if want := "534450320100100000001f85eb51b81e0940ae47e17a14ae0540"; got != want {
		t.Errorf("point_check as a message is %s, want %s", got, want)
	}
}

func loadSchema(t *testing.T, name string) *schema.Schema {
	t.Helper()
	s, err := schema.Load(conformance.SchemaPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
