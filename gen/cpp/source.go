package cpp

import (
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// source emits NAME.cpp: the internal helpers in an anonymous namespace,
// then the public functions the header declares.
func (g *generator) source() []byte {
	g.rd = map[string]*plan.Value{}
	g.rdList = nil

	// Bodies first: emitting them registers the element readers.
	body := emit.New(indent)
	for _, d := range g.order {
		body.P()
		g.sizeFunc(body, d)
		body.P()
		g.writeFunc(body, d)
		if g.appends(d) {
			body.P()
			g.appendFunc(body, d.(*schema.Struct))
		}
		body.P()
		g.readFunc(body, d, readOwned)
		body.P()
		g.readFunc(body, d, readCheck)
		body.P()
		g.readFunc(body, d, readPath)
		body.P()
		g.readFunc(body, d, readView)
		body.P()
		g.viewFunc(body, d)
		body.P()
		g.skipFunc(body, d)
		body.P()
		g.ownFunc(body, d)
	}
	readers := emit.New(indent)
	protos := g.readerFuncs(readers)

	p := emit.New(indent)
	p.P("// ", gen.Header(g.s))
	p.P()
	p.F("#include \"%s.hpp\"", g.file)
	p.P()
	p.P("namespace ", strings.Join(g.ns, "::"), " {")
	p.P("namespace {")
	p.P()
	p.Line(strings.TrimRight(runtimeSource, "\n"))
	p.P()
	p.P("// Tag<T> selects the overload for T where no value is passed.")
	p.P("template <class T>")
	p.P("struct Tag {};")
	p.P()
	for _, d := range g.order {
		n, vn := g.name(d), g.viewName(d)
		p.F("[[maybe_unused]] inline std::uint64_t sdp_size(const %s& v) noexcept;", n)
		p.F("[[maybe_unused]] inline std::uint8_t* sdp_write(std::uint8_t* out, const %s& v) noexcept;", n)
		for _, kind := range []decoder{readOwned, readCheck, readPath, readView} {
			p.F("[[maybe_unused]] %s;", g.readSig(d, kind))
		}
		p.F("[[maybe_unused]] %sconst std::uint8_t* sdp_view(const std::uint8_t* p, %s& v) noexcept;", g.inl(d), vn)
		p.F("[[maybe_unused]] %sconst std::uint8_t* sdp_skip(const std::uint8_t* p, Tag<%s>) noexcept;", g.inl(d), n)
		p.F("[[maybe_unused]] void sdp_own(const %s& s, %s& o);", vn, n)
	}
	for _, pr := range protos {
		p.P(pr)
	}
	g.plainAsserts(p)
	p.P()
	g.withPath(p)
	p.Line(string(body.Bytes()))
	p.Line(string(readers.Bytes()))
	p.P()
	p.P("} // namespace")
	for _, d := range g.compound() {
		p.P()
		g.equalityFuncs(p, d)
	}
	for _, d := range g.s.Decls {
		p.P()
		if e, ok := d.(*schema.Enum); ok {
			g.enumAPIFuncs(p, e)
			continue
		}
		g.apiFuncs(p, d)
	}
	if len(g.s.Structs) > 0 {
		g.messageFuncs(p)
	}
	p.P()
	p.P("} // namespace ", strings.Join(g.ns, "::"))
	return p.Bytes()
}

func (g *generator) equalityFunc(p *emit.Printer, t string, fs []*schema.Field, owner string) {
	if len(fs) == 0 {
		p.F("bool operator==(const %s&, const %s&) { return true; }", t, t)
		return
	}
	p.Block(fmt.Sprintf("bool operator==(const %s& a, const %s& b) {", t, t), "}", func() {
		var terms []string
		for _, f := range fs {
			fn := fieldName(f, owner)
			terms = append(terms, fmt.Sprintf("a.%s == b.%s", fn, fn))
		}
		p.P("return ", strings.Join(terms, " &&\n"+indent+indent+"   "), ";")
	})
}

func (g *generator) equalityFuncs(p *emit.Printer, d schema.Decl) {
	n := g.name(d)
	switch d := d.(type) {
	case *schema.Struct:
		g.equalityFunc(p, n, d.Fields, n)
	case *schema.Union:
		// The variant types' operators are in their namespace (variantDefs).
		ns := ""
		for _, v := range d.Variants {
			if v.Kind == schema.VariantStruct {
				continue
			}
			if ns == "" {
				ns = g.variantNamespace(d, false)
				p.P("namespace ", ns, " {")
				p.P()
			}
			vn := variantName(v, n)
			g.equalityFunc(p, vn, v.Fields, vn)
			p.P()
		}
		if ns != "" {
			p.P("} // namespace ", ns)
			p.P()
		}
		p.F("bool operator==(const %s& a, const %s& b) { return a.value == b.value; }", n, n)
	}
}

func (g *generator) apiFuncs(p *emit.Printer, d schema.Decl) {
	n, vn := g.name(d), g.viewName(d)
	p.F("std::size_t encoded_size(const %s& value) noexcept { return checked_size(sdp_size(value)); }", n)
	p.P()
	p.Block(fmt.Sprintf("std::vector<std::uint8_t> encode(const %s& value) {", n), "}", func() {
		p.P("const std::size_t n = checked_size(sdp_size(value));")
		p.P("if (n == 0) {")
		p.P(indent + "return {};")
		p.P("}")
		if g.appends(d) {
			p.P("std::vector<std::uint8_t> out;")
			p.P("out.reserve(n);")
			p.P("sdp_append(out, value);")
			p.P("return out;")
			return
		}
		p.P("std::vector<std::uint8_t> out(n);")
		p.P("sdp_write(out.data(), value);")
		p.P("return out;")
	})
	p.P()
	p.Block(fmt.Sprintf("std::size_t encode_to(const %s& value, std::uint8_t* buf, std::size_t cap) noexcept {", n), "}", func() {
		p.P("const std::size_t n = checked_size(sdp_size(value));")
		p.P("if (n == 0 || n > cap) {")
		p.P(indent + "return 0;")
		p.P("}")
		p.P("sdp_write(buf, value);")
		p.P("return n;")
	})
	for _, view := range []bool{false, true} {
		t := n
		if view {
			t = vn
		}
		p.P()
		p.Block(fmt.Sprintf("sdp::Status decode(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options) {", t), "}", func() {
			p.P("std::size_t consumed = 0;")
			p.P("sdp::Status st = decode_prefix(data, size, out, consumed, options);")
			p.P("if (st && consumed != size) {")
			p.F(indent+"out = %s();", t)
			p.P(indent + "return sdp::Status(sdp::ErrorCode::Trailing, consumed, kMessages[static_cast<int>(sdp::ErrorCode::Trailing)]);")
			p.P("}")
			p.P("return st;")
		})
		p.P()
		p.F("sdp::Status decode_prefix(const std::uint8_t* data, std::size_t size, %s& out, std::size_t& consumed,", t)
		p.Block("                          const sdp::DecodeOptions& options) {", "}", func() {
			p.P("Reader r(data, size, options);")
			p.P("if (!sdp_read(r, out, 1)) {")
			p.P(indent + "// A failed decode leaves the default value, never a partial one.")
			p.F(indent+"out = %s();", t)
			p.F(indent+"return with_path<%s>(data, size, options, std::move(r.status));", n)
			p.P("}")
			p.P("consumed = r.offset();")
			p.P("return sdp::Status();")
		})
	}
	p.P()
	p.Block(fmt.Sprintf("%s to_owned(const %s& view) {", n, vn), "}", func() {
		p.F("%s out;", n)
		p.P("sdp_own(view, out);")
		p.P("return out;")
	})
	p.P()
	p.F("%s %s::to_owned() const { return %s::to_owned(*this); }", n, vn, g.nsq)
}

// enumAPIFuncs defines what enumAPIDecls declares.
func (g *generator) enumAPIFuncs(p *emit.Printer, e *schema.Enum) {
	n := g.name(e)
	first := n + "::" + g.enumValueName(e.Values[0])
	size := e.Base.Size()
	fail := func(code, offset string) {
		p.F("return sdp::Status(sdp::ErrorCode::%s, %s, kMessages[static_cast<int>(sdp::ErrorCode::%s)]);", code, offset, code)
	}
	p.F("std::size_t encoded_size(%s value) noexcept { return is_valid(value) ? %d : 0; }", n, size)
	p.P()
	p.Block(fmt.Sprintf("std::vector<std::uint8_t> encode(%s value) {", n), "}", func() {
		p.P("if (!is_valid(value)) {")
		p.P(indent + "return {};")
		p.P("}")
		p.F("std::vector<std::uint8_t> out(%d);", size)
		p.P("sdp::store(out.data(), value);")
		p.P("return out;")
	})
	p.P()
	p.Block(fmt.Sprintf("std::size_t encode_to(%s value, std::uint8_t* buf, std::size_t cap) noexcept {", n), "}", func() {
		p.F("if (!is_valid(value) || cap < %d) {", size)
		p.P(indent + "return 0;")
		p.P("}")
		p.P("sdp::store(buf, value);")
		p.F("return %d;", size)
	})
	p.P()
	p.Block(fmt.Sprintf("sdp::Status decode(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options) {", n), "}", func() {
		p.P("std::size_t consumed = 0;")
		p.P("sdp::Status st = decode_prefix(data, size, out, consumed, options);")
		p.Block("if (st && consumed != size) {", "}", func() {
			p.F("out = %s;", first)
			fail("Trailing", "consumed")
		})
		p.P("return st;")
	})
	p.P()
	p.F("sdp::Status decode_prefix(const std::uint8_t* data, std::size_t size, %s& out, std::size_t& consumed,", n)
	p.Block("                          const sdp::DecodeOptions&) {", "}", func() {
		p.F("if (size < %d) {", size)
		p.F(indent+"out = %s;", first)
		p.In()
		fail("Truncated", "0")
		p.Out()
		p.P("}")
		p.F("const %s v = sdp::load<%s>(data);", n, n)
		p.Block("if (!is_valid(v)) {", "}", func() {
			p.F("out = %s;", first)
			fail("Enum", "0")
		})
		p.P("out = v;")
		p.F("consumed = %d;", size)
		p.P("return sdp::Status();")
	})
}
