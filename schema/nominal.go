package schema

// Nominal sizes and memory charges: rule 11 (memory) of docs/wire-format.md.
// Every backend's decoder adds the same charges to one running total and
// rejects an input whose total exceeds its memory limit, so all of them
// accept and reject the same inputs; the numbers come from here alone.

// MemoryRatio is the factor of rule 11: a type is charged when its nominal
// size exceeds MemoryRatio times its minimum encoded size, and the default
// memory limit is MemoryRatio times the input length plus MemoryAllowance.
const MemoryRatio = 32

// MemoryAllowance is the fixed part of the default memory limit (1 MiB).
const MemoryAllowance = 1 << 20

// maxNominal caps nominal sizes (sums and products saturate here), so that
// count × size fits in 64 bits for any u32 count.
const maxNominal = 1 << 48

// DefaultMemoryLimit is the memory limit for an input of n bytes when the
// caller sets none: MemoryRatio × n + MemoryAllowance.
func DefaultMemoryLimit(n uint64) uint64 {
	if n > (1<<64-1-MemoryAllowance)/MemoryRatio {
		return 1<<64 - 1
	}
	return MemoryRatio*n + MemoryAllowance
}

// NominalSize is the memory one value of the type is taken to need when
// stored inline (the table of docs/wire-format.md, rule 11).
func (t *Type) NominalSize() uint64 {
	switch {
	case t.Kind.IsScalar():
		return uint64(t.Kind.Size())
	case t.Kind == EnumRef:
		return 4
	case t.Kind == String, t.Kind == Array:
		return 24
	case t.Kind == FixedArray:
		return nominalMul(uint64(t.Len), t.Elem.NominalSize())
	case t.Kind == Optional:
		if t.Boxed {
			return 8
		}
		return nominalAdd(8, t.Elem.NominalSize())
	case t.Kind == StructRef:
		return t.Struct.NominalSize()
	case t.Kind == UnionRef:
		return t.Union.NominalSize()
	}
	panic("schema: NominalSize of " + t.Kind.String())
}

// NominalSize is the sum of the fields' nominal sizes, at least 1.
func (s *Struct) NominalSize() uint64 {
	if s.nominal == 0 {
		n := fieldsNominal(s.Fields)
		if n == 0 {
			n = 1
		}
		s.nominal = n
	}
	return s.nominal
}

// NominalSize is 8 plus the largest nominal size of a variant's contents.
func (u *Union) NominalSize() uint64 {
	if u.nominal == 0 {
		var most uint64
		for _, v := range u.Variants {
			var n uint64
			switch v.Kind {
			case VariantInline:
				n = fieldsNominal(v.Fields)
			case VariantStruct:
				n = v.Struct.NominalSize()
			}
			if n > most {
				most = n
			}
		}
		u.nominal = nominalAdd(8, most)
	}
	return u.nominal
}

func fieldsNominal(fs []*Field) uint64 {
	var n uint64
	for _, f := range fs {
		n = nominalAdd(n, f.Type.NominalSize())
	}
	return n
}

// Charged reports a type whose nominal size exceeds MemoryRatio times its
// minimum encoded size: an array of it, or a recursive optional of it, is
// charged to the memory total while decoding.
func (t *Type) Charged() bool {
	return t.NominalSize() > nominalMul(MemoryRatio, uint64(t.MinSize()))
}

// ArrayCharge is, for an array type []T, what each element adds to the
// memory total when the count is read: T's nominal size when T is charged,
// else 0 (the array needs no memory check).
func (t *Type) ArrayCharge() uint64 {
	if t.Kind != Array || !t.Elem.Charged() {
		return 0
	}
	return t.Elem.NominalSize()
}

// PresenceCharge is, for an optional type ?T, what a presence byte of 1 adds
// to the memory total: T's nominal size when the optional is Boxed (stored
// behind a pointer, so its parent's nominal size does not hold T) and T's
// nominal size exceeds MemoryRatio times the optional's smallest present
// encoding (1 + T's minimum size); else 0.
func (t *Type) PresenceCharge() uint64 {
	if t.Kind != Optional || !t.Boxed {
		return 0
	}
	n := t.Elem.NominalSize()
	if n <= nominalMul(MemoryRatio, nominalAdd(1, uint64(t.Elem.MinSize()))) {
		return 0
	}
	return n
}

// HasMemoryCharges reports whether any array or optional of the schema has
// a charge, i.e. whether its decoders need the memory total at all.
func (s *Schema) HasMemoryCharges() bool {
	found := false
	var walk func(t *Type)
	walk = func(t *Type) {
		if t == nil || found {
			return
		}
		if t.ArrayCharge() > 0 || t.PresenceCharge() > 0 {
			found = true
			return
		}
		walk(t.Elem)
	}
	for _, d := range s.Decls {
		switch d := d.(type) {
		case *Struct:
			for _, f := range d.Fields {
				walk(f.Type)
			}
		case *Union:
			for _, v := range d.Variants {
				for _, f := range v.Fields {
					walk(f.Type)
				}
			}
		}
	}
	return found
}

func nominalAdd(a, b uint64) uint64 {
	if a+b > maxNominal || a+b < a {
		return maxNominal
	}
	return a + b
}

func nominalMul(a, b uint64) uint64 {
	if a != 0 && b > maxNominal/a {
		return maxNominal
	}
	return a * b
}
