package codec

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"sdp/schema"
)

// encoder converts JSON to wire bytes while reading it, guided by the schema.
type encoder struct {
	lexer
	out []byte
}

// encodeTop encodes one JSON value of type t, appending to out.
func encodeTop(t *schema.Type, src []byte, out []byte) ([]byte, error) {
	if i := invalidUTF8At(src); i >= 0 {
		return nil, &EncodeError{Rule: RuleJSON, Offset: i, Msg: "JSON text is not valid UTF-8 at byte " + strconv.Itoa(i)}
	}
	e := &encoder{lexer: lexer{src: src}, out: out}
	if err := e.value(t); err != nil {
		return nil, err
	}
	if e.peek() != 0 {
		return nil, e.fail("unexpected data after the JSON value")
	}
	return e.out, nil
}

func (e *encoder) value(t *schema.Type) error {
	switch k := t.Kind; {
	case k == schema.Bool:
		switch {
		case e.literal("true"):
			e.out = append(e.out, 1)
		case e.literal("false"):
			e.out = append(e.out, 0)
		default:
			return e.expected("true or false")
		}
	case k.IsInteger():
		return e.integer(k)
	case k == schema.F32:
		bits, err := e.float(32)
		if err != nil {
			return err
		}
		e.out = binary.LittleEndian.AppendUint32(e.out, uint32(bits))
	case k == schema.F64:
		bits, err := e.float(64)
		if err != nil {
			return err
		}
		e.out = binary.LittleEndian.AppendUint64(e.out, bits)
	case k == schema.String:
		if e.peek() != '"' {
			return e.expected("a string")
		}
		s, err := e.str()
		if err != nil {
			return err
		}
		return e.appendBytes([]byte(s), "string")
	case k == schema.Array && t.Elem.Kind == schema.U8:
		if e.peek() != '"' {
			return e.expected("a base64 string (a []u8)")
		}
		s, err := e.str()
		if err != nil {
			return err
		}
		if strings.ContainsAny(s, "\r\n") {
			return e.fail("invalid base64: line breaks are not allowed")
		}
		b, err := base64.StdEncoding.Strict().DecodeString(s)
		if err != nil {
			return e.fail("invalid base64 (standard alphabet, with padding): %v", err)
		}
		return e.appendBytes(b, "byte array")
	case k == schema.Array:
		at := len(e.out)
		e.out = append(e.out, 0, 0, 0, 0)
		n, err := e.elements(t.Elem, -1)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint32(e.out[at:], uint32(n))
	case k == schema.FixedArray:
		_, err := e.elements(t.Elem, int(t.Len))
		return err
	case k == schema.Optional:
		if e.literal("null") {
			e.out = append(e.out, 0)
			return nil
		}
		e.out = append(e.out, 1)
		if t.Elem.Kind != schema.Optional {
			return e.value(t.Elem)
		}
		// ??T: a present outer value is written [inner].
		if e.peek() != '[' {
			return e.expected("null or a one-element array (the value of a present " + t.String() + ")")
		}
		_, err := e.elements(t.Elem, 1)
		return err
	case k == schema.StructRef:
		return e.fields(t.Struct.Fields, "struct "+t.Struct.Name)
	case k == schema.EnumRef:
		return e.enum(t.Enum)
	case k == schema.UnionRef:
		return e.union(t.Union)
	default:
		return e.fail("codec: unexpected type kind %v", k)
	}
	return nil
}

func (e *encoder) appendBytes(b []byte, what string) error {
	if uint64(len(b)) > math.MaxUint32 {
		return e.failRule(RuleCount, "%s of %d bytes is longer than a u32 length allows", what, len(b))
	}
	e.out = binary.LittleEndian.AppendUint32(e.out, uint32(len(b)))
	e.out = append(e.out, b...)
	return nil
}

// elements encodes a JSON array of elem values; want >= 0 demands exactly
// that many. It returns the number of elements.
func (e *encoder) elements(elem *schema.Type, want int) (int, error) {
	if e.peek() != '[' {
		if want >= 0 {
			return 0, e.expected("an array of " + strconv.Itoa(want) + " elements")
		}
		return 0, e.expected("an array")
	}
	if err := e.enter(); err != nil {
		return 0, err
	}
	e.pos++
	n := 0
	if e.peek() == ']' {
		e.pos++
	} else {
		for {
			if want >= 0 && n == want {
				return 0, e.failRule(RuleLength, "too many elements: want exactly %d", want)
			}
			p := e.pushIndex(n)
			if err := e.value(elem); err != nil {
				return 0, err
			}
			e.pop(p)
			n++
			if uint64(n) > math.MaxUint32 {
				return 0, e.failRule(RuleCount, "more than %d elements", uint32(math.MaxUint32))
			}
			if e.peek() == ']' {
				e.pos++
				break
			}
			if e.peek() != ',' {
				return 0, e.syntax("',' or ']'")
			}
			e.pos++
		}
	}
	e.leave()
	if want >= 0 && n != want {
		return 0, e.failRule(RuleLength, "%s, want exactly %d", plural(n, "element", "elements"), want)
	}
	return n, nil
}

// fields encodes a JSON object holding the fields fs (of a struct or an
// inline union variant). Keys may come in any order; every field is required
// except optionals, which are absent when missing.
func (e *encoder) fields(fs []*schema.Field, owner string) error {
	if e.peek() != '{' {
		return e.expected("an object (" + owner + ")")
	}
	if err := e.enter(); err != nil {
		return err
	}
	objPos := e.pos
	e.pos++
	seen := make([]bool, len(fs))
	var later map[int][]byte // fields that came before an earlier field
	next := 0                // fields before next are written to e.out
	if e.peek() == '}' {
		e.pos++
	} else {
		for {
			name, err := e.str()
			if err != nil {
				return err
			}
			idx := -1
			for i, f := range fs {
				if f.Name == name {
					idx = i
					break
				}
			}
			if idx < 0 {
				return e.fail("unknown field %q in %s%s", name, owner, fieldList(fs))
			}
			if seen[idx] {
				return e.fail("duplicate field %q", name)
			}
			seen[idx] = true
			if err := e.punct(':'); err != nil {
				return err
			}
			p := e.pushField(name)
			if idx == next {
				if err := e.value(fs[idx].Type); err != nil {
					return err
				}
				next++
				for next < len(fs) && later[next] != nil {
					e.out = append(e.out, later[next]...)
					delete(later, next)
					next++
				}
			} else {
				saved := e.out
				e.out = []byte{}
				if err := e.value(fs[idx].Type); err != nil {
					return err
				}
				if later == nil {
					later = map[int][]byte{}
				}
				later[idx] = e.out
				e.out = saved
			}
			e.pop(p)
			if e.peek() == '}' {
				e.pos++
				break
			}
			if e.peek() != ',' {
				return e.syntax("',' or '}'")
			}
			e.pos++
		}
	}
	e.leave()
	for ; next < len(fs); next++ {
		switch {
		case later[next] != nil:
			e.out = append(e.out, later[next]...)
		case fs[next].Type.Kind == schema.Optional:
			e.out = append(e.out, 0)
		default:
			e.pos = objPos
			return e.fail("missing field %q (%s) of %s", fs[next].Name, fs[next].Type, owner)
		}
	}
	return nil
}

func fieldList(fs []*schema.Field) string {
	if len(fs) == 0 {
		return " (it has no fields)"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return " (fields: " + strings.Join(names, ", ") + ")"
}

func (e *encoder) enum(en *schema.Enum) error {
	if e.peek() != '"' {
		return e.expected("the name of a value of enum " + en.Name)
	}
	name, err := e.str()
	if err != nil {
		return err
	}
	var v *schema.EnumValue
	for _, ev := range en.Values {
		if ev.Name == name {
			v = ev
		}
	}
	if v == nil {
		names := make([]string, len(en.Values))
		for i, ev := range en.Values {
			names[i] = ev.Name
		}
		return e.failRule(RuleEnum, "%q is not a value of enum %s (values: %s)", name, en.Name, strings.Join(names, ", "))
	}
	switch en.Base {
	case schema.U8:
		e.out = append(e.out, byte(v.Value))
	case schema.U16:
		e.out = binary.LittleEndian.AppendUint16(e.out, uint16(v.Value))
	default:
		e.out = binary.LittleEndian.AppendUint32(e.out, v.Value)
	}
	return nil
}

func (e *encoder) union(u *schema.Union) error {
	variant := func(name string) (*schema.Variant, error) {
		for _, v := range u.Variants {
			if v.Name == name {
				return v, nil
			}
		}
		names := make([]string, len(u.Variants))
		for i, v := range u.Variants {
			names[i] = v.Name
		}
		return nil, e.failRule(RuleUnionTag, "%q is not a variant of union %s (variants: %s)", name, u.Name, strings.Join(names, ", "))
	}
	switch e.peek() {
	case '"':
		name, err := e.str()
		if err != nil {
			return err
		}
		v, err := variant(name)
		if err != nil {
			return err
		}
		if v.Kind != schema.VariantUnit {
			return e.failRule(RuleType, "variant %s of union %s carries data: write {%q: ...}", name, u.Name, name)
		}
		e.out = append(e.out, v.Tag)
		return nil
	case '{':
	default:
		return e.expected(`{"Variant": value} (union ` + u.Name + ")")
	}
	if err := e.enter(); err != nil {
		return err
	}
	e.pos++
	if e.peek() == '}' {
		return e.failRule(RuleUnionTag, "a value of union %s needs exactly one key, the variant's name", u.Name)
	}
	name, err := e.str()
	if err != nil {
		return err
	}
	v, err := variant(name)
	if err != nil {
		return err
	}
	if err := e.punct(':'); err != nil {
		return err
	}
	e.out = append(e.out, v.Tag)
	p := e.pushField(name)
	switch v.Kind {
	case schema.VariantUnit:
		if !e.literal("null") {
			return e.expected("null (the unit variant " + name + " carries nothing)")
		}
	case schema.VariantInline:
		if err := e.fields(v.Fields, "variant "+u.Name+"."+name); err != nil {
			return err
		}
	case schema.VariantStruct:
		if err := e.fields(v.Struct.Fields, "struct "+v.Struct.Name); err != nil {
			return err
		}
	}
	e.pop(p)
	if e.peek() != '}' {
		return e.fail("a value of union %s has exactly one key, the variant's name", u.Name)
	}
	e.pos++
	e.leave()
	return nil
}

// integer encodes a JSON integer (or, for 64-bit kinds, a decimal string),
// range-checked and never rounded through a float.
func (e *encoder) integer(k schema.Kind) error {
	var text string
	var err error
	if e.peek() == '"' && (k == schema.U64 || k == schema.I64) {
		if text, err = e.str(); err != nil {
			return err
		}
		if !isDecimal(text) {
			return e.failRule(RuleType, "%q is not a decimal integer", text)
		}
	} else {
		if c := e.peek(); c != '-' && (c < '0' || c > '9') {
			if k == schema.U64 || k == schema.I64 {
				return e.expected("an integer (a number or a decimal string)")
			}
			return e.expected("an integer")
		}
		if text, err = e.number(); err != nil {
			return err
		}
		if strings.ContainsAny(text, ".eE") {
			return e.failRule(RuleType, "%s is not an integer (%s)", text, k)
		}
	}
	bits := k.Size() * 8
	if k.IsSigned() {
		v, err := strconv.ParseInt(text, 10, bits)
		if err != nil {
			return e.failRule(RuleRange, "%s is out of range for %s", text, k)
		}
		e.out = appendLE(e.out, uint64(v), k.Size())
	} else {
		v, err := strconv.ParseUint(text, 10, bits)
		if err != nil {
			return e.failRule(RuleRange, "%s is out of range for %s", text, k)
		}
		e.out = appendLE(e.out, v, k.Size())
	}
	return nil
}

// isDecimal reports -?(0|[1-9][0-9]*).
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func appendLE(b []byte, v uint64, size int) []byte {
	for i := 0; i < size; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// float reads an f32 (size 32) or f64 and returns its IEEE-754 bits: a JSON
// number rounded once to the width, or "NaN", "Infinity", "-Infinity",
// "NaN:0x<bits>".
func (e *encoder) float(size int) (uint64, error) {
	name := "f" + strconv.Itoa(size)
	if e.peek() == '"' {
		s, err := e.str()
		if err != nil {
			return 0, err
		}
		switch s {
		case "NaN":
			if size == 32 {
				return canonicalNaN32, nil
			}
			return canonicalNaN64, nil
		case "Infinity", "-Infinity":
			sign := 1
			if s[0] == '-' {
				sign = -1
			}
			if size == 32 {
				return uint64(math.Float32bits(float32(math.Inf(sign)))), nil
			}
			return math.Float64bits(math.Inf(sign)), nil
		}
		if h := strings.TrimPrefix(s, "NaN:0x"); h != s && len(h) > 0 && len(h) <= size/4 {
			bits, err := strconv.ParseUint(h, 16, size)
			if err == nil && isNaNBits(bits, size) {
				return bits, nil
			}
		}
		return 0, e.failRule(RuleType, "%q is not an %s: want a number, \"NaN\", \"Infinity\", \"-Infinity\" or \"NaN:0x<bits of a NaN>\"", s, name)
	}
	if c := e.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, e.expected("a number")
	}
	text, err := e.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(text, size)
	if err != nil {
		return 0, e.failRule(RuleRange, "%s is out of range for %s", text, name)
	}
	if size == 32 {
		return uint64(math.Float32bits(float32(v))), nil
	}
	return math.Float64bits(v), nil
}

func isNaNBits(bits uint64, size int) bool {
	if size == 32 {
		return bits&0x7f800000 == 0x7f800000 && bits&0x007fffff != 0
	}
	return bits&0x7ff0000000000000 == 0x7ff0000000000000 && bits&0x000fffffffffffff != 0
}
