package schema

import (
	"bytes"
	"strings"
)

// Format returns a schema file in the canonical layout (docs/schema.md,
// "Formatting"): one declaration per paragraph, one member per line
// indented by four spaces with a trailing comma, inline union variants on
// one line when they fit, `@id(N)` on its own line, single spaces around
// `=` and after `:` and `,`. Comments and doc comments stay where they
// are, and one blank line between members is kept. A file with CRLF line
// endings keeps them. Format only needs the file to parse: an unknown type
// is formatted like any other name.
func Format(name string, src []byte) ([]byte, error) {
	var errs ErrorList
	parse(name, src, &errs)
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	f := &formatter{toks: lexComments(name, src, &errs, true)}
	items, inner := f.items("")
	f.print(items, inner, 0)
	out := f.out.Bytes()
	if bytes.Contains(src, []byte("\r\n")) {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// fmtItem is a declaration or a member: its leading comments and docs, its
// own tokens, and its body between braces if it has one.
type fmtItem struct {
	lead     []token
	tokens   []token
	hasBody  bool
	body     []*fmtItem
	inner    []token // comments before the closing brace
	trailing *token  // a comment on the line where the item ends
	mid      []token // comments inside the item, written after it
	blank    bool    // a blank line before it in the source
	endLine  int     // the source line where it ends
}

type formatter struct {
	toks []token
	i    int
	line int // the line of the last token consumed
	out  bytes.Buffer
}

func (f *formatter) peek() token { return f.toks[f.i] }

func (f *formatter) next() token {
	t := f.toks[f.i]
	if t.kind != tokEOF {
		f.i++
		f.line = t.pos.Line + strings.Count(t.text, "\n")
	}
	return t
}

func (f *formatter) is(s string) bool {
	t := f.peek()
	return t.kind == tokPunct && t.text == s
}

func isComment(t token) bool { return t.kind == tokComment || t.kind == tokDoc }

// items reads the items of a block up to its closing brace (or, for the
// declarations, the end of the file) and the comments before it. kind says
// what the block holds: "" declarations, "struct" fields, "enum" values,
// "union" variants.
func (f *formatter) items(kind string) ([]*fmtItem, []token) {
	var items []*fmtItem
	for {
		prev := f.line
		var lead []token
		for isComment(f.peek()) {
			lead = append(lead, f.next())
		}
		if f.is("}") || f.peek().kind == tokEOF {
			return items, lead
		}
		it := &fmtItem{lead: lead}
		first := f.peek().pos.Line
		if len(lead) > 0 {
			first = lead[0].pos.Line
		}
		it.blank = prev > 0 && first > prev+1
		switch kind {
		case "":
			body := "struct"
			for !f.is("{") {
				t := f.take(it)
				if t.kind == tokIdent && (t.text == "enum" || t.text == "union") && len(it.tokens) > 0 && (len(it.tokens) == 1 || it.tokens[len(it.tokens)-2].text == ")") {
					body = t.text
				}
			}
			f.body(it, body)
		case "struct":
			f.take(it) // name
			f.take(it) // :
			f.typ(it)
		case "enum":
			f.take(it)
			if f.is("=") {
				f.take(it)
				f.take(it)
			}
		case "union":
			f.take(it)
			if f.is("{") {
				f.body(it, "struct")
			}
		}
		end := f.line
		it.endLine = end
		for f.is(",") || f.is(";") {
			f.next()
		}
		if t := f.peek(); t.kind == tokComment && t.pos.Line == end && len(it.mid) == 0 {
			it.trailing = &t
			f.next()
		}
		items = append(items, it)
	}
}

// take appends the next token to the item, moving comments before it to
// the item's mid comments, and returns it.
func (f *formatter) take(it *fmtItem) token {
	for isComment(f.peek()) {
		it.mid = append(it.mid, f.next())
	}
	t := f.next()
	it.tokens = append(it.tokens, t)
	return t
}

// typ takes a type: []T, [N]T, ?T, Option<T> or a name.
func (f *formatter) typ(it *fmtItem) {
	t := f.take(it)
	switch {
	case t.kind == tokPunct && t.text == "[":
		if !f.is("]") {
			f.take(it)
		}
		f.take(it)
		f.typ(it)
	case t.kind == tokPunct && t.text == "?":
		f.typ(it)
	case t.kind == tokIdent && t.text == "Option" && f.is("<"):
		f.take(it)
		f.typ(it)
		f.take(it)
	}
}

// body reads `{ items }`.
func (f *formatter) body(it *fmtItem, kind string) {
	for isComment(f.peek()) {
		it.mid = append(it.mid, f.next())
	}
	f.next()
	it.hasBody = true
	it.body, it.inner = f.items(kind)
	f.next()
}

const fmtIndent = "    "

// print writes items at a nesting depth (0: declarations), then the
// comments that close the block.
func (f *formatter) print(items []*fmtItem, inner []token, depth int) {
	ind := strings.Repeat(fmtIndent, depth)
	for i, it := range items {
		if i > 0 && (depth == 0 || it.blank) {
			f.out.WriteString("\n")
		}
		f.comments(it.lead, ind)
		toks := it.tokens
		if depth == 0 && len(toks) > 0 && toks[0].text == "@" {
			// @id(N) on its own line.
			end := 0
			for end < len(toks) && !(toks[end].kind == tokPunct && toks[end].text == ")") {
				end++
			}
			f.out.WriteString(ind + joinTokens(toks[:end+1]) + "\n")
			toks = toks[end+1:]
		}
		mid := it.mid
		if depth == 0 {
			// Doc comments between @id(N) and the declaration stay there.
			f.comments(mid, ind)
			mid = nil
		}
		line := ind + joinTokens(toks)
		if it.hasBody {
			switch {
			case len(it.body) == 0 && len(it.inner) == 0:
				line += " {}"
			case depth > 0 && oneLine(it) && len(line)+len(inlineBody(it))+1 <= 100:
				line += " " + inlineBody(it)
			default:
				f.out.WriteString(line + " {\n")
				f.print(it.body, it.inner, depth+1)
				line = ind + "}"
			}
		}
		if depth > 0 {
			line += ","
		}
		if it.trailing != nil {
			line += " " + it.trailing.text
		}
		f.out.WriteString(line + "\n")
		for _, c := range mid {
			f.comment(c, ind)
		}
	}
	if len(inner) > 0 && len(items) > 0 && inner[0].pos.Line > items[len(items)-1].endLine+1 {
		f.out.WriteString("\n")
	}
	f.comments(inner, ind)
}

// comments writes comments on their own lines, keeping one blank line where
// the source has blank lines between them.
func (f *formatter) comments(cs []token, ind string) {
	for i, c := range cs {
		if i > 0 && c.pos.Line > cs[i-1].pos.Line+strings.Count(cs[i-1].text, "\n")+1 {
			f.out.WriteString("\n")
		}
		f.comment(c, ind)
	}
}

// comment writes a doc comment or a comment on its own line.
func (f *formatter) comment(c token, ind string) {
	if c.kind == tokDoc {
		if c.text == "" {
			f.out.WriteString(ind + "///\n")
		} else {
			f.out.WriteString(ind + "/// " + c.text + "\n")
		}
		return
	}
	f.out.WriteString(ind + c.text + "\n")
}

// oneLine reports an inline variant with fields that can stay on one line:
// no comments anywhere in it and no nested bodies.
func oneLine(it *fmtItem) bool {
	if len(it.inner) > 0 || len(it.mid) > 0 {
		return false
	}
	for _, m := range it.body {
		if len(m.lead) > 0 || m.trailing != nil || m.hasBody || len(m.mid) > 0 {
			return false
		}
	}
	return true
}

func inlineBody(it *fmtItem) string {
	parts := make([]string, len(it.body))
	for i, m := range it.body {
		parts[i] = joinTokens(m.tokens)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// joinTokens writes tokens with the canonical spacing: `name: Type`,
// `[4]u8`, `?T`, `Option<T>`, `@id(5)`, `A = 1`, `enum E: u8`.
func joinTokens(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && spaceBetween(toks[i-1], t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

func spaceBetween(a, b token) bool {
	if a.kind == tokComment || b.kind == tokComment {
		return true
	}
	if b.kind == tokPunct && strings.Contains(",:)]>;", b.text) {
		return false
	}
	if a.kind == tokPunct && strings.Contains("([<?@]", a.text) {
		return false
	}
	if b.kind == tokPunct && (b.text == "(" || b.text == "<") {
		return false
	}
	return true
}
