package rust

import (
	"fmt"
	"sort"

	"sdp/schema"
)

// messagesRs emits message mode: type ids, per-struct message encoding and
// decoding, the Message and MessageRef enums, and the stream reader.
func (g *generator) messagesRs() []byte {
	docs := []string{
		"Messages: a 10-byte header (`SDP2`, u16 type id, u32 payload length)",
		"before a struct, so a reader can tell which type follows.",
	}
	return g.module(docs, []string{"crate::rt", "crate::types::*", "crate::views::*"}, func(p *printer) {
		for _, st := range g.s.Structs {
			g.structMessage(p, st)
			p.P()
			g.sdpMessageImpl(p, st)
			p.P()
		}
		g.messageEnum(p)
		p.P()
		g.messageRefEnum(p)
		p.P()
		g.hello(p)
		p.P()
		g.messageReader(p)
		p.P()
		g.messageWriter(p)
	})
}

// hello emits the schema check of streams (docs/wire-format.md, "The schema
// check (hello)"): the table of the structs by type id with their
// fingerprints, and the functions that encode and write the hello.
func (g *generator) hello(p *printer) {
	structs := append([]*schema.Struct(nil), g.s.Structs...)
	sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
	p.P("/// The structs of the schema by type id, with their fingerprints: what a")
	p.P("/// hello lists.")
	p.Block("pub const HELLO_ENTRIES: &[rt::HelloEntry] = &[", "];", func() {
		for _, st := range structs {
			n := g.name[st]
			p.Block("rt::HelloEntry {", "},", func() {
				p.F("type_id: %s::TYPE_ID,", n)
				p.F("fingerprint: %s::FINGERPRINT,", n)
				p.F("name: %q,", st.Name)
			})
		}
	})
	p.P()
	p.P("/// Appends the hello of the schema: a message of type id")
	p.P("/// [`rt::HELLO_TYPE_ID`] listing the fingerprint of every struct.")
	p.Block("pub fn encode_hello_into(out: "+outVec+") {", "}", func() {
		p.P("rt::put_hello(out, HELLO_ENTRIES);")
	})
	p.P()
	p.P("/// The hello of the schema (see [`write_hello`]).")
	p.Block("pub fn encode_hello() -> "+stdVec+"<u8> {", "}", func() {
		p.P("let mut out = ", stdVec, "::new();")
		p.P("encode_hello_into(&mut out);")
		p.P("out")
	})
	p.P()
	p.P("/// Writes the hello of the schema to `w`. Call it before the first message:")
	p.P("/// a [`MessageReader`] built from another version of the schema then refuses")
	p.P("/// the stream (rule `schema`) before any data is decoded. A stream without a")
	p.P("/// hello is what SDP 0.2 writes.")
	p.Fn("pub fn write_hello<W: ::std::io::Write + ?::core::marker::Sized>", []string{"w: &mut W"}, "::std::io::Result<()>", func() {
		p.P("::std::io::Write::write_all(w, &encode_hello())")
	})
}

func (g *generator) structMessage(p *printer, st *schema.Struct) {
	name := g.name[st]
	p.Block("impl "+name+" {", "}", func() {
		p.F("/// The message type id of [`%s`].", name)
		p.F("pub const TYPE_ID: u16 = %d;", st.ID)
		p.P()
		p.P("/// Appends the value as a message: header, then payload.")
		p.Block("pub fn encode_message_into(&self, out: "+outVec+") {", "}", func() {
			p.P("let size = self.encoded_size();")
			p.P("out.reserve(size.saturating_add(rt::MESSAGE_HEADER_SIZE));")
			p.P("rt::put_message_header(out, Self::TYPE_ID, size);")
			p.P("self.encode_raw(out);")
		})
		p.P()
		p.P("/// Encodes the value as a message: header, then payload.")
		p.Block("pub fn encode_message(&self) -> "+stdVec+"<u8> {", "}", func() {
			p.P("let mut out = ", stdVec, "::new();")
			p.P("self.encode_message_into(&mut out);")
			p.P("out")
		})
		p.P()
		p.P("/// Appends the value as a message, or returns an error, appending nothing,")
		p.P("/// for a value that cannot be encoded (see `try_encode`) or a payload")
		p.P("/// larger than the header's u32 length allows (rule `message`).")
		p.Fn("pub fn try_encode_message_into", []string{"&self", "out: " + outVec}, "::core::result::Result<(), rt::EncodeError>", func() {
			p.P("let size = self.encoded_size();")
			p.P("rt::check_payload(size, || self.check_lengths())?;")
			p.P("out.reserve(size.saturating_add(rt::MESSAGE_HEADER_SIZE));")
			p.P("rt::put_message_header(out, Self::TYPE_ID, size);")
			p.P("self.encode_raw(out);")
			p.P("Ok(())")
		})
		p.P()
		p.F("/// Encodes the value as a message, or returns an error (see")
		p.F("/// [`%s::try_encode_message_into`]).", name)
		p.Fn("pub fn try_encode_message", []string{"&self"}, "::core::result::Result<"+stdVec+"<u8>, rt::EncodeError>", func() {
			p.P("let mut out = ", stdVec, "::new();")
			p.P("self.try_encode_message_into(&mut out)?;")
			p.P("Ok(out)")
		})
		p.P()
		p.P("/// Writes the value as a message to `w`; a value that cannot be encoded is")
		p.P("/// an [`::std::io::ErrorKind::InvalidInput`] error.")
		p.Fn("pub fn write_message_to<W: ::std::io::Write + ?::core::marker::Sized>", []string{"&self", "w: &mut W"}, "::std::io::Result<()>", func() {
			p.P("::std::io::Write::write_all(w, &self.try_encode_message()?)")
		})
		p.P()
		p.F("/// Decodes a message that holds a [`%s`] and nothing else.", name)
		p.Block("pub fn decode_message(bytes: &[u8]) -> rt::DecodeResult<Self> {", "}", func() {
			p.P("Self::decode_message_with(bytes, rt::DecodeOptions::new())")
		})
		p.P()
		p.F("/// Decodes a message that holds a [`%s`], with the given options.", name)
		p.Fn("pub fn decode_message_with", []string{"bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
			p.P("let payload = rt::expect_message(bytes, Self::TYPE_ID)?;")
			p.P("rt::decode_payload(payload, opts, Self::read)")
		})
		p.P()
		p.P("/// Decodes a message payload into `self` (resetting it on an error).")
		p.P("#[doc(hidden)]")
		p.Fn("pub fn decode_payload_into", []string{"&mut self", "payload: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<()>", func() {
			p.P("rt::decode_payload_into(payload, opts, self, Self::read_into)")
		})
	})
}

// allowLarge keeps clippy from asking to box large variants of the
// generated enums: boxing would cost an allocation per decoded value.
const allowLarge = "#[allow(clippy::large_enum_variant)]"

func (g *generator) messageEnum(p *printer) {
	p.P("/// Any message of the schema: what [`decode_message`] returns.")
	p.P("#[derive(Debug, Clone, PartialEq)]")
	p.P(allowLarge)
	p.Block("pub enum Message {", "}", func() {
		for _, st := range g.s.Structs {
			p.F("/// A [`%s`] (type id %d).", g.name[st], st.ID)
			p.F("%s(%s),", g.name[st], g.name[st])
		}
	})
	p.P()
	p.Block("impl Message {", "}", func() {
		p.P("/// The message type id of the value.")
		p.Block("pub fn message_type_id(&self) -> u16 {", "}", func() {
			p.Block("match self {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(_) => %s::TYPE_ID,", g.name[st], g.name[st])
				}
			})
		})
		p.P()
		p.P("/// The schema name of the struct whose message type id is `type_id`, if")
		p.P("/// the schema has one.")
		p.Block("pub const fn type_name(type_id: u16) -> "+stdOption+"<&'static str> {", "}", func() {
			p.Block("match type_id {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("%s::TYPE_ID => Some(%q),", g.name[st], st.Name)
				}
				p.P("_ => None,")
			})
		})
		p.P()
		p.P("/// Decodes a message of any type of the schema, with the default options.")
		p.Block("pub fn decode(bytes: &[u8]) -> rt::DecodeResult<Self> {", "}", func() {
			p.P("Self::decode_with(bytes, rt::DecodeOptions::new())")
		})
		p.P()
		p.P("/// Decodes a message of any type of the schema, with the given options.")
		p.Fn("pub fn decode_with", []string{"bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
			p.P("let (type_id, payload) = rt::split_known_message(bytes, Message::type_name)?;")
			p.P("Self::decode_payload(type_id, payload, opts)")
		})
		p.P()
		p.P("/// Decodes the payload of a message whose header named `type_id`.")
		p.Fn("pub fn decode_payload", []string{"type_id: u16", "payload: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
			dispatch(p, g, func(st *schema.Struct) string { return g.name[st] })
		})
		p.P()
		g.messageInto(p)
		p.P()
		p.P("/// The size of the whole message, header included.")
		p.Block("pub fn encoded_size(&self) -> usize {", "}", func() {
			p.Block("let payload = match self {", "};", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(v) => v.encoded_size(),", g.name[st])
				}
			})
			p.P("rt::MESSAGE_HEADER_SIZE + payload")
		})
		p.P()
		p.P("/// Appends the message: header, then payload.")
		p.Block("pub fn encode(&self, out: "+outVec+") {", "}", func() {
			p.Block("match self {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(v) => v.encode_message_into(out),", g.name[st])
				}
			})
		})
		p.P()
		p.P("/// Encodes the message into a new vector.")
		p.Block("pub fn encode_to_vec(&self) -> "+stdVec+"<u8> {", "}", func() {
			p.P("let mut out = ", stdVec, "::with_capacity(self.encoded_size());")
			p.P("self.encode(&mut out);")
			p.P("out")
		})
		p.P()
		p.P("/// Appends the message, or returns an error, appending nothing, when its")
		p.P("/// payload is larger than the header's u32 length allows.")
		p.Fn("pub fn try_encode", []string{"&self", "out: " + outVec}, "::core::result::Result<(), rt::EncodeError>", func() {
			p.Block("match self {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(v) => v.try_encode_message_into(out),", g.name[st])
				}
			})
		})
		p.P()
		p.P("/// Encodes the message into a new vector, or returns an error (see")
		p.P("/// [`Message::try_encode`]).")
		p.Fn("pub fn try_encode_to_vec", []string{"&self"}, "::core::result::Result<"+stdVec+"<u8>, rt::EncodeError>", func() {
			p.P("let mut out = ", stdVec, "::new();")
			p.P("self.try_encode(&mut out)?;")
			p.P("Ok(out)")
		})
		p.P()
		p.P("/// Writes the message to `w`; a message that cannot be encoded is an")
		p.P("/// [`::std::io::ErrorKind::InvalidInput`] error.")
		p.Fn("pub fn write_to<W: ::std::io::Write + ?::core::marker::Sized>", []string{"&self", "w: &mut W"}, "::std::io::Result<()>", func() {
			p.P("::std::io::Write::write_all(w, &self.try_encode_to_vec()?)")
		})
	})
	p.P()
	p.Block("impl rt::EncodeMessage for Message {", "}", func() {
		p.Fn("fn try_encode_message_into", []string{"&self", "out: " + outVec}, "::core::result::Result<(), rt::EncodeError>", func() {
			p.P("self.try_encode(out)")
		})
	})
	for _, st := range g.s.Structs {
		p.P()
		n := g.name[st]
		p.Block(fmt.Sprintf("impl ::core::convert::From<%s> for Message {", n), "}", func() {
			p.Block(fmt.Sprintf("fn from(v: %s) -> Self {", n), "}", func() {
				p.F("Self::%s(v)", n)
			})
		})
	}
	p.P()
	p.P("/// Decodes a message of any type of the schema, with the default options.")
	p.Block("pub fn decode_message(bytes: &[u8]) -> rt::DecodeResult<Message> {", "}", func() {
		p.P("Message::decode(bytes)")
	})
	p.P()
	p.P("/// Decodes a message of any type of the schema, with the given options.")
	p.Fn("pub fn decode_message_with", []string{"bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Message>", func() {
		p.P("Message::decode_with(bytes, opts)")
	})
}

func (g *generator) messageRefEnum(p *printer) {
	borrows := false
	for _, st := range g.s.Structs {
		borrows = borrows || g.hasView[st]
	}
	if !borrows {
		// No message borrows from the input (an enum over the owned
		// types would not use its lifetime): the view is the owned enum.
		p.P("/// A borrowed view of any message of the schema: no message holds strings")
		p.P("/// or arrays, so it is [`Message`] itself.")
		p.P("pub type MessageRef<'a> = Message;")
		p.P()
		p.Block("impl Message {", "}", func() {
			p.P("/// The owned value: [`Message`] is its own view.")
			p.Block("pub fn to_owned_value(&self) -> Self {", "}", func() { p.P("self.clone()") })
		})
		return
	}
	copyAll := true
	for _, st := range g.s.Structs {
		if g.hasView[st] {
			copyAll = copyAll && g.viewCopy[st]
		} else {
			copyAll = copyAll && g.ownedCopy[st]
		}
	}
	p.P("/// A borrowed view of any message of the schema.")
	if copyAll {
		p.P("#[derive(Debug, Clone, Copy, PartialEq)]")
	} else {
		p.P("#[derive(Debug, Clone, PartialEq)]")
	}
	p.P(allowLarge)
	p.Block("pub enum MessageRef<'a> {", "}", func() {
		for _, st := range g.s.Structs {
			p.F("/// A view of a [`%s`] (type id %d).", g.name[st], st.ID)
			p.F("%s(%s<'a>),", g.name[st], g.view[st])
		}
	})
	p.P()
	p.Block("impl<'a> MessageRef<'a> {", "}", func() {
		p.P("/// The message type id of the value.")
		p.Block("pub fn message_type_id(&self) -> u16 {", "}", func() {
			p.Block("match self {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(_) => %s::TYPE_ID,", g.name[st], g.name[st])
				}
			})
		})
		p.P()
		p.P("/// Decodes a view of a message of any type of the schema.")
		p.Block("pub fn decode(bytes: &'a [u8]) -> rt::DecodeResult<Self> {", "}", func() {
			p.P("Self::decode_with(bytes, rt::DecodeOptions::new())")
		})
		p.P()
		p.P("/// Decodes a view of a message of any type, with the given options.")
		p.Fn("pub fn decode_with", []string{"bytes: &'a [u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
			p.P("let (type_id, payload) = rt::split_known_message(bytes, Message::type_name)?;")
			dispatch(p, g, func(st *schema.Struct) string { return g.viewName(st) })
		})
		p.P()
		p.P("/// Copies the view into an owned [`Message`].")
		self := "self"
		if !copyAll {
			self = "&self"
		}
		p.Block("pub fn to_owned_value("+self+") -> Message {", "}", func() {
			p.Block("match self {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("Self::%s(v) => Message::%s(v.to_owned_value()),", g.name[st], g.name[st])
				}
			})
		})
	})
}

func (g *generator) messageReader(p *printer) {
	p.P("/// Reads messages one at a time from a byte stream. A message whose")
	p.P("/// declared payload exceeds the maximum size is refused before anything")
	p.P("/// is allocated for it; memory grows only with the bytes that arrive.")
	p.P("///")
	p.P("/// A bad message is a [`rt::StreamError::Decode`] whose error names the")
	p.P("/// message's index in the stream (from 0, [`rt::DecodeError::message_index`])")
	p.P("/// and counts its offset from the start of the stream. After a payload")
	p.P("/// that fails to decode, or an unknown type id (or a hello after the first")
	p.P("/// message) whose payload is complete and within the maximum, the reader")
	p.P("/// has read the whole message ([`rt::StreamError::is_skippable`]) and the")
	p.P("/// next read goes on with the next one; after any other error (a bad")
	p.P("/// header, a payload above the maximum, a stream that ends inside a")
	p.P("/// message, a refused hello, an I/O error) the stream cannot be followed:")
	p.P("/// every further `read_message` returns the same error again, and the")
	p.P("/// iterator, having yielded it once, ends (so that a `for` loop stops).")
	p.P("///")
	p.P("/// A hello that starts the stream (see [`write_hello`]) is checked and not")
	p.P("/// returned; the next message has index 1. If the writer's schema gives one")
	p.P("/// of this schema's structs another fingerprint, the reader fails with rule")
	p.P("/// `schema` ([`rt::DecodeErrorKind::SchemaMismatch`], naming the type) before")
	p.P("/// any data is decoded, and the stream ends there.")
	p.P("#[derive(Debug)]")
	p.Block("pub struct MessageReader<R> {", "}", func() {
		p.P("inner: R,")
		p.P("buf: ", stdVec, "<u8>,")
		p.P("max_size: usize,")
		p.P("opts: rt::DecodeOptions,")
		p.P("require_hello: bool,")
		p.P("position: rt::StreamPosition,")
	})
	p.P()
	p.Block("impl<R: ::std::io::Read> MessageReader<R> {", "}", func() {
		p.P("/// A reader with the default maximum payload size")
		p.P("/// ([`rt::DEFAULT_MAX_MESSAGE_SIZE`]) and decode options.")
		p.Block("pub fn new(inner: R) -> Self {", "}", func() {
			p.Block("MessageReader {", "}", func() {
				p.P("inner,")
				p.P("buf: ", stdVec, "::new(),")
				p.P("max_size: rt::DEFAULT_MAX_MESSAGE_SIZE,")
				p.P("opts: rt::DecodeOptions::new(),")
				p.P("require_hello: false,")
				p.P("position: rt::StreamPosition::default(),")
			})
		})
		p.P()
		p.P("/// Sets the largest payload accepted, in bytes; 0 means the default")
		p.P("/// ([`rt::DEFAULT_MAX_MESSAGE_SIZE`]).")
		p.Block("pub fn with_max_size(mut self, max_size: usize) -> Self {", "}", func() {
			p.P("self.max_size = rt::max_size_or_default(max_size);")
			p.P("self")
		})
		p.P()
		p.P("/// Sets the decode options (depth and memory limits).")
		p.Block("pub fn with_options(mut self, opts: rt::DecodeOptions) -> Self {", "}", func() {
			p.P("self.opts = opts;")
			p.P("self")
		})
		p.P()
		p.P("/// With `true`, refuses a stream whose first message is not a hello")
		p.P("/// ([`rt::DecodeErrorKind::HelloRequired`], rule `schema`): set it when the")
		p.P("/// writer is known to send one. An empty stream is not refused.")
		p.Block("pub fn with_require_hello(mut self, require: bool) -> Self {", "}", func() {
			p.P("self.require_hello = require;")
			p.P("self")
		})
		p.P()
		p.P("/// Whether the stream began with a hello that agreed with this schema.")
		p.Block("pub fn schema_checked(&self) -> bool {", "}", func() {
			p.P("self.position.schema_checked()")
		})
		p.P()
		p.P("/// Reads the next message; `None` at the end of the stream (between two")
		p.P("/// messages). After an error that is not skippable, every call returns")
		p.P("/// that error again.")
		p.Fn("pub fn read_message", []string{"&mut self"}, "::core::result::Result<"+stdOption+"<Message>, rt::StreamError>", func() {
			p.P("let frame = rt::read_frame(")
			p.In()
			p.P("&mut self.inner,")
			p.P("&mut self.buf,")
			p.P("self.max_size,")
			p.P("|id| Message::type_name(id).is_some(),")
			p.P("HELLO_ENTRIES,")
			p.P("self.require_hello,")
			p.P("&mut self.position,")
			p.Out()
			p.P(")?;")
			p.Block("let Some(type_id) = frame else {", "};", func() {
				p.P("return Ok(None);")
			})
			p.Block("match Message::decode_payload(type_id, &self.buf, self.opts) {", "}", func() {
				p.Block("Ok(m) => {", "}", func() {
					p.P("self.position.advance();")
					p.P("Ok(Some(m))")
				})
				p.P("Err(e) => Err(self.position.reject(e.inside(\"message\"))),")
			})
		})
		p.P()
		p.P("/// Reads the next message into `msg`, reusing its storage when it holds")
		p.P("/// a value of the same type (see [`Message::decode_payload_into`]);")
		p.P("/// `Ok(false)` at the end of the stream (between two messages); errors")
		p.P("/// as [`Self::read_message`]'s. When the payload fails to decode, `msg`")
		p.P("/// holds the default value of the type the header named; after any")
		p.P("/// other error it is unchanged.")
		p.Fn("pub fn read_message_into", []string{"&mut self", "msg: &mut Message"}, "::core::result::Result<bool, rt::StreamError>", func() {
			p.P("let frame = rt::read_frame(")
			p.In()
			p.P("&mut self.inner,")
			p.P("&mut self.buf,")
			p.P("self.max_size,")
			p.P("|id| Message::type_name(id).is_some(),")
			p.P("HELLO_ENTRIES,")
			p.P("self.require_hello,")
			p.P("&mut self.position,")
			p.Out()
			p.P(")?;")
			p.Block("let Some(type_id) = frame else {", "};", func() {
				p.P("return Ok(false);")
			})
			p.Block("match msg.decode_payload_into(type_id, &self.buf, self.opts) {", "}", func() {
				p.Block("Ok(()) => {", "}", func() {
					p.P("self.position.advance();")
					p.P("Ok(true)")
				})
				p.P("Err(e) => Err(self.position.reject(e.inside(\"message\"))),")
			})
		})
		p.P()
		p.P("/// The underlying reader.")
		p.Block("pub fn get_ref(&self) -> &R {", "}", func() {
			p.P("&self.inner")
		})
		p.P()
		p.P("/// Returns the underlying reader.")
		p.Block("pub fn into_inner(self) -> R {", "}", func() {
			p.P("self.inner")
		})
	})
	p.P()
	p.Block("impl<R: ::std::io::Read> ::core::iter::Iterator for MessageReader<R> {", "}", func() {
		p.P("type Item = ::core::result::Result<Message, rt::StreamError>;")
		p.P()
		p.P("/// The next message; after an error that ends the stream, yielded once,")
		p.P("/// `None` (where [`MessageReader::read_message`] returns it again).")
		p.Block("fn next(&mut self) -> "+stdOption+"<Self::Item> {", "}", func() {
			p.Block("if self.position.is_lost() {", "}", func() {
				p.P("return None;")
			})
			p.P("self.read_message().transpose()")
		})
	})
}

// dispatch emits the match that decodes a payload by type id into the
// variant of Self; reader names the type whose read decodes each struct.
func dispatch(p *printer, g *generator, reader func(*schema.Struct) string) {
	p.Block("match type_id {", "}", func() {
		for _, st := range g.s.Structs {
			n := g.name[st]
			p.Block(n+"::TYPE_ID => {", "}", func() {
				p.F("let v = rt::decode_payload(payload, opts, %s::read)?;", reader(st))
				p.F("Ok(Self::%s(v))", n)
			})
		}
		p.P("id => Err(rt::unknown_type_id(id)),")
	})
}

// messageInto emits Message's decode_into, decode_into_with and
// decode_payload_into.
func (g *generator) messageInto(p *printer) {
	p.P("/// Decodes a message of any type of the schema into `self`, with the")
	p.P("/// default options, reusing its storage when it holds a value of the same")
	p.P("/// type (see [`Message::decode_payload_into`]).")
	p.Block("pub fn decode_into(&mut self, bytes: &[u8]) -> rt::DecodeResult<()> {", "}", func() {
		p.P("self.decode_into_with(bytes, rt::DecodeOptions::new())")
	})
	p.P()
	p.P("/// Decodes a message of any type of the schema into `self`, with custom")
	p.P("/// options (see [`Message::decode_payload_into`]). A bad header leaves")
	p.P("/// `self` unchanged.")
	p.Fn("pub fn decode_into_with", []string{"&mut self", "bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<()>", func() {
		p.P("let (type_id, payload) = rt::split_known_message(bytes, Self::type_name)?;")
		p.P("self.decode_payload_into(type_id, payload, opts)")
	})
	p.P()
	p.P("/// Decodes the payload of a message whose header named `type_id` into")
	p.P("/// `self`. When `self` holds a value of that type, it is decoded into,")
	p.P("/// reusing its strings, vectors and boxes (as the types' `decode_into`")
	p.P("/// does); otherwise a new value replaces it. When the payload fails to")
	p.P("/// decode, `self` holds the default value of that type; when `type_id` is")
	p.P("/// unknown, `self` is unchanged.")
	p.Fn("pub fn decode_payload_into", []string{"&mut self", "type_id: u16", "payload: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<()>", func() {
		p.Block("match type_id {", "}", func() {
			for _, st := range g.s.Structs {
				n := g.name[st]
				p.Block(n+"::TYPE_ID => match self {", "},", func() {
					p.F("Self::%s(v) => v.decode_payload_into(payload, opts),", n)
					if len(g.s.Structs) == 1 {
						return
					}
					p.Block("_ => {", "}", func() {
						p.F("let mut v = %s::default();", n)
						p.P("let result = v.decode_payload_into(payload, opts);")
						p.F("*self = Self::%s(v);", n)
						p.P("result")
					})
				})
			}
			p.P("id => Err(rt::unknown_type_id(id)),")
		})
	})
}

func (g *generator) messageWriter(p *printer) {
	p.P("/// Writes messages to a byte stream, each with one `write_all` call, encoding")
	p.P("/// every message into one reused buffer (no allocation per message once it")
	p.P("/// has grown to the largest message). A message whose payload is over the")
	p.P("/// maximum size (as [`MessageReader::with_max_size`]'s, which would refuse")
	p.P("/// it) is refused with [`rt::StreamError::Encode`], writing nothing; the")
	p.P("/// writer can go on after it. Wrap a file or socket in a")
	p.P("/// [`::std::io::BufWriter`] for small messages.")
	p.P("#[derive(Debug)]")
	p.Block("pub struct MessageWriter<W> {", "}", func() {
		p.P("inner: W,")
		p.P("buf: ", stdVec, "<u8>,")
		p.P("max_size: usize,")
	})
	p.P()
	p.Block("impl<W: ::std::io::Write> MessageWriter<W> {", "}", func() {
		p.P("/// A writer with the default maximum payload size")
		p.P("/// ([`rt::DEFAULT_MAX_MESSAGE_SIZE`]).")
		p.Block("pub fn new(inner: W) -> Self {", "}", func() {
			p.Block("MessageWriter {", "}", func() {
				p.P("inner,")
				p.P("buf: ", stdVec, "::new(),")
				p.P("max_size: rt::DEFAULT_MAX_MESSAGE_SIZE,")
			})
		})
		p.P()
		p.P("/// Sets the largest payload written, in bytes; 0 means the default")
		p.P("/// ([`rt::DEFAULT_MAX_MESSAGE_SIZE`]).")
		p.Block("pub fn with_max_size(mut self, max_size: usize) -> Self {", "}", func() {
			p.P("self.max_size = rt::max_size_or_default(max_size);")
			p.P("self")
		})
		p.P()
		p.P("/// Writes the hello of the schema (see [`write_hello`]). Call it before")
		p.P("/// the first message.")
		p.Fn("pub fn write_hello", []string{"&mut self"}, "::core::result::Result<(), rt::StreamError>", func() {
			p.P("self.buf.clear();")
			p.P("encode_hello_into(&mut self.buf);")
			p.P("::std::io::Write::write_all(&mut self.inner, &self.buf)?;")
			p.P("Ok(())")
		})
		p.P()
		p.P("/// Writes a message: any struct of the schema, or a [`Message`]. A value")
		p.P("/// that cannot be encoded (a payload over the maximum size, a length over")
		p.P("/// the wire format's u32) is an [`rt::StreamError::Encode`], and nothing")
		p.P("/// is written; an I/O error is [`rt::StreamError::Io`].")
		p.Fn("pub fn write_message<M: rt::EncodeMessage + ?::core::marker::Sized>", []string{"&mut self", "msg: &M"}, "::core::result::Result<(), rt::StreamError>", func() {
			p.P("self.buf.clear();")
			p.P("rt::EncodeMessage::try_encode_message_into(msg, &mut self.buf)?;")
			p.P("let payload = self.buf.len() - rt::MESSAGE_HEADER_SIZE;")
			p.Block("if payload > self.max_size {", "}", func() {
				p.P("self.buf.clear();")
				p.P("return Err(rt::EncodeError::over_max_size(payload, self.max_size).into());")
			})
			p.P("::std::io::Write::write_all(&mut self.inner, &self.buf)?;")
			p.P("Ok(())")
		})
		p.P()
		p.P("/// Flushes the underlying writer.")
		p.Block("pub fn flush(&mut self) -> ::std::io::Result<()> {", "}", func() {
			p.P("::std::io::Write::flush(&mut self.inner)")
		})
		p.P()
		p.P("/// The underlying writer.")
		p.Block("pub fn get_ref(&self) -> &W {", "}", func() {
			p.P("&self.inner")
		})
		p.P()
		p.P("/// The underlying writer, mutably (writing to it directly puts bytes")
		p.P("/// between messages).")
		p.Block("pub fn get_mut(&mut self) -> &mut W {", "}", func() {
			p.P("&mut self.inner")
		})
		p.P()
		p.P("/// Returns the underlying writer.")
		p.Block("pub fn into_inner(self) -> W {", "}", func() {
			p.P("self.inner")
		})
	})
}
