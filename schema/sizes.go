package schema

import "fmt"

// sizes computes every struct's and union's minimum and fixed encoded size,
// and rejects arrays whose elements encode to zero bytes (a count could not
// be checked against the input, so decoding them could not be bounded) and
// types too large to encode. Inline containment is acyclic by now, so the
// recursion terminates.
func (c *checker) sizes() {
	state := map[Decl]int{} // 1 in progress, 2 done
	var decl func(d Decl)
	var typ func(t *Type) (min, fixed int)
	// fieldsSize sums the fields' sizes; huge reports a field that is over the
	// limit on its own (and has been reported already).
	fieldsSize := func(fs []*Field) (min, fixed int, huge bool) {
		for _, f := range fs {
			m, x := typ(f.Type)
			huge = huge || m >= maxTypeSize
			min = addSat(min, m)
			if fixed >= 0 {
				fixed = addSat(fixed, x)
			}
			if x < 0 {
				fixed = -1
			}
		}
		return min, fixed, huge
	}
	typ = func(t *Type) (int, int) {
		switch t.Kind {
		case StructRef, UnionRef:
			decl(t.Decl())
		case Array, Optional:
			// Their size does not depend on the element's; the element's
			// named types are sized by the loop over every declaration, and
			// zero-size elements are checked once every size is known.
		case FixedArray:
			m, x := typ(t.Elem)
			min := mulSat(int(t.Len), m)
			if min >= maxTypeSize {
				c.errs.add(t.Pos, fmt.Sprintf("%s encodes to at least 2 GiB", t), "types are limited to 2 GiB; use []T for large data")
				return min, -1
			}
			if x < 0 {
				return min, -1
			}
			return min, mulSat(int(t.Len), x)
		}
		min := t.MinSize()
		fixed, ok := t.FixedSize()
		if !ok {
			fixed = -1
		}
		return min, fixed
	}
	decl = func(d Decl) {
		if state[d] != 0 {
			return
		}
		state[d] = 1
		defer func() { state[d] = 2 }()
		switch d := d.(type) {
		case *Struct:
			var huge bool
			d.minSize, d.fixedSize, huge = fieldsSize(d.Fields)
			if d.minSize >= maxTypeSize && !huge {
				c.errs.add(d.Pos, fmt.Sprintf("struct %s encodes to at least %d bytes", d.Name, d.minSize), "types are limited to 2 GiB; use []T for large data")
			}
		case *Union:
			d.minSize, d.fixedSize = -1, 0
			for i, v := range d.Variants {
				var m, x int
				if v.Kind == VariantInline {
					m, x, _ = fieldsSize(v.Fields)
				} else if v.Kind == VariantStruct {
					decl(v.Struct)
					m, x = v.Struct.minSize, v.Struct.fixedSize
				}
				if d.minSize < 0 || m < d.minSize {
					d.minSize = m
				}
				if i == 0 {
					d.fixedSize = x
				} else if x != d.fixedSize {
					d.fixedSize = -1
				}
			}
			d.minSize = addSat(d.minSize, 1)
			if d.fixedSize >= 0 {
				d.fixedSize = addSat(d.fixedSize, 1)
			}
		}
	}
	for _, d := range c.s.Decls {
		decl(d)
	}
	c.zeroSizeElements()
}

// zeroSizeElements rejects arrays and fixed arrays whose elements encode to
// zero bytes. It runs after every size is known: computing sizes visits a
// type held through ?T or []T before its own size is final.
func (c *checker) zeroSizeElements() {
	// behind is set under ?T and []T, whose elements the size pass did not
	// visit: fixed arrays there are checked against the size limit here.
	var visit func(t *Type, behind bool)
	visit = func(t *Type, behind bool) {
		switch t.Kind {
		case Array, FixedArray, Optional:
			if t.Kind != Optional && zeroSize(t.Elem) {
				hint := "an array needs elements of at least one byte"
				if t.Kind == Array {
					hint += "; add a field or use a count"
				}
				c.errs.add(t.Pos, fmt.Sprintf("elements of %s encode to zero bytes", t), hint)
			}
			if t.Kind == FixedArray && behind && satMinSize(t) >= maxTypeSize {
				c.errs.add(t.Pos, fmt.Sprintf("%s encodes to at least 2 GiB", t), "types are limited to 2 GiB; use []T for large data")
			}
			visit(t.Elem, behind || t.Kind != FixedArray)
		}
	}
	fields := func(fs []*Field) {
		for _, f := range fs {
			visit(f.Type, false)
		}
	}
	for _, d := range c.s.Decls {
		switch d := d.(type) {
		case *Struct:
			fields(d.Fields)
		case *Union:
			for _, v := range d.Variants {
				fields(v.Fields)
			}
		}
	}
}

// satMinSize is MinSize saturating at maxTypeSize.
func satMinSize(t *Type) int {
	if t.Kind == FixedArray {
		return mulSat(int(t.Len), satMinSize(t.Elem))
	}
	return t.MinSize()
}

// zeroSize reports a type whose every value encodes to zero bytes: an empty
// struct (or one of only such fields), or a fixed array of one.
func zeroSize(t *Type) bool {
	switch t.Kind {
	case FixedArray:
		return zeroSize(t.Elem)
	case StructRef:
		return t.Struct.minSize == 0
	}
	return false
}

// addSat and mulSat saturate at maxTypeSize, which no valid type reaches,
// without overflowing int on 32-bit hosts (a, b are in 0..maxTypeSize).
func addSat(a, b int) int {
	if a > maxTypeSize-b {
		return maxTypeSize
	}
	return a + b
}

func mulSat(a, b int) int {
	if a != 0 && b > maxTypeSize/a {
		return maxTypeSize
	}
	return a * b
}
