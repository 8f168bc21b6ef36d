package codec_test

import (
	"bytes"
	"errors"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/conformance/randschema"
	"sdp/schema"
)

type target struct {
	s  *schema.Schema
	st *schema.Struct
}

// fuzzSeeds are the random-schema seeds whose schemas the fuzz targets
// cover besides the corpus (plain and adversarial names).
const fuzzSeeds = 3

// targets lists every struct of every corpus schema and of the random
// schemas of seeds 1 to fuzzSeeds; a fuzz input picks one.
func targets(t testing.TB) []target {
	names, err := conformance.SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	var out []target
	for _, n := range names {
		s := load(t, n)
		for _, st := range s.Structs {
			out = append(out, target{s, st})
		}
	}
	for _, su := range randomSuites(t) {
		for _, st := range su.Schema.Structs {
			out = append(out, target{su.Schema, st})
		}
	}
	return out
}

// randomSuites are the random-schema suites of seeds 1 to fuzzSeeds.
func randomSuites(t testing.TB) []*randschema.Suite {
	var out []*randschema.Suite
	for seed := uint64(1); seed <= fuzzSeeds; seed++ {
		for _, adv := range []bool{false, true} {
			su, err := randschema.Generate(seed, randschema.Config{Adversarial: adv})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, su)
		}
	}
	return out
}

func targetIndex(ts []target, schemaName, typeName string) int {
	for i, x := range ts {
		if x.s.Name == schemaName && x.st.Name == typeName {
			return i
		}
	}
	return -1
}

// FuzzDecode feeds arbitrary bytes to the decoder as every corpus struct, as
// a plain value and as a message. It must never panic; it must reject with a
// rule of the wire format or accept bytes that re-encode to themselves.
func FuzzDecode(f *testing.F) {
	ts := targets(f)
	for _, x := range ts {
		names := x.s.Name
		cases, err := conformance.Cases(names)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			if c.Golden != nil && c.Type == x.st.Name && len(c.Golden) < 1<<16 {
				f.Add(uint16(targetIndex(ts, names, c.Type)), c.Golden)
				f.Add(uint16(targetIndex(ts, names, c.Type)), conformance.Message(x.st.ID, c.Golden))
			}
		}
		invalid, err := conformance.Invalids(names)
		if err != nil {
			f.Fatal(err)
		}
		for _, v := range invalid {
			if v.Type == x.st.Name {
				b, _ := v.Bytes()
				f.Add(uint16(targetIndex(ts, names, v.Type)), b)
			}
		}
	}
	// A few small valid inputs of every random schema (the fuzzer derives
	// the rest; thousands of seeds would leave it no time to fuzz).
	for _, su := range randomSuites(f) {
		added := 0
		for _, v := range su.Vectors {
			if v.Rule == "" && len(v.Input) < 1<<10 && added < 24 {
				f.Add(uint16(targetIndex(ts, su.Name, su.Schema.StructByID(v.TypeID).Name)), v.Input)
				added++
			}
		}
	}
	for _, rt := range roundTrips {
		s := load(f, rt.schema)
		if s.Struct(rt.typ) == nil {
			continue
		}
		b, err := codec.Encode(s, rt.typ, []byte(rt.json))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint16(targetIndex(ts, rt.schema, rt.typ)), b)
	}
	f.Fuzz(func(t *testing.T, sel uint16, data []byte) {
		x := ts[int(sel)%len(ts)]
		js, err := codec.Decode(x.s, x.st.Name, data, codec.Options{})
		check(t, x, data, js, err, false)
		_, aerr := codec.Annotate(x.s, x.st.Name, data)
		if (aerr == nil) != (err == nil) || aerr != nil && aerr.Error() != err.Error() {
			t.Fatalf("Annotate says %v, Decode says %v", aerr, err)
		}
		name, mjs, merr := codec.DecodeMessage(x.s, data, codec.Options{})
		if merr == nil {
			x = target{x.s, x.s.Struct(name)}
		}
		check(t, x, data, mjs, merr, true)
	})
}

func check(t *testing.T, x target, data, js []byte, err error, message bool) {
	if err != nil {
		var de *codec.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		for _, r := range codec.Rules {
			if de.Rule == r {
				return
			}
		}
		t.Fatalf("unknown rule %q: %v", de.Rule, err)
	}
	var again []byte
	if message {
		again, err = codec.EncodeMessage(x.s, x.st.Name, js)
	} else {
		again, err = codec.Encode(x.s, x.st.Name, js)
	}
	if err != nil {
		t.Fatalf("decoded %x to JSON that does not encode: %v\n%s", data, err, js)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("not canonical: %x decodes to\n%s\nwhich encodes to %x", data, js, again)
	}
}

// FuzzEncode feeds arbitrary JSON to the encoder as every corpus struct. It
// must never panic, and what it accepts must decode to JSON that encodes to
// the same bytes.
func FuzzEncode(f *testing.F) {
	ts := targets(f)
	for i, x := range ts {
		cases, err := conformance.Cases(x.s.Name)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			if c.Type == x.st.Name && len(c.Value) < 1<<14 {
				f.Add(uint16(i), []byte(c.Value))
			}
		}
	}
	for _, rt := range roundTrips {
		if i := targetIndex(ts, rt.schema, rt.typ); i >= 0 {
			f.Add(uint16(i), []byte(rt.json))
		}
	}
	f.Fuzz(func(t *testing.T, sel uint16, js []byte) {
		x := ts[int(sel)%len(ts)]
		b, err := codec.Encode(x.s, x.st.Name, js)
		if err != nil {
			var ee *codec.EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		out, err := codec.Decode(x.s, x.st.Name, b, codec.Options{MaxDepth: 1 << 20})
		if err != nil {
			t.Fatalf("%s encodes to %x, which does not decode: %v", js, b, err)
		}
		again, err := codec.Encode(x.s, x.st.Name, out)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%s encodes to %x, decodes to\n%s\nwhich encodes to %x (%v)", js, b, out, again, err)
		}
	})
}
