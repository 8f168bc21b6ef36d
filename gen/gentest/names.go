package gentest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"sdp/gen"
	"sdp/schema"
)

// ProbeSchema is the schema ReservedNames generates: every kind of
// declaration, field and variant, so that the runtime sections the
// generated code pulls in on demand are all there. Every name it declares
// holds "zq" (in any case), so that the identifiers derived from it (ZqaTypeID,
// probe_zqa_encode, decode_zqu) can be told apart from the runtime's.
const ProbeSchema = `struct Zqa {
    zq_field: u32,
    zq_text: str,
    zq_list: []Zqb,
    zq_bytes: []u8,
    zq_nums: []u16,
    zq_words: []u32,
    zq_longs: []u64,
    zq_shapes: []Zqu,
    zq_grid: [2][3]u32,
    zq_fixed: [2]Zqb,
    zq_opt: ?Zqb,
    zq_next: ?Zqa,
    zq_tree: []Zqa,
    zq_kind: Zqe,
    zq_shape: Zqu,
    zq_real: f64,
    zq_int: i64,
    zq_flag: bool,
}

struct Zqb {
    zq_x: f32,
}

enum Zqe {
    ZqOne,
    ZqTwo,
}

union Zqu {
    ZqUnit,
    Zqb,
    ZqInline { zq_y: u8, zq_s: str },
}
`

// NamesProbe is what ReservedNames needs from a backend.
type NamesProbe struct {
	// Names is the backend's declaration (its names.go).
	Names gen.Names
	// Generate is the backend.
	Generate gen.Generator
	// Mine returns the identifiers the generated files define at the top
	// level of the package (module, namespace), and those defined as
	// members of every generated type (nil where Names.Members is nil).
	// Go parses the files; other languages match declarations with a
	// regexp.
	Mine func(t testing.TB, files []gen.File) (top, members []string)
	// Ident turns a TopLevel name into the identifier the generated code
	// defines for schema "probe" (C: "arena" is probe_arena); nil means
	// the name itself.
	Ident func(name string) string
	// TypeName returns a declaration's identifier as the plain case
	// conversion of its schema name would spell it, and as the generator
	// names it.
	TypeName func(s *schema.Schema, d schema.Decl) (plain, got string)
	// FieldName is TypeName for a struct's field; nil when fields cannot
	// collide with anything.
	FieldName func(s *schema.Schema, f *schema.Field) (plain, got string)
	// Escaped reports top-level identifiers the generator derives from
	// the schema's types (C's probe_u16_slice for []u16) and escapes
	// itself when it picks them, after the schema's names: they need no
	// declaration. Nil: none.
	Escaped func(id string) bool
	// Unmined are declared names the generated source does not spell out
	// (members the compiler synthesizes: Swift's hashValue, rawValue), so
	// that the stale check skips them.
	Unmined []string
}

// Own reports whether an identifier derives from one of ProbeSchema's names.
func Own(id string) bool { return strings.Contains(strings.ToLower(id), "zq") }

// ReservedNames checks a backend's Names against its generated code:
//
//   - complete: every identifier the code generated for ProbeSchema defines
//     at its top level (and as a member of its types) is ProbeSchema's own,
//     declared in TopLevel (Members), a keyword, or reserved by a prefix;
//   - stale: every TopLevel (Members) name is defined by that code;
//   - renamed: a schema type (field) named like a reserved name, where the
//     backend's plain case conversion would spell it so, gets another
//     identifier. This needs no compiler.
func ReservedNames(t *testing.T, p NamesProbe) {
	t.Helper()
	r := CheckNames(t, p)
	for _, c := range []struct {
		name     string
		problems []string
	}{{"complete", r.Complete}, {"stale", r.Stale}, {"renamed", r.Renamed}} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			for _, m := range c.problems {
				t.Error(m)
			}
		})
	}
}

// NamesReport is what CheckNames finds: one message per problem.
type NamesReport struct {
	Complete, Stale, Renamed []string
}

// CheckNames runs ReservedNames's checks and returns their findings; a
// probe it cannot run at all (the probe schema does not generate, the miner
// finds nothing) fails t.
func CheckNames(t testing.TB, p NamesProbe) NamesReport {
	t.Helper()
	var r NamesReport
	ident := p.Ident
	if ident == nil {
		ident = func(n string) string { return n }
	}
	n := p.Names
	s, err := schema.Parse("probe.sdp", []byte(ProbeSchema))
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(p.Generate, s)
	if err != nil {
		t.Fatal(err)
	}
	top, members := p.Mine(t, files)
	if len(top) == 0 {
		t.Fatal("the miner found no top-level identifiers: it no longer matches the generated code")
	}
	if n.Members != nil && len(members) == 0 {
		t.Fatal("the miner found no members: it no longer matches the generated code")
	}

	// complete
	declared := map[string]bool{}
	for _, l := range [][]string{n.TopLevel, n.Keywords, n.Prelude} {
		for _, name := range l {
			declared[ident(name)] = true
			declared[name] = true
		}
	}
	for _, id := range uniq(top) {
		if !Own(id) && !declared[id] && !n.HasPrefix(id) && (p.Escaped == nil || !p.Escaped(id)) {
			r.Complete = append(r.Complete, fmt.Sprintf("the generated code defines %s at its top level, which Names.TopLevel does not declare: a schema type named so would clash", id))
		}
	}
	mem := gen.Set(n.Members, n.Keywords)
	for _, id := range uniq(members) {
		if !Own(id) && !mem[id] && !n.HasPrefix(id) {
			r.Complete = append(r.Complete, fmt.Sprintf("the generated types define the member %s, which Names.Members does not declare: a field named so would clash", id))
		}
	}

	// stale
	unmined := gen.Set(p.Unmined)
	have := gen.Set(top, p.Unmined)
	for _, name := range n.TopLevel {
		if !have[ident(name)] {
			r.Stale = append(r.Stale, fmt.Sprintf("Names.TopLevel declares %s, which the generated code no longer defines (%s)", name, ident(name)))
		}
	}
	have = gen.Set(members)
	for _, name := range n.Members {
		if !have[name] && !unmined[name] {
			r.Stale = append(r.Stale, fmt.Sprintf("Names.Members declares %s, which the generated types no longer define", name))
		}
	}

	// renamed
	tried := 0
	check := func(name string, want func(plain string) bool, field bool) {
		var src string
		if field {
			src = "struct Zqa {\n    " + name + ": u32,\n}\n"
		} else {
			src = "struct " + name + " {\n    zq_field: u32,\n}\n"
		}
		s, err := schema.Parse("probe.sdp", []byte(src))
		if err != nil {
			return // not a schema name (an SDP keyword, a bad spelling)
		}
		tried++
		if _, err := generate(p.Generate, s); err != nil {
			r.Renamed = append(r.Renamed, fmt.Sprintf("a schema with a %s named %s: %v", kind(field), name, err))
			return
		}
		d := s.Decls[0]
		var plain, got string
		if field {
			plain, got = p.FieldName(s, d.(*schema.Struct).Fields[0])
		} else {
			plain, got = p.TypeName(s, d)
		}
		if want(plain) && got == plain {
			r.Renamed = append(r.Renamed, fmt.Sprintf("a %s named %s keeps the reserved identifier %s", kind(field), name, got))
		}
	}
	for _, name := range n.Keywords {
		name := name
		is := func(plain string) bool { return plain == name }
		check(name, is, false)
		if p.FieldName != nil {
			check(name, is, true)
		}
	}
	for _, name := range n.Prelude {
		name := name
		check(name, func(plain string) bool { return plain == name }, false)
	}
	for _, name := range n.TopLevel {
		name := name
		check(name, func(plain string) bool { return plain == ident(name) }, false)
	}
	if p.FieldName != nil {
		for _, name := range n.Members {
			name := name
			check(name, func(plain string) bool { return plain == name }, true)
		}
	}
	if tried == 0 {
		r.Renamed = append(r.Renamed, "no reserved name parses as a schema name")
	}
	return r
}

// generate runs g, failing when it does not end within a minute (a name
// that escaping never frees used to hang the C++ generator).
func generate(g gen.Generator, s *schema.Schema) ([]gen.File, error) {
	type result struct {
		files []gen.File
		err   error
	}
	done := make(chan result, 1)
	go func() {
		files, err := g(s, gen.Options{})
		done <- result{files, err}
	}()
	select {
	case r := <-done:
		return r.files, r.err
	case <-time.After(time.Minute):
		return nil, fmt.Errorf("the generator did not end within a minute")
	}
}

func kind(field bool) string {
	if field {
		return "field"
	}
	return "type"
}

func uniq(in []string) []string {
	m := gen.Set(in)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
