package schema

import "testing"

func TestNominalSizes(t *testing.T) {
	s := mustParse(t, `
struct Big { a: [64]u64 }
struct Holder { items: []?Big, nums: []f32, names: []?str }
enum E: u8 { A }
union U { Unit, Wide { a: [8]u64, e: E }, Big }
struct Node { pad: ?[64]u64, next: ?Node, kids: []Node }
struct Chain { data: [4096]u64, next: ?Chain }
struct Empty {}
struct Uses { us: []U, e: Empty, es: [3]?Empty }
`)
	cases := []struct {
		t       *Type
		nominal uint64
		charged bool
	}{
		{s.Struct("Holder").Fields[0].Type.Elem, 8 + 512, true},
		{s.Struct("Holder").Fields[1].Type.Elem, 4, false},
		{s.Struct("Holder").Fields[2].Type.Elem, 8 + 24, false},
		{s.Struct("Uses").Fields[0].Type.Elem, 8 + 512, true},
		{s.Struct("Uses").Fields[1].Type, 1, true}, // min size 0: no array can hold it
		{s.Struct("Uses").Fields[2].Type, 3 * 9, false},
		{s.Struct("Node").Fields[2].Type.Elem, 8 + 512 + 8 + 24, true},
	}
	for i, c := range cases {
		if got := c.t.NominalSize(); got != c.nominal {
			t.Errorf("%d: %s nominal size %d, want %d", i, c.t, got, c.nominal)
		}
		if got := c.t.Charged(); got != c.charged {
			t.Errorf("%d: %s charged %v, want %v", i, c.t, got, c.charged)
		}
	}
	if got := s.Struct("Holder").Fields[0].Type.ArrayCharge(); got != 520 {
		t.Errorf("[]?Big charge %d, want 520", got)
	}
	if got := s.Struct("Holder").Fields[1].Type.ArrayCharge(); got != 0 {
		t.Errorf("[]f32 charge %d, want 0", got)
	}
	// ?Node: Node's nominal size 552 > 32 × (1 + 2): charged when present.
	if got := s.Struct("Node").Fields[1].Type.PresenceCharge(); got != 552 {
		t.Errorf("?Node presence charge %d, want 552", got)
	}
	// ?[64]u64 is inline (not boxed): no presence charge.
	if got := s.Struct("Node").Fields[0].Type.PresenceCharge(); got != 0 {
		t.Errorf("?[64]u64 presence charge %d, want 0", got)
	}
	// ?Chain: 32 KiB nominal, but at least 32 KiB on the wire when present.
	if got := s.Struct("Chain").Fields[1].Type.PresenceCharge(); got != 0 {
		t.Errorf("?Chain presence charge %d, want 0", got)
	}
	if !s.HasMemoryCharges() {
		t.Error("HasMemoryCharges is false")
	}
	plain := mustParse(t, `struct P { a: []u32, b: []str, c: ?P, d: []?f64 }`)
	if plain.HasMemoryCharges() {
		t.Error("a schema without charged types reports charges")
	}
	if DefaultMemoryLimit(10) != 320+1<<20 || DefaultMemoryLimit(1<<63) != 1<<64-1 {
		t.Error("DefaultMemoryLimit")
	}
	huge := mustParse(t, `struct H { a: [100000][1000]str }`)
	if got := huge.Struct("H").NominalSize(); got != 24*1000*100000 {
		t.Errorf("nominal size of H: %d", got)
	}
	if nominalMul(1<<40, 1<<20) != maxNominal || nominalAdd(maxNominal, 1) != maxNominal {
		t.Error("nominal sizes do not saturate")
	}
}
