package c

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/schema"
)

// fixedSize is the encoded size of t when it is the same for every value and
// t holds no union or enum (the size functions reject a union's unknown tag
// and an enum's unnamed value, so they always check those).
func fixedSize(t *schema.Type) (int, bool) {
	if needsCheck(t, map[*schema.Struct]bool{}) {
		return 0, false
	}
	return t.FixedSize()
}

// needsCheck reports a fixed-size type holding a union or an enum.
func needsCheck(t *schema.Type, seen map[*schema.Struct]bool) bool {
	switch t.Kind {
	case schema.UnionRef, schema.EnumRef:
		return true
	case schema.FixedArray:
		return needsCheck(t.Elem, seen)
	case schema.StructRef:
		if seen[t.Struct] {
			return false
		}
		seen[t.Struct] = true
		for _, f := range t.Struct.Fields {
			if needsCheck(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// structFixed is the fixed size of a struct by the same rule.
func structFixed(s *schema.Struct) (int, bool) {
	return fixedSize(&schema.Type{Kind: schema.StructRef, Struct: s})
}

// numericLeaf returns the element kind and total element count of a numeric
// scalar or a (nested) fixed array of numeric scalars.
func numericLeaf(t *schema.Type) (schema.Kind, int, bool) {
	n := 1
	for t.Kind == schema.FixedArray {
		n *= int(t.Len)
		t = t.Elem
	}
	return t.Kind, n, t.IsNumeric()
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
func (g *generator) sizeOf(p *emit.Printer, t *schema.Type, e string, lvl int) int {
	if k, ok := fixedSize(t); ok {
		return k
	}
	add := func(c int) {
		if c > 0 {
			p.F("n = %s_add_(n, %d);", g.pkg, c)
		}
	}
	switch t.Kind {
	case schema.String:
		g.use("str_size_")
		p.F("n = %s_add_(n, %s_str_size_(&%s));", g.pkg, g.pkg, e)
		return 4
	case schema.EnumRef:
		g.use("enum:" + t.Enum.Name)
		p.Block(fmt.Sprintf("if (!%s_valid_(%s)) {", g.typeName(t.Enum), e), "}", func() {
			p.P("return SIZE_MAX; /* a value the enum does not name */")
		})
		return t.Enum.Base.Size()
	case schema.Array:
		if t.Elem.Kind == schema.EnumRef {
			i := loopVar(lvl)
			p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
				g.sizeOf(p, t.Elem, fmt.Sprintf("%s.data[%s]", e, i), lvl+1)
			})
			if k := t.Elem.Enum.Base.Size(); k == 1 {
				p.F("n = %s_add_(n, %s.len);", g.pkg, e)
			} else {
				g.use("mul_")
				p.F("n = %s_add_(n, %s_mul_(%s.len, %d));", g.pkg, g.pkg, e, k)
			}
			return 4
		}
		if k, ok := fixedSize(t.Elem); ok {
			if k == 1 {
				p.F("n = %s_add_(n, %s.len);", g.pkg, e)
			} else {
				g.use("mul_")
				p.F("n = %s_add_(n, %s_mul_(%s.len, %d));", g.pkg, g.pkg, e, k)
			}
			return 4
		}
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
			add(g.sizeOf(p, t.Elem, elemValue(t.Elem, fmt.Sprintf("%s.data[%s]", e, i)), lvl+1))
		})
		return 4
	case schema.FixedArray:
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, t.Len, i), "}", func() {
			add(g.sizeOf(p, t.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1))
		})
		return 0
	case schema.Optional:
		cond, val := e+".has", e+".value"
		if t.Boxed {
			cond, val = e+" != NULL", elemValue(t.Elem, e+"[0]")
		}
		p.Block("if ("+cond+") {", "}", func() { add(g.sizeOf(p, t.Elem, val, lvl+1)) })
		return 1
	case schema.StructRef:
		p.F("n = %s_add_(n, %s_encoded_size(&%s));", g.pkg, g.typeName(t.Struct), e)
		return 0
	case schema.UnionRef:
		p.F("n = %s_add_(n, %s_size_(&%s));", g.pkg, g.typeName(t.Union), e)
		return 0
	}
	panic("c: size of " + t.String())
}

// sizeBody prints "n = constant + variable parts; return n;" for fields.
func (g *generator) sizeBody(p *emit.Printer, fields []*schema.Field, access string, extra int) {
	body := emit.New("    ")
	c := extra
	for _, f := range fields {
		c += g.sizeOf(body, f.Type, access+memberName(f.Name), 0)
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
func (g *generator) write(p *emit.Printer, t *schema.Type, e string, lvl int) {
	pkg := g.pkg
	scalar := func(k schema.Kind, e string) {
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
			p.F("%s_%s(p, %s);", pkg, f, e)
			p.F("p += %d;", k.Size())
		}
	}
	switch t.Kind {
	case schema.String:
		g.use("put_str_")
		p.F("p = %s_put_str_(p, &%s);", pkg, e)
	case schema.EnumRef:
		scalar(t.Enum.Base, e)
	case schema.Array:
		k := t.Elem.Kind
		switch {
		case k == schema.U8 || k == schema.I8:
			g.use("put_bytes_")
			p.F("p = %s_put_bytes_(p, %s.data, %s.len);", pkg, e, e)
		case t.Elem.IsNumeric():
			f := bulkPut[k.Size()]
			g.use(f)
			p.F("%s_put_u32_(p, %s.len);", pkg, e)
			p.F("p = %s_%s(p + 4, %s.data, %s.len);", pkg, f, e, e)
		case g.plainArray(t):
			p.F("%s_put_u32_(p, %s.len);", pkg, e)
			p.F("p = %s_puts_(p + 4, %s.data, %s.len);", g.typeName(t.Elem.Struct), e, e)
		default:
			i := loopVar(lvl)
			p.F("%s_put_u32_(p, %s.len);", pkg, e)
			p.P("p += 4;")
			p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %s.len; %s++) {", i, i, e, i), "}", func() {
				g.write(p, t.Elem, elemValue(t.Elem, fmt.Sprintf("%s.data[%s]", e, i)), lvl+1)
			})
		}
	case schema.FixedArray:
		if k, n, ok := numericLeaf(t); ok {
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
		if g.plainArray(t) {
			p.F("p = %s_puts_(p, %s, %d);", g.typeName(t.Elem.Struct), e, t.Len)
			return
		}
		i := loopVar(lvl)
		p.Block(fmt.Sprintf("for (uint32_t %s = 0; %s < %d; %s++) {", i, i, t.Len, i), "}", func() {
			g.write(p, t.Elem, fmt.Sprintf("%s[%s]", e, i), lvl+1)
		})
	case schema.Optional:
		cond, val := e+".has", e+".value"
		if t.Boxed {
			cond, val = e+" != NULL", elemValue(t.Elem, e+"[0]")
		}
		ifElse(p, cond, func() {
			p.P("*p++ = 1;")
			g.write(p, t.Elem, val, lvl+1)
		}, func() { p.P("*p++ = 0;") })
	case schema.StructRef:
		p.F("p = %s_write_(&%s, p);", g.typeName(t.Struct), e)
	case schema.UnionRef:
		p.F("p = %s_write_(&%s, p);", g.typeName(t.Union), e)
	default:
		scalar(t.Kind, e)
	}
}

// structEncode prints a struct's size, write and encode functions.
func (g *generator) structEncode(s *schema.Struct) {
	p, name := g.c, g.typeName(s)
	p.Block(fmt.Sprintf("size_t %s_encoded_size(const %s* v) {", name, name), "}", func() {
		if k, ok := structFixed(s); ok {
			p.P("(void)v;")
			p.F("return %d;", k)
			return
		}
		g.sizeBody(p, s.Fields, "v->", 0)
	})
	p.P()
	p.Block(fmt.Sprintf("static uint8_t* %s_write_(const %s* v, uint8_t* p) {", name, name), "}", func() {
		if len(s.Fields) == 0 {
			p.P("(void)v;")
		}
		for _, f := range s.Fields {
			g.write(p, f.Type, "v->"+memberName(f.Name), 0)
		}
		p.P("return p;")
	})
	p.P()
	g.publicEncode(name, name+"_encoded_size")
}

// publicEncode prints the public encode functions of the struct or union
// name (name_encode_ex and name_encode), which size the value with the
// function size and write it with name_write_.
func (g *generator) publicEncode(name, size string) {
	p := g.c
	p.Block(fmt.Sprintf("int %s_encode_ex(const %s* v, uint8_t* buf, size_t cap, size_t* written) {", name, name), "}", func() {
		p.F("size_t n = %s(v);", size)
		p.Block("if (n == SIZE_MAX) {", "}", func() {
			p.P("*written = 0;")
			p.F("return %s_ERR_ENCODE;", g.up)
		})
		p.P("*written = n;")
		p.Block("if (n > cap) {", "}", func() { p.F("return %s_ERR_BUFFER;", g.up) })
		p.F("(void)%s_write_(v, buf);", name)
		p.F("return %s_OK;", g.up)
	})
	p.P()
	p.Block(fmt.Sprintf("size_t %s_encode(const %s* v, uint8_t* buf, size_t cap) {", name, name), "}", func() {
		p.P("size_t n = 0;")
		p.F("return %s_encode_ex(v, buf, cap, &n) == %s_OK ? n : 0;", name, g.up)
	})
	p.P()
}

// unionEncode prints a union's size and write functions.
func (g *generator) unionEncode(u *schema.Union) {
	p, name := g.c, g.typeName(u)
	p.Block(fmt.Sprintf("static size_t %s_size_(const %s* v) {", name, name), "}", func() {
		p.P("switch (v->tag) {")
		for _, v := range u.Variants {
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			switch {
			case v.Kind == schema.VariantStruct:
				t := &schema.Type{Kind: schema.StructRef, Struct: v.Struct}
				body := emit.New("    ")
				c := 1 + g.sizeOf(body, t, "v->value."+memberName(v.Name), 0)
				if out := body.Bytes(); len(out) > 1 {
					p.Block("{", "}", func() {
						p.F("size_t n = %d;", c)
						p.Line(string(out[:len(out)-1]))
						p.P("return n;")
					})
				} else {
					p.F("return %d;", c)
				}
			case hasPayload(v):
				p.Block("{", "}", func() {
					g.sizeBody(p, v.Fields, "v->value."+memberName(v.Name)+".", 1)
				})
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
		for _, v := range u.Variants {
			if !hasPayload(v) {
				continue
			}
			p.F("case %s:", g.valueName(u, v.Name))
			p.In()
			m := "v->value." + memberName(v.Name)
			if v.Kind == schema.VariantStruct {
				g.write(p, &schema.Type{Kind: schema.StructRef, Struct: v.Struct}, m, 0)
			} else {
				for _, f := range v.Fields {
					g.write(p, f.Type, m+"."+memberName(f.Name), 0)
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
