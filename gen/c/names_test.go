package c

import (
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/gen/naming"
	"sdp/schema"
)

// TestReservedNames checks reservedNames against the code generated for the
// probe schema (gentest.ReservedNames): every probe_ and PROBE_ identifier
// it defines is the schema's own or a runtime name, and the reverse.
func TestReservedNames(t *testing.T) {
	gentest.ReservedNames(t, gentest.NamesProbe{
		Names:    reservedNames,
		Generate: Generate,
		Mine:     mineC,
		Ident:    func(n string) string { return prefixed("probe", "PROBE", n) },
		TypeName: func(s *schema.Schema, d schema.Decl) (string, string) {
			g, err := newGenerator(s, gen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return "probe_" + naming.Snake(d.DeclName()), g.typeName(d)
		},
		FieldName: func(s *schema.Schema, f *schema.Field) (string, string) {
			return naming.Snake(f.Name), memberName(f.Name)
		},
		Escaped: helperType.MatchString,
	})
}

// cIdent matches the identifiers package probe defines: every name with its
// prefix (the header and source define all they name), but not a pattern
// in a comment ("PROBE_ERR_*").
var cIdent = regexp.MustCompile(`\b(?:probe|PROBE)_\w+\*?`)

func mineC(t testing.TB, files []gen.File) (top, members []string) {
	for _, f := range files {
		for _, id := range cIdent.FindAllString(string(f.Content), -1) {
			if !strings.HasSuffix(id, "*") {
				top = append(top, id)
			}
		}
	}
	return top, nil
}

// helperType matches the slice and optional types named after a built-in
// element type (probe_u16_slice, probe_str_opt, probe_u32_x3_slice):
// assignNames picks them after the declarations' names, escaping a clash.
var helperType = regexp.MustCompile(`^probe_(?:bool|[uif](?:8|16|32|64)|str)(?:_slice|_opt|_ptr|_x[0-9]+)+$`)

// TestSectionsExist checks that every runtime section the generator can ask
// for exists, with its dependencies.
func TestSectionsExist(t *testing.T) {
	have := map[string]bool{}
	for _, s := range sections {
		have[s.name] = true
		if s.name == "core" {
			// Helpers the core defines for itself count as sections too.
			for _, m := range regexp.MustCompile(`static [^\n(]*\bpfx_([a-z0-9_]+_)\(`).FindAllStringSubmatch(s.text, -1) {
				have[m[1]] = true
			}
		}
	}
	for _, s := range sections {
		for _, d := range s.deps {
			if !have[d] {
				t.Errorf("section %s depends on missing section %s", s.name, d)
			}
		}
	}
	for _, name := range allSchemas(t) {
		g, err := newGenerator(loadSchema(t, name), gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g.header()
		g.source()
		for u := range g.uses {
			if !have[u] && !strings.HasPrefix(u, "enum:") && !strings.HasPrefix(u, "init:") && !strings.HasPrefix(u, "plain:") {
				t.Errorf("%s: the generator uses runtime section %q, which does not exist", name, u)
			}
		}
	}
}

func TestMemberNames(t *testing.T) {
	for in, want := range map[string]string{
		"errno": "errno_", "int": "int_", "class": "class_", "display_name": "display_name", "i386": "i386_",
		"displayName": "display_name", "stdin": "stdin_", "self": "self", "unused_": "unused",
	} {
		if got := memberName(in); got != want {
			t.Errorf("memberName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPredefinedMacros compiles code whose members are named as the
// lower-case macros GCC and Clang predefine in their default GNU modes
// (unix and linux on Linux, i386 on 32-bit x86), with those macros defined:
// a member that kept such a name would be replaced by "1". It also defines
// glibc's function-like major, minor and makedev (<sys/sysmacros.h>), which
// the C++ backend reserves: C keeps them as member names, because a
// function-like macro only expands before "(" and the generated code never
// calls a member.
func TestPredefinedMacros(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	src := `struct Host { unix: u8, linux: u16, i386: u32, choice: Arch, major: u32, minor: u32, makedev: []u8 }
union Arch { I386 { i386: bool }, Linux, Unix { n: u8 } }
`
	s, err := schema.Parse("predefined.sdp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, strictFlags...), "-Dunix=1", "-Dlinux=1", "-Di386=1",
		"-Dmajor(d)=1", "-Dminor(d)=1", "-Dmakedev(a,b)=1", "-fsyntax-only", "predefined.c")
	run(t, dir, gcc, args...)
}
