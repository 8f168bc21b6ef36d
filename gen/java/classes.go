package java

import (
	"fmt"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// member is a field of a struct or of a variant class, in Java.
type member struct {
	name string // Java field and accessor name
	typ  string // Java type
	t    *schema.Type
	v    *plan.Value
	doc  []string
}

func (g *generator) members(fs []*plan.Field, sc scope) []member {
	var out []member
	for _, f := range fs {
		m := member{t: f.Value.Type, v: f.Value}
		if f.Field != nil {
			m.name, m.doc = g.names.field[f.Field], f.Field.Doc
		} else {
			m.name = "value"
			m.doc = []string{"The struct the variant carries."}
		}
		m.typ = g.jtype(m.t, sc)
		out = append(out, m)
	}
	return out
}

// dataMembers prints the fields, the constructor's defaults, accessors,
// equals, hashCode and toString of a class holding ms.
func (g *generator) dataMembers(p *emit.Printer, cls string, ms []member, sc scope, init bool) {
	hidden := memberNames(ms)
	for _, m := range ms {
		doc(p, m.doc)
		if init {
			p.F("public %s %s = %s;", m.typ, m.name, g.zero(m.v, sc, hidden))
		} else {
			p.F("public %s %s;", m.typ, m.name)
		}
		p.P()
	}
	if !init {
		p.F("/** Makes a %s with every field at its default. */", cls)
		p.F("public %s() {", cls)
		p.P("    reset$();")
		p.P("}")
		p.P()
		p.P("/**")
		p.F(" * Decodes a %s from the reader: every field is assigned there, so none is set to its default first.", cls)
		p.P(" *")
		p.P(" * @param r$ the reader")
		p.P(" * @throws DecodeException if the input breaks a rule")
		p.P(" */")
		p.F("%s(SdpReader r$) throws DecodeException {", cls)
		p.F("    SdpCodec.read$%s(r$, this);", cls)
		p.P("}")
		p.P()
	}
	for _, m := range ms {
		if m.t.Kind == schema.Optional {
			p.F("/** @return %s, empty when absent */", m.name)
			p.F("public java.util.Optional<%s> %s() {", strings.TrimSuffix(m.typ, ""), m.name)
			p.F("    return java.util.Optional.ofNullable(this.%s);", m.name)
			p.P("}")
		} else {
			p.F("/** @return %s */", m.name)
			p.F("public %s %s() {", m.typ, m.name)
			p.F("    return this.%s;", m.name)
			p.P("}")
		}
		p.P()
		p.P("/**")
		p.F(" * Sets %s.", m.name)
		p.P(" *")
		p.F(" * @param value$ the new value%s", map[bool]string{true: " (null: absent)"}[m.t.Kind == schema.Optional])
		p.P(" * @return this value")
		p.P(" */")
		p.F("public %s %s(%s value$) {", cls, m.name, m.typ)
		p.F("    this.%s = value$;", m.name)
		p.P("    return this;")
		p.P("}")
		p.P()
	}
	p.P("@java.lang.Override")
	p.P("public boolean equals(java.lang.Object o$) {")
	p.In()
	p.P("if (this == o$) {")
	p.P("    return true;")
	p.P("}")
	p.F("if (!(o$ instanceof %s)) {", cls)
	p.P("    return false;")
	p.P("}")
	if len(ms) == 0 {
		p.P("return true;")
	} else {
		p.F("%s x$ = (%s) o$;", cls, cls)
		var conds []string
		for _, m := range ms {
			switch m.typ {
			case "float":
				conds = append(conds, fmt.Sprintf("java.lang.Float.compare(this.%s, x$.%s) == 0", m.name, m.name))
			case "double":
				conds = append(conds, fmt.Sprintf("java.lang.Double.compare(this.%s, x$.%s) == 0", m.name, m.name))
			case "boolean", "byte", "short", "int", "long":
				conds = append(conds, fmt.Sprintf("this.%s == x$.%s", m.name, m.name))
			default:
				conds = append(conds, fmt.Sprintf("Sdp.eq(this.%s, x$.%s)", m.name, m.name))
			}
		}
		p.P("return " + strings.Join(conds, "\n        && ") + ";")
	}
	p.Out()
	p.P("}")
	p.P()
	p.P("@java.lang.Override")
	p.P("public int hashCode() {")
	p.F("    int h$ = %d;", len(cls))
	for _, m := range ms {
		p.F("    h$ = 31 * h$ + Sdp.hash(this.%s);", m.name)
	}
	p.P("    return h$;")
	p.P("}")
	p.P()
	p.P("@java.lang.Override")
	p.P("public java.lang.String toString() {")
	var parts []string
	for i, m := range ms {
		sep := ", "
		if i == 0 {
			sep = ""
		}
		parts = append(parts, fmt.Sprintf("%s + Sdp.str(this.%s)", javaString(sep+m.name+"="), m.name))
	}
	if len(parts) == 0 {
		p.F("    return %s;", javaString(cls+"{}"))
	} else {
		p.F("    return %s + %s + \"}\";", javaString(cls+"{"), strings.Join(parts, " + "))
	}
	p.P("}")
}

// resetBody prints the assignments of every member's default.
func (g *generator) resetBody(p *emit.Printer, recv string, ms []member, sc scope) {
	hidden := memberNames(ms)
	for _, m := range ms {
		p.F("%s.%s = %s;", recv, m.name, g.zero(m.v, sc, hidden))
	}
}

// memberNames is the set of a class's field names.
func memberNames(ms []member) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		out[m.name] = true
	}
	return out
}

func (g *generator) structClass(p *emit.Printer, d *plan.Decl) {
	st := d.Struct
	name := g.names.decl[st]
	ms := g.members(d.Fields, nil)
	doc(p, st.Doc)
	p.F("public final class %s implements SdpMessage {", name)
	p.In()
	p.F("/** The message type id of %s. */", name)
	p.F("public static final int TYPE_ID = %d;", st.ID)
	p.P()
	p.F("/** The fingerprint of %s's wire shape (docs/wire-format.md). */", name)
	p.F("public static final long FINGERPRINT = 0x%016xL;", schema.Fingerprint(st))
	p.P()
	g.dataMembers(p, name, ms, nil, false)
	p.P()
	p.P("void reset$() {")
	p.In()
	g.resetBody(p, "this", ms, nil)
	p.Out()
	p.P("}")
	p.P()
	g.codecAPI(p, name, "SdpCodec.size$"+name+"(this)", "SdpCodec.write$"+name+"(w$, this)", true)
	p.Out()
	p.P("}")
}

// codecAPI prints the encode and decode methods of a struct (message too)
// or a union (message false).
func (g *generator) codecAPI(p *emit.Printer, name, size, write string, message bool) {
	lines := func(s string) {
		for _, l := range strings.Split(strings.TrimPrefix(s, "\n"), "\n") {
			p.P(strings.ReplaceAll(l, "\t", "    "))
		}
	}
	r := strings.NewReplacer("«NAME»", name, "«SIZE»", size, "«WRITE»", write)
	if message {
		lines(r.Replace(`
/** @return TYPE_ID */
@java.lang.Override
public int typeId() {
	return TYPE_ID;
}
`))
	}
	lines(r.Replace(`
/**
 * @return the number of bytes encode() writes
 * @throws EncodeException if the value has no encoding
 */
public int encodedSize() throws EncodeException {
	return Sdp.total(«SIZE»);
}

/**
 * @return the value's encoding
 * @throws EncodeException if the value has no encoding (a null where the schema has no optional, a number out
 *     of its range, a fixed array of another length, a lone surrogate)
 */
` + map[bool]string{true: "@java.lang.Override\n"}[message] + `public byte[] encode() throws EncodeException {
	try {
		// One pass into the thread's scratch buffer.
		SdpWriter w$ = SdpWriter.scratch(0);
		«WRITE»;
		return w$.take();
	} catch (java.lang.RuntimeException e$) {
		// A value that has no encoding, or more than the scratch buffer grows to: the size pass first.
	}
	byte[] b$ = new byte[encodedSize()];
	SdpWriter w$ = new SdpWriter(b$, 0);
	«WRITE»;
	return b$;
}

/**
 * Writes the value's encoding at the buffer's position and moves the position past it.
 *
 * @param out$ the buffer
 * @throws EncodeException if the value has no encoding (nothing is written)
 * @throws java.nio.BufferOverflowException if the buffer has less room than encodedSize()
 */
public void encodeTo(java.nio.ByteBuffer out$) throws EncodeException {
	int n$ = encodedSize();
	if (out$.remaining() < n$) {
		throw new java.nio.BufferOverflowException();
	}
	if (out$.hasArray() && !out$.isReadOnly()) {
		SdpWriter w$ = new SdpWriter(out$.array(), out$.arrayOffset() + out$.position());
		«WRITE»;
		Sdp.advance(out$, n$);
	} else {
		out$.put(encode());
	}
}

/**
 * Decodes b, which must hold exactly one «NAME», with the default options.
 *
 * @param b$ the input
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public static «NAME» decode(byte[] b$) throws DecodeException {
	return decode(b$, null);
}

/**
 * Decodes b, which must hold exactly one «NAME».
 *
 * @param b$ the input
 * @param options$ the limits, or null for the defaults
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public static «NAME» decode(byte[] b$, DecodeOptions options$) throws DecodeException {
	SdpReader r$ = SdpReader.of(b$, 0, 0, b$.length, b$.length, options$);
` + map[bool]string{true: "\t«NAME» v$ = new «NAME»(r$);\n", false: "\t«NAME» v$ = SdpCodec.read$«NAME»(r$, null);\n"}[message] + `	r$.finish();
	return v$;
}

/**
 * Decodes the remaining bytes of a buffer, which must hold exactly one «NAME»; the buffer's position is left as
 * it is.
 *
 * @param b$ the input
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public static «NAME» decode(java.nio.ByteBuffer b$) throws DecodeException {
	return decode(Sdp.array(b$), null);
}

/**
 * Decodes the remaining bytes of a buffer, which must hold exactly one «NAME».
 *
 * @param b$ the input
 * @param options$ the limits, or null for the defaults
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public static «NAME» decode(java.nio.ByteBuffer b$, DecodeOptions options$) throws DecodeException {
	return decode(Sdp.array(b$), options$);
}
`))
	lines(r.Replace(`
/**
 * Decodes one «NAME» from the buffer's position, which moves past it; bytes after it are left alone.
 * Offsets in errors count from the position. On an error the position does not move.
 *
 * @param b$ the input
 * @param options$ the limits (the memory limit is sized for the remaining bytes), or null for the defaults
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public static «NAME» decodePrefix(java.nio.ByteBuffer b$, DecodeOptions options$) throws DecodeException {
	byte[] a$;
	int start$;
	if (b$.hasArray()) {
		a$ = b$.array();
		start$ = b$.arrayOffset() + b$.position();
	} else {
		a$ = new byte[b$.remaining()];
		b$.duplicate().get(a$);
		start$ = 0;
	}
	SdpReader r$ = SdpReader.of(a$, start$, start$, start$ + b$.remaining(), b$.remaining(), options$);
` + map[bool]string{true: "\t«NAME» v$ = new «NAME»(r$);\n", false: "\t«NAME» v$ = SdpCodec.read$«NAME»(r$, null);\n"}[message] + `	Sdp.advance(b$, r$.off - start$);
	return v$;
}
`))
	if !message {
		return
	}
	lines(r.Replace(`
/**
 * Decodes b, which must hold exactly one «NAME», into this value, reusing its nested structs and arrays of
 * the same length. On an error this value is reset to its default.
 *
 * @param b$ the input
 * @throws DecodeException if the input breaks a rule of the wire format
 */
public void decodeInto(byte[] b$) throws DecodeException {
	decodeInto(b$, null);
}

/**
 * Decodes b, which must hold exactly one «NAME», into this value, reusing its nested structs and arrays of
 * the same length. On an error this value is reset to its default.
 *
 * @param b$ the input
 * @param options$ the limits, or null for the defaults
 * @throws DecodeException if the input breaks a rule of the wire format
 */
@java.lang.Override
public void decodeInto(byte[] b$, DecodeOptions options$) throws DecodeException {
	try {
		SdpReader r$ = SdpReader.of(b$, 0, 0, b$.length, b$.length, options$);
		SdpCodec.read$«NAME»(r$, this);
		r$.finish();
	} catch (DecodeException e$) {
		reset$();
		throw e$;
	}
}

/**
 * Decodes a message that must be a «NAME» into this value, reusing its storage as decodeInto does; offsets in
 * errors count from the header's first byte. On an error this value is reset to its default.
 *
 * @param b$ the message
 * @param options$ the limits (the memory limit is sized for the payload), or null for the defaults
 * @throws DecodeException if the header or the payload breaks a rule
 */
@java.lang.Override
public void decodeMessageInto(byte[] b$, DecodeOptions options$) throws DecodeException {
	try {
		Sdp.checkHeader(b$, b$.length, TYPE_ID, "«NAME»");
		SdpReader r$ = SdpReader.of(b$, 0, Sdp.MESSAGE_HEADER_SIZE, b$.length, b$.length - Sdp.MESSAGE_HEADER_SIZE, options$);
		SdpCodec.read$«NAME»(r$, this);
		r$.finish();
	} catch (DecodeException e$) {
		reset$();
		throw e$;
	}
}

/**
 * @return the size of encodeMessage()'s result
 * @throws EncodeException if the value has no encoding
 */
public int encodedMessageSize() throws EncodeException {
	return Sdp.MESSAGE_HEADER_SIZE + encodedSize();
}

/**
 * @return the value as a message: the 10-byte header (magic, TYPE_ID, payload length), then its encoding
 * @throws EncodeException if the value has no encoding
 */
@java.lang.Override
public byte[] encodeMessage() throws EncodeException {
	try {
		// One pass into the thread's scratch buffer, after room for the header.
		SdpWriter w$ = SdpWriter.scratch(Sdp.MESSAGE_HEADER_SIZE);
		«WRITE»;
		Sdp.header(w$.b, TYPE_ID, w$.pos - Sdp.MESSAGE_HEADER_SIZE);
		return w$.take();
	} catch (java.lang.RuntimeException e$) {
		// A value that has no encoding, or more than the scratch buffer grows to: the size pass first.
	}
	int n$ = encodedSize();
	byte[] b$ = new byte[Sdp.MESSAGE_HEADER_SIZE + n$];
	Sdp.header(b$, TYPE_ID, n$);
	SdpWriter w$ = new SdpWriter(b$, Sdp.MESSAGE_HEADER_SIZE);
	«WRITE»;
	return b$;
}

/**
 * Writes the value as a message at the buffer's position and moves the position past it.
 *
 * @param out$ the buffer
 * @throws EncodeException if the value has no encoding (nothing is written)
 * @throws java.nio.BufferOverflowException if the buffer has less room than encodedMessageSize()
 */
public void encodeMessageTo(java.nio.ByteBuffer out$) throws EncodeException {
	int n$ = encodedSize();
	if (out$.remaining() < Sdp.MESSAGE_HEADER_SIZE + n$) {
		throw new java.nio.BufferOverflowException();
	}
	if (out$.hasArray() && !out$.isReadOnly()) {
		int at$ = out$.arrayOffset() + out$.position();
		Sdp.header(out$.array(), at$, TYPE_ID, n$);
		SdpWriter w$ = new SdpWriter(out$.array(), at$ + Sdp.MESSAGE_HEADER_SIZE);
		«WRITE»;
		Sdp.advance(out$, Sdp.MESSAGE_HEADER_SIZE + n$);
	} else {
		out$.put(encodeMessage());
	}
}

/**
 * Decodes a message that must be a «NAME» with the default options.
 *
 * @param b$ the message
 * @return the value
 * @throws DecodeException if the header or the payload breaks a rule
 */
public static «NAME» decodeMessage(byte[] b$) throws DecodeException {
	return decodeMessage(b$, null);
}

/**
 * Decodes a message that must be a «NAME»; offsets in errors count from the header's first byte.
 *
 * @param b$ the message
 * @param options$ the limits (the memory limit is sized for the payload), or null for the defaults
 * @return the value
 * @throws DecodeException if the header or the payload breaks a rule
 */
public static «NAME» decodeMessage(byte[] b$, DecodeOptions options$) throws DecodeException {
	Sdp.checkHeader(b$, b$.length, TYPE_ID, "«NAME»");
	SdpReader r$ = SdpReader.of(b$, 0, Sdp.MESSAGE_HEADER_SIZE, b$.length, b$.length - Sdp.MESSAGE_HEADER_SIZE, options$);
	«NAME» v$ = new «NAME»(r$);
	r$.finish();
	return v$;
}
`))
}

func (g *generator) enumClass(p *emit.Printer, d *plan.Decl) {
	en := d.Enum
	name := g.names.decl[en]
	wt := "int"
	if en.Base == schema.U32 {
		wt = "long"
	}
	doc(p, en.Doc)
	p.F("public enum %s {", name)
	p.In()
	for i, v := range en.Values {
		doc(p, v.Doc)
		end := ","
		if i == len(en.Values)-1 {
			end = ";"
		}
		lit := fmt.Sprint(v.Value)
		if wt == "long" {
			lit += "L"
		}
		p.F("%s(%s)%s", g.names.value[v], lit, end)
	}
	p.P()
	p.F("/** The fingerprint of %s's wire shape (docs/wire-format.md). */", name)
	p.F("public static final long FINGERPRINT = 0x%016xL;", schema.Fingerprint(en))
	p.P()
	p.F("private final %s wire$;", wt)
	p.P()
	p.F("%s(%s wire$) {", name, wt)
	p.P("    this.wire$ = wire$;")
	p.P("}")
	p.P()
	p.F("/** @return the number that stands for the value on the wire (a %s) */", en.Base)
	p.F("public %s wire() {", wt)
	p.P("    return wire$;")
	p.P("}")
	p.P()
	p.P("/**")
	p.P(" * @param wire$ a number")
	p.P(" * @return the value the number stands for, or null if none does")
	p.P(" */")
	p.F("public static %s fromWire(%s wire$) {", name, wt)
	p.In()
	sw := "wire$"
	if wt == "long" {
		p.P("if ((wire$ >>> 32) != 0) {")
		p.P("    return null;")
		p.P("}")
		sw = "(int) wire$"
	}
	p.F("switch (%s) {", sw)
	for _, v := range en.Values {
		p.F("case %d:", int32(v.Value))
		p.F("    return %s;", g.names.value[v])
	}
	p.P("default:")
	p.P("    return null;")
	p.P("}")
	p.Out()
	p.P("}")
	put := map[schema.Kind]string{schema.U8: "w$.i8((byte) wire$);", schema.U16: "w$.i16((short) wire$);", schema.U32: "w$.i32((int) wire$);"}[en.Base]
	r := strings.NewReplacer("«NAME»", name, "«SIZE»", fmt.Sprint(en.Base.Size()), "«PUT»", put)
	for _, l := range strings.Split(r.Replace(`
/** @return the number of bytes encode() writes: «SIZE» */
public int encodedSize() {
	return «SIZE»;
}

/** @return the value's encoding: its number, little-endian */
public byte[] encode() {
	byte[] b$ = new byte[«SIZE»];
	SdpWriter w$ = new SdpWriter(b$, 0);
	«PUT»
	return b$;
}

/**
 * Decodes b, which must hold exactly one «NAME», with the default options.
 *
 * @param b$ the input
 * @return the value
 * @throws DecodeException if the input breaks a rule of the wire format (a number that names no value: enum)
 */
public static «NAME» decode(byte[] b$) throws DecodeException {
	SdpReader r$ = SdpReader.of(b$, 0, 0, b$.length, b$.length, null);
	«NAME» v$ = SdpCodec.read$«NAME»(r$);
	r$.finish();
	return v$;
}`), "\n") {
		p.P(strings.ReplaceAll(l, "\t", "    "))
	}
	p.Out()
	p.P("}")
}

// unionScope is the names nested in a union's class, which hide top-level
// types of the same name inside it.
func (g *generator) unionScope(u *schema.Union) scope {
	sc := scope{"Kind": true, "Visitor": true, g.names.decl[u]: false}
	for _, v := range u.Variants {
		sc[g.names.variant[v]] = true
	}
	return sc
}

func (g *generator) unionClass(p *emit.Printer, d *plan.Decl) {
	u := d.Union
	name := g.names.decl[u]
	sc := g.unionScope(u)
	doc(p, u.Doc)
	p.F("public abstract class %s {", name)
	p.In()
	p.F("/** The fingerprint of %s's wire shape (docs/wire-format.md). */", name)
	p.F("public static final long FINGERPRINT = 0x%016xL;", schema.Fingerprint(u))
	p.P()
	p.P("/** Which variant a value is, in the order of the schema (the tag). */")
	p.P("public enum Kind {")
	for i, v := range u.Variants {
		end := ","
		if i == len(u.Variants)-1 {
			end = ""
		}
		p.F("    %s%s", g.names.variant[v], end)
	}
	p.P("}")
	p.P()
	p.P("/**")
	p.P(" * Code to run for each variant.")
	p.P(" *")
	p.P(" * @param <R$> what the code returns")
	p.P(" */")
	p.P("public interface Visitor<R$> {")
	for i, v := range u.Variants {
		vn := g.names.variant[v]
		if i > 0 {
			p.P()
		}
		p.F("    /**")
		p.F("     * @param v$ the value")
		p.F("     * @return the result")
		p.F("     */")
		p.F("    R$ visit%s(%s.%s v$);", strings.TrimSuffix(vn, "_"), name, vn)
	}
	p.P("}")
	p.P()
	p.F("%s() {}", name)
	p.P()
	p.P("/** @return the variant */")
	p.P("public abstract Kind kind();")
	p.P()
	p.P("/**")
	p.P(" * Runs the visitor's method for the variant.")
	p.P(" *")
	p.P(" * @param <R$> what the visitor returns")
	p.P(" * @param visitor$ the visitor")
	p.P(" * @return what it returns")
	p.P(" */")
	p.P("public abstract <R$> R$ accept(Visitor<R$> visitor$);")
	p.P()
	g.codecAPI(p, name, "SdpCodec.size$"+name+"(this)", "SdpCodec.write$"+name+"(w$, this)", false)
	for _, pv := range d.Variants {
		v := pv.Variant
		vn := g.names.variant[v]
		p.P()
		doc(p, v.Doc)
		p.F("public static final class %s extends %s {", vn, name)
		p.In()
		ms := g.members(pv.Fields, sc)
		g.dataMembers(p, vn, ms, sc, true)
		p.P()
		p.P("@java.lang.Override")
		p.P("public Kind kind() {")
		p.F("    return Kind.%s;", vn)
		p.P("}")
		p.P()
		p.P("@java.lang.Override")
		p.P("public <R$> R$ accept(Visitor<R$> visitor$) {")
		p.F("    return visitor$.visit%s(this);", strings.TrimSuffix(vn, "_"))
		p.P("}")
		p.Out()
		p.P("}")
	}
	p.Out()
	p.P("}")
}
