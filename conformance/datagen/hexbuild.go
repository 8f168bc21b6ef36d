package datagen

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
)

// wire builds encoded bytes as readable hex, one space between values, so
// an invalid vector shows where each value starts.
type wire []string

// add appends values to a copy: builders are shared (a valid prefix is
// extended into several vectors), so they must never write into each other.
func (w wire) add(parts ...string) wire {
	out := make(wire, 0, len(w)+len(parts))
	return append(append(out, w...), parts...)
}

func (w wire) hex(s string) wire { return w.add(strings.ReplaceAll(s, " ", "")) }

func (w wire) u8(v uint8) wire { return w.add(hex.EncodeToString([]byte{v})) }

func (w wire) u16(v uint16) wire {
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], v)
	return w.add(hex.EncodeToString(b[:]))
}

func (w wire) u32(v uint32) wire {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	return w.add(hex.EncodeToString(b[:]))
}

func (w wire) u64(v uint64) wire {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return w.add(hex.EncodeToString(b[:]))
}

func (w wire) i32(v int32) wire   { return w.u32(uint32(v)) }
func (w wire) i64(v int64) wire   { return w.u64(uint64(v)) }
func (w wire) f32(v float32) wire { return w.u32(math.Float32bits(v)) }
func (w wire) f64(v float64) wire { return w.u64(math.Float64bits(v)) }

func (w wire) bool(v bool) wire {
	if v {
		return w.u8(1)
	}
	return w.u8(0)
}

// str is a valid string: u32 length, then the bytes.
func (w wire) str(s string) wire {
	w = w.u32(uint32(len(s)))
	if s != "" {
		w = w.add(hex.EncodeToString([]byte(s)))
	}
	return w
}

// rawStr is a string of arbitrary bytes given in hex (possibly invalid UTF-8).
func (w wire) rawStr(hexBytes string) wire {
	b, err := hex.DecodeString(strings.ReplaceAll(hexBytes, " ", ""))
	if err != nil {
		panic(err)
	}
	return w.u32(uint32(len(b))).hex(hexBytes)
}

// cat appends another builder's values.
func (w wire) cat(o wire) wire { return w.add(o...) }

// cut drops the last n bytes.
func (w wire) cut(n int) wire {
	s := strings.Join(w, "")
	if 2*n > len(s) {
		panic("datagen: cut past the start")
	}
	keep := len(s) - 2*n
	var out wire
	used := 0
	for _, part := range w {
		if used+len(part) <= keep {
			out = append(out, part)
			used += len(part)
			continue
		}
		if used < keep {
			out = append(out, part[:keep-used])
		}
		break
	}
	return out
}

func (w wire) String() string {
	var parts []string
	for _, p := range w {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// len is the number of bytes.
func (w wire) len() int { return len(strings.Join(w, "")) / 2 }

// message frames w as a message of type id.
func message(id uint16, payload wire) wire {
	return wire{}.hex("53445032").u16(id).u32(uint32(payload.len())).cat(payload)
}
