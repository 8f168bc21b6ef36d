package golang

// Source templates of the test module (see module_test.go). SCHEMA is the
// schema and package name, TYPE a struct's Go name, SNAME its schema name.

const testeeMainHead = `// Command testee answers the conformance protocol for every corpus schema
// with the code sdp generated for it: testee SCHEMA.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"sdp/conformance"
)

func main() {
	if len(os.Args) != 2 || handlers[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: testee SCHEMA")
		os.Exit(2)
	}
	// Decoding must work on a small stack (gentest.HostileStack): a
	// goroutine that needs more than 512 KiB crashes the testee.
	debug.SetMaxStack(512 << 10)
	if err := conformance.Serve(os.Stdin, os.Stdout, handlers[os.Args[1]]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var handlers = map[string]conformance.TesteeFunc{
`

// testeeHandler decodes with every decode API of the generated package and
// re-encodes with every encode API; any disagreement is StatusBroken.
const testeeHandler = `package main

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"sdp/conformance"
	SCHEMA "sdptest/SCHEMA"
)

// value_SCHEMA is the API every generated struct has.
type value_SCHEMA interface {
	SCHEMA.Message
	encoding.BinaryUnmarshaler
	AppendBinary(b []byte) ([]byte, error)
	EncodedSize() int
	WriteTo(w io.Writer) (int64, error)
	ReadFrom(r io.Reader) (int64, error)
	UnmarshalBinaryWith(b []byte, opts SCHEMA.DecodeOptions) error
	UnmarshalPrefix(b []byte, opts SCHEMA.DecodeOptions) (int, error)
}

func new_SCHEMA(id uint16) value_SCHEMA {
	m := SCHEMA.NewMessage(id)
	if m == nil {
		return nil
	}
	return m.(value_SCHEMA)
}

func handle_SCHEMA(op byte, id uint16, in []byte) (byte, []byte) {
	var out []byte
	var err error
	switch op {
	case conformance.OpRoundtrip:
		out, err = roundtrip_SCHEMA(id, in)
	case conformance.OpMessage:
		out, err = message_SCHEMA(in)
	case conformance.OpStream:
		out, err = stream_SCHEMA(in)
	case conformance.OpStreamAll:
		out, err = streamAll_SCHEMA(in)
	default:
		err = broken("unknown op %d", op)
	}
	var b brokenError
	var de *SCHEMA.DecodeError
	var se *SCHEMA.StreamError
	switch {
	case err == nil:
		return conformance.StatusOK, out
	case errors.As(err, &b):
		return conformance.StatusBroken, []byte(err.Error())
	case errors.As(err, &se) && validRule_SCHEMA(se.Err.Rule):
		// The error's own text: "message <index> at stream offset <start>: ..."
		// (docs/api.md, "One layout of error text").
		return conformance.StatusRejected, []byte(err.Error())
	case errors.As(err, &de) && validRule_SCHEMA(de.Rule):
		// The error's own text: "<rule> at offset <offset> in <path>: <message>".
		return conformance.StatusRejected, []byte(err.Error())
	default:
		return conformance.StatusBroken, []byte("not a *DecodeError with a known rule: " + err.Error())
	}
}

// stream_SCHEMA reads a stream with MessageReader (the maximum payload
// length first, 0 for none) and writes every message back with
// MessageWriter.
func stream_SCHEMA(in []byte) ([]byte, error) {
	if len(in) < 4 {
		return nil, broken("a stream request needs the u32 maximum payload length")
	}
	max := int(binary.LittleEndian.Uint32(in))
	if max == 0 {
		max = math.MaxInt
	}
	out, err := readStream_SCHEMA(in[4:], max, SCHEMA.DecodeOptions{}, 0)
	// A reader that decodes into the last value of each type, and readers
	// that decode in a bufio.Reader's buffer (one too small for most
	// messages, one of the default size), must read the same stream.
	for _, form := range streamForms {
		outForm, errForm := readStream_SCHEMA(in[4:], max, SCHEMA.DecodeOptions{Reuse: form.reuse}, form.bufio)
		if (err == nil) != (errForm == nil) || !bytes.Equal(out, outForm) || (err != nil && err.Error() != errForm.Error()) {
			return nil, broken("MessageReader %s (%v) disagrees with MessageReader (%v)", form.name, errForm, err)
		}
	}
	return out, err
}

func readStream_SCHEMA(in []byte, max int, opts SCHEMA.DecodeOptions, bufSize int) ([]byte, error) {
	r := SCHEMA.NewMessageReader(streamSource(in, bufSize))
	r.MaxSize = max
	r.Options = opts
	var out bytes.Buffer
	w := SCHEMA.NewMessageWriter(&out)
	w.MaxSize = max
	for first := true; ; first = false {
		m, err := r.ReadMessage()
		if first && r.SchemaChecked() {
			// The stream began with a hello: answer with ours.
			if err := w.WriteHello(); err != nil {
				return nil, broken("WriteHello: %v", err)
			}
		}
		if err == io.EOF {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		if err := w.WriteMessage(m); err != nil {
			return nil, broken("MessageWriter: %v", err)
		}
	}
}

// streamAll_SCHEMA answers OpStreamAll: MessageReader reads the whole
// stream, going on after every skippable error and reading once more after
// one that ends the stream; the reply is the error lines, then what
// MessageWriter wrote. With and without Options.Reuse.
func streamAll_SCHEMA(in []byte) ([]byte, error) {
	if len(in) < 4 {
		return nil, broken("a stream request needs the u32 maximum payload length")
	}
	max := int(binary.LittleEndian.Uint32(in))
	if max == 0 {
		max = math.MaxInt
	}
	out, err := readStreamAll_SCHEMA(in[4:], max, SCHEMA.DecodeOptions{}, 0)
	if err != nil {
		return nil, err
	}
	for _, form := range streamForms {
		outForm, err := readStreamAll_SCHEMA(in[4:], max, SCHEMA.DecodeOptions{Reuse: form.reuse}, form.bufio)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(out, outForm) {
			return nil, broken("MessageReader %s disagrees with MessageReader: %q and %q", form.name, outForm, out)
		}
	}
	return out, nil
}

func readStreamAll_SCHEMA(in []byte, max int, opts SCHEMA.DecodeOptions, bufSize int) ([]byte, error) {
	r := SCHEMA.NewMessageReader(streamSource(in, bufSize))
	r.MaxSize = max
	r.Options = opts
	var out, lines bytes.Buffer
	w := SCHEMA.NewMessageWriter(&out)
	w.MaxSize = max
	line := func(err error) error {
		var se *SCHEMA.StreamError
		if !errors.As(err, &se) {
			return broken("not a *StreamError: %v", err)
		}
		skippable := 0
		if se.Skippable {
			skippable = 1
		}
		fmt.Fprintf(&lines, "%s %d %d %d\n", se.Err.Rule, se.Index, se.Offset, skippable)
		return nil
	}
	for first := true; ; first = false {
		m, err := r.ReadMessage()
		if first && r.SchemaChecked() {
			if err := w.WriteHello(); err != nil {
				return nil, broken("WriteHello: %v", err)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if err := line(err); err != nil {
				return nil, err
			}
			var se *SCHEMA.StreamError
			if errors.As(err, &se) && se.Skippable {
				continue
			}
			// The stream ends here: a second read must repeat the error.
			switch _, err := r.ReadMessage(); {
			case err == io.EOF:
				lines.WriteString("end\n")
			case err == nil:
				lines.WriteString("message\n")
			default:
				if err := line(err); err != nil {
					return nil, err
				}
			}
			break
		}
		if err := w.WriteMessage(m); err != nil {
			return nil, broken("MessageWriter: %v", err)
		}
	}
	reply := binary.LittleEndian.AppendUint32(nil, uint32(lines.Len()))
	return append(append(reply, lines.Bytes()...), out.Bytes()...), nil
}

func validRule_SCHEMA(r SCHEMA.Rule) bool {
	switch r {
	case SCHEMA.RuleTruncated, SCHEMA.RuleTrailing, SCHEMA.RuleBool, SCHEMA.RulePresence, SCHEMA.RuleEnum,
		SCHEMA.RuleUnionTag, SCHEMA.RuleUTF8, SCHEMA.RuleCount, SCHEMA.RuleDepth, SCHEMA.RuleMessage, SCHEMA.RuleMemory,
		SCHEMA.RuleSchema:
		return true
	}
	return false
}

func roundtrip_SCHEMA(id uint16, in []byte) ([]byte, error) {
	v := new_SCHEMA(id)
	if v == nil {
		return nil, broken("unknown type id %d", id)
	}
	err := v.UnmarshalBinary(in)

	// Every other decode API must agree with UnmarshalBinary.
	withOpts := new_SCHEMA(id)
	errWith := withOpts.UnmarshalBinaryWith(in, SCHEMA.DecodeOptions{MaxDepth: SCHEMA.DefaultMaxDepth})
	prefix := new_SCHEMA(id)
	n, errPrefix := prefix.UnmarshalPrefix(in, SCHEMA.DecodeOptions{})
	read := new_SCHEMA(id)
	nr, errRead := read.ReadFrom(bytes.NewReader(in))
	if (err == nil) != (errWith == nil) || (err == nil) != (errRead == nil) {
		return nil, broken("decoders disagree: UnmarshalBinary %v, UnmarshalBinaryWith %v, ReadFrom %v", err, errWith, errRead)
	}
	if nr != int64(len(in)) {
		return nil, broken("ReadFrom read %d of %d bytes", nr, len(in))
	}
	if (err == nil) != (errPrefix == nil && n == len(in)) {
		var de *SCHEMA.DecodeError
		if !(errPrefix == nil && errors.As(err, &de) && de.Rule == SCHEMA.RuleTrailing && de.Offset == n) {
			return nil, broken("UnmarshalPrefix (%d, %v) disagrees with UnmarshalBinary (%v)", n, errPrefix, err)
		}
	}
	reused, err := reuse_SCHEMA(id, in, err)
	if err != nil {
		return nil, err
	}
	return encodeAll_SCHEMA(v, []value_SCHEMA{withOpts, prefix, read, reused})
}

// kept_SCHEMA holds, per type id, the value the previous request decoded
// into with DecodeOptions.Reuse (docs/conformance.md, "Decoding into an
// existing value").
var kept_SCHEMA = map[uint16]value_SCHEMA{}

// reuse_SCHEMA decodes in into the value kept from the previous request of
// the same type id; it must agree with the owned decode, whose error is
// want, and a rejection must leave the zero value. It returns want.
func reuse_SCHEMA(id uint16, in []byte, want error) (value_SCHEMA, error) {
	v := kept_SCHEMA[id]
	if v == nil {
		v = new_SCHEMA(id)
		kept_SCHEMA[id] = v
	}
	err := v.UnmarshalBinaryWith(in, SCHEMA.DecodeOptions{Reuse: true})
	var de, wantDE *SCHEMA.DecodeError
	switch {
	case (err == nil) != (want == nil):
		return nil, broken("decoding into a used value (%v) disagrees with UnmarshalBinary (%v)", err, want)
	case err != nil && (!errors.As(err, &de) || !errors.As(want, &wantDE) || *de != *wantDE):
		return nil, broken("decoding into a used value failed with %v, UnmarshalBinary with %v", err, want)
	case err != nil:
		got, gerr := v.MarshalBinary()
		zero, zerr := new_SCHEMA(id).MarshalBinary()
		if gerr != nil || zerr != nil || !bytes.Equal(got, zero) {
			return nil, broken("a failed decode into a used value did not leave the zero value (%v, %v)", gerr, zerr)
		}
	}
	return v, want
}

// encodeAll_SCHEMA encodes v with every encode API, checks they agree with
// each other and with the other decoded copies, and returns the bytes.
func encodeAll_SCHEMA(v value_SCHEMA, others []value_SCHEMA) ([]byte, error) {
	out, err := v.MarshalBinary()
	if err != nil {
		return nil, broken("MarshalBinary of a decoded value: %v", err)
	}
	if len(out) != v.EncodedSize() {
		return nil, broken("EncodedSize %d, MarshalBinary wrote %d bytes", v.EncodedSize(), len(out))
	}
	if cap(out) != len(out) {
		return nil, broken("MarshalBinary allocated %d bytes for %d", cap(out), len(out))
	}
	app, err := v.AppendBinary([]byte{0xA5})
	if err != nil || app[0] != 0xA5 || !bytes.Equal(app[1:], out) {
		return nil, broken("AppendBinary disagrees with MarshalBinary (%v)", err)
	}
	var w bytes.Buffer
	if n, err := v.WriteTo(&w); err != nil || n != int64(len(out)) || !bytes.Equal(w.Bytes(), out) {
		return nil, broken("WriteTo disagrees with MarshalBinary (%v)", err)
	}
	for _, o := range others {
		if b, err := o.MarshalBinary(); err != nil || !bytes.Equal(b, out) {
			return nil, broken("another decode API produced a different value (%v)", err)
		}
	}
	msg, err := v.MarshalMessage()
	if err != nil || len(msg) != SCHEMA.MessageHeaderSize+len(out) || !bytes.Equal(msg[SCHEMA.MessageHeaderSize:], out) {
		return nil, broken("MarshalMessage disagrees with MarshalBinary (%v)", err)
	}
	again := new_SCHEMA(v.MessageTypeID())
	if err := again.UnmarshalMessage(msg); err != nil {
		return nil, broken("UnmarshalMessage rejects MarshalMessage's output: %v", err)
	}
	return out, nil
}

// keptMessage_SCHEMA is the value DecodeMessageInto decoded last.
var keptMessage_SCHEMA SCHEMA.Message

func message_SCHEMA(in []byte) ([]byte, error) {
	m, err := SCHEMA.DecodeMessage(in)

	// The stream reader must see exactly one message, and agree.
	r := SCHEMA.NewMessageReader(bytes.NewReader(in))
	sm, serr := r.ReadMessage()
	if serr == nil {
		if extra, e := r.ReadMessage(); e != io.EOF {
			sm, serr = nil, fmt.Errorf("a second message (%v) or error after the first: %v", extra, e)
		}
	}
	if (err == nil) != (serr == nil) {
		return nil, broken("DecodeMessage (%v) and MessageReader (%v) disagree", err, serr)
	}
	// DecodeMessageInto, into the value the previous message decoded into
	// (the same type or another), must agree too, error for error.
	im, ierr := SCHEMA.DecodeMessageInto(in, keptMessage_SCHEMA, SCHEMA.DecodeOptions{})
	if ierr != nil {
		if err == nil || ierr.Error() != err.Error() {
			return nil, broken("DecodeMessageInto's error (%v) is not DecodeMessage's (%v)", ierr, err)
		}
	} else {
		if err != nil {
			return nil, broken("DecodeMessageInto accepts what DecodeMessage rejects (%v)", err)
		}
		keptMessage_SCHEMA = im
	}
	if err != nil {
		if len(in) >= SCHEMA.MessageHeaderSize {
			// The typed decoder must reject it too (or see another type).
			if v := SCHEMA.NewMessage(uint16(in[4]) | uint16(in[5])<<8); v != nil && v.UnmarshalMessage(in) == nil {
				return nil, broken("UnmarshalMessage accepts what DecodeMessage rejects (%v)", err)
			}
		}
		return nil, err
	}
	v, ok := m.(value_SCHEMA)
	if !ok {
		return nil, broken("DecodeMessage returned %T", m)
	}
	typed := new_SCHEMA(m.MessageTypeID())
	if err := typed.UnmarshalMessage(in); err != nil {
		return nil, broken("UnmarshalMessage rejects what DecodeMessage accepts: %v", err)
	}
	if _, err := encodeAll_SCHEMA(v, []value_SCHEMA{sm.(value_SCHEMA), typed, im.(value_SCHEMA)}); err != nil {
		return nil, err
	}
	out, err := m.MarshalMessage()
	if err != nil {
		return nil, broken("MarshalMessage: %v", err)
	}
	if m.EncodedMessageSize() != len(out) {
		return nil, broken("EncodedMessageSize is %d, MarshalMessage wrote %d bytes", m.EncodedMessageSize(), len(out))
	}
	app, err := m.AppendMessage([]byte{1, 2})
	if err != nil || !bytes.Equal(app[2:], out) {
		return nil, broken("AppendMessage disagrees with MarshalMessage (%v)", err)
	}
	var w bytes.Buffer
	mw := SCHEMA.NewMessageWriter(&w)
	if err := mw.WriteMessage(m); err != nil || !bytes.Equal(w.Bytes(), out) {
		return nil, broken("MessageWriter disagrees with MarshalMessage (%v)", err)
	}
	return out, nil
}
`

const testeeCommon = `package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// streamForms are the ways of reading a stream the testee compares with a
// MessageReader over a plain io.Reader.
var streamForms = []struct {
	name  string
	reuse bool // Options.Reuse
	bufio int  // > 0: read from a bufio.Reader of this size, which MessageReader peeks into
}{
	{"with Options.Reuse", true, 0},
	{"over a 16-byte bufio.Reader", false, 16},
	{"over a bufio.Reader", false, 4096},
	{"with Options.Reuse over a bufio.Reader", true, 4096},
}

// streamSource is the stream in as the reader MessageReader reads.
func streamSource(in []byte, bufSize int) io.Reader {
	if bufSize > 0 {
		return bufio.NewReaderSize(bytes.NewReader(in), bufSize)
	}
	return bytes.NewReader(in)
}

// brokenError marks an internal inconsistency of the generated code.
type brokenError struct{ msg string }

func (e brokenError) Error() string { return e.msg }

func broken(format string, args ...interface{}) error {
	return brokenError{fmt.Sprintf(format, args...)}
}
`

// fuzzHead starts the fuzz and stream tests of one generated package.
const fuzzHead = `package PKG_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"

	"sdp/codec"
	"sdp/conformance"
	"sdp/schema"
	SCHEMA "sdptest/SCHEMA"
)

// seeds adds every golden and invalid vector of the corpus for a type.
func seeds(f *testing.F, typ string) {
	cases, err := conformance.Cases("SCHEMA")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Type == typ && c.Golden != nil {
			f.Add(c.Golden)
		}
	}
	invalid, err := conformance.Invalids("SCHEMA")
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range invalid {
		if v.Type == typ {
			b, _ := v.Bytes()
			if v.Message && len(b) >= SCHEMA.MessageHeaderSize {
				b = b[SCHEMA.MessageHeaderSize:]
			}
			f.Add(b)
		}
	}
}

// checkError fails unless err is a *DecodeError.
func checkError(t *testing.T, err error) {
	var de *SCHEMA.DecodeError
	if !errors.As(err, &de) || de.Rule == "" {
		t.Fatalf("error is not a *DecodeError with a rule: %v", err)
	}
}

// TestInvalidRules checks that every invalid vector is rejected for the rule
// the corpus names (the conformance runner only checks rejection).
func TestInvalidRules(t *testing.T) {
	s, err := schema.Load(conformance.SchemaPath("SCHEMA"))
	if err != nil {
		t.Fatal(err)
	}
	invalid, err := conformance.Invalids("SCHEMA")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range invalid {
		b, _ := v.Bytes()
		if v.Message {
			_, err = SCHEMA.DecodeMessage(b)
		} else {
			err = SCHEMA.NewMessage(typeID(t, v.Type)).UnmarshalBinary(b)
		}
		var de *SCHEMA.DecodeError
		if !errors.As(err, &de) || string(de.Rule) != v.Rule || !errors.Is(err, SCHEMA.Rule(v.Rule)) {
			t.Errorf("%s: got %v, want rule %s", v.ID(), err, v.Rule)
			continue
		}
		if errors.Is(err, SCHEMA.Rule("x"+v.Rule)) {
			t.Errorf("%s: errors.Is matches another rule", v.ID())
		}
		// The offset and path agree with the reference codec's.
		if v.Message {
			_, _, err = codec.DecodeMessage(s, b, codec.Options{})
		} else {
			_, err = codec.Decode(s, v.Type, b, codec.Options{})
		}
		var ce *codec.DecodeError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: the reference codec: %v", v.ID(), err)
		}
		if ce.Offset != de.Offset || ce.Path != de.Path {
			t.Errorf("%s: offset %d path %q, the reference codec says offset %d path %q", v.ID(), de.Offset, de.Path, ce.Offset, ce.Path)
		}
	}
}

// TestDepthOption finds, for every golden case, the smallest depth limit that
// accepts it, and checks that one less fails with the depth rule, exactly as
// the reference codec decides.
func TestDepthOption(t *testing.T) {
	s, err := schema.Load(conformance.SchemaPath("SCHEMA"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.Cases("SCHEMA")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m := SCHEMA.NewMessage(typeID(t, c.Type)).(interface {
			UnmarshalBinaryWith(b []byte, opts SCHEMA.DecodeOptions) error
			UnmarshalMessageWith(b []byte, opts SCHEMA.DecodeOptions) error
			MarshalMessage() ([]byte, error)
		})
		depth := 1
		for ; depth <= SCHEMA.DefaultMaxDepth; depth++ {
			if m.UnmarshalBinaryWith(c.Golden, SCHEMA.DecodeOptions{MaxDepth: depth}) == nil {
				break
			}
		}
		if depth > SCHEMA.DefaultMaxDepth {
			t.Fatalf("%s: rejected at every depth limit", c.ID())
		}
		if _, err := codec.Decode(s, c.Type, c.Golden, codec.Options{MaxDepth: depth}); err != nil {
			t.Errorf("%s: depth limit %d: the reference codec rejects it: %v", c.ID(), depth, err)
		}
		msg, merr := m.MarshalMessage()
		if merr != nil {
			t.Fatalf("%s: MarshalMessage: %v", c.ID(), merr)
		}
		if err := m.UnmarshalMessageWith(msg, SCHEMA.DecodeOptions{MaxDepth: depth}); err != nil {
			t.Errorf("%s: UnmarshalMessageWith, depth limit %d: %v", c.ID(), depth, err)
		}
		if depth == 1 {
			continue
		}
		var me *SCHEMA.DecodeError
		if err := m.UnmarshalMessageWith(msg, SCHEMA.DecodeOptions{MaxDepth: depth - 1}); !errors.As(err, &me) || me.Rule != SCHEMA.RuleDepth {
			t.Errorf("%s: UnmarshalMessageWith, depth limit %d: got %v, want a depth error", c.ID(), depth-1, err)
		}
		err := m.UnmarshalBinaryWith(c.Golden, SCHEMA.DecodeOptions{MaxDepth: depth - 1})
		var de *SCHEMA.DecodeError
		if !errors.As(err, &de) || de.Rule != SCHEMA.RuleDepth {
			t.Errorf("%s: depth limit %d: got %v, want a depth error", c.ID(), depth-1, err)
		}
		if _, err := codec.Decode(s, c.Type, c.Golden, codec.Options{MaxDepth: depth - 1}); err == nil {
			t.Errorf("%s: depth limit %d: the reference codec accepts it", c.ID(), depth-1)
		}
	}
}

// typeID is the message type id of a struct of the schema.
func typeID(t testing.TB, typ string) uint16 {
	s, err := schema.Load(conformance.SchemaPath("SCHEMA"))
	if err != nil {
		t.Fatal(err)
	}
	return s.Struct(typ).ID
}

// FuzzDecodeMessage feeds the message dispatcher and the stream reader.
func FuzzDecodeMessage(f *testing.F) {
	cases, err := conformance.Cases("SCHEMA")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		f.Add(conformance.Message(typeID(f, c.Type), c.Golden))
	}
	invalid, err := conformance.Invalids("SCHEMA")
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range invalid {
		if v.Message {
			b, _ := v.Bytes()
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := SCHEMA.DecodeMessage(b)
		r := SCHEMA.NewMessageReader(bytes.NewReader(b))
		r.MaxSize = len(b)
		sm, serr := r.ReadMessage()
		if err != nil {
			checkError(t, err)
			return
		}
		if serr != nil {
			t.Fatalf("the stream reader rejects what DecodeMessage accepts: %v", serr)
		}
		out, err := m.MarshalMessage()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
		if out2, _ := sm.MarshalMessage(); !bytes.Equal(out2, b) {
			t.Fatal("the stream reader decoded a different value")
		}
	})
}

// TestMessageStream writes every golden case of the schema to one stream and
// reads it back one message at a time.
func TestMessageStream(t *testing.T) {
	cases, err := conformance.Cases("SCHEMA")
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	w := SCHEMA.NewMessageWriter(&stream)
	var want [][]byte
	largest := 0
	for _, c := range cases {
		id := typeID(t, c.Type)
		m := SCHEMA.NewMessage(id)
		if err := m.UnmarshalBinary(c.Golden); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if err := w.WriteMessage(m); err != nil {
			t.Fatal(err)
		}
		want = append(want, conformance.Message(id, c.Golden))
		if len(c.Golden) > largest {
			largest = len(c.Golden)
		}
	}
	// A writer refuses a message over its MaxSize and writes nothing; it goes
	// on with the next one.
	if len(cases) > 0 {
		c := cases[len(cases)-1]
		m := SCHEMA.NewMessage(typeID(t, c.Type))
		if err := m.UnmarshalBinary(c.Golden); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		small := SCHEMA.NewMessageWriter(&out)
		small.MaxSize = len(c.Golden) - 1
		var ee *SCHEMA.EncodeError
		if err := small.WriteMessage(m); !errors.As(err, &ee) || out.Len() != 0 {
			t.Fatalf("a %d-byte payload over MaxSize %d: %v, %d bytes written; want an *EncodeError and none", len(c.Golden), small.MaxSize, err, out.Len())
		}
		small.MaxSize = len(c.Golden)
		if err := small.WriteMessage(m); err != nil || !bytes.Equal(out.Bytes(), conformance.Message(typeID(t, c.Type), c.Golden)) {
			t.Fatalf("a payload of MaxSize bytes: %v", err)
		}
	}
	r := SCHEMA.NewMessageReader(bufio.NewReader(bytes.NewReader(stream.Bytes())))
	for i, wm := range want {
		m, err := r.ReadMessage()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		got, err := m.MarshalMessage()
		if err != nil || !bytes.Equal(got, wm) {
			t.Fatalf("message %d differs (%v)", i, err)
		}
	}
	if _, err := r.ReadMessage(); err != io.EOF {
		t.Fatalf("after the last message: %v, want io.EOF", err)
	}

	// A declared length above MaxSize is refused from the header alone.
	if largest > 0 {
		r = SCHEMA.NewMessageReader(bytes.NewReader(stream.Bytes()))
		r.MaxSize = largest - 1
		var err error
		for err == nil {
			_, err = r.ReadMessage()
		}
		var de *SCHEMA.DecodeError
		if !errors.As(err, &de) || de.Rule != SCHEMA.RuleMessage {
			t.Fatalf("reading past MaxSize: %v, want a message error", err)
		}
		// The stream cannot be followed: the error comes back, never a
		// message.
		se := err.(*SCHEMA.StreamError)
		if se.Skippable {
			t.Fatalf("a payload over MaxSize is skippable: %v", err)
		}
		for i := 0; i < 2; i++ {
			m, again := r.ReadMessage()
			if ae, ok := again.(*SCHEMA.StreamError); m != nil || !ok || *ae != *se {
				t.Fatalf("after %v, read %d: %v, %v; want the same error", err, i, m, again)
			}
		}
	}
	if len(cases) > 0 {
		// A message of an unknown type id is skipped: the next one is read.
		first := want[0]
		unknown := append([]byte{}, first...)
		unknown[4], unknown[5] = 0xFE, 0xFF
		for id := uint16(0xFFFE); SCHEMA.NewMessage(id) != nil; id-- {
			unknown[4], unknown[5] = byte(id), byte(id>>8)
		}
		r = SCHEMA.NewMessageReader(bytes.NewReader(append(unknown, first...)))
		m, err := r.ReadMessage()
		if se, ok := err.(*SCHEMA.StreamError); m != nil || !ok || !se.Skippable || se.Index != 0 || se.Offset != 4 {
			t.Fatalf("an unknown type id: %v, %v; want a skippable error at offset 4", m, err)
		}
		m, err = r.ReadMessage()
		if err != nil {
			t.Fatalf("the message after a skipped one: %v", err)
		}
		if got, _ := m.MarshalMessage(); !bytes.Equal(got, first) {
			t.Fatal("the message after a skipped one differs")
		}
	}
	if len(cases) == 0 {
		return
	}
	huge := conformance.Message(typeID(t, cases[0].Type), nil)
	huge[6], huge[7], huge[8], huge[9] = 0xFF, 0xFF, 0xFF, 0xFF
	_, err = SCHEMA.NewMessageReader(bytes.NewReader(huge)).ReadMessage()
	var de *SCHEMA.DecodeError
	if !errors.As(err, &de) || de.Rule != SCHEMA.RuleMessage {
		t.Fatalf("a 4 GiB declared payload: %v, want a message error", err)
	}
}
`

// fuzzType is the fuzz target of one struct.
const fuzzType = `
func FuzzDecodeTYPE(f *testing.F) {
	seeds(f, "SNAME")
	s, err := schema.Load(conformance.SchemaPath("SCHEMA"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v SCHEMA.TYPE
		err := v.UnmarshalBinary(b)
		var p SCHEMA.TYPE
		n, perr := p.UnmarshalPrefix(b, SCHEMA.DecodeOptions{})
		// The reference codec decides the same, for the same reason.
		_, cerr := codec.Decode(s, "SNAME", b, codec.Options{})
		if (err == nil) != (cerr == nil) {
			t.Fatalf("the generated decoder says %v, the reference codec %v", err, cerr)
		}
		if err != nil {
			var de *SCHEMA.DecodeError
			var ce *codec.DecodeError
			if errors.As(err, &de) && errors.As(cerr, &ce) && (string(de.Rule) != ce.Rule || de.Offset != ce.Offset || de.Path != ce.Path) {
				t.Fatalf("the generated decoder says %v, the reference codec %v", err, cerr)
			}
		}
		if err != nil {
			checkError(t, err)
			if perr == nil && n == len(b) {
				t.Fatalf("UnmarshalPrefix accepts all of what UnmarshalBinary rejects: %v", err)
			}
			return
		}
		if perr != nil || n != len(b) {
			t.Fatalf("UnmarshalPrefix (%d, %v) disagrees with UnmarshalBinary", n, perr)
		}
		out, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
		if v.EncodedSize() != len(b) {
			t.Fatalf("EncodedSize %d, want %d", v.EncodedSize(), len(b))
		}
		msg, err := v.MarshalMessage()
		if err != nil {
			t.Fatal(err)
		}
		m, err := SCHEMA.DecodeMessage(msg)
		if err != nil {
			t.Fatalf("the dispatcher rejects a message: %v", err)
		}
		if _, ok := m.(*SCHEMA.TYPE); !ok {
			t.Fatalf("the dispatcher returned %T", m)
		}
	})
}
`

// enumTest checks an enum's API against the schema: every value encodes,
// decodes, names itself and is valid; a number that names no value is
// rejected both ways.
const enumTest = `
func TestEnumTYPE(t *testing.T) {
	s, err := schema.Load(conformance.SchemaPath("SCHEMA"))
	if err != nil {
		t.Fatal(err)
	}
	en := s.Lookup("SNAME").(*schema.Enum)
	for _, ev := range en.Values {
		v := SCHEMA.TYPE(ev.Value)
		if !v.IsValid() || v.String() != ev.Name {
			t.Errorf("%s: IsValid %v, String %q", ev.Name, v.IsValid(), v.String())
		}
		b, err := v.MarshalBinary()
		if err != nil || len(b) != v.EncodedSize() || len(b) != en.Base.Size() {
			t.Fatalf("%s: MarshalBinary %x, %v", ev.Name, b, err)
		}
		var back SCHEMA.TYPE
		if err := back.UnmarshalBinary(b); err != nil || back != v {
			t.Errorf("%s: decoded %v, %v", ev.Name, back, err)
		}
		// As text, a value is its schema name (the JSON mapping).
		text, err := v.MarshalText()
		if err != nil || string(text) != ev.Name {
			t.Errorf("%s: MarshalText %q, %v", ev.Name, text, err)
		}
		back = 0
		if err := back.UnmarshalText([]byte(ev.Name)); err != nil || back != v {
			t.Errorf("%s: UnmarshalText %v, %v", ev.Name, back, err)
		}
	}
	var text SCHEMA.TYPE
	if err := text.UnmarshalText([]byte("not a name")); !errors.Is(err, SCHEMA.RuleEnum) {
		t.Errorf("UnmarshalText of an unknown name: %v", err)
	}
	// The zero value is the default: when 0 names no value it encodes as
	// the first value.
	if en.Value(0) == nil {
		var zero SCHEMA.TYPE
		b, err := zero.MarshalBinary()
		first, _ := SCHEMA.TYPE(en.Values[0].Value).MarshalBinary()
		if err != nil || !bytes.Equal(b, first) {
			t.Errorf("the zero value encodes as %x, %v; want the first value, %x", b, err, first)
		}
	}
	for x := uint32(1); ; x++ {
		if en.Value(x) != nil {
			continue
		}
		bad := SCHEMA.TYPE(x)
		if bad.IsValid() {
			t.Errorf("%d is valid", x)
		}
		if _, err := bad.MarshalBinary(); err == nil {
			t.Errorf("%d encodes", x)
		}
		if _, err := bad.MarshalText(); err == nil {
			t.Errorf("%d has a text form", x)
		}
		b := []byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)}[:en.Base.Size()]
		var back SCHEMA.TYPE
		err := back.UnmarshalBinary(b)
		var de *SCHEMA.DecodeError
		if !errors.As(err, &de) || de.Rule != SCHEMA.RuleEnum {
			t.Errorf("decoding %d: %v, want an enum error", x, err)
		}
		break
	}
}
`

// unionTest checks a union's API with the zero value of every variant, and
// fuzzes its decoder. VARIANTS is the list of variant zero values.
const unionTest = `
func unionSeedsTYPE() []SCHEMA.TYPE { return []SCHEMA.TYPE{VARIANTS} }

func TestUnionTYPE(t *testing.T) {
	for tag, v := range unionSeedsTYPE() {
		b, err := v.MarshalBinary()
		if err != nil {
			var ee *SCHEMA.EncodeError
			if !errors.As(err, &ee) {
				t.Errorf("%T: %v is not an *EncodeError", v, err)
			}
			continue // a variant whose zero value holds a nil union
		}
		if len(b) != v.EncodedSize() || b[0] != byte(tag) {
			t.Fatalf("%T: encoded %x (EncodedSize %d)", v, b, v.EncodedSize())
		}
		back, err := SCHEMA.DecodeTYPE(b)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if fmt.Sprintf("%T", back) != fmt.Sprintf("%T", v) {
			t.Errorf("decoded %T, want %T", back, v)
		}
		again, _ := back.MarshalBinary()
		if !bytes.Equal(again, b) {
			t.Errorf("%T: re-encoding differs", v)
		}
		if _, err := SCHEMA.DecodeTYPE(append(b, 0)); err == nil {
			t.Errorf("%T: trailing byte accepted", v)
		}
		if u, n, err := SCHEMA.DecodeTYPEPrefix(append(b, 0), SCHEMA.DecodeOptions{}); err != nil || n != len(b) || u == nil {
			t.Errorf("%T: prefix decode: %d, %v", v, n, err)
		}
		if _, err := SCHEMA.ReadTYPE(bytes.NewReader(b)); err != nil {
			t.Errorf("%T: ReadTYPE: %v", v, err)
		}
		// DecodeTYPEInto, into nil and into a value of every variant (whose
		// storage it may reuse), decodes what DecodeTYPE decodes.
		for _, old := range append(unionSeedsTYPE(), nil) {
			into, err := SCHEMA.DecodeTYPEInto(b, old, SCHEMA.DecodeOptions{})
			if err != nil || fmt.Sprintf("%T", into) != fmt.Sprintf("%T", v) {
				t.Fatalf("%T into %T: decoded %T, %v", v, old, into, err)
			}
			if again, _ := into.MarshalBinary(); !bytes.Equal(again, b) {
				t.Errorf("%T into %T: re-encoding differs", v, old)
			}
			if u, err := SCHEMA.DecodeTYPEInto(append(b, 0), old, SCHEMA.DecodeOptions{}); err == nil || u != nil {
				t.Errorf("%T into %T: trailing byte accepted (%v)", v, old, u)
			}
		}
		var w bytes.Buffer
		if _, err := v.WriteTo(&w); err != nil || !bytes.Equal(w.Bytes(), b) {
			t.Errorf("%T: WriteTo differs", v)
		}
	}
	_, err := SCHEMA.DecodeTYPE([]byte{byte(len(unionSeedsTYPE()))})
	var de *SCHEMA.DecodeError
	if !errors.As(err, &de) || de.Rule != SCHEMA.RuleUnionTag {
		t.Errorf("tag %d: %v, want a union_tag error", len(unionSeedsTYPE()), err)
	}
}

func FuzzDecodeTYPE(f *testing.F) {
	for _, v := range unionSeedsTYPE() {
		if b, err := v.MarshalBinary(); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := SCHEMA.DecodeTYPE(b)
		// Decoding into a value of each variant fails as DecodeTYPE does
		// (rule, offset, path) or decodes the same value.
		for _, old := range unionSeedsTYPE() {
			into, ierr := SCHEMA.DecodeTYPEInto(b, old, SCHEMA.DecodeOptions{})
			if (err == nil) != (ierr == nil) || (err != nil && err.Error() != ierr.Error()) {
				t.Fatalf("into %T: %v, want %v", old, ierr, err)
			}
			if ierr == nil {
				if again, _ := into.MarshalBinary(); !bytes.Equal(again, b) {
					t.Fatalf("into %T: re-encoding differs", old)
				}
			}
		}
		if err != nil {
			checkError(t, err)
			return
		}
		out, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}
`

// enumHead and unionHead start the files holding enumTest and unionTest.
const enumHead = `package PKG_test

import (
	"bytes"
	"errors"
	"testing"

	"sdp/conformance"
	"sdp/schema"
	SCHEMA "sdptest/SCHEMA"
)
`

const unionHead = `package PKG_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	SCHEMA "sdptest/SCHEMA"
)
`

// schemaTests are tests of the test schemas (testschemas/*.sdp), by name.
var schemaTests = map[string]string{
	"collisions": `package collisions_test

import (
	"bytes"
	"reflect"
	"testing"

	"sdptest/collisions"
)

// TestCollisions uses every escaped name and round-trips a value.
func TestCollisions(t *testing.T) {
	var inner collisions.Shape = collisions.ShapeRect_{W: 2}
	h := &collisions.Holder{
		M:     collisions.Message_{EncodedSize_: 7, String_: "s", WriteTo_: 1, ID: 9, URL: "u"},
		S:     collisions.ShapeMessage{Message_: collisions.Message_{String_: "x"}},
		C:     collisions.ColorRed_,
		R:     collisions.ColorRed{X: 3},
		E:     collisions.DecodeError_{Msg: "m"},
		Maybe: collisions.ShapeRect_{W: 1.5},
		Twice: &inner,
	}
	b, err := h.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back collisions.Holder
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h, &back) {
		t.Fatalf("round trip: got %+v, want %+v", back, *h)
	}
	msg, err := h.MarshalMessage()
	if err != nil {
		t.Fatal(err)
	}
	m, err := collisions.DecodeMessage(msg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*collisions.Holder); !ok || m.MessageTypeID() != collisions.HolderTypeID {
		t.Fatalf("dispatched to %T", m)
	}
	sb, _ := h.S.MarshalBinary()
	s, err := collisions.DecodeShape_(sb)
	if err != nil || !reflect.DeepEqual(s, h.S) {
		t.Fatalf("DecodeShape_: %v, %v", s, err)
	}
	for _, v := range []collisions.Message{new(collisions.Message_), new(collisions.DecodeError_), new(collisions.ColorRed),
		new(collisions.ShapeRect), new(collisions.DecodeShape)} {
		if collisions.NewMessage(v.MessageTypeID()) == nil {
			t.Errorf("%T: no message type", v)
		}
	}
	// A nil union is the default value: it encodes as the first variant.
	var nilUnion collisions.Holder
	nb, err := nilUnion.MarshalBinary()
	if err != nil || len(nb) != nilUnion.EncodedSize() {
		t.Fatalf("a nil union: %x, %v (EncodedSize %d)", nb, err, nilUnion.EncodedSize())
	}
	var def collisions.Holder
	if err := def.UnmarshalBinary(nb); err != nil || def.S == nil {
		t.Fatalf("a nil union decodes as %v, %v", def.S, err)
	}
	if again, _ := def.MarshalBinary(); !bytes.Equal(again, nb) {
		t.Errorf("the default union re-encodes as %x, want %x", again, nb)
	}
}
`,
}

// zeroHead and zeroTest round-trip the zero value of every struct of a test
// schema (when it encodes: a nil union does not) and fuzz its decoder.
const zeroHead = `package PKG_test

import (
	"bytes"
	"errors"
	"testing"

	SCHEMA "sdptest/SCHEMA"
)
`

const zeroTest = `
func FuzzDecodeTYPE(f *testing.F) {
	var zero SCHEMA.TYPE
	if b, err := zero.MarshalBinary(); err == nil {
		f.Add(b)
	} else {
		var ee *SCHEMA.EncodeError
		if !errors.As(err, &ee) {
			f.Fatalf("not an *EncodeError: %v", err)
		}
	}
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, b []byte) {
		var v SCHEMA.TYPE
		if err := v.UnmarshalBinary(b); err != nil {
			var de *SCHEMA.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("not a *DecodeError: %v", err)
			}
			return
		}
		out, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}
`
