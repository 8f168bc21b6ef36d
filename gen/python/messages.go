package python

import (
	"fmt"
	"sort"
	"strings"

	"sdp/schema"
)

// topFuncs writes the module-level functions that encode and decode a union
// or an enum on its own (docs/python.md, "Unions and enums on their own").
func (g *generator) topFuncs(d schema.Decl) {
	p, f := g.p, g.n.top[d]
	what := "union"
	if _, ok := d.(*schema.Enum); ok {
		what = "enum"
	}
	c, hint, name := canon(g.plan.Of(d).Ref), g.n.decl[d], pyString(d.DeclName())
	p.F("def %s(value: %s) -> bytes:", f.encode, hint)
	p.F(`    """Encodes a %s (%s) on its own; raises EncodeError for a value that has no encoding."""`, name, what)
	p.F("    return _sdp_run(_sdp_e_%s, _sdp_k_%s, value)", c, c)
	g.sep()
	p.F("def %s(value: %s) -> int:", f.size, hint)
	p.F(`    """The number of bytes %s(value) returns; raises what it raises."""`, f.encode)
	p.F("    return len(%s(value))", f.encode)
	g.sep()
	p.F("def %s(data: _sdp_t.Any, options: DecodeOptions | None = None) -> %s:", f.decode, hint)
	p.F(`    """Decodes a %s that fills data (bytes, bytearray or memoryview) exactly: trailing bytes are an error."""`, name)
	p.F("    return _sdp_top(_SdpReader(data, options), _sdp_d_%s, True)", c)
	g.sep()
	p.F("def %s(data: _sdp_t.Any, options: DecodeOptions | None = None) -> _sdp_Prefix[%s]:", f.prefix, hint)
	p.F(`    """Decodes a %s at the start of data; returns it and the bytes consumed."""`, name)
	p.Line("    r = _SdpReader(data, options)")
	p.F("    v = _sdp_top(r, _sdp_d_%s, False)", c)
	p.Line("    return v, r.pos")
}

// fingerprint is the fingerprint of d's wire shape as a Python literal.
func fingerprint(d schema.Decl) string {
	return "0x" + schema.FormatFingerprint(schema.Fingerprint(d))
}

// methods writes a struct class's methods: decode, encode and their message
// forms, and the sizes; a blank line follows when the class has fields
// (blank).
func (g *generator) methods(st *schema.Struct, shadow map[string]bool, self, opts string, blank bool) {
	p := g.p
	v := g.plan.Of(st).Ref
	c := canon(v)
	p.F("TYPE_ID: _sdp_t.ClassVar[%s] = %d", g.nm("int", shadow), st.ID)
	p.F("FINGERPRINT: _sdp_t.ClassVar[%s] = %s", g.nm("int", shadow), fingerprint(st))
	p.Line("")
	p.Line("@classmethod")
	p.F("def decode(cls, data: _sdp_t.Any, options: %s = None) -> %s:", opts, self)
	p.Line(`    """Decodes data (bytes, bytearray or memoryview) exactly: trailing bytes are an error."""`)
	p.F("    return _sdp_top(_SdpReader(data, options), _sdp_d_%s, True)", c)
	p.Line("")
	p.Line("@classmethod")
	p.F("def decode_prefix(cls, data: _sdp_t.Any, options: %s = None) -> _sdp_Prefix[%s]:", opts, self)
	p.Line(`    """Decodes a value at the start of data; returns it and the bytes consumed."""`)
	p.Line("    r = _SdpReader(data, options)")
	p.F("    v = _sdp_top(r, _sdp_d_%s, False)", c)
	p.Line("    return v, r.pos")
	p.Line("")
	p.Line("@classmethod")
	p.F("def decode_message(cls, data: _sdp_t.Any, options: %s = None) -> %s:", opts, self)
	p.F(`    """Decodes a message that must carry a %s (type id %d)."""`, pyString(st.Name), st.ID)
	p.F("    _sdp_header(data, %d)", st.ID)
	p.F("    return _sdp_top(_SdpReader(data, options, 10), _sdp_d_%s, True)", c)
	p.Line("")
	p.F("def decode_into(self, data: _sdp_t.Any, options: %s = None) -> None:", opts)
	p.Line(`    """Decodes data exactly into this value, replacing every field; after an error no field has changed."""`)
	p.F("    _sdp_into(self, _sdp_top(_SdpReader(data, options), _sdp_d_%s, True))", c)
	p.Line("")
	p.F("def encode(self) -> %s:", g.nm("bytes", shadow))
	p.Line(`    """Encodes the value; raises EncodeError for a value that has no encoding."""`)
	parts := holdsArrays(v)
	if parts {
		p.F("    return _sdp_run_parts(_sdp_e_%s, _sdp_k_%s, self)", c, c)
	} else {
		p.F("    return _sdp_run(_sdp_e_%s, _sdp_k_%s, self)", c, c)
	}
	p.Line("")
	p.F("def encode_into(self, buffer: _sdp_t.Any, offset: %s = 0) -> %s:", g.nm("int", shadow), g.nm("int", shadow))
	p.Line(`    """Encodes the value into a writable buffer at offset; returns the bytes written."""`)
	p.Line("    return _sdp_encode_into(self.encode(), buffer, offset)")
	p.Line("")
	p.F("def encode_message(self) -> %s:", g.nm("bytes", shadow))
	p.Line(`    """Encodes the value as a message: header, then payload."""`)
	if parts {
		p.F("    return _sdp_run_parts(_sdp_e_%s, _sdp_k_%s, self, %d)", c, c, st.ID)
	} else {
		p.F("    return _sdp_frame(%d, self.encode())", st.ID)
	}
	p.Line("")
	p.F("def encode_message_into(self, buffer: _sdp_t.Any, offset: %s = 0) -> %s:", g.nm("int", shadow), g.nm("int", shadow))
	p.Line(`    """Encodes the value as a message into a writable buffer at offset; returns the bytes written."""`)
	p.Line("    return _sdp_encode_into(self.encode_message(), buffer, offset)")
	p.Line("")
	p.F("def encoded_size(self) -> %s:", g.nm("int", shadow))
	p.Line(`    """The number of bytes encode() returns; raises what it raises."""`)
	p.Line("    return len(self.encode())")
	p.Line("")
	p.F("def encoded_message_size(self) -> %s:", g.nm("int", shadow))
	p.Line(`    """The number of bytes encode_message() returns; raises what it raises."""`)
	p.Line("    return MESSAGE_HEADER_SIZE + len(self.encode())")
	if blank {
		p.Line("")
	}
}

// tables writes the module's tables of message types: the decoders and
// classes by type id, the fingerprints by name, and the hello's entries.
func (g *generator) tables() {
	p := g.p
	var ids []string
	var classes []string
	structs := append([]*schema.Struct(nil), g.s.Structs...)
	sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
	for _, st := range structs {
		c := canon(g.plan.Of(st).Ref)
		ids = append(ids, fmt.Sprintf("%d: _sdp_d_%s", st.ID, c))
		classes = append(classes, fmt.Sprintf("%d: %s", st.ID, g.n.decl[st]))
	}
	p.F("_SDP_TYPES: dict[int, _sdp_t.Callable[[_SdpReader, int], _sdp_t.Any]] = {%s}", strings.Join(ids, ", "))
	p.F("MESSAGE_TYPES: dict[int, type[_sdp_t.Any]] = {%s}", strings.Join(classes, ", "))
	var fps []string
	for _, d := range g.s.Decls {
		fps = append(fps, fmt.Sprintf("\"%s\": %s", pyString(d.DeclName()), fingerprint(d)))
	}
	p.F("FINGERPRINTS: dict[str, int] = {%s}", strings.Join(fps, ", "))
	var hello []string
	for _, st := range structs {
		hello = append(hello, fmt.Sprintf("%d: (\"%s\", %s)", st.ID, pyString(st.Name), fingerprint(st)))
	}
	p.F("_SDP_HELLO: dict[int, tuple[str, int]] = {%s}", strings.Join(hello, ", "))
}
