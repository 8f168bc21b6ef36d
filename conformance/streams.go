package conformance

import (
	"encoding/binary"
	"fmt"
	"math"
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
		m, err := referenceRead(s, stream, off, index, max)
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

// referenceRead reads message index of stream at off with the reference
// reader, max being the testee protocol's maximum payload length: 0 is
// "no maximum" there, which the reader would take as its default.
func referenceRead(s *schema.Schema, stream []byte, off, index int, max uint32) (*codec.StreamMessage, error) {
	if max == 0 {
		max = math.MaxUint32
	}
	return codec.ReadStreamMessage(s, stream, off, index, "", codec.StreamOptions{MaxSize: max})
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
	s, valid, bad, err := corpusMessages(name)
	if err != nil {
		return nil, err
	}
	return StreamVectors(s, "stream."+name+".", valid, bad), nil
}

// corpusMessages are a corpus schema's golden cases as messages (under
// 1 MiB), and its invalid vectors that are messages.
func corpusMessages(name string) (s *schema.Schema, valid, bad [][]byte, err error) {
	s, err = schema.Load(SchemaPath(name))
	if err != nil {
		return nil, nil, nil, err
	}
	cases, err := Cases(name)
	if err != nil {
		return nil, nil, nil, err
	}
	invalid, err := Invalids(name)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, c := range cases {
		if c.Golden != nil && len(c.Golden) < 1<<20 {
			valid = append(valid, Message(s.Struct(c.Type).ID, c.Golden))
		}
	}
	for _, v := range invalid {
		if v.Message {
			b, err := v.Bytes()
			if err != nil {
				return nil, nil, nil, err
			}
			bad = append(bad, b)
		}
	}
	return s, valid, bad, nil
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

// ReferenceStreamAll is the reply to an OpStreamAll request: the reference
// reader reads the whole stream, going on after every message it read whole
// (codec.StreamError.Framed) and stopping at the first error that ends the
// stream, which a second read reports again. The reply is a u32 LE length N,
// N bytes of lines "<rule> <index> <offset> <skippable 0|1>\n" (one per
// error, plus the repeat of a stream-ending one), then every good message
// re-encoded (a hello answered with the schema's own), as the testee's
// stream writer must write them.
func ReferenceStreamAll(s *schema.Schema, max uint32, stream []byte) []byte {
	var report, written []byte
	off := 0
	for index := 0; ; index++ {
		m, err := referenceRead(s, stream, off, index, max)
		if err != nil {
			se, ok := err.(*codec.StreamError)
			if !ok {
				panic("conformance: the reference stream reader failed: " + err.Error())
			}
			skippable := 0
			if se.Framed {
				skippable = 1
			}
			line := fmt.Sprintf("%s %d %d %d\n", se.Rule, se.Index, se.Offset, skippable)
			report = append(report, line...)
			if !se.Framed {
				// The stream cannot be followed: the next read repeats it.
				report = append(report, line...)
				break
			}
			off = se.Start + codec.HeaderSize + int(binary.LittleEndian.Uint32(stream[se.Start+6:]))
			continue
		}
		if m == nil {
			break
		}
		off += m.Size
		if m.Hello {
			written = append(written, codec.EncodeHello(s)...)
			continue
		}
		msg, err := codec.EncodeMessage(s, m.Type, m.JSON)
		if err != nil {
			panic("conformance: the reference codec cannot re-encode what it decoded: " + err.Error())
		}
		written = append(written, msg...)
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(report)))
	out = append(out, report...)
	return append(out, written...)
}

// streamAllDiff explains how an OpStreamAll reply differs from the wanted
// one: the error lines side by side, or the stream written.
func streamAllDiff(want, got []byte) string {
	split := func(b []byte) (string, []byte, bool) {
		if len(b) < 4 || uint64(binary.LittleEndian.Uint32(b)) > uint64(len(b)-4) {
			return "", nil, false
		}
		n := 4 + int(binary.LittleEndian.Uint32(b))
		return string(b[4:n]), b[n:], true
	}
	wl, ws, _ := split(want)
	gl, gs, ok := split(got)
	if !ok {
		return "the reply is not a u32 length and error lines: " + fmt.Sprintf("%x", got)
	}
	if wl != gl {
		return fmt.Sprintf("errors differ:\n  want %q\n  got  %q", wl, gl)
	}
	return fmt.Sprintf("the stream written differs (errors agree: %q):\n  want %x\n  got  %x", wl, ws, gs)
}

// StreamAllVectors builds the OpStreamAll vectors of a schema from valid
// messages (at least one) and bad ones, each decided by ReferenceStreamAll:
// good messages, then the bad ones a reader skips (each bad message whose
// header is good and whose payload is complete, an unknown type id, a late
// hello), then good ones again, with and without a hello in front; and that
// stream ended by each error that ends a stream, followed by more bytes
// where the error leaves any (a bad message of bad that is not skipped, a
// bad magic, an unknown type id or a payload over the maximum, a refused
// hello) or at the stream's end (a cut header, a cut payload).
func StreamAllVectors(s *schema.Schema, prefix string, valid, bad [][]byte) []Vector {
	if len(valid) == 0 {
		return nil
	}
	var out []Vector
	add := func(name string, max uint32, stream []byte) {
		out = append(out, Vector{ID: prefix + "stream_all." + name, Op: OpStreamAll, Input: StreamRequest(max, stream),
			Want: ReferenceStreamAll(s, max, stream)})
	}
	cat := func(parts ...[]byte) []byte {
		b := []byte{}
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	first, last := valid[0], valid[len(valid)-1]
	largest := valid[0]
	var all []byte
	for _, m := range valid {
		all = append(all, m...)
		if len(m) > len(largest) {
			largest = m
		}
	}
	unknown := cat(first)
	binary.LittleEndian.PutUint16(unknown[4:], unusedTypeID(s))
	hello := codec.EncodeHello(s)
	// The bad messages a reader skips, and those that end a stream (or
	// leave bytes after their declared payload, which a reader reads as
	// the next message).
	skipped := [][]byte{unknown, hello}
	var ending [][]byte
	for _, b := range bad {
		_, err := codec.ReadStreamMessage(s, b, 0, 1, "", codec.StreamOptions{})
		if se, ok := err.(*codec.StreamError); ok && se.Framed && len(b) == codec.HeaderSize+int(binary.LittleEndian.Uint32(b[6:])) {
			skipped = append(skipped, b)
		} else if err != nil {
			ending = append(ending, b)
		}
	}
	resume := cat(all)
	for _, b := range skipped {
		resume = append(cat(resume, b), first...)
	}
	resume = append(resume, last...)
	add("resume", 0, resume)
	add("hello_resume", 0, cat(hello, resume))
	add("resume_at_max", uint32(len(largest)-10), resume)
	for i, b := range ending {
		add(fmt.Sprintf("end_bad%d", i), 0, cat(resume, b, all))
	}
	magic := cat(first)
	magic[3] = '3'
	add("end_bad_magic", 0, cat(resume, magic, all))
	add("end_cut_header", 0, cat(resume, first[:7]))
	add("end_cut_payload", 0, cat(resume, last[:len(last)-1]))
	add("end_unknown_cut", 0, cat(resume, unknown[:len(unknown)-1]))
	if len(largest) > 10 {
		// The largest message, then an unknown type id as long, are over the
		// maximum: neither is read, so the stream ends there, after the
		// smaller messages.
		var pre []byte
		for _, m := range append(append([][]byte{}, valid...), skipped...) {
			if len(m) < len(largest) {
				pre = append(pre, m...)
			}
		}
		over := uint32(len(largest) - 11)
		big := cat(largest)
		binary.LittleEndian.PutUint16(big[4:], unusedTypeID(s))
		add("end_over_max", over, cat(pre, largest, all))
		add("end_unknown_over_max", over, cat(pre, big, all))
	}
	if len(hello) > 14+2 {
		// Another version of the first struct: a refused hello.
		other := cat(hello)
		other[16] ^= 0x5d
		add("end_schema", 0, cat(other, resume))
	}
	cutHello := cat(hello)
	binary.LittleEndian.PutUint32(cutHello[6:], uint32(len(hello)-10+1))
	add("end_hello_length", 0, cat(cutHello, resume))
	return out
}

// CorpusStreamAllVectors are the OpStreamAll vectors of a corpus schema: its
// golden cases as messages, and its invalid vectors that are messages as the
// bad ones.
func CorpusStreamAllVectors(name string) ([]Vector, error) {
	s, valid, bad, err := corpusMessages(name)
	if err != nil {
		return nil, err
	}
	return StreamAllVectors(s, "stream."+name+".", valid, bad), nil
}

// RunStreamsAll runs the OpStreamAll vectors of every corpus schema through
// a language's testee, one subtest per schema.
func RunStreamsAll(t *testing.T, lang string, start StartFunc) {
	runCorpusVectors(t, lang, start, "stream_all vectors", CorpusStreamAllVectors)
}
