package codec

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONNesting bounds the nesting of JSON arrays and objects an encoder
// accepts, so that hostile JSON cannot exhaust the stack.
const maxJSONNesting = 10000

// lexer reads JSON text (RFC 8259) token by token. The encoder drives it
// along the schema, so values are converted as they are read.
type lexer struct {
	src  []byte
	pos  int
	path []byte // field path of the value being read
	nest int
}

// fail reports a problem of the JSON text itself (rule RuleJSON).
func (l *lexer) fail(format string, args ...interface{}) error {
	return l.failRule(RuleJSON, format, args...)
}

// failRule reports a value that has no encoding, by the rule it breaks
// (docs/wire-format.md, "Values that have no encoding").
func (l *lexer) failRule(rule, format string, args ...interface{}) error {
	return &EncodeError{Rule: rule, Path: string(l.path), Offset: l.pos, Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) pushField(name string) int {
	n := len(l.path)
	if n > 0 {
		l.path = append(l.path, '.')
	}
	l.path = append(l.path, name...)
	return n
}

func (l *lexer) pushIndex(i int) int {
	n := len(l.path)
	l.path = append(l.path, '[')
	l.path = strconv.AppendInt(l.path, int64(i), 10)
	l.path = append(l.path, ']')
	return n
}

func (l *lexer) pop(n int) { l.path = l.path[:n] }

func (l *lexer) ws() {
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case ' ', '\t', '\n', '\r':
			l.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, 0 at the end.
func (l *lexer) peek() byte {
	l.ws()
	if l.pos >= len(l.src) {
		return 0
	}
	return l.src[l.pos]
}

// describe names the next token for an error message.
func (l *lexer) describe() string {
	switch c := l.peek(); {
	case c == 0:
		return "the end of the input"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a bool"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c >= utf8.RuneSelf:
		return "a non-ASCII character"
	default:
		return fmt.Sprintf("%q", rune(c))
	}
}

// expected fails with "expected X, found Y" where the JSON holds a value of
// another type than the schema's (rule RuleType).
func (l *lexer) expected(what string) error {
	return l.failRule(RuleType, "expected %s, found %s", what, l.describe())
}

// syntax fails with "expected X, found Y" where the JSON text is malformed
// (rule RuleJSON).
func (l *lexer) syntax(what string) error {
	return l.fail("expected %s, found %s", what, l.describe())
}

// literal consumes the word (true, false, null) if it comes next.
func (l *lexer) literal(word string) bool {
	l.ws()
	end := l.pos + len(word)
	if end > len(l.src) || string(l.src[l.pos:end]) != word {
		return false
	}
	if end < len(l.src) && isWordByte(l.src[end]) {
		return false
	}
	l.pos = end
	return true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// punct consumes the punctuation byte c.
func (l *lexer) punct(c byte) error {
	if l.peek() != c {
		return l.syntax(fmt.Sprintf("%q", rune(c)))
	}
	l.pos++
	return nil
}

func (l *lexer) enter() error {
	l.nest++
	if l.nest > maxJSONNesting {
		return l.fail("JSON nested deeper than %d levels", maxJSONNesting)
	}
	return nil
}

func (l *lexer) leave() { l.nest-- }

// skip consumes any JSON value.
func (l *lexer) skip() error {
	switch c := l.peek(); {
	case c == '"':
		_, err := l.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, err := l.number()
		return err
	case l.literal("true") || l.literal("false") || l.literal("null"):
		return nil
	case c == '[' || c == '{':
		if err := l.enter(); err != nil {
			return err
		}
		l.pos++
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		for first := true; l.peek() != end; first = false {
			if !first {
				if err := l.punct(','); err != nil {
					return err
				}
			}
			if c == '{' {
				if _, err := l.str(); err != nil {
					return err
				}
				if err := l.punct(':'); err != nil {
					return err
				}
			}
			if err := l.skip(); err != nil {
				return err
			}
		}
		l.pos++
		l.leave()
		return nil
	}
	return l.syntax("a JSON value")
}

// number consumes a JSON number and returns its text.
func (l *lexer) number() (string, error) {
	l.ws()
	start := l.pos
	i := l.pos
	digits := func() int {
		n := 0
		for i < len(l.src) && l.src[i] >= '0' && l.src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(l.src) && l.src[i] == '-' {
		i++
	}
	if i < len(l.src) && l.src[i] == '0' {
		i++
	} else if digits() == 0 {
		return "", l.syntax("a number")
	}
	if i < len(l.src) && l.src[i] == '.' {
		i++
		if digits() == 0 {
			l.pos = i
			return "", l.fail("malformed number: digits must follow the decimal point")
		}
	}
	if i < len(l.src) && (l.src[i] == 'e' || l.src[i] == 'E') {
		i++
		if i < len(l.src) && (l.src[i] == '+' || l.src[i] == '-') {
			i++
		}
		if digits() == 0 {
			l.pos = i
			return "", l.fail("malformed number: digits must follow the exponent")
		}
	}
	if i < len(l.src) && (isWordByte(l.src[i]) || l.src[i] == '.') {
		l.pos = i
		return "", l.fail("malformed number")
	}
	l.pos = i
	return string(l.src[start:i]), nil
}

// str consumes a JSON string and returns its value. The text was checked to
// be valid UTF-8 beforehand; escapes that do not make valid UTF-8 (a lone
// surrogate) are errors, never replaced.
func (l *lexer) str() (string, error) {
	if l.peek() != '"' {
		return "", l.syntax("a string")
	}
	l.pos++
	start := l.pos
	var buf []byte // nil while the string has no escapes
	for {
		if l.pos >= len(l.src) {
			return "", l.fail("unterminated string")
		}
		c := l.src[l.pos]
		switch {
		case c == '"':
			var s string
			if buf == nil {
				s = string(l.src[start:l.pos])
			} else {
				s = string(buf)
			}
			l.pos++
			return s, nil
		case c < 0x20:
			return "", l.fail("control character 0x%02x in a string (write it as an escape)", c)
		case c == '\\':
			if buf == nil {
				buf = append([]byte{}, l.src[start:l.pos]...)
			}
			var err error
			if buf, err = l.escape(buf); err != nil {
				return "", err
			}
		default:
			if buf != nil {
				buf = append(buf, c)
			}
			l.pos++
		}
	}
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes the escape sequence at l.pos onto buf.
func (l *lexer) escape(buf []byte) ([]byte, error) {
	if l.pos+1 >= len(l.src) {
		return nil, l.fail("unterminated string")
	}
	c := l.src[l.pos+1]
	if r, ok := simpleEscapes[c]; ok {
		l.pos += 2
		return append(buf, r), nil
	}
	if c != 'u' {
		return nil, l.fail("invalid escape \\%c in a string", c)
	}
	r, err := l.hex4()
	if err != nil {
		return nil, err
	}
	if utf16.IsSurrogate(r) {
		if r >= 0xDC00 || l.pos+1 >= len(l.src) || l.src[l.pos] != '\\' || l.src[l.pos+1] != 'u' {
			return nil, l.failRule(RuleUTF8, "lone surrogate \\u%04x in a string cannot be encoded as UTF-8", r)
		}
		r2, err := l.hex4()
		if err != nil {
			return nil, err
		}
		if r2 < 0xDC00 || r2 > 0xDFFF {
			return nil, l.failRule(RuleUTF8, "lone surrogate \\u%04x in a string cannot be encoded as UTF-8", r)
		}
		r = utf16.DecodeRune(r, r2)
	}
	return utf8.AppendRune(buf, r), nil
}

// hex4 reads \uXXXX at l.pos.
func (l *lexer) hex4() (rune, error) {
	if l.pos+6 > len(l.src) {
		return 0, l.fail("truncated \\u escape in a string")
	}
	v, err := strconv.ParseUint(string(l.src[l.pos+2:l.pos+6]), 16, 16)
	if err != nil {
		return 0, l.fail("invalid \\u escape %q in a string", l.src[l.pos:l.pos+6])
	}
	l.pos += 6
	return rune(v), nil
}
