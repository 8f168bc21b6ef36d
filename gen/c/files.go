package c

import (
	"bytes"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

func newPrinter() *emit.Printer { return emit.New("    ") }

// header returns <pkg>.h.
func (g *generator) header() []byte {
	g.h = newPrinter()
	h, up := g.h, g.up
	h.P("/* ", gen.Header(g.s), " */")
	h.P()
	h.F("#ifndef %s_H_INCLUDED", up)
	h.F("#define %s_H_INCLUDED", up)
	h.P()
	h.P("#include <stdbool.h>")
	h.P("#include <stddef.h>")
	h.P("#include <stdint.h>")
	h.P()
	h.P("#ifdef __cplusplus")
	h.P(`extern "C" {`)
	h.P("#endif")
	h.P()
	g.runtimeDecls()
	g.typeSection()
	g.fingerprints()
	g.apiDecls()
	g.dispatcherDecl()
	g.streamDecl()
	h.P("#ifdef __cplusplus")
	h.P("}")
	h.P("#endif")
	h.P()
	h.F("#endif /* %s_H_INCLUDED */", up)
	return h.Bytes()
}

// fingerprints prints every declaration's fingerprint as a macro.
func (g *generator) fingerprints() {
	h := g.h
	if len(g.s.Decls) == 0 {
		return
	}
	h.P("/*")
	h.P(" * The fingerprints of the types' wire shapes (docs/wire-format.md,")
	h.P(" * \"Fingerprints\"; `sdp fingerprint` prints them): two programs built from")
	h.P(" * versions of the schema encode a type the same way exactly when its")
	h.P(" * fingerprint is the same in both.")
	h.P(" */")
	for _, d := range g.s.Decls {
		h.F("/** The fingerprint of %s. */", d.DeclName())
		h.F("#define %s_FINGERPRINT UINT64_C(0x%s)", g.macroName(d), schema.FormatFingerprint(schema.Fingerprint(d)))
	}
	h.P()
}

// apiDecls prints the public functions of every struct and union.
func (g *generator) apiDecls() {
	h, pkg := g.h, g.pkg
	for _, s := range g.s.Structs {
		name := g.typeName(s)
		h.F("/* %s */", s.Name)
		h.F("/** The message type id of %s. */", s.Name)
		h.F("#define %s_TYPE_ID %du", g.macroName(s), s.ID)
		h.P("/**")
		h.P(" * Sets *v to its default value: all zero (empty strings and arrays, absent")
		h.P(" * optionals, NULL pointers), except that an enum holds its first declared")
		h.P(" * value and a union is its first variant, with default contents.")
		h.P(" */")
		h.F("void %s_init(%s* v);", name, name)
		h.P("/** The encoded size of *v in bytes; SIZE_MAX if it cannot be encoded. */")
		h.F("size_t %s_encoded_size(const %s* v);", name, name)
		h.P("/** Encodes *v into buf: the bytes written, or 0 if cap is too small or *v cannot be encoded. */")
		h.F("size_t %s_encode(const %s* v, uint8_t* buf, size_t cap);", name, name)
		h.P("/**")
		h.F(" * Encodes *v into buf: %s_OK, %s_ERR_BUFFER when cap is smaller (buf is", g.up, g.up)
		h.F(" * left alone) or %s_ERR_ENCODE when *v has no encoding (see _encoded_size).", g.up)
		h.F(" * res (may be NULL) gets the encoded size (with %s_ERR_BUFFER the size", g.up)
		h.P(" * needed) or the rule and path of the first value that has no encoding")
		h.F(" * (%s_encode_error_text describes it). Unlike _encode, it tells an empty", g.pkg)
		h.P(" * encoding from an error.")
		h.P(" */")
		h.F("int %s_encode_ex(const %s* v, uint8_t* buf, size_t cap, %s_encode_result* res);", name, name, pkg)
		h.P("/**")
		h.P(" * Decodes exactly len bytes into *out, taking memory from arena: 0 or a")
		h.F(" * negative error code (%s_strerror names it). *out need not be", pkg)
		h.P(" * initialized (it may hold the previous value of a loop that resets the")
		h.P(" * arena before each decode): the decode sets all that the encoder reads.")
		h.F(" * After an error *out holds its default value (%s_init), never a", name)
		h.P(" * partial one.")
		h.P(" */")
		h.F("int %s_decode(const uint8_t* data, size_t len, %s* out, %s_arena* arena);", name, name, pkg)
		h.P("/** Like _decode, with options (NULL: defaults); res (may be NULL) gets the error offset or bytes consumed. */")
		h.F("int %s_decode_ex(const uint8_t* data, size_t len, %s* out, %s_arena* arena,", name, name, pkg)
		h.F("        const %s_decode_options* opt, %s_decode_result* res);", pkg, pkg)
		h.P("/** The size of *v as a message, header included; SIZE_MAX if it cannot be encoded. */")
		h.F("size_t %s_encoded_message_size(const %s* v);", name, name)
		h.P("/** Encodes *v as a message (header and payload): the bytes written, or 0 if cap is too small or *v cannot be encoded. */")
		h.F("size_t %s_encode_message(const %s* v, uint8_t* buf, size_t cap);", name, name)
		h.P("/**")
		h.P(" * Like _encode_ex, as a message: res->written counts the header too; a")
		h.P(" * payload over 4 GiB is rule \"message\" with path \"message\".")
		h.P(" */")
		h.F("int %s_encode_message_ex(const %s* v, uint8_t* buf, size_t cap, %s_encode_result* res);", name, name, pkg)
		h.F("/** Decodes a message that must carry a value of %s (another type id is %s_ERR_MESSAGE). */", s.Name, g.up)
		h.F("int %s_decode_message(const uint8_t* data, size_t len, %s* out, %s_arena* arena);", name, name, pkg)
		h.P("/** Like _decode_message, with options and result as for _decode_ex. */")
		h.F("int %s_decode_message_ex(const uint8_t* data, size_t len, %s* out, %s_arena* arena,", name, name, pkg)
		h.F("        const %s_decode_options* opt, %s_decode_result* res);", pkg, pkg)
		h.P()
	}
	for _, u := range g.s.Unions {
		g.unionDecls(u)
	}
}

// source returns <pkg>.c.
func (g *generator) source() []byte {
	body := newPrinter()
	g.c = body
	for _, s := range g.s.Structs {
		g.structInit(s)
		g.structEncode(s)
		g.structRead(s)
		g.structDecode(s)
		g.structMessages(s)
	}
	for _, u := range g.s.Unions {
		g.unionEncode(u)
		g.unionRead(u)
		g.unionAPI(u)
	}
	g.unionInits()
	g.dispatcherDefs()
	g.streamDefs()

	plains := newPrinter()
	g.c = plains
	g.plainFuncs()

	enums := newPrinter()
	g.c = enums
	for _, e := range g.s.Enums {
		g.enumFuncs(e)
	}

	out := newPrinter()
	out.P("/* ", gen.Header(g.s), " */")
	out.P()
	out.F("#include \"%s.h\"", g.pkg)
	out.P()
	g.c = out
	g.runtimeDefs()
	var protos []string
	for _, s := range g.s.Structs {
		name := g.typeName(s)
		protos = append(protos,
			fmt.Sprintf("static uint8_t* %s_write_(const %s* v, uint8_t* p);", name, name),
			fmt.Sprintf("static int %s_check_(const %s* v, %s_dec_* d);", name, name, g.pkg),
			fmt.Sprintf("static const uint8_t* %s_read_(%s_dec_* d, const uint8_t* p, %s* out, uint32_t depth);", name, g.pkg, name))
	}
	for _, u := range g.s.Unions {
		if g.uses["init:"+u.Name] {
			name := g.typeName(u)
			protos = append(protos, fmt.Sprintf("static void %s_init_(%s* v);", name, name))
		}
		name := g.typeName(u)
		protos = append(protos,
			fmt.Sprintf("static size_t %s_size_(const %s* v);", name, name),
			fmt.Sprintf("static uint8_t* %s_write_(const %s* v, uint8_t* p);", name, name),
			fmt.Sprintf("static int %s_check_(const %s* v, %s_dec_* d);", name, name, g.pkg),
			fmt.Sprintf("static const uint8_t* %s_read_(%s_dec_* d, const uint8_t* p, %s* out, uint32_t depth);", name, g.pkg, name))
	}
	if len(protos) > 0 {
		out.Line(strings.Join(protos, "\n"))
		out.P()
	}
	src := append(out.Bytes(), '\n')
	src = append(src, plains.Bytes()...)
	src = append(src, '\n')
	src = append(src, enums.Bytes()...)
	src = append(src, '\n')
	src = append(src, body.Bytes()...)
	for bytes.Contains(src, []byte("\n\n\n")) {
		src = bytes.ReplaceAll(src, []byte("\n\n\n"), []byte("\n\n"))
	}
	return src
}

// unionDecls prints the public functions of a union, which encodes and
// decodes on its own as a struct does (without messages: only structs are
// messages).
func (g *generator) unionDecls(u *schema.Union) {
	h, pkg, name := g.h, g.pkg, g.typeName(u)
	h.F("/* %s (union) */", u.Name)
	h.P("/** Sets *v to its default value: the first variant, with default contents. */")
	h.F("void %s_init(%s* v);", name, name)
	h.P("/** The encoded size of *v in bytes (tag and variant); SIZE_MAX if it cannot be encoded (an unknown tag, or contents that cannot). */")
	h.F("size_t %s_encoded_size(const %s* v);", name, name)
	h.P("/** Encodes *v into buf: the bytes written, or 0 if cap is too small or *v cannot be encoded. */")
	h.F("size_t %s_encode(const %s* v, uint8_t* buf, size_t cap);", name, name)
	h.P("/** Encodes *v into buf and fills res (may be NULL), as a struct's _encode_ex does. */")
	h.F("int %s_encode_ex(const %s* v, uint8_t* buf, size_t cap, %s_encode_result* res);", name, name, pkg)
	h.P("/**")
	h.P(" * Decodes exactly len bytes into *out, taking memory from arena, as a")
	h.F(" * struct's _decode does; after an error *out holds its default value (%s_init).", name)
	h.P(" */")
	h.F("int %s_decode(const uint8_t* data, size_t len, %s* out, %s_arena* arena);", name, name, pkg)
	h.P("/**")
	h.P(" * Like _decode, with options (NULL: defaults); res (may be NULL) gets the error offset and path")
	h.P(" * (starting with the variant's schema name) or the bytes consumed.")
	h.P(" */")
	h.F("int %s_decode_ex(const uint8_t* data, size_t len, %s* out, %s_arena* arena,", name, name, pkg)
	h.F("        const %s_decode_options* opt, %s_decode_result* res);", pkg, pkg)
	h.P()
}
