// Decoder: the decoder: bounds, depth, counts, scalars, strings and bytes, error paths.

package rt

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// sdp:copy (the generator copies what follows this line)

// decoder reads one value from b. The first failure is kept in err and moves
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
