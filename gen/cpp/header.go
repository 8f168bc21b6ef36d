package cpp

import (
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

const indent = "    "

// header emits NAME.hpp: includes, the runtime, the types, their views and
// the declarations of every function.
func (g *generator) header() []byte {
	p := emit.New(indent)
	guard := "SDP_" + strings.ToUpper(g.file) + "_HPP"
	p.P("// ", gen.Header(g.s))
	p.P("#ifndef ", guard)
	p.P("#define ", guard)
	p.P()
	for _, inc := range []string{"array", "cstddef", "cstdint", "cstring", "iterator", "memory",
		"new", "optional", "string", "string_view", "type_traits", "utility", "variant", "vector"} {
		p.P("#include <", inc, ">")
	}
	p.P()
	p.P("namespace ", strings.Join(g.ns, "::"), " {")
	p.P()
	p.Line(strings.TrimRight(runtimeHeader, "\n"))
	p.P()
	for _, alias := range aliases {
		if !g.hasDecl(alias) {
			p.F("using %s = sdp::%s;", alias, alias)
		}
	}
	p.P()
	for _, d := range g.compound() {
		p.F("struct %s;", g.name(d))
		p.F("struct %s;", g.viewName(d))
	}
	p.P()
	p.P("/// The fingerprint of a type's wire shape (docs/compat.md), for every type of")
	p.P("/// the schema: a struct's or union's kFingerprint member, or an enum's.")
	p.P("template <class T>")
	p.P("inline constexpr std::uint64_t kFingerprint = T::kFingerprint;")
	for _, e := range g.s.Enums {
		p.P()
		g.enumDecl(p, e)
	}
	for _, d := range g.order {
		p.P()
		switch d := d.(type) {
		case *schema.Struct:
			g.structDecl(p, d)
		case *schema.Union:
			g.unionDecl(p, d)
		}
	}
	for _, d := range g.order {
		p.P()
		switch d := d.(type) {
		case *schema.Struct:
			g.structViewDecl(p, d)
		case *schema.Union:
			g.unionViewDecl(p, d)
		}
	}
	p.P()
	p.P("// Equality compares every field (floats with ==).")
	for _, d := range g.compound() {
		g.equalityDecls(p, g.name(d))
	}
	for _, d := range g.s.Decls {
		p.P()
		if e, ok := d.(*schema.Enum); ok {
			g.enumAPIDecls(p, e)
			continue
		}
		g.apiDecls(p, d)
	}
	if len(g.s.Structs) > 0 {
		p.P()
		g.messageDecls(p)
	}
	if len(g.s.Decls) > 0 {
		p.P()
		g.rangeDecls(p)
	}
	p.P()
	p.P("} // namespace ", strings.Join(g.ns, "::"))
	if len(g.compound()) > 0 {
		p.P()
		g.hashDecls(p)
	}
	p.P()
	p.P("#endif // ", guard)
	return p.Bytes()
}

// doc emits a doc comment as /// lines, each made safe by docLine.
func doc(p *emit.Printer, lines []string) {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = docLine(l)
	}
	p.Comment("/// ", out)
}

// docLine makes one line of doc text safe inside a // comment: trailing
// white space is dropped, "??" becomes "? ?" (no trigraph, such as ??/ for
// a backslash, can form), and a line ending in a backslash, which would
// continue the comment onto the next source line, gets a "." after it.
// "/*" and "*/" are harmless in a // comment and are kept.
func docLine(l string) string {
	l = strings.TrimRight(l, " \t\v\f\r")
	for strings.Contains(l, "??") {
		l = strings.ReplaceAll(l, "??", "? ?")
	}
	if strings.HasSuffix(l, "\\") {
		l += "."
	}
	return l
}

func (g *generator) enumDecl(p *emit.Printer, e *schema.Enum) {
	doc(p, e.Doc)
	p.Block(fmt.Sprintf("enum class %s : %s {", g.name(e), scalarType(e.Base)), "};", func() {
		for _, v := range e.Values {
			doc(p, v.Doc)
			p.F("%s = %d,", g.enumValueName(v), v.Value)
		}
	})
	p.F("/// The fingerprint of the wire shape of %s (docs/compat.md).", g.name(e))
	p.P("template <>")
	p.F("inline constexpr std::uint64_t kFingerprint<%s> = %s;", g.name(e), fingerprintLiteral(e))
	g.enumHelpers(p, e)
}

// enumHelpers declares enum_name and is_valid for e: an enum class can hold
// any number of its underlying type, and the decoders refuse, and the
// encoders do not write, one that e does not declare.
func (g *generator) enumHelpers(p *emit.Printer, e *schema.Enum) {
	n := g.name(e)
	p.P()
	p.F("/// The schema's name of v (\"%s\"), or an empty view when v holds a number", e.Values[0].Name)
	p.F("/// %s does not declare.", n)
	p.Block(fmt.Sprintf("[[nodiscard]] constexpr std::string_view enum_name(%s v) noexcept {", n), "}", func() {
		p.P("switch (v) {")
		for _, v := range e.Values {
			p.F("case %s::%s:", n, g.enumValueName(v))
			p.F("%sreturn \"%s\";", indent, v.Name)
		}
		p.P("}")
		p.P("return {};")
	})
	p.P()
	p.F("/// Whether v is a value %s declares: the decoders refuse any other number", n)
	p.P("/// (rule enum), and the encoders refuse to write one.")
	p.F("[[nodiscard]] constexpr bool is_valid(%s v) noexcept { return !enum_name(v).empty(); }", n)
}

// fingerprintLiteral is the fingerprint of d as a C++ literal.
func fingerprintLiteral(d schema.Decl) string {
	return "0x" + schema.FormatFingerprint(schema.Fingerprint(d))
}

// fields declares data members with default member initializers: the
// schema's default (defaultExpr) in owned types, "{}" otherwise (views get
// zeros). Union variant types have them too: they are defined outside the
// union (variantDefs), where their initializers are usable before the
// union is complete, which std::variant needs.
func (g *generator) fields(p *emit.Printer, fs []*schema.Field, owner string, view, qualify bool) {
	// A member named like a schema type hides it for the members after it,
	// and C++ forbids a member to change what a name used in the class
	// means: such a class names every type with its namespace.
	for _, f := range fs {
		if n := fieldName(f, owner); g.hasDecl(n) || g.hasDecl(strings.TrimSuffix(n, "View")) {
			qualify = true
		}
	}
	sp := spelling{g: g, qualify: qualify}
	for _, f := range fs {
		doc(p, f.Doc)
		t := sp.ctype(f.Type)
		if view {
			t = sp.vtype(f.Type)
		}
		if d := sp.defaultExpr(f.Type); d != "" && !view {
			p.F("%s %s = %s;", t, fieldName(f, owner), d)
			continue
		}
		p.F("%s %s{};", t, fieldName(f, owner))
	}
}

func (g *generator) structDecl(p *emit.Printer, s *schema.Struct) {
	n := g.name(s)
	doc(p, s.Doc)
	p.Block("struct "+n+" {", "};", func() {
		p.F("/// The message type id of %s.", n)
		p.F("static constexpr std::uint16_t kTypeId = %d;", s.ID)
		p.F("/// The fingerprint of the wire shape of %s (docs/compat.md).", n)
		p.F("static constexpr std::uint64_t kFingerprint = %s;", fingerprintLiteral(s))
		if len(s.Fields) > 0 {
			p.P()
		}
		g.fields(p, s.Fields, n, false, false)
	})
}

func (g *generator) structViewDecl(p *emit.Printer, s *schema.Struct) {
	n := g.name(s)
	p.F("/// A zero-copy view of %s: strings and arrays point into the decoded", n)
	p.P("/// buffer, which must outlive the view.")
	p.Block("struct "+g.viewName(s)+" {", "};", func() {
		p.F("static constexpr std::uint16_t kTypeId = %d;", s.ID)
		p.F("static constexpr std::uint64_t kFingerprint = %s::kFingerprint;", n)
		if len(s.Fields) > 0 {
			p.P()
		}
		g.fields(p, s.Fields, n, true, false)
		p.P()
		p.P("/// Copies the viewed value into an owned one.")
		p.F("%s to_owned() const;", n)
	})
}

// variantNamespace is the namespace, owned by the runtime, that holds the
// types of u's (or its view's) variants that are not schema structs:
// "sdp::variants::Shape" (sdp::variants::ShapeView). Type names are unique,
// and none is another's name plus "View" (assignNames), so each union and
// each union view has a namespace of its own, and no schema name can
// declare anything in sdp.
func (g *generator) variantNamespace(u *schema.Union, view bool) string {
	if view {
		return "sdp::variants::" + g.viewName(u)
	}
	return "sdp::variants::" + g.name(u)
}

// variantDefs defines the types of u's variants that are not schema
// structs, in variantNamespace: as ordinary structs with default member
// initializers, which a class nested in the union could not have (its
// initializers are not usable before the union is complete, which
// std::variant needs: CWG 1397). The union aliases them (variantAliases).
// Owned variant types get their equality operators here, where argument-
// dependent lookup finds them.
func (g *generator) variantDefs(p *emit.Printer, u *schema.Union, view bool) {
	owner := g.name(u)
	if view {
		owner = g.viewName(u)
	}
	var defined []string
	for _, v := range u.Variants {
		if v.Kind != schema.VariantStruct {
			defined = append(defined, variantName(v, g.name(u)))
		}
	}
	if len(defined) == 0 {
		return
	}
	ns := g.variantNamespace(u, view)
	p.P("namespace ", ns, " {")
	p.P()
	for _, v := range u.Variants {
		if v.Kind == schema.VariantStruct {
			continue
		}
		vn := variantName(v, g.name(u))
		if view {
			p.F("/// A view of the variant %s of %s: %s::%s.", v.Name, g.name(u), owner, vn)
		} else {
			p.F("/// The variant %s of %s: %s::%s.", v.Name, owner, owner, vn)
		}
		if len(v.Fields) == 0 {
			p.F("struct %s {};", vn)
			continue
		}
		p.Block("struct "+vn+" {", "};", func() {
			g.fields(p, v.Fields, vn, view, true)
		})
	}
	if !view {
		p.P()
		for _, vn := range defined {
			g.equalityDecls(p, vn)
		}
	}
	p.P()
	p.P("} // namespace ", ns)
	p.P()
}

// variantAliases names the type of each of u's variants inside the union
// (Shape::Rect) and returns their names: a schema struct's, or the one
// variantDefs defined.
func (g *generator) variantAliases(p *emit.Printer, u *schema.Union, view bool) []string {
	owner := g.name(u)
	var names []string
	for _, v := range u.Variants {
		vn := variantName(v, owner)
		names = append(names, vn)
		doc(p, v.Doc)
		switch {
		case v.Kind == schema.VariantStruct && view:
			p.F("using %s = %s::%s;", vn, g.nsq, g.viewName(v.Struct))
		case v.Kind == schema.VariantStruct:
			p.F("using %s = %s::%s;", vn, g.nsq, g.name(v.Struct))
		default:
			p.F("using %s = %s::%s::%s;", vn, g.nsq, g.variantNamespace(u, view), vn)
		}
	}
	return names
}

func (g *generator) unionDecl(p *emit.Printer, u *schema.Union) {
	n := g.name(u)
	g.variantDefs(p, u, false)
	doc(p, u.Doc)
	p.Block("struct "+n+" {", "};", func() {
		p.F("/// The fingerprint of the wire shape of %s (docs/compat.md).", n)
		p.F("static constexpr std::uint64_t kFingerprint = %s;", fingerprintLiteral(u))
		p.P()
		names := g.variantAliases(p, u, false)
		p.P()
		p.P("/// The variant held; index() is the wire tag.")
		p.F("std::variant<%s> value;", strings.Join(names, ", "))
	})
}

func (g *generator) unionViewDecl(p *emit.Printer, u *schema.Union) {
	n := g.name(u)
	g.variantDefs(p, u, true)
	p.F("/// A zero-copy view of %s.", n)
	p.Block("struct "+g.viewName(u)+" {", "};", func() {
		p.F("static constexpr std::uint64_t kFingerprint = %s::kFingerprint;", n)
		p.P()
		names := g.variantAliases(p, u, true)
		p.P()
		p.F("std::variant<%s> value;", strings.Join(names, ", "))
		p.P()
		p.P("/// Copies the viewed value into an owned one.")
		p.F("%s to_owned() const;", n)
	})
}

func (g *generator) equalityDecls(p *emit.Printer, t string) {
	p.F("bool operator==(const %s& a, const %s& b);", t, t)
	p.F("inline bool operator!=(const %s& a, const %s& b) { return !(a == b); }", t, t)
}

func (g *generator) apiDecls(p *emit.Printer, d schema.Decl) {
	n, v := g.name(d), g.viewName(d)
	p.F("/// The exact number of bytes encode() writes for a %s.", n)
	p.F("std::size_t encoded_size(const %s& value) noexcept;", n)
	p.P("/// Encodes value with one exact-size allocation.")
	p.F("std::vector<std::uint8_t> encode(const %s& value);", n)
	p.P("/// Encodes value into buf; returns the bytes written, or 0 if cap is too small.")
	p.F("std::size_t encode_to(const %s& value, std::uint8_t* buf, std::size_t cap) noexcept;", n)
	p.P("/// Decodes exactly size bytes into out (strict: trailing bytes are an error).")
	p.P("/// Decoding into a value that already holds one reuses its storage: strings,")
	p.P("/// vectors (elements kept are decoded into), present optionals and boxes, and")
	p.P("/// the union variant held when the input has the same one; the result is the")
	p.P("/// same as decoding into a new value. On error out is reset to its default")
	p.F("/// value, %s{}, never left partly decoded.", n)
	p.F("sdp::Status decode(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options = {});", n)
	p.P("/// Decodes a value from the start of data and sets consumed to its length")
	p.P("/// (reusing out's storage, and resetting it on error, like decode).")
	p.F("sdp::Status decode_prefix(const std::uint8_t* data, std::size_t size, %s& out, std::size_t& consumed,", n)
	p.P("                          const sdp::DecodeOptions& options = {});")
	p.P("/// Validates data completely and decodes a view that points into it. On")
	p.P("/// error out is reset to a default-constructed view, which is not to be read.")
	p.F("sdp::Status decode(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options = {});", v)
	p.F("sdp::Status decode_prefix(const std::uint8_t* data, std::size_t size, %s& out, std::size_t& consumed,", v)
	p.P("                          const sdp::DecodeOptions& options = {});")
	p.P("/// Copies a view into an owned value.")
	p.F("%s to_owned(const %s& view);", n, v)
}

// enumAPIDecls declares the encoders and decoders of a top-level enum value:
// its wire value alone, with the rule of enum fields (a number e does not
// declare is refused by the encoders and is rule enum to the decoders).
func (g *generator) enumAPIDecls(p *emit.Printer, e *schema.Enum) {
	n := g.name(e)
	first := n + "::" + g.enumValueName(e.Values[0])
	size := e.Base.Size()
	p.F("/// The number of bytes encode() writes for a %s: %d, or 0 if value is", n, size)
	p.F("/// not a value %s declares (is_valid), which cannot be encoded.", n)
	p.F("std::size_t encoded_size(%s value) noexcept;", n)
	p.F("/// Encodes value (%d bytes; empty if it cannot be encoded).", size)
	p.F("std::vector<std::uint8_t> encode(%s value);", n)
	p.P("/// Encodes value into buf; returns the bytes written, or 0 if cap is too small")
	p.P("/// or value cannot be encoded.")
	p.F("std::size_t encode_to(%s value, std::uint8_t* buf, std::size_t cap) noexcept;", n)
	p.F("/// Decodes exactly size bytes into out: a number %s does not declare is", n)
	p.P("/// ErrorCode::Enum at offset 0, and trailing bytes are an error. On error out")
	p.F("/// is reset to the enum's first value, %s. (Options have no effect: an enum", first)
	p.P("/// nests nothing and allocates nothing.)")
	p.F("sdp::Status decode(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options = {});", n)
	p.F("/// Decodes a %s from the start of data and sets consumed to its size.", n)
	p.F("sdp::Status decode_prefix(const std::uint8_t* data, std::size_t size, %s& out, std::size_t& consumed,", n)
	p.P("                          const sdp::DecodeOptions& options = {});")
}

func (g *generator) messageDecls(p *emit.Printer) {
	p.P("// Messages: \"SDP2\", u16 type id, u32 payload length, payload.")
	p.P()
	for _, s := range g.s.Structs {
		n, v := g.name(s), g.viewName(s)
		p.F("std::size_t encoded_message_size(const %s& value) noexcept;", n)
		p.F("std::vector<std::uint8_t> encode_message(const %s& value);", n)
		p.F("std::size_t encode_message_to(const %s& value, std::uint8_t* buf, std::size_t cap) noexcept;", n)
		p.F("sdp::Status decode_message(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options = {});", n)
		p.F("sdp::Status decode_message(const std::uint8_t* data, std::size_t size, %s& out, const sdp::DecodeOptions& options = {});", v)
		p.P()
	}
	var owned, views []string
	for _, s := range g.s.Structs {
		owned = append(owned, g.name(s))
		views = append(views, g.viewName(s))
	}
	p.P("/// Any message of the schema.")
	p.F("using AnyMessage = std::variant<%s>;", strings.Join(owned, ", "))
	p.P("/// A view of any message of the schema.")
	p.F("using AnyMessageView = std::variant<%s>;", strings.Join(views, ", "))
	p.P()
	p.P("/// Decodes a message of any type of the schema, chosen by its type id. When")
	p.P("/// out holds a message of that type it is decoded into (reusing its storage,")
	p.P("/// as decode does); on error out is reset to AnyMessage{} (AnyMessageView{}).")
	p.P("sdp::Status decode_any_message(const std::uint8_t* data, std::size_t size, AnyMessage& out,")
	p.P("                               const sdp::DecodeOptions& options = {});")
	p.P("sdp::Status decode_any_message(const std::uint8_t* data, std::size_t size, AnyMessageView& out,")
	p.P("                               const sdp::DecodeOptions& options = {});")
	p.P("/// The type id of the message held.")
	p.P("std::uint16_t message_type_id(const AnyMessage& message) noexcept;")
	p.P("std::size_t encoded_message_size(const AnyMessage& message) noexcept;")
	p.P("std::vector<std::uint8_t> encode_message(const AnyMessage& message);")
	p.P("AnyMessage to_owned(const AnyMessageView& view);")
	p.P()
	g.streamReader(p)
}

// rangeDecls emits decode, decode_prefix, decode_message and
// decode_any_message over any contiguous range of bytes (std::vector,
// std::string, std::string_view, std::array, std::span, ...): each forwards
// to the pointer-and-size overload of out's type. The last template
// parameter admits only ranges of one-byte elements, so a pointer (which
// has no std::data) never takes these.
func (g *generator) rangeDecls(p *emit.Printer) {
	const byteRange = "template <class Bytes, class T, class = std::enable_if_t<sizeof(*std::data(std::declval<const Bytes&>())) == 1>>"
	const bytes = "reinterpret_cast<const std::uint8_t*>(std::data(bytes)), std::size(bytes)"
	p.P("/// decode over any contiguous range of bytes (std::vector<std::uint8_t>,")
	p.P("/// std::string, std::string_view, std::array, std::span, ...).")
	p.P(byteRange)
	p.Block("sdp::Status decode(const Bytes& bytes, T& out, const sdp::DecodeOptions& options = {}) {", "}", func() {
		p.P("return decode(", bytes, ", out, options);")
	})
	p.P()
	p.P("/// decode_prefix over any contiguous range of bytes.")
	p.P(byteRange)
	p.Block("sdp::Status decode_prefix(const Bytes& bytes, T& out, std::size_t& consumed, const sdp::DecodeOptions& options = {}) {", "}", func() {
		p.P("return decode_prefix(", bytes, ", out, consumed, options);")
	})
	if len(g.s.Structs) == 0 {
		return
	}
	p.P()
	p.P("/// decode_message over any contiguous range of bytes.")
	p.P(byteRange)
	p.Block("sdp::Status decode_message(const Bytes& bytes, T& out, const sdp::DecodeOptions& options = {}) {", "}", func() {
		p.P("return decode_message(", bytes, ", out, options);")
	})
	p.P()
	p.P("/// decode_any_message over any contiguous range of bytes.")
	p.P(byteRange)
	p.Block("sdp::Status decode_any_message(const Bytes& bytes, T& out, const sdp::DecodeOptions& options = {}) {", "}", func() {
		p.P("return decode_any_message(", bytes, ", out, options);")
	})
}

// hashed lists the owned types that get a std::hash, fully qualified: every
// struct and union, and each union's variant types that are not schema
// structs (Shape::Rect), in declaration order.
func (g *generator) hashed() []hashedType {
	var out []hashedType
	for _, d := range g.compound() {
		n := g.nsq + "::" + g.name(d)
		switch d := d.(type) {
		case *schema.Struct:
			out = append(out, hashedType{n, d.Fields, g.name(d), false})
		case *schema.Union:
			out = append(out, hashedType{n, nil, "", true})
			for _, v := range d.Variants {
				if v.Kind != schema.VariantStruct {
					vn := variantName(v, g.name(d))
					out = append(out, hashedType{n + "::" + vn, v.Fields, vn, false})
				}
			}
		}
	}
	return out
}

// hashedType is a type that gets a std::hash: its qualified name, its
// fields and the name fieldName needs, or a union (hashing its value).
type hashedType struct {
	name   string
	fields []*schema.Field
	owner  string
	union  bool
}

// hashDecls specializes std::hash for every owned type (hashed), after the
// schema's namespace: first every specialization, then their inline
// definitions, so that each is declared before any definition uses it. Each
// mixes its fields in order (a union its std::variant) with the runtime's
// hash_combine, the one mechanism every type shares. They are inline in the
// header rather than in the .cpp: there, GCC 12 inlined less into the
// decoders of the same translation unit (the registry's decode took 11%
// more instructions).
func (g *generator) hashDecls(p *emit.Printer) {
	p.P("namespace std {")
	p.P()
	p.P("/// std::hash of every struct, union and union variant type, consistent with")
	p.P("/// operator==: equal values hash equal (-0.0 and 0.0 too).")
	hs := g.hashed()
	for _, h := range hs {
		p.P("template <>")
		p.Block(fmt.Sprintf("struct hash<%s> {", h.name), "};", func() {
			p.F("std::size_t operator()(const %s& value) const noexcept;", h.name)
		})
	}
	for _, h := range hs {
		p.P()
		if !h.union && len(h.fields) == 0 {
			p.F("inline std::size_t hash<%s>::operator()(const %s&) const noexcept { return 0; }", h.name, h.name)
			continue
		}
		p.Block(fmt.Sprintf("inline std::size_t hash<%s>::operator()(const %s& value) const noexcept {", h.name, h.name), "}", func() {
			p.P("std::uint64_t h = 0;")
			if h.union {
				p.F("%s::sdp::hash_combine(h, value.value);", g.nsq)
			}
			for _, f := range h.fields {
				p.F("%s::sdp::hash_combine(h, value.%s);", g.nsq, fieldName(f, h.owner))
			}
			p.P("return static_cast<std::size_t>(h);")
		})
	}
	p.P()
	p.P("} // namespace std")
}
