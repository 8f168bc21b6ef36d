// Message: message headers, hellos, MessageWriter and MessageReader: the end of _message.go.

package rt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
)

// sdp:copy (the generator copies what follows this line)

// messageHeader checks a message's header and that its payload length is
// exactly the number of bytes after the header, and returns its type id.
func messageHeader(b []byte, typ string, want uint16) (uint16, error) {
	if len(b) < MessageHeaderSize {
		return 0, &DecodeError{Type: typ, Path: "message", Offset: 0, Rule: RuleTruncated,
			Msg: "a message header needs 10 bytes, got " + strconv.Itoa(len(b))}
	}
	if b[0] != 'S' || b[1] != 'D' || b[2] != 'P' || b[3] != '2' {
		return 0, &DecodeError{Type: typ, Path: "message", Offset: 0, Rule: RuleMessage, Msg: "bad magic (want \"SDP2\")"}
	}
	id := binary.LittleEndian.Uint16(b[4:])
	switch {
	case want != 0 && id != want:
		return 0, &DecodeError{Type: typ, Path: "message", Offset: 4, Rule: RuleMessage,
			Msg: "type id " + strconv.Itoa(int(id)) + " is not " + typ + " (" + strconv.Itoa(int(want)) + ")"}
	case want == 0 && !knownTypeID(id):
		return 0, &DecodeError{Path: "message", Offset: 4, Rule: RuleMessage, Msg: "unknown message type id " + strconv.Itoa(int(id))}
	}
	n := binary.LittleEndian.Uint32(b[6:])
	if uint64(n) != uint64(len(b)-MessageHeaderSize) {
		return 0, &DecodeError{Type: typ, Path: "message", Offset: 6, Rule: RuleMessage,
			Msg: "payload length " + strconv.FormatUint(uint64(n), 10) + " but " + strconv.Itoa(len(b)-MessageHeaderSize) + " bytes follow"}
	}
	return id, nil
}

// appendHeader appends a message header for a payload of n bytes.
func appendHeader(b []byte, id uint16, n int, e *encoder) []byte {
	if uint64(n) > 0xFFFFFFFF && e.err == nil {
		e.err = &EncodeError{Rule: RuleMessage, Path: "message", Msg: "a payload of " + strconv.FormatUint(uint64(n), 10) +
			" bytes, more than a message's 4294967295"}
	}
	b = append(b, 'S', 'D', 'P', '2')
	b = binary.LittleEndian.AppendUint16(b, id)
	return binary.LittleEndian.AppendUint32(b, uint32(n))
}

// maxPayload is a MaxSize of a MessageReader or MessageWriter as a limit:
// zero or less means DefaultMaxMessageSize.
func maxPayload(n int) uint64 {
	if n <= 0 {
		return DefaultMaxMessageSize
	}
	return uint64(n)
}

// HelloTypeID is the type id of a hello, the message a MessageWriter can
// start a stream with so that the reader checks that both programs were
// built from the same version of the schema (docs/wire-format.md, "The
// schema check (hello)"); no struct has it.
const HelloTypeID = 0

// WriteHello writes a hello: the fingerprint of every struct of the schema.
// Call it before the first message: a MessageReader built from another
// version of the schema then refuses the stream (rule RuleSchema) before
// any data is decoded. A stream without a hello is what SDP 0.2 writes.
func (w *MessageWriter) WriteHello() error {
	var e encoder
	b := appendHeader(w.buf[:0], HelloTypeID, 4+10*len(helloEntries), &e)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(helloEntries)))
	for _, h := range helloEntries {
		b = binary.LittleEndian.AppendUint16(b, h.id)
		b = binary.LittleEndian.AppendUint64(b, h.fingerprint)
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// checkHello checks the payload p of a hello against the schema; offsets
// count from the start of the message.
func checkHello(p []byte) *DecodeError {
	if len(p) < 4 {
		return &DecodeError{Path: "message", Offset: 6, Rule: RuleMessage, Msg: "a hello's payload is shorter than its count"}
	}
	n := binary.LittleEndian.Uint32(p)
	if uint64(len(p)) != 4+10*uint64(n) {
		return &DecodeError{Path: "message", Offset: 6, Rule: RuleMessage,
			Msg: "a hello of " + strconv.FormatUint(uint64(n), 10) + " structs has a payload of " + strconv.Itoa(len(p)) + " bytes"}
	}
	prev := -1
	for i := 0; i < int(n); i++ {
		at := 4 + 10*i
		id := binary.LittleEndian.Uint16(p[at:])
		if id == 0 || int(id) <= prev {
			return &DecodeError{Path: "message", Offset: MessageHeaderSize + at, Rule: RuleMessage,
				Msg: "hello entry " + strconv.Itoa(i) + " has type id " + strconv.Itoa(int(id)) + ": type ids must be above 0 and increasing"}
		}
		prev = int(id)
		theirs := binary.LittleEndian.Uint64(p[at+2:])
		for _, h := range helloEntries {
			if h.id == id && h.fingerprint != theirs {
				return &DecodeError{Type: h.name, Path: "message", Offset: MessageHeaderSize + at + 2, Rule: RuleSchema,
					Msg: "the writer's schema has another version of " + h.name + " (fingerprint " + hex64(theirs) +
						", here " + hex64(h.fingerprint) + "); compare the two schemas with sdp compat"}
			}
		}
	}
	return nil
}

func hex64(v uint64) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < 16 {
		s = "0" + s
	}
	return s
}

// MessageWriter writes messages to an io.Writer, one Write call per message,
// reusing one buffer.
type MessageWriter struct {
	// MaxSize is the largest payload written, in bytes: WriteMessage refuses
	// a larger message, which a MessageReader with the same MaxSize would
	// refuse, and writes nothing. Zero or less means DefaultMaxMessageSize.
	MaxSize int

	w   io.Writer
	buf []byte
}

// NewMessageWriter returns a MessageWriter writing to w, with MaxSize
// DefaultMaxMessageSize.
func NewMessageWriter(w io.Writer) *MessageWriter {
	return &MessageWriter{MaxSize: DefaultMaxMessageSize, w: w}
}

// WriteMessage encodes m as a message and writes it. A value with no
// encoding is m's *EncodeError, and a payload over MaxSize an *EncodeError
// with rule RuleMessage and path "message"; either way nothing is written
// and the writer can go on.
func (w *MessageWriter) WriteMessage(m Message) error {
	b, err := m.AppendMessage(w.buf[:0])
	if err != nil {
		return err
	}
	w.buf = b
	if n := uint64(len(b) - MessageHeaderSize); n > maxPayload(w.MaxSize) {
		return &EncodeError{Rule: RuleMessage, Path: "message", Msg: "a payload of " + strconv.FormatUint(n, 10) +
			" bytes is over the writer's maximum of " + strconv.FormatUint(maxPayload(w.MaxSize), 10)}
	}
	_, err = w.w.Write(b)
	return err
}

// MessageReader reads messages from an io.Reader one at a time. It reads
// exactly one message per call (wrap the reader in a bufio.Reader for small
// reads), keeps one buffer of the largest message so far, and refuses a
// declared payload length above MaxSize before allocating anything for it.
// From a reader with bufio.Reader's Peek and Discard methods, a message that
// fits in the reader's buffer is decoded where it lies there, without a copy
// into the MessageReader's own buffer.
type MessageReader struct {
	// MaxSize is the largest payload accepted, in bytes. Zero or less means
	// DefaultMaxMessageSize.
	MaxSize int
	// RequireHello refuses a stream that does not start with a hello
	// (rule RuleSchema): set it when the writer is known to send one.
	RequireHello bool
	// Options are the decode options used for every message. With
	// Options.Reuse, the reader keeps the last value of each type and decodes
	// the next message of that type into it: ReadMessage returns the same
	// pointer again, and a value is valid only until the next message of its
	// type is read.
	Options DecodeOptions

	r       io.Reader
	pk      peeker // r, when it can peek (a *bufio.Reader)
	buf     []byte
	kept    map[uint16]Message // with Options.Reuse: the last value of each type
	lastID  uint16             // with Options.Reuse: the type id of last
	last    Message            // with Options.Reuse: the value of the last message
	checked bool               // a hello agreed with the schema
	failed  *StreamError       // an error that ended the stream, returned again
	index   int                // the next message's index
	offset  int64              // the next message's stream offset
}

// peeker is the part of bufio.Reader that lets MessageReader decode a
// message in the reader's buffer: Peek returns the next n bytes without
// consuming them (bufio.ErrBufferFull if n is more than the buffer holds),
// Discard consumes them.
type peeker interface {
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
}

// NewMessageReader returns a MessageReader reading from r, with MaxSize
// DefaultMaxMessageSize.
func NewMessageReader(r io.Reader) *MessageReader {
	pk, _ := r.(peeker)
	return &MessageReader{MaxSize: DefaultMaxMessageSize, r: r, pk: pk}
}

// StreamError is the error of MessageReader.ReadMessage for a bad message:
// which message of the stream (from 0; a hello is message 0) and where.
// Err's offset counts from the start of the message; errors.As finds Err.
type StreamError struct {
	Index int
	// Start is the stream offset of the message's first byte (its header).
	Start int64
	// Offset is the stream offset of the problem: Start + Err.Offset.
	Offset int64
	Err    *DecodeError
	// Skippable reports that the reader read the whole message (a payload
	// its decoder rejects, an unknown type id, a hello after the first
	// message), so the next ReadMessage goes on with message Index+1. After
	// any other StreamError the stream cannot be followed: every further
	// ReadMessage returns that error again.
	Skippable bool
}

// Error implements error, in the layout of every language's stream error
// (docs/api.md, "One layout of error text"): "message <index> at stream
// offset <start>: " and Err's text, whose offset counts from the message's
// first byte.
func (e *StreamError) Error() string {
	return "message " + strconv.Itoa(e.Index) + " at stream offset " + strconv.FormatInt(e.Start, 10) + ": " + e.Err.Error()
}

// Unwrap returns the DecodeError.
func (e *StreamError) Unwrap() error { return e.Err }

// ReadMessage reads and decodes the next message. It returns io.EOF when the
// stream ends between messages, a *StreamError for a bad message or a stream
// that ends inside one (docs/wire-format.md, "Streams"), and read errors as
// they are. After a StreamError with Skippable (a bad payload, an unknown
// type id, a hello after the first message: the reader read the whole
// message) the next call goes on with the next message; after any other
// StreamError the stream cannot be followed, and every further call returns
// the same error again, never a message. The message does not alias the
// reader's buffer.
//
// A hello at the start of the stream (see WriteHello) is checked and not
// returned: if the writer's schema gives one of this schema's structs
// another fingerprint, ReadMessage fails with rule RuleSchema, naming the
// type, before any data is decoded.
func (r *MessageReader) ReadMessage() (Message, error) {
	if r.failed != nil {
		return nil, r.failed
	}
	for {
		m, n, hello, err := r.read()
		if err != nil {
			err = r.streamError(err, n)
		}
		if n > 0 {
			r.index++
			r.offset += int64(n)
		}
		if !hello || err != nil {
			return m, err
		}
		r.checked = true
	}
}

// streamError turns a *DecodeError of the message at r.index (n bytes long
// if it was read whole) into a *StreamError, which ends the stream if the
// message was not read whole; other errors are returned as they are. (Out
// of ReadMessage, so that the variable errors.As needs is allocated only
// for an error.)
func (r *MessageReader) streamError(err error, n int) error {
	var de *DecodeError
	if !errors.As(err, &de) {
		return err
	}
	se := &StreamError{Index: r.index, Start: r.offset, Offset: r.offset + int64(de.Offset), Err: de, Skippable: n > 0}
	if !se.Skippable {
		r.failed = se
	}
	return se
}

// SchemaChecked reports whether the stream began with a hello that agreed
// with this schema.
func (r *MessageReader) SchemaChecked() bool { return r.checked }

// read reads one message; n is its size when the whole message was read,
// hello reports a hello.
func (r *MessageReader) read() (m Message, n int, hello bool, err error) {
	m, n, hello, err = r.readMessage()
	return
}

func (r *MessageReader) readMessage() (Message, int, bool, error) {
	var hdr []byte
	if r.pk != nil {
		h, err := r.pk.Peek(MessageHeaderSize)
		if err != nil {
			if len(h) > 0 && err == io.EOF {
				_, _ = r.pk.Discard(len(h))
				return nil, 0, false, cutHeader()
			}
			return nil, 0, false, err
		}
		hdr = h
	} else {
		if cap(r.buf) < MessageHeaderSize {
			r.buf = make([]byte, MessageHeaderSize, 512)
		}
		hdr = r.buf[:MessageHeaderSize]
		if _, err := io.ReadFull(r.r, hdr); err != nil {
			if err == io.ErrUnexpectedEOF {
				return nil, 0, false, cutHeader()
			}
			return nil, 0, false, err
		}
	}
	if hdr[0] != 'S' || hdr[1] != 'D' || hdr[2] != 'P' || hdr[3] != '2' {
		return nil, 0, false, &DecodeError{Path: "message", Rule: RuleMessage, Msg: "bad magic (want \"SDP2\")"}
	}
	n := binary.LittleEndian.Uint32(hdr[6:])
	id := binary.LittleEndian.Uint16(hdr[4:])
	hello := id == HelloTypeID && r.index == 0
	if r.RequireHello && r.index == 0 && !hello {
		return nil, 0, false, &DecodeError{Path: "message", Offset: 4, Rule: RuleSchema,
			Msg: "the stream does not start with a hello (type id 0), and this reader requires one"}
	}
	if !hello && !knownTypeID(id) {
		err := &DecodeError{Path: "message", Offset: 4, Rule: RuleMessage, Msg: "unknown message type id " + strconv.Itoa(int(id))}
		if uint64(n) > maxPayload(r.MaxSize) {
			return nil, 0, false, err
		}
		// The payload is skipped, so the reader can go on after it.
		var skipped int64
		var serr error
		if r.pk != nil {
			_, _ = r.pk.Discard(MessageHeaderSize) // peeked: cannot fail
			var k int
			k, serr = r.pk.Discard(int(n))
			skipped = int64(k)
		} else {
			skipped, serr = io.CopyN(io.Discard, r.r, int64(n))
		}
		if serr != nil {
			if serr == io.EOF && skipped < int64(n) {
				return nil, 0, false, err
			}
			return nil, 0, false, serr
		}
		return nil, MessageHeaderSize + int(n), false, err
	}
	// (On a 32-bit host a message must also fit an int.)
	if uint64(n) > maxPayload(r.MaxSize) || uint64(n) > uint64(maxInt-MessageHeaderSize) {
		return nil, 0, false, &DecodeError{Path: "message", Offset: 6, Rule: RuleMessage,
			Msg: "payload length " + strconv.FormatUint(uint64(n), 10) + " exceeds the limit " + strconv.FormatUint(maxPayload(r.MaxSize), 10)}
	}
	size := MessageHeaderSize + int(n)
	b, peeked, err := r.payload(hdr, size)
	if err != nil {
		return nil, 0, false, err
	}
	m, size, hello, err := r.decode(b, id, hello)
	if peeked {
		// b lay in the peeker's buffer; the decoders copied what they keep.
		_, _ = r.pk.Discard(len(b))
	}
	return m, size, hello, err
}

// cutHeader and cutPayload are the errors of a stream that ends inside a
// message.
func cutHeader() *DecodeError {
	return &DecodeError{Path: "message", Rule: RuleTruncated, Msg: "the stream ends inside a message header"}
}

func cutPayload() *DecodeError {
	return &DecodeError{Path: "message", Offset: MessageHeaderSize, Rule: RuleTruncated, Msg: "the stream ends inside a message payload"}
}

// payload returns the whole message of size bytes whose header is hdr, and
// whether it lies in the peeker's buffer (the caller then discards it after
// decoding); a message larger than that buffer, or from a reader that cannot
// peek, is read into r.buf.
func (r *MessageReader) payload(hdr []byte, size int) ([]byte, bool, error) {
	if r.pk != nil {
		b, err := r.pk.Peek(size)
		if err == nil {
			return b, true, nil
		}
		if err != bufio.ErrBufferFull {
			if err == io.EOF {
				_, _ = r.pk.Discard(len(b))
				return nil, false, cutPayload()
			}
			return nil, false, err
		}
		// Peek may have moved the buffered bytes: peek at the header again.
		hdr, _ = r.pk.Peek(MessageHeaderSize)
		if cap(r.buf) < size {
			r.buf = make([]byte, size)
		}
		r.buf = r.buf[:size]
		copy(r.buf, hdr)
		_, _ = r.pk.Discard(MessageHeaderSize)
	} else if cap(r.buf) < size {
		buf := make([]byte, size)
		copy(buf, hdr)
		r.buf = buf
	}
	b := r.buf[:size]
	if _, err := io.ReadFull(r.r, b[MessageHeaderSize:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, false, cutPayload()
		}
		return nil, false, err
	}
	return b, false, nil
}

// decode decodes the whole message b of type id id (a hello if hello).
func (r *MessageReader) decode(b []byte, id uint16, hello bool) (Message, int, bool, error) {
	if hello {
		if err := checkHello(b[MessageHeaderSize:]); err != nil {
			return nil, 0, false, err
		}
		return nil, len(b), true, nil
	}
	if !r.Options.Reuse {
		m, err := DecodeMessageWith(b, r.Options)
		return m, len(b), false, err
	}
	m := r.last
	if m == nil || r.lastID != id {
		m = r.kept[id]
		if m == nil {
			if r.kept == nil {
				r.kept = make(map[uint16]Message)
			}
			m = NewMessage(id)
			r.kept[id] = m
		}
		r.lastID, r.last = id, m
	}
	if err := m.UnmarshalMessageWith(b, r.Options); err != nil {
		return nil, len(b), false, err
	}
	return m, len(b), false, nil
}
