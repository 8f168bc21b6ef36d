// Package randschema generates random SDP schemas, valid values for them and
// invalid inputs derived from those values, reproducibly from a seed. The
// reference codec (sdp/codec) is the oracle: it decides which inputs are
// valid and for which rule every other input is rejected. Every backend's
// conformance testee is run over the result (docs/conformance.md,
// "Random schemas").
package randschema

import (
	"fmt"
	"strings"

	"sdp/conformance/datagen"
	"sdp/schema"
)

// Config selects what a generated schema looks like.
type Config struct {
	// Adversarial draws names from keywords and predeclared identifiers of
	// every target language and from identifiers the generated code uses.
	Adversarial bool
	// MinStructs and MaxStructs bound the number of structs (default 10..30).
	MinStructs, MaxStructs int
}

// maxInlineSize bounds the minimum encoded size of every generated
// declaration, so values stay small enough to generate and send quickly.
const maxInlineSize = 2048

// decl is a declaration being generated. Declarations are created in rank
// order: a declaration refers inline (by value or through a fixed array) only
// to declarations of lower rank, and through ?T or []T to any, so every
// cycle passes an optional or a list, as the checker requires.
type decl struct {
	kind    string // "struct", "enum", "union"
	name    string
	rank    int
	minSize int
	text    string
	id      int // explicit @id, 0 if none
	nFields int // structs: decided up front, so empty (zero-size) structs are known
}

type generator struct {
	r       *datagen.Rand
	cfg     Config
	decls   []*decl
	used    map[string]bool // nameKey of every declaration name
	nStruct int
	ids     map[int]bool
}

// Schema returns the source text of a random schema. Every schema it
// returns is accepted by the checker (Generate checks).
func Schema(seed uint64, cfg Config) []byte {
	if cfg.MinStructs == 0 {
		cfg.MinStructs = 10
	}
	if cfg.MaxStructs < cfg.MinStructs {
		cfg.MaxStructs = cfg.MinStructs + 20
	}
	g := &generator{r: datagen.NewRand(seed*0x9e3779b97f4a7c15 + 1), cfg: cfg, used: map[string]bool{}, ids: map[int]bool{}}
	return g.schema()
}

func (g *generator) schema() []byte {
	g.nStruct = g.r.Range(g.cfg.MinStructs, g.cfg.MaxStructs)
	nEnum := g.r.Range(0, 4)
	nUnion := g.r.Range(0, 5)
	kinds := make([]string, 0, g.nStruct+nEnum+nUnion)
	for i := 0; i < g.nStruct; i++ {
		kinds = append(kinds, "struct")
	}
	for i := 0; i < nEnum; i++ {
		kinds = append(kinds, "enum")
	}
	for i := 0; i < nUnion; i++ {
		kinds = append(kinds, "union")
	}
	// Enums first in rank (they refer to nothing), the rest shuffled.
	rest := kinds[nEnum:]
	rest = append(rest[:0:0], rest...)
	for i := len(rest) - 1; i > 0; i-- {
		j := g.r.Intn(i + 1)
		rest[i], rest[j] = rest[j], rest[i]
	}
	order := append([]string{}, kinds[:nEnum]...)
	order = append(order, rest...)
	for i, k := range order {
		d := &decl{kind: k, rank: i, name: g.typeName(i)}
		if k == "struct" {
			d.nFields = g.r.Range(0, 7)
			if g.r.Chance(5) {
				d.nFields = g.r.Range(8, 20)
			}
		}
		g.decls = append(g.decls, d)
	}
	for _, d := range g.decls {
		switch d.kind {
		case "struct":
			g.structDecl(d)
		case "enum":
			g.enumDecl(d)
		case "union":
			g.unionDecl(d)
		}
	}
	// Explicit ids above the positional ones, so they never collide.
	for _, d := range g.decls {
		if d.kind == "struct" && g.r.Chance(20) {
			for {
				id := g.nStruct + 1 + g.r.Intn(65535-g.nStruct)
				if !g.ids[id] {
					g.ids[id] = true
					d.id = id
					break
				}
			}
		}
	}
	// Declarations in any textual order.
	textual := append([]*decl{}, g.decls...)
	for i := len(textual) - 1; i > 0; i-- {
		j := g.r.Intn(i + 1)
		textual[i], textual[j] = textual[j], textual[i]
	}
	var b strings.Builder
	b.WriteString("// Random schema (sdp/conformance/randschema).\n\n")
	for _, d := range textual {
		if d.id != 0 {
			fmt.Fprintf(&b, "@id(%d)\n", d.id)
		}
		b.WriteString(d.text)
		b.WriteString("\n")
	}
	text := b.String()
	if g.r.Chance(25) {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return []byte(text)
}

// typeName picks a declaration name unique by the checker's name key.
func (g *generator) typeName(i int) string {
	for tries := 0; ; tries++ {
		var n string
		if g.cfg.Adversarial && tries < 20 && g.r.Chance(70) {
			n = g.adversarialName()
		} else {
			n = fmt.Sprintf("%s%d", g.r.Pick(plainTypeWords), i)
		}
		if n == "" || g.used[schema.NameKey(n)] || !validTypeName(n) {
			continue
		}
		g.used[schema.NameKey(n)] = true
		return n
	}
}

var plainTypeWords = []string{"Node", "Item", "Point", "Record", "Frame", "Entry", "Plugin", "Param", "Event", "Shape", "Sample", "Blob"}
var plainFieldWords = []string{"id", "name", "value", "count", "items", "next", "data", "flag", "x", "y", "kind", "payload", "label", "sub", "extra"}

func (g *generator) adversarialName() string {
	n := g.r.Pick(adversarial)
	if g.r.Chance(30) {
		// Case variants of the same word meet other languages' keywords.
		if n[0] >= 'a' && n[0] <= 'z' {
			n = strings.ToUpper(n[:1]) + n[1:]
		} else if n[0] >= 'A' && n[0] <= 'Z' {
			n = strings.ToLower(n[:1]) + n[1:]
		}
	}
	return n
}

// memberNames returns n names unique by name key within one scope.
func (g *generator) memberNames(n int, words []string) []string {
	used := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var name string
		if g.cfg.Adversarial && g.r.Chance(60) {
			name = g.adversarialName()
		} else {
			name = fmt.Sprintf("%s%d", g.r.Pick(words), len(out))
		}
		if !validMemberName(name) || used[schema.NameKey(name)] {
			continue
		}
		used[schema.NameKey(name)] = true
		out = append(out, name)
	}
	return out
}

func (g *generator) doc(indent string) string {
	if !g.r.Chance(30) {
		return ""
	}
	var b strings.Builder
	for i, n := 0, g.r.Range(1, 3); i < n; i++ {
		b.WriteString(indent)
		b.WriteString("///")
		if g.r.Chance(90) {
			b.WriteString(" ")
		}
		b.WriteString(g.docText())
		b.WriteString("\n")
	}
	return b.String()
}

// docPieces are fragments that break naive comment emitters: comment
// delimiters of every language, escapes, trigraphs, line continuations,
// markup and non-ASCII text.
var docPieces = []string{
	"/*", "*/", "//", "///", "/**", "**/", "#", "\"\"\"", "'''", "`", "``", "\\", "\\n", "\\u{0}", "??/", "??=",
	"??'", "%", "%%", "{{", "}}", "<!--", "-->", "<b>", "&amp;", "@param", "- [ ]", "```", "$x", "${x}",
	"é", "naïve", "日本語", "🎛️", "Ω", "\u00a0", "\u2028", "→", "«»", "r#\"", "\"#", "'", "\"", "{", "}",
	"0x1F", "NULL", "TODO", "*", "**", "_", "__", "*/ int x; /*", "\" + \"", "%s%n", "\\x41",
}

func (g *generator) docText() string {
	var parts []string
	for i, n := 0, g.r.Range(1, 6); i < n; i++ {
		if g.r.Chance(50) {
			parts = append(parts, g.r.Pick(docPieces))
		} else {
			parts = append(parts, g.r.Pick([]string{"the", "value", "of", "a", "plugin", "parameter", "in", "dB"}))
		}
	}
	s := strings.Join(parts, g.r.Pick([]string{" ", "", "  "}))
	if g.r.Chance(10) {
		s += "\\" // a trailing backslash continues a C++ // comment
	}
	return s
}

func (g *generator) structDecl(d *decl) {
	n := d.nFields
	names := g.memberNames(n, plainFieldWords)
	var b strings.Builder
	b.WriteString(g.doc(""))
	fmt.Fprintf(&b, "struct %s {", d.name)
	size := 0
	if n > 0 {
		b.WriteString("\n")
	}
	for i, name := range names {
		t, sz := g.fieldType(d.rank, maxInlineSize-size)
		if i == n-1 && size+sz == 0 {
			t, sz = "u8", 1 // only declared-empty structs encode to zero bytes
		}
		size += sz
		b.WriteString(g.doc("    "))
		fmt.Fprintf(&b, "    %s: %s", name, t)
		if g.r.Chance(85) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	d.minSize = size
	d.text = b.String()
}

func (g *generator) enumDecl(d *decl) {
	base := g.r.Pick([]string{"", ": u8", ": u16", ": u32"})
	limit := uint64(255)
	switch base {
	case ": u16":
		limit = 65535
		d.minSize = 2
	case ": u32":
		limit = 1<<32 - 1
		d.minSize = 4
	default:
		d.minSize = 1
	}
	n := g.r.Range(1, 6)
	names := g.memberNames(n, []string{"A", "B", "Red", "Green", "Off", "On", "Mode"})
	var b strings.Builder
	b.WriteString(g.doc(""))
	fmt.Fprintf(&b, "enum %s%s {\n", d.name, base)
	next := uint64(0)
	seen := map[uint64]bool{}
	for i, name := range names {
		b.WriteString(g.doc("    "))
		v := next
		explicit := g.r.Chance(40)
		if explicit {
			switch g.r.Intn(4) {
			case 0:
				v = limit - uint64(n-i) + 1 // room left for the rest
			case 1:
				v = next + uint64(g.r.Range(0, 1000))
			default:
				v = next + uint64(g.r.Range(0, 3))
			}
			if v > limit-uint64(n-1-i) {
				v = limit - uint64(n-1-i)
			}
			if v < next {
				v = next
			}
		}
		for seen[v] {
			v++
		}
		seen[v] = true
		if explicit || v != next {
			if g.r.Chance(30) {
				fmt.Fprintf(&b, "    %s = 0x%X,\n", name, v)
			} else {
				fmt.Fprintf(&b, "    %s = %d,\n", name, v)
			}
		} else {
			fmt.Fprintf(&b, "    %s,\n", name)
		}
		next = v + 1
	}
	b.WriteString("}\n")
	d.text = b.String()
}

func (g *generator) unionDecl(d *decl) {
	n := g.r.Range(1, 5)
	if g.r.Chance(3) {
		n = g.r.Range(6, 40)
	}
	var b strings.Builder
	b.WriteString(g.doc(""))
	fmt.Fprintf(&b, "union %s {\n", d.name)
	used := map[string]bool{}
	minSize := -1
	for i := 0; i < n; i++ {
		b.WriteString(g.doc("    "))
		var line string
		size := 0
		k := g.r.Intn(3)
		var carried *decl
		if k == 0 {
			carried = g.lowerStruct(d.rank, used)
		}
		switch {
		case carried != nil:
			line, size = carried.name, carried.minSize
		case k == 1:
			names := g.memberNames(g.r.Range(0, 4), plainFieldWords)
			var f []string
			for _, fn := range names {
				t, sz := g.fieldType(d.rank, maxInlineSize/2-size)
				size += sz
				f = append(f, fmt.Sprintf("%s: %s", fn, t))
			}
			line = "{" + strings.Join(f, ", ") + "}"
		default:
			line = ""
		}
		if line == "" || line[0] == '{' {
			for {
				name := fmt.Sprintf("%s%d", g.r.Pick([]string{"V", "Unit", "Case", "Opt"}), g.r.Intn(1000))
				if g.cfg.Adversarial && g.r.Chance(60) {
					name = g.adversarialName()
				}
				if !validMemberName(name) || used[schema.NameKey(name)] || g.used[schema.NameKey(name)] {
					continue
				}
				used[schema.NameKey(name)] = true
				if line == "" {
					line = name
				} else {
					line = name + " " + line
				}
				break
			}
		} else {
			used[schema.NameKey(line)] = true
		}
		fmt.Fprintf(&b, "    %s,\n", line)
		if minSize < 0 || size < minSize {
			minSize = size
		}
	}
	b.WriteString("}\n")
	d.minSize = 1 + minSize
	d.text = b.String()
}

// lowerStruct picks a struct of lower rank not yet used as a variant.
func (g *generator) lowerStruct(rank int, used map[string]bool) *decl {
	var cands []*decl
	for _, d := range g.decls[:rank] {
		if d.kind == "struct" && !used[schema.NameKey(d.name)] {
			cands = append(cands, d)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[int(uint64(rank*7919+len(used)*104729)%uint64(len(cands)))]
}

var scalars = []string{"bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "str", "string"}

func scalarSize(s string) int {
	switch s {
	case "bool", "u8", "i8":
		return 1
	case "u16", "i16":
		return 2
	case "u32", "i32", "f32", "str", "string":
		return 4
	}
	return 8
}

// fieldType returns a type expression for a field of a declaration of the
// given rank and its minimum encoded size, at most budget when it can.
func (g *generator) fieldType(rank, budget int) (string, int) {
	for tries := 0; tries < 10; tries++ {
		t, sz := g.typeExpr(rank, 0, true)
		if sz <= budget {
			return t, sz
		}
	}
	return "u8", 1
}

// typeExpr generates a type. inline is true while the type is stored by
// value (not behind ?T or []T), when only lower-ranked declarations may be
// named.
func (g *generator) typeExpr(rank, depth int, inline bool) (string, int) {
	roll := g.r.Intn(100)
	if depth >= 4 {
		roll = g.r.Intn(45)
	}
	switch {
	case roll < 35:
		s := g.r.Pick(scalars)
		return s, scalarSize(s)
	case roll < 50:
		d := g.pickDecl(rank, inline)
		if d == nil {
			s := g.r.Pick(scalars)
			return s, scalarSize(s)
		}
		if d.kind == "struct" && d.nFields == 0 {
			return d.name, 0
		}
		if !inline || d.minSize == 0 {
			return d.name, 1 // not known yet (higher rank), and at least 1
		}
		return d.name, d.minSize
	case roll < 68:
		t, sz := g.typeExpr(rank, depth+1, false)
		if sz == 0 {
			t = "u8" // arrays of zero-size elements are a schema error
		}
		return "[]" + t, 4
	case roll < 80:
		var n int
		switch {
		case g.r.Chance(30):
			n = 1
		case g.r.Chance(10):
			n = g.r.Range(100, 1500)
		default:
			n = g.r.Range(2, 5)
		}
		t, sz := g.typeExpr(rank, depth+1, inline)
		if sz == 0 {
			t, sz = "u8", 1
		}
		if n*sz > maxInlineSize {
			n = 1 + maxInlineSize/(4*(sz+1))
		}
		return fmt.Sprintf("[%d]%s", n, t), n * sz
	default:
		t, _ := g.typeExpr(rank, depth+1, false)
		if g.r.Chance(10) {
			return "Option<" + t + ">", 1
		}
		return "?" + t, 1
	}
}

// pickDecl picks a declaration that a type of the given rank may name: any
// when the reference is behind ?T or []T, lower ranks only when inline.
func (g *generator) pickDecl(rank int, inline bool) *decl {
	limit := len(g.decls)
	if inline {
		limit = rank
	}
	if limit == 0 {
		return nil
	}
	return g.decls[g.r.Intn(limit)]
}

// validTypeName and validMemberName filter names the checker rejects.
func validTypeName(n string) bool { return checkName(n, true) }

func validMemberName(n string) bool { return checkName(n, false) }

var nameOK = map[[2]interface{}]bool{}

// checkName asks the checker whether a name is accepted as a type name or
// as a field, enum value and variant name.
func checkName(n string, typ bool) bool {
	key := [2]interface{}{n, typ}
	if ok, seen := nameOK[key]; seen {
		return ok
	}
	var src string
	if typ {
		src = fmt.Sprintf("struct %s { a: u8 }\nenum %s2 { A }\n", n, n)
	} else {
		src = fmt.Sprintf("struct S { %s: u8 }\nenum E { %s }\nunion U { %s, %s2 { x: u8 } }\n", n, n, n, n)
	}
	_, err := schema.Parse("name.sdp", []byte(src))
	nameOK[key] = err == nil
	return err == nil
}
