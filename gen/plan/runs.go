package plan

import "sdp/schema"

// RunRule says which fields a backend reads and writes together as one
// run. The plan's own steps (Decl.Steps, Variant.Steps) follow NestedRuns;
// a backend whose reader takes runs of another shape (a fixed-size array
// of at most 64 bytes, a struct module format) groups the same fields with
// its rule through Group, so the grouping is still decided here, once.
type RunRule struct {
	// Enums lets enums join a run (their values are checked with it).
	Enums bool
	// Structs lets structs made only of run-able fields join a run, as
	// their leaves.
	Structs bool
	// FixedNumbers lets fixed arrays of numbers join a run, as one leaf
	// (Op FixedNumbers or FixedBytes).
	FixedNumbers bool
	// NestedNumbers lets fixed arrays of fixed arrays of numbers ([2][3]u16,
	// Op FixedArray) join a run, as one leaf.
	NestedNumbers bool
	// CheckedLast ends a run after a field whose decoding can fail other
	// than by truncation (a bool, an enum, a nested struct with Structs: its
	// depth; Value.Rules has more than RuleTruncated). A reader that checks
	// the run's size at once and reports truncation when it fails then reports
	// the error a reader of the fields one by one would meet first.
	CheckedLast bool
	// MaxSize ends a run before it would pass this many bytes (0: no limit).
	MaxSize int
	// MinFields is the fewest fields a run has; fewer are coded one by one.
	MinFields int
}

// NestedRuns is the rule of the plan's own steps: scalars, enums and
// nested fixed-layout structs, any number of fields (a single scalar too: a
// run's one bounds check is cheaper than a call per field).
var NestedRuns = RunRule{Enums: true, Structs: true, MinFields: 1}

// fits reports whether a value can be part of a run under the rule.
func (r RunRule) fits(v *Value) bool {
	switch v.Op {
	case Scalar:
		return true
	case Enum:
		return r.Enums
	case FixedNumbers, FixedBytes:
		return r.FixedNumbers
	case FixedArray:
		return r.NestedNumbers && numbersOnly(v.Elem)
	case Struct:
		if !r.Structs {
			return false
		}
		for _, f := range v.Decl.Fields {
			if !r.fits(f.Value) {
				return false
			}
		}
		return true
	}
	return false
}

// numbersOnly reports a fixed array of numbers, at any depth of fixed
// arrays.
func numbersOnly(v *Value) bool {
	switch v.Op {
	case FixedNumbers, FixedBytes:
		return true
	case FixedArray:
		return numbersOnly(v.Elem)
	}
	return false
}

// fixedLayout reports whether a value can be part of a run of the plan's
// own steps: a scalar, an enum, or a struct made only of those.
func fixedLayout(v *Value) bool { return NestedRuns.fits(v) }

// runs groups fields into the plan's own steps (NestedRuns).
func runs(fields []*Field) []Step { return Group(fields, NestedRuns) }

// Group groups fields into steps under a rule: consecutive fields the rule
// lets into a run, with at least one leaf and one byte between them and at
// least rule.MinFields fields, form a run; every other field stands alone.
func Group(fields []*Field, rule RunRule) []Step {
	var out []Step
	var cur []*Field
	var r *Run
	flush := func() {
		if len(cur) == 0 {
			return
		}
		if len(r.Leaves) == 0 || r.Size == 0 || len(cur) < rule.MinFields {
			for _, f := range cur {
				out = append(out, Step{Fields: []*Field{f}})
			}
		} else {
			out = append(out, Step{Fields: cur, Run: r})
		}
		cur, r = nil, nil
	}
	for _, f := range fields {
		if !rule.fits(f.Value) {
			flush()
			out = append(out, Step{Fields: []*Field{f}})
			continue
		}
		if r != nil && rule.MaxSize > 0 && r.Size+f.Value.Fixed > rule.MaxSize {
			flush()
		}
		if r == nil {
			r = &Run{}
		}
		cur = append(cur, f)
		if d := r.add(f.Value, []*schema.Field{f.Field}, nil); d > r.Depth {
			r.Depth = d
		}
		if rule.CheckedLast && len(f.Value.Rules()) > 1 {
			flush()
		}
	}
	flush()
	return out
}

// add appends the leaves of v, reached through path, at the run's current
// size and returns the nesting depth v adds.
func (r *Run) add(v *Value, path []*schema.Field, owner *schema.Struct) int {
	if v.Op != Struct {
		// A Scalar, an Enum, or a whole fixed array of numbers (nested too).
		r.Leaves = append(r.Leaves, Leaf{Path: path, Owner: owner, Value: v, Offset: r.Size})
		r.Size += v.Min
		return 0
	}
	depth := 0
	for _, f := range v.Decl.Fields {
		p := append(append([]*schema.Field(nil), path...), f.Field)
		if d := r.add(f.Value, p, v.Decl.Struct); d > depth {
			depth = d
		}
	}
	return depth + 1
}

// Flatten returns the leaves of one fixed-layout value (a struct, scalar or
// enum field on its own), with offsets from its start, and its size: what
// an encoder writes when it reserves the field's bytes at once.
func Flatten(f *Field) ([]Leaf, int) {
	r := &Run{}
	r.add(f.Value, []*schema.Field{f.Field}, nil)
	return r.Leaves, r.Size
}

// FixedLayout reports whether the field's value has a fixed layout (it
// could be part of a run).
func (f *Field) FixedLayout() bool { return fixedLayout(f.Value) }

// flat reports whether every field has a fixed layout or is a string, with
// at least one string.
func flat(fields []*Field) bool {
	strs := 0
	for _, f := range fields {
		switch {
		case f.Value.Op == String:
			strs++
		case !fixedLayout(f.Value):
			return false
		}
	}
	return strs > 0
}

// bulkTail finds a fixed-size head followed by a last field that is an
// array copied in one piece.
func bulkTail(fields []*Field) *BulkTail {
	if len(fields) == 0 {
		return nil
	}
	last := fields[len(fields)-1]
	switch last.Value.Op {
	case Bytes, Numbers, PlainArray:
	default:
		return nil
	}
	head := 4
	for _, f := range fields[:len(fields)-1] {
		if f.Value.Fixed < 0 || f.Value.Op == Union {
			return nil
		}
		head += f.Value.Fixed
	}
	return &BulkTail{Head: head, Field: last, Elem: last.Value.Elem.Fixed}
}
