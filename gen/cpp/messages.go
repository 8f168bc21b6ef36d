package cpp

import (
	"fmt"

	"sdp/gen/emit"
)

// messageFuncs emits the per-struct message functions and the dispatcher.
func (g *generator) messageFuncs(p *emit.Printer) {
	p.P()
	p.P("namespace {")
	p.P()
	p.P("// Decodes a message's payload, reporting offsets within the whole message.")
	p.P("template <class T>")
	p.Block("sdp::Status decode_payload(const std::uint8_t* data, std::size_t size, T& out, const sdp::DecodeOptions& options) {", "}", func() {
		p.P("sdp::Status st = decode(data + 10, size - 10, out, options);")
		p.P("if (!st) {")
		p.P(indent + "return st.at_offset(st.offset() + 10);")
		p.P("}")
		p.P("return st;")
	})
	p.P()
	p.P("constexpr const char* kWrongType = \"message type id differs from the type decoded\";")
	p.P("constexpr const char* kUnknownType = \"message type id names no type of the schema\";")
	p.P()
	p.P("} // namespace")
	for _, s := range g.s.Structs {
		n, vn := g.name(s), g.viewName(s)
		p.P()
		p.Block(fmt.Sprintf("std::size_t encoded_message_size(const %s& value) noexcept {", n), "}", func() {
			p.P("std::size_t n = 0;")
			p.P("return payload_size(sdp_size(value), n) ? 10 + n : 0;")
		})
		p.P()
		p.Block(fmt.Sprintf("std::vector<std::uint8_t> encode_message(const %s& value) {", n), "}", func() {
			p.P("std::size_t n = 0;")
			p.P("if (!payload_size(sdp_size(value), n)) {")
			p.P(indent + "return {};")
			p.P("}")
			if g.appends(s) {
				p.P("std::vector<std::uint8_t> out;")
				p.P("out.reserve(10 + n);")
				p.F("put_header(grow(out, 10), %s::kTypeId, n);", n)
				p.P("sdp_append(out, value);")
				p.P("return out;")
				return
			}
			p.P("std::vector<std::uint8_t> out(10 + n);")
			p.F("sdp_write(put_header(out.data(), %s::kTypeId, n), value);", n)
			p.P("return out;")
		})
		p.P()
		p.Block(fmt.Sprintf("std::size_t encode_message_to(const %s& value, std::uint8_t* buf, std::size_t cap) noexcept {", n), "}", func() {
			p.P("std::size_t n = 0;")
			p.P("if (!payload_size(sdp_size(value), n) || cap < 10 || n > cap - 10) {")
			p.P(indent + "return 0;")
			p.P("}")
			p.F("sdp_write(put_header(buf, %s::kTypeId, n), value);", n)
			p.P("return 10 + n;")
		})
		for _, t := range []string{n, vn} {
			p.P()
			p.Block(fmt.Sprintf("sdp::Status decode_message(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options) {", t), "}", func() {
				p.P("std::uint16_t id = 0;")
				p.F("const sdp::Status st = check_header(data, size, id, [](std::uint16_t t) { return t == %s::kTypeId; });", n)
				p.P("if (!st) {")
				p.F(indent+"out = %s();", t)
				p.P(indent + "return st;")
				p.P("}")
				p.F("if (id != %s::kTypeId) {", n)
				p.F(indent+"out = %s();", t)
				p.P(indent + "return sdp::Status(sdp::ErrorCode::Message, 4, kWrongType, \"message\");")
				p.P("}")
				p.P("return decode_payload(data, size, out, options);")
			})
		}
	}
	for _, t := range []string{"AnyMessage", "AnyMessageView"} {
		p.P()
		p.P("sdp::Status decode_any_message(const std::uint8_t* data, std::size_t size, ", t, "& out,")
		p.Block("                               const sdp::DecodeOptions& options) {", "}", func() {
			p.P("std::uint16_t id = 0;")
			p.P("const sdp::Status st = check_header(data, size, id, [](std::uint16_t t) {")
			p.In()
			p.P("switch (t) {")
			for _, s := range g.s.Structs {
				p.F("case %s::kTypeId:", g.name(s))
			}
			p.In()
			p.P("return true;")
			p.Out()
			p.P("default:")
			p.In()
			p.P("return false;")
			p.Out()
			p.P("}")
			p.Out()
			p.P("});")
			p.P("if (!st) {")
			p.F(indent+"out = %s();", t)
			p.P(indent + "return st;")
			p.P("}")
			p.P("switch (id) {")
			for _, s := range g.s.Structs {
				n := g.name(s)
				if t == "AnyMessageView" {
					n = g.viewName(s)
				}
				p.F("case %s::kTypeId: {", n)
				p.In()
				// The message held is decoded into when it has the type read;
				// a view has no storage to keep and is always emplaced (see
				// reader.variant: g++ 12 -O2 false positive).
				if t == "AnyMessageView" {
					p.F("sdp::Status ps = decode_payload(data, size, out.emplace<%s>(), options);", n)
				} else {
					p.F("sdp::Status ps = decode_payload(data, size, std::holds_alternative<%s>(out) ? *std::get_if<%s>(&out) : out.emplace<%s>(), options);", n, n, n)
				}
				p.P("if (!ps) {")
				p.F(indent+"out = %s();", t)
				p.P("}")
				p.P("return ps;")
				p.Out()
				p.P("}")
			}
			p.P("default:")
			p.F(indent+"out = %s();", t)
			p.P(indent + "return sdp::Status(sdp::ErrorCode::Message, 4, kUnknownType, \"message\");")
			p.P("}")
		})
	}
	anySwitch := func(ret string, each func(i int, n string)) {
		p.P("switch (message.index()) {")
		for i, s := range g.s.Structs {
			p.F("case %d:", i)
			p.In()
			each(i, g.name(s))
			p.Out()
		}
		p.P("default:")
		p.P(indent + "return " + ret + ";")
		p.P("}")
	}
	p.P()
	p.Block("std::uint16_t message_type_id(const AnyMessage& message) noexcept {", "}", func() {
		anySwitch("0", func(i int, n string) { p.F("return %s::kTypeId;", n) })
	})
	p.P()
	p.Block("std::size_t encoded_message_size(const AnyMessage& message) noexcept {", "}", func() {
		anySwitch("0", func(i int, n string) { p.F("return encoded_message_size(*std::get_if<%d>(&message));", i) })
	})
	p.P()
	p.Block("std::vector<std::uint8_t> encode_message(const AnyMessage& message) {", "}", func() {
		anySwitch("{}", func(i int, n string) { p.F("return encode_message(*std::get_if<%d>(&message));", i) })
	})
	p.P()
	// The value is built in place in the result (a temporary would put a
	// whole message, perhaps of large fixed arrays, on the stack).
	p.Block("AnyMessage to_owned(const AnyMessageView& message) {", "}", func() {
		p.P("AnyMessage out;")
		p.P("switch (message.index()) {")
		for i := range g.s.Structs {
			p.F("case %d:", i)
			p.F(indent+"sdp_own(*std::get_if<%d>(&message), out.emplace<%d>());", i, i)
			p.P(indent + "break;")
		}
		p.P("default:")
		p.P(indent + "break;")
		p.P("}")
		p.P("return out;")
	})
}
