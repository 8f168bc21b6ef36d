package ts

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// emitFieldCodecs prints the decode ($d_), encode ($e_) and, for a
// variable size, size ($s_) functions of a struct's or an inline variant's
// fields. A struct enters one level of depth; an inline variant's fields
// are at its union's depth.
func (g *generator) emitFieldCodecs(p *emit.Printer, name, schemaName string, fields []*plan.Field, steps []plan.Step, fixed int, enter bool) {
	params := []string{"$r: $.Reader", "$m: " + name}
	if len(fields) == 0 && !enter {
		params[0] = "_r: $.Reader"
	}
	g.internal(p, "$d_"+name, params, name, func() {
		if enter {
			p.P("$r.enter();")
		}
		if len(fields) > 0 {
			p.P(`let $f = "";`)
			p.Block("try {", "} catch ($e) {", func() {
				for _, s := range steps {
					if s.Run != nil {
						g.decodeRun(p, s)
					} else {
						g.decodeFieldsSlow(p, s.Fields)
					}
				}
			})
			p.P("  throw $.at($e, $f);")
			p.P("}")
		}
		if enter {
			p.P("$r.depth--;")
		}
		p.P("return $m;")
	})
	// The encoder detects a value that has no encoding (an object that is
	// none included) and throws; the check walk ($k_) then finds the first
	// problem and its path.
	params = []string{"$w: $.Writer", "$m: " + name}
	if len(fields) == 0 {
		params[0] = "_w: $.Writer"
	}
	g.internal(p, "$e_"+name, params, "void", func() {
		p.P("$.cobj($m);")
		for _, s := range steps {
			if s.Run != nil {
				g.encodeRun(p, s)
				continue
			}
			f := s.Fields[0]
			g.encodeValue(p, f.Value, "$m."+g.names.field[f.Field], 1)
		}
	})
	g.internal(p, "$k_"+name, []string{"$m: " + name}, "void", func() {
		p.F("$.kobj($m, %q);", schemaName)
		if len(fields) == 0 {
			return
		}
		p.P(`let $f = "";`)
		p.Block("try {", "} catch ($e) {", func() {
			for _, f := range fields {
				p.F("$f = %q;", f.Name)
				g.checkValue(p, f.Value, "$m."+g.names.field[f.Field], 1)
			}
		})
		p.P("  throw $.at($e, $f);")
		p.P("}")
	})
	if fixed >= 0 {
		return
	}
	g.internal(p, "$s_"+name, []string{"$m: " + name}, "number", func() {
		n := 0
		for _, f := range fields {
			if f.Value.Fixed >= 0 {
				n += f.Value.Fixed
			}
		}
		p.F("let $n = %d;", n)
		for _, f := range fields {
			if f.Value.Fixed < 0 {
				g.sizeValue(p, f.Value, "$m."+g.names.field[f.Field], 1)
			}
		}
		p.P("return $n;")
	})
}

// decodeFieldsSlow prints the decoding of fields one by one, naming each
// in $f for the error path.
func (g *generator) decodeFieldsSlow(p *emit.Printer, fields []*plan.Field) {
	for _, f := range fields {
		p.F("$f = %q;", f.Name)
		g.decodeValue(p, f.Value, "$m."+g.names.field[f.Field], 1, true)
	}
}

// leafLHS is the expression of a run's leaf below $m (or $w's value).
func (g *generator) leafLHS(recv string, l plan.Leaf) string {
	x := recv
	for _, f := range l.Path {
		x += "." + g.names.field[f]
	}
	return x
}

func at(base string, off int) string {
	if off == 0 {
		return base
	}
	return fmt.Sprintf("%s + %d", base, off)
}

// decodeRun prints a run: one check of its size, depth, bools and enums,
// then every leaf at its offset; when the check fails, the fields one by
// one, which finds the exact error.
func (g *generator) decodeRun(p *emit.Printer, s plan.Step) {
	r := s.Run
	p.Block("{", "}", func() {
		p.P("const $o = $r.o;")
		cond := fmt.Sprintf("$r.end - $o >= %d", r.Size)
		if r.Depth > 0 {
			cond += fmt.Sprintf(" && $r.depth + %d <= $r.maxDepth", r.Depth)
		}
		for _, l := range r.Leaves {
			switch {
			case l.Value.Op == plan.Scalar && l.Value.Kind == schema.Bool:
				cond += fmt.Sprintf(" && $r.b[%s]%s <= 1", at("$o", l.Offset), g.nn())
			case l.Value.Op == plan.Enum:
				cond += fmt.Sprintf(" && $v_%s(%s)", g.names.decl[l.Value.Decl.Enum], g.readLeaf(l, schema.Bool))
			}
		}
		p.Block("if ("+cond+") {", "} else {", func() {
			for _, l := range r.Leaves {
				x := g.readLeaf(l, 0)
				if l.Value.Op == plan.Enum {
					x += g.as(g.names.decl[l.Value.Decl.Enum])
				}
				p.F("%s = %s;", g.leafLHS("$m", l), x)
			}
			p.F("$r.o = $o + %d;", r.Size)
		})
		p.In()
		g.decodeFieldsSlow(p, s.Fields)
		p.Out()
		p.P("}")
	})
}

// readLeaf is the expression reading a leaf at its offset from $o (an
// enum's number; with raw set to Bool, a bool's byte).
func (g *generator) readLeaf(l plan.Leaf, raw schema.Kind) string {
	o := at("$o", l.Offset)
	switch l.Value.Kind {
	case schema.Bool:
		if raw == schema.Bool {
			return "$r.b[" + o + "]" + g.nn()
		}
		return "$r.b[" + o + "] === 1"
	case schema.U8:
		return "$r.b[" + o + "]" + g.nn()
	case schema.I8:
		return "$r.v.getInt8(" + o + ")"
	case schema.U16:
		return "$r.v.getUint16(" + o + ", true)"
	case schema.I16:
		return "$r.v.getInt16(" + o + ", true)"
	case schema.U32:
		return "$r.v.getUint32(" + o + ", true)"
	case schema.I32:
		return "$r.v.getInt32(" + o + ", true)"
	case schema.U64:
		return "$r.v.getBigUint64(" + o + ", true)"
	case schema.I64:
		return "$r.v.getBigInt64(" + o + ", true)"
	case schema.F32:
		return "$.getF32($r.v, " + o + ")"
	case schema.F64:
		return "$r.v.getFloat64(" + o + ", true)"
	}
	panic("ts backend: readLeaf of " + l.Value.Kind.String())
}

// encodeRun prints a run: its bytes reserved once, every leaf checked
// (the checks of the runtime's Writer, cheap enough to fold into the
// writes) and written at its offset.
func (g *generator) encodeRun(p *emit.Printer, s plan.Step) {
	r := s.Run
	p.Block("{", "}", func() {
		p.F("const $o = $w.take(%d);", r.Size)
		for _, l := range r.Leaves {
			x := g.leafLHS("$m", l)
			o := at("$o", l.Offset)
			if l.Value.Op == plan.Enum {
				x = "$c_" + g.names.decl[l.Value.Decl.Enum] + "(" + x + ")"
			} else {
				x = scalarCheck[l.Value.Kind] + "(" + x + ")"
			}
			switch l.Value.Kind {
			case schema.Bool, schema.U8:
				p.F("$w.b[%s] = %s;", o, x)
			case schema.I8:
				p.F("$w.v.setInt8(%s, %s);", o, x)
			case schema.F32:
				p.F("$.setF32($w.v, %s, %s);", o, x)
			default:
				p.F("$w.v.set%s(%s, %s, true);", dataViewKind(l.Value.Kind), o, x)
			}
		}
	})
}

// scalarCheck is the runtime's check of a scalar kind for the encoder:
// the value when the kind holds it, else it throws.
var scalarCheck = map[schema.Kind]string{
	schema.Bool: "$.cbool", schema.U8: "$.cu8", schema.I8: "$.ci8", schema.U16: "$.cu16",
	schema.I16: "$.ci16", schema.U32: "$.cu32", schema.I32: "$.ci32", schema.U64: "$.cu64",
	schema.I64: "$.ci64", schema.F32: "$.cf64", schema.F64: "$.cf64",
}

func dataViewKind(k schema.Kind) string {
	return map[schema.Kind]string{
		schema.I8: "Int8", schema.U16: "Uint16", schema.I16: "Int16", schema.U32: "Uint32",
		schema.I32: "Int32", schema.U64: "BigUint64", schema.I64: "BigInt64", schema.F64: "Float64",
	}[k]
}

// decodeValue prints the decoding of a value coded as v into lhs. With
// existing set, lhs holds a value of the type already (a struct field),
// which a struct is decoded into.
func (g *generator) decodeValue(p *emit.Printer, v *plan.Value, lhs string, lvl int, existing bool) {
	switch v.Op {
	case plan.Scalar:
		p.F("%s = $r.%s();", lhs, kindNames[v.Kind])
	case plan.Enum:
		p.F("%s = $d_%s($r);", lhs, g.names.decl[v.Decl.Enum])
	case plan.String:
		p.F("%s = $r.str();", lhs)
	case plan.Bytes:
		p.F("%s = $r.bytes();", lhs)
	case plan.Numbers:
		p.F("%s = $r.arrayNumbers(%s, %q);", lhs, numberArrays[v.Kind], kindNames[v.Kind])
	case plan.FixedBytes:
		p.F("%s = $r.fixedBytes(%d);", lhs, v.Len)
	case plan.FixedNumbers:
		p.F("%s = $r.fixedNumbers(%s, %d, %q);", lhs, numberArrays[v.Kind], v.Len, kindNames[v.Kind])
	case plan.PlainArray, plan.Array, plan.FixedPlain, plan.FixedArray:
		n, a, i := fmt.Sprintf("$n%d", lvl), fmt.Sprintf("$a%d", lvl), fmt.Sprintf("$i%d", lvl)
		p.Block("{", "}", func() {
			if v.Op.Counted() {
				p.F("const %s = $r.count(%d);", n, v.MinElem)
				if v.Charge > 0 {
					p.F("$r.charge($r.o - 4, %s, %d);", n, v.Charge)
				}
			} else {
				n = fmt.Sprint(v.Len)
			}
			fill := ""
			if holdsFloat(v.Elem) {
				// A JavaScript array of doubles quiets signalling NaNs
				// (V8 marks holes with one): one of tagged values keeps them.
				fill = ".fill(undefined)"
			}
			p.F("const %s%s = new Array(%s)%s;", a, g.ty(": "+g.tsType(v.Type)), n, fill)
			p.F("let %s = 0;", i)
			p.Block("try {", "} catch ($e) {", func() {
				p.Block(fmt.Sprintf("for (; %s < %s; %s++) {", i, n, i), "}", func() {
					g.decodeValue(p, v.Elem, a+"["+i+"]", lvl+1, false)
				})
			})
			p.F("  throw $.at($e, %s);", i)
			p.P("}")
			p.F("%s = %s;", lhs, a)
		})
	case plan.Optional:
		p.Block("if ($r.present()) {", "} else {", func() {
			if v.Charge > 0 {
				p.F("$r.charge($r.o - 1, 1, %d);", v.Charge)
			}
			if v.Elem.Op == plan.Optional {
				x := fmt.Sprintf("$x%d", lvl)
				p.F("let %s%s;", x, g.ty(": "+g.tsType(v.Elem.Type)))
				g.decodeValue(p, v.Elem, x, lvl+1, false)
				p.F("%s = $.tuple(%s);", lhs, x)
			} else {
				g.decodeValue(p, v.Elem, lhs, lvl+1, false)
			}
		})
		p.F("  %s = undefined;", lhs)
		p.P("}")
	case plan.Struct:
		name := g.names.decl[v.Decl.Struct]
		if existing {
			p.F("$d_%s($r, %s);", name, lhs)
		} else {
			p.F("%s = $d_%s($r, new %s());", lhs, name, name)
		}
	case plan.Union:
		p.F("%s = $d_%s($r);", lhs, g.names.decl[v.Decl.Union])
	default:
		panic("ts backend: decodeValue of " + v.Op.String())
	}
}

// encodeValue prints the encoding of x, a value coded as v (an expression
// without side effects).
func (g *generator) encodeValue(p *emit.Printer, v *plan.Value, x string, lvl int) {
	switch v.Op {
	case plan.Scalar:
		p.F("$w.%s(%s);", kindNames[v.Kind], x)
	case plan.Enum:
		p.F("$w.%s($c_%s(%s));", kindNames[v.Kind], g.names.decl[v.Decl.Enum], x)
	case plan.String:
		p.F("$w.str(%s);", x)
	case plan.Bytes:
		p.F("$w.bytes(%s);", x)
	case plan.Numbers:
		p.F("$w.arrayNumbers(%s, %s, %q);", x, numberArrays[v.Kind], kindNames[v.Kind])
	case plan.FixedBytes:
		p.F("$w.fixedBytes(%s, %d);", x, v.Len)
	case plan.FixedNumbers:
		p.F("$w.fixedNumbers(%s, %s, %d, %q);", x, numberArrays[v.Kind], v.Len, kindNames[v.Kind])
	case plan.PlainArray, plan.Array, plan.FixedPlain, plan.FixedArray:
		a, i := fmt.Sprintf("$a%d", lvl), fmt.Sprintf("$i%d", lvl)
		p.Block("{", "}", func() {
			p.F("const %s = %s;", a, x)
			if v.Op.Counted() {
				p.F("$w.array(%s);", a)
			} else {
				p.F("$.fixedLength(%s, %d);", a, v.Len)
			}
			p.Block(fmt.Sprintf("for (let %s = 0; %s < %s.length; %s++) {", i, i, a, i), "}", func() {
				g.encodeValue(p, v.Elem, a+"["+i+"]"+g.nn(), lvl+1)
			})
		})
	case plan.Optional:
		// An optional holding null is absent, as one holding undefined.
		o := fmt.Sprintf("$x%d", lvl)
		p.Block("{", "}", func() {
			p.F("const %s = %s;", o, x)
			p.Block("if ("+o+" == null) {", "} else {", func() { p.P("$w.tag(0);") })
			p.In()
			p.P("$w.tag(1);")
			inner := o
			if v.Elem.Op == plan.Optional {
				p.F("$.ctuple(%s);", o)
				inner = o + "[0]"
			}
			g.encodeValue(p, v.Elem, inner, lvl+1)
			p.Out()
			p.P("}")
		})
	case plan.Struct:
		p.F("$e_%s($w, %s);", g.names.decl[v.Decl.Struct], x)
	case plan.Union:
		p.F("$e_%s($w, %s);", g.names.decl[v.Decl.Union], x)
	default:
		panic("ts backend: encodeValue of " + v.Op.String())
	}
}

// sizeValue prints the addition of x's encoded size to $n, for a value
// coded as v whose size varies.
func (g *generator) sizeValue(p *emit.Printer, v *plan.Value, x string, lvl int) {
	switch v.Op {
	case plan.String:
		p.F("$n += $.strSize(%s);", x)
	case plan.Bytes:
		p.F("$n += 4 + %s.length;", x)
	case plan.Numbers:
		p.F("$n += 4 + %s.length * %d;", x, v.Kind.Size())
	case plan.PlainArray, plan.Array, plan.FixedPlain, plan.FixedArray:
		if v.Elem.Fixed >= 0 {
			p.F("$n += 4 + %s.length * %d;", x, v.Elem.Fixed)
			return
		}
		a, i := fmt.Sprintf("$a%d", lvl), fmt.Sprintf("$i%d", lvl)
		p.Block("{", "}", func() {
			p.F("const %s = %s;", a, x)
			if v.Op.Counted() {
				p.P("$n += 4;")
			}
			p.Block(fmt.Sprintf("for (let %s = 0; %s < %s.length; %s++) {", i, i, a, i), "}", func() {
				g.sizeValue(p, v.Elem, a+"["+i+"]"+g.nn(), lvl+1)
			})
		})
	case plan.Optional:
		o := fmt.Sprintf("$x%d", lvl)
		p.Block("{", "}", func() {
			p.F("const %s = %s;", o, x)
			p.P("$n += 1;")
			inner := o
			if v.Elem.Op == plan.Optional {
				inner = o + "[0]"
			}
			if v.Elem.Fixed >= 0 {
				p.F("if (%s != null) $n += %d;", o, v.Elem.Fixed)
			} else {
				p.Block("if ("+o+" != null) {", "}", func() { g.sizeValue(p, v.Elem, inner, lvl+1) })
			}
		})
	case plan.Struct:
		p.F("$n += $s_%s(%s);", g.names.decl[v.Decl.Struct], x)
	case plan.Union:
		p.F("$n += $s_%s(%s);", g.names.decl[v.Decl.Union], x)
	default:
		panic("ts backend: sizeValue of a fixed " + v.Op.String())
	}
}

// emitUnionCodecs prints a union's decode, encode and size functions: a
// tag, then the variant's fields (by the variant's class or struct).
func (g *generator) emitUnionCodecs(p *emit.Printer, pd *plan.Decl) {
	u := pd.Union
	name := g.names.decl[u]
	g.internal(p, "$d_"+name, []string{"$r: $.Reader"}, name, func() {
		p.P("$r.enter();")
		p.P("const $o = $r.o;")
		p.P("const $t = $r.u8();")
		p.F("let $v%s;", g.ty(": "+name))
		p.Block("switch ($t) {", "}", func() {
			for _, pv := range pd.Variants {
				p.F("case %d:", pv.Tag)
				p.In()
				switch {
				case len(pv.Fields) == 0 && pv.Variant.Kind != schema.VariantInline:
					p.F("$v = %s;", g.variantValue(pv, ""))
				default:
					x := "new " + g.names.variant[pv.Variant] + "()"
					call := "$d_" + g.names.variant[pv.Variant] + "($r, " + x + ")"
					if pv.Variant.Kind == schema.VariantStruct {
						sn := g.names.decl[pv.Fields[0].Value.Decl.Struct]
						call = "$d_" + sn + "($r, new " + sn + "())"
					}
					p.Block("try {", "} catch ($e) {", func() {
						p.F("$v = %s;", g.variantValue(pv, call))
					})
					p.F("  throw $.at($e, %q);", pv.Name)
					p.P("}")
				}
				p.P("break;")
				p.Out()
			}
			p.P("default:")
			p.F("  return $r.badTag($o, $t, %q);", u.Name)
		})
		p.P("$r.depth--;")
		p.P("return $v;")
	})
	g.internal(p, "$e_"+name, []string{"$w: $.Writer", "$v: " + name}, "void", func() {
		p.Block("switch ($v.kind) {", "}", func() {
			for _, pv := range pd.Variants {
				p.F("case %q:", pv.Name)
				p.In()
				p.F("$w.tag(%d);", pv.Tag)
				if fn := g.variantFn(pv, "$e_"); fn != "" {
					p.F("%s($w, $v.value);", fn)
				}
				p.P("return;")
				p.Out()
			}
		})
		p.P("$.bad();")
	})
	g.internal(p, "$k_"+name, []string{"$v: " + name}, "void", func() {
		p.F("$.kunion($v, %q);", u.Name)
		p.Block("switch ($v.kind) {", "}", func() {
			for _, pv := range pd.Variants {
				p.F("case %q:", pv.Name)
				p.In()
				if fn := g.variantFn(pv, "$k_"); fn != "" {
					p.Block("try {", "} catch ($e) {", func() { p.F("%s($v.value);", fn) })
					p.F("  throw $.at($e, %q);", pv.Name)
					p.P("}")
				}
				p.P("return;")
				p.Out()
			}
		})
		p.F("throw $.badKind(($v%s).kind, %q);", g.as("{ kind: unknown }"), u.Name)
	})
	if pd.Fixed >= 0 {
		return
	}
	g.internal(p, "$s_"+name, []string{"$v: " + name}, "number", func() {
		p.Block("switch ($v.kind) {", "}", func() {
			for _, pv := range pd.Variants {
				p.F("case %q:", pv.Name)
				switch {
				case pv.Fixed >= 0:
					p.F("  return %d;", pv.Fixed)
				case pv.Variant.Kind == schema.VariantStruct:
					p.F("  return 1 + $s_%s($v.value);", g.names.decl[pv.Fields[0].Value.Decl.Struct])
				default:
					p.F("  return 1 + $s_%s($v.value);", g.names.variant[pv.Variant])
				}
			}
		})
		p.P("return 1; // a kind that names no variant: the encoder refuses it, with its path")
	})
}

// variantFn is the function (prefix $e_ or $k_) of a variant's value, or
// "" for a variant that has none.
func (g *generator) variantFn(pv *plan.Variant, prefix string) string {
	switch {
	case pv.Variant.Kind == schema.VariantStruct:
		return prefix + g.names.decl[pv.Fields[0].Value.Decl.Struct]
	case len(pv.Fields) > 0 || pv.Variant.Kind == schema.VariantInline:
		return prefix + g.names.variant[pv.Variant]
	}
	return ""
}

// checkValue prints the check walk of x, a value coded as v: the first
// problem in encoding order throws the EncodeError of its rule, and every
// array element and struct field on the way adds itself to its path.
func (g *generator) checkValue(p *emit.Printer, v *plan.Value, x string, lvl int) {
	switch v.Op {
	case plan.Scalar:
		switch {
		case v.Kind == schema.Bool:
			p.F("$.kbool(%s);", x)
		case v.Kind == schema.F32 || v.Kind == schema.F64:
			p.F("$.kfloat(%s, %q);", x, kindNames[v.Kind])
		default:
			p.F("$.kint(%s, %q);", x, kindNames[v.Kind])
		}
	case plan.Enum:
		p.F("$k_%s(%s);", g.names.decl[v.Decl.Enum], x)
	case plan.String:
		p.F("$.kstr(%s);", x)
	case plan.Bytes:
		p.F("$.kbytes(%s, -1);", x)
	case plan.FixedBytes:
		p.F("$.kbytes(%s, %d);", x, v.Len)
	case plan.Numbers:
		p.F("$.knumbers(%s, %s, -1);", x, numberArrays[v.Kind])
	case plan.FixedNumbers:
		p.F("$.knumbers(%s, %s, %d);", x, numberArrays[v.Kind], v.Len)
	case plan.PlainArray, plan.Array, plan.FixedPlain, plan.FixedArray:
		a, i := fmt.Sprintf("$a%d", lvl), fmt.Sprintf("$i%d", lvl)
		n := -1
		if !v.Op.Counted() {
			n = int(v.Len)
		}
		p.Block("{", "}", func() {
			p.F("const %s = %s;", a, x)
			p.F("$.karray(%s, %d);", a, n)
			p.F("let %s = 0;", i)
			p.Block("try {", "} catch ($e) {", func() {
				p.Block(fmt.Sprintf("for (; %s < %s.length; %s++) {", i, a, i), "}", func() {
					g.checkValue(p, v.Elem, a+"["+i+"]"+g.nn(), lvl+1)
				})
			})
			p.F("  throw $.at($e, %s);", i)
			p.P("}")
		})
	case plan.Optional:
		o := fmt.Sprintf("$x%d", lvl)
		p.Block("{", "}", func() {
			p.F("const %s = %s;", o, x)
			p.Block("if ("+o+" != null) {", "}", func() {
				inner := o
				if v.Elem.Op == plan.Optional {
					p.F("$.ktuple(%s);", o)
					inner = o + "[0]"
				}
				g.checkValue(p, v.Elem, inner, lvl+1)
			})
		})
	case plan.Struct:
		p.F("$k_%s(%s);", g.names.decl[v.Decl.Struct], x)
	case plan.Union:
		p.F("$k_%s(%s);", g.names.decl[v.Decl.Union], x)
	default:
		panic("ts backend: checkValue of " + v.Op.String())
	}
}

// nn is TypeScript's non-null assertion, for indexing under
// noUncheckedIndexedAccess (the index is in range).
func (g *generator) nn() string {
	if g.mode == modeTS {
		return "!"
	}
	return ""
}

// holdsFloat reports a value that is an f32 or f64 number, or an optional
// of one, as an element of a JavaScript array.
func holdsFloat(v *plan.Value) bool {
	switch v.Op {
	case plan.Scalar:
		return v.Kind == schema.F32 || v.Kind == schema.F64
	case plan.Optional:
		return v.Elem.Op != plan.Optional && holdsFloat(v.Elem)
	}
	return false
}
