package ts

import (
	"fmt"
	"strconv"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// numberArrays are the typed arrays of the numeric kinds other than u8
// ([]u8 is a Uint8Array of its own op, Bytes).
var numberArrays = map[schema.Kind]string{
	schema.U16: "Uint16Array", schema.U32: "Uint32Array", schema.U64: "BigUint64Array",
	schema.I8: "Int8Array", schema.I16: "Int16Array", schema.I32: "Int32Array",
	schema.I64: "BigInt64Array", schema.F32: "Float32Array", schema.F64: "Float64Array",
}

// kindNames are the runtime's names of the scalar kinds (Reader and Writer
// methods, NumberKind).
var kindNames = map[schema.Kind]string{
	schema.Bool: "bool", schema.U8: "u8", schema.U16: "u16", schema.U32: "u32", schema.U64: "u64",
	schema.I8: "i8", schema.I16: "i16", schema.I32: "i32", schema.I64: "i64",
	schema.F32: "f32", schema.F64: "f64",
}

// tsType is the TypeScript type of a schema type: the one mapping of
// schema types the backend has.
func (g *generator) tsType(t *schema.Type) string {
	switch t.Kind {
	case schema.Bool:
		return "boolean"
	case schema.U64, schema.I64:
		return "bigint"
	case schema.String:
		return "string"
	case schema.Array, schema.FixedArray:
		if t.Elem.Kind == schema.U8 {
			return "Uint8Array"
		}
		if a, ok := numberArrays[t.Elem.Kind]; ok && t.Elem.IsNumeric() {
			return a
		}
		e := g.tsType(t.Elem)
		if strings.ContainsAny(e, " |") {
			e = "(" + e + ")"
		}
		return e + "[]"
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			// ??T: a present optional holding nothing is [undefined].
			return "[" + g.tsType(t.Elem) + "] | undefined"
		}
		return g.tsType(t.Elem) + " | undefined"
	case schema.StructRef:
		return g.names.decl[t.Struct]
	case schema.EnumRef:
		return g.names.decl[t.Enum]
	case schema.UnionRef:
		return g.names.decl[t.Union]
	}
	if t.Kind.IsScalar() {
		return "number"
	}
	panic("ts backend: tsType of " + t.Kind.String())
}

// zero is the default value of a value coded as v.
func (g *generator) zero(v *plan.Value) string {
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.Bool:
			return "false"
		case schema.U64, schema.I64:
			return "0n"
		}
		return "0"
	case plan.Enum:
		return strconv.FormatUint(uint64(v.Decl.Enum.Values[0].Value), 10)
	case plan.String:
		return `""`
	case plan.Bytes:
		return "new Uint8Array(0)"
	case plan.Numbers:
		return "new " + numberArrays[v.Kind] + "(0)"
	case plan.PlainArray, plan.Array:
		return "[]"
	case plan.FixedBytes:
		return fmt.Sprintf("new Uint8Array(%d)", v.Len)
	case plan.FixedNumbers:
		return fmt.Sprintf("new %s(%d)", numberArrays[v.Kind], v.Len)
	case plan.FixedPlain, plan.FixedArray:
		return fmt.Sprintf("Array.from({ length: %d }, () => %s)", v.Len, g.zero(v.Elem))
	case plan.Optional:
		return "undefined"
	case plan.Struct:
		return "new " + g.names.decl[v.Decl.Struct] + "()"
	case plan.Union:
		return "$z_" + g.names.decl[v.Decl.Union] + "()"
	}
	panic("ts backend: zero of " + v.Op.String())
}

// as is a type assertion, printed in TypeScript only.
func (g *generator) as(t string) string {
	if g.mode == modeTS {
		return " as " + t
	}
	return ""
}

// method prints a method or function: its signature in every mode, its
// body in TypeScript and JavaScript. params are "name: type" or "name?:
// type"; in JavaScript only the names remain (an optional parameter with
// a default, "name = value: type", keeps its default).
func (g *generator) method(p *emit.Printer, prefix, name string, params []string, ret string, body func()) {
	g.methodClose(p, prefix, name, params, ret, "}", body)
}

// methodClose is method with another closing line ("}," in an object).
func (g *generator) methodClose(p *emit.Printer, prefix, name string, params []string, ret, close string, body func()) {
	var ps []string
	for _, prm := range params {
		switch g.mode {
		case modeJS:
			prm = strings.SplitN(prm, ":", 2)[0]
			prm = strings.TrimSuffix(prm, "?")
		case modeDTS:
			if i := strings.Index(prm, " = "); i >= 0 {
				// A default makes the parameter optional.
				prm = prm[:i] + "?" + prm[strings.Index(prm, ":"):]
			}
		case modeTS:
			if i := strings.Index(prm, " = "); i >= 0 {
				// name = value: type → name: type = value
				j := strings.Index(prm, ":")
				prm = prm[:i] + prm[j:] + prm[i:j]
			}
		}
		ps = append(ps, prm)
	}
	sig := prefix + name + "(" + strings.Join(ps, ", ") + ")"
	if g.mode == modeDTS {
		if ret != "" {
			sig += ": " + ret
		}
		p.P(sig + ";")
		return
	}
	if ret != "" {
		sig += g.ty(": " + ret)
	}
	p.Block(sig+" {", close, body)
}

// internal prints a module-level function of the generated code (not in
// declarations).
func (g *generator) internal(p *emit.Printer, name string, params []string, ret string, body func()) {
	if g.mode == modeDTS {
		return
	}
	g.method(p, "function ", name, params, ret, body)
	p.P()
}

// emitClass prints the class of a struct or an inline union variant: its
// fields, a constructor taking an optional init object, and extra members.
func (g *generator) emitClass(p *emit.Printer, name string, docs []string, fields []*plan.Field, extra func()) {
	doc(p, docs)
	decl := "export class "
	if g.mode == modeDTS {
		decl = "export declare class "
	}
	p.Block(decl+name+" {", "}", func() {
		if g.mode != modeJS {
			for _, f := range fields {
				doc(p, f.Field.Doc)
				p.F("%s: %s;", g.names.field[f.Field], g.tsType(f.Field.Type))
			}
			if len(fields) > 0 {
				p.P()
			}
		}
		p.P("/** A value with every field set from init, or to its default. */")
		param := "init"
		if len(fields) == 0 {
			param = "_init"
		}
		sig := "constructor(" + param + g.ty("?: Partial<"+name+">") + ")"
		if g.mode == modeDTS {
			p.P(sig + ";")
		} else {
			p.Block(sig+" {", "}", func() {
				for _, f := range fields {
					n := g.names.field[f.Field]
					z := g.zero(f.Value)
					if z == "undefined" {
						p.F("this.%s = init?.%s;", n, n)
					} else {
						p.F("this.%s = init?.%s ?? %s;", n, n, z)
					}
				}
			})
		}
		if extra != nil {
			extra()
		}
	})
	p.P()
}

func (g *generator) emitStruct(p *emit.Printer, pd *plan.Decl) {
	st := pd.Struct
	name := g.names.decl[st]
	size := g.sizeArg(pd.Fixed, name)
	g.emitClass(p, name, st.Doc, pd.Fields, func() {
		p.P()
		g.static(p, "/** The struct's message type id. */", "TYPE_ID", strconv.Itoa(int(st.ID)))
		g.static(p, "/** The fingerprint of the struct's wire shape (docs/wire-format.md). */", "FINGERPRINT",
			fmt.Sprintf("0x%sn", schema.FormatFingerprint(schema.Fingerprint(st))))
		p.P()
		opts := "opts?: $.DecodeOptions"
		bytes := "bytes: Uint8Array | ArrayBuffer"
		p.P("/** Decodes a " + name + " that fills bytes exactly. */")
		g.method(p, "static ", "decode", []string{bytes, opts}, name, func() {
			p.F("return $.decodeTop(bytes, opts, $top_%s, %q);", name, st.Name)
		})
		p.P()
		p.P("/**")
		p.P(" * Decodes into value, which it returns: every field is assigned, and nested")
		p.P(" * structs are decoded into the ones value holds. On an error value is reset")
		p.P(" * to the default.")
		p.P(" */")
		g.method(p, "static ", "decodeInto", []string{bytes, "value: " + name, opts}, name, func() {
			p.Block("try {", "} catch ($e) {", func() {
				p.F("return $.decodeTop(bytes, opts, ($r%s) => $d_%s($r, value), %q);", g.ty(": $.Reader"), name, st.Name)
			})
			p.F("  Object.assign(value, new %s());", name)
			p.P("  throw $e;")
			p.P("}")
		})
		p.P()
		p.P("/** Decodes a " + name + " from the start of bytes; returns it and the bytes it used. */")
		g.method(p, "static ", "decodePrefix", []string{bytes, opts}, "["+name+", number]", func() {
			p.F("return $.decodePrefix(bytes, opts, $top_%s, %q);", name, st.Name)
		})
		p.P()
		p.P("/** Decodes a message that holds a " + name + " (its header, then its encoding). */")
		g.method(p, "static ", "decodeMessage", []string{bytes, opts}, name, func() {
			p.P("const $b = $.bytesOf(bytes);")
			p.F("$.readHeader($b, %d, %q, $typeName, %q);", st.ID, st.Name, g.s.Name)
			p.F("return $.decodePayload($b, opts, $top_%s, %q);", name, st.Name)
		})
		p.P()
		p.P("/** The size of the encoding in bytes. Checks the value: throws EncodeError for one that has no encoding. */")
		g.method(p, "", "encodedSize", nil, "number", func() {
			p.F("return $.encodedSize(this, %s, $k_%s, %q);", size, name, st.Name)
		})
		p.P()
		p.P("/** The encoding, in a new buffer. Throws EncodeError for a value that has none. */")
		g.method(p, "", "encode", nil, "Uint8Array", func() {
			p.F("return $.encodeNew(this, %s, $e_%s, $k_%s, %q);", size, name, name, st.Name)
		})
		p.P()
		p.P("/** Writes the encoding into buf at offset; returns its size. Throws EncodeError if it has none or does not fit (rule size). */")
		g.method(p, "", "encodeInto", []string{"buf: Uint8Array", "offset = 0: number"}, "number", func() {
			p.F("return $.encodeAt(buf, offset, this, %s, $e_%s, $k_%s, %q);", size, name, name, st.Name)
		})
		p.P()
		p.P("/** The struct's message type id. */")
		g.method(p, "", "messageTypeId", nil, "number", func() { p.F("return %d;", st.ID) })
		p.P()
		p.P("/** The size of the value framed as a message. */")
		g.method(p, "", "encodedMessageSize", nil, "number", func() {
			p.F("return $.encodedMessageSize(this, %s, $k_%s, %q);", size, name, st.Name)
		})
		p.P()
		p.P("/** The value framed as a message, in a new buffer. */")
		g.method(p, "", "encodeMessage", nil, "Uint8Array", func() {
			p.F("return $.encodeMessageNew(this, %d, %s, $e_%s, $k_%s, %q);", st.ID, size, name, name, st.Name)
		})
		p.P()
		p.P("/** Writes the value framed as a message into buf at offset; returns its size. */")
		g.method(p, "", "encodeMessageInto", []string{"buf: Uint8Array", "offset = 0: number"}, "number", func() {
			p.F("return $.encodeMessageAt(buf, offset, this, %d, %s, $e_%s, $k_%s, %q);", st.ID, size, name, name, st.Name)
		})
	})
	if g.mode == modeJS {
		p.F("%s.TYPE_ID = %d;", name, st.ID)
		p.F("%s.FINGERPRINT = 0x%sn;", name, schema.FormatFingerprint(schema.Fingerprint(st)))
		p.P()
	}
	g.internal(p, "$top_"+name, []string{"$r: $.Reader"}, name, func() {
		p.F("return $d_%s($r, new %s());", name, name)
	})
	g.emitFieldCodecs(p, name, st.Name, pd.Fields, pd.Steps, pd.Fixed, true)
}

// static prints a static constant (in JavaScript it is assigned after the
// class).
func (g *generator) static(p *emit.Printer, comment, name, value string) {
	switch g.mode {
	case modeTS:
		p.P(comment)
		p.F("static readonly %s = %s;", name, value)
	case modeDTS:
		p.P(comment)
		typ := value
		if strings.HasPrefix(value, "0x") {
			typ = "bigint"
		}
		p.F("static readonly %s: %s;", name, typ)
	}
}

// sizeArg is the size argument of the runtime's encode functions: the
// fixed size, else the type's size function.
func (g *generator) sizeArg(fixed int, name string) string {
	if fixed >= 0 {
		return strconv.Itoa(fixed)
	}
	return "$s_" + name
}

func (g *generator) emitEnum(p *emit.Printer, pd *plan.Decl) {
	en := pd.Enum
	name := g.names.decl[en]
	doc(p, en.Doc)
	if g.mode == modeDTS {
		p.Block("export declare const "+name+": {", "};", func() {
			for _, v := range en.Values {
				doc(p, v.Doc)
				p.F("readonly %s: %d;", g.names.value[v], v.Value)
			}
		})
	} else {
		p.Block("export const "+name+" = {", "}"+g.ty(" as const")+";", func() {
			for _, v := range en.Values {
				doc(p, v.Doc)
				p.F("%s: %d,", g.names.value[v], v.Value)
			}
		})
	}
	if g.mode != modeJS {
		p.F("/** A value of %s: one of its numbers. */", name)
		var nums []string
		for _, v := range en.Values {
			nums = append(nums, strconv.FormatUint(uint64(v.Value), 10))
		}
		p.F("export type %s = %s;", name, strings.Join(nums, " | "))
	}
	p.P()
	if !g.used[pd] {
		return
	}
	valid := enumValid(en, "$x")
	g.internal(p, "$v_"+name, []string{"$x: number"}, "boolean", func() {
		p.F("return %s;", valid)
	})
	g.internal(p, "$d_"+name, []string{"$r: $.Reader"}, name, func() {
		p.P("const $o = $r.o;")
		p.F("const $x = $r.%s();", kindNames[en.Base])
		p.F("if (!$v_%s($x)) $r.badEnum($o, $x, %q);", name, en.Name)
		p.F("return $x%s;", g.as(name))
	})
	// The encoder's check (strict: a fraction, or what is no number, is
	// none of the values) and the check walk's.
	strict := enumStrict(en, "$x")
	g.internal(p, "$c_"+name, []string{"$x: " + name}, "number", func() {
		p.F("if (!(%s)) $.bad();", strict)
		p.P("return $x;")
	})
	g.internal(p, "$k_"+name, []string{"$x: " + name}, "void", func() {
		p.F("$.kenum($x, %s, %q);", strict, en.Name)
	})
}

// enumStrict is the condition that x, of any type, is a number of en.
func enumStrict(en *schema.Enum, x string) string {
	v := enumValid(en, x)
	if strings.Contains(v, "===") {
		return v
	}
	return fmt.Sprintf("%s >>> 0 === %s && %s", x, x, v)
}

// enumValid is the condition that the number x names a value of en.
func enumValid(en *schema.Enum, x string) string {
	lo, hi := en.Values[0].Value, en.Values[0].Value
	for _, v := range en.Values {
		if v.Value < lo {
			lo = v.Value
		}
		if v.Value > hi {
			hi = v.Value
		}
	}
	if uint64(hi-lo)+1 == uint64(len(en.Values)) {
		if lo == 0 {
			return fmt.Sprintf("%s <= %d", x, hi)
		}
		return fmt.Sprintf("%s >= %d && %s <= %d", x, lo, x, hi)
	}
	var cs []string
	for _, v := range en.Values {
		cs = append(cs, fmt.Sprintf("%s === %d", x, v.Value))
	}
	return strings.Join(cs, " || ")
}

func (g *generator) emitUnion(p *emit.Printer, pd *plan.Decl) {
	u := pd.Union
	name := g.names.decl[u]
	if g.mode != modeJS {
		doc(p, u.Doc)
		p.F("export type %s =", name)
		p.In()
		for i, pv := range pd.Variants {
			end := ""
			if i == len(pd.Variants)-1 {
				end = ";"
			}
			v := pv.Variant
			switch v.Kind {
			case schema.VariantUnit:
				p.F("| { kind: %q }%s", v.Name, end)
			case schema.VariantStruct:
				p.F("| { kind: %q; value: %s }%s", v.Name, g.names.decl[v.Struct], end)
			default:
				p.F("| { kind: %q; value: %s }%s", v.Name, g.names.variant[v], end)
			}
		}
		p.Out()
		p.P()
	}
	for _, pv := range pd.Variants {
		v := pv.Variant
		if v.Kind != schema.VariantInline {
			continue
		}
		vn := g.names.variant[v]
		docs := append([]string{"The variant " + v.Name + " of " + u.Name + "."}, v.Doc...)
		g.emitClass(p, vn, docs, pv.Fields, nil)
		fixed := -1
		if pv.Fixed >= 0 {
			fixed = pv.Fixed - 1
		}
		g.emitFieldCodecs(p, vn, u.Name+"."+v.Name, pv.Fields, pv.Steps, fixed, false)
	}
	g.emitUnionAPI(p, pd)
	if g.zeroUsed(pd) {
		first := pd.Variants[0]
		g.internal(p, "$z_"+name, nil, name, func() {
			p.F("return %s;", g.variantValue(first, ""))
		})
	}
	g.emitUnionCodecs(p, pd)
}

// variantValue is a union value of variant pv holding x (its default when x
// is empty).
func (g *generator) variantValue(pv *plan.Variant, x string) string {
	v := pv.Variant
	if len(pv.Fields) == 0 && v.Kind != schema.VariantInline {
		return fmt.Sprintf("{ kind: %q }", v.Name)
	}
	if x == "" {
		cls := g.names.variant[v]
		if v.Kind == schema.VariantStruct {
			cls = g.names.decl[v.Struct]
		}
		x = "new " + cls + "()"
	}
	return fmt.Sprintf("{ kind: %q, value: %s }", v.Name, x)
}

// zeroUsed reports whether a default value of union ud is ever made: it is
// a field's type or a fixed array's element (arrays and optionals start
// empty).
func (g *generator) zeroUsed(ud *plan.Decl) bool {
	var holds func(v *plan.Value) bool
	holds = func(v *plan.Value) bool {
		switch v.Op {
		case plan.Union:
			return v.Decl == ud
		case plan.FixedArray:
			return holds(v.Elem)
		}
		return false
	}
	for _, pd := range g.plan.Decls {
		for _, f := range pd.Fields {
			if holds(f.Value) {
				return true
			}
		}
		for _, pv := range pd.Variants {
			if pv.Variant.Kind != schema.VariantInline {
				continue
			}
			for _, f := range pv.Fields {
				if holds(f.Value) {
					return true
				}
			}
		}
	}
	return false
}

// emitUnionAPI prints the object of a union's own encode and decode
// functions, named like its type (a union has no class).
func (g *generator) emitUnionAPI(p *emit.Printer, pd *plan.Decl) {
	u := pd.Union
	name := g.names.decl[u]
	size := g.sizeArg(pd.Fixed, name)
	p.F("/** Encoding and decoding of %s values. */", name)
	if g.mode == modeDTS {
		p.P("export declare const " + name + ": {")
	} else {
		p.P("export const " + name + " = {")
	}
	p.In()
	bytes := "bytes: Uint8Array | ArrayBuffer"
	opts := "opts?: $.DecodeOptions"
	p.F("/** Decodes a %s that fills bytes exactly. */", name)
	g.methodClose(p, "", "decode", []string{bytes, opts}, name, "},", func() {
		p.F("return $.decodeTop(bytes, opts, $d_%s, %q);", name, u.Name)
	})
	p.F("/** Decodes a %s from the start of bytes; returns it and the bytes it used. */", name)
	g.methodClose(p, "", "decodePrefix", []string{bytes, opts}, "["+name+", number]", "},", func() {
		p.F("return $.decodePrefix(bytes, opts, $d_%s, %q);", name, u.Name)
	})
	p.P("/** The size of value's encoding in bytes; throws EncodeError for a value that has none. */")
	g.methodClose(p, "", "encodedSize", []string{"value: " + name}, "number", "},", func() {
		p.F("return $.encodedSize(value, %s, $k_%s, %q);", size, name, u.Name)
	})
	p.P("/** The encoding of value, in a new buffer; throws EncodeError for a value that has none. */")
	g.methodClose(p, "", "encode", []string{"value: " + name}, "Uint8Array", "},", func() {
		p.F("return $.encodeNew(value, %s, $e_%s, $k_%s, %q);", size, name, name, u.Name)
	})
	p.P("/** Writes value's encoding into buf at offset; returns its size. */")
	g.methodClose(p, "", "encodeInto", []string{"value: " + name, "buf: Uint8Array", "offset = 0: number"}, "number", "},", func() {
		p.F("return $.encodeAt(buf, offset, value, %s, $e_%s, $k_%s, %q);", size, name, name, u.Name)
	})
	p.Out()
	p.P("};")
	p.P()
}
