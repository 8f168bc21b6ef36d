package ts

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/schema"
)

// emitMessages prints the message dispatcher: the Message type, the
// decoder of any message, the stream reader and writer and the hello.
func (g *generator) emitMessages(p *emit.Printer) {
	var names []string
	for _, st := range g.s.Structs {
		names = append(names, g.names.decl[st])
	}
	msg := "never"
	if len(names) > 0 {
		msg = strings.Join(names, " | ")
	}
	if g.mode != modeJS {
		p.P("/** Any struct of the schema: what decodeMessage and MessageReader return. */")
		p.F("export type Message = %s;", msg)
		p.P()
	}
	g.internal(p, "$typeName", []string{"$id: number"}, "string | undefined", func() {
		if len(g.s.Structs) > 0 {
			p.Block("switch ($id) {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("case %d: return %q;", st.ID, st.Name)
				}
			})
		}
		p.P("return undefined;")
	})
	if g.mode != modeDTS {
		p.P("// The schema's structs, for hellos.")
		p.F("const $structs%s = [", g.ty(": readonly $.MessageInfo[]"))
		for _, st := range g.s.Structs {
			p.F("  { typeId: %d, name: %q, fingerprint: 0x%sn },", st.ID, st.Name, schema.FormatFingerprint(schema.Fingerprint(st)))
		}
		p.P("];")
		p.P()
	}
	g.internal(p, "$payload", []string{"$id: number", "$b: Uint8Array", "$opts: $.DecodeOptions | undefined"}, "Message", func() {
		if len(g.s.Structs) > 0 {
			p.Block("switch ($id) {", "}", func() {
				for _, st := range g.s.Structs {
					p.F("case %d: return %s.decode($b, $opts);", st.ID, g.names.decl[st])
				}
			})
		}
		p.P(`throw new Error("unreachable: a type id the reader checked");`)
	})
	p.P("/**")
	p.P(" * Decodes a message of any struct of the schema (see docs/wire-format.md);")
	p.P(" * the result's class (instanceof, messageTypeId()) says which.")
	p.P(" */")
	g.method(p, "export "+g.fnDecl(), "decodeMessage", []string{"bytes: Uint8Array | ArrayBuffer", "opts?: $.DecodeOptions"}, "Message", func() {
		p.P("const $b = $.bytesOf(bytes);")
		p.F("const $id = $.readHeader($b, -1, \"\", $typeName, %q);", g.s.Name)
		if len(g.s.Structs) > 0 {
			p.Block("switch ($id) {", "}", func() {
				for _, st := range g.s.Structs {
					n := g.names.decl[st]
					p.F("case %d: return $.decodePayload($b, opts, $top_%s, %q);", st.ID, n, st.Name)
				}
			})
		}
		p.P(`throw new Error("unreachable: a type id readHeader checked");`)
	})
	p.P()
	decl := "export class "
	if g.mode == modeDTS {
		decl = "export declare class "
	}
	p.P("/**")
	p.P(" * Reads the messages of a stream (a ReadableStream or an async iterable of")
	p.P(" * chunks) one at a time: `await reader.read()` or `for await (const m of reader)`.")
	p.P(" */")
	p.Block(decl+"MessageReader extends $.MessageReaderBase"+g.ty("<Message>")+" {", "}", func() {
		g.method(p, "", "constructor", []string{"source: $.ByteSource", "opts?: $.MessageReaderOptions"}, "", func() {
			p.F("super(source, opts, $structs, $payload, %q);", g.s.Name)
		})
	})
	p.P()
	p.P("/** Writes messages (and the schema's hello) to a WritableStream or a callback. */")
	p.Block(decl+"MessageWriter extends $.MessageWriterBase"+g.ty("<Message>")+" {", "}", func() {
		g.method(p, "", "constructor", []string{"sink: $.ByteSink", "opts?: $.MessageWriterOptions"}, "", func() {
			p.P("super(sink, $structs, opts);")
		})
	})
	p.P()
	p.P("/** The schema's hello: the message that lets a reader check the schema (docs/wire-format.md). */")
	if g.mode == modeDTS {
		p.P("export declare const HELLO: Uint8Array;")
	} else {
		p.F("export const HELLO%s = $.encodeHello($structs);", g.ty(": Uint8Array"))
	}
	_ = fmt.Sprint
}

func (g *generator) fnDecl() string {
	if g.mode == modeDTS {
		return "declare function "
	}
	return "function "
}
