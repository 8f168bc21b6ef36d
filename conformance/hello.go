package conformance

import (
	"encoding/binary"
	"strconv"
	"testing"

	"sdp/codec"
	"sdp/schema"
)

// Hello vectors test the schema check of streams (docs/wire-format.md, "The
// schema check (hello)") through OpStream: every reader must accept the
// schema's own hello and ignore what it may ignore, refuse a hello from
// another version of the schema (rule schema) and a malformed or misplaced
// one (rule message) at the same index and offset as the reference, and
// every writer must answer a hello with exactly the reference's hello.

// HelloVectors builds the hello vectors of a schema; valid are valid
// messages of it (any number). prefix starts every vector's ID.
func HelloVectors(s *schema.Schema, prefix string, valid [][]byte) []Vector {
	var out []Vector
	add := func(name string, stream []byte) {
		want, rule := ReferenceStream(s, 0, stream)
		out = append(out, Vector{ID: prefix + "hello." + name, Op: OpStream, Input: StreamRequest(0, stream), Want: want, Rule: rule})
	}
	entries := codec.HelloEntries(s)
	hello := codec.EncodeHello(s)
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	var all []byte
	for _, m := range valid {
		all = append(all, m...)
	}
	add("alone", hello)
	add("then_messages", cat(hello, all))
	add("empty", codec.EncodeHelloEntries(nil))
	if len(valid) > 0 {
		add("second", cat(valid[0], hello, all))
	}
	add("twice", cat(hello, hello))
	// An entry for a type id the schema lacks is ignored.
	extra := append([]codec.HelloEntry{}, entries...)
	unknown := unusedTypeID(s)
	at := len(extra)
	for i, e := range extra {
		if e.TypeID > unknown {
			at = i
			break
		}
	}
	extra = append(extra[:at], append([]codec.HelloEntry{{TypeID: unknown, Fingerprint: 0x5d5d5d5d5d5d5d5d}}, extra[at:]...)...)
	add("unknown_type", cat(codec.EncodeHelloEntries(extra), all))
	for i := range entries {
		// Another version of struct i; the first and the last are enough.
		if i != 0 && i != len(entries)-1 {
			continue
		}
		changed := append([]codec.HelloEntry{}, entries...)
		changed[i].Fingerprint ^= 1 << 40
		add("changed_"+strconv.Itoa(i), cat(codec.EncodeHelloEntries(changed), all))
	}
	if len(entries) >= 2 {
		swapped := append([]codec.HelloEntry{}, entries...)
		swapped[0], swapped[1] = swapped[1], swapped[0]
		add("unsorted", codec.EncodeHelloEntries(swapped))
		dup := append([]codec.HelloEntry{}, entries...)
		dup[1].TypeID = dup[0].TypeID
		add("duplicate", codec.EncodeHelloEntries(dup))
	}
	add("zero_id", codec.EncodeHelloEntries([]codec.HelloEntry{{TypeID: 0, Fingerprint: 1}}))
	long := append(codec.EncodeHelloEntries(entries), 0)
	binary.LittleEndian.PutUint32(long[6:], uint32(len(long)-codec.HeaderSize))
	add("long", long)
	short := codec.EncodeHelloEntries(nil)[:codec.HeaderSize+2]
	binary.LittleEndian.PutUint32(short[6:], 2)
	add("short", short)
	add("cut", hello[:len(hello)-1])
	return out
}

// CorpusHelloVectors are the hello vectors of a corpus schema, with its
// golden cases as the messages.
func CorpusHelloVectors(name string) ([]Vector, error) {
	s, err := schema.Load(SchemaPath(name))
	if err != nil {
		return nil, err
	}
	cases, err := Cases(name)
	if err != nil {
		return nil, err
	}
	var valid [][]byte
	for _, c := range cases {
		if c.Golden != nil && len(c.Golden) < 1<<16 {
			valid = append(valid, Message(s.Struct(c.Type).ID, c.Golden))
		}
	}
	return HelloVectors(s, "stream."+name+".", valid), nil
}

// RunHellos runs the hello vectors of every corpus schema through a
// language's testee (OpStream), one subtest per schema.
func RunHellos(t *testing.T, lang string, start StartFunc) {
	runCorpusVectors(t, lang, start, "hello vectors", CorpusHelloVectors)
}
