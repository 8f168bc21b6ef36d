package golang

import (
	"sort"

	"sdp/gen/emit"
	"sdp/schema"
)

func (g *generator) emitMessages(p *emit.Printer) []string {
	p.P("// MessageHeaderSize is the size of a message header: the magic \"SDP2\", the u16")
	p.P("// type id and the u32 payload length.")
	p.P("const MessageHeaderSize = 10")
	p.P()
	p.P("// DefaultMaxMessageSize is the largest payload a MessageReader accepts unless")
	p.P("// its MaxSize says otherwise: 64 MiB.")
	p.P("const DefaultMaxMessageSize = 64 << 20")
	p.P()
	if len(g.s.Structs) > 0 {
		p.P("// The message type ids of the structs.")
		p.Block("const (", ")", func() {
			for _, st := range g.s.Structs {
				p.F("// %s is the message type id of %s.", g.names.typeID[st], g.names.decl[st])
				p.F("%s uint16 = %d", g.names.typeID[st], st.ID)
			}
		})
		p.P()
	}
	p.P("// Message is a struct of the schema that can travel as a message: every")
	p.P("// struct type (as a pointer) implements it. DecodeMessage returns one; use a")
	p.P("// type switch to find out which.")
	p.Block("type Message interface {", "}", func() {
		p.P("encoding.BinaryMarshaler")
		p.P("encoding.BinaryUnmarshaler")
		p.P("// MessageTypeID returns the struct's message type id.")
		p.P("MessageTypeID() uint16")
		p.P("// AppendMessage appends the value framed as a message to b.")
		p.P("AppendMessage(b []byte) ([]byte, error)")
		p.P("// MarshalMessage returns the value framed as a message.")
		p.P("MarshalMessage() ([]byte, error)")
		p.P("// EncodedMessageSize returns the number of bytes MarshalMessage produces.")
		p.P("EncodedMessageSize() int")
		p.P("// UnmarshalMessage decodes a message that must carry this type.")
		p.P("UnmarshalMessage(b []byte) error")
		p.P("// UnmarshalMessageWith is UnmarshalMessage with options.")
		p.P("UnmarshalMessageWith(b []byte, opts DecodeOptions) error")
	})
	p.P()
	p.P("// NewMessage returns a new zero value of the struct whose message type id is")
	p.P("// typeID, or nil if the schema has no such struct.")
	p.Block("func NewMessage(typeID uint16) Message {", "}", func() {
		if len(g.s.Structs) > 0 {
			p.P("switch typeID {")
			for _, st := range g.s.Structs {
				p.F("case %s:", g.names.typeID[st])
				p.F("\treturn new(%s)", g.names.decl[st])
			}
			p.P("}")
		}
		p.P("return nil")
	})
	p.P()
	p.P("// DecodeMessage decodes a message of any struct of the schema with the default")
	p.P("// options. b must hold exactly one message.")
	p.P("func DecodeMessage(b []byte) (Message, error) { return DecodeMessageWith(b, DecodeOptions{}) }")
	p.P()
	p.P("// DecodeMessageWith is DecodeMessage with options.")
	p.Block("func DecodeMessageWith(b []byte, opts DecodeOptions) (Message, error) {", "}", func() {
		p.P(`id, err := messageHeader(b, "", 0)`)
		p.P("if err != nil {")
		p.P("\treturn nil, err")
		p.P("}")
		if len(g.s.Structs) == 0 {
			p.P(`return nil, &DecodeError{Path: "message", Offset: 4, Rule: RuleMessage, Msg: "unknown message type id " + strconv.Itoa(int(id))}`)
			return
		}
		p.P("var d decoder")
		p.P("d.init(b, MessageHeaderSize, opts.maxDepth(), opts.memoryLimit(len(b)-MessageHeaderSize))")
		p.P("var m Message")
		p.P("var name string")
		p.P("switch id {")
		for _, st := range g.s.Structs {
			p.F("case %s:", g.names.typeID[st])
			p.In()
			p.F("v := new(%s)", g.names.decl[st])
			p.P("v.decode(&d)")
			p.F("m, name = v, %q", st.Name)
			p.Out()
		}
		p.P("default:")
		p.P(`	return nil, &DecodeError{Path: "message", Offset: 4, Rule: RuleMessage, Msg: "unknown message type id " + strconv.Itoa(int(id))}`)
		p.P("}")
		p.P("if d.err != nil {")
		p.P("\treturn nil, d.finish(name)")
		p.P("}")
		p.P("if d.off != len(b) {")
		p.P("\treturn nil, trailingError(name, d.off, len(b))")
		p.P("}")
		p.P("return m, nil")
	})
	p.P()
	p.P("// DecodeMessageInto decodes the message in b (exactly one) into m when m is")
	p.P("// a value of the struct its header names, reusing m's strings, slices and")
	p.P("// boxes as DecodeOptions.Reuse does, and returns m; when m is nil or of")
	p.P("// another type it returns a new value, as DecodeMessageWith does. m must be")
	p.P("// nil or a non-nil pointer. On an error it returns nil, and an m decoded")
	p.P("// into holds its zero value.")
	p.Block("func DecodeMessageInto(b []byte, m Message, opts DecodeOptions) (Message, error) {", "}", func() {
		p.P("if m == nil {")
		p.P("\treturn DecodeMessageWith(b, opts)")
		p.P("}")
		p.P(`id, err := messageHeader(b, "", 0)`)
		p.P("if err != nil {")
		p.P("\treturn nil, err")
		p.P("}")
		p.P("if id != m.MessageTypeID() {")
		p.P("\treturn DecodeMessageWith(b, opts)")
		p.P("}")
		p.P("opts.Reuse = true")
		p.P("if err := m.UnmarshalMessageWith(b, opts); err != nil {")
		p.P("\treturn nil, err")
		p.P("}")
		p.P("return m, nil")
	})
	p.P()
	p.P("// knownTypeID reports whether a struct of the schema has message type id id.")
	p.Block("func knownTypeID(id uint16) bool {", "}", func() {
		if len(g.s.Structs) == 0 {
			p.P("return false")
			return
		}
		p.P("switch id {")
		list := ""
		for i, st := range g.s.Structs {
			if i > 0 {
				list += ", "
			}
			list += g.names.typeID[st]
		}
		p.P("case ", list, ":")
		p.P("\treturn true")
		p.P("}")
		p.P("return false")
	})
	p.P()
	p.P("// helloEntries are the structs of the schema by type id, with their")
	p.P("// fingerprints: what a hello lists.")
	p.P("var helloEntries = []struct {")
	p.P("\tid          uint16")
	p.P("\tfingerprint uint64")
	p.P("\tname        string")
	p.P("}{")
	for _, st := range sortedByID(g.s.Structs) {
		p.F("\t{%s, %s, %q},", g.names.typeID[st], g.names.fingerprint[st], st.Name)
	}
	p.P("}")
	p.P()
	p.Line(messageRuntime)
	for _, st := range g.s.Structs {
		g.emitStructMessage(p, st)
	}
	return []string{"bufio", "encoding", "encoding/binary", "errors", "io", "strconv"}
}

func (g *generator) emitStructMessage(p *emit.Printer, st *schema.Struct) {
	name, id := g.names.decl[st], g.names.typeID[st]
	p.F("// MessageTypeID returns %s, the message type id of %s.", id, name)
	p.F("func (*%s) MessageTypeID() uint16 { return %s }", name, id)
	p.P()
	p.F("// AppendMessage appends m framed as a message (header, then payload) to b;")
	p.P("// it grows b at most once. On error it returns b unchanged.")
	p.Block("func (m *"+name+") AppendMessage(b []byte) ([]byte, error) {", "}", func() {
		p.P("start := len(b)")
		p.P("n := m.EncodedSize()")
		p.P("var e encoder")
		p.F("b = appendHeader(grow(b, MessageHeaderSize+n), %s, n, &e)", id)
		p.P("b = m.encode(b, &e)")
		p.P("if e.err != nil {")
		p.P("\treturn b[:start], e.err")
		p.P("}")
		p.P("return b, nil")
	})
	p.P()
	p.P("// EncodedMessageSize returns the number of bytes MarshalMessage produces:")
	p.P("// MessageHeaderSize more than EncodedSize.")
	p.F("func (m *%s) EncodedMessageSize() int { return MessageHeaderSize + m.EncodedSize() }", name)
	p.P()
	p.P("// MarshalMessage returns m framed as a message, in one allocation of the exact")
	p.P("// size.")
	p.Block("func (m *"+name+") MarshalMessage() ([]byte, error) {", "}", func() {
		p.P("n := m.EncodedSize()")
		p.P("var e encoder")
		p.F("b := appendHeader(make([]byte, 0, MessageHeaderSize+n), %s, n, &e)", id)
		p.P("b = m.encode(b, &e)")
		p.P("if e.err != nil {")
		p.P("\treturn nil, e.err")
		p.P("}")
		p.P("return b, nil")
	})
	p.P()
	p.F("// UnmarshalMessage decodes a message that must carry a %s and fill b exactly,", name)
	p.P("// with the default options.")
	p.F("func (m *%s) UnmarshalMessage(b []byte) error { return m.UnmarshalMessageWith(b, DecodeOptions{}) }", name)
	p.P()
	p.P("// UnmarshalMessageWith is UnmarshalMessage with options (the depth limit).")
	p.Block("func (m *"+name+") UnmarshalMessageWith(b []byte, opts DecodeOptions) error {", "}", func() {
		p.F("if _, err := messageHeader(b, %q, %s); err != nil {", st.Name, id)
		p.F("\t*m = %s{}", name)
		p.P("\treturn err")
		p.P("}")
		p.P("if !opts.Reuse {")
		p.F("\t*m = %s{}", name)
		p.P("}")
		p.P("var d decoder")
		p.P("d.init(b, MessageHeaderSize, opts.maxDepth(), opts.memoryLimit(len(b)-MessageHeaderSize))")
		p.P("m.decode(&d)")
		p.P("if d.err != nil {")
		p.F("\t*m = %s{} // a failed decode leaves the zero value", name)
		p.F("\treturn d.finish(%q)", st.Name)
		p.P("}")
		p.P("if d.off != len(b) {")
		p.F("\t*m = %s{}", name)
		p.F("\treturn trailingError(%q, d.off, len(b))", st.Name)
		p.P("}")
		p.P("return nil")
	})
	p.P()
}

const messageRuntime = `// messageHeader checks a message's header and that its payload length is
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
	if uint64(n) > 0xFFFFFFFF {
		e.fail("message", "payload larger than 4 GiB")
	}
	b = append(b, 'S', 'D', 'P', '2')
	b = binary.LittleEndian.AppendUint16(b, id)
	return binary.LittleEndian.AppendUint32(b, uint32(n))
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
	// refuse, and writes nothing.
	MaxSize int

	w   io.Writer
	buf []byte
}

// NewMessageWriter returns a MessageWriter writing to w, with MaxSize
// DefaultMaxMessageSize.
func NewMessageWriter(w io.Writer) *MessageWriter {
	return &MessageWriter{MaxSize: DefaultMaxMessageSize, w: w}
}

// WriteMessage encodes m as a message and writes it. A payload over MaxSize
// is an *EncodeError and nothing is written; the writer can go on.
func (w *MessageWriter) WriteMessage(m Message) error {
	b, err := m.AppendMessage(w.buf[:0])
	if err != nil {
		return err
	}
	w.buf = b
	if n := len(b) - MessageHeaderSize; n > w.MaxSize {
		return &EncodeError{Field: "message", Msg: "a payload of " + strconv.Itoa(n) + " bytes is over the writer's MaxSize of " + strconv.Itoa(w.MaxSize)}
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
	// MaxSize is the largest payload accepted, in bytes.
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
// which message of the stream (from 0) and where, counted from the start of
// the stream. Err's offset counts from the start of the message; errors.As
// finds Err.
type StreamError struct {
	Index  int
	Offset int64
	Err    *DecodeError
	// Skippable reports that the reader read the whole message (a payload
	// its decoder rejects, an unknown type id, a hello after the first
	// message), so the next ReadMessage goes on with message Index+1. After
	// any other StreamError the stream cannot be followed: every further
	// ReadMessage returns that error again.
	Skippable bool
}

func (e *StreamError) Error() string {
	return "message #" + strconv.Itoa(e.Index) + " at stream offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Err.Error()
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
	se := &StreamError{Index: r.index, Offset: r.offset + int64(de.Offset), Err: de, Skippable: n > 0}
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
		if uint64(n) > uint64(r.MaxSize) {
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
	if uint64(n) > uint64(r.MaxSize) {
		return nil, 0, false, &DecodeError{Path: "message", Offset: 6, Rule: RuleMessage,
			Msg: "payload length " + strconv.FormatUint(uint64(n), 10) + " exceeds the limit " + strconv.Itoa(r.MaxSize)}
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
`

// sortedByID returns the structs ordered by message type id.
func sortedByID(structs []*schema.Struct) []*schema.Struct {
	out := append([]*schema.Struct(nil), structs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
