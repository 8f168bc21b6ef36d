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
	p.Line(rtSource("message.go"))
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
		p.P("n := m.encodedSize()")
		p.P("if n > int64(maxInt-MessageHeaderSize-len(b)) {")
		p.P("\treturn b, sizeError(n)")
		p.P("}")
		p.P("start := len(b)")
		p.P("var e encoder")
		p.F("b = appendHeader(grow(b, MessageHeaderSize+int(n)), %s, int(n), &e)", id)
		p.P("b = m.encode(b, &e)")
		p.P("if e.err != nil {")
		p.P("\treturn b[:start], e.error(m.check)")
		p.P("}")
		p.P("return b, nil")
	})
	p.P()
	p.P("// EncodedMessageSize returns the number of bytes MarshalMessage produces:")
	p.P("// MessageHeaderSize more than EncodedSize, or -1 when that is more than an")
	p.P("// int holds (possible on a 32-bit host only).")
	p.F("func (m *%s) EncodedMessageSize() int { return sizeInt(MessageHeaderSize + m.encodedSize()) }", name)
	p.P()
	p.P("// MarshalMessage returns m framed as a message, in one allocation of the exact")
	p.P("// size.")
	p.Block("func (m *"+name+") MarshalMessage() ([]byte, error) {", "}", func() {
		p.P("n := m.encodedSize()")
		p.P("if n > int64(maxInt-MessageHeaderSize) {")
		p.P("\treturn nil, sizeError(n)")
		p.P("}")
		p.P("var e encoder")
		p.F("b := appendHeader(make([]byte, 0, MessageHeaderSize+int(n)), %s, int(n), &e)", id)
		p.P("b = m.encode(b, &e)")
		p.P("if e.err != nil {")
		p.P("\treturn nil, e.error(m.check)")
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

// sortedByID returns the structs ordered by message type id.
func sortedByID(structs []*schema.Struct) []*schema.Struct {
	out := append([]*schema.Struct(nil), structs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
