package conformance

import (
	"encoding/binary"
	"fmt"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// Stream vectors test every language's stream reader and writer against the
// reference reader (codec.ReadStreamMessage): the same streams, the same
// rule, message index and stream offset for a bad one. Every writer must
// write back exactly the reference's bytes, and every reader must read
// them, so a stream written by any language's writer is read by every
// other language's reader (the N×N of docs/conformance.md, "Streams").

// ReferenceStream reads a stream with the reference reader, a payload
// length above max (when not 0) refused: for a good stream it returns the
// messages re-encoded one after the other; for a bad one the rejection
// "<rule> <index> <offset>" of its first bad message.
func ReferenceStream(s *schema.Schema, max uint32, stream []byte) (want []byte, rule string) {
	want = []byte{}
	off := 0
	for index := 0; ; index++ {
		m, err := codec.ReadStreamMessage(s, stream, off, index, "", codec.StreamOptions{MaxSize: max})
		if err != nil {
			se, ok := err.(*codec.StreamError)
			if !ok {
				panic("conformance: the reference stream reader failed: " + err.Error())
			}
			return nil, fmt.Sprintf("%s %d %d", se.Rule, se.Index, se.Offset)
		}
		if m == nil {
			return want, ""
		}
		if m.Hello {
			// The testee's writer answers a hello with its own.
			want = append(want, codec.EncodeHello(s)...)
			off += m.Size
			continue
		}
		msg, err := codec.EncodeMessage(s, m.Type, m.JSON)
		if err != nil {
			panic("conformance: the reference codec cannot re-encode what it decoded: " + err.Error())
		}
		want = append(want, msg...)
		off += m.Size
	}
}

// StreamRequest is the input of an OpStream request: the maximum payload
// length, then the stream.
func StreamRequest(max uint32, stream []byte) []byte {
	b := make([]byte, 4, 4+len(stream))
	binary.LittleEndian.PutUint32(b, max)
	return append(b, stream...)
}

// StreamVectors builds the stream vectors of a schema from valid messages
// (at least one) and bad ones, each classified by the reference reader:
// an empty stream; all the valid messages in one stream (twice, so a
// reader's buffer is reused); each bad message after the valid ones; the
// stream cut inside the last header and inside the last payload; a bad
// magic and an unknown type id on the second message; a maximum one byte
// below the largest payload. prefix starts every vector's ID.
func StreamVectors(s *schema.Schema, prefix string, valid, bad [][]byte) []Vector {
	var out []Vector
	add := func(name string, max uint32, stream []byte) {
		want, rule := ReferenceStream(s, max, stream)
		out = append(out, Vector{ID: prefix + "stream." + name, Op: OpStream, Input: StreamRequest(max, stream), Want: want, Rule: rule})
	}
	add("empty", 0, nil)
	if len(valid) == 0 {
		return out
	}
	var all []byte
	largest := 0
	for _, m := range valid {
		all = append(all, m...)
		if len(m)-10 > largest {
			largest = len(m) - 10
		}
	}
	all = append(all, all...)
	add("all", 0, all)
	for i, m := range bad {
		add(fmt.Sprintf("bad%d", i), 0, append(append([]byte{}, all...), m...))
	}
	last := valid[len(valid)-1]
	head := all[:len(all)-len(last)]
	add("cut_header", 0, append(append([]byte{}, head...), last[:7]...))
	add("cut_payload", 0, all[:len(all)-1])
	if len(valid) > 1 || len(all) > len(valid[0]) {
		second := len(valid[0])
		magic := append([]byte{}, all...)
		magic[second+3] = '3'
		add("bad_magic", 0, magic)
		unknown := append([]byte{}, all...)
		binary.LittleEndian.PutUint16(unknown[second+4:], unusedTypeID(s))
		add("unknown_id", 0, unknown)
	}
	if largest > 0 {
		add("over_max", uint32(largest-1), all)
	}
	add("at_max", uint32(largest), all)
	return out
}

func unusedTypeID(s *schema.Schema) uint16 {
	for id := uint16(65535); ; id-- {
		if s.StructByID(id) == nil {
			return id
		}
	}
}

// CorpusStreamVectors are the stream vectors of a corpus schema: its golden
// cases as messages, and its invalid vectors that are messages as the bad
// ones.
func CorpusStreamVectors(name string) ([]Vector, error) {
	s, err := schema.Load(SchemaPath(name))
	if err != nil {
		return nil, err
	}
	cases, err := Cases(name)
	if err != nil {
		return nil, err
	}
	invalid, err := Invalids(name)
	if err != nil {
		return nil, err
	}
	var valid, bad [][]byte
	for _, c := range cases {
		if c.Golden != nil && len(c.Golden) < 1<<20 {
			valid = append(valid, Message(s.Struct(c.Type).ID, c.Golden))
		}
	}
	for _, v := range invalid {
		if v.Message {
			b, err := v.Bytes()
			if err != nil {
				return nil, err
			}
			bad = append(bad, b)
		}
	}
	return StreamVectors(s, "stream."+name+".", valid, bad), nil
}

// RunStreams runs the stream vectors of every corpus schema through a
// language's testee (OpStream), one subtest per schema.
func RunStreams(t *testing.T, lang string, start StartFunc) {
	runCorpusVectors(t, lang, start, "stream vectors", CorpusStreamVectors)
}

// runCorpusVectors runs the vectors that vectors builds for every corpus
// schema through a language's testee, one subtest per schema.
func runCorpusVectors(t *testing.T, lang string, start StartFunc, what string, vectors func(name string) ([]Vector, error)) {
	names, err := SchemaNames()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, name := range names {
		name := name
		t.Run(name, func(t *testing.T) {
			vs, err := vectors(name)
			if err != nil {
				t.Fatal(err)
			}
			testee := start(t, name)
			passed, _ := RunVectors(t, testee, vs)
			if err := testee.Close(); err != nil {
				t.Errorf("testee exit: %v", err)
			}
			total += passed
		})
	}
	t.Logf("%s: %d %s passed", lang, total, what)
}
