package rust

import (
	"regexp"
	"strings"
	"testing"

	"sdp/conformance"
	"sdp/gen/gentest"
	"sdp/gen/plan"
	"sdp/schema"
)

// unencodableSkips are the changes of the invalid-value corpus that a Rust
// value cannot hold, and why (docs/conformance.md, "Values that have no
// encoding"): a property of the owned types the backend generates, not of
// its encoders. Each reason comes with the check of the generated type of
// the changed value that makes it true.
var unencodableSkips = map[conformance.Change]struct {
	why   string
	holds func(g *generator, v *plan.Value, rust string) bool
}{
	conformance.ChangeEnum: {"an enum is a Rust enum of its declared values (TryFrom refuses other numbers)",
		func(g *generator, v *plan.Value, rust string) bool {
			return v.Op == plan.Enum && rust == g.name[v.Decl.Decl]
		}},
	conformance.ChangeNoVariant: {"a union is a Rust enum, which always holds one of its variants",
		func(g *generator, v *plan.Value, rust string) bool {
			return v.Op == plan.Union && rust == g.name[v.Decl.Decl]
		}},
	conformance.ChangeBadUTF8: {"a string is a Rust String, which holds UTF-8 only (outside unsafe code)",
		func(_ *generator, v *plan.Value, rust string) bool { return rust == stdString }},
	conformance.ChangeLength: {"a fixed array [N]T is a Rust array [T; N] (boxed or not), whose length is its type's",
		func(_ *generator, v *plan.Value, rust string) bool {
			return regexp.MustCompile(`^(` + regexp.QuoteMeta(stdBox) + `<)?\[.*; [0-9]+\]>?$`).MatchString(rust)
		}},
	conformance.ChangeNull: {"a field that is not optional is not a Rust Option, so it cannot be None",
		func(_ *generator, v *plan.Value, rust string) bool { return !strings.HasPrefix(rust, stdOption) }},
	conformance.ChangeRange: {"an integer is the Rust integer type of its width and sign (u8, u32, u64, i16, ...)",
		func(_ *generator, v *plan.Value, rust string) bool {
			return v.Op == plan.Scalar && rust == scalarName(v.Kind) && v.Kind.IsInteger()
		}},
	conformance.ChangeWrongType: {"Rust is statically typed: a String or struct field holds only a String or that struct",
		func(g *generator, v *plan.Value, rust string) bool {
			return rust == stdString || v.Op == plan.Struct && rust == g.name[v.Decl.Decl]
		}},
}

// TestUnencodable checks the invalid-value corpus against the Rust types:
// every change is one that Rust's owned types cannot hold (so the encoders
// have nothing to refuse, and no program is run), and the test checks the
// generated type of every changed value says so. A change this table does
// not skip, or whose value has another type than it claims, fails: it
// must then be made and refused by the encoders (try_encode and the
// others, with the reference's rule and path, as the Swift backend's test
// does).
func TestUnencodable(t *testing.T) {
	s := gentest.LoadSchema(t, conformance.UnencodableSchemaPath())
	cases, err := conformance.Unencodables(s)
	if err != nil {
		t.Fatal(err)
	}
	g := newGenerator(s, "unencodable")
	counts := map[conformance.Change]int{}
	for _, c := range cases {
		skip, ok := unencodableSkips[c.Change]
		if !ok {
			t.Errorf("case %s: change %s is not skipped, and the test makes no change", c.Name, c.Change)
			continue
		}
		v := targetValue(t, g, c)
		if c.Change != conformance.ChangeNull && v.Op == plan.Optional {
			v = v.Elem // the value inside the optional is changed
		}
		rust := g.owned(v)
		if !skip.holds(g, v, rust) {
			t.Errorf("case %s (%s): the value at %s is a %s, which can hold the change: it must be made and refused", c.Name, c.Change, c.TargetText(), rust)
		}
		counts[c.Change]++
	}
	for _, ch := range []conformance.Change{conformance.ChangeEnum, conformance.ChangeNoVariant, conformance.ChangeBadUTF8,
		conformance.ChangeLength, conformance.ChangeNull, conformance.ChangeRange, conformance.ChangeWrongType} {
		t.Logf("skipped %d cases of change %s: %s", counts[ch], ch, unencodableSkips[ch].why)
	}
}

// targetValue follows a case's target through the plan to the value it
// changes.
func targetValue(t *testing.T, g *generator, c conformance.Unencodable) *plan.Value {
	t.Helper()
	var v *plan.Value
	var decl schema.Decl = c.Type
	for _, st := range c.Target {
		if st.Field == nil {
			v = v.Elem
			continue
		}
		if v != nil {
			decl = v.Decl.Decl
		}
		v = nil
		for _, f := range g.plan.Of(decl).Fields {
			if f.Field == st.Field {
				v = f.Value
			}
		}
		if v == nil {
			t.Fatalf("case %s: no field %s in the plan", c.Name, st.Field.Name)
		}
	}
	return v
}
