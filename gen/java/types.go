package java

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// The Java type of each schema type. u8 and u16 are held in int, u32 and
// u64 in long (a u64 as its two's-complement bits: Long.toUnsignedString),
// i8..i64 in byte, short, int and long. Arrays of numbers are primitive
// arrays of the wire's width (a []u16 is a short[], a []u32 an int[] of the
// bits), []bool a boolean[], other arrays java.util.List. An optional is
// its boxed type, null when absent; an optional of an optional is a
// java.util.Optional (empty: the inner one is absent).

// scope is the set of simple names a type name must not be written as,
// because they mean something else where the code is printed (the nested
// classes of a union); nil in most places.
type scope map[string]bool

// jtype is the one recursion over schema types: the Java spelling of t.
func (g *generator) jtype(t *schema.Type, sc scope) string {
	switch t.Kind {
	case schema.Bool:
		return "boolean"
	case schema.U8, schema.U16, schema.I32:
		return "int"
	case schema.U32, schema.U64, schema.I64:
		return "long"
	case schema.I8:
		return "byte"
	case schema.I16:
		return "short"
	case schema.F32:
		return "float"
	case schema.F64:
		return "double"
	case schema.String:
		return "java.lang.String"
	case schema.Array, schema.FixedArray:
		if a := primArray(t.Elem.Kind); a != "" {
			return a
		}
		return "java.util.List<" + g.boxed(t.Elem, sc) + ">"
	case schema.Optional:
		if t.Elem.Kind == schema.Optional {
			return "java.util.Optional<" + g.boxed(t.Elem, sc) + ">"
		}
		return g.boxed(t.Elem, sc)
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.ref(t.Decl(), sc)
	}
	panic("java backend: a type of kind " + t.Kind.String())
}

// ref is a declaration's name, qualified by the package where sc hides it.
func (g *generator) ref(d schema.Decl, sc scope) string {
	n := g.names.decl[d]
	if sc[n] {
		return g.names.pkg + "." + n
	}
	return n
}

// primArray is the primitive array an array of k is held in, "" for a
// List.
func primArray(k schema.Kind) string {
	switch k {
	case schema.Bool:
		return "boolean[]"
	case schema.U8, schema.I8:
		return "byte[]"
	case schema.U16, schema.I16:
		return "short[]"
	case schema.U32, schema.I32:
		return "int[]"
	case schema.U64, schema.I64:
		return "long[]"
	case schema.F32:
		return "float[]"
	case schema.F64:
		return "double[]"
	}
	return ""
}

var boxes = map[string]string{
	"boolean": "java.lang.Boolean", "byte": "java.lang.Byte", "short": "java.lang.Short", "int": "java.lang.Integer",
	"long": "java.lang.Long", "float": "java.lang.Float", "double": "java.lang.Double",
}

func (g *generator) boxed(t *schema.Type, sc scope) string {
	j := g.jtype(t, sc)
	if b, ok := boxes[j]; ok {
		return b
	}
	return j
}

// zero is the default value of a value coded as v, from the plan: numbers
// 0, strings and arrays empty, fixed arrays of defaults, optionals null, an
// enum's first value, a union's first variant, a new struct.
//
// An enum's value is an expression, where a field of the same name as the
// enum hides the type (a field level of an enum level): there it is
// SdpCodec.first$<Enum>() instead. hidden holds the class's field names.
func (g *generator) zero(v *plan.Value, sc scope, hidden map[string]bool) string {
	switch v.Op {
	case plan.Scalar:
		switch v.Kind {
		case schema.Bool:
			return "false"
		case schema.U32, schema.U64, schema.I64:
			return "0L"
		case schema.F32:
			return "0.0f"
		case schema.F64:
			return "0.0"
		}
		return "0"
	case plan.String:
		return `""`
	case plan.Bytes, plan.Numbers:
		return "new " + strings.TrimSuffix(primArray(v.Kind), "[]") + "[0]"
	case plan.FixedBytes, plan.FixedNumbers:
		return fmt.Sprintf("new %s[%d]", strings.TrimSuffix(primArray(v.Kind), "[]"), v.Len)
	case plan.Array, plan.PlainArray:
		if v.Elem.Op == plan.Scalar { // bool
			return "new boolean[0]"
		}
		return "new java.util.ArrayList<>()"
	case plan.FixedArray, plan.FixedPlain:
		if v.Elem.Op == plan.Scalar { // bool
			return fmt.Sprintf("new boolean[%d]", v.Len)
		}
		return fmt.Sprintf("Sdp.fill(%d, () -> %s)", v.Len, g.zero(v.Elem, sc, hidden))
	case plan.Optional:
		return "null"
	case plan.Struct:
		return "new " + g.ref(v.Decl.Decl, sc) + "()"
	case plan.Enum:
		name := g.names.decl[v.Decl.Decl]
		if hidden[name] || sc[name] {
			return "SdpCodec.first$" + name + "()"
		}
		return name + "." + g.names.value[v.Decl.Enum.Values[0]]
	case plan.Union:
		return g.unionZero(v.Decl.Union, sc)
	}
	panic("java backend: zero of " + v.Op.String())
}

func (g *generator) unionZero(u *schema.Union, sc scope) string {
	v := u.Variants[0]
	return "new " + g.ref(u, sc) + "." + g.names.variant[v] + "()"
}
