package c

import (
	"fmt"

	"sdp/schema"
)

// structMessages prints a struct's message functions.
func (g *generator) structMessages(s *schema.Struct) {
	p, name, pkg, up := g.c, g.typeName(s), g.pkg, g.up
	id := g.macroName(s) + "_TYPE_ID"
	p.Block(fmt.Sprintf("size_t %s_encoded_message_size(const %s* v) {", name, name), "}", func() {
		g.use("add_") // here and in every struct's _size
		p.F("return %s_add_(%s_MESSAGE_HEADER_SIZE, %s_encoded_size(v));", pkg, up, name)
	})
	p.P()
	p.Block(fmt.Sprintf("int %s_encode_message_ex(const %s* v, uint8_t* buf, size_t cap, %s_encode_result* res) {", name, name, pkg), "}", func() {
		p.F("size_t n = %s_encoded_size(v);", name)
		g.use("over_u32_")
		g.use("encoded_")
		p.Block("if (n == SIZE_MAX) {", "}", func() {
			p.F("%s_dec_ d;", pkg)
			p.F("return %s_refuse_(res, &d, %s_check_(v, &d));", pkg, name)
		})
		p.Block(fmt.Sprintf("if (%s_over_u32_(n)) {", pkg), "}", func() {
			p.F("return %s_refuse_message_(res);", pkg)
		})
		// Where size_t has 32 bits, the header can take the size past it.
		p.Block(fmt.Sprintf("if (n > SIZE_MAX - %s_MESSAGE_HEADER_SIZE) {", up), "}", func() {
			p.F("return %s_refuse_(res, NULL, 1);", pkg)
		})
		p.Block(fmt.Sprintf("if (cap < %s_MESSAGE_HEADER_SIZE || n > cap - %s_MESSAGE_HEADER_SIZE) {", up, up), "}", func() {
			p.F("return %s_encoded_(res, %s_ERR_BUFFER, n + %s_MESSAGE_HEADER_SIZE);", pkg, up, up)
		})
		p.F("(void)%s_write_(v, %s_put_header_(buf, %s, n));", name, pkg, id)
		p.F("return %s_encoded_(res, %s_OK, n + %s_MESSAGE_HEADER_SIZE);", pkg, up, up)
	})
	p.P()
	p.Block(fmt.Sprintf("size_t %s_encode_message(const %s* v, uint8_t* buf, size_t cap) {", name, name), "}", func() {
		p.F("size_t n = %s_encoded_size(v);", name)
		p.F("if (n == SIZE_MAX || %s_over_u32_(n) || cap < %s_MESSAGE_HEADER_SIZE ||", pkg, up)
		p.Block(fmt.Sprintf("        n > cap - %s_MESSAGE_HEADER_SIZE) {", up), "}", func() {
			p.P("return 0;")
		})
		p.F("(void)%s_write_(v, %s_put_header_(buf, %s, n));", name, pkg, id)
		p.F("return n + %s_MESSAGE_HEADER_SIZE;", up)
	})
	p.P()
	p.Block(fmt.Sprintf("int %s_decode_message(const uint8_t* data, size_t len, %s* out, %s_arena* arena) {", name, name, pkg), "}", func() {
		p.F("return %s_decode_message_ex(data, len, out, arena, NULL, NULL);", name)
	})
	p.P()
	p.F("int %s_decode_message_ex(const uint8_t* data, size_t len, %s* out, %s_arena* arena,", name, name, pkg)
	p.Block(fmt.Sprintf("        const %s_decode_options* opt, %s_decode_result* res) {", pkg, pkg), "}", func() {
		p.F("%s_dec_ d;", pkg)
		p.P("uint16_t type_id = 0;")
		p.F("const uint8_t* p = %s_read_header_(&d, data, len, arena, opt, &type_id, %s);", pkg, id)
		p.Block("if (p != NULL) {", "}", func() {
			g.memInit("&d")
			p.F("p = %s_read_(&d, p, out, 1);", name)
		})
		g.resetOnError(name+"_init(out);", fmt.Sprintf("%s_dec_done_(&d, p, 0, res)", pkg))
	})
	p.P()
}

// dispatcherDecl prints the message struct and dispatcher prototypes.
func (g *generator) dispatcherDecl() {
	h, pkg := g.h, g.pkg
	h.P("/** Any message of this schema: type_id says which member of value is set. */")
	h.Block(fmt.Sprintf("typedef struct %s_message {", pkg), fmt.Sprintf("} %s_message;", pkg), func() {
		h.F("/** One of the %s_*_TYPE_ID constants. */", g.up)
		h.P("uint16_t type_id;")
		if len(g.s.Structs) == 0 {
			return
		}
		h.Block("union {", "} value;", func() {
			for _, s := range g.s.Structs {
				h.F("%s %s;", g.typeName(s), memberName(s.Name))
			}
		})
	})
	h.P()
	h.P("/**")
	h.P(" * Decodes a message of any type of this schema into out (see _decode).")
	h.P(" * After an error *out is the zero message: type_id 0 (no type), all zero.")
	h.P(" */")
	h.F("int %s_decode_message(const uint8_t* data, size_t len, %s_message* out, %s_arena* arena);", pkg, pkg, pkg)
	h.P("/** Like _decode_message, with options; res (may be NULL) gets the error offset or bytes consumed. */")
	h.F("int %s_decode_message_ex(const uint8_t* data, size_t len, %s_message* out, %s_arena* arena,", pkg, pkg, pkg)
	h.F("        const %s_decode_options* opt, %s_decode_result* res);", pkg, pkg)
	h.P("/** The encoded size of m as a message; SIZE_MAX for an unknown type_id. */")
	h.F("size_t %s_encoded_message_size(const %s_message* m);", pkg, pkg)
	h.P("/** Encodes m as a message into buf; the bytes written, or 0 if cap is too small, type_id unknown or the value cannot be encoded. */")
	h.F("size_t %s_encode_message(const %s_message* m, uint8_t* buf, size_t cap);", pkg, pkg)
	h.F("/** Like the struct's _encode_message_ex; an unknown type_id is %s_ERR_ENCODE, rule \"message\". */", g.up)
	h.F("int %s_encode_message_ex(const %s_message* m, uint8_t* buf, size_t cap, %s_encode_result* res);", pkg, pkg, pkg)
	h.P()
}

// dispatcherDefs prints the dispatcher functions.
func (g *generator) dispatcherDefs() {
	p, pkg, up := g.c, g.pkg, g.up
	p.Block(fmt.Sprintf("int %s_decode_message(const uint8_t* data, size_t len, %s_message* out, %s_arena* arena) {", pkg, pkg, pkg), "}", func() {
		p.F("return %s_decode_message_ex(data, len, out, arena, NULL, NULL);", pkg)
	})
	p.P()
	p.F("int %s_decode_message_ex(const uint8_t* data, size_t len, %s_message* out, %s_arena* arena,", pkg, pkg, pkg)
	p.Block(fmt.Sprintf("        const %s_decode_options* opt, %s_decode_result* res) {", pkg, pkg), "}", func() {
		p.F("%s_dec_ d;", pkg)
		p.P("uint16_t type_id = 0;")
		p.F("const uint8_t* p = %s_read_header_(&d, data, len, arena, opt, &type_id, -1);", pkg)
		p.Block("if (p != NULL) {", "}", func() {
			g.memInit("&d")
			p.P("out->type_id = type_id;")
			p.P("switch (type_id) {")
			for _, s := range g.s.Structs {
				p.F("case %s_TYPE_ID:", g.macroName(s))
				p.In()
				p.F("p = %s_read_(&d, p, &out->value.%s, 1);", g.typeName(s), memberName(s.Name))
				p.P("break;")
				p.Out()
			}
			p.P("default:")
			p.In()
			p.F("%s_fail_(&d, p - 6, %s_ERR_MESSAGE);", pkg, up)
			p.F("p = %s_in_field_(&d, \"message\");", pkg)
			p.P("break;")
			p.Out()
			p.P("}")
		})
		g.resetOnError("memset(out, 0, sizeof *out);", fmt.Sprintf("%s_dec_done_(&d, p, 0, res)", pkg))
	})
	p.P()
	args := map[string]string{"encoded_message_size": "", "encode_message": ", buf, cap", "encode_message_ex": ", buf, cap, res"}
	dispatch := func(sig, fn, fallback string) {
		p.Block(sig, "}", func() {
			p.P("switch (m->type_id) {")
			for _, s := range g.s.Structs {
				p.F("case %s_TYPE_ID:", g.macroName(s))
				p.In()
				p.F("return %s_%s(&m->value.%s%s);", g.typeName(s), fn, memberName(s.Name), args[fn])
				p.Out()
			}
			p.P("default:")
			p.In()
			if fn != "encoded_message_size" {
				p.P("(void)buf;")
				p.P("(void)cap;")
			}
			if fn == "encode_message_ex" {
				// A message of no struct of the schema: rule message.
				p.F("return %s_refuse_message_(res);", pkg)
			} else {
				p.F("return %s;", fallback)
			}
			p.Out()
			p.P("}")
		})
		p.P()
	}
	dispatch(fmt.Sprintf("size_t %s_encoded_message_size(const %s_message* m) {", pkg, pkg), "encoded_message_size", "SIZE_MAX")
	dispatch(fmt.Sprintf("size_t %s_encode_message(const %s_message* m, uint8_t* buf, size_t cap) {", pkg, pkg), "encode_message", "0")
	dispatch(fmt.Sprintf("int %s_encode_message_ex(const %s_message* m, uint8_t* buf, size_t cap, %s_encode_result* res) {", pkg, pkg, pkg), "encode_message_ex", up+"_ERR_ENCODE")
}
