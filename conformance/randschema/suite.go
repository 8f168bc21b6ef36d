package randschema

import (
	"errors"
	"fmt"

	"sdp/codec"
	"sdp/conformance"
	"sdp/conformance/datagen"
	"sdp/schema"
)

// Suite is one random schema with its vectors.
type Suite struct {
	Name    string // "r17" or "r17a" (adversarial names): the schema's file base name
	Seed    uint64
	Source  []byte // the schema text
	Schema  *schema.Schema
	Vectors []conformance.Vector
	// Streams are stream vectors (conformance.OpStream) made of the suite's
	// messages: for backends with a stream reader and writer.
	Streams []conformance.Vector
	// StreamsAll are OpStreamAll vectors of the same messages
	// (conformance.StreamAllVectors): a reader going on after the bad
	// messages it skips, and repeating an error that ends the stream.
	StreamsAll []conformance.Vector
}

// SuiteName names the suite of a seed.
func SuiteName(seed uint64, adversarial bool) string {
	if adversarial {
		return fmt.Sprintf("r%da", seed)
	}
	return fmt.Sprintf("r%d", seed)
}

// Generate builds the suite of a seed: a random schema, and for every
// struct random valid values (plain and as messages, some as deep as the
// default depth limit and one past it) and invalid inputs derived from them
// (truncations, a trailing byte, byte mutations, message header errors),
// each classified by the reference codec.
func Generate(seed uint64, cfg Config) (*Suite, error) {
	name := SuiteName(seed, cfg.Adversarial)
	su, err := FromSource(name, Schema(seed, cfg), seed)
	if err != nil {
		return nil, fmt.Errorf("randschema: seed %d generated a schema the checker rejects: %v", seed, err)
	}
	return su, nil
}

// FromSource builds the vectors of a given schema (a regression schema of
// conformance/regress, say) the way Generate does, from seed.
func FromSource(name string, src []byte, seed uint64) (*Suite, error) {
	s, err := schema.Parse(name+".sdp", src)
	if err != nil {
		return nil, err
	}
	su := &Suite{Name: name, Seed: seed, Source: src, Schema: s}
	r := datagen.NewRand(seed*0x2545F4914F6CDD1D + 7)
	v := newValues(r, s)
	flooded := false
	for _, st := range s.Structs {
		t := &schema.Type{Kind: schema.StructRef, Struct: st}
		var valid [][]byte
		add := func(what string, in []byte) {
			su.add(st, what, in)
			if len(valid) < 4 && len(in) < 1<<20 {
				valid = append(valid, in)
			}
		}
		for i := 0; i < 3; i++ {
			v.budget = []int{64, 512, 4096}[i]
			add(fmt.Sprintf("value%d", i), v.gen(nil, t, random, 0, 0))
		}
		add("minimal", v.gen(nil, t, minimal, 0, 0))
		if v.reach[st] {
			// As deep as the limit allows: inline values below the target
			// may add levels, so aim lower until the codec accepts.
			for target := codec.DefaultMaxDepth; target > codec.DefaultMaxDepth-16; target-- {
				in := v.gen(nil, t, deep, 0, target)
				if _, err := codec.Decode(s, st.Name, in, codec.Options{}); err == nil {
					add("deep_limit", in)
					break
				}
			}
			add("deep_past_limit", v.gen(nil, t, deep, 0, codec.DefaultMaxDepth+1))
		}
		// Rule 11 (memory): one struct per schema gets a charged array just
		// over and just under the default limit (large inputs: only one).
		if !flooded {
			if over, under := v.memoryInputs(st); over != nil {
				flooded = true
				su.add(st, "memory_over", over)
				su.addMessage(st, "memory_over", conformance.Message(st.ID, over))
				su.add(st, "memory_under", under)
			}
		}
		// Invalid inputs derived from the valid ones.
		for i, in := range valid {
			if len(in) > 0 {
				su.add(st, fmt.Sprintf("cut%d_last", i), in[:len(in)-1])
				cut := r.Intn(len(in))
				su.add(st, fmt.Sprintf("cut%d_%d", i, cut), in[:cut])
			}
			su.add(st, fmt.Sprintf("extra%d", i), append(append([]byte{}, in...), byte(r.Intn(256))))
			for j := 0; j < 3 && len(in) > 0; j++ {
				m := append([]byte{}, in...)
				pos := r.Intn(len(m))
				switch r.Intn(3) {
				case 0:
					m[pos] = byte(r.Intn(256))
				case 1:
					m[pos] = 0xFF
				default:
					m[pos] ^= 1 << uint(r.Intn(8))
				}
				su.add(st, fmt.Sprintf("mut%d_%d_%d", i, j, pos), m)
			}
		}
		if len(valid) > 0 {
			in := valid[0]
			msg := conformance.Message(st.ID, in)
			bad := append([]byte{}, msg...)
			bad[3] = '1'
			su.addMessage(st, "bad_magic", bad)
			bad = append([]byte{}, msg...)
			bad[6]++ // payload length one more than follows
			su.addMessage(st, "bad_length", bad)
			su.addMessage(st, "short_header", msg[:r.Intn(10)])
			su.addMessage(st, "trailing", append(append([]byte{}, msg...), 0))
			su.addMessage(st, "unknown_id", conformance.Message(unusedID(s), in))
		}
	}
	su.Streams, su.StreamsAll = streams(su)
	return su, nil
}

// streams builds the stream vectors of a suite from its small valid and
// invalid messages (at most 8 of each, so the streams stay small).
func streams(su *Suite) (streams, all []conformance.Vector) {
	var valid, bad [][]byte
	for _, v := range su.Vectors {
		if v.Op != conformance.OpMessage || len(v.Input) > 1<<14 {
			continue
		}
		if v.Rule == "" && len(valid) < 8 {
			valid = append(valid, v.Input)
		} else if v.Rule != "" && len(bad) < 8 {
			bad = append(bad, v.Input)
		}
	}
	return conformance.StreamVectors(su.Schema, "random."+su.Name+".", valid, bad),
		conformance.StreamAllVectors(su.Schema, "random."+su.Name+".", valid, bad)
}

// unusedID is a message type id no struct of the schema has.
func unusedID(s *schema.Schema) uint16 {
	for id := uint16(65535); ; id-- {
		if s.StructByID(id) == nil {
			return id
		}
	}
}

// add classifies in as a value of st with the reference codec and adds the
// vector; a valid one is added a second time as a message.
func (su *Suite) add(st *schema.Struct, what string, in []byte) {
	id := fmt.Sprintf("random.%s.%s.%s", su.Name, st.Name, what)
	j, err := codec.Decode(su.Schema, st.Name, in, codec.Options{})
	if err != nil {
		su.Vectors = append(su.Vectors, conformance.Vector{ID: id, Op: conformance.OpRoundtrip, TypeID: st.ID, Input: in, Rule: rule(err), Ref: ref(err)})
		return
	}
	want, err := codec.Encode(su.Schema, st.Name, j)
	if err != nil {
		panic(fmt.Sprintf("randschema: %s: the reference codec cannot re-encode what it decoded: %v", id, err))
	}
	if want == nil {
		want = []byte{} // an empty struct: valid, and nil would mean "reject"
	}
	su.Vectors = append(su.Vectors, conformance.Vector{ID: id, Op: conformance.OpRoundtrip, TypeID: st.ID, Input: in, Want: want})
	msg := conformance.Message(st.ID, in)
	su.Vectors = append(su.Vectors, conformance.Vector{ID: id + ".message", Op: conformance.OpMessage, TypeID: st.ID, Input: msg, Want: conformance.Message(st.ID, want)})
}

// addMessage adds a framed input for the dispatcher, classified by the codec.
func (su *Suite) addMessage(st *schema.Struct, what string, msg []byte) {
	id := fmt.Sprintf("random.%s.%s.message_%s", su.Name, st.Name, what)
	name, j, err := codec.DecodeMessage(su.Schema, msg, codec.Options{})
	if err != nil {
		su.Vectors = append(su.Vectors, conformance.Vector{ID: id, Op: conformance.OpMessage, TypeID: st.ID, Input: msg, Rule: rule(err), Ref: ref(err)})
		return
	}
	want, err := codec.EncodeMessage(su.Schema, name, j)
	if err != nil {
		panic(fmt.Sprintf("randschema: %s: the reference codec cannot re-encode what it decoded: %v", id, err))
	}
	su.Vectors = append(su.Vectors, conformance.Vector{ID: id, Op: conformance.OpMessage, TypeID: st.ID, Input: msg, Want: want})
}

// ref is the reference codec's rejection, with its offset and path.
func ref(err error) *conformance.Rejection {
	r, ok := conformance.ReferenceRejection(err)
	if !ok {
		panic("randschema: the reference codec failed without a DecodeError: " + err.Error())
	}
	return &r
}

func rule(err error) string {
	var de *codec.DecodeError
	if errors.As(err, &de) {
		return de.Rule
	}
	panic("randschema: the reference codec failed without a DecodeError: " + err.Error())
}
