package lsp

import (
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"sdp/schema"
)

// document is one open file: its text and what the schema package found in
// it.
type document struct {
	uri     string
	path    string // for positions in messages
	version int
	text    []byte
	lines   []int // byte offset where each line starts
	bom     int   // 3 when the text starts with a UTF-8 byte order mark
	a       *schema.Analysis
	// compat is the last sdp compat code action's findings, shown until
	// the text changes.
	compat []diagnostic
}

func newDocument(uri string, version int, text string) *document {
	d := &document{uri: uri, path: uriPath(uri), version: version}
	d.set(text)
	return d
}

func (d *document) set(text string) {
	d.text = []byte(text)
	d.lines = lineStarts(d.text)
	d.bom = 0
	if strings.HasPrefix(text, "\xEF\xBB\xBF") {
		d.bom = 3
	}
	d.a = schema.Analyze(d.path, d.text)
	d.compat = nil
}

// uriPath is the file path of a file: URI (what `sdp check` would print),
// or the URI itself for other schemes.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isLetter(p[1]) {
		p = p[1:] // file:///C:/x is C:/x
	}
	return filepath.FromSlash(p)
}

// lineText is line i (0-based) without its line ending.
func (d *document) lineText(i int) []byte {
	if i < 0 || i >= len(d.lines) {
		return nil
	}
	end := len(d.text)
	if i+1 < len(d.lines) {
		end = d.lines[i+1]
	}
	l := d.text[d.lines[i]:end]
	for len(l) > 0 && (l[len(l)-1] == '\n' || l[len(l)-1] == '\r') {
		l = l[:len(l)-1]
	}
	return l
}

// offset converts an LSP position (UTF-16 code units) to a byte offset in
// the text, clamped to the line.
func (d *document) offset(p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.lines) {
		return len(d.text)
	}
	line := d.lineText(p.Line)
	units, i := 0, 0
	for i < len(line) && units < p.Character {
		r, size := utf8.DecodeRune(line[i:])
		units += utf16Len(r) // an invalid byte decodes to U+FFFD: 1 unit
		i += size
	}
	return d.lines[p.Line] + i
}

// position converts a byte offset to an LSP position.
func (d *document) position(off int) position {
	if off > len(d.text) {
		off = len(d.text)
	}
	// The line: the last start at or before off.
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	units := 0
	for i := d.lines[lo]; i < off; {
		r, size := utf8.DecodeRune(d.text[i:])
		if i+size > off {
			break // off is inside this character: its start
		}
		units += utf16Len(r) // an invalid byte decodes to U+FFFD: 1 unit
		i += size
	}
	return position{Line: lo, Character: units}
}

// posOffset converts a schema position (1-based line, 1-based byte column)
// to a byte offset.
func (d *document) posOffset(p schema.Pos) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(d.lines) {
		return len(d.text)
	}
	off := d.lines[p.Line-1] + p.Col - 1
	if p.Line == 1 {
		off += d.bom
	}
	if off > len(d.text) {
		off = len(d.text)
	}
	return off
}

// schemaPos converts a byte offset to a schema position.
func (d *document) schemaPos(off int) schema.Pos {
	lp := d.position(off)
	col := off - d.lines[lp.Line] + 1
	if lp.Line == 0 {
		col -= d.bom
	}
	return schema.Pos{File: d.path, Line: lp.Line + 1, Col: col}
}

// nameRange is the range of n bytes at schema position p.
func (d *document) nameRange(p schema.Pos, n int) lspRange {
	off := d.posOffset(p)
	end := off + n
	if end > len(d.text) {
		end = len(d.text)
	}
	return lspRange{Start: d.position(off), End: d.position(end)}
}

// tokenRange is the range of the token at p: a name or number, or one
// character; empty at the end of a line or of the text.
func (d *document) tokenRange(p schema.Pos) lspRange {
	off := d.posOffset(p)
	end := off
	for end < len(d.text) && isWordByte(d.text[end]) {
		end++
	}
	if end == off && off < len(d.text) && d.text[off] != '\n' && d.text[off] != '\r' {
		_, size := utf8.DecodeRune(d.text[off:])
		end += size
	}
	return lspRange{Start: d.position(off), End: d.position(end)}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wordAt is the name around byte offset off and where it starts.
func (d *document) wordAt(off int) (string, int) {
	start, end := off, off
	for start > 0 && isWordByte(d.text[start-1]) {
		start--
	}
	for end < len(d.text) && isWordByte(d.text[end]) {
		end++
	}
	return string(d.text[start:end]), start
}

// fullRange covers the whole text.
func (d *document) fullRange() lspRange {
	return lspRange{Start: position{}, End: d.position(len(d.text))}
}

// utf16Len is how many UTF-16 code units r takes (utf16.RuneLen is newer
// than Go 1.19).
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
