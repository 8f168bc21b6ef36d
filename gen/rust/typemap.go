package rust

import (
	"fmt"
	"strings"

	"sdp/gen/plan"
	"sdp/schema"
)

// Fully qualified standard-library names: a schema may declare types named
// String, Vec, Option, Result, Box or Error, which the generated modules
// import, so the generated code never relies on the prelude's type names.
const (
	stdString = "::std::string::String"
	stdVec    = "::std::vec::Vec"
	stdOption = "::core::option::Option"
	stdBox    = "::std::boxed::Box"
	stdDef    = "::core::default::Default"
)

// generator holds what every emitting file needs about one schema.
type generator struct {
	s     *schema.Schema
	crate string
	// plan is the codec plan every size, encode, decode, check and view
	// printer walks.
	plan *plan.Plan

	name map[schema.Decl]string // Rust type name
	view map[schema.Decl]string // view type name (structs and unions)

	// hasView: the type holds strings or arrays, so its view borrows from
	// the input and is a distinct type; otherwise the view name is an alias
	// of the owned type.
	hasView map[schema.Decl]bool
	// ownedCopy: the owned type can derive Copy.
	ownedCopy map[schema.Decl]bool
	// viewCopy: the view type can derive Copy (no boxes inside).
	viewCopy map[schema.Decl]bool
	// defaultDerive: the owned struct can derive Default.
	defaultDerive map[schema.Decl]bool
	// ownedEq: the owned type holds no float, even transitively, so it
	// can derive Eq and Hash.
	ownedEq map[schema.Decl]bool
	// inline memoizes inlineSize of structs and unions.
	inline map[schema.Decl]uint64
	// lengths: a value of the struct or union can hold a string, byte
	// string or counted array, whose length check_lengths checks.
	lengths map[*plan.Decl]bool

	// composite names the views-module functions giving the rt::Elem of
	// optional and list elements of lists (by elemKey), in compositeList
	// order; filled on first use.
	composite     map[string]string
	compositeList []*plan.Value
	// hints names the views-module rt::Hint consts of list elements that
	// need one (by elemKey), in hintList order.
	hints    map[string]string
	hintList []*plan.Value
}

func newGenerator(s *schema.Schema, crate string) *generator {
	g := &generator{
		s:             s,
		crate:         crate,
		plan:          plan.Build(s),
		name:          map[schema.Decl]string{},
		view:          map[schema.Decl]string{},
		hasView:       map[schema.Decl]bool{},
		ownedCopy:     map[schema.Decl]bool{},
		viewCopy:      map[schema.Decl]bool{},
		defaultDerive: map[schema.Decl]bool{},
		ownedEq:       map[schema.Decl]bool{},
		inline:        map[schema.Decl]uint64{},
	}
	g.analyze()
	g.assignNames()
	g.findLengths()
	return g
}

// fieldsOf lists every field a struct or union holds: a struct's fields,
// then each variant's (the struct a struct variant carries is one field).
func fieldsOf(pd *plan.Decl) []*plan.Field {
	out := pd.Fields
	for _, v := range pd.Variants {
		out = append(out[:len(out):len(out)], v.Fields...)
	}
	return out
}

// analyze computes the per-type properties as fixpoints over the (possibly
// recursive) type graph.
func (g *generator) analyze() {
	var decls []*plan.Decl
	for _, pd := range g.plan.Decls {
		if pd.Enum == nil {
			d := pd.Decl
			decls = append(decls, pd)
			g.ownedCopy[d] = true
			g.viewCopy[d] = true
			g.ownedEq[d] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, pd := range decls {
			d := pd.Decl
			hv, oc, vc, eq := false, true, true, true
			for _, f := range fieldsOf(pd) {
				hv = hv || g.borrows(f.Value)
				oc = oc && g.copyOwned(f.Value)
				vc = vc && g.copyView(f.Value)
				eq = eq && g.eqOwned(f.Value)
			}
			if hv != g.hasView[d] || oc != g.ownedCopy[d] || vc != g.viewCopy[d] || eq != g.ownedEq[d] {
				g.hasView[d], g.ownedCopy[d], g.viewCopy[d], g.ownedEq[d] = hv, oc, vc, eq
				changed = true
			}
		}
	}
	for _, pd := range decls {
		if pd.Struct == nil {
			continue
		}
		ok := true
		for _, f := range pd.Fields {
			ok = ok && g.defaultable(f.Value)
		}
		g.defaultDerive[pd.Decl] = ok
	}
}

// borrows: the view of v refers to the input.
func (g *generator) borrows(v *plan.Value) bool {
	switch {
	case v.Op == plan.String || v.Op.IsArray():
		return true
	case v.Op == plan.Optional:
		return g.borrows(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.hasView[v.Decl.Decl]
	}
	return false
}

func (g *generator) copyOwned(v *plan.Value) bool {
	switch {
	case v.Op == plan.String || v.Op.Counted():
		return false
	case v.Op.FixedLength():
		return !g.boxed(v) && g.copyOwned(v.Elem)
	case v.Op == plan.Optional:
		return !v.Boxed && g.copyOwned(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.ownedCopy[v.Decl.Decl]
	}
	return true
}

// eqOwned: the owned type of v can derive Eq and Hash (no float inside).
func (g *generator) eqOwned(v *plan.Value) bool {
	switch {
	case v.Op == plan.Scalar:
		return v.Kind != schema.F32 && v.Kind != schema.F64
	case v.Op == plan.Optional || v.Op.IsArray():
		return g.eqOwned(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		return g.ownedEq[v.Decl.Decl]
	}
	return true
}

func (g *generator) copyView(v *plan.Value) bool {
	switch v.Op {
	case plan.Optional:
		return !v.Boxed && g.copyView(v.Elem)
	case plan.Struct, plan.Union:
		if g.hasView[v.Decl.Decl] {
			return g.viewCopy[v.Decl.Decl]
		}
		return g.ownedCopy[v.Decl.Decl]
	}
	return true // arrays are LeSlice or ListView, both Copy
}

// defaultable: #[derive(Default)] works for a field of v (arrays of more
// than 32 elements do not implement Default, and boxed arrays are made on
// the heap directly).
func (g *generator) defaultable(v *plan.Value) bool {
	if v.Op.FixedLength() {
		return v.Len <= 32 && !g.boxed(v) && g.defaultable(v.Elem)
	}
	return true
}

// boxArrayOver is the size in bytes (as inlineSize estimates it) above
// which a fixed array is held in a Box in the owned types: decoding,
// converting and defaulting then build it on the heap in place, so no value
// takes more than a bounded amount of stack whatever its fixed arrays' sizes
// (issue #13: a chain of 32 KiB values must decode on a 512 KiB stack).
const boxArrayOver = 1024

// boxed: v is a fixed array held as Box<[T; N]>.
func (g *generator) boxed(v *plan.Value) bool {
	return v.Op.FixedLength() && sizeMul(uint64(v.Len), g.inlineSize(v.Elem)) > boxArrayOver
}

// inlineSize estimates the bytes a value of v takes inline in the owned
// types (a boxed fixed array counts as its pointer). It is not rule 11's
// nominal size, which ignores where values are boxed; it only decides
// which fixed arrays are boxed.
func (g *generator) inlineSize(v *plan.Value) uint64 {
	switch {
	case v.Op.FixedLength():
		if g.boxed(v) {
			return 8
		}
		return sizeMul(uint64(v.Len), g.inlineSize(v.Elem))
	case v.Op == plan.Optional:
		if v.Boxed {
			return 8
		}
		return 8 + g.inlineSize(v.Elem)
	case v.Op == plan.Struct || v.Op == plan.Union:
		pd := v.Decl
		if n, ok := g.inline[pd.Decl]; ok {
			return n
		}
		var n uint64
		if pd.Struct != nil {
			n = g.fieldsInline(pd.Fields)
		} else {
			for _, pv := range pd.Variants {
				if m := g.fieldsInline(pv.Fields); m > n {
					n = m
				}
			}
			n += 8
		}
		g.inline[pd.Decl] = n
		return n
	case v.Op == plan.String || v.Op.Counted():
		return 24
	case v.Op == plan.Enum:
		return 4
	}
	return uint64(v.Kind.Size())
}

func (g *generator) fieldsInline(fields []*plan.Field) uint64 {
	var n uint64
	for _, f := range fields {
		n = sizeAdd(n, g.inlineSize(f.Value))
	}
	return n
}

// sizeAdd and sizeMul saturate at 2^48 (as nominal sizes do).
func sizeAdd(a, b uint64) uint64 {
	if a+b > 1<<48 {
		return 1 << 48
	}
	return a + b
}

func sizeMul(a, b uint64) uint64 {
	if b != 0 && a > (1<<48)/b {
		return 1 << 48
	}
	return a * b
}

// scalarName is the Rust name of a scalar kind.
func scalarName(k schema.Kind) string {
	if k == schema.Bool {
		return "bool"
	}
	return k.String()
}

// scalars: an array of numbers or bools (bytes too), held as a slice or
// array of Rust scalars and viewed as a LeSlice; the plan's Bytes,
// Numbers, FixedBytes and FixedNumbers, and arrays of bools, whose elements
// are read one by one (each byte is checked) but stored and viewed as the
// numbers are.
func scalars(v *plan.Value) bool {
	switch v.Op {
	case plan.Bytes, plan.Numbers, plan.FixedBytes, plan.FixedNumbers:
		return true
	case plan.Array, plan.FixedArray:
		return v.Elem.Op == plan.Scalar
	}
	return false
}

// owned is the Rust type of a value of v in the owned types.
func (g *generator) owned(v *plan.Value) string {
	switch {
	case v.Op == plan.String:
		return stdString
	case v.Op.Counted():
		return stdVec + "<" + g.owned(v.Elem) + ">"
	case v.Op.FixedLength():
		if g.boxed(v) {
			return fmt.Sprintf("%s<[%s; %d]>", stdBox, g.owned(v.Elem), v.Len)
		}
		return fmt.Sprintf("[%s; %d]", g.owned(v.Elem), v.Len)
	case v.Op == plan.Optional:
		if v.Boxed {
			return stdOption + "<" + stdBox + "<" + g.owned(v.Elem) + ">>"
		}
		return stdOption + "<" + g.owned(v.Elem) + ">"
	case v.Op == plan.Struct || v.Op == plan.Union || v.Op == plan.Enum:
		return g.name[v.Decl.Decl]
	}
	return scalarName(v.Kind)
}

// viewOf is the Rust type of a value of v in the view types.
func (g *generator) viewOf(v *plan.Value) string {
	switch {
	case v.Op == plan.String:
		return "&'a str"
	case v.Op == plan.Bytes:
		return "&'a [u8]"
	case v.Op == plan.FixedBytes:
		return fmt.Sprintf("&'a [u8; %d]", v.Len)
	case scalars(v):
		return "rt::LeSlice<'a, " + scalarName(v.Elem.Kind) + ">"
	case v.Op.IsArray():
		return "rt::ListView<'a, " + g.viewOf(v.Elem) + ">"
	case v.Op == plan.Optional:
		if v.Boxed {
			return stdOption + "<" + stdBox + "<" + g.viewOf(v.Elem) + ">>"
		}
		return stdOption + "<" + g.viewOf(v.Elem) + ">"
	case v.Op == plan.Struct || v.Op == plan.Union:
		if g.hasView[v.Decl.Decl] {
			return g.view[v.Decl.Decl] + "<'a>"
		}
		return g.name[v.Decl.Decl]
	case v.Op == plan.Enum:
		return g.name[v.Decl.Decl]
	}
	return scalarName(v.Kind)
}

// usesDepth: reading a view of v passes the depth on: it holds structs or
// unions, or lists of non-scalars, which record the depth of their
// elements.
func usesDepth(v *plan.Value) bool {
	switch {
	case v.Op == plan.Struct || v.Op == plan.Union:
		return true
	case v.Op.IsArray():
		return !scalars(v)
	case v.Op == plan.Optional:
		return usesDepth(v.Elem)
	}
	return false
}

// doc prints a schema `///` comment as a Rust doc comment.
func doc(p *printer, lines []string) {
	for _, l := range lines {
		l = docLine(l)
		if l == "" {
			p.Line("///")
		} else {
			p.Line("/// " + l)
		}
	}
}

// docLine escapes one line of schema doc text so that rustdoc's Markdown
// shows it as written: no block structure (indented or fenced code, which
// would be a doctest; lists, quotes, headings), no links, no HTML tags.
// Code spans (`...`) stay as they are when their backticks pair up. Tabs
// (clippy's tabs_in_doc_comments) become spaces and bidirectional-text
// controls (rustc's text_direction_codepoint_in_comment) are spelled out.
func docLine(l string) string {
	var clean strings.Builder
	for _, r := range l {
		switch {
		case r == '\t':
			clean.WriteByte(' ')
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			fmt.Fprintf(&clean, "U+%04X", r)
		default:
			clean.WriteRune(r)
		}
	}
	l = strings.Trim(clean.String(), " ")
	parts := strings.Split(l, "`")
	spans := len(parts)%2 == 1 // the backticks pair up
	var b strings.Builder
	for i, part := range parts {
		if i > 0 {
			if !spans {
				b.WriteByte('\\')
			}
			b.WriteByte('`')
		}
		if spans && i%2 == 1 {
			b.WriteString(part) // inside a code span
			continue
		}
		for _, r := range part {
			if strings.ContainsRune("\\[]<>", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	l = b.String()
	// A line that Markdown would read as a block marker starts with an
	// escaped character instead.
	digits := strings.TrimLeft(l, "0123456789")
	switch {
	case l == "":
	case strings.ContainsRune("-+*#=|~", rune(l[0])), strings.HasPrefix(l, "``"):
		l = "\\" + l
	case len(digits) < len(l) && (strings.HasPrefix(digits, ".") || strings.HasPrefix(digits, ")")):
		l = l[:len(l)-len(digits)] + "\\" + digits // 1\. is not a list item
	}
	return l
}
