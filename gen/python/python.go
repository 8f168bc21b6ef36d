// Package python generates a Python package (CPython 3.9+, standard library
// only) from a schema: dataclasses, IntEnums and union variant classes with
// strict decoders, validating encoders, messages and streams.
package python

import (
	"bytes"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/schema"
)

func init() { gen.Register("python", Generate) }

//go:embed runtime.py
var runtime string

// PackageName is the Python package name for opt and s: the --package
// option or the schema name, made an identifier.
func PackageName(s *schema.Schema, opt gen.Options) string {
	var b strings.Builder
	for _, r := range opt.PackageName(s) {
		if r == '_' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || (n[0] >= '0' && n[0] <= '9') || keywords[n] {
		n = "sdp_" + n
	}
	return n
}

// Generate writes pyproject.toml, <package>/__init__.py and <package>/py.typed.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	pkg := PackageName(s, opt)
	g := &generator{s: s, n: newNames(s), p: emit.New("    "), done: map[string]bool{}, aliases: map[string]bool{}, runFormats: map[string]string{}}
	src := g.module()
	toml := fmt.Sprintf(`# %s

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = %q
version = "0.1.0"
description = "SDP encoders and decoders generated from %s"
requires-python = ">=3.9"

[tool.setuptools]
packages = [%q]

[tool.setuptools.package-data]
%s = ["py.typed"]
`, gen.Header(s), strings.ReplaceAll(pkg, "_", "-"), s.Name+".sdp", pkg, pkg)
	return []gen.File{
		{Path: "pyproject.toml", Content: []byte(toml)},
		{Path: pkg + "/__init__.py", Content: src},
		{Path: pkg + "/py.typed", Content: []byte{}},
	}, nil
}

type generator struct {
	s    *schema.Schema
	n    *names
	p    *emit.Printer
	done map[string]bool // helpers emitted or queued
	todo []*schema.Type  // helpers to emit
	// aliases are the class names annotations reach through `_sdp_c_` aliases.
	aliases map[string]bool
	// runFormats are the struct.Struct formats of runs of fixed-size fields.
	runFormats map[string]string
}

func (g *generator) module() []byte {
	p := g.p
	p.Line("# " + gen.Header(g.s))
	p.Line("# mypy: disable-error-code=\"misc\"")
	p.Line(`"""SDP encoders and decoders for ` + pyString(g.s.Name) + `.sdp."""`)
	p.Line("")
	p.Line("from __future__ import annotations")
	p.Line("")
	rt := strings.ReplaceAll(strings.TrimRight(runtime, "\n"), "\n\n\n", "\n\n"+sepMark+"\n\n")
	for _, l := range strings.Split(rt, "\n") {
		p.Line(l)
	}
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Enum:
			g.sep()
			g.enum(d)
		case *schema.Struct:
			g.sep()
			g.class(d, g.n.decl[d], d.Doc, d.Fields, d)
		case *schema.Union:
			for _, v := range d.Variants {
				if v.Kind == schema.VariantStruct {
					continue
				}
				g.sep()
				doc := v.Doc
				if len(doc) == 0 {
					doc = []string{fmt.Sprintf("Variant %s of union %s (tag %d).", v.Name, d.Name, v.Tag)}
				}
				g.class(nil, g.n.variant[v], doc, v.Fields, nil)
			}
		}
	}
	for _, u := range g.s.Unions {
		g.sep()
		for _, l := range u.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		var vs []string
		for _, v := range u.Variants {
			vs = append(vs, g.variantClass(v))
		}
		p.F("%s = _sdp_t.Union[%s]", g.n.decl[u], strings.Join(vs, ", "))
	}
	if len(g.aliases) > 0 {
		var as []string
		for a := range g.aliases {
			as = append(as, a)
		}
		sort.Strings(as)
		g.sep()
		p.Line("# Aliases for annotations inside classes whose fields shadow these names.")
		for _, a := range as {
			p.F("_sdp_c_%s = %s", a, a)
		}
	}
	for _, d := range g.s.Decls {
		if _, ok := g.n.top[d]; ok {
			g.sep()
			g.topFuncs(d)
		}
	}
	// Helpers, on demand: every type a struct or union refers to, and the
	// enums that encode on their own.
	for _, d := range g.s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			g.need(&schema.Type{Kind: schema.StructRef, Struct: d})
		case *schema.Union:
			g.need(&schema.Type{Kind: schema.UnionRef, Union: d})
		case *schema.Enum:
			g.need(&schema.Type{Kind: schema.EnumRef, Enum: d})
		}
	}
	for len(g.todo) > 0 {
		t := g.todo[0]
		g.todo = g.todo[1:]
		g.sep()
		g.decoder(t)
		g.sep()
		g.encoder(t)
		g.sep()
		g.sizer(t)
	}
	g.sep()
	var ids []string
	var classes []string
	structs := append([]*schema.Struct(nil), g.s.Structs...)
	sort.Slice(structs, func(i, j int) bool { return structs[i].ID < structs[j].ID })
	for _, st := range structs {
		c := canon(&schema.Type{Kind: schema.StructRef, Struct: st})
		ids = append(ids, fmt.Sprintf("%d: _sdp_d_%s", st.ID, c))
		classes = append(classes, fmt.Sprintf("%d: %s", st.ID, g.n.decl[st]))
	}
	if len(g.runFormats) > 0 {
		var rs []string
		for r := range g.runFormats {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		for _, r := range rs {
			p.F("%s = _sdp_struct.Struct(%q)", r, g.runFormats[r])
		}
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
	return bytes.ReplaceAll(p.Bytes(), []byte("\n"+sepMark+"\n"), []byte("\n"))
}

// topFuncs writes the module-level functions that encode and decode a union
// or an enum on its own (docs/python.md, "Unions and enums on their own").
func (g *generator) topFuncs(d schema.Decl) {
	p, f := g.p, g.n.top[d]
	var t *schema.Type
	what := "union"
	switch d := d.(type) {
	case *schema.Union:
		t = &schema.Type{Kind: schema.UnionRef, Union: d}
	case *schema.Enum:
		t = &schema.Type{Kind: schema.EnumRef, Enum: d}
		what = "enum"
	}
	c, hint, name := canon(t), g.n.decl[d], pyString(d.DeclName())
	p.F("def %s(value: %s) -> bytes:", f.encode, hint)
	p.F(`    """Encodes a %s (%s) on its own; raises EncodeError for a value that has no encoding."""`, name, what)
	p.F("    return _sdp_run(_sdp_e_%s, value)", c)
	g.sep()
	p.F("def %s(value: %s) -> int:", f.size, hint)
	p.F(`    """The number of bytes %s(value) returns."""`, f.encode)
	p.F("    return _sdp_s_%s(value)", c)
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

// sepMark stands for the second of two blank lines between top-level
// definitions (PEP 8), which the printer would fold into one.
const sepMark = "#\x00sep"

// sep separates two top-level definitions by two blank lines.
func (g *generator) sep() {
	g.p.Line("")
	g.p.Line(sepMark)
	g.p.Line("")
}

func (g *generator) variantClass(v *schema.Variant) string {
	if v.Kind == schema.VariantStruct {
		return g.n.decl[v.Struct]
	}
	return g.n.variant[v]
}

func (g *generator) docstring(doc []string) {
	if len(doc) == 0 {
		return
	}
	lines := make([]string, len(doc))
	for i, l := range doc {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	text := strings.TrimRight(strings.Join(lines, "\n"), "\n")
	g.p.Line(`"""` + pyString(text) + `"""`)
	g.p.Line("")
}

func (g *generator) enum(e *schema.Enum) {
	p := g.p
	name := g.n.decl[e]
	p.F("class %s(_sdp_enum.IntEnum):", name)
	p.In()
	if len(e.Doc) > 0 {
		g.docstring(e.Doc)
	} else {
		g.docstring([]string{"Enum " + e.Name + " (" + e.Base.String() + ")."})
	}
	shadow := map[string]bool{}
	for _, v := range e.Values {
		shadow[g.n.values[v]] = true
	}
	// Annotated without a value, it is not a member; set after the class.
	p.F("FINGERPRINT: _sdp_t.ClassVar[%s]", g.nm("int", shadow))
	for _, v := range e.Values {
		for _, l := range v.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		p.F("%s = %d", g.n.values[v], v.Value)
	}
	p.Out()
	g.sep()
	p.F("%s.FINGERPRINT = %s", name, fingerprint(e))
}

// fingerprint is the fingerprint of d's wire shape as a Python literal.
func fingerprint(d schema.Decl) string {
	return "0x" + schema.FormatFingerprint(schema.Fingerprint(d))
}

// class writes a dataclass: a struct (st set) or a variant's.
func (g *generator) class(st *schema.Struct, name string, doc []string, fields []*schema.Field, top *schema.Struct) {
	p := g.p
	p.Line("@_sdp_dc.dataclass(**_SDP_SLOTS)")
	p.F("class %s:", name)
	p.In()
	g.docstring(doc)
	shadow := map[string]bool{}
	for _, f := range fields {
		shadow[g.n.fields[f]] = true
	}
	if st != nil {
		for m := range members {
			shadow[m] = true
		}
	}
	self := g.nm(name, shadow)
	opts := g.nm("DecodeOptions", shadow) + " | None"
	if st != nil {
		t := &schema.Type{Kind: schema.StructRef, Struct: st}
		c := canon(t)
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
		p.F("def encode(self) -> %s:", g.nm("bytes", shadow))
		p.Line(`    """Encodes the value; raises EncodeError for a value that has no encoding."""`)
		parts := holdsArrays(t)
		if parts {
			p.F("    return _sdp_run_parts(_sdp_e_%s, self)", c)
		} else {
			p.F("    return _sdp_run(_sdp_e_%s, self)", c)
		}
		p.Line("")
		p.F("def encode_into(self, buffer: _sdp_t.Any, offset: %s = 0) -> %s:", g.nm("int", shadow), g.nm("int", shadow))
		p.Line(`    """Encodes the value into a writable buffer at offset; returns the bytes written."""`)
		p.Line("    return _sdp_encode_into(self.encode(), buffer, offset)")
		p.Line("")
		p.F("def encode_message(self) -> %s:", g.nm("bytes", shadow))
		p.Line(`    """Encodes the value as a message: header, then payload."""`)
		if parts {
			p.F("    return _sdp_run_parts(_sdp_e_%s, self, %d)", c, st.ID)
		} else {
			p.Line("    b = self.encode()")
			p.F("    return _SDP_HEADER.pack(_SDP_MAGIC, %d, len(b)) + b", st.ID)
		}
		p.Line("")
		p.F("def encode_message_into(self, buffer: _sdp_t.Any, offset: %s = 0) -> %s:", g.nm("int", shadow), g.nm("int", shadow))
		p.Line(`    """Encodes the value as a message into a writable buffer at offset; returns the bytes written."""`)
		p.Line("    return _sdp_encode_into(self.encode_message(), buffer, offset)")
		p.Line("")
		p.F("def encoded_size(self) -> %s:", g.nm("int", shadow))
		p.Line(`    """The number of bytes encode() returns."""`)
		p.F("    return _sdp_s_%s(self)", c)
		p.Line("")
		p.F("def encoded_message_size(self) -> %s:", g.nm("int", shadow))
		p.Line(`    """The number of bytes encode_message() returns."""`)
		p.F("    return MESSAGE_HEADER_SIZE + _sdp_s_%s(self)", c)
		if len(fields) > 0 {
			p.Line("")
		}
	}
	for _, f := range fields {
		for _, l := range f.Doc {
			p.Line(strings.TrimRight("# "+commentText(l), " "))
		}
		p.F("%s: %s = %s", g.n.fields[f], g.hintIn(f.Type, shadow), g.fieldDefault(f.Type))
	}
	if st == nil && len(fields) == 0 && len(doc) == 0 {
		p.Line("pass")
	}
	p.Out()
}

// hint is the type annotation of t at module scope.
func (g *generator) hint(t *schema.Type) string { return g.hintIn(t, nil) }

// nm is how an annotation names name where the names in shadow (a class's
// fields) hide module-level ones: through an `_sdp_` alias.
func (g *generator) nm(name string, shadow map[string]bool) string {
	if !shadow[name] {
		return name
	}
	switch name {
	case "int", "float", "str", "bool", "bytes", "list", "Some", "DecodeOptions":
		return "_sdp_" + name
	}
	g.aliases[name] = true
	return "_sdp_c_" + name
}

// hintIn is the type annotation of t inside a class whose fields are shadow.
func (g *generator) hintIn(t *schema.Type, shadow map[string]bool) string {
	switch t.Kind {
	case schema.Bool:
		return g.nm("bool", shadow)
	case schema.F32, schema.F64:
		return g.nm("float", shadow)
	case schema.String:
		return g.nm("str", shadow)
	case schema.Array, schema.FixedArray:
		switch {
		case t.Elem.Kind == schema.U8:
			return g.nm("bytes", shadow)
		case t.Elem.IsNumeric() && t.Elem.Kind.IsFloat():
			return "_sdp_array.array[" + g.nm("float", shadow) + "] | _sdp_t.Any"
		case t.Elem.IsNumeric():
			// Any: a numpy.ndarray (DecodeOptions(numpy=True), or to
			// encode), which the annotations cannot name without numpy.
			return "_sdp_array.array[" + g.nm("int", shadow) + "] | _sdp_t.Any"
		}
		return g.nm("list", shadow) + "[" + g.hintIn(t.Elem, shadow) + "]"
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			return g.nm("Some", shadow) + "[" + g.hintIn(t.Elem, shadow) + "] | None"
		}
		return g.hintIn(t.Elem, shadow) + " | None"
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.nm(g.n.decl[t.Decl()], shadow)
	}
	return g.nm("int", shadow)
}

// typecode is the array.array type code of a numeric kind.
func typecode(k schema.Kind) string {
	return map[schema.Kind]string{schema.U8: "B", schema.I8: "b", schema.U16: "H", schema.I16: "h",
		schema.U32: "I", schema.I32: "i", schema.U64: "Q", schema.I64: "q", schema.F32: "f", schema.F64: "d"}[k]
}

// fieldDefault is a field's default in a class body: a literal, or a
// default_factory (class bodies may shadow every other name).
func (g *generator) fieldDefault(t *schema.Type) string {
	switch {
	case t.Kind == schema.Bool:
		return "False"
	case t.Kind.IsInteger():
		return "0"
	case t.Kind.IsFloat():
		return "0.0"
	case t.Kind == schema.String:
		return `""`
	case t.Kind == schema.Array && t.Elem.Kind == schema.U8:
		return `b""`
	case t.Kind == schema.Optional:
		return "None"
	}
	if v := g.value(t); v != "_sdp_list()" {
		return "_sdp_dc.field(default_factory=lambda: " + v + ")"
	}
	return "_sdp_dc.field(default_factory=_sdp_list)"
}

// value is an expression for the default value of t (module scope).
func (g *generator) value(t *schema.Type) string {
	switch t.Kind {
	case schema.Bool:
		return "False"
	case schema.F32, schema.F64:
		return "0.0"
	case schema.String:
		return `""`
	case schema.Array:
		switch {
		case t.Elem.Kind == schema.U8:
			return `b""`
		case t.Elem.IsNumeric():
			return fmt.Sprintf("_sdp_array.array(%q)", typecode(t.Elem.Kind))
		}
		return "_sdp_list()"
	case schema.FixedArray:
		switch {
		case t.Elem.Kind == schema.U8:
			return fmt.Sprintf("bytes(%d)", t.Len)
		case t.Elem.IsNumeric():
			z := "0"
			if t.Elem.Kind.IsFloat() {
				z = "0.0"
			}
			return fmt.Sprintf("_sdp_array.array(%q, [%s] * %d)", typecode(t.Elem.Kind), z, t.Len)
		}
		return fmt.Sprintf("[%s for _sdp_i in range(%d)]", g.value(t.Elem), t.Len)
	case schema.Optional:
		return "None"
	case schema.StructRef:
		return g.n.decl[t.Struct] + "()"
	case schema.EnumRef:
		return g.n.decl[t.Enum] + "." + g.n.values[t.Enum.Values[0]]
	case schema.UnionRef:
		return g.variantClass(t.Union.Variants[0]) + "()"
	}
	return "0"
}

// need queues the helpers of a composite type and returns its canon name.
func (g *generator) need(t *schema.Type) string {
	c := canon(t)
	if !g.done[c] {
		g.done[c] = true
		g.todo = append(g.todo, t)
	}
	return c
}

var scalarStruct = map[schema.Kind]string{schema.U8: "_SDP_U8", schema.U16: "_SDP_U16", schema.U32: "_SDP_U32",
	schema.U64: "_SDP_U64", schema.I8: "_SDP_I8", schema.I16: "_SDP_I16", schema.I32: "_SDP_I32",
	schema.I64: "_SDP_I64", schema.F32: "_SDP_F32", schema.F64: "_SDP_F64"}

func article(k schema.Kind) string {
	if k == schema.I8 || k == schema.I16 || k == schema.I32 || k == schema.I64 || k.IsFloat() {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// decExpr is an expression decoding a value of t held at depth _sdp_depth.
func (g *generator) decExpr(t *schema.Type) string {
	switch k := t.Kind; {
	case k == schema.Bool:
		return "_sdp_r.bool_()"
	case k == schema.F32:
		return "_sdp_r.f32()"
	case k == schema.F64:
		return "_sdp_r.f64()"
	case k.IsInteger():
		return fmt.Sprintf("_sdp_r.scalar(%s, %d, %q)", scalarStruct[k], k.Size(), article(k))
	case k == schema.String:
		return "_sdp_r.str_()"
	case k == schema.EnumRef:
		return fmt.Sprintf("_sdp_r.enum(%s, %d, %s)", scalarStruct[t.Enum.Base], t.Enum.Base.Size(), g.n.decl[t.Enum])
	case k == schema.StructRef, k == schema.UnionRef:
		return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.need(t))
	}
	return fmt.Sprintf("_sdp_d_%s(_sdp_r, _sdp_depth)", g.need(t))
}

// encStmt writes statements appending the encoding of expr (of type t) to _sdp_out.
func (g *generator) encStmt(t *schema.Type, expr string) {
	p := g.p
	switch k := t.Kind; {
	case k == schema.Bool:
		p.F("_sdp_out.append(1 if %s else 0)", expr)
	case k == schema.F32:
		p.F("_sdp_out += _sdp_pack_f32(%s)", expr)
	case k.IsScalar():
		p.F("_sdp_out += %s.pack(%s)", scalarStruct[k], expr)
	case k == schema.String:
		// Inline: a call per string is most of a small struct's encode. A
		// length of 2^32 or more fails in pack (EncodeError).
		p.F("_sdp_b = %s.encode(\"utf-8\")", expr)
		p.Line("_sdp_out += _SDP_U32_PACK(len(_sdp_b))")
		p.Line("_sdp_out += _sdp_b")
	case k == schema.EnumRef:
		p.F("_sdp_out += %s.pack(%s(%s))", scalarStruct[t.Enum.Base], g.n.decl[t.Enum], expr)
	case k == schema.Array && t.Elem.IsNumeric() && t.Elem.Kind != schema.U8:
		// Inline: a large array's encode is mostly calls.
		p.F("_sdp_a = %s", expr)
		p.Line("_sdp_out += _sdp_count(len(_sdp_a))")
		p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_a)", typecode(t.Elem.Kind))
	default:
		p.F("_sdp_e_%s(%s, _sdp_out)", g.need(t), expr)
	}
}

// sizeExpr is an expression for the encoded size of expr (of type t).
func (g *generator) sizeExpr(t *schema.Type, expr string) string {
	if n, ok := t.FixedSize(); ok {
		return fmt.Sprint(n)
	}
	if t.Kind == schema.String {
		return "_sdp_s_str(" + expr + ")"
	}
	return fmt.Sprintf("_sdp_s_%s(%s)", g.need(t), expr)
}

// fieldsDecode writes the decoding of fields into _sdp_v0... and returns the
// constructor arguments; path is the path prefix of their names.
func (g *generator) fieldsDecode(fields []*schema.Field, prefix, temp string) string {
	p := g.p
	var args []string
	if len(fields) == 0 {
		return ""
	}
	p.F("_sdp_f = %q", prefix+fields[0].Name)
	p.Line("try:")
	p.In()
	one := func(i int, first bool) {
		f := fields[i]
		if !first {
			p.F("_sdp_f = %q", prefix+f.Name)
		}
		p.F("%s%d = %s", temp, i, g.decExpr(f.Type))
	}
	for _, run := range runs(fields) {
		if run[1]-run[0] == 1 {
			one(run[0], run[0] == 0)
			continue
		}
		// A run of fixed-size fields: one struct.Struct when it all fits,
		// else field by field, so that errors are the reference's.
		size := 0
		var vars []string
		for i := run[0]; i < run[1]; i++ {
			vars = append(vars, fmt.Sprintf("%s%d", temp, i))
		}
		if run[0] > 0 {
			p.F("_sdp_f = %q", prefix+fields[run[0]].Name)
		}
		p.Line("_sdp_p = _sdp_r.pos")
		st, total := g.runStruct(fields[run[0]:run[1]])
		p.F("if _sdp_p + %d <= _sdp_r.end:", total)
		p.In()
		p.F("%s = %s.unpack_from(_sdp_r.buf, _sdp_p)", strings.Join(vars, ", "), st)
		p.F("_sdp_r.pos = _sdp_p + %d", total)
		for i := run[0]; i < run[1]; i++ {
			f, v := fields[i], vars[i-run[0]]
			switch f.Type.Kind {
			case schema.Bool:
				p.F("if %s > 1:", v)
				p.F("    _sdp_f = %q", prefix+f.Name)
				p.F("    raise DecodeError(\"bool\", _sdp_p + %d, \"bool byte is \" + hex(%s) + \", not 0 or 1\")", size, v)
				p.F("%s = %s == 1", v, v)
			case schema.EnumRef:
				p.F("_sdp_f = %q", prefix+f.Name)
				p.F("%s = _sdp_r.enum_value(%s, %s, _sdp_p + %d)", v, g.n.decl[f.Type.Enum], v, size)
			case schema.F32:
				p.F("if %s != %s:  # a NaN  # noqa: PLR0124", v, v)
				p.F("    %s = _sdp_r.f32_at(_sdp_p + %d)", v, size)
			}
			n, _ := f.Type.FixedSize()
			size += n
		}
		p.Out()
		p.Line("else:")
		p.In()
		for i := run[0]; i < run[1]; i++ {
			one(i, i == run[0])
		}
		p.Out()
	}
	for i := range fields {
		args = append(args, fmt.Sprintf("%s%d", temp, i))
	}
	p.Out()
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_f)")
	p.Line("    raise")
	return strings.Join(args, ", ")
}

// runCode is the struct module's format code of a type that can join a run
// of fixed-size fields read and written with one struct.Struct, or "" (f32
// NaNs are fixed up: struct's "f" quiets signalling NaNs).
func runCode(t *schema.Type) string {
	k := t.Kind
	if k == schema.EnumRef {
		k = t.Enum.Base
	}
	return map[schema.Kind]string{schema.Bool: "B", schema.U8: "B", schema.I8: "b", schema.U16: "H",
		schema.I16: "h", schema.U32: "I", schema.I32: "i", schema.U64: "Q", schema.I64: "q", schema.F32: "f",
		schema.F64: "d"}[k]
}

// runs splits fields into runs [start, end): two or more consecutive fields
// with a runCode, or a single field.
func runs(fields []*schema.Field) [][2]int {
	var out [][2]int
	for i := 0; i < len(fields); {
		j := i
		for j < len(fields) && runCode(fields[j].Type) != "" {
			j++
		}
		if j-i >= 2 {
			out = append(out, [2]int{i, j})
			i = j
			continue
		}
		out = append(out, [2]int{i, i + 1})
		i++
	}
	return out
}

// runStruct returns the module-level struct.Struct of a run and its size.
func (g *generator) runStruct(fields []*schema.Field) (string, int) {
	codes := ""
	size := 0
	for _, f := range fields {
		codes += runCode(f.Type)
		n, _ := f.Type.FixedSize()
		size += n
	}
	return g.structFormat(codes), size
}

// structFormat returns the module-level struct.Struct of the little-endian
// format codes.
func (g *generator) structFormat(codes string) string {
	name := "_SDP_RUN_" + codes
	g.runFormats[name] = "<" + codes
	return name
}

// fieldsEncode writes the encoding of fields read from _sdp_v.
func (g *generator) fieldsEncode(fields []*schema.Field) {
	for _, run := range runs(fields) {
		if run[1]-run[0] == 1 {
			f := fields[run[0]]
			g.encStmt(f.Type, "_sdp_v."+g.n.fields[f])
			continue
		}
		st, _ := g.runStruct(fields[run[0]:run[1]])
		var exprs []string
		for _, f := range fields[run[0]:run[1]] {
			x := "_sdp_v." + g.n.fields[f]
			switch f.Type.Kind {
			case schema.Bool:
				x = "1 if " + x + " else 0"
			case schema.EnumRef:
				x = g.n.decl[f.Type.Enum] + "(" + x + ")"
			}
			exprs = append(exprs, x)
		}
		var nans []string
		off := 0
		for _, f := range fields[run[0]:run[1]] {
			if f.Type.Kind == schema.F32 {
				x := "_sdp_v." + g.n.fields[f]
				nans = append(nans, fmt.Sprintf("if %s != %s:  # NaN", x, x),
					fmt.Sprintf("    _sdp_out[_sdp_q + %d:_sdp_q + %d] = _sdp_pack_f32(%s)", off, off+4, x))
			}
			n, _ := f.Type.FixedSize()
			off += n
		}
		if len(nans) > 0 {
			// struct's "f" quiets a signalling NaN: write NaNs bit for bit.
			g.p.Line("_sdp_q = len(_sdp_out)")
		}
		g.p.F("_sdp_out += %s.pack(%s)", st, strings.Join(exprs, ", "))
		for _, l := range nans {
			g.p.Line(l)
		}
	}
}

func (g *generator) decoder(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_d_%s(_sdp_r: _SdpReader, _sdp_depth: int) -> %s:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		p.F("return %s", g.decExpr(t))
	case schema.StructRef:
		st := t.Struct
		p.F("if _sdp_depth > _sdp_r.max_depth:")
		p.F("    raise _sdp_r.depth(%q, _sdp_depth)", st.Name)
		if hasInline(st.Fields) {
			g.fastFields(st)
		}
		args := g.fieldsDecode(st.Fields, "", "_sdp_v")
		p.F("return %s(%s)", g.n.decl[st], args)
	case schema.UnionRef:
		u := t.Union
		p.F("if _sdp_depth > _sdp_r.max_depth:")
		p.F("    raise _sdp_r.depth(%q, _sdp_depth)", u.Name)
		p.Line("_sdp_p = _sdp_r.pos")
		p.F("_sdp_tag = _sdp_r.u8(%q)", "the tag of union "+u.Name)
		for _, v := range u.Variants {
			p.F("if _sdp_tag == %d:", v.Tag)
			p.In()
			switch v.Kind {
			case schema.VariantUnit:
				p.F("return %s()", g.n.variant[v])
			case schema.VariantStruct:
				p.Line("try:")
				p.F("    return _sdp_d_%s(_sdp_r, _sdp_depth + 1)", g.need(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}))
				p.Line("except DecodeError as _sdp_e:")
				p.F("    _sdp_e._sdp_segs.append(%q)", v.Name)
				p.Line("    raise")
			case schema.VariantInline:
				args := g.fieldsDecode(v.Fields, v.Name+".", fmt.Sprintf("_sdp_v%d_", v.Tag))
				p.F("return %s(%s)", g.n.variant[v], args)
			}
			p.Out()
		}
		p.F("raise DecodeError(\"union_tag\", _sdp_p, \"tag \" + str(_sdp_tag) + \" is not a variant of union %s (it has %d)\")", pyString(u.Name), len(u.Variants))
	case schema.Array:
		e := t.Elem
		if e.IsNumeric() && e.Kind != schema.U8 {
			// One call: a numeric array's decoding is O(1) Python operations.
			p.F("return _sdp_r.array(%q, %d, %d)", typecode(e.Kind), e.Kind.Size(), t.ArrayCharge())
			return
		}
		p.Line(`_sdp_p, _sdp_n = _sdp_r.length("an array count")`)
		p.F("_sdp_r.count(_sdp_p, _sdp_n, %d)", e.MinSize())
		if ch := t.ArrayCharge(); ch > 0 {
			p.F("_sdp_r.charge(_sdp_p, _sdp_n, %d)", ch)
		}
		switch {
		case e.Kind == schema.U8:
			p.Line("return _sdp_r.bytes_(_sdp_n)")
		case e.IsNumeric():
			p.F("return _sdp_r.numbers(%q, _sdp_n, %d)", typecode(e.Kind), e.Kind.Size())
		case e.Kind == schema.Bool:
			p.Line("return _sdp_r.bools(_sdp_n)")
		default:
			g.loop(e, "_sdp_n")
		}
	case schema.FixedArray:
		e := t.Elem
		switch {
		case e.Kind == schema.U8:
			p.F("_sdp_r.fixed(%d, 1, \"a u8\")", t.Len)
			p.F("return _sdp_r.bytes_(%d)", t.Len)
		case e.IsNumeric():
			p.F("_sdp_r.fixed(%d, %d, %q)", t.Len, e.Kind.Size(), article(e.Kind))
			p.F("return _sdp_r.numbers(%q, %d, %d)", typecode(e.Kind), t.Len, e.Kind.Size())
		case e.Kind == schema.Bool:
			p.F("return _sdp_r.fixed_bools(%d)", t.Len)
		default:
			g.loop(e, fmt.Sprint(t.Len))
		}
	case schema.Optional:
		p.Line("_sdp_p = _sdp_r.pos")
		p.Line(`_sdp_b = _sdp_r.u8("an optional's presence byte")`)
		p.Line("if _sdp_b == 0:")
		p.Line("    return None")
		p.Line("if _sdp_b != 1:")
		p.Line(`    raise DecodeError("presence", _sdp_p, "presence byte is " + hex(_sdp_b) + ", not 0 or 1")`)
		if ch := t.PresenceCharge(); ch > 0 {
			p.F("_sdp_r.charge(_sdp_p, 1, %d)", ch)
		}
		if t.Elem.Kind == schema.Optional {
			p.F("return Some(%s)", g.decExpr(t.Elem))
		} else {
			p.F("return %s", g.decExpr(t.Elem))
		}
	}
}

func (g *generator) loop(e *schema.Type, n string) {
	if g.inlineLoop(e, n) {
		return
	}
	p := g.p
	p.F("_sdp_out: list[%s] = []", g.hint(e))
	p.Line("_sdp_i = 0")
	p.Line("try:")
	p.F("    for _sdp_i in range(%s):", n)
	p.F("        _sdp_out.append(%s)", g.decExpr(e))
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_i)")
	p.Line("    raise")
	p.Line("return _sdp_out")
}

func (g *generator) encoder(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_e_%s(_sdp_v: %s, _sdp_out: bytearray) -> None:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		g.encStmt(t, "_sdp_v")
	case schema.StructRef:
		g.fieldsEncode(t.Struct.Fields)
		if len(t.Struct.Fields) == 0 {
			p.Line("pass")
		}
	case schema.UnionRef:
		for _, v := range t.Union.Variants {
			p.F("if isinstance(_sdp_v, %s):", g.variantClass(v))
			p.In()
			p.F("_sdp_out.append(%d)", v.Tag)
			switch v.Kind {
			case schema.VariantStruct:
				p.F("_sdp_e_%s(_sdp_v, _sdp_out)", g.need(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}))
			case schema.VariantInline:
				g.fieldsEncode(v.Fields)
			}
			p.Line("return")
			p.Out()
		}
		p.F("raise EncodeError(\"union %s: \" + repr(_sdp_v) + \" is not one of its variants\")", pyString(t.Union.Name))
	case schema.Array, schema.FixedArray:
		e := t.Elem
		if t.Kind == schema.FixedArray {
			p.F("_sdp_fixed(_sdp_v, %d)", t.Len)
		} else {
			p.Line("_sdp_out += _sdp_count(len(_sdp_v))")
		}
		switch {
		case e.Kind == schema.U8:
			p.Line("_sdp_put(_sdp_out, _sdp_v)")
		case e.IsNumeric():
			p.F("_sdp_put_numbers(_sdp_out, %q, _sdp_v)", typecode(e.Kind))
		default:
			p.Line("for _sdp_x in _sdp_v:")
			p.In()
			g.encStmt(e, "_sdp_x")
			p.Out()
		}
	case schema.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    _sdp_out.append(0)")
		p.Line("    return")
		p.Line("_sdp_out.append(1)")
		if t.Elem.Kind == schema.Optional {
			g.encStmt(t.Elem, "_sdp_v.value")
		} else {
			g.encStmt(t.Elem, "_sdp_v")
		}
	}
}

func (g *generator) sizer(t *schema.Type) {
	p := g.p
	c := canon(t)
	p.F("def _sdp_s_%s(_sdp_v: %s) -> int:", c, g.hint(t))
	p.In()
	defer p.Out()
	switch t.Kind {
	case schema.EnumRef:
		p.F("return %d", t.Enum.Base.Size())
	case schema.StructRef:
		n := 0
		var parts []string
		for _, f := range t.Struct.Fields {
			if k, ok := f.Type.FixedSize(); ok {
				n += k
			} else {
				parts = append(parts, g.sizeExpr(f.Type, "_sdp_v."+g.n.fields[f]))
			}
		}
		p.F("return %s", strings.Join(append([]string{fmt.Sprint(n)}, parts...), " + "))
	case schema.UnionRef:
		for _, v := range t.Union.Variants {
			p.F("if isinstance(_sdp_v, %s):", g.variantClass(v))
			switch v.Kind {
			case schema.VariantUnit:
				p.Line("    return 1")
			case schema.VariantStruct:
				p.F("    return 1 + %s", g.sizeExpr(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}, "_sdp_v"))
			case schema.VariantInline:
				parts := []string{"1"}
				for _, f := range v.Fields {
					parts = append(parts, g.sizeExpr(f.Type, "_sdp_v."+g.n.fields[f]))
				}
				p.F("    return %s", strings.Join(parts, " + "))
			}
		}
		p.F("raise EncodeError(\"union %s: \" + repr(_sdp_v) + \" is not one of its variants\")", pyString(t.Union.Name))
	case schema.Array, schema.FixedArray:
		head := "4 + "
		if t.Kind == schema.FixedArray {
			head = ""
		}
		if n, ok := t.Elem.FixedSize(); ok {
			p.F("return %slen(_sdp_v) * %d", head, n)
		} else {
			p.F("return %ssum(%s for _sdp_x in _sdp_v)", head, g.sizeExpr(t.Elem, "_sdp_x"))
		}
	case schema.Optional:
		p.Line("if _sdp_v is None:")
		p.Line("    return 1")
		if t.Elem.Kind == schema.Optional {
			p.F("return 1 + %s", g.sizeExpr(t.Elem, "_sdp_v.value"))
		} else {
			p.F("return 1 + %s", g.sizeExpr(t.Elem, "_sdp_v"))
		}
	}
}

// fastFields writes a struct decoder's fast path: the struct's own strings
// and fixed-size fields, and the fields of its fixed-size struct fields
// (plainStruct, flattened), are read inline from local variables (one
// struct.Struct per run of fixed-size fields, no method call per field);
// other fields call their decoders. It returns the value, or, at anything
// it does not take as it is (a truncated input, a bool or enum byte out of
// range, a string that is not UTF-8 or longer than the input, flattened
// structs nested deeper than the depth limit: IndexError, ValueError or
// struct.error), rewinds the reader and falls through to the field-by-field
// decoder after it, which finds the same problem and raises the reference's
// DecodeError with its offset and path. DecodeErrors of the called decoders
// get their path here as there; the rewind happens only for this struct's
// own fields, so a hostile input costs at most twice.
// fastPlan is a struct's fast path: its leaves (fields read inline or by a
// call, the flattened fields of fixed-size structs in their place, read into
// _sdp_w0...; the field-by-field decoder's _sdp_v0... may have other types),
// the constructor's arguments, how deep the flattened structs go, whether a
// leaf is decoded by a call (nested) and whether one is a string.
type fastPlan struct {
	leaves          []*schema.Field
	args            []string
	deepest         int
	nested, strings bool
}

func (g *generator) planFast(st *schema.Struct) fastPlan {
	var fp fastPlan
	var expr func(fields []*schema.Field, depth int) []string
	expr = func(fields []*schema.Field, depth int) []string {
		if depth > fp.deepest {
			fp.deepest = depth
		}
		var args []string
		for _, f := range fields {
			if f.Type.Kind == schema.StructRef && plainStruct(f.Type.Struct, 0) {
				sub := expr(f.Type.Struct.Fields, depth+1)
				args = append(args, fmt.Sprintf("%s(%s)", g.n.decl[f.Type.Struct], strings.Join(sub, ", ")))
				continue
			}
			args = append(args, fmt.Sprintf("_sdp_w%d", len(fp.leaves)))
			fp.leaves = append(fp.leaves, f)
		}
		return args
	}
	fp.args = expr(st.Fields, 0)
	for _, f := range fp.leaves {
		switch {
		case f.Type.Kind == schema.String:
			fp.strings = true
		case runCode(f.Type) == "":
			fp.nested = true
		}
	}
	return fp
}

func (g *generator) fastFields(st *schema.Struct) {
	p := g.p
	fp := g.planFast(st)
	p.Line("_sdp_s = _sdp_p = _sdp_r.pos")
	if fp.nested {
		// Only the decoders of other fields charge the memory limit.
		p.Line("_sdp_m = _sdp_r.mem_used")
	}
	p.Line("_sdp_b = _sdp_r.buf")
	if fp.strings {
		p.Line("_sdp_end = _sdp_r.end")
	}
	p.Line("try:")
	p.In()
	if fp.nested {
		p.Line("try:")
		p.In()
	}
	if fp.deepest > 0 {
		// The flattened structs' depth checks (rule 9): the field-by-field
		// decoder raises the error.
		p.F("if _sdp_depth + %d > _sdp_r.max_depth:", fp.deepest)
		p.Line("    raise _SdpSlow")
	}
	g.fastBody(fp)
	p.Line("_sdp_r.pos = _sdp_p")
	p.F("return %s", g.fastValue(st, fp))
	if fp.nested {
		p.Out()
		p.Line("except DecodeError as _sdp_e:")
		p.Line("    _sdp_e._sdp_segs.append(_sdp_f)")
		p.Line("    raise")
	}
	p.Out()
	p.Line(fastMisses)
	p.Line("    _sdp_r.pos = _sdp_s")
	if fp.nested {
		p.Line("    _sdp_r.mem_used = _sdp_m")
	}
}

// fastMisses are the exceptions with which a fast path gives up and leaves
// the input to the field-by-field decoder, which raises the DecodeError:
// struct.error and IndexError for bytes that are not there (or a bool byte
// out of range), ValueError for invalid UTF-8, an enum value out of range or
// _SdpSlow, AttributeError for a string in a memoryview (numpy=True on input
// other than bytes), which has no decode.
const fastMisses = "except (IndexError, ValueError, AttributeError, _sdp_struct.error):"

// fastBody reads a fast path's leaves from _sdp_b at _sdp_p (advancing it)
// into _sdp_w0...
func (g *generator) fastBody(fp fastPlan) {
	p := g.p
	leaves := fp.leaves
	var args []string
	for i := range leaves {
		args = append(args, fmt.Sprintf("_sdp_w%d", i))
	}
	fused := -1 // a string leaf whose length the run before it read
	for _, run := range runs(leaves) {
		f := leaves[run[0]]
		v := args[run[0]]
		if run[0] == fused {
			continue
		}
		// A run of fixed-size fields (or one number) followed by a string
		// reads the string's length with them: one unpack less.
		fuse := run[1] < len(leaves) && leaves[run[1]].Type.Kind == schema.String &&
			(run[1]-run[0] > 1 || f.Type.Kind.IsScalar() && f.Type.Kind != schema.Bool)
		if run[1]-run[0] > 1 || fuse {
			st, total := g.runStruct(leaves[run[0]:run[1]])
			vars := strings.Join(args[run[0]:run[1]], ", ")
			if fuse {
				// The same format with the string's u32 length after it.
				st = g.structFormat(strings.TrimPrefix(g.runFormats[st], "<") + "I")
				vars += ", _sdp_k"
			}
			p.F("%s = %s.unpack_from(_sdp_b, _sdp_p)", vars, st)
			off := 0
			for i := run[0]; i < run[1]; i++ {
				g.fastFix(leaves[i].Type, args[i], off)
				n, _ := leaves[i].Type.FixedSize()
				off += n
			}
			p.F("_sdp_p += %d", total)
			if fuse {
				fused = run[1]
				p.Line("_sdp_q = _sdp_p + 4 + _sdp_k")
				g.fastString(args[run[1]])
			}
			continue
		}
		switch k := f.Type.Kind; {
		case k == schema.Bool:
			p.F("%s = _SDP_BOOLS[_sdp_b[_sdp_p]]", v)
			p.Line("_sdp_p += 1")
		case k.IsScalar():
			p.F("%s = %s.unpack_from(_sdp_b, _sdp_p)[0]", v, scalarStruct[k])
			g.fastFix(f.Type, v, 0)
			p.F("_sdp_p += %d", k.Size())
		case k == schema.EnumRef:
			base := f.Type.Enum.Base
			p.F("%s = %s(%s.unpack_from(_sdp_b, _sdp_p)[0])", v, g.n.decl[f.Type.Enum], scalarStruct[base])
			p.F("_sdp_p += %d", base.Size())
		case k == schema.String:
			p.Line("_sdp_q = _sdp_p + 4 + _SDP_U32_FROM(_sdp_b, _sdp_p)[0]")
			g.fastString(v)
		default:
			// Only the struct's own fields are left here: a flattened
			// struct holds fixed-size fields only.
			p.F("_sdp_f = %q", f.Name)
			p.Line("_sdp_r.pos = _sdp_p")
			p.F("%s = %s", v, g.decExpr(f.Type))
			p.Line("_sdp_p = _sdp_r.pos")
		}
	}
}

// fastValue makes the struct value of a fast path in _sdp_o, field by field
// on an instance object.__new__ made, which skips the call of the
// dataclass's __init__ (a Python function) per value; it returns the name.
// The struct's own fields are set by name; flattened structs are
// constructed.
func (g *generator) fastValue(st *schema.Struct, fp fastPlan) string {
	p := g.p
	if len(st.Fields) == 0 {
		return g.n.decl[st] + "()"
	}
	p.F("_sdp_o: %s = _sdp_new(%s)", g.n.decl[st], g.n.decl[st])
	for i, f := range st.Fields {
		p.F("_sdp_o.%s = %s", g.n.fields[f], fp.args[i])
	}
	return "_sdp_o"
}

// fastString reads the string whose length is at _sdp_p and which ends at
// _sdp_q into v.
func (g *generator) fastString(v string) {
	p := g.p
	p.Line("if _sdp_q > _sdp_end:")
	p.Line("    raise _SdpSlow")
	// bytes.decode is faster than str(..., "utf-8"); see fastMisses for a
	// memoryview.
	p.F("%s = _sdp_b[_sdp_p + 4:_sdp_q].decode()", v)
	p.Line("_sdp_p = _sdp_q")
}

// inlineLoop decodes n elements of a struct whose fast path calls no other
// decoder inside the loop itself, with the fast path's reads inline (no call
// per element); at an element the fast path cannot take, the elements from
// there on are decoded by the struct's decoder, which raises the error.
// It reports false, emitting nothing, for other element types.
func (g *generator) inlineLoop(e *schema.Type, n string) bool {
	if e.Kind != schema.StructRef || !hasInline(e.Struct.Fields) {
		return false
	}
	fp := g.planFast(e.Struct)
	if fp.nested {
		return false
	}
	p := g.p
	p.F("_sdp_out: list[%s] = []", g.hint(e))
	p.Line("_sdp_i = 0")
	// The elements' depth checks (rule 9), and their flattened structs':
	// the element decoder raises the error.
	p.F("if _sdp_depth + %d <= _sdp_r.max_depth:", 1+fp.deepest)
	p.In()
	p.Line("_sdp_b = _sdp_r.buf")
	if fp.strings {
		p.Line("_sdp_end = _sdp_r.end")
	}
	p.Line("_sdp_s = _sdp_p = _sdp_r.pos")
	p.Line("_sdp_add = _sdp_out.append")
	p.Line("try:")
	p.F("    for _sdp_i in range(%s):", n)
	p.In()
	p.In()
	p.Line("_sdp_s = _sdp_p")
	g.fastBody(fp)
	p.F("_sdp_add(%s)", g.fastValue(e.Struct, fp))
	p.Out()
	p.Out()
	p.Line(fastMisses)
	p.Line("    _sdp_r.pos = _sdp_s")
	p.Line("else:")
	p.Line("    _sdp_r.pos = _sdp_p")
	p.Line("    return _sdp_out")
	p.Out()
	p.Line("try:")
	p.F("    for _sdp_i in range(len(_sdp_out), %s):", n)
	p.F("        _sdp_out.append(%s)", g.decExpr(e))
	p.Line("except DecodeError as _sdp_e:")
	p.Line("    _sdp_e._sdp_segs.append(_sdp_i)")
	p.Line("    raise")
	p.Line("return _sdp_out")
	return true
}

// plainStruct reports a struct of fixed-size fields only (scalars, bools,
// enums and such structs), which a fast path flattens into its parent's.
func plainStruct(st *schema.Struct, depth int) bool {
	if depth > 8 || len(st.Fields) == 0 {
		return false
	}
	for _, f := range st.Fields {
		if runCode(f.Type) != "" {
			continue
		}
		if f.Type.Kind == schema.StructRef && plainStruct(f.Type.Struct, depth+1) {
			continue
		}
		return false
	}
	return true
}

// fastFix writes the fast path's check or conversion of a fixed-size field
// read into v at offset off of the current position.
func (g *generator) fastFix(t *schema.Type, v string, off int) {
	p := g.p
	switch t.Kind {
	case schema.Bool:
		p.F("%s = _SDP_BOOLS[%s]", v, v)
	case schema.EnumRef:
		p.F("%s = %s(%s)", v, g.n.decl[t.Enum], v)
	case schema.F32:
		// struct's "f" quiets a signalling NaN: read NaNs bit for bit.
		p.F("if %s != %s:  # a NaN  # noqa: PLR0124", v, v)
		p.F("    %s = _sdp_r.f32_at(_sdp_p + %d)", v, off)
	}
}

// hasInline reports whether a struct has a field its decoder's fast path
// reads inline (a string or a fixed-size field): without one the fast path
// would only add its own cost to the field decoders' calls.
func hasInline(fields []*schema.Field) bool {
	for _, f := range fields {
		if f.Type.Kind == schema.String || runCode(f.Type) != "" {
			return true
		}
		if f.Type.Kind == schema.StructRef && plainStruct(f.Type.Struct, 0) {
			return true
		}
	}
	return false
}

// holdsArrays reports whether a value of type t can hold an array of numbers
// or of u8, which its encoder may keep aside (_SdpParts) instead of copying
// it into its bytearray: the struct's encode then joins the parts.
func holdsArrays(t *schema.Type) bool {
	return schema.Reaches(t, func(t *schema.Type) bool {
		return (t.Kind == schema.Array || t.Kind == schema.FixedArray) && t.Elem.IsNumeric()
	})
}
