package schema

import (
	"fmt"
	"strings"
)

// parser is a recursive-descent parser over the token list. On a syntax
// error it records the problem and skips to the next declaration, so one run
// reports every error it can.
type parser struct {
	toks  []token
	i     int
	errs  *ErrorList
	depth int // braces open in the current declaration
	// abandon ends the current declaration where it stands: a block was
	// left open and the next declaration has started.
	abandon bool
	// broken records a syntax error inside the current declaration: it is
	// kept with the members that parsed, and checks that would only repeat
	// the error (an enum without values) are skipped.
	broken bool
}

type bailout struct{}

func parse(file string, src []byte, errs *ErrorList) *astFile {
	p := &parser{toks: lex(file, src, errs), errs: errs}
	f := &astFile{}
	for p.peek().kind != tokEOF {
		if d := p.declRecover(); d != nil {
			f.decls = append(f.decls, d)
		}
	}
	return f
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	if t.kind == tokPunct {
		switch t.text {
		case "{":
			p.depth++
		case "}":
			p.depth--
		}
	}
	return t
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tokPunct && t.text == s
}

func (p *parser) fail(t token, msg, hint string) {
	p.errs.add(t.pos, msg, hint)
	panic(bailout{})
}

// The expect functions leave a wrong token unread, so that recovery sees
// it: a `,` or `}` there still ends the broken item or block.
// what+name is the expected thing: two parts, joined only on an error, so
// that parsing a field allocates no message.
func (p *parser) expectPunct(s, what, name string) token {
	t := p.peek()
	if t.kind != tokPunct || t.text != s {
		p.fail(t, fmt.Sprintf("expected %q %s%s, found %s", s, what, name, t.describe()), "")
	}
	return p.next()
}

func (p *parser) expectIdent(what, name string) ident {
	t := p.peek()
	if t.kind != tokIdent {
		p.fail(t, fmt.Sprintf("expected %s%s, found %s", what, name, t.describe()), "")
	}
	p.next()
	return ident{name: t.text, pos: t.pos}
}

// docs collects consecutive `///` lines.
func (p *parser) docs() []string {
	var doc []string
	for p.peek().kind == tokDoc {
		doc = append(doc, p.next().text)
	}
	return doc
}

func (p *parser) declRecover() (d *astDecl) {
	p.depth, p.abandon, p.broken = 0, false, false
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			d = nil
			p.skipToDecl()
		}
	}()
	return p.decl()
}

// skipToDecl moves past the broken declaration: to just after the brace
// that closes it, or to the next line that starts a declaration.
func (p *parser) skipToDecl() {
	for {
		t := p.peek()
		if t.kind == tokEOF {
			return
		}
		if t.pos.Col == 1 && (t.kind == tokDoc || (t.kind == tokPunct && t.text == "@") ||
			(t.kind == tokIdent && (t.text == "struct" || t.text == "enum" || t.text == "union"))) {
			return
		}
		p.next()
		if t.kind == tokPunct && t.text == "}" && p.depth <= 0 {
			return
		}
	}
}

func (p *parser) decl() *astDecl {
	start := p.peek().pos
	doc := p.docs()
	var id *astInt
	if p.isPunct("@") {
		p.next()
		attr := p.expectIdent("attribute name after @", "")
		if attr.name != "id" {
			p.errs.add(attr.pos, fmt.Sprintf("unknown attribute @%s", attr.name), "the only attribute is @id(N), a message type id")
		}
		p.expectPunct("(", "after @", attr.name)
		id = p.integer("message type id")
		p.expectPunct(")", "to close @"+attr.name+"(", "")
		doc = append(doc, p.docs()...)
	}
	t := p.next()
	if t.kind == tokEOF && len(doc) > 0 {
		return nil // trailing doc comment: harmless
	}
	if t.kind != tokIdent {
		p.fail(t, "expected a declaration (struct, enum or union), found "+t.describe(), "")
	}
	d := &astDecl{doc: doc, id: id, start: start}
	switch t.text {
	case "struct":
		d.kind = declStruct
		d.name = p.expectIdent("struct name", "")
		d.fields = p.fieldBlock("struct " + d.name.name)
	case "enum":
		d.kind = declEnum
		d.name = p.expectIdent("enum name", "")
		if p.isPunct(":") {
			p.next()
			b := p.expectIdent("underlying type (u8, u16 or u32)", "")
			d.base = &b
		}
		p.enumBody(d)
	case "union":
		d.kind = declUnion
		d.name = p.expectIdent("union name", "")
		p.unionBody(d)
	default:
		hint := ""
		if c := closest(t.text, []string{"struct", "enum", "union"}); c != "" {
			hint = fmt.Sprintf("did you mean %q?", c)
		}
		switch t.text {
		case "message", "table", "record", "class", "type":
			hint = "write struct: any struct can be sent as a message"
		}
		p.fail(t, fmt.Sprintf("expected struct, enum or union, found %q", t.text), hint)
	}
	if id != nil && d.kind != declStruct {
		p.errs.add(id.pos, "@id applies to structs only", "only structs are sent as messages")
	}
	if p.isPunct(";") && !p.abandon {
		p.next()
	}
	d.broken = p.broken
	d.end = p.toks[p.i].pos
	if p.i > 0 {
		d.end = p.toks[p.i-1].pos
	}
	return d
}

// fieldBlock parses `{ name: Type, ... }`. Commas between fields are
// optional; a trailing comma is fine.
// block parses `{ item, item, ... }`: it reads each item's `///` docs and
// calls item for the rest. Separators (`,` or `;`) are optional and a
// trailing one is fine.
//
// A syntax error inside an item loses that item only: the parser skips to
// the item's separator, the block's closing brace or the next line that
// starts with `name:`, and goes on, so the declaration and its other items
// are still checked (their unknown types reported, uses of it resolved).
func (p *parser) block(owner string, item func(doc []string)) {
	p.expectPunct("{", "to open ", owner)
	depth := p.depth
	for {
		if p.abandon {
			return
		}
		doc := p.docs()
		if p.isPunct("}") {
			p.next()
			return
		}
		if p.peek().kind == tokEOF {
			p.errs.add(p.peek().pos, "unexpected end of file in "+owner, "add the closing }")
			p.abandon, p.broken = true, true
			return
		}
		if p.declStart(p.peek()) {
			p.errs.add(p.peek().pos, fmt.Sprintf("expected \"}\" to close %s before the next declaration", owner), "add the closing }")
			p.abandon, p.broken = true, true
			return
		}
		if start := p.i; !p.itemRecover(item, doc) {
			p.broken = true
			p.skipItem(depth)
			if p.i == start {
				p.next() // always move on
			}
			continue
		}
		if p.isPunct(",") || p.isPunct(";") {
			p.next()
		}
	}
}

// declStart reports a token that starts a declaration at the start of a
// line: inside a block, the previous declaration was not closed.
func (p *parser) declStart(t token) bool {
	return t.pos.Col == 1 && (t.kind == tokPunct && t.text == "@" ||
		t.kind == tokIdent && (t.text == "struct" || t.text == "enum" || t.text == "union") &&
			p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tokIdent)
}

// itemRecover runs item and reports whether it parsed without a syntax
// error (which item has reported).
func (p *parser) itemRecover(item func(doc []string), doc []string) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			ok = false
		}
	}()
	item(doc)
	return true
}

// skipItem moves past the rest of a broken item of a block whose braces
// are depth deep: past its separator, or to the block's closing brace, or
// to a `name:` that starts a later line. A declaration keyword at the start
// of a line means the block was never closed (block reports it).
func (p *parser) skipItem(depth int) {
	nest := 0 // <, ( and [ open in the item: map<K, V> is one item
	line := p.toks[p.i].pos.Line
	if p.i > 0 {
		line = p.toks[p.i-1].pos.Line
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tokEOF:
			return
		case t.kind == tokPunct && t.text == "}" && p.depth <= depth:
			return
		case t.kind == tokPunct && (t.text == "," || t.text == ";") && p.depth == depth && nest == 0:
			p.next()
			return
		case p.declStart(t):
			return // block reports the missing brace
		case t.kind == tokPunct && strings.Contains("<([", t.text):
			nest++
		case t.kind == tokPunct && strings.Contains(">)]", t.text) && nest > 0:
			nest--
		case t.pos.Line > line && t.kind == tokIdent && p.depth == depth && p.i+1 < len(p.toks) &&
			p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == ":":
			return
		}
		p.next()
	}
}

// fieldBlock parses `{ name: Type, ... }`.
func (p *parser) fieldBlock(owner string) []*astField {
	var fields []*astField
	p.block(owner, func(doc []string) {
		name := p.expectIdent("field name in ", owner)
		if t := p.peek(); t.kind == tokIdent {
			switch name.name {
			case "repeated", "optional", "required":
				form := map[string]string{"repeated": "NAME: []TYPE", "optional": "NAME: ?TYPE", "required": "NAME: TYPE (every field is required)"}[name.name]
				p.fail(token{kind: tokIdent, text: name.name, pos: name.pos}, fmt.Sprintf("%q is not a keyword of the schema language", name.name),
					fmt.Sprintf("write %s, e.g. %s", form, strings.Replace(strings.Replace(form, "NAME", t.text, 1), "TYPE", "u32", 1)))
			}
		}
		p.expectPunct(":", "after field name ", name.name)
		fields = append(fields, &astField{doc: doc, name: name, typ: p.typ()})
	})
	return fields
}

func (p *parser) typ() *astType {
	t := p.peek()
	if p.declStart(t) {
		panic(bailout{}) // the block reports the missing brace, here
	}
	if t.kind != tokIdent && !(t.kind == tokPunct && (t.text == "[" || t.text == "?")) {
		p.fail(t, "expected a type, found "+t.describe(), "a type is a scalar (u32, f64, str, ...), a declared name, []T, [N]T or ?T")
	}
	p.next()
	switch {
	case t.kind == tokPunct && t.text == "[":
		if p.isPunct("]") {
			p.next()
			return &astType{form: formArray, pos: t.pos, elem: p.typ()}
		}
		n := p.integer("array length")
		p.expectPunct("]", "after array length", "")
		return &astType{form: formFixed, pos: t.pos, n: n, elem: p.typ()}
	case t.kind == tokPunct && t.text == "?":
		return &astType{form: formOptional, pos: t.pos, elem: p.typ()}
	case t.kind == tokIdent && t.text == "Option" && p.isPunct("<"):
		p.next()
		elem := p.typ()
		p.expectPunct(">", "to close Option<", "")
		return &astType{form: formOptional, pos: t.pos, elem: elem}
	case t.kind == tokIdent:
		p.habits(t)
		return &astType{form: formName, pos: t.pos, name: t.text}
	}
	p.fail(t, "expected a type, found "+t.describe(), "a type is a scalar (u32, f64, str, ...), a declared name, []T, [N]T or ?T")
	return nil
}

func (p *parser) integer(what string) *astInt {
	t := p.peek()
	if t.kind != tokInt {
		p.fail(t, fmt.Sprintf("expected %s (a number), found %s", what, t.describe()), "")
	}
	p.next()
	v, err := parseUint(t.text)
	if err != nil {
		p.fail(t, fmt.Sprintf("invalid number %q for %s", t.text, what), "use decimal or 0x hexadecimal")
	}
	return &astInt{val: v, pos: t.pos}
}

func (p *parser) enumBody(d *astDecl) {
	p.block("enum "+d.name.name, func(doc []string) {
		v := &astValue{doc: doc, name: p.expectIdent("enum value name in ", d.name.name)}
		if p.isPunct("=") {
			p.next()
			v.value = p.integer("enum value")
		}
		d.values = append(d.values, v)
	})
}

// habits fails with a hint when a type name t is followed by the syntax of
// another IDL or language: `map<K, V>`, `Vec<T>`, `u32[]`, `optional u32`.
func (p *parser) habits(t token) {
	next := p.peek()
	switch {
	case next.kind == tokPunct && next.text == "<":
		switch strings.ToLower(t.text) {
		case "map", "hashmap", "dict", "dictionary", "btreemap":
			p.fail(next, fmt.Sprintf("%s<...> is not a type of the schema language", t.text),
				"SDP has no maps: use []Entry with struct Entry { key: K, value: V }")
		case "vec", "list", "array", "vector", "sequence", "slice":
			p.fail(next, fmt.Sprintf("%s<...> is not a type of the schema language", t.text), "write []T for a list of T, [N]T for exactly N")
		case "optional", "maybe", "nullable":
			p.fail(next, fmt.Sprintf("%s<...> is not a type of the schema language", t.text), "write ?T or Option<T>")
		}
		p.fail(next, fmt.Sprintf("%s<...> is not a type of the schema language", t.text),
			"a type is a scalar (u32, f64, str, ...), a declared name, []T, [N]T, ?T or Option<T>")
	case next.kind == tokPunct && next.text == "[":
		p.fail(next, fmt.Sprintf("%s[...] is not a type of the schema language", t.text),
			fmt.Sprintf("brackets come first: []%s for a list, [N]%s for exactly N", t.text, t.text))
	case next.pos.Line == t.pos.Line && (next.kind == tokIdent || next.kind == tokPunct && (next.text == "?" || next.text == "[")):
		// On the same line only: a type named optional ends a field whose
		// next field, without a comma, starts the next line.
		switch t.text {
		case "optional", "repeated", "required":
			form := map[string]string{"optional": "?", "repeated": "[]", "required": ""}[t.text]
			p.fail(t, fmt.Sprintf("%q is not a keyword of the schema language", t.text),
				fmt.Sprintf("write %s%s", form, next.text))
		}
	}
}

func (p *parser) unionBody(d *astDecl) {
	p.block("union "+d.name.name, func(doc []string) {
		v := &astVariant{doc: doc, name: p.expectIdent("variant name in union ", d.name.name)}
		if t := p.peek(); t.kind == tokPunct && (t.text == "(" || t.text == ":" || t.text == "=") {
			example := v.name.name + " { value: Type }"
			if t.text == "(" || t.text == ":" {
				p.next()
				if ty := p.peek(); ty.kind == tokIdent {
					example = fmt.Sprintf("%s { value: %s }", v.name.name, ty.text)
				}
			}
			p.fail(t, fmt.Sprintf("variant %s of union %s: %q is not variant syntax", v.name.name, d.name.name, t.text),
				"a variant is a name, a name with fields like "+example+", or the name of a declared struct; a variant's tag is its position")
		}
		if p.isPunct("{") {
			v.hasBody = true
			v.fields = p.fieldBlock("variant " + v.name.name)
		}
		d.variants = append(d.variants, v)
	})
}
