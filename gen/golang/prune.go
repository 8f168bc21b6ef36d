package golang

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"regexp"
	"strings"
)

// The runtime is pruned to what a package uses: each top-level declaration
// of the rt/ sources is a unit, kept when it is exported (the package's
// API: options, errors, rules) or when the generated code, or a unit kept
// already, mentions its name. So a schema without strings gets no string
// helpers, and no list of helpers is kept by hand.

// rtUnit is one top-level declaration of an rt/ source.
type rtUnit struct {
	names    []string // what it declares (a method: its name)
	exported bool
	text     string   // the declaration with its doc comment
	mentions []string // the identifiers in its code, once each
}

// mention adds the identifiers of the Go code src (not those in its
// comments and strings) to set and returns those it added, in order.
func mention(set map[string]bool, src string) []string {
	var out []string
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && !set[lit] {
			set[lit] = true
			out = append(out, lit)
		}
	}
}

// rtUnits splits the copied part of rt/name into its declarations, in
// source order.
func rtUnits(name string) []rtUnit {
	body := rtSource(name)
	// The copied part parses on its own after a package clause; its
	// offsets are moved by the clause's length.
	const clause = "package rt\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, clause+body, parser.ParseComments)
	if err != nil {
		panic("go backend: rt/" + name + ": " + err.Error())
	}
	var out []rtUnit
	for _, d := range f.Decls {
		start, end := d.Pos(), d.End()
		var u rtUnit
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			u.names = []string{d.Name.Name}
			u.exported = d.Name.IsExported() && d.Recv == nil
			if d.Recv != nil {
				// A method of an exported type is part of that type.
				u.exported = d.Name.IsExported() && ast.IsExported(recvType(d))
				u.names = append(u.names, recvType(d))
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					u.names = append(u.names, s.Name.Name)
					u.exported = u.exported || s.Name.IsExported()
				case *ast.ValueSpec:
					for _, n := range s.Names {
						u.names = append(u.names, n.Name)
						u.exported = u.exported || n.IsExported()
					}
				}
			}
		}
		lo, hi := fset.Position(start).Offset-len(clause), fset.Position(end).Offset-len(clause)
		u.text = body[lo:hi]
		u.mentions = mention(map[string]bool{}, u.text)
		out = append(out, u)
	}
	return out
}

// recvType is the name of a method's receiver type.
func recvType(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// pruneRuntime returns the declarations of units that the code in uses (and
// the units kept) needs, in source order, separated by blank lines. A
// method is kept when its name is mentioned and its receiver type is kept.
func pruneRuntime(units []rtUnit, uses map[string]bool) string {
	keep := make([]bool, len(units))
	for changed := true; changed; {
		changed = false
		for i, u := range units {
			if keep[i] || !(u.exported || needed(u, uses)) {
				continue
			}
			keep[i], changed = true, true
			for _, w := range u.mentions {
				uses[w] = true
			}
		}
	}
	var b strings.Builder
	for i, u := range units {
		if keep[i] {
			b.WriteString(u.text)
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// needed reports whether a unit's name is used: for a method, its name and
// its receiver type's.
func needed(u rtUnit, uses map[string]bool) bool {
	for _, n := range u.names {
		if !uses[n] {
			return false
		}
	}
	return true
}

// importsOf lists the packages of candidates that src refers to (as
// "pkg." with pkg the path's last element).
func importsOf(src string, candidates []string) []string {
	var out []string
	for _, c := range candidates {
		short := c[strings.LastIndex(c, "/")+1:]
		if regexp.MustCompile(`(^|[^\w.])` + short + `\.[A-Z]`).MatchString(src) {
			out = append(out, c)
		}
	}
	return out
}
