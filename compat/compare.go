package compat

import (
	"fmt"
	"strings"

	"sdp/schema"
)

// comparer collects the changes of one declaration.
type comparer struct {
	t        *Type
	breaking bool
}

func (c *comparer) add(kind string, breaking bool, old, new schema.Pos, format string, args ...interface{}) {
	c.t.Changes = append(c.t.Changes, Change{Kind: kind, Breaking: breaking, Message: fmt.Sprintf(format, args...), Old: old, New: new})
	c.breaking = c.breaking || breaking
}

func kindName(d schema.Decl) string {
	switch d.(type) {
	case *schema.Struct:
		return "a struct"
	case *schema.Enum:
		return "an enum"
	}
	return "a union"
}

func (c *comparer) kind(od, nd schema.Decl) {
	c.add("kind", true, od.DeclPos(), nd.DeclPos(), "was %s, is now %s", kindName(od), kindName(nd))
}

func (c *comparer) doc(old, new []string, what string, op, np schema.Pos) {
	if strings.Join(old, "\n") != strings.Join(new, "\n") {
		c.add("doc", false, op, np, "%sdoc comment changed (not a wire change)", what)
	}
}

func (c *comparer) structs(o, n *schema.Struct) {
	if o.ID != n.ID {
		how := ""
		if !n.ExplicitID {
			how = fmt.Sprintf(" (a positional id: a struct was added, removed or moved before it; to keep the old id, declare @id(%d))", o.ID)
		}
		c.add("message_id", true, o.Pos, n.Pos, "message type id changed from %d to %d%s", o.ID, n.ID, how)
	}
	c.fields(o.Fields, n.Fields, "")
}

// fields compares two field lists (a struct's or an inline variant's); in
// prefixes the messages ("variant V: ").
func (c *comparer) fields(old, new []*schema.Field, in string) {
	oi, ni := map[string]int{}, map[string]int{}
	for i, f := range old {
		oi[f.Name] = i
	}
	for j, f := range new {
		ni[f.Name] = j
	}
	// A field whose name is in neither version, at a position where the
	// other version has one whose name is also new: a rename.
	renamed := map[int]bool{}
	for i, f := range old {
		if i < len(new) {
			g := new[i]
			_, gOld := oi[g.Name]
			_, fNew := ni[f.Name]
			if f.Name != g.Name && !gOld && !fNew {
				renamed[i] = true
				if sameType(f.Type, g.Type) {
					c.add("field_renamed", false, f.Pos, g.Pos, "%sfield %s renamed to %s (not a wire change)", in, f.Name, g.Name)
				} else {
					c.add("field_type", true, f.Pos, g.Pos, "%sfield %s (now %s): type changed from %s to %s", in, f.Name, g.Name, f.Type, g.Type)
				}
			}
		}
	}
	for i, f := range old {
		if _, ok := ni[f.Name]; !ok && !renamed[i] {
			c.add("field_removed", true, f.Pos, schema.Pos{}, "%sfield %s: %s removed", in, f.Name, f.Type)
		}
	}
	for j, g := range new {
		if _, ok := oi[g.Name]; !ok && !renamed[j] {
			c.add("field_added", true, schema.Pos{}, g.Pos, "%sfield %s: %s added", in, g.Name, g.Type)
		}
	}
	// Shared names: the ones off the longest run in the same order moved.
	var common []int // new positions of the shared names, in old order
	for _, f := range old {
		if j, ok := ni[f.Name]; ok {
			common = append(common, j)
		}
	}
	keep := increasing(common)
	for _, f := range old {
		j, ok := ni[f.Name]
		if !ok {
			continue
		}
		g := new[j]
		if !keep[j] {
			c.add("field_moved", true, f.Pos, g.Pos, "%sfield %s moved from position %d to %d", in, f.Name, oi[f.Name]+1, j+1)
		}
		if !sameType(f.Type, g.Type) {
			if f.Type.String() == g.Type.String() {
				c.add("field_type", true, f.Pos, g.Pos, "%sfield %s: type %s changed its wire shape", in, f.Name, f.Type)
			} else {
				c.add("field_type", true, f.Pos, g.Pos, "%sfield %s: type changed from %s to %s", in, f.Name, f.Type, g.Type)
			}
		}
		c.doc(f.Doc, g.Doc, in+"field "+f.Name+": ", f.Pos, g.Pos)
	}
}

// increasing marks the values of the longest strictly increasing
// subsequence of xs (positions that kept their relative order).
func increasing(xs []int) map[int]bool {
	n := len(xs)
	best, prev := make([]int, n), make([]int, n)
	end := -1
	for i := range xs {
		best[i], prev[i] = 1, -1
		for j := 0; j < i; j++ {
			if xs[j] < xs[i] && best[j]+1 > best[i] {
				best[i], prev[i] = best[j]+1, j
			}
		}
		if end < 0 || best[i] > best[end] {
			end = i
		}
	}
	keep := map[int]bool{}
	for i := end; i >= 0; i = prev[i] {
		keep[xs[i]] = true
	}
	return keep
}

func (c *comparer) enums(o, n *schema.Enum) {
	if o.Base != n.Base {
		c.add("enum_base", true, o.Pos, n.Pos, "underlying type changed from %s to %s", o.Base, n.Base)
	}
	byName := map[string]*schema.EnumValue{}
	for _, v := range n.Values {
		byName[v.Name] = v
	}
	for _, v := range o.Values {
		w := byName[v.Name]
		switch {
		case w != nil && w.Value != v.Value:
			c.add("enum_value_number", true, v.Pos, w.Pos, "value %s changed from %d to %d", v.Name, v.Value, w.Value)
		case w == nil && n.Value(v.Value) != nil:
			c.add("enum_value_renamed", false, v.Pos, n.Value(v.Value).Pos, "value %s renamed to %s (not a wire change)", v.Name, n.Value(v.Value).Name)
		case w == nil:
			c.add("enum_value_removed", true, v.Pos, schema.Pos{}, "value %s = %d removed", v.Name, v.Value)
		}
		if w != nil {
			c.doc(v.Doc, w.Doc, "value "+v.Name+": ", v.Pos, w.Pos)
		}
	}
	old := map[string]bool{}
	for _, v := range o.Values {
		old[v.Name] = true
	}
	for _, w := range n.Values {
		if !old[w.Name] && o.Value(w.Value) == nil {
			c.add("enum_value_added", true, schema.Pos{}, w.Pos, "value %s = %d added (readers of the old schema reject it)", w.Name, w.Value)
		}
	}
}

func (c *comparer) unions(o, n *schema.Union) {
	oi, ni := map[string]int{}, map[string]int{}
	for i, v := range o.Variants {
		oi[v.Name] = i
	}
	for j, v := range n.Variants {
		ni[v.Name] = j
	}
	renamed := map[int]bool{}
	for i, v := range o.Variants {
		if i < len(n.Variants) {
			w := n.Variants[i]
			_, wOld := oi[w.Name]
			_, vNew := ni[v.Name]
			if v.Name != w.Name && !wOld && !vNew {
				renamed[i] = true
				if sameVariant(v, w) {
					c.add("variant_renamed", false, v.Pos, w.Pos, "variant %s renamed to %s (not a wire change)", v.Name, w.Name)
				} else {
					c.add("variant_changed", true, v.Pos, w.Pos, "variant %s (now %s) changed from %s to %s", v.Name, w.Name, variantText(v), variantText(w))
				}
			}
		}
	}
	for i, v := range o.Variants {
		if _, ok := ni[v.Name]; !ok && !renamed[i] {
			c.add("variant_removed", true, v.Pos, schema.Pos{}, "variant %s (tag %d) removed", v.Name, v.Tag)
		}
	}
	for j, w := range n.Variants {
		if _, ok := oi[w.Name]; !ok && !renamed[j] {
			c.add("variant_added", true, schema.Pos{}, w.Pos, "variant %s (tag %d) added", w.Name, w.Tag)
		}
	}
	var common []int
	for _, v := range o.Variants {
		if j, ok := ni[v.Name]; ok {
			common = append(common, j)
		}
	}
	keep := increasing(common)
	for _, v := range o.Variants {
		j, ok := ni[v.Name]
		if !ok {
			continue
		}
		w := n.Variants[j]
		if v.Tag != w.Tag || !keep[j] {
			c.add("variant_moved", true, v.Pos, w.Pos, "variant %s moved: tag %d is now %d", v.Name, v.Tag, w.Tag)
		}
		switch {
		case v.Kind == schema.VariantInline && w.Kind == schema.VariantInline:
			c.fields(v.Fields, w.Fields, "variant "+v.Name+": ")
		case !sameVariant(v, w):
			c.add("variant_changed", true, v.Pos, w.Pos, "variant %s changed from %s to %s", v.Name, variantText(v), variantText(w))
		}
		c.doc(v.Doc, w.Doc, "variant "+v.Name+": ", v.Pos, w.Pos)
	}
}

func variantText(v *schema.Variant) string {
	switch v.Kind {
	case schema.VariantUnit:
		return "a unit variant"
	case schema.VariantStruct:
		return "struct " + v.Struct.Name
	}
	parts := make([]string, len(v.Fields))
	for i, f := range v.Fields {
		parts[i] = f.Name + ": " + f.Type.String()
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// sameType reports two field types (of different schemas) of the same wire
// shape.
func sameType(a, b *schema.Type) bool {
	return schema.TypeShape(a, declKey) == schema.TypeShape(b, declKey)
}

func sameVariant(a, b *schema.Variant) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case schema.VariantStruct:
		return declKey(a.Struct) == declKey(b.Struct)
	case schema.VariantInline:
		if len(a.Fields) != len(b.Fields) {
			return false
		}
		for i := range a.Fields {
			if !sameType(a.Fields[i].Type, b.Fields[i].Type) {
				return false
			}
		}
	}
	return true
}

// declKey is a declaration's wire shape without its message type id: what a
// field that holds it depends on.
func declKey(d schema.Decl) string {
	s := schema.Shape(d)
	if strings.HasPrefix(s, "@") {
		s = s[strings.IndexByte(s, ':')+1:]
	}
	return "{" + s + "}"
}
