package datagen

import (
	"fmt"
	"math"
)

// Valid encodings the invalid vectors are built from.

// allPrimitives encodes a primitives.sdp AllPrimitives up to (not
// including) its label; flag is the raw bool byte.
func allPrimitivesHead(flag uint8) wire {
	return wire{}.u8(flag).u8(42).u16(1000).u32(123456789).u64(1234567890123456789).
		u8(0xd6).u16(0xfc18).i32(-123456789).u64(0xeeddef0b82167eeb).f32(3.14).f64(2.718281828459045)
}

// emptyArraysUpTo encodes the empty arrays of arrays.sdp Arrays' fields
// before field index i.
func emptyArraysUpTo(i int) wire {
	var w wire
	for j := 0; j < i; j++ {
		w = w.u32(0)
	}
	return w
}

// Field indexes of arrays.sdp Arrays.
const (
	arBools = iota
	arBytes
	arI8s
	arU16s
	arI16s
	arU32s
	arI32s
	arU64s
	arI64s
	arF32s
	arF64s
	arStrings
	arPoints
	arNested
	arBlobs
	arFields
)

// fixedValid encodes an arrays.sdp Fixed in pieces: rgba, matrix, names,
// flags, points, lists.
func fixedParts() []wire {
	var m wire
	for i := 0; i < 9; i++ {
		m = m.f32(float32(i))
	}
	return []wire{
		wire{}.hex("ff 80 01 00"),
		m,
		wire{}.str("left").str("right"),
		wire{}.hex("01 00 01"),
		wire{}.f64(1).f64(2).f64(3).f64(4),
		wire{}.u32(1).u16(7).u32(0),
	}
}

func join(parts []wire) wire {
	var w wire
	for _, p := range parts {
		w = w.cat(p)
	}
	return w
}

// optionalsAbsent encodes optionals.sdp Optionals with every optional
// absent, in pieces by field.
func optionalsParts() []wire {
	p := make([]wire, 12)
	for i := range p {
		p[i] = wire{}.u8(0)
	}
	p[9] = wire{}.u32(0) // list_of_maybe: []?str
	return p
}

// Field indexes of optionals.sdp Optionals.
const (
	opBool = iota
	opU8
	opI64
	opF64
	opStr
	opInner
	opLevel
	opChoice
	opList
	opListOfMaybe
	opFixed
	opMaybe
)

func withPart(parts []wire, i int, w wire) wire {
	cp := append([]wire(nil), parts...)
	cp[i] = w
	return join(cp)
}

// upTo joins the parts before i, then w (the input ends there).
func upTo(parts []wire, i int, w wire) wire { return join(parts[:i]).cat(w) }

// treeChain encodes a recursive.sdp Tree chain of depth trees.
func treeChainWire(depth int) wire {
	var w wire
	for d := 1; d <= depth; d++ {
		n := uint32(1)
		if d == depth {
			n = 0
		}
		w = w.i32(int32(d)).u32(n)
	}
	return w
}

func nodeChainWire(depth int) wire {
	var w wire
	for d := 1; d <= depth; d++ {
		w = w.str(fmt.Sprintf("node %d", d))
		if d == depth {
			w = w.u8(0)
		} else {
			w = w.u8(1)
		}
	}
	return w
}

// dirChainWire: Dir (1) → Entry (2) → Dir (3) ..., the deepest at depth.
func dirChainWire(depth int) wire {
	var w wire
	for d := 1; d <= depth; d++ {
		last := d == depth
		if d%2 == 1 {
			w = w.str(fmt.Sprintf("d%d", d))
			if last {
				w = w.u32(0)
			} else {
				w = w.u32(1)
			}
		} else {
			w = w.str(fmt.Sprintf("e%d", d)).u64(uint64(d))
			if last {
				w = w.u8(0)
			} else {
				w = w.u8(1)
			}
		}
	}
	return w
}

// programChainWire: Program (1), Neg unions from depth 2, a Lit at depth.
func programChainWire(depth int) wire {
	var w wire
	for d := 2; d < depth; d++ {
		w = w.u8(1).u8(1) // Neg, inner present
	}
	return w.u8(0).u64(uint64(depth)) // Lit
}

// parameterWire encodes a plugins.sdp Parameter; writable is the raw byte.
func parameterWire(name string, writable uint8) wire {
	return wire{}.u64(7).str(name).str("gain").str("dB").
		f32(-30).f32(30).f32(0).f32(-4.5).u32(0xc2000000).u8(writable).u8(1)
}

func pluginHead() wire {
	return wire{}.str("Pro-Q 3").str("FabF").str("aufx").str("FQ3p")
}

// errorWire encodes keywords.sdp Error with type byte t and default byte def.
func errorWire(t, def uint8) wire {
	return wire{}.u8(t).str("m").u8(1).u16(2).u8(def).i32(-3).u32(4).f32(5.5).u8(0xfa).u64(math.MaxUint64).
		u16(0xfff8).str("ns").u64(1 << 63).u8(65).u8(1).str("P").u32(12).u8(1).u8(0).u8(1).
		u8(13).u8(14).u8(15).u8(16).u8(17).u8(18).u8(19).u8(20).str("s").u32(21).u32(22).i32(-23)
}
