package golang

import (
	"sort"
	"strings"

	"sdp/gen/emit"
)

// The runtime is the fixed part of every generated package: options, errors
// and the primitives the generated encoders and decoders call. It is Go
// source kept as text because it does not vary with the schema, except for
// the per-kind array helpers, which are emitted only for the kinds in use.

const runtimeOptions = `// DefaultMaxDepth is the nesting limit of decoders unless DecodeOptions sets one.
const DefaultMaxDepth = 64

// DecodeOptions configure a decoder. The zero value means the defaults.
type DecodeOptions struct {
	// MaxDepth is the deepest nesting accepted: a top-level struct is at depth
	// 1, and every struct or union value inside another is one deeper (a
	// struct carried by a union variant is one deeper than its union). Zero
	// or less means DefaultMaxDepth.
	MaxDepth int
	// MemoryLimit bounds the memory a decoded value may need, in bytes of the
	// nominal sizes of the wire format's rule 11 (memory): only arrays and
	// recursive optionals of types whose values can take far more memory
	// than their encoding count. Zero means the default, 32 times the
	// input's length (a message's payload length) plus 1 MiB.
	MemoryLimit uint64
	// Reuse decodes into the value as it is instead of resetting it first:
	// its slices' capacity is reused (elements kept are decoded into, so
	// nested slices are reused too), present optionals keep their pointers,
	// a union that holds the same variant keeps its storage, and a string
	// whose bytes are unchanged is kept without a copy. A steady stream of
	// similar values then decodes without allocating, but the slices and
	// pointers of the value's previous contents are overwritten: do not keep
	// them. Strings are never overwritten (they are immutable); a decode that
	// fails resets the value to its zero value either way.
	Reuse bool
}

func (o DecodeOptions) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

// memoryLimit is the limit of rule 11 for an input of n bytes.
func (o DecodeOptions) memoryLimit(n int) uint64 {
	if o.MemoryLimit > 0 {
		return o.MemoryLimit
	}
	return 32*uint64(n) + 1<<20
}

// Rule is a rule of the wire format that an input can break, by its name in
// docs/wire-format.md (DecodeError.Rule). A Rule is an error, so that
// errors.Is(err, RuleUTF8) reports whether err is (or wraps) a DecodeError
// for that rule.
type Rule string

// Error implements error: the rule's name, so that a Rule prints as its name.
func (r Rule) Error() string { return string(r) }

// The rules of the wire format a DecodeError can name.
const (
	RuleTruncated Rule = "truncated" // the input ends inside a value
	RuleTrailing  Rule = "trailing"  // bytes remain after the top-level value
	RuleBool      Rule = "bool"      // a bool byte other than 0 or 1
	RulePresence  Rule = "presence"  // an optional's presence byte other than 0 or 1
	RuleEnum      Rule = "enum"      // an enum number that names no value
	RuleUnionTag  Rule = "union_tag" // a union tag with no variant
	RuleUTF8      Rule = "utf8"      // a string that is not valid UTF-8
	RuleCount     Rule = "count"     // a count or length larger than the input can hold
	RuleDepth     Rule = "depth"     // nesting deeper than DecodeOptions.MaxDepth
	RuleMessage   Rule = "message"   // a bad message header or payload length
	RuleMemory    Rule = "memory"    // more memory than DecodeOptions.MemoryLimit
	RuleSchema    Rule = "schema"    // a stream's hello is from another version of the schema
)

// DecodeError is the error of every decoder in this package.
type DecodeError struct {
	// Type is the schema type that was being decoded; empty when a message
	// was rejected before its type was known.
	Type string
	// Path locates the problem inside Type by schema field names and array
	// indexes ("plugins[3].parameters[0].display_name"), or is "message" for
	// an error in a message header; empty when the problem is at the top
	// level.
	Path string
	// Offset is the byte offset in the input where the offending value starts.
	Offset int
	// Rule is the rule of the wire format the input breaks: one of the Rule
	// constants.
	Rule Rule
	// Msg describes the problem.
	Msg string
}

// Error implements error.
func (e *DecodeError) Error() string {
	where := e.Type
	if where != "" && e.Path != "" {
		where += "."
	}
	where += e.Path
	return "sdp: decode " + where + ": " + e.Msg + " (rule " + string(e.Rule) + ", offset " + strconv.Itoa(e.Offset) + ")"
}

// Is reports whether target is e's Rule: errors.Is(err, RuleUTF8).
func (e *DecodeError) Is(target error) bool {
	r, ok := target.(Rule)
	return ok && r == e.Rule
}

// EncodeError reports a value that has no encoding: an enum number that names
// no value, a nil union, a string that is not valid UTF-8, or a length that
// does not fit the wire format's u32.
type EncodeError struct {
	// Field is the schema field (Type.field) or type that holds the value.
	Field string
	// Msg describes the problem.
	Msg string
}

// Error implements error.
func (e *EncodeError) Error() string { return "sdp: encode " + e.Field + ": " + e.Msg }
`

const runtimeEncoder = `// encoder collects the first error of an encode; encoding goes on so that
// the output keeps the size EncodedSize computed.
type encoder struct{ err error }

func (e *encoder) fail(field, msg string) {
	if e.err == nil {
		e.err = &EncodeError{Field: field, Msg: msg}
	}
}

// grow returns b with room for n more bytes, reallocating at most once.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b, make([]byte, n)...)[:len(b)]
}

func appendCount(b []byte, n int, e *encoder, field string) []byte {
	if uint64(n) > 0xFFFFFFFF {
		e.fail(field, "more than 4294967295 elements")
	}
	return binary.LittleEndian.AppendUint32(b, uint32(n))
}

// appendString appends s's length and bytes.
func appendString(b []byte, s string, e *encoder, field string) []byte {
	b, r := extend(b, 4+len(s))
	putString(r, s, e, field)
	return b
}

// putString writes s's length and bytes at the start of r, which has room
// for them, and returns the number of bytes it wrote. A string of at most
// 16 bytes (most data's) is copied with two overlapping loads and stores of
// 2, 4 or 8 bytes (no call, fewer branches than copy), whose values also show
// whether it is ASCII, and so valid UTF-8, without reading it again; a
// longer one, or one that is not ASCII, is checked by checkString.
func putString(r []byte, s string, e *encoder, field string) int {
	n := len(s)
	binary.LittleEndian.PutUint32(r, uint32(n))
	if n > 16 {
		e.checkString(s, field)
		return 4 + copy(r[4:], s)
	}
	dst := r[4 : 4+n]
	var v uint64
	switch {
	case n >= 8:
		a, z := load64(s), load64(s[n-8:])
		binary.LittleEndian.PutUint64(dst, a)
		binary.LittleEndian.PutUint64(dst[n-8:], z)
		v = a | z
	case n >= 4:
		a, z := load32(s), load32(s[n-4:])
		binary.LittleEndian.PutUint32(dst, a)
		binary.LittleEndian.PutUint32(dst[n-4:], z)
		v = uint64(a | z)
	case n >= 2:
		a, z := uint16(s[0])|uint16(s[1])<<8, uint16(s[n-2])|uint16(s[n-1])<<8
		binary.LittleEndian.PutUint16(dst, a)
		binary.LittleEndian.PutUint16(dst[n-2:], z)
		v = uint64(a | z)
	case n == 1:
		dst[0] = s[0]
		v = uint64(s[0])
	}
	if v&0x8080808080808080 != 0 {
		e.checkString(s, field)
	}
	return 4 + n
}

// checkString is putString's check of a string that its copy did not
// pass: longer than 16 bytes or not ASCII.
func (e *encoder) checkString(s string, field string) {
	if uint64(len(s)) > 0xFFFFFFFF {
		e.fail(field, "more than 4294967295 elements")
	}
	if !utf8.ValidString(s) {
		e.fail(field, "the string is not valid UTF-8")
	}
}

// copyShortBytes copies s, of at most 16 bytes, into dst, of the same
// length, as putString copies a short string, and reports whether s is
// ASCII.
func copyShortBytes(dst, s []byte) bool {
	n := len(s)
	var v uint64
	switch {
	case n >= 8:
		a, z := binary.LittleEndian.Uint64(s), binary.LittleEndian.Uint64(s[n-8:])
		binary.LittleEndian.PutUint64(dst, a)
		binary.LittleEndian.PutUint64(dst[n-8:], z)
		v = a | z
	case n >= 4:
		a, z := binary.LittleEndian.Uint32(s), binary.LittleEndian.Uint32(s[n-4:])
		binary.LittleEndian.PutUint32(dst, a)
		binary.LittleEndian.PutUint32(dst[n-4:], z)
		v = uint64(a | z)
	case n >= 2:
		a, z := binary.LittleEndian.Uint16(s), binary.LittleEndian.Uint16(s[n-2:])
		binary.LittleEndian.PutUint16(dst, a)
		binary.LittleEndian.PutUint16(dst[n-2:], z)
		v = uint64(a | z)
	case n == 1:
		dst[0] = s[0]
		v = uint64(s[0])
	}
	return v&0x8080808080808080 == 0
}

// sameASCII reports whether s, of at most 16 bytes, is ASCII and holds the
// bytes of old, of the same length, with the loads of copyShortBytes.
func sameASCII(s []byte, old string) bool {
	n := len(s)
	switch {
	case n >= 8:
		a, z := binary.LittleEndian.Uint64(s), binary.LittleEndian.Uint64(s[n-8:])
		return (a|z)&0x8080808080808080 == 0 && a == load64(old) && z == load64(old[n-8:])
	case n >= 4:
		a, z := binary.LittleEndian.Uint32(s), binary.LittleEndian.Uint32(s[n-4:])
		return (a|z)&0x80808080 == 0 && a == load32(old) && z == load32(old[n-4:])
	case n >= 2:
		a, z := binary.LittleEndian.Uint16(s), binary.LittleEndian.Uint16(s[n-2:])
		return (a|z)&0x8080 == 0 && a == uint16(old[0])|uint16(old[1])<<8 && z == uint16(old[n-2])|uint16(old[n-1])<<8
	}
	return s[0] < 0x80 && s[0] == old[0]
}

// load64 and load32 read the first 8 or 4 bytes of s, little-endian (the
// compiler makes each one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// asciiEnd reports whether the last n bytes of b are ASCII, for the short
// strings most data holds: n <= 16 and len(b) >= 16, so that two 8-byte
// loads cover them (the bytes before them, such as the string's count, are
// masked out). Otherwise it returns false and the caller checks the slow way.
func asciiEnd(b []byte, n int) bool {
	k := len(b)
	return n <= 16 && k >= 16 &&
		(binary.LittleEndian.Uint64(b[k-8:])&asciiLast[n]|binary.LittleEndian.Uint64(b[k-16:])&asciiFirst[n]) == 0
}

// asciiLast[n] and asciiFirst[n] hold the high bit of every byte of an
// n-byte string that ends a 16-byte window, in its last and first 8 bytes.
var asciiLast, asciiFirst = func() (last, first [17]uint64) {
	for n := 0; n <= 16; n++ {
		for i := 0; i < 8; i++ {
			if 8-i <= n {
				last[n] |= 0x80 << (8 * i)
			}
			if 16-i <= n {
				first[n] |= 0x80 << (8 * i)
			}
		}
	}
	return
}()

func appendBytes(b []byte, s []byte, e *encoder, field string) []byte {
	b = appendCount(b, len(s), e, field)
	return append(b, s...)
}

// extend lengthens b by n bytes and returns b and the new bytes, which the
// caller must write all of (they may hold an earlier encoding's bytes).
func extend(b []byte, n int) ([]byte, []byte) {
	k := len(b)
	if cap(b)-k < n {
		b = grow(b, n)
	}
	b = b[:k+n]
	return b, b[k:]
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}
`

// runtimeCharge is rule 11's check, emitted for schemas with charged types.
const runtimeCharge = `// chargeCount adds the n elements of the array whose count was just read,
// of nominal size each, to the memory total (rule 11) and returns n; when the
// total would exceed the memory limit it fails at the count and returns 0.
func (d *decoder) chargeCount(n int, each uint64) int {
	if n > 0 && !d.charge(d.off-4, uint64(n), each) {
		return 0
	}
	return n
}

// chargePresent charges the value of the present optional whose presence
// byte was just read, and reports whether decoding goes on.
func (d *decoder) chargePresent(each uint64) bool {
	return d.charge(d.off-1, 1, each)
}

func (d *decoder) charge(off int, n, each uint64) bool {
	if n > (d.memLimit-d.memUsed)/each {
		d.failAt(off, RuleMemory, strconv.FormatUint(n, 10)+" values of "+strconv.FormatUint(each, 10)+
			" bytes would exceed the memory limit of "+strconv.FormatUint(d.memLimit, 10)+" bytes")
		return false
	}
	d.memUsed += n * each
	return true
}
`

const runtimeDecoder = `// decoder reads one value from b. The first failure is kept in err and moves
// off to the end, so every later read fails at once: a decoder never loops
// or allocates on behalf of input it has already rejected.
type decoder struct {
	b        []byte
	off      int
	depth    int
	maxDepth int
	memLimit uint64 // rule 11: the memory limit and the total so far
	memUsed  uint64
	err      *DecodeError
	path     []string // innermost first: filled as a failure unwinds
	text     []byte   // the current block of string bytes (see str)
}

// init starts d on b at off. Decoders are built in place with init: a
// composite literal of a decoder is built in a temporary and copied.
func (d *decoder) init(b []byte, off, maxDepth int, memLimit uint64) {
	d.b, d.off, d.maxDepth, d.memLimit = b, off, maxDepth, memLimit
}

func (d *decoder) failAt(off int, rule Rule, msg string) {
	if d.err == nil {
		d.err = &DecodeError{Offset: off, Rule: rule, Msg: msg}
	}
	d.off = len(d.b)
}

func (d *decoder) truncated(need int) {
	d.failAt(d.off, RuleTruncated, "need "+strconv.Itoa(need)+" bytes, "+strconv.Itoa(len(d.b)-d.off)+" left")
}

// truncatedElement reports a fixed array of size-byte elements that the
// input ends inside, at the first incomplete element.
func (d *decoder) truncatedElement(size int) {
	i := (len(d.b) - d.off) / size
	d.off += i * size
	d.truncated(size)
	d.index(i)
}

// enter goes one level deeper; the caller decrements depth when done.
func (d *decoder) enter() bool {
	d.depth++
	if d.depth > d.maxDepth {
		d.tooDeep()
		return false
	}
	return true
}

func (d *decoder) tooDeep() {
	d.failAt(d.off, RuleDepth, "nesting deeper than "+strconv.Itoa(d.maxDepth))
}

// at and index name the field or element a failure happened in.
func (d *decoder) at(field string) { d.path = append(d.path, field) }

func (d *decoder) index(i int) { d.path = append(d.path, "["+strconv.Itoa(i)+"]") }

// finish completes the error of a failed decode of typ.
func (d *decoder) finish(typ string) error {
	var path strings.Builder
	for i := len(d.path) - 1; i >= 0; i-- {
		s := d.path[i]
		if path.Len() > 0 && s[0] != '[' {
			path.WriteByte('.')
		}
		path.WriteString(s)
	}
	d.err.Type = typ
	d.err.Path = path.String()
	return d.err
}

func trailingError(typ string, n, total int) error {
	return &DecodeError{Type: typ, Offset: n, Rule: RuleTrailing, Msg: strconv.Itoa(total-n) + " bytes after the value"}
}

// span returns the next n bytes without consuming them, or nil if fewer are
// left.
func (d *decoder) span(n int) []byte {
	if len(d.b)-d.off < n {
		return nil
	}
	return d.b[d.off : d.off+n]
}

func (d *decoder) u8() uint8 {
	if d.off >= len(d.b) {
		d.truncated(1)
		return 0
	}
	v := d.b[d.off]
	d.off++
	return v
}

func (d *decoder) u16() uint16 {
	if len(d.b)-d.off < 2 {
		d.truncated(2)
		return 0
	}
	v := binary.LittleEndian.Uint16(d.b[d.off:])
	d.off += 2
	return v
}

func (d *decoder) u32() uint32 {
	if len(d.b)-d.off < 4 {
		d.truncated(4)
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *decoder) u64() uint64 {
	if len(d.b)-d.off < 8 {
		d.truncated(8)
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

func (d *decoder) boolean() bool {
	if d.off >= len(d.b) {
		d.truncated(1)
		return false
	}
	v := d.b[d.off]
	if v > 1 {
		d.failAt(d.off, RuleBool, "byte "+strconv.Itoa(int(v))+" is not a bool (0 or 1)")
		return false
	}
	d.off++
	return v == 1
}

// present reads an optional's presence byte.
func (d *decoder) present() bool {
	if d.off >= len(d.b) {
		d.truncated(1)
		return false
	}
	v := d.b[d.off]
	if v > 1 {
		d.failAt(d.off, RulePresence, "presence byte "+strconv.Itoa(int(v))+" is not 0 or 1")
		return false
	}
	d.off++
	return v == 1
}

// count reads an array count or string length and checks, before anything
// is allocated, that the input holds count elements of at least min bytes.
func (d *decoder) count(min int) int {
	if len(d.b)-d.off < 4 {
		d.truncated(4)
		return 0
	}
	n := binary.LittleEndian.Uint32(d.b[d.off:])
	if uint64(n)*uint64(min) > uint64(len(d.b)-d.off-4) {
		d.badCount(n, min)
		return 0
	}
	d.off += 4
	return int(n)
}

// badCount reports a count at d.off whose elements cannot fit in the input.
func (d *decoder) badCount(n uint32, min int) {
	left := len(d.b) - d.off - 4
	d.failAt(d.off, RuleCount, "count "+strconv.FormatUint(uint64(n), 10)+" needs at least "+
		strconv.FormatUint(uint64(n)*uint64(min), 10)+" bytes, "+strconv.Itoa(left)+" left")
}

// Strings shorter than textLarge are copied into shared blocks of up to
// textBlock bytes, one allocation for many strings instead of one each. A
// block is never larger than the input left to decode, and its bytes never
// change once a string points to them.
const (
	textBlock = 8192
	textLarge = 1024
)

// str reads a string; old is the value it replaces, kept when its bytes are
// the same (decoding into a used value allocates nothing for it then).
func (d *decoder) str(old string) string {
	b := d.b[d.off:]
	if len(b) < 4 {
		d.truncated(4)
		return ""
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		d.badCount(n, 1)
		return ""
	}
	if n == 0 {
		d.off += 4
		return ""
	}
	end := d.off + 4 + int(n) // in int: 4+n wraps in uint32 for a string of 4 GiB - 4 bytes or more
	s := d.b[d.off+4 : end]
	if len(s) <= 16 {
		if len(old) == len(s) {
			// Decoding into a used value: the same string is kept.
			if sameASCII(s, old) {
				d.off = end
				return old
			}
		} else if k := len(d.text); cap(d.text)-k >= len(s) {
			// A new short string: copied into the block's free bytes (no
			// string points to them) by two overlapping loads and stores
			// that also show whether it is ASCII.
			t := d.text[k : k+len(s)]
			if copyShortBytes(t, s) {
				d.text = d.text[:k+len(s)]
				d.off = end
				return *(*string)(unsafe.Pointer(&t))
			}
		}
	}
	if !asciiEnd(d.b[:end], len(s)) && !utf8.Valid(s) {
		d.failAt(d.off, RuleUTF8, "the string is not valid UTF-8")
		return ""
	}
	d.off += 4 + int(n)
	if len(old) == len(s) && old == string(s) {
		return old
	}
	if len(s) >= textLarge {
		return string(s)
	}
	if cap(d.text)-len(d.text) < len(s) {
		size := textBlock
		if left := len(d.b) - d.off + len(s); left < size {
			size = left
		}
		d.text = make([]byte, 0, size)
	}
	start := len(d.text)
	d.text = append(d.text, s...)
	t := d.text[start:]
	return *(*string)(unsafe.Pointer(&t))
}

// bytes reads a []u8 into old's storage when it has the capacity, else into
// a new slice that append fills without clearing it first.
func (d *decoder) bytes(old []byte) []byte {
	n := d.count(1)
	if n > cap(old) {
		s := append([]byte(nil), d.b[d.off:d.off+n]...)
		d.off += n
		return s
	}
	s := old[:n]
	d.off += copy(s, d.b[d.off:])
	return s
}

// resize returns s with length n, reusing its storage when it has the
// capacity; the elements it keeps hold what they held, and the decoder
// assigns every one of them.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

func (d *decoder) fixedBytes(dst []byte) {
	if len(d.b)-d.off < len(dst) {
		d.truncatedElement(1)
		return
	}
	d.off += copy(dst, d.b[d.off:])
}
`

// bulkInfo describes one numeric element kind for the array helpers.
type bulkInfo struct {
	name, goType string
	size         int
	get, put     string // expressions: read from src[i*size:], append v to b
}

var bulkInfos = map[string]bulkInfo{
	"U16": {"U16", "uint16", 2, "binary.LittleEndian.Uint16(src[i*2:])", "binary.LittleEndian.AppendUint16(b, v)"},
	"U32": {"U32", "uint32", 4, "binary.LittleEndian.Uint32(src[i*4:])", "binary.LittleEndian.AppendUint32(b, v)"},
	"U64": {"U64", "uint64", 8, "binary.LittleEndian.Uint64(src[i*8:])", "binary.LittleEndian.AppendUint64(b, v)"},
	"I8":  {"I8", "int8", 1, "int8(src[i])", "append(b, byte(v))"},
	"I16": {"I16", "int16", 2, "int16(binary.LittleEndian.Uint16(src[i*2:]))", "binary.LittleEndian.AppendUint16(b, uint16(v))"},
	"I32": {"I32", "int32", 4, "int32(binary.LittleEndian.Uint32(src[i*4:]))", "binary.LittleEndian.AppendUint32(b, uint32(v))"},
	"I64": {"I64", "int64", 8, "int64(binary.LittleEndian.Uint64(src[i*8:]))", "binary.LittleEndian.AppendUint64(b, uint64(v))"},
	"F32": {"F32", "float32", 4, "math.Float32frombits(binary.LittleEndian.Uint32(src[i*4:]))", "binary.LittleEndian.AppendUint32(b, math.Float32bits(v))"},
	"F64": {"F64", "float64", 8, "math.Float64frombits(binary.LittleEndian.Uint64(src[i*8:]))", "binary.LittleEndian.AppendUint64(b, math.Float64bits(v))"},
}

// bulkUsed lists the element kinds whose array helpers the code uses, sorted.
func (g *generator) bulkUsed() []bulkInfo {
	var out []bulkInfo
	for u := range g.uses {
		if strings.HasPrefix(u, "bulk.") {
			out = append(out, bulkInfos[strings.TrimPrefix(u, "bulk.")])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func (g *generator) hasBulk() bool { return len(g.bulkUsed()) > 0 }

func (g *generator) emitRuntime(p *emit.Printer) []string {
	p.Line(runtimeOptions)
	p.Line(runtimeEncoder)
	p.Line(runtimeDecoder)
	if g.plan.Charges {
		p.Line(runtimeCharge)
	}
	for _, k := range g.bulkUsed() {
		p.F("// array%s reads a []%s: count, then the elements, into old's storage when", k.name, k.goType)
		p.P("// it has the capacity.")
		p.Block("func (d *decoder) array"+k.name+"(old []"+k.goType+") []"+k.goType+" {", "}", func() {
			p.F("n := d.count(%d)", k.size)
			p.P("if n > cap(old) {")
			p.F("\ts := new%ss(d.b[d.off:], n)", k.name)
			p.F("\td.off += n * %d", k.size)
			p.P("\treturn s")
			p.P("}")
			p.P("s := old[:n]")
			p.F("read%ss(s, d.b[d.off:])", k.name)
			p.F("d.off += n * %d", k.size)
			p.P("return s")
		})
		p.P()
		p.F("// fixed%ss reads len(dst) elements into dst.", k.name)
		p.Block("func (d *decoder) fixed"+k.name+"s(dst []"+k.goType+") {", "}", func() {
			p.F("if len(d.b)-d.off < len(dst)*%d {", k.size)
			p.F("\td.truncatedElement(%d)", k.size)
			p.P("\treturn")
			p.P("}")
			p.F("read%ss(dst, d.b[d.off:])", k.name)
			p.F("d.off += len(dst) * %d", k.size)
		})
		p.P()
	}
	return []string{"encoding/binary", "strconv", "strings", "unicode/utf8", "unsafe"}
}

// The build constraints of the bulk files: the little-endian architectures
// Go supports, unless the portable tag is set.
const leArchs = "386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm"

var (
	leConstraint = "(" + leArchs + ") && !" + PortableTag
	beConstraint = "!(" + leArchs + ") || " + PortableTag
)

// emitBulk writes the numeric array copies: whole-slice copies through
// unsafe on little-endian hosts, where memory already has the wire layout,
// and element-by-element encoding/binary code everywhere else.
func (g *generator) emitBulk(p *emit.Printer, little bool) []string {
	var imports []string
	if little {
		imports = append(imports, "unsafe")
		p.P("// This file is built on little-endian hosts, where a numeric slice's memory")
		p.P("// is its wire encoding: arrays are copied in one piece.")
		p.P()
	} else {
		imports = append(imports, "encoding/binary")
		p.P("// This file is built on big-endian hosts (and with the " + PortableTag + " build tag):")
		p.P("// arrays are converted element by element.")
		p.P()
	}
	for _, k := range g.bulkUsed() {
		if !little && strings.Contains(k.get+k.put, "math.") {
			imports = append(imports, "math")
		}
		k := k
		emitArrayCopies(p, k.name, k.goType, "the elements of s, little-endian", "elements", k.size, little, func() {
			p.Block("for _, v := range s {", "}", func() { p.F("b = %s", k.put) })
			p.P("return b")
		}, func() {
			p.Block("for i := range dst {", "}", func() { p.F("dst[i] = %s", k.get) })
		})
	}
	g.emitPlainBulk(p, little)
	if !little {
		only8 := true
		for _, k := range g.bulkUsed() {
			if k.size != 1 {
				only8 = false
			}
		}
		if only8 {
			imports = imports[1:]
		}
	}
	return imports
}
