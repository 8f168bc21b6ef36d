package datagen

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The values this package builds, in the JSON mapping of docs/json-mapping.md:
//
//	Object          a struct, an inline union variant or a union ({"Variant": ...})
//	[]interface{}   an array ([]T, [N]T) or a present ??T ([inner])
//	[]uint32 []int16 []float32 []uint8-as-Bytes   bulk numeric arrays
//	string bool nil int int64 uint64 F32 F64 Bytes
//
// Write renders them deterministically: objects one field per line, short
// objects and arrays on one line, arrays of numbers wrapped at 100 columns.

// Object is a JSON object whose fields keep their order.
type Object []Field

// Field is one member of an Object.
type Field struct {
	Name  string
	Value interface{}
}

// Obj builds an Object from alternating names and values.
func Obj(kv ...interface{}) Object {
	if len(kv)%2 != 0 {
		panic("datagen: Obj needs name, value pairs")
	}
	o := make(Object, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		o = append(o, Field{kv[i].(string), kv[i+1]})
	}
	return o
}

// Get returns the value of the named field, or nil.
func (o Object) Get(name string) interface{} {
	for _, f := range o {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Variant is a union value: {"name": payload}.
func Variant(name string, payload interface{}) Object { return Object{{name, payload}} }

// F32 is an f32 value; F64 an f64 value. They render NaN and infinities as
// the mapping's strings and keep -0.
type (
	F32 float32
	F64 float64
)

// Bytes is a []u8 value, rendered as padded standard base64.
type Bytes []byte

// Case is a corpus case file: {"type": T, "value": V}.
func Case(typeName string, value interface{}) Object {
	return Obj("type", typeName, "value", value)
}

// Marshal renders v, followed by a newline.
func Marshal(v interface{}) []byte {
	var b bytes.Buffer
	w := writer{buf: &b}
	w.value(v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

const lineWidth = 100

type writer struct{ buf *bytes.Buffer }

func (w writer) value(v interface{}, indent int) {
	if s, ok := scalar(v); ok {
		w.buf.WriteString(s)
		return
	}
	if s, ok := compact(v, lineWidth-indent); ok {
		w.buf.WriteString(s)
		return
	}
	pad := strings.Repeat("  ", indent+1)
	switch x := v.(type) {
	case Object:
		w.buf.WriteString("{\n")
		for i, f := range x {
			w.buf.WriteString(pad)
			w.buf.WriteString(quote(f.Name))
			w.buf.WriteString(": ")
			w.value(f.Value, indent+1)
			if i < len(x)-1 {
				w.buf.WriteByte(',')
			}
			w.buf.WriteByte('\n')
		}
		w.buf.WriteString(pad[2:])
		w.buf.WriteByte('}')
	default:
		n, at := sequence(v)
		allScalar := true
		if _, ok := v.([]interface{}); ok {
			for i := 0; i < n && allScalar; i++ {
				_, allScalar = scalar(at(i))
			}
		}
		if allScalar {
			w.scalars(v, n, at, len(pad))
			w.buf.WriteString(pad[2:])
			w.buf.WriteByte(']')
			return
		}
		w.buf.WriteString("[\n")
		for i := 0; i < n; i++ {
			w.buf.WriteString(pad)
			w.value(at(i), indent+1)
			if i < n-1 {
				w.buf.WriteByte(',')
			}
			w.buf.WriteByte('\n')
		}
		w.buf.WriteString(pad[2:])
		w.buf.WriteByte(']')
	}
}

// scalars writes an array of scalars wrapped at lineWidth, the opening
// bracket included. Numeric slices take a fast path without boxing.
func (w writer) scalars(v interface{}, n int, at func(int) interface{}, padLen int) {
	pad := strings.Repeat(" ", padLen)
	w.buf.WriteString("[\n")
	col := 0
	var tmp []byte
	for i := 0; i < n; i++ {
		tmp = tmp[:0]
		switch x := v.(type) {
		case []uint32:
			tmp = strconv.AppendUint(tmp, uint64(x[i]), 10)
		case []int16:
			tmp = strconv.AppendInt(tmp, int64(x[i]), 10)
		case []float32:
			tmp = append(tmp, formatF32(x[i])...)
		default:
			s, _ := scalar(at(i))
			tmp = append(tmp, s...)
		}
		if col > 0 && col+len(tmp)+2 > lineWidth-padLen {
			w.buf.WriteString(",\n")
			col = 0
		} else if col > 0 {
			w.buf.WriteString(", ")
			col += 2
		}
		if col == 0 {
			w.buf.WriteString(pad)
		}
		w.buf.Write(tmp)
		col += len(tmp)
	}
	w.buf.WriteByte('\n')
}

// compact renders v on one line if it fits in width.
func compact(v interface{}, width int) (string, bool) {
	if s, ok := scalar(v); ok {
		return s, len(s) <= width
	}
	var parts []string
	n := 0
	add := func(s string) bool {
		parts = append(parts, s)
		n += len(s) + 2
		return n <= width
	}
	switch x := v.(type) {
	case Object:
		if len(x) > 12 {
			return "", false
		}
		for _, f := range x {
			s, ok := compact(f.Value, width-n)
			if !ok || !add(quote(f.Name)+": "+s) {
				return "", false
			}
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	default:
		count, at := sequence(v)
		if count > 24 {
			return "", false
		}
		for i := 0; i < count; i++ {
			s, ok := compact(at(i), width-n)
			if !ok || !add(s) {
				return "", false
			}
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
}

// sequence returns an array's length and element accessor.
func sequence(v interface{}) (int, func(int) interface{}) {
	switch x := v.(type) {
	case []interface{}:
		return len(x), func(i int) interface{} { return x[i] }
	case []uint32:
		return len(x), func(i int) interface{} { return x[i] }
	case []int16:
		return len(x), func(i int) interface{} { return x[i] }
	case []float32:
		return len(x), func(i int) interface{} { return F32(x[i]) }
	case []string:
		return len(x), func(i int) interface{} { return x[i] }
	case []bool:
		return len(x), func(i int) interface{} { return x[i] }
	}
	panic(fmt.Sprintf("datagen: cannot render %T", v))
}

// scalar renders everything that is not an object or array.
func scalar(v interface{}) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case string:
		return quote(x), true
	case int:
		return strconv.Itoa(x), true
	case int8:
		return strconv.FormatInt(int64(x), 10), true
	case int16:
		return strconv.FormatInt(int64(x), 10), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint8:
		return strconv.FormatUint(uint64(x), 10), true
	case uint16:
		return strconv.FormatUint(uint64(x), 10), true
	case uint32:
		return strconv.FormatUint(uint64(x), 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case F32:
		return formatF32(float32(x)), true
	case F64:
		return formatF64(float64(x)), true
	case Bytes:
		return quote(base64.StdEncoding.EncodeToString(x)), true
	}
	return "", false
}

func formatF32(f float32) string {
	bits := math.Float32bits(f)
	switch {
	case f != f && bits == 0x7fc00000:
		return `"NaN"`
	case f != f:
		return fmt.Sprintf(`"NaN:0x%08x"`, bits)
	case math.IsInf(float64(f), 1):
		return `"Infinity"`
	case math.IsInf(float64(f), -1):
		return `"-Infinity"`
	}
	s := formatNumber(float64(f), 32)
	// A reader may parse the text as an f64 and round that to f32; make sure
	// that gives the same value, or write the exact decimal instead.
	if g, err := strconv.ParseFloat(s, 64); err != nil || float32(g) != f {
		s = formatNumber(float64(f), 64)
	}
	return s
}

func formatF64(f float64) string {
	bits := math.Float64bits(f)
	switch {
	case f != f && bits == 0x7ff8000000000000:
		return `"NaN"`
	case f != f:
		return fmt.Sprintf(`"NaN:0x%016x"`, bits)
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	return formatNumber(f, 64)
}

// formatNumber is the shortest representation, plain for ordinary
// magnitudes and with an exponent otherwise (as encoding/json does).
func formatNumber(f float64, bits int) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0"
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, bits)
	if format == 'e' {
		// 1e-07 → 1e-7
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
	}
	return s
}

func quote(s string) string {
	if !utf8.ValidString(s) {
		panic(fmt.Sprintf("datagen: invalid UTF-8 in %q", s))
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
