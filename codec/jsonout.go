package codec

import "unicode/utf8"

// jsonWriter writes indented JSON (two spaces, like json.MarshalIndent). Its
// methods do nothing on a nil writer, so a decoder that only annotates can
// skip the JSON.
type jsonWriter struct {
	buf      []byte
	depth    int
	empty    bool // the innermost open container has no items yet
	afterKey bool // a key was written; its value comes next
}

func (w *jsonWriter) item() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	if w.depth == 0 {
		return
	}
	if !w.empty {
		w.buf = append(w.buf, ',')
	}
	w.empty = false
	w.newline()
}

func (w *jsonWriter) newline() {
	w.buf = append(w.buf, '\n')
	for i := 0; i < w.depth; i++ {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *jsonWriter) open(c byte) {
	if w == nil {
		return
	}
	w.item()
	w.buf = append(w.buf, c)
	w.depth++
	w.empty = true
}

func (w *jsonWriter) close(c byte) {
	if w == nil {
		return
	}
	w.depth--
	if !w.empty {
		w.newline()
	}
	w.buf = append(w.buf, c)
	w.empty = false
}

func (w *jsonWriter) beginObject() { w.open('{') }
func (w *jsonWriter) endObject()   { w.close('}') }
func (w *jsonWriter) beginArray()  { w.open('[') }
func (w *jsonWriter) endArray()    { w.close(']') }

func (w *jsonWriter) key(name string) {
	if w == nil {
		return
	}
	w.item()
	w.buf = appendJSONString(w.buf, name)
	w.buf = append(w.buf, ':', ' ')
	w.afterKey = true
}

// value writes a JSON literal (number, true, false, null or a quoted string).
func (w *jsonWriter) value(text string) {
	if w == nil {
		return
	}
	w.item()
	w.buf = append(w.buf, text...)
}

func (w *jsonWriter) stringValue(s string) {
	if w == nil {
		return
	}
	w.item()
	w.buf = appendJSONString(w.buf, s)
}

func (w *jsonWriter) finish() []byte {
	return append(w.buf, '\n')
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes valid UTF-8 text as a JSON string: quotes,
// backslashes and control characters are escaped (U+2028 and U+2029 too, for
// JavaScript); everything else is written as is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&15])
			i += n
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
