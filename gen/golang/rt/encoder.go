// Encoder: the encoder: the first encode error, buffer growth, counts, strings and bytes.

package rt

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sdp:copy (the generator copies what follows this line)

// encoder collects the first error of an encode; encoding goes on so that
// the output keeps the size EncodedSize computed. Its error has no path:
// an encode that failed walks the value again with a checker (check
// methods, printed from the same plan), which finds the first problem in
// encoding order and its path, so that the encoder itself keeps no path.
type encoder struct{ err *EncodeError }

func (e *encoder) fail(rule Rule, msg string) {
	if e.err == nil {
		e.err = &EncodeError{Rule: rule, Msg: msg}
	}
}

// checker walks a value that failed to encode, in encoding order, to find
// the first problem and its path: check methods return false at the first
// one, naming their field or element (at, index) as they return.
type checker struct {
	err  *EncodeError
	path []string // innermost first: filled as a failure unwinds
}

func (c *checker) fail(rule Rule, msg string) bool {
	c.err = &EncodeError{Rule: rule, Msg: msg}
	return false
}

func (c *checker) at(field string) { c.path = append(c.path, field) }

func (c *checker) index(i int) { c.path = append(c.path, "["+strconv.Itoa(i)+"]") }

// str checks a string's length and UTF-8.
func (c *checker) str(s string) bool {
	if uint64(len(s)) > 0xFFFFFFFF {
		return c.fail(RuleCount, "a string of "+strconv.FormatUint(uint64(len(s)), 10)+" bytes, more than 4294967295")
	}
	if !utf8.ValidString(s) {
		return c.fail(RuleUTF8, "the string is not valid UTF-8")
	}
	return true
}

// count checks an array's count.
func (c *checker) count(n int) bool {
	if uint64(n) > 0xFFFFFFFF {
		return c.fail(RuleCount, strconv.FormatUint(uint64(n), 10)+" elements, more than 4294967295")
	}
	return true
}

// error is the error of an encode that failed: check (the value's check
// method) walks the value again to find the first problem and its path.
// A message header's problem (RuleMessage) comes before the value's; if the
// walk finds none, e's own error is returned as it is.
func (e *encoder) error(check func(*checker) bool) error {
	var c checker
	if e.err.Rule == RuleMessage || check(&c) || c.err == nil {
		return e.err
	}
	var path strings.Builder
	for i := len(c.path) - 1; i >= 0; i-- {
		s := c.path[i]
		if path.Len() > 0 && s[0] != '[' {
			path.WriteByte('.')
		}
		path.WriteString(s)
	}
	c.err.Path = path.String()
	return c.err
}

// maxInt is the largest int: 2^31-1 on a 32-bit host, where an encoding
// can be larger than a slice can hold.
const maxInt = int(^uint(0) >> 1)

// sizeInt is an encoded size, summed in 64 bits, as an int; -1 when it is
// more than an int holds (only on a 32-bit host).
func sizeInt(n int64) int {
	if n > int64(maxInt) {
		return -1
	}
	return int(n)
}

// sizeError is the error of a value whose encoding is larger than a byte
// slice can be on this host.
func sizeError(n int64) error {
	return &EncodeError{Rule: RuleSize, Msg: "the encoding takes " + strconv.FormatInt(n, 10) +
		" bytes, more than this host's slices hold (" + strconv.Itoa(maxInt) + ")"}
}

// grow returns b with room for n more bytes, reallocating at most once.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b, make([]byte, n)...)[:len(b)]
}

func appendCount(b []byte, n int, e *encoder) []byte {
	if uint64(n) > 0xFFFFFFFF {
		e.fail(RuleCount, "more than 4294967295 elements")
	}
	return binary.LittleEndian.AppendUint32(b, uint32(n))
}

// appendString appends s's length and bytes.
func appendString(b []byte, s string, e *encoder) []byte {
	b, r := extend(b, 4+len(s))
	putString(r, s, e)
	return b
}

// putString writes s's length and bytes at the start of r, which has room
// for them, and returns the number of bytes it wrote. A string of at most
// 16 bytes (most data's) is copied with two overlapping loads and stores of
// 2, 4 or 8 bytes (no call, fewer branches than copy), whose values also show
// whether it is ASCII, and so valid UTF-8, without reading it again; a
// longer one, or one that is not ASCII, is checked by checkString.
func putString(r []byte, s string, e *encoder) int {
	n := len(s)
	binary.LittleEndian.PutUint32(r, uint32(n))
	if n > 16 {
		e.checkString(s)
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
		e.checkString(s)
	}
	return 4 + n
}

// checkString is putString's check of a string that its copy did not
// pass: longer than 16 bytes or not ASCII.
func (e *encoder) checkString(s string) {
	if uint64(len(s)) > 0xFFFFFFFF {
		e.fail(RuleCount, "a string of more than 4294967295 bytes")
	}
	if !utf8.ValidString(s) {
		e.fail(RuleUTF8, "the string is not valid UTF-8")
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

func appendBytes(b []byte, s []byte, e *encoder) []byte {
	b = appendCount(b, len(s), e)
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
