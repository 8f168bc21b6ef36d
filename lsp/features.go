package lsp

import (
	"encoding/json"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/schema"
)

// target is what the cursor is on.
type target struct {
	decl    *schema.DeclInfo   // a declaration's name, or the declaration a name refers to
	member  *schema.MemberInfo // a field, value or variant name
	owner   *schema.DeclInfo   // the member's declaration
	variant *schema.MemberInfo // the inline variant a field belongs to
	ref     bool               // the name is a use, not a declaration
	pos     schema.Pos         // where the name under the cursor starts
	name    string
}

func within(p, at schema.Pos, name string) bool {
	return p.Line == at.Line && p.Col >= at.Col && p.Col <= at.Col+len(name)
}

// targetAt finds the name at an LSP position.
func (d *document) targetAt(lp position) *target {
	p := d.schemaPos(d.offset(lp))
	a := d.a
	for _, r := range a.Refs {
		if within(p, r.Pos, r.Name) && !r.Variant {
			return &target{decl: r.Decl, ref: true, pos: r.Pos, name: r.Name}
		}
	}
	for _, di := range a.Decls {
		if p.Line < di.Start.Line || p.Line > di.End.Line {
			continue
		}
		if within(p, di.Pos, di.Name) {
			return &target{decl: di, pos: di.Pos, name: di.Name}
		}
		for _, m := range di.Members {
			if within(p, m.Pos, m.Name) {
				t := &target{member: m, owner: di, pos: m.Pos, name: m.Name}
				if m.Kind == "variant" && !m.HasBody {
					t.decl = a.Decl(m.Name) // a variant that names a struct
					t.ref = t.decl != nil
				}
				return t
			}
			for _, f := range m.Members {
				if within(p, f.Pos, f.Name) {
					return &target{member: f, owner: di, variant: m, pos: f.Pos, name: f.Name}
				}
			}
		}
	}
	return nil
}

func (s *Server) positionParams(params json.RawMessage) (*document, *target, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, nil, err
	}
	return d, d.targetAt(p.Position), nil
}

func isPlain(st *schema.Struct) bool {
	_, ok := gen.PlainStruct(st)
	return ok
}

// layout is the layout of a declaration, or nil while it (or a type it
// holds) has errors.
func (d *document) layout(di *schema.DeclInfo) *schema.Layout {
	return d.a.Layout(di, isPlain)
}

const noLayout = "_Sizes and offsets appear when this type and the types it holds have no errors._"

func (s *Server) hover(params json.RawMessage) (interface{}, error) {
	d, t, err := s.positionParams(params)
	if err != nil || t == nil {
		return nil, err
	}
	var md string
	switch {
	case t.member != nil && t.member.Kind == "field":
		md = d.fieldHover(t)
	case t.member != nil && t.member.Kind == "value":
		md = d.valueHover(t)
	case t.member != nil && t.member.Kind == "variant":
		md = d.variantHover(t)
	case t.decl != nil:
		md = d.declHover(t.decl)
	default:
		md = fmt.Sprintf("`%s`: unknown type", t.name)
	}
	r := d.nameRange(t.pos, len(t.name))
	return hover{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}, nil
}

func docText(doc []string) string {
	if len(doc) == 0 {
		return ""
	}
	return "\n\n---\n\n" + strings.Join(doc, "\n")
}

func sizeMD(size int, fixed bool) string {
	if fixed {
		return fmt.Sprintf("%d bytes", size)
	}
	return fmt.Sprintf("variable, min %d bytes", size)
}

// fieldHover: the field's type, offset in its struct (or variant), size
// and doc comment.
func (d *document) fieldHover(t *target) string {
	m := t.member
	where := "struct `" + t.owner.Name + "`"
	if t.variant != nil {
		where = "variant `" + t.owner.Name + "." + t.variant.Name + "` (the tag is byte 0)"
	}
	md := fmt.Sprintf("```sdp\n%s: %s\n```\nfield of %s", m.Name, m.Type, where)
	var fields []schema.FieldLayout
	if l := d.layout(t.owner); l != nil {
		if t.variant == nil {
			fields = l.Fields
		} else {
			for _, v := range l.Variants {
				if v.Name == t.variant.Name {
					fields = v.Fields
				}
			}
		}
	}
	var fl *schema.FieldLayout
	for i := range fields {
		if fields[i].Field != nil && fields[i].Name == m.Name {
			fl = &fields[i]
		}
	}
	if fl == nil {
		return md + "\n\n" + noLayout + docText(m.Doc)
	}
	md += fmt.Sprintf("\n\n**offset** `%s` · **size** %s", fl.OffsetText, sizeMD(fl.Size, fl.Fixed))
	if !fl.Offset.Exact() {
		// Name the field whose end the offset counts from.
		for _, f := range fields {
			if f.Ends == "v"+fmt.Sprint(fl.Offset.Base) {
				md += fmt.Sprintf("\n\n`v%d` is where `%s` ends: fields after a variable-size one have offsets relative to its end", fl.Offset.Base, f.Name)
			}
		}
	}
	if fl.Ends != "" {
		md += fmt.Sprintf("\n\nit ends at `%s`", fl.Ends)
	}
	return md + docText(m.Doc)
}

func (d *document) valueHover(t *target) string {
	md := fmt.Sprintf("```sdp\n%s.%s\n```", t.owner.Name, t.member.Name)
	if l := d.layout(t.owner); l != nil {
		for _, v := range l.Values {
			if v.Name == t.member.Name {
				md = fmt.Sprintf("```sdp\n%s.%s = %d\n```\nvalue of enum `%s` (%s on the wire)", t.owner.Name, v.Name, v.Value, l.Name, l.Base)
			}
		}
	}
	return md + docText(t.member.Doc)
}

func (d *document) variantHover(t *target) string {
	md := fmt.Sprintf("```sdp\n%s.%s\n```", t.owner.Name, t.member.Name)
	l := d.layout(t.owner)
	if l == nil {
		md += "\n\n" + noLayout
	} else {
		for _, v := range l.Variants {
			if v.Name == t.member.Name {
				md += fmt.Sprintf("\nvariant of union `%s`: **tag** %d, **size** %s (tag included)", l.Name, v.Tag, sizeMD(v.Size, v.Fixed))
			}
		}
	}
	md += docText(t.member.Doc)
	if t.decl != nil {
		md += "\n\n---\n\ncarries " + d.declHover(t.decl)
	}
	return md
}

// declHover: size, plain, message type id, fingerprint (structs); wire type
// and values (enums); then the layout table and the doc comment.
func (d *document) declHover(di *schema.DeclInfo) string {
	md := fmt.Sprintf("```sdp\n%s %s\n```\n", di.Kind, di.Name)
	l := d.layout(di)
	if l == nil {
		return md + noLayout + docText(di.Doc)
	}
	var facts []string
	switch l.Kind {
	case "enum":
		facts = append(facts, fmt.Sprintf("**wire type** %s (%d bytes)", l.Base, l.Size))
	default:
		if l.Fixed {
			facts = append(facts, fmt.Sprintf("**fixed size** %d bytes", l.Size))
		} else {
			facts = append(facts, fmt.Sprintf("**variable size**, min %d bytes", l.Size))
		}
	}
	if l.Kind == "struct" {
		if l.Plain {
			facts = append(facts, "**plain** (arrays of it are copied in bulk)")
		} else {
			facts = append(facts, "not plain")
		}
		how := "by position"
		if l.ExplicitID {
			how = "@id"
		}
		facts = append(facts, fmt.Sprintf("**message type id** %d (%s)", l.ID, how))
	}
	if l.Recursive {
		facts = append(facts, "recursive")
	}
	facts = append(facts, fmt.Sprintf("**fingerprint** `%s`", l.Fingerprint))
	md += strings.Join(facts, " · ")
	var table strings.Builder
	l.WriteText(&table)
	body := table.String()
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:] // the headline is above, in words
	}
	if strings.TrimSpace(body) != "" {
		md += "\n\n```text\n" + body + "```"
	}
	return md + docText(di.Doc)
}

func (s *Server) definition(params json.RawMessage) (interface{}, error) {
	d, t, err := s.positionParams(params)
	if err != nil || t == nil || t.decl == nil {
		return nil, err
	}
	return []location{{URI: d.uri, Range: d.nameRange(t.decl.Pos, len(t.decl.Name))}}, nil
}

func (s *Server) references(params json.RawMessage) (interface{}, error) {
	var p referenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	t := d.targetAt(p.Position)
	if t == nil {
		return nil, nil
	}
	out := []location{}
	if t.decl == nil {
		if t.member != nil && p.Context.IncludeDeclaration {
			out = append(out, location{URI: d.uri, Range: d.nameRange(t.pos, len(t.name))})
		}
		return out, nil
	}
	if p.Context.IncludeDeclaration {
		out = append(out, location{URI: d.uri, Range: d.nameRange(t.decl.Pos, len(t.decl.Name))})
	}
	for _, r := range d.a.Refs {
		if r.Decl == t.decl {
			out = append(out, location{URI: d.uri, Range: d.nameRange(r.Pos, len(r.Name))})
		}
	}
	sortLocations(out)
	return out, nil
}

func (s *Server) prepareRename(params json.RawMessage) (interface{}, error) {
	d, t, err := s.positionParams(params)
	if err != nil {
		return nil, err
	}
	if t == nil || t.decl == nil && t.member == nil {
		return nil, nil
	}
	return map[string]interface{}{"range": d.nameRange(t.pos, len(t.name)), "placeholder": t.name}, nil
}

func validName(n string) bool {
	if n == "" || !(n[0] == '_' || n[0] >= 'a' && n[0] <= 'z' || n[0] >= 'A' && n[0] <= 'Z') || strings.Trim(n, "_") == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !isWordByte(n[i]) {
			return false
		}
	}
	return true
}

// rename renames a declaration and every use of it, or one member. The
// result is checked: a rename that makes the schema invalid is refused,
// and one that changes a fingerprint or message type id (a union variant
// that starts or stops naming a struct, say) carries a change annotation
// that asks for confirmation, and a warning message.
func (s *Server) rename(params json.RawMessage) (interface{}, error) {
	var p renameParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	t := d.targetAt(p.Position)
	if t == nil || t.decl == nil && t.member == nil {
		return nil, &rpcError{codeRequestFailed, "nothing to rename here"}
	}
	if !validName(p.NewName) {
		return nil, &rpcError{codeRequestFailed, fmt.Sprintf("%q is not a name: use ASCII letters, digits and _", p.NewName)}
	}
	if schema.IsScalarName(p.NewName) {
		return nil, &rpcError{codeRequestFailed, fmt.Sprintf("%q is a built-in type", p.NewName)}
	}
	type span struct{ off, n int }
	var spans []span
	oldName := t.name
	if t.decl != nil {
		oldName = t.decl.Name
		spans = append(spans, span{d.posOffset(t.decl.Pos), len(t.decl.Name)})
		for _, r := range d.a.Refs {
			if r.Decl == t.decl {
				spans = append(spans, span{d.posOffset(r.Pos), len(r.Name)})
			}
		}
	} else {
		spans = append(spans, span{d.posOffset(t.pos), len(t.name)})
	}
	// The text after the rename, to check it.
	sortSpans := func() {
		for i := 1; i < len(spans); i++ {
			for j := i; j > 0 && spans[j].off < spans[j-1].off; j-- {
				spans[j], spans[j-1] = spans[j-1], spans[j]
			}
		}
	}
	sortSpans()
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.Write(d.text[last:sp.off])
		b.WriteString(p.NewName)
		last = sp.off + sp.n
	}
	b.Write(d.text[last:])
	after := schema.Analyze(d.path, []byte(b.String()))
	if len(after.Diagnostics) > len(d.a.Diagnostics) || d.a.Schema != nil && after.Schema == nil {
		msg := "the rename would make the schema invalid"
		if len(after.Diagnostics) > 0 {
			msg += ": " + after.Diagnostics[0].Msg
		}
		return nil, &rpcError{codeRequestFailed, msg}
	}
	notes := wireChanges(d.a.Schema, after.Schema, func(name string) string {
		if t.decl != nil && name == oldName {
			return p.NewName
		}
		return name
	})
	edits := make([]textEdit, len(spans))
	for i, sp := range spans {
		edits[i] = textEdit{Range: lspRange{Start: d.position(sp.off), End: d.position(sp.off + sp.n)}, NewText: p.NewName}
	}
	v := d.version
	we := workspaceEdit{DocumentChanges: []textDocumentEdit{{TextDocument: versionedTextDocumentIdentifier{URI: d.uri, Version: &v}, Edits: edits}}}
	if len(notes) > 0 {
		const id = "sdp.wire"
		for i := range edits {
			edits[i].AnnotationID = id
		}
		msg := fmt.Sprintf("Renaming %s to %s changes the wire format: %s", oldName, p.NewName, strings.Join(notes, "; "))
		we.ChangeAnnotations = map[string]changeAnnotation{id: {Label: "changes the wire format", NeedsConfirmation: true, Description: msg}}
		s.showMessage(2, msg)
	}
	return we, nil
}

// wireChanges lists the fingerprints and message type ids that differ
// between two versions of a schema, declarations matched by rename. Only
// declarations whose own text changed (references written by name, renamed
// ones mapped) or that hold one are fingerprinted: a rename touches few.
func wireChanges(before, after *schema.Schema, rename func(string) string) []string {
	if before == nil || after == nil {
		return nil
	}
	local := func(d schema.Decl, name func(string) string) string {
		return schema.LocalShape(d, func(to schema.Decl) string { return name(to.DeclName()) })
	}
	same := func(n string) string { return n }
	pairs := map[schema.Decl]schema.Decl{} // new → old
	var queue []schema.Decl
	affected := map[schema.Decl]bool{}
	for _, od := range before.Decls {
		nd := after.Lookup(rename(od.DeclName()))
		if nd == nil {
			continue
		}
		pairs[nd] = od
		ost, oStruct := od.(*schema.Struct)
		nst, nStruct := nd.(*schema.Struct)
		if oStruct != nStruct || oStruct && ost.ID != nst.ID || local(od, rename) != local(nd, same) {
			affected[nd] = true
			queue = append(queue, nd)
		}
	}
	if len(queue) == 0 {
		return nil
	}
	// Everything that holds an affected declaration is affected.
	holders := map[schema.Decl][]schema.Decl{}
	for _, d := range after.Decls {
		schema.LocalShape(d, func(to schema.Decl) string {
			holders[to] = append(holders[to], d)
			return ""
		})
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, h := range holders[d] {
			if !affected[h] {
				affected[h] = true
				queue = append(queue, h)
			}
		}
	}
	var notes []string
	for _, nd := range after.Decls {
		od := pairs[nd]
		if !affected[nd] || od == nil {
			continue
		}
		if ost, ok := od.(*schema.Struct); ok {
			if nst, ok := nd.(*schema.Struct); ok && ost.ID != nst.ID {
				notes = append(notes, fmt.Sprintf("%s's message type id %d becomes %d", nd.DeclName(), ost.ID, nst.ID))
			}
		}
		if of, nf := schema.Fingerprint(od), schema.Fingerprint(nd); of != nf {
			notes = append(notes, fmt.Sprintf("%s's fingerprint %s becomes %s", nd.DeclName(), schema.FormatFingerprint(of), schema.FormatFingerprint(nf)))
		}
	}
	return notes
}

func (s *Server) documentSymbol(params json.RawMessage) (interface{}, error) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []documentSymbol{}
	for _, di := range d.a.Decls {
		kind := map[string]int{"struct": symStruct, "enum": symEnum, "union": symClass}[di.Kind]
		sym := documentSymbol{Name: di.Name, Detail: di.Kind, Kind: kind,
			Range:          lspRange{Start: d.position(d.posOffset(di.Start)), End: d.tokenRange(di.End).End},
			SelectionRange: d.nameRange(di.Pos, len(di.Name))}
		if sym.Range.End.Line < sym.SelectionRange.End.Line ||
			sym.Range.End.Line == sym.SelectionRange.End.Line && sym.Range.End.Character < sym.SelectionRange.End.Character {
			sym.Range.End = sym.SelectionRange.End
		}
		for _, m := range di.Members {
			sym.Children = append(sym.Children, d.memberSymbol(m))
		}
		out = append(out, sym)
	}
	return out, nil
}

func (d *document) memberSymbol(m *schema.MemberInfo) documentSymbol {
	sel := d.nameRange(m.Pos, len(m.Name))
	sym := documentSymbol{Name: m.Name, Detail: m.Type, Kind: symField, Range: sel, SelectionRange: sel}
	switch m.Kind {
	case "value":
		sym.Kind = symEnumMember
	case "variant":
		sym.Kind = symEnumMember
		for _, f := range m.Members {
			c := d.memberSymbol(f)
			sym.Children = append(sym.Children, c)
			sym.Range.End = c.Range.End
		}
	}
	return sym
}

var keywords = []string{"struct", "enum", "union"}

// completion offers type names (declared and built-in) where a type is
// written, and the declaration keywords outside declarations.
func (s *Server) completion(params json.RawMessage) (interface{}, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := d.offset(p.Position)
	_, start := d.wordAt(off)
	before := strings.TrimRight(string(d.text[d.lines[d.position(start).Line]:start]), " \t")
	typeContext := strings.HasSuffix(before, ":") || strings.HasSuffix(before, "]") ||
		strings.HasSuffix(before, "?") || strings.HasSuffix(before, "<")
	inDecl := false
	sp := d.schemaPos(start)
	for _, di := range d.a.Decls {
		if (sp.Line > di.Pos.Line || sp.Line == di.Pos.Line && sp.Col > di.Pos.Col) &&
			(sp.Line < di.End.Line || sp.Line == di.End.Line && sp.Col <= di.End.Col) {
			inDecl = true
		}
	}
	items := []completionItem{}
	if typeContext || inDecl {
		for _, di := range d.a.Decls {
			kind := map[string]int{"struct": compStruct, "enum": compEnum, "union": compClass}[di.Kind]
			it := completionItem{Label: di.Name, Kind: kind, Detail: di.Kind, SortText: "1" + di.Name}
			if len(di.Doc) > 0 {
				it.Documentation = &markupContent{Kind: "markdown", Value: strings.Join(di.Doc, "\n")}
			}
			items = append(items, it)
		}
		for _, n := range schema.ScalarNames() {
			items = append(items, completionItem{Label: n, Kind: compTypeParameter, Detail: "built-in type", SortText: "2" + n})
		}
		items = append(items, completionItem{Label: "Option", Kind: compKeyword, Detail: "Option<T>: the same as ?T", SortText: "3Option"})
	}
	if !typeContext && !inDecl {
		for _, k := range keywords {
			items = append(items, completionItem{Label: k, Kind: compKeyword, SortText: "0" + k})
		}
	}
	return completionList{Items: items}, nil
}

func (s *Server) formatting(params json.RawMessage) (interface{}, error) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out, err := schema.Format(d.path, d.text)
	if err != nil {
		return nil, &rpcError{codeRequestFailed, "the schema does not parse; fix its syntax errors first"}
	}
	if string(out) == string(d.text) {
		return []textEdit{}, nil
	}
	return []textEdit{{Range: d.fullRange(), NewText: string(out)}}, nil
}
