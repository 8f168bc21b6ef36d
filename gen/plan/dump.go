package plan

import (
	"fmt"
	"strings"
)

// Dump writes the plan as text, one declaration after another: what every
// backend prints, in a form a person can read and a golden file can hold.
func (p *Plan) Dump() string {
	var b strings.Builder
	for i, d := range p.Decls {
		if i > 0 {
			b.WriteString("\n")
		}
		d.dump(&b)
	}
	return b.String()
}

func (d *Decl) dump(b *strings.Builder) {
	switch {
	case d.Struct != nil:
		fmt.Fprintf(b, "struct %s %s", d.Name(), sizes(d.Fixed, d.Min))
		if d.Plain != nil {
			fmt.Fprintf(b, " plain(depth %d)", d.Plain.Depth)
		}
		if d.Flat {
			b.WriteString(" flat")
		}
		if d.Tail != nil {
			fmt.Fprintf(b, " bulk-tail(head %d, %s, elem %d)", d.Tail.Head, d.Tail.Field.Name, d.Tail.Elem)
		}
		b.WriteString("\n")
		dumpSteps(b, d.Steps, "  ")
	case d.Enum != nil:
		fmt.Fprintf(b, "enum %s %s %d values\n", d.Name(), d.Enum.Base, len(d.Enum.Values))
	case d.Union != nil:
		fmt.Fprintf(b, "union %s %s\n", d.Name(), sizes(d.Fixed, d.Min))
		for _, v := range d.Variants {
			fmt.Fprintf(b, "  tag %d %s %s\n", v.Tag, v.Name, sizes(v.Fixed, -1))
			dumpSteps(b, v.Steps, "    ")
		}
	}
}

func sizes(fixed, min int) string {
	switch {
	case fixed >= 0:
		return fmt.Sprintf("fixed %d", fixed)
	case min >= 0:
		return fmt.Sprintf("min %d", min)
	}
	return "variable"
}

func dumpSteps(b *strings.Builder, steps []Step, indent string) {
	for _, s := range steps {
		if s.Run == nil {
			f := s.Fields[0]
			fmt.Fprintf(b, "%s%s @%s: %s\n", indent, fieldName(f), offset(f.Offset), f.Value)
			continue
		}
		fmt.Fprintf(b, "%srun %d bytes, depth +%d:\n", indent, s.Run.Size, s.Run.Depth)
		for _, l := range s.Run.Leaves {
			var names []string
			for _, f := range l.Path {
				if f == nil {
					names = append(names, "(struct)")
				} else {
					names = append(names, f.Name)
				}
			}
			fmt.Fprintf(b, "%s  +%d %s: %s\n", indent, l.Offset, strings.Join(names, "."), l.Value)
		}
	}
}

func fieldName(f *Field) string {
	if f.Name == "" {
		return "(struct)"
	}
	return f.Name
}

func offset(o int) string {
	if o < 0 {
		return "var"
	}
	return fmt.Sprint(o)
}

// String spells a value's plan: "array(min 12, charge 64) of struct Plugin".
func (v *Value) String() string {
	switch v.Op {
	case Scalar:
		return v.Kind.String()
	case Enum:
		return fmt.Sprintf("enum %s(%s)", v.Decl.Name(), v.Kind)
	case Struct, Union:
		s := v.Op.String() + " " + v.Decl.Name()
		if v.Plain != nil {
			s += " plain"
		}
		return s
	case Bytes, FixedBytes:
		return lenPrefix(v) + v.Op.String()
	case Numbers, FixedNumbers:
		return lenPrefix(v) + v.Op.String() + " " + v.Kind.String()
	case PlainArray, FixedPlain:
		return fmt.Sprintf("%s%s(%d bytes, depth %d) of %s", lenPrefix(v), v.Op, v.Plain.Size, v.Plain.Depth, v.Elem)
	case Array:
		s := fmt.Sprintf("array(min %d", v.MinElem)
		if v.Charge > 0 {
			s += fmt.Sprintf(", charge %d", v.Charge)
		}
		return s + ") of " + v.Elem.String()
	case FixedArray:
		return fmt.Sprintf("[%d] of %s", v.Len, v.Elem)
	case Optional:
		s := "optional"
		if v.Boxed {
			s += "(boxed"
			if v.Charge > 0 {
				s += fmt.Sprintf(", charge %d", v.Charge)
			}
			s += ")"
		}
		return s + " " + v.Elem.String()
	}
	return v.Op.String()
}

func lenPrefix(v *Value) string {
	if v.Op.Counted() {
		return ""
	}
	return fmt.Sprintf("[%d] ", v.Len)
}
