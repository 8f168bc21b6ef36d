package schema

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokInt
	tokPunct // one of { } [ ] ( ) < > ? : , = @
	tokDoc   // a `///` comment line
	// tokComment is a `//` comment or a `/* */` block, as written; only the
	// formatter asks for them (lexComments).
	tokComment
)

type token struct {
	kind tokKind
	text string // identifier, punctuation, number as written, or doc text
	pos  Pos
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokIdent:
		return fmt.Sprintf("%q", t.text)
	case tokInt:
		return "number " + t.text
	case tokDoc:
		return "doc comment"
	case tokComment:
		return "comment"
	}
	return fmt.Sprintf("%q", t.text)
}

// lex splits src into tokens. `//` comments and `/* */` blocks are dropped;
// `///` lines become tokDoc. CR before LF is ignored, so CRLF files work.
func lex(file string, src []byte, errs *ErrorList) []token {
	return lexComments(file, src, errs, false)
}

// lexComments is lex, keeping `//` comments and `/* */` blocks as
// tokComment tokens when comments is set.
func lexComments(file string, src []byte, errs *ErrorList, comments bool) []token {
	toks := make([]token, 0, countTokens(src))
	text := string(src) // one copy: token texts are slices of it
	line, col := 1, 1
	i := 0
	pos := func() Pos { return Pos{File: file, Line: line, Col: col} }
	advance := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3 // UTF-8 byte order mark
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			p := pos()
			end := i
			for end < len(src) && src[end] != '\n' {
				end++
			}
			text := strings.TrimRight(string(src[i:end]), "\r")
			if strings.HasPrefix(text, "///") && !strings.HasPrefix(text, "////") {
				text = strings.TrimPrefix(text, "///")
				text = strings.TrimPrefix(text, " ")
				if !utf8.ValidString(text) {
					errs.add(p, "doc comment is not valid UTF-8", "")
				}
				toks = append(toks, token{kind: tokDoc, text: text, pos: p})
			} else if comments {
				toks = append(toks, token{kind: tokComment, text: strings.TrimRight(text, " \t"), pos: p})
			}
			advance(end - i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			p := pos()
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				errs.add(p, "unterminated /* comment", "close it with */")
				advance(len(src) - i)
				break
			}
			if comments {
				toks = append(toks, token{kind: tokComment, text: strings.ReplaceAll(string(src[i:i+end+4]), "\r\n", "\n"), pos: p})
			}
			advance(end + 4)
		case isIdentStart(c):
			p := pos()
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			name := text[i:j]
			if strings.Trim(name, "_") == "" {
				// `_` would be no name at all after case conversion, and is
				// reserved or a placeholder in Go, Rust, Swift and Python.
				errs.add(p, fmt.Sprintf("name %q has no letter or digit", name), "names need at least one ASCII letter or digit besides _")
			}
			toks = append(toks, token{kind: tokIdent, text: name, pos: p})
			advance(j - i)
		case c >= '0' && c <= '9':
			p := pos()
			j := i
			for j < len(src) && (isIdentPart(src[j])) {
				j++
			}
			toks = append(toks, token{kind: tokInt, text: text[i:j], pos: p})
			advance(j - i)
		case strings.IndexByte("{}[]()<>?:,=@;", c) >= 0:
			toks = append(toks, token{kind: tokPunct, text: text[i : i+1], pos: pos()})
			advance(1)
		default:
			p := pos()
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				errs.add(p, "invalid UTF-8 in schema", "")
				size = 1
			} else {
				errs.add(p, fmt.Sprintf("unexpected character %q", r), "names use ASCII letters, digits and _")
			}
			for k := 0; k < size && i < len(src); k++ {
				advance(1)
			}
		}
	}
	return append(toks, token{kind: tokEOF, pos: pos()})
}

// countTokens is a quick upper estimate of the tokens in src (comments
// counted as words), so the token slice is allocated once.
func countTokens(src []byte) int {
	n, word := 1, false
	for _, c := range src {
		w := isIdentPart(c)
		if w && !word || !w && c > ' ' {
			n++
		}
		word = w
	}
	return n
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// parseUint reads a decimal or 0x hexadecimal literal.
func parseUint(text string) (uint64, error) {
	t := strings.ReplaceAll(text, "_", "")
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		return strconv.ParseUint(t[2:], 16, 64)
	}
	if len(t) > 1 && t[0] == '0' {
		return 0, fmt.Errorf("leading zero")
	}
	return strconv.ParseUint(t, 10, 64)
}
