package schema

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Layouts (`sdp layout`, and the editor's hover): where each field of a
// struct or union variant sits in the wire encoding, like pahole for C
// structs.
//
// An offset is exact while every field before it has a fixed size. After a
// field of variable size it counts from where that field ends: the N-th
// variable-size field of a struct (or variant) ends at vN, so `v1+4` is 4
// bytes after the end of the first variable-size field, and `v2` is right
// after the second one.

// Layout is the wire layout of one declaration. Its JSON form (MarshalJSON)
// has snake_case keys.
type Layout struct {
	Kind string // "struct", "enum" or "union"
	Name string
	Decl Decl

	// Size is the fixed encoded size when Fixed, else the minimum.
	Size  int
	Fixed bool

	// Structs only.
	Plain      bool
	ID         uint16
	ExplicitID bool
	// Structs and unions.
	Recursive bool

	Fingerprint string

	Fields   []FieldLayout   // structs
	Variants []VariantLayout // unions

	// Enums only.
	Base   string // wire type
	Values []ValueLayout
}

// MarshalJSON writes struct-only keys (plain, message_type_id, explicit_id)
// for structs, false included, and only for them.
func (l *Layout) MarshalJSON() ([]byte, error) {
	var w struct {
		Kind        string          `json:"kind"`
		Name        string          `json:"name"`
		Size        int             `json:"size"`
		Fixed       bool            `json:"fixed"`
		Plain       *bool           `json:"plain,omitempty"`
		ID          *uint16         `json:"message_type_id,omitempty"`
		ExplicitID  *bool           `json:"explicit_id,omitempty"`
		Recursive   *bool           `json:"recursive,omitempty"`
		Fingerprint string          `json:"fingerprint"`
		Fields      []FieldLayout   `json:"fields,omitempty"`
		Variants    []VariantLayout `json:"variants,omitempty"`
		Base        string          `json:"wire_type,omitempty"`
		Values      []ValueLayout   `json:"values,omitempty"`
	}
	w.Kind, w.Name, w.Size, w.Fixed, w.Fingerprint = l.Kind, l.Name, l.Size, l.Fixed, l.Fingerprint
	w.Variants, w.Base, w.Values = l.Variants, l.Base, l.Values
	if l.Kind != "enum" {
		w.Recursive = &l.Recursive
	}
	if l.Kind == "struct" {
		w.Plain, w.ID, w.ExplicitID = &l.Plain, &l.ID, &l.ExplicitID
		w.Fields = l.Fields
		if w.Fields == nil {
			w.Fields = []FieldLayout{}
		}
	}
	return json.Marshal(w)
}

// FieldLayout is one field: where it starts and how big it is.
type FieldLayout struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Field *Field `json:"-"`
	// OffsetText is Offset written as in the table: "8", "v1", "v1+4".
	OffsetText string `json:"offset"`
	// Offset is where the field starts (see Offset).
	Offset Offset `json:"offset_parts"`
	// Size is the field's encoded size when Fixed, else its minimum.
	Size  int  `json:"size"`
	Fixed bool `json:"fixed"`
	// Ends names, for a variable-size field, the offset where it ends: "v1".
	Ends string `json:"ends_at,omitempty"`
}

// Offset is a field's start: Delta bytes after the end of the Base-th
// variable-size field before it, or after the start when Base is 0.
type Offset struct {
	Base  int `json:"var"`
	Delta int `json:"delta"`
}

// Exact reports an offset from the start of the value.
func (o Offset) Exact() bool { return o.Base == 0 }

func (o Offset) String() string {
	switch {
	case o.Base == 0:
		return strconv.Itoa(o.Delta)
	case o.Delta == 0:
		return "v" + strconv.Itoa(o.Base)
	}
	return fmt.Sprintf("v%d+%d", o.Base, o.Delta)
}

// VariantLayout is one union variant. Offsets count from the start of the
// union's encoding, whose first byte is the tag.
type VariantLayout struct {
	Name   string        `json:"name"`
	Tag    uint8         `json:"tag"`
	Kind   string        `json:"kind"`             // "unit", "inline" or "struct"
	Struct string        `json:"struct,omitempty"` // the struct a struct variant carries
	Size   int           `json:"size"`             // tag included
	Fixed  bool          `json:"fixed"`
	Fields []FieldLayout `json:"fields"` // the tag, then the fields (or the struct)
}

// ValueLayout is one enum value.
type ValueLayout struct {
	Name  string `json:"name"`
	Value uint32 `json:"value"`
}

// DeclLayout computes d's layout. plain reports whether a struct is plain
// (bulk-copied; gen.PlainStruct decides): the schema package does not own
// that rule, so the caller passes it, or nil to report no struct as plain.
func DeclLayout(d Decl, plain func(*Struct) bool) *Layout {
	l := &Layout{Name: d.DeclName(), Decl: d, Fingerprint: FormatFingerprint(Fingerprint(d))}
	switch d := d.(type) {
	case *Struct:
		l.Kind = "struct"
		l.Size, l.Fixed = declSize(d.MinSize(), d.fixedSize)
		l.Plain = plain != nil && plain(d)
		l.ID, l.ExplicitID, l.Recursive = d.ID, d.ExplicitID, d.Recursive
		l.Fields = FieldsLayout(d.Fields, 0)
	case *Union:
		l.Kind = "union"
		l.Size, l.Fixed = declSize(d.MinSize(), d.fixedSize)
		l.Recursive = d.Recursive
		for _, v := range d.Variants {
			vl := VariantLayout{Name: v.Name, Tag: v.Tag}
			var fs []*Field
			switch v.Kind {
			case VariantUnit:
				vl.Kind = "unit"
			case VariantInline:
				vl.Kind = "inline"
				fs = v.Fields
			case VariantStruct:
				vl.Kind, vl.Struct = "struct", v.Struct.Name
				fs = []*Field{{Name: v.Struct.Name, Pos: v.Pos, Type: &Type{Kind: StructRef, Struct: v.Struct, Pos: v.Pos}}}
			}
			vl.Fields = append([]FieldLayout{{Name: "(tag)", Type: "u8", OffsetText: "0", Size: 1, Fixed: true}}, FieldsLayout(fs, 1)...)
			vl.Size, vl.Fixed = 1, true
			for _, f := range vl.Fields[1:] {
				vl.Size += f.Size
				vl.Fixed = vl.Fixed && f.Fixed
			}
			l.Variants = append(l.Variants, vl)
		}
	case *Enum:
		l.Kind = "enum"
		l.Base = d.Base.String()
		l.Size, l.Fixed = d.Base.Size(), true
		for _, v := range d.Values {
			l.Values = append(l.Values, ValueLayout{Name: v.Name, Value: v.Value})
		}
	}
	return l
}

func declSize(min, fixed int) (int, bool) {
	if fixed >= 0 {
		return fixed, true
	}
	return min, false
}

// FieldsLayout lays out fields that start at byte start (0 for a struct, 1
// after a union's tag).
func FieldsLayout(fs []*Field, start int) []FieldLayout {
	out := make([]FieldLayout, 0, len(fs))
	off := Offset{Delta: start}
	for _, f := range fs {
		fl := FieldLayout{Name: f.Name, Type: f.Type.String(), Field: f, Offset: off, OffsetText: off.String()}
		if n, ok := f.Type.FixedSize(); ok {
			fl.Size, fl.Fixed = n, true
			off.Delta += n
		} else {
			fl.Size = f.Type.MinSize()
			off = Offset{Base: off.Base + 1}
			fl.Ends = off.String()
		}
		out = append(out, fl)
	}
	return out
}

// SizeText is a size as the table writes it: "8" or "variable (min 4)".
func SizeText(size int, fixed bool) string {
	if fixed {
		return strconv.Itoa(size)
	}
	return fmt.Sprintf("variable (min %d)", size)
}

// sizeWords is a size for a headline: "fixed size 8", "variable size, min 4".
func sizeWords(size int, fixed bool) string {
	if fixed {
		return fmt.Sprintf("fixed size %d", size)
	}
	return fmt.Sprintf("variable size, min %d", size)
}

// Headline is the first line of d's table: kind, name, size, and what
// applies of plain, message type id and fingerprint.
func (l *Layout) Headline() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", l.Kind, l.Name)
	switch {
	case l.Kind == "enum":
		fmt.Fprintf(&b, "%s, fixed size %d", l.Base, l.Size)
	default:
		b.WriteString(sizeWords(l.Size, l.Fixed))
	}
	if l.Kind == "struct" {
		if l.Plain {
			b.WriteString(", plain")
		} else {
			b.WriteString(", not plain")
		}
		fmt.Fprintf(&b, ", message type id %d", l.ID)
		if !l.ExplicitID {
			b.WriteString(" (by position)")
		}
	}
	if l.Recursive {
		b.WriteString(", recursive")
	}
	fmt.Fprintf(&b, ", fingerprint %s", l.Fingerprint)
	return b.String()
}

// WriteText writes the layout as a table: the headline, then one row per
// field (per variant for a union, per value for an enum).
func (l *Layout) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(l.Headline() + "\n")
	switch l.Kind {
	case "struct":
		writeFields(&b, "    ", l.Fields)
	case "union":
		for _, v := range l.Variants {
			what := v.Kind
			if v.Struct != "" {
				what = "struct " + v.Struct
			}
			fmt.Fprintf(&b, "    variant %s (tag %d, %s): %s\n", v.Name, v.Tag, what, sizeWords(v.Size, v.Fixed))
			writeFields(&b, "        ", v.Fields)
		}
	case "enum":
		width := 0
		for _, v := range l.Values {
			if len(v.Name) > width {
				width = len(v.Name)
			}
		}
		for _, v := range l.Values {
			fmt.Fprintf(&b, "    %-*s = %d\n", width, v.Name, v.Value)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFields(b *strings.Builder, indent string, fs []FieldLayout) {
	rows := [][]string{{"offset", "size", "field", "type", ""}}
	for _, f := range fs {
		ends := ""
		if f.Ends != "" {
			ends = "ends at " + f.Ends
		}
		rows = append(rows, []string{f.OffsetText, SizeText(f.Size, f.Fixed), f.Name, f.Type, ends})
	}
	width := make([]int, 4)
	for _, r := range rows {
		for i := range width {
			if len(r[i]) > width[i] {
				width[i] = len(r[i])
			}
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%s%-*s  %-*s  %-*s  %-*s  %s", indent, width[0], r[0], width[1], r[1], width[2], r[2], width[3], r[3], r[4])
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}
