package rust

import (
	"fmt"

	"sdp/schema"
)

// The trait impls and standard conversions of the owned types (issue #19):
// rt::SdpType on every type, rt::SdpMessage on every struct, TryFrom and
// From between an enum and its underlying integer. Each trait method
// forwards to the inherent method of the same name (an inherent item wins
// over a trait's in Self::name, so the forwarding is not recursive).

const stdResult = "::core::result::Result"

// sdpTypeImpl emits `impl rt::SdpType for T` (rt is the path of the runtime
// module in the file being written).
func (g *generator) sdpTypeImpl(p *printer, d schema.Decl, rt string) {
	enc := rt + "::EncodeError"
	res := rt + "::DecodeResult"
	lim := "opts: " + rt + "::DecodeOptions"
	p.Block("impl "+rt+"::SdpType for "+g.name[d]+" {", "}", func() {
		p.P("const FINGERPRINT: u64 = Self::FINGERPRINT;")
		p.P()
		p.Fn("fn encoded_size", []string{"&self"}, "usize", func() { p.P("Self::encoded_size(self)") })
		p.P()
		p.Fn("fn encode", []string{"&self", "out: " + outVec}, "", func() { p.P("Self::encode(self, out);") })
		p.P()
		p.Fn("fn encode_to_vec", []string{"&self"}, stdVec+"<u8>", func() { p.P("Self::encode_to_vec(self)") })
		p.P()
		p.Fn("fn try_encode", []string{"&self", "out: " + outVec}, stdResult+"<(), "+enc+">", func() {
			p.P("Self::try_encode(self, out)")
		})
		p.P()
		p.Fn("fn try_encode_to_vec", []string{"&self"}, stdResult+"<"+stdVec+"<u8>, "+enc+">", func() {
			p.P("Self::try_encode_to_vec(self)")
		})
		p.P()
		p.Fn("fn decode", []string{"bytes: &[u8]"}, res+"<Self>", func() { p.P("Self::decode(bytes)") })
		p.P()
		p.Fn("fn decode_with", []string{"bytes: &[u8]", lim}, res+"<Self>", func() {
			p.P("Self::decode_with(bytes, opts)")
		})
		p.P()
		p.Fn("fn decode_prefix", []string{"bytes: &[u8]"}, res+"<(Self, usize)>", func() {
			p.P("Self::decode_prefix(bytes)")
		})
		p.P()
		p.Fn("fn decode_into", []string{"&mut self", "bytes: &[u8]"}, res+"<()>", func() {
			p.P("Self::decode_into(self, bytes)")
		})
		p.P()
		p.Fn("fn decode_into_with", []string{"&mut self", "bytes: &[u8]", lim}, res+"<()>", func() {
			p.P("Self::decode_into_with(self, bytes, opts)")
		})
	})
}

// sdpMessageImpl emits `impl rt::SdpMessage for S` in messages.rs.
func (g *generator) sdpMessageImpl(p *printer, st *schema.Struct) {
	p.Block("impl rt::SdpMessage for "+g.name[st]+" {", "}", func() {
		p.P("const TYPE_ID: u16 = Self::TYPE_ID;")
		p.P()
		p.Fn("fn encode_message_into", []string{"&self", "out: " + outVec}, "", func() {
			p.P("Self::encode_message_into(self, out);")
		})
		p.P()
		p.Fn("fn encode_message", []string{"&self"}, stdVec+"<u8>", func() { p.P("Self::encode_message(self)") })
		p.P()
		p.Fn("fn try_encode_message_into", []string{"&self", "out: " + outVec}, stdResult+"<(), rt::EncodeError>", func() {
			p.P("Self::try_encode_message_into(self, out)")
		})
		p.P()
		p.Fn("fn decode_message", []string{"bytes: &[u8]"}, "rt::DecodeResult<Self>", func() {
			p.P("Self::decode_message(bytes)")
		})
		p.P()
		p.Fn("fn decode_message_with", []string{"bytes: &[u8]", "opts: rt::DecodeOptions"}, "rt::DecodeResult<Self>", func() {
			p.P("Self::decode_message_with(bytes, opts)")
		})
	})
}

// enumConversions emits TryFrom<uN> for an enum and From<enum> for uN.
func (g *generator) enumConversions(p *printer, e *schema.Enum) {
	name := g.name[e]
	base := scalarName(e.Base)
	errT := "crate::rt::EnumValueError"
	p.Block(fmt.Sprintf("impl ::core::convert::TryFrom<%s> for %s {", base, name), "}", func() {
		p.F("type Error = %s;", errT)
		p.P()
		p.Fn("fn try_from", []string{"v: " + base}, stdResult+"<Self, "+errT+">", func() {
			conv := "u32::from(v)"
			if base == "u32" {
				conv = "v"
			}
			p.F("Self::from_%s(v).ok_or(%s::new(%q, %s))", base, errT, e.Name, conv)
		})
	})
	p.P()
	p.Block(fmt.Sprintf("impl ::core::convert::From<%s> for %s {", name, base), "}", func() {
		p.Fn("fn from", []string{"v: " + name}, base, func() { p.F("v.to_%s()", base) })
	})
}
