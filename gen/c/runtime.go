package c

import (
	_ "embed"
	"strings"
)

// The runtime is C source shared by every generated package, written with
// the placeholder prefixes pfx_ and PFX_: runtime/pfx.h goes into the
// header, and runtime/pfx.c, which compiles on its own with it, is split
// into sections ("/*@ name: deps */"); only the sections the generated code
// uses are emitted, so no static function goes unused.

//go:embed runtime/pfx.h
var runtimeHeader string

//go:embed runtime/pfx.c
var runtimeSource string

type section struct {
	name string
	deps []string
	text string
}

var sections = parseSections(runtimeSource)

func parseSections(src string) []section {
	var out []section
	for _, part := range strings.Split(src, "/*@ ")[1:] {
		end := strings.Index(part, " */\n")
		head, body := part[:end], part[end+4:]
		s := section{name: head}
		if i := strings.Index(head, ":"); i >= 0 {
			s.name = head[:i]
			s.deps = strings.Fields(head[i+1:])
		}
		s.text = strings.TrimRight(body, "\n")
		out = append(out, s)
	}
	return out
}

// prefixed replaces the placeholder prefixes with the package's.
func (g *generator) prefixed(s string) string {
	return strings.NewReplacer("pfx_", g.pkg+"_", "PFX_", g.up+"_").Replace(s)
}

// runtimeDecls prints the runtime's part of the header.
func (g *generator) runtimeDecls() {
	g.h.Line(strings.TrimRight(g.prefixed(runtimeHeader), "\n"))
	g.h.P()
}

// runtimeDefs prints the runtime sections the generated code uses.
func (g *generator) runtimeDefs() {
	byName := map[string]section{}
	need := map[string]bool{}
	var todo []string
	for _, s := range sections {
		byName[s.name] = s
		if s.name == "core" || g.uses[s.name] {
			need[s.name] = true
			todo = append(todo, s.name)
		}
	}
	// The sections those need, until nothing new appears.
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, d := range byName[n].deps {
			if !need[d] {
				need[d] = true
				todo = append(todo, d)
			}
		}
	}
	for _, s := range sections {
		if need[s.name] {
			g.c.Line(g.prefixed(s.text))
			g.c.P()
		}
	}
}
