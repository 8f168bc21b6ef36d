package c

import (
	"regexp"
	"strings"
	"testing"

	"sdp/gen"
	"sdp/gen/gentest"
	"sdp/schema"
)

// TestRuntimeNamesComplete checks that every identifier the runtime defines
// is reserved, so that no schema name can collide with it.
func TestRuntimeNamesComplete(t *testing.T) {
	known := map[string]bool{}
	for _, n := range runtimeNames {
		known[n] = true
	}
	re := regexp.MustCompile(`\b(?:pfx|PFX)_([A-Za-z0-9_]+)`)
	for _, src := range []string{runtimeHeader, runtimeSource} {
		for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
			if m[1] < len(src) && src[m[1]] == '*' {
				continue // "PFX_ERR_*" in a comment
			}
			if !known[src[m[2]:m[3]]] {
				t.Errorf("runtime identifier %s is missing from runtimeNames", src[m[0]:m[1]])
			}
		}
	}
}

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
// a member that kept such a name would be replaced by "1".
func TestPredefinedMacros(t *testing.T) {
	gcc := gentest.RequireTool(t, "gcc")
	src := `struct Host { unix: u8, linux: u16, i386: u32, choice: Arch }
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
	args := append(append([]string{}, strictFlags...), "-Dunix=1", "-Dlinux=1", "-Di386=1", "-fsyntax-only", "predefined.c")
	run(t, dir, gcc, args...)
}
