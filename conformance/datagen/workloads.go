package datagen

import "math"

// DefaultSeed is the seed of the committed corpus cases and the default of
// sdp-datagen.
const DefaultSeed = 1

// Document is one named bulk-data value, ready to be encoded by any
// language: Value is in the JSON mapping of Type from conformance/schemas/Schema.sdp.
type Document struct {
	Name   string
	Schema string
	Type   string
	Value  interface{}
}

// Documents returns the benchmark workloads for seed, in a fixed order.
// Each document draws from its own stream (derived from seed and its name),
// so adding a document never changes the others.
func Documents(seed uint64) []Document {
	return []Document{
		{"registry_62", "plugins", "PluginRegistry", Registry(seed)},
		{"u32_100", "arrays", "U32Array", U32Array(seed, 100)},
		{"u32_1000", "arrays", "U32Array", U32Array(seed, 1000)},
		{"i16_48000", "arrays", "I16Array", AudioBuffer(seed, 48000)},
		{"f32_1000000", "arrays", "F32Array", F32Array(seed, 1000000)},
		{"bytes_65536", "arrays", "ByteArray", ByteArray(seed, 65536)},
		{"small_arrays", "arrays", "SmallArrays", SmallArrays(seed)},
		{"all_primitives", "primitives", "AllPrimitives", AllPrimitives(seed)},
		{"scene_100", "nested", "Scene", Scene(seed, 100)},
		{"audio_device", "nested", "AudioDevice", AudioDevice(seed, 8)},
		{"reading_present", "optionals", "Reading", Reading(seed, true)},
		{"reading_absent", "optionals", "Reading", Reading(seed, false)},
		{"struct_a", "leaderboard", "StructA", StructA(seed)},
		{"mesh_125000", "leaderboard", "Mesh", Mesh(seed, 125000)},
		{"logs_10000", "leaderboard", "Logs", Logs(seed, 10000)},
	}
}

// stream derives an independent generator for one named value.
func stream(seed uint64, name string) *Rand {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	r := NewRand(seed ^ h)
	r.Uint64()
	return r
}

// U32Array is an arrays.sdp U32Array of n random values: mostly small
// counters and ids, some spanning all 32 bits.
func U32Array(seed uint64, n int) Object {
	r := stream(seed, "u32")
	v := make([]uint32, n)
	for i := range v {
		switch r.Intn(4) {
		case 0:
			v[i] = r.Uint32()
		case 1:
			v[i] = uint32(r.Intn(256))
		default:
			v[i] = uint32(r.Intn(1 << 20))
		}
	}
	return Obj("values", v)
}

// AudioBuffer is an arrays.sdp I16Array: n samples at 48 kHz of a sine
// sweep from 20 Hz to 20 kHz at -4.4 dBFS with a little white noise and
// 5 ms fades. The sine is computed with integer phase and a polynomial
// whose every step is rounded explicitly, so the samples are identical on
// every platform.
func AudioBuffer(seed uint64, n int) Object {
	r := stream(seed, "audio")
	const (
		rate  = 48000
		f0    = 20 * 1000    // millihertz
		f1    = 20000 * 1000 // millihertz
		fade  = rate / 200
		scale = 0.6 * 32767
	)
	samples := make([]int16, n)
	var phase uint32
	for i := range samples {
		s := float64(scale * sinPhase(phase))
		if i < fade {
			s = float64(s*float64(i)) / fade
		}
		if n-1-i < fade {
			s = float64(s*float64(n-1-i)) / fade
		}
		v := int64(math.Round(s)) + int64(r.Range(-300, 300))
		if v > math.MaxInt16 {
			v = math.MaxInt16
		} else if v < math.MinInt16 {
			v = math.MinInt16
		}
		samples[i] = int16(v)
		mhz := uint64(f0) + uint64(f1-f0)*uint64(i)/uint64(n)
		phase += uint32(mhz << 32 / (rate * 1000))
	}
	return Obj("samples", samples)
}

// sinPhase is sin(2π·phase/2³²), from a Taylor polynomial on one quadrant.
func sinPhase(phase uint32) float64 {
	x := float64(phase&(1<<30-1)) / (1 << 30) * (math.Pi / 2)
	switch phase >> 30 {
	case 0:
		return sinPoly(x)
	case 1:
		return cosPoly(x)
	case 2:
		return -sinPoly(x)
	default:
		return -cosPoly(x)
	}
}

// sinPoly and cosPoly are accurate to about 1e-9 on [0, π/2]. Every
// product is converted explicitly so the compiler cannot fuse it into an
// FMA (which would change the last bits on some architectures).
func sinPoly(x float64) float64 {
	x2 := float64(x * x)
	acc := -1.0 / 6227020800 // -1/13!
	for _, c := range []float64{1.0 / 39916800, -1.0 / 362880, 1.0 / 5040, -1.0 / 120, 1.0 / 6, -1} {
		acc = float64(acc*x2) + c
	}
	return float64(x * float64(-acc))
}

func cosPoly(x float64) float64 {
	x2 := float64(x * x)
	acc := 1.0 / 87178291200 // 1/14!
	for _, c := range []float64{-1.0 / 479001600, 1.0 / 3628800, -1.0 / 40320, 1.0 / 720, -1.0 / 24, 1.0 / 2, -1} {
		acc = float64(acc*x2) + c
	}
	return -acc
}

// F32Array is an arrays.sdp F32Array of n values in [-1, 1) with 24-bit
// resolution, like normalized audio.
func F32Array(seed uint64, n int) Object {
	r := stream(seed, "f32")
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(int32(r.Uint32())>>8) / (1 << 23)
	}
	return Obj("values", v)
}

// ByteArray is an arrays.sdp ByteArray of n random bytes.
func ByteArray(seed uint64, n int) Object {
	r := stream(seed, "bytes")
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		x := r.Uint64()
		for j := i; j < n && j < i+8; j++ {
			b[j] = byte(x)
			x >>= 8
		}
	}
	return Obj("data", Bytes(b))
}

// SmallArrays is an arrays.sdp SmallArrays with a handful of each.
func SmallArrays(seed uint64) Object {
	r := stream(seed, "small")
	bytes := make([]byte, 16)
	for i := range bytes {
		bytes[i] = byte(r.Uint32())
	}
	words := make([]uint32, 8)
	for i := range words {
		words[i] = uint32(r.Intn(100000))
	}
	reals := make([]interface{}, 4)
	for i := range reals {
		reals[i] = F64(float64(r.Intn(2000000)-1000000) / 1024)
	}
	names := []string{r.Pick(words1), r.Pick(words1), r.Pick(words1)}
	flags := make([]bool, 5)
	for i := range flags {
		flags[i] = r.Chance(50)
	}
	return Obj("bytes", Bytes(bytes), "words", words, "reals", reals, "names", names, "flags", flags)
}

var words1 = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"}

// AllPrimitives is a primitives.sdp AllPrimitives with random values.
func AllPrimitives(seed uint64) Object {
	r := stream(seed, "primitives")
	return Obj(
		"flag", r.Chance(50),
		"u8_val", uint8(r.Uint32()),
		"u16_val", uint16(r.Uint32()),
		"u32_val", r.Uint32(),
		"u64_val", r.Uint64(),
		"i8_val", int8(r.Uint32()),
		"i16_val", int16(r.Uint32()),
		"i32_val", int32(r.Uint32()),
		"i64_val", int64(r.Uint64()),
		"f32_val", F32(float32(int32(r.Uint32())>>8)/(1<<16)),
		"f64_val", F64(float64(int64(r.Uint64())>>11)/(1<<30)),
		"label", "sensor "+r.Pick(words1),
	)
}

// Scene is a nested.sdp Scene of n rectangles on a quarter-pixel grid.
func Scene(seed uint64, n int) Object {
	r := stream(seed, "scene")
	rects := make([]interface{}, n)
	for i := range rects {
		x, y := float32(r.Intn(1920*4))/4, float32(r.Intn(1080*4))/4
		w, h := float32(r.Range(4, 400*4))/4, float32(r.Range(4, 300*4))/4
		rects[i] = Obj(
			"top_left", Obj("x", F32(x), "y", F32(y)),
			"bottom_right", Obj("x", F32(x+w), "y", F32(y+h)),
			"color", 0xff000000|r.Uint32()>>8,
		)
	}
	return Obj("name", "Scene 1: Main Window", "rects", rects, "origin", Obj("x", F32(960), "y", F32(540)))
}

// AudioDevice is a nested.sdp AudioDevice with a chain of plugins whose
// parameters come from the registry's catalogue.
func AudioDevice(seed uint64, plugins int) Object {
	r := stream(seed, "device")
	chain := make([]interface{}, plugins)
	for i := range chain {
		info := catalogue[r.Intn(len(catalogue))]
		seq := newParamSeq(info.kind)
		params := make([]interface{}, r.Range(4, 24))
		for j := range params {
			p := seq.next()
			params[j] = Obj("id", uint32(j), "name", p.name, "value", F32(p.def))
		}
		chain[i] = Obj("name", info.name, "bypassed", r.Chance(20), "parameters", params)
	}
	return Obj(
		"id", r.Uint64(),
		"name", "Scarlett 18i20 USB",
		"kind", "Duplex",
		"sample_rate", uint32(48000),
		"channels", uint16(18),
		"plugins", chain,
	)
}

// Reading is an optionals.sdp Reading with both optionals present or absent.
func Reading(seed uint64, present bool) Object {
	r := stream(seed, "reading")
	var calibration, note interface{}
	if present {
		calibration = F64(float64(r.Intn(2001)-1000) / 1000)
		note = "recalibrated after firmware update"
	}
	return Obj(
		"sensor_id", uint32(r.Intn(10000)),
		"value", F64(float64(r.Intn(100000))/100),
		"calibration", calibration,
		"note", note,
	)
}
