package cpp

import (
	_ "embed"
	"sort"
	"strconv"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// messageReader is the stream reader every schema with structs gets in its
// header, after AnyMessage and decode_any_message.
//
//go:embed runtime/message_reader.hpp.in
var messageReader string

// messageWriter is the stream writer every schema with structs gets in its
// header, after MessageReader.
//
//go:embed runtime/message_writer.hpp.in
var messageWriter string

// streamReader emits is_message_type_id and the MessageReader template.
func (g *generator) streamReader(p *emit.Printer) {
	p.P("/// Whether id is the type id of a struct of the schema.")
	p.Block("inline constexpr bool is_message_type_id(std::uint16_t id) noexcept {", "}", func() {
		p.P("switch (id) {")
		for _, s := range g.s.Structs {
			p.F("case %s::kTypeId:", g.name(s))
		}
		p.P(indent + "return true;")
		p.P("default:")
		p.P(indent + "return false;")
		p.P("}")
	})
	p.P()
	p.P("/// One struct of a hello: its type id, fingerprint and name.")
	p.Block("struct HelloEntry {", "};", func() {
		p.P("std::uint16_t type_id;")
		p.P("std::uint64_t fingerprint;")
		p.P("const char* name;")
	})
	p.P()
	p.P("/// The structs of the schema by type id, as the schema's hello lists them.")
	p.Block("inline constexpr HelloEntry kHelloEntries[] = {", "};", func() {
		structs := append([]*schema.Struct(nil), g.s.Structs...)
		sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
		for _, s := range structs {
			p.F("{%d, %s, %s},", s.ID, fingerprintLiteral(s), strconv.Quote(s.Name))
		}
	})
	p.P()
	p.P("/// The hello of the schema (docs/wire-format.md, \"The schema check")
	p.P("/// (hello)\"): a message of type id 0 listing the fingerprint of every")
	p.P("/// struct. Write it first to let the reader check that both ends use the")
	p.P("/// same version of the schema; a stream without it is read as before.")
	p.Block("inline std::vector<std::uint8_t> encode_hello() {", "}", func() {
		p.P("constexpr std::size_t n = std::size(kHelloEntries);")
		p.P("std::vector<std::uint8_t> out(10 + 4 + 10 * n);")
		p.P("std::uint8_t* b = out.data();")
		p.P("sdp::store<std::uint32_t>(b, 0x32504453);")
		p.P("sdp::store<std::uint16_t>(b + 4, 0);")
		p.P("sdp::store<std::uint32_t>(b + 6, static_cast<std::uint32_t>(4 + 10 * n));")
		p.P("sdp::store<std::uint32_t>(b + 10, static_cast<std::uint32_t>(n));")
		p.Block("for (std::size_t i = 0; i < n; i++) {", "}", func() {
			p.P("sdp::store<std::uint16_t>(b + 14 + 10 * i, kHelloEntries[i].type_id);")
			p.P("sdp::store<std::uint64_t>(b + 16 + 10 * i, kHelloEntries[i].fingerprint);")
		})
		p.P("return out;")
	})
	p.P()
	p.Line(strings.TrimRight(messageReader, "\n"))
	p.P()
	p.Line(strings.TrimRight(messageWriter, "\n"))
}
