package codec

import (
	"encoding/binary"
	"fmt"
	"sort"

	"sdp/schema"
)

// The schema check of streams (docs/wire-format.md, "The schema check
// (hello)"): a writer may start a stream with a hello, a message of type id
// 0 listing the fingerprint of every struct of its schema, and a reader
// refuses a hello that gives one of its structs another fingerprint.

// HelloTypeID is the type id of a hello; no struct can have it.
const HelloTypeID = 0

// RuleSchema is the rule a stream breaks when its hello shows that it was
// written from another version of the schema, or when a reader that
// requires a hello finds none. It is a rule of streams, not of values, so it
// is not in Rules.
const RuleSchema = "schema"

// HelloEntry is one struct of a hello.
type HelloEntry struct {
	TypeID      uint16
	Fingerprint uint64
}

// HelloEntries lists the structs of s by type id, with their fingerprints.
func HelloEntries(s *schema.Schema) []HelloEntry {
	out := make([]HelloEntry, 0, len(s.Structs))
	for _, st := range s.Structs {
		out = append(out, HelloEntry{TypeID: st.ID, Fingerprint: schema.Fingerprint(st)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].TypeID < out[j].TypeID })
	return out
}

// EncodeHello returns the hello message of s.
func EncodeHello(s *schema.Schema) []byte { return EncodeHelloEntries(HelloEntries(s)) }

// EncodeHelloEntries returns a hello listing entries as they are (in their
// order, even an invalid one: the conformance vectors build bad hellos
// with it).
func EncodeHelloEntries(entries []HelloEntry) []byte {
	b := make([]byte, 0, HeaderSize+4+10*len(entries))
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, HelloTypeID)
	b = binary.LittleEndian.AppendUint32(b, uint32(4+10*len(entries)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(entries)))
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, e.TypeID)
		b = binary.LittleEndian.AppendUint64(b, e.Fingerprint)
	}
	return b
}

// checkHello checks the hello msg (header and payload, complete) against s.
// Offsets in the error count from the start of msg.
func checkHello(s *schema.Schema, msg []byte) *DecodeError {
	fail := func(at int, rule, format string, args ...interface{}) *DecodeError {
		return &DecodeError{Offset: at, Rule: rule, Path: "message", Msg: fmt.Sprintf(format, args...)}
	}
	p := msg[HeaderSize:]
	if len(p) < 4 {
		return fail(6, RuleMessage, "a hello's payload holds a u32 count and 10 bytes per struct; this one has %s", plural(len(p), "byte", "bytes"))
	}
	n := binary.LittleEndian.Uint32(p)
	if uint64(len(p)) != 4+10*uint64(n) {
		return fail(6, RuleMessage, "a hello of %s has a payload of %s, not %d", plural(n, "struct", "structs"), plural(len(p), "byte", "bytes"), 4+10*uint64(n))
	}
	ours := map[uint16]uint64{}
	for _, e := range HelloEntries(s) {
		ours[e.TypeID] = e.Fingerprint
	}
	prev := -1
	for i := 0; i < int(n); i++ {
		at := 4 + 10*i
		id := binary.LittleEndian.Uint16(p[at:])
		if id == 0 || int(id) <= prev {
			return fail(HeaderSize+at, RuleMessage, "hello entry %d has type id %d: type ids must be above 0 and strictly increasing", i, id)
		}
		prev = int(id)
		mine, ok := ours[id]
		if !ok {
			continue
		}
		if theirs := binary.LittleEndian.Uint64(p[at+2:]); theirs != mine {
			return fail(HeaderSize+at+2, RuleSchema,
				"the writer's schema has another version of %s (type id %d): fingerprint %s, here %s; run `sdp compat` on the two schemas",
				s.StructByID(id).Name, id, schema.FormatFingerprint(theirs), schema.FormatFingerprint(mine))
		}
	}
	return nil
}
