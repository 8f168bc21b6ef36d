package codec

import (
	"encoding/binary"
	"fmt"

	"sdp/schema"
)

// A stream is messages one after the other (docs/wire-format.md, "Streams").
// The reference reader below defines what a stream reader reports: the rule,
// the offset counted from the start of the stream, and the message's index.

// StreamError is a rejected message of a stream. DecodeError.Offset counts
// from the start of the stream.
type StreamError struct {
	Index int // the message's position in the stream, from 0
	Start int // the stream offset of the message's header
	// Framed reports that the message was read whole: its header was good
	// and its payload complete and within the reader's maximum (a payload
	// its decoder rejects, an unknown type id, a hello after the first
	// message). A reader skips it and goes on with message Index+1; after
	// any other error the stream cannot be followed (docs/wire-format.md,
	// "Streams").
	Framed bool
	*DecodeError
}

// Error has the layout of every language's stream error (docs/api.md, "One
// layout of error text"): "message <index> at stream offset <start>: " and
// the decode error, its offset counted from the message's first byte.
func (e *StreamError) Error() string {
	inner := *e.DecodeError
	inner.Offset -= e.Start
	return fmt.Sprintf("message %d at stream offset %d: %s", e.Index, e.Start, inner.Error())
}

// DefaultMaxMessageSize is a stream reader's maximum payload length when
// StreamOptions.MaxSize is 0: 64 MiB, as in every generated reader.
const DefaultMaxMessageSize = 64 << 20

func (o StreamOptions) maxSize() uint32 {
	if o.MaxSize == 0 {
		return DefaultMaxMessageSize
	}
	return o.MaxSize
}

// StreamOptions tune a stream reader.
type StreamOptions struct {
	Options
	// MaxSize is the largest payload length accepted, refused before it is
	// read (rule message); 0 means DefaultMaxMessageSize (docs/api.md,
	// "Options: one meaning in every language"). 4294967295 accepts every
	// payload the format can carry.
	MaxSize uint32
	// RequireHello refuses a stream whose first message is not a hello
	// (rule schema).
	RequireHello bool
}

// StreamMessage is one decoded message of a stream.
type StreamMessage struct {
	Index  int
	Offset int    // stream offset of its header
	Size   int    // header and payload
	Type   string // the struct's name
	JSON   []byte // the value in the JSON mapping, as Decode writes it
	// Hello reports a hello (the stream's first message, type id 0) whose
	// fingerprints agree with the schema; Type and JSON are empty then.
	Hello bool
}

// ReadStreamMessage reads message number index, which starts at data[off:]
// (the stream so far is data[:off]); typeName, if not empty, is the only
// struct accepted. off == len(data) is the end of the stream: nil, nil.
func ReadStreamMessage(s *schema.Schema, data []byte, off, index int, typeName string, opt StreamOptions) (*StreamMessage, error) {
	if off >= len(data) {
		return nil, nil
	}
	fail := func(at int, framed bool, rule, format string, args ...interface{}) error {
		return &StreamError{Index: index, Start: off, Framed: framed, DecodeError: &DecodeError{Offset: at, Rule: rule, Path: "message", Msg: fmt.Sprintf(format, args...)}}
	}
	rest := data[off:]
	if len(rest) < HeaderSize {
		return nil, fail(off, false, RuleTruncated, "the stream ends inside a message header: %d of %d bytes", len(rest), HeaderSize)
	}
	if string(rest[:4]) != Magic {
		return nil, fail(off, false, RuleMessage, "bad magic %x, want 53445032 (%q)", rest[:4], Magic)
	}
	n := binary.LittleEndian.Uint32(rest[6:])
	fits := uint64(n) <= uint64(len(rest)-HeaderSize)
	within := n <= opt.maxSize()
	id := binary.LittleEndian.Uint16(rest[4:])
	hello := id == HelloTypeID && index == 0
	if opt.RequireHello && index == 0 && !hello {
		return nil, fail(off+4, false, RuleSchema, "the stream does not start with a hello (type id 0), and this reader requires one")
	}
	if hello {
		// checked below, once the payload is read
	} else if id == HelloTypeID {
		return nil, fail(off+4, fits && within, RuleMessage, "a hello (type id 0) may only be a stream's first message; this is message #%d", index)
	} else if st := s.StructByID(id); st == nil {
		return nil, fail(off+4, fits && within, RuleMessage, "type id %d names no struct of schema %s", id, s.Name)
	} else if typeName != "" && st.Name != typeName {
		return nil, fail(off+4, fits && within, RuleMessage, "type id %d is %s, not %s", id, st.Name, typeName)
	}
	if !within {
		return nil, fail(off+6, false, RuleMessage, "payload length %d is over the reader's maximum of %d", n, opt.maxSize())
	}
	if !fits {
		return nil, fail(off+HeaderSize, false, RuleTruncated, "the stream ends inside a payload: the header declares %s, %s", plural(n, "byte", "bytes"), plural(len(rest)-HeaderSize, "follows", "follow"))
	}
	msg := rest[:HeaderSize+int(n)]
	if hello {
		if de := checkHello(s, msg); de != nil {
			de.Offset += off
			return nil, &StreamError{Index: index, Start: off, DecodeError: de}
		}
		return &StreamMessage{Index: index, Offset: off, Size: len(msg), Hello: true}, nil
	}
	var name string
	var js []byte
	var err error
	if typeName != "" {
		name = typeName
		js, err = DecodeMessageAs(s, typeName, msg, opt.Options)
	} else {
		name, js, err = DecodeMessage(s, msg, opt.Options)
	}
	if err != nil {
		de, ok := err.(*DecodeError)
		if !ok {
			return nil, err
		}
		moved := *de
		moved.Offset += off
		return nil, &StreamError{Index: index, Start: off, Framed: true, DecodeError: &moved}
	}
	return &StreamMessage{Index: index, Offset: off, Size: len(msg), Type: name, JSON: js}, nil
}
