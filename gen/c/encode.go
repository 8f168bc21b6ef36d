package c

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// sizeFixed is the encoded size of v when it is the same for every value
// and v holds no union or enum (the size functions reject a union's unknown
// tag and an enum's unnamed value, so they always check those).
func sizeFixed(v *plan.Value) (int, bool) {
	if v.Fixed < 0 || holdsCheck(v) {
		return 0, false
	}
	return v.Fixed, true
}

// declFixed is sizeFixed of a struct.
func declFixed(d *plan.Decl) (int, bool) {
	if d.Fixed < 0 || fieldsHoldCheck(d.Fields) {
		return 0, false
	}
	return d.Fixed, true
}

// holdsCheck reports a fixed-size value holding a union or an enum.
func holdsCheck(v *plan.Value) bool {
	switch v.Op {
	case plan.Union, plan.Enum:
		return true
	case plan.FixedArray:
		return holdsCheck(v.Elem)
	case plan.Struct:
		return fieldsHoldCheck(v.Decl.Fields)
	}
	return false
}

func fieldsHoldCheck(fs []*plan.Field) bool {
	for _, f := range fs {
		if holdsCheck(f.Value) {
			return true
		}
	}
	return false
}

// numbers returns the element kind and total element count of a numeric
// scalar or a fixed array (of fixed arrays) of numbers, which are copied in
// one piece.
func numbers(v *plan.Value) (schema.Kind, int, bool) {
	n := 1
	for v.Op == plan.FixedArray {
		n *= int(v.Len)
		v = v.Elem
	}
	switch v.Op {
	case plan.FixedBytes, plan.FixedNumbers:
		return v.Kind, n * int(v.Len), true
	case plan.Scalar:
		return v.Kind, n, v.Kind.IsInteger() || v.Kind.IsFloat()
	}
	return 0, 0, false
}

// fixedOp reports the ops of fixed arrays, which a pointer to an element
// reaches through their wrapper struct.
func fixedOp(o plan.Op) bool {
	switch o {
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		return true
	}
	return false
}

// elemOf is the lvalue of the value an element expression of v holds: the
// array inside a fixed array's wrapper.
func elemOf(v *plan.Value, e string) string {
	if fixedOp(v.Op) {
		return e + ".items"
	}
	return e
}

func loopVar(lvl int) string { return fmt.Sprintf("i%d", lvl) }

// ifElse prints an if statement with an else branch.
func ifElse(p *emit.Printer, cond string, then, els func()) {
	p.P("if (", cond, ") {")
	p.In()
	then()
	p.Out()
	p.P("} else {")
	p.In()
	els()
	p.Out()
	p.P("}")
}

// sizeOf prints statements adding the variable part of e's size to n and
// returns the constant part.
func (g *generator) sizeOf(p *emit.Printer, v *plan.Value, e string, lvl int) int {
	if k, ok := sizeFixed(v); ok {
		return k
	}
	add := func(c int) {
		if c > 0 {
			p.F("n = %s_add_(n, %d);", g.pkg, c)
		}
	}
	switch v.Op {
	case plan.String:
		g.use("str_size_")
		p.F("n = %s_add_(n, %s_str_size_(&%s));", g.pkg, g.pkg, e)
		return 4
	case plan.Enum:
		g.use("enum:" + v.Decl.Name())
		p.Block(fmt.Sprintf("if (!%s_valid_(%s)) {", g.typeName(v.Decl.Decl), e), "}", func() {
			p.P("return SIZE_MAX; /* a value the enum does not name */")
		})
		return v.Kind.Size()
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		elem := v.Elem
		if elem.Op == plan.Enum {
			i := loopVar(lvl)
			p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
				g.sizeOf(p, elem, fmt.Sprintf("%s.data[%s]", e, i), lvl+1)
			})
			g.addLen(p, e, elem.Kind.Size())
			return 4
		}
		if k, ok := sizeFixed(elem); ok {
			g.addLen(p, e, k)
			return 4
		}
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
			add(g.sizeOf(p, elem, elemOf(elem, fmt.Sprintf("%s.data[%s]", e, i)), lvl+1))
		})
		return 4
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, v.Len, i), "}", func() {
			add(g.sizeOf(p, v.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1))
		})
		return 0
	case plan.Optional:
		cond, val := e+".has", e+".value"
		if v.Boxed {
			cond, val = e+" != NULL", elemOf(v.Elem, e+"[0]")
		}
		p.Block("if ("+cond+") {", "}", func() { add(g.sizeOf(p, v.Elem, val, lvl+1)) })
		return 1
	case plan.Struct:
		p.F("n = %s_add_(n, %s_encoded_size(&%s));", g.pkg, g.typeName(v.Decl.Decl), e)
		return 0
	case plan.Union:
		p.F("n = %s_add_(n, %s_size_(&%s));", g.pkg, g.typeName(v.Decl.Decl), e)
		return 0
	}
	panic("c: size of " + v.Type.String())
}

// addLen prints the addition of the elements of the array e, k bytes each.
func (g *generator) addLen(p *emit.Printer, e string, k int) {
	if k == 1 {
		p.F("n = %s_add_(n, %s.len);", g.pkg, e)
		return
	}
	g.use("mul_")
	p.F("n = %s_add_(n, %s_mul_(%s.len, %d));", g.pkg, g.pkg, e, k)
}

// sizeBody prints "n = constant + variable parts; return n;" for fields.
func (g *generator) sizeBody(p *emit.Printer, fields []*plan.Field, access string, extra int) {
	body := emit.New("    ")
	c := extra
	for _, f := range fields {
		c += g.sizeOf(body, f.Value, access+memberName(f.Name), 0)
	}
	p.F("size_t n = %d;", c)
	if out := body.Bytes(); len(out) > 1 {
		p.Line(string(out[:len(out)-1]))
	}
	p.P("return n;")
}

var putFuncs = map[schema.Kind]string{
	schema.U16: "put_u16_", schema.I16: "put_u16_", schema.U32: "put_u32_", schema.I32: "put_u32_",
	schema.U64: "put_u64_", schema.I64: "put_u64_", schema.F32: "put_f32_", schema.F64: "put_f64_",
}

var unsignedOf = map[schema.Kind]string{
	schema.I16: "uint16_t", schema.I32: "uint32_t", schema.I64: "uint64_t",
}

var bulkPut = map[int]string{2: "put_le16s_", 4: "put_le32s_", 8: "put_le64s_"}

// write prints statements encoding e at p and advancing p; the room was
// checked by the caller.
func (g *generator) write(p *emit.Printer, v *plan.Value, e string, lvl int) {
	pkg := g.pkg
	switch v.Op {
	case plan.Scalar, plan.Enum:
		g.putScalar(p, v.Kind, e)
	case plan.String:
		g.use("put_str_")
		p.F("p = %s_put_str_(p, &%s);", pkg, e)
	case plan.Bytes, plan.Numbers:
		if v.Kind.Size() == 1 {
			g.use("put_bytes_")
			p.F("p = %s_put_bytes_(p, %s.data, %s.len);", pkg, e, e)
			return
		}
		f := bulkPut[v.Kind.Size()]
		g.use(f)
		p.F("%s_put_u32_(p, %s.len);", pkg, e)
		p.F("p = %s_%s(p + 4, %s.data, %s.len);", pkg, f, e, e)
	case plan.PlainArray:
		g.usePlain(v)
		p.F("%s_put_u32_(p, %s.len);", pkg, e)
		p.F("p = %s_puts_(p + 4, %s.data, %s.len);", g.typeName(v.Elem.Decl.Decl), e, e)
	case plan.Array:
		i := loopVar(lvl)
		p.F("%s_put_u32_(p, %s.len);", pkg, e)
		p.P("p += 4;")
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
			g.write(p, v.Elem, elemOf(v.Elem, fmt.Sprintf("%s.data[%s]", e, i)), lvl+1)
		})
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		if k, n, ok := numbers(v); ok {
			if k.Size() == 1 {
				p.F("memcpy(p, %s, %d);", e, n)
				p.F("p += %d;", n)
			} else {
				f := bulkPut[k.Size()]
				g.use(f)
				p.F("p = %s_%s(p, %s, %d);", pkg, f, e, n)
			}
			return
		}
		if v.Op == plan.FixedPlain {
			g.usePlain(v)
			p.F("p = %s_puts_(p, %s, %d);", g.typeName(v.Elem.Decl.Decl), e, v.Len)
			return
		}
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, v.Len, i), "}", func() {
			g.write(p, v.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1)
		})
	case plan.Optional:
		cond, val := e+".has", e+".value"
		if v.Boxed {
			cond, val = e+" != NULL", elemOf(v.Elem, e+"[0]")
		}
		ifElse(p, cond, func() {
			p.P("*p++ = 1;")
			g.write(p, v.Elem, val, lvl+1)
		}, func() { p.P("*p++ = 0;") })
	case plan.Struct, plan.Union:
		p.F("p = %s_write_(&%s, p);", g.typeName(v.Decl.Decl), e)
	default:
		panic("c: write " + v.Type.String())
	}
}

// putScalar prints the write of a bool, integer or float of kind k.
func (g *generator) putScalar(p *emit.Printer, k schema.Kind, e string) {
	switch k {
	case schema.Bool:
		p.F("*p++ = (uint8_t)(%s ? 1 : 0);", e)
	case schema.U8:
		p.F("*p++ = %s;", e)
	case schema.I8:
		p.F("*p++ = (uint8_t)%s;", e)
	default:
		f := putFuncs[k]
		g.use(f)
		if u := unsignedOf[k]; u != "" {
			e = "(" + u + ")" + e
		}
		if k == schema.F32 || k == schema.F64 {
			e = "&" + e
		}
		p.F("%s_%s(p, %s);", g.pkg, f, e)
		p.F("p += %d;", k.Size())
	}
}

// structEncode prints a struct's size, write and encode functions.
func (g *generator) structEncode(s *schema.Struct) {
	p, name, d := g.c, g.typeName(s), g.pl.Of(s)
	p.Block(fmt.Sprintf("size_t %s_encoded_size(const %s* v) {", name, name), "}", func() {
		if k, ok := declFixed(d); ok {
			p.P("(void)v;")
			p.F("return %d;", k)
			return
		}
		g.sizeBody(p, d.Fields, "v->", 0)
	})
	p.P()
	p.Block(fmt.Sprintf("static uint8_t* %s_write_(const %s* v, uint8_t* p) {", name, name), "}", func() {
		if len(d.Fields) == 0 {
			p.P("(void)v;")
		}
		for _, f := range d.Fields {
			g.write(p, f.Value, "v->"+memberName(f.Name), 0)
		}
		p.P("return p;")
	})
	p.P()
	g.structCheck(s)
	g.publicEncode(name, name+"_encoded_size")
}

// publicEncode prints the public encode functions of the struct or union
// name (name_encode_ex and name_encode), which size the value with the
// function size and write it with name_write_; a value whose size is
// SIZE_MAX is walked again by name_check_ to find the rule and path.
func (g *generator) publicEncode(name, size string) {
	p, pkg, up := g.c, g.pkg, g.up
	g.use("check_")
	g.use("encoded_")
	p.Block(fmt.Sprintf("int %s_encode_ex(const %s* v, uint8_t* buf, size_t cap, %s_encode_result* res) {", name, name, pkg), "}", func() {
		p.F("size_t n = %s(v);", size)
		p.Block("if (n == SIZE_MAX) {", "}", func() {
			p.F("%s_dec_ d;", pkg)
			p.F("return %s_refuse_(res, &d, %s_check_(v, &d));", pkg, name)
		})
		p.Block("if (n > cap) {", "}", func() { p.F("return %s_encoded_(res, %s_ERR_BUFFER, n);", pkg, up) })
		p.F("(void)%s_write_(v, buf);", name)
		p.F("return %s_encoded_(res, %s_OK, n);", pkg, up)
	})
	p.P()
	p.Block(fmt.Sprintf("size_t %s_encode(const %s* v, uint8_t* buf, size_t cap) {", name, name), "}", func() {
		p.F("size_t n = %s(v);", size)
		p.Block("if (n == SIZE_MAX || n > cap) {", "}", func() { p.P("return 0;") })
		p.F("(void)%s_write_(v, buf);", name)
		p.P("return n;")
	})
	p.P()
}

// checkFields prints the check walk of fields (a struct's, or a
// variant's, whose name variant then is): the first value that has no
// encoding, in encoding order, fails the walk with its path.
func (g *generator) checkFields(p *emit.Printer, fields []*plan.Field, access, variant string) {
	for _, f := range fields {
		if !checks(f.Value) {
			continue
		}
		var fail []string
		if f.Name != "" {
			fail = append(fail, g.checkIn(f.Name))
		}
		if variant != "" {
			fail = append(fail, g.checkIn(variant))
		}
		g.checkValue(p, f.Value, access+memberName(f.Name), append(fail, "return 0;"), 0)
	}
}

// checkValue prints the check of e (coded as v), running fail (the
// statements naming the value's path segments, innermost first, then
// returning 0) at the first problem.
func (g *generator) checkValue(p *emit.Printer, v *plan.Value, e string, fail []string, lvl int) {
	if !checks(v) {
		return
	}
	failIf := func(cond string) {
		p.Block("if ("+cond+") {", "}", func() {
			for _, s := range fail {
				p.P(s)
			}
		})
	}
	i := loopVar(lvl)
	switch v.Op {
	case plan.String:
		g.use("check_str_")
		failIf(fmt.Sprintf("!%s_check_str_(d, &%s)", g.pkg, e))
	case plan.Enum:
		g.use("enum:" + v.Decl.Name())
		g.use("check_enum_")
		failIf(fmt.Sprintf("!%s_check_enum_(d, %s_valid_(%s))", g.pkg, g.typeName(v.Decl.Decl), e))
	case plan.Struct, plan.Union:
		failIf(fmt.Sprintf("!%s_check_(&%s, d)", g.typeName(v.Decl.Decl), e))
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		g.use("check_at_")
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
			g.checkValue(p, v.Elem, elemOf(v.Elem, fmt.Sprintf("%s.data[%s]", e, i)),
				append([]string{fmt.Sprintf("(void)%s_check_at_(d, %s);", g.pkg, i)}, fail...), lvl+1)
		})
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		g.use("check_at_")
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, v.Len, i), "}", func() {
			g.checkValue(p, v.Elem, fmt.Sprintf("%s[%s]", e, i),
				append([]string{fmt.Sprintf("(void)%s_check_at_(d, %s);", g.pkg, i)}, fail...), lvl+1)
		})
	case plan.Optional:
		cond, val := e+".has", e+".value"
		if v.Boxed {
			cond, val = e+" != NULL", elemOf(v.Elem, e+"[0]")
		}
		p.Block("if ("+cond+") {", "}", func() { g.checkValue(p, v.Elem, val, fail, lvl+1) })
	}
}

// checkIn is the statement naming a field or variant in the path of a
// check walk's problem.
func (g *generator) checkIn(name string) string {
	g.use("check_in_")
	return fmt.Sprintf("(void)%s_check_in_(d, %q);", g.pkg, name)
}

// checks reports whether a value coded as v can have no encoding in C: a
// string (UTF-8), an enum, a union (its tag), a struct (its fields), or
// an array or optional of those. (Counts are uint32_t: never over u32.)
func checks(v *plan.Value) bool {
	switch v.Op {
	case plan.String, plan.Enum, plan.Struct, plan.Union:
		return true
	case plan.Optional, plan.Array, plan.FixedArray, plan.Bytes, plan.Numbers, plan.PlainArray,
		plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain:
		return v.Elem != nil && checks(v.Elem)
	}
	return false
}

// structCheck prints a struct's check walk.
func (g *generator) structCheck(s *schema.Struct) {
	p, name, d := g.c, g.typeName(s), g.pl.Of(s)
	p.Block(fmt.Sprintf("static int %s_check_(const %s* v, %s_dec_* d) {", name, name, g.pkg), "}", func() {
		body := emit.New("    ")
		g.checkFields(body, d.Fields, "v->", "")
		if out := body.Bytes(); len(out) > 1 {
			p.Line(string(out[:len(out)-1]))
		} else {
			p.P("(void)v;")
			p.P("(void)d;")
		}
		p.P("return 1;")
	})
	p.P()
}

// unionCheck prints a union's check walk: its tag, then the variant's
// fields, under the variant's name.
func (g *generator) unionCheck(u *schema.Union) {
	p, name := g.c, g.typeName(u)
	p.Block(fmt.Sprintf("static int %s_check_(const %s* v, %s_dec_* d) {", name, name, g.pkg), "}", func() {
		p.P("switch (v->tag) {")
		for _, v := range g.pl.Of(u).Variants {
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			m := "v->value." + memberName(v.Name)
			if v.Carries != nil {
				if checks(v.Fields[0].Value) {
					g.checkValue(p, v.Fields[0].Value, m, []string{g.checkIn(v.Name), "return 0;"}, 0)
				}
			} else {
				g.checkFields(p, v.Fields, m+".", v.Name)
			}
			p.P("return 1;")
			p.Out()
		}
		p.P("}")
		g.use("check_fail_")
		p.F("return %s_check_fail_(d, %s_ERR_UNION_TAG);", g.pkg, g.up)
	})
	p.P()
}

// unionEncode prints a union's size and write functions.
func (g *generator) unionEncode(u *schema.Union) {
	p, name := g.c, g.typeName(u)
	p.Block(fmt.Sprintf("static size_t %s_size_(const %s* v) {", name, name), "}", func() {
		p.P("switch (v->tag) {")
		for _, v := range g.pl.Of(u).Variants {
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			m := "v->value." + memberName(v.Name)
			switch {
			case (v.Carries != nil):
				body := emit.New("    ")
				c := 1 + g.sizeOf(body, v.Fields[0].Value, m, 0)
				if out := body.Bytes(); len(out) > 1 {
					p.Block("{", "}", func() {
						p.F("size_t n = %d;", c)
						p.Line(string(out[:len(out)-1]))
						p.P("return n;")
					})
				} else {
					p.F("return %d;", c)
				}
			case len(v.Fields) > 0:
				p.Block("{", "}", func() { g.sizeBody(p, v.Fields, m+".", 1) })
			default:
				p.P("return 1;")
			}
			p.Out()
		}
		p.P("}")
		p.P("return SIZE_MAX; /* an unknown tag cannot be encoded */")
	})
	p.P()
	p.Block(fmt.Sprintf("static uint8_t* %s_write_(const %s* v, uint8_t* p) {", name, name), "}", func() {
		p.P("*p++ = v->tag;")
		p.P("switch (v->tag) {")
		for _, v := range g.pl.Of(u).Variants {
			if len(v.Fields) == 0 {
				continue
			}
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			m := "v->value." + memberName(v.Name)
			if v.Carries != nil {
				g.write(p, v.Fields[0].Value, m, 0)
			} else {
				for _, f := range v.Fields {
					g.write(p, f.Value, m+"."+memberName(f.Name), 0)
				}
			}
			p.P("break;")
			p.Out()
		}
		p.P("default:")
		p.In()
		p.P("break;")
		p.Out()
		p.P("}")
		p.P("return p;")
	})
	p.P()
}

// isStructVariant reports a variant that carries a declared struct: its
// one field, unnamed, holds the struct, stored as the variant's member.
