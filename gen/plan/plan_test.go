package plan_test

import (
	"fmt"
	"testing"

	"sdp/codec"
	"sdp/conformance/randschema"
	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/gen/plan"
	"sdp/schema"
)

// dumpGen makes the plan's text dump a "generator", so that the golden
// harness (testdata/<schema>/plan.txt, -update) holds the plan of every
// corpus schema: a change of any fast-path decision shows in its diff.
func dumpGen(s *schema.Schema, _ gen.Options) ([]gen.File, error) {
	return []gen.File{{Path: "plan.txt", Content: []byte(plan.Build(s).Dump())}}, nil
}

func TestGolden(t *testing.T) {
	gentest.GoldenEach(t, dumpGen, gentest.CorpusSchemas(t))
}

// TestInvariants checks, on the corpus and on random schemas (plain and
// adversarial names, seeds 1-40), what printers rely on.
func TestInvariants(t *testing.T) {
	schemas := gentest.CorpusSchemas(t)
	for seed := uint64(1); seed <= 40; seed++ {
		for _, adv := range []bool{false, true} {
			src := randschema.Schema(seed, randschema.Config{Adversarial: adv})
			s, err := schema.Parse(randschema.SuiteName(seed, adv)+".sdp", src)
			if err != nil {
				t.Fatal(err)
			}
			schemas = append(schemas, s)
		}
	}
	rules := map[string]bool{}
	for _, r := range codec.Rules {
		rules[r] = true
	}
	for _, s := range schemas {
		p := plan.Build(s)
		if again := plan.Build(s).Dump(); again != p.Dump() {
			t.Fatalf("%s: two builds of the plan differ", s.Name)
		}
		if len(p.Decls) != len(s.Decls) {
			t.Fatalf("%s: %d decls planned of %d", s.Name, len(p.Decls), len(s.Decls))
		}
		for i, d := range p.Decls {
			if d.Decl != s.Decls[i] || p.Of(s.Decls[i]) != d {
				t.Fatalf("%s: decl %d out of order", s.Name, i)
			}
			if d.Ref == nil || d.Ref.Decl != d || d.Ref.Fixed != d.Fixed || d.Ref.Min != d.Min {
				t.Errorf("%s.%s: Ref does not refer to the declaration", s.Name, d.Name())
			}
			if d.Struct != nil {
				checkFields(t, s.Name+"."+d.Name(), d.Fields, d.Steps, 0, d.Fixed, d.Min)
			}
			for _, v := range d.Variants {
				if (v.Carries != nil) != (v.Variant.Kind == schema.VariantStruct) || v.Carries != nil && (len(v.Fields) != 1 || v.Fields[0] != v.Carries) {
					t.Errorf("%s.%s.%s: Carries is wrong", s.Name, d.Name(), v.Name)
				}
				checkFields(t, s.Name+"."+d.Name()+"."+v.Name, v.Fields, v.Steps, 1, v.Fixed, -1)
			}
			walkValues(d, func(v *plan.Value) {
				checkValue(t, s.Name+"."+d.Name(), v)
				for _, r := range v.Rules() {
					if !rules[string(r)] {
						t.Errorf("%s: rule %q is not one of codec.Rules", s.Name, r)
					}
				}
			})
		}
	}
}

// checkFields checks that steps cover fields once, in order; that runs'
// leaves are contiguous and sum to the run's size; that constant offsets
// add up; and that fixed and minimum sizes agree with the model's.
func checkFields(t *testing.T, where string, fields []*plan.Field, steps []plan.Step, extra, fixed, min int) {
	t.Helper()
	i := 0
	for _, st := range steps {
		if st.Run == nil && len(st.Fields) != 1 {
			t.Fatalf("%s: a lone step with %d fields", where, len(st.Fields))
		}
		for _, f := range st.Fields {
			if i >= len(fields) || fields[i] != f {
				t.Fatalf("%s: steps do not cover the fields in order", where)
			}
			i++
			if st.Run != nil && !f.FixedLayout() {
				t.Errorf("%s: field %s in a run has no fixed layout", where, f.Name)
			}
		}
		if st.Run != nil {
			off := 0
			for _, l := range st.Run.Leaves {
				if l.Offset != off || (l.Value.Op != plan.Scalar && l.Value.Op != plan.Enum) {
					t.Errorf("%s: leaf at %d, want %d (%s)", where, l.Offset, off, l.Value)
				}
				off += l.Value.Fixed
			}
			if off != st.Run.Size || off == 0 {
				t.Errorf("%s: run of %d bytes has leaves of %d", where, st.Run.Size, off)
			}
		}
	}
	if i != len(fields) {
		t.Fatalf("%s: steps cover %d of %d fields", where, i, len(fields))
	}
	sum, mins, off := extra, extra, 0
	for _, f := range fields {
		if f.Offset != off {
			t.Errorf("%s: field %s at %d, want %d", where, f.Name, f.Offset, off)
		}
		mins += f.Value.Min
		if sum >= 0 && f.Value.Fixed >= 0 {
			sum += f.Value.Fixed
		} else {
			sum = -1
		}
		if off >= 0 && f.Value.Fixed >= 0 {
			off += f.Value.Fixed
		} else {
			off = -1
		}
	}
	if sum != fixed {
		t.Errorf("%s: fixed size %d, fields add to %d", where, fixed, sum)
	}
	if min >= 0 && mins != min {
		t.Errorf("%s: minimum size %d, fields add to %d", where, min, mins)
	}
}

// checkValue checks that each value's op matches its type.
func checkValue(t *testing.T, where string, v *plan.Value) {
	t.Helper()
	k := v.Type.Kind
	ok := false
	switch v.Op {
	case plan.Scalar:
		ok = k.IsScalar() && v.Kind == k
	case plan.Enum:
		ok = k == schema.EnumRef && v.Kind == v.Type.Enum.Base
	case plan.String:
		ok = k == schema.String
	case plan.Bytes, plan.FixedBytes:
		ok = v.Type.Elem.Kind == schema.U8 && v.Op.Counted() == (k == schema.Array)
	case plan.Numbers, plan.FixedNumbers:
		ok = v.Type.Elem.IsNumeric() && v.Kind != schema.U8 && v.Op.Counted() == (k == schema.Array)
	case plan.PlainArray, plan.FixedPlain:
		_, plain := gen.PlainArray(v.Type)
		ok = plain && v.Plain != nil && v.Op.Counted() == (k == schema.Array)
	case plan.Array:
		ok = k == schema.Array && v.MinElem == v.Type.Elem.MinSize() && v.MinElem > 0 && v.Charge == v.Type.ArrayCharge()
	case plan.FixedArray:
		ok = k == schema.FixedArray && v.Len == v.Type.Len
	case plan.Optional:
		ok = k == schema.Optional && v.Boxed == v.Type.Boxed && v.Charge == v.Type.PresenceCharge()
	case plan.Struct:
		ok = k == schema.StructRef && v.Decl.Struct == v.Type.Struct
	case plan.Union:
		ok = k == schema.UnionRef && v.Decl.Union == v.Type.Union
	}
	if !ok {
		t.Errorf("%s: a %s planned as %s", where, v.Type, v)
	}
	if v.Op.IsArray() != (k == schema.Array || k == schema.FixedArray) || v.Op.FixedLength() != (k == schema.FixedArray) {
		t.Errorf("%s: IsArray or FixedLength is wrong for %s", where, v.Type)
	}
}

// walkValues calls f for every value the decl's fields hold, elements
// included (not through references to other decls).
func walkValues(d *plan.Decl, f func(*plan.Value)) {
	var walk func(v *plan.Value)
	walk = func(v *plan.Value) {
		f(v)
		if v.Elem != nil {
			walk(v.Elem)
		}
	}
	for _, fl := range d.Fields {
		walk(fl.Value)
	}
	for _, vr := range d.Variants {
		for _, fl := range vr.Fields {
			walk(fl.Value)
		}
	}
}

// TestGroup checks the run rules on one struct: which fields join a run
// under each rule, and where MaxSize and MinFields split them.
func TestGroup(t *testing.T) {
	src := `enum E: u8 { A = 0 }
struct P { x: f32, y: f32 }
struct S { a: u8, b: E, c: P, d: [4]u16, e: u64, f: str, g: bool, h: u32, i: [8]u64 }
struct T { a: [2][3]u16, b: bool, c: u8, d: E, e: [2]bool, f: [2][2]u8 }`
	s, err := schema.Parse("g.sdp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fields := plan.Build(s).Of(s.Struct("S")).Fields
	shape := func(steps []plan.Step) string {
		out := ""
		for _, st := range steps {
			if st.Run == nil {
				out += st.Fields[0].Name + " "
				continue
			}
			out += "("
			for _, f := range st.Fields {
				out += f.Name
			}
			out += fmt.Sprintf(":%d) ", st.Run.Size)
		}
		return out
	}
	for _, c := range []struct {
		rule plan.RunRule
		want string
	}{
		{plan.NestedRuns, "(abc:10) d (e:8) f (gh:5) i "},
		{plan.RunRule{MinFields: 2}, "a b c d e f (gh:5) i "},
		{plan.RunRule{Enums: true, FixedNumbers: true, MinFields: 1}, "(ab:2) c (de:16) f (ghi:69) "},
		{plan.RunRule{Enums: true, FixedNumbers: true, MaxSize: 64, MinFields: 2}, "(ab:2) c (de:16) f (gh:5) i "},
	} {
		if got := shape(plan.Group(fields, c.rule)); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.rule, got, c.want)
		}
	}
	// Nested arrays of numbers, and runs that end at a checked field.
	fields = plan.Build(s).Of(s.Struct("T")).Fields
	for _, c := range []struct {
		rule plan.RunRule
		want string
	}{
		{plan.RunRule{Enums: true, FixedNumbers: true, MinFields: 1}, "a (bcd:3) e f "},
		{plan.RunRule{Enums: true, FixedNumbers: true, NestedNumbers: true, MinFields: 1}, "(abcd:15) e (f:4) "},
		{plan.RunRule{Enums: true, FixedNumbers: true, NestedNumbers: true, CheckedLast: true, MinFields: 1}, "(ab:13) (cd:2) e (f:4) "},
	} {
		if got := shape(plan.Group(fields, c.rule)); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.rule, got, c.want)
		}
	}
}
