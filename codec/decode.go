package codec

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"sdp/schema"
)

// decoder walks wire bytes along a schema type. It writes the value's JSON to
// out and/or describes the bytes to ann (either may be nil).
type decoder struct {
	data     []byte
	pos      int
	maxDepth int
	memLimit uint64 // rule 11: 0 until top() sets the default
	memUsed  uint64 // the running total of rule 11
	path     []byte // the current field path, for errors and annotations
	out      *jsonWriter
	ann      *annotator
}

func (d *decoder) fail(off int, rule, format string, args ...interface{}) error {
	return &DecodeError{Offset: off, Rule: rule, Path: string(d.path), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) pushField(name string) int {
	n := len(d.path)
	if n > 0 {
		d.path = append(d.path, '.')
	}
	d.path = append(d.path, name...)
	return n
}

func (d *decoder) pushIndex(i int) int {
	n := len(d.path)
	d.path = append(d.path, '[')
	d.path = strconv.AppendInt(d.path, int64(i), 10)
	d.path = append(d.path, ']')
	return n
}

func (d *decoder) pop(n int) { d.path = d.path[:n] }

func (d *decoder) remaining() int { return len(d.data) - d.pos }

// take consumes n bytes of a value described by what.
func (d *decoder) take(n int, what string) ([]byte, error) {
	if d.remaining() < n {
		return nil, d.fail(d.pos, RuleTruncated, "input ends inside %s: need %s, %s", what, plural(n, "byte", "bytes"), plural(d.remaining(), "remains", "remain"))
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// note annotates the bytes from off to the current position.
func (d *decoder) note(off int, text string) {
	if d.ann != nil {
		d.ann.line(off, d.data[off:d.pos], string(d.path), text)
	}
}

// top decodes a whole top-level value: nothing may follow it.
func (d *decoder) top(t *schema.Type) error {
	if d.memLimit == 0 {
		d.memLimit = schema.DefaultMemoryLimit(uint64(d.remaining()))
	}
	if err := d.value(t, 0); err != nil {
		return err
	}
	if d.pos != len(d.data) {
		return d.fail(d.pos, RuleTrailing, "%s after the %s value", plural(d.remaining(), "byte remains", "bytes remain"), t)
	}
	return nil
}

// header reads a message header and returns the struct it announces. want,
// if not nil, is the only struct accepted.
func (d *decoder) header(s *schema.Schema, want *schema.Struct) (*schema.Struct, error) {
	const where = "message"
	n := d.pushField(where)
	defer d.pop(n)
	if len(d.data) < HeaderSize {
		return nil, d.fail(0, RuleTruncated, "input ends inside the message header: need %d bytes, %s", HeaderSize, plural(len(d.data), "remains", "remain"))
	}
	if string(d.data[:4]) != Magic {
		return nil, d.fail(0, RuleMessage, "bad magic %x, want 53445032 (%q)", d.data[:4], Magic)
	}
	d.pos = 4
	d.note(0, "magic "+strconv.Quote(Magic))
	id := binary.LittleEndian.Uint16(d.data[4:])
	st := s.StructByID(id)
	switch {
	case st == nil && want != nil:
		return nil, d.fail(4, RuleMessage, "type id %d is not %s (id %d)", id, want.Name, want.ID)
	case st == nil:
		return nil, d.fail(4, RuleMessage, "type id %d names no struct of schema %s", id, s.Name)
	case want != nil && st != want:
		return nil, d.fail(4, RuleMessage, "type id %d is %s, not %s (id %d)", id, st.Name, want.Name, want.ID)
	}
	d.pos = 6
	d.note(4, fmt.Sprintf("type id = %d (%s)", id, st.Name))
	size := binary.LittleEndian.Uint32(d.data[6:])
	if uint64(size) != uint64(len(d.data)-HeaderSize) {
		return nil, d.fail(6, RuleMessage, "payload length is %d, but %s the header", size, plural(len(d.data)-HeaderSize, "byte follows", "bytes follow"))
	}
	d.pos = HeaderSize
	d.note(6, fmt.Sprintf("payload length = %d", size))
	return st, nil
}

// value decodes one value of type t; depth is the depth of the struct or
// union value that holds it (0 for the top level).
func (d *decoder) value(t *schema.Type, depth int) error {
	off := d.pos
	switch k := t.Kind; k {
	case schema.Bool:
		b, err := d.take(1, "a bool")
		if err != nil {
			return err
		}
		if b[0] > 1 {
			return d.fail(off, RuleBool, "bool byte is 0x%02x, not 0 or 1", b[0])
		}
		text := "false"
		if b[0] == 1 {
			text = "true"
		}
		d.out.value(text)
		d.note(off, "= "+text)
	case schema.U8, schema.U16, schema.U32, schema.U64, schema.I8, schema.I16, schema.I32, schema.I64:
		b, err := d.take(k.Size(), "a "+k.String())
		if err != nil {
			return err
		}
		text := formatInt(k, b)
		d.out.value(text)
		d.note(off, "= "+text)
	case schema.F32, schema.F64:
		b, err := d.take(k.Size(), "an "+k.String())
		if err != nil {
			return err
		}
		var text string
		if k == schema.F32 {
			text = formatF32(binary.LittleEndian.Uint32(b))
		} else {
			text = formatF64(binary.LittleEndian.Uint64(b))
		}
		d.out.value(text)
		d.note(off, "= "+text)
	case schema.String:
		return d.str()
	case schema.Array:
		return d.array(t, depth)
	case schema.FixedArray:
		d.out.beginArray()
		for i := 0; i < int(t.Len); i++ {
			if err := d.element(t.Elem, depth, i, int(t.Len)); err != nil {
				return err
			}
		}
		d.endArray(t, int(t.Len))
		d.out.endArray()
	case schema.Optional:
		b, err := d.take(1, "an optional's presence byte")
		if err != nil {
			return err
		}
		switch b[0] {
		case 0:
			d.note(off, "absent")
			d.out.value("null")
		case 1:
			if err := d.charge(off, 1, t.PresenceCharge(), t.Elem); err != nil {
				return err
			}
			d.note(off, "present")
			if t.Elem.Kind == schema.Optional {
				// ??T: a present outer value is [inner], so that an absent
				// inner value (null) differs from an absent outer one.
				d.out.beginArray()
				err = d.value(t.Elem, depth)
				d.out.endArray()
			} else {
				err = d.value(t.Elem, depth)
			}
			return err
		default:
			return d.fail(off, RulePresence, "presence byte is 0x%02x, not 0 or 1", b[0])
		}
	case schema.StructRef:
		return d.structValue(t.Struct, depth+1)
	case schema.EnumRef:
		e := t.Enum
		b, err := d.take(e.Base.Size(), "enum "+e.Name)
		if err != nil {
			return err
		}
		var n uint32
		switch e.Base {
		case schema.U8:
			n = uint32(b[0])
		case schema.U16:
			n = uint32(binary.LittleEndian.Uint16(b))
		default:
			n = binary.LittleEndian.Uint32(b)
		}
		v := e.Value(n)
		if v == nil {
			return d.fail(off, RuleEnum, "%d is not a value of enum %s", n, e.Name)
		}
		d.out.stringValue(v.Name)
		d.note(off, fmt.Sprintf("= %s (%d)", v.Name, n))
	case schema.UnionRef:
		return d.unionValue(t.Union, depth+1)
	default:
		return fmt.Errorf("codec: unexpected type kind %v", k)
	}
	return nil
}

func (d *decoder) structValue(st *schema.Struct, depth int) error {
	if depth > d.maxDepth {
		return d.fail(d.pos, RuleDepth, "%s value at depth %d: nesting exceeds the depth limit %d", st.Name, depth, d.maxDepth)
	}
	d.out.beginObject()
	if err := d.fields(st.Fields, depth); err != nil {
		return err
	}
	d.out.endObject()
	return nil
}

func (d *decoder) fields(fs []*schema.Field, depth int) error {
	for _, f := range fs {
		n := d.pushField(f.Name)
		d.out.key(f.Name)
		if err := d.value(f.Type, depth); err != nil {
			return err
		}
		d.pop(n)
	}
	return nil
}

func (d *decoder) unionValue(u *schema.Union, depth int) error {
	if depth > d.maxDepth {
		return d.fail(d.pos, RuleDepth, "%s value at depth %d: nesting exceeds the depth limit %d", u.Name, depth, d.maxDepth)
	}
	off := d.pos
	b, err := d.take(1, "the tag of union "+u.Name)
	if err != nil {
		return err
	}
	if int(b[0]) >= len(u.Variants) {
		return d.fail(off, RuleUnionTag, "tag %d is not a variant of union %s (it has %d)", b[0], u.Name, len(u.Variants))
	}
	v := u.Variants[b[0]]
	d.note(off, fmt.Sprintf("tag = %d (%s)", b[0], v.Name))
	d.out.beginObject()
	d.out.key(v.Name)
	n := d.pushField(v.Name)
	switch v.Kind {
	case schema.VariantUnit:
		d.out.value("null")
	case schema.VariantInline:
		d.out.beginObject()
		if err := d.fields(v.Fields, depth); err != nil {
			return err
		}
		d.out.endObject()
	case schema.VariantStruct:
		if err := d.structValue(v.Struct, depth+1); err != nil {
			return err
		}
	}
	d.pop(n)
	d.out.endObject()
	return nil
}

func (d *decoder) str() error {
	off := d.pos
	b, err := d.take(4, "a string length")
	if err != nil {
		return err
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(n) > uint64(d.remaining()) {
		return d.fail(off, RuleCount, "string length %d exceeds the %s remaining", n, plural(d.remaining(), "byte", "bytes"))
	}
	d.note(off, fmt.Sprintf("length = %d", n))
	start := d.pos
	s := d.data[start : start+int(n)]
	d.pos += int(n)
	if !utf8.Valid(s) {
		at := start + invalidUTF8At(s)
		return d.fail(off, RuleUTF8, "string is not valid UTF-8 (byte 0x%02x at offset %d)", d.data[at], at)
	}
	d.out.stringValue(string(s))
	if d.ann != nil {
		d.note(start, "= "+d.ann.shortString(s))
	}
	return nil
}

func (d *decoder) array(t *schema.Type, depth int) error {
	off := d.pos
	b, err := d.take(4, "an array count")
	if err != nil {
		return err
	}
	n := binary.LittleEndian.Uint32(b)
	min := t.Elem.MinSize()
	if uint64(n)*uint64(min) > uint64(d.remaining()) {
		return d.fail(off, RuleCount, "array count %d needs at least %s, %s", n, plural(uint64(n)*uint64(min), "byte", "bytes"), plural(d.remaining(), "remains", "remain"))
	}
	if err := d.charge(off, uint64(n), t.ArrayCharge(), t.Elem); err != nil {
		return err
	}
	d.note(off, fmt.Sprintf("count = %d", n))
	if t.Elem.Kind == schema.U8 {
		start := d.pos
		s := d.data[start : start+int(n)]
		d.pos += int(n)
		enc := base64.StdEncoding.EncodeToString(s)
		d.out.stringValue(enc)
		if d.ann != nil {
			d.note(start, "= "+d.ann.shortString([]byte(enc)))
		}
		return nil
	}
	d.out.beginArray()
	for i := 0; i < int(n); i++ {
		if err := d.element(t.Elem, depth, i, int(n)); err != nil {
			return err
		}
	}
	d.endArray(t, int(n))
	d.out.endArray()
	return nil
}

// charge adds n values of type elem, of nominal size each, to the memory
// total (rule 11) and fails, at off, when the total would exceed the memory
// limit. A zero size is no charge.
func (d *decoder) charge(off int, n, each uint64, elem *schema.Type) error {
	if each == 0 {
		return nil
	}
	if n > (d.memLimit-d.memUsed)/each {
		return d.fail(off, RuleMemory, "%d × %s of nominal size %d would bring the decoded size to more than the memory limit of %s (%d used)", n, elem, each, plural(d.memLimit, "byte", "bytes"), d.memUsed)
	}
	d.memUsed += n * each
	return nil
}

// element decodes element i of an array of n elements. Annotations stop after
// the first few elements of a long array; endArray summarizes the rest.
func (d *decoder) element(elem *schema.Type, depth, i, n int) error {
	if d.ann != nil && i == d.ann.annotatedElems(elem) {
		d.ann.suspend(d.pos)
	}
	p := d.pushIndex(i)
	if err := d.value(elem, depth); err != nil {
		return err
	}
	d.pop(p)
	return nil
}

func (d *decoder) endArray(t *schema.Type, n int) {
	if d.ann == nil {
		return
	}
	if shown := d.ann.annotatedElems(t.Elem); n > shown {
		d.ann.resume(d.pos, fmt.Sprintf("%s[%d:%d]: %s", d.path, shown, n, plural(n-shown, "more element", "more elements")))
	}
}

func formatInt(k schema.Kind, b []byte) string {
	switch k {
	case schema.U8:
		return strconv.FormatUint(uint64(b[0]), 10)
	case schema.U16:
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint16(b)), 10)
	case schema.U32:
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b)), 10)
	case schema.U64:
		return strconv.FormatUint(binary.LittleEndian.Uint64(b), 10)
	case schema.I8:
		return strconv.FormatInt(int64(int8(b[0])), 10)
	case schema.I16:
		return strconv.FormatInt(int64(int16(binary.LittleEndian.Uint16(b))), 10)
	case schema.I32:
		return strconv.FormatInt(int64(int32(binary.LittleEndian.Uint32(b))), 10)
	default:
		return strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)
	}
}

// Canonical quiet NaNs: written as "NaN"; any other NaN keeps its bits.
const (
	canonicalNaN32 = 0x7fc00000
	canonicalNaN64 = 0x7ff8000000000000
)

// formatF32 writes an f32 in the JSON mapping: the shortest decimal that
// reads back as the same f32, or a string for NaN and the infinities.
func formatF32(bits uint32) string {
	switch {
	case bits&0x7f800000 == 0x7f800000 && bits&0x007fffff != 0:
		if bits == canonicalNaN32 {
			return `"NaN"`
		}
		return fmt.Sprintf(`"NaN:0x%08x"`, bits)
	case bits == 0x7f800000:
		return `"Infinity"`
	case bits == 0xff800000:
		return `"-Infinity"`
	}
	return strconv.FormatFloat(float64(math.Float32frombits(bits)), 'g', -1, 32)
}

// formatF64 is formatF32 for f64.
func formatF64(bits uint64) string {
	switch {
	case bits&0x7ff0000000000000 == 0x7ff0000000000000 && bits&0x000fffffffffffff != 0:
		if bits == canonicalNaN64 {
			return `"NaN"`
		}
		return fmt.Sprintf(`"NaN:0x%016x"`, bits)
	case bits == 0x7ff0000000000000:
		return `"Infinity"`
	case bits == 0xfff0000000000000:
		return `"-Infinity"`
	}
	return strconv.FormatFloat(math.Float64frombits(bits), 'g', -1, 64)
}
