package plan

import "sdp/schema"

// fixedLayout reports whether a value can be part of a run: a scalar, an
// enum, or a struct made only of those (recursively).
func fixedLayout(v *Value) bool {
	switch v.Op {
	case Scalar, Enum:
		return true
	case Struct:
		for _, f := range v.Decl.Fields {
			if !fixedLayout(f.Value) {
				return false
			}
		}
		return true
	}
	return false
}

// runs groups fields into steps: consecutive fixed-layout fields with at
// least one leaf between them form a run (a single scalar too: a run's one
// bounds check is cheaper than a call per field); every other field stands
// alone.
func runs(fields []*Field) []Step {
	var out []Step
	var cur []*Field
	flush := func() {
		if len(cur) == 0 {
			return
		}
		r := &Run{}
		for _, f := range cur {
			if d := r.add(f.Value, []*schema.Field{f.Field}, nil); d > r.Depth {
				r.Depth = d
			}
		}
		if len(r.Leaves) == 0 || r.Size == 0 {
			for _, f := range cur {
				out = append(out, Step{Fields: []*Field{f}})
			}
		} else {
			out = append(out, Step{Fields: cur, Run: r})
		}
		cur = nil
	}
	for _, f := range fields {
		if fixedLayout(f.Value) {
			cur = append(cur, f)
			continue
		}
		flush()
		out = append(out, Step{Fields: []*Field{f}})
	}
	flush()
	return out
}

// add appends the leaves of v, reached through path, at the run's current
// size and returns the nesting depth v adds.
func (r *Run) add(v *Value, path []*schema.Field, owner *schema.Struct) int {
	if v.Op != Struct {
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
