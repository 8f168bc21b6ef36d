// Package naming converts schema names between the case styles target
// languages use. Each backend keeps its own keyword list and escaping rule;
// the schema checker already rejects names that would collide after a case
// change (`fooBar` vs `foo_bar`).
package naming

import (
	"strings"
	"unicode"
)

// Words splits a name at underscores and at case changes:
// "display_name" → [display name], "HTTPServer2Go" → [HTTP Server2 Go].
func Words(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if r == '_' {
			flush()
			continue
		}
		if i > 0 && unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func title(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
}

// Pascal: "display_name" → "DisplayName". A name already in Pascal case is
// kept ("HTTPServer" stays "HTTPServer").
func Pascal(name string) string {
	var b strings.Builder
	for _, w := range Words(name) {
		if isUpperWord(w) && len(w) > 1 && !strings.Contains(name, "_") {
			b.WriteString(w) // keep acronyms of names written in Pascal case
		} else {
			b.WriteString(title(w))
		}
	}
	return b.String()
}

// Camel: "display_name" → "displayName".
func Camel(name string) string { return camel(name, false) }

// camel is Camel, with initialisms after the first word in capitals if
// upper.
func camel(name string, upper bool) string {
	ws := Words(name)
	if len(ws) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(ws[0]))
	for _, w := range ws[1:] {
		if upper && initialisms[strings.ToUpper(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		b.WriteString(title(w))
	}
	return b.String()
}

// Snake: "DisplayName" → "display_name".
func Snake(name string) string {
	ws := Words(name)
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return strings.Join(ws, "_")
}

// ScreamingSnake: "DisplayName" → "DISPLAY_NAME".
func ScreamingSnake(name string) string { return strings.ToUpper(Snake(name)) }

func isUpperWord(w string) bool {
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// initialisms are the words Go's and Swift's conventions write in one case
// inside an identifier: "manufacturer_id" is ManufacturerID in Go and
// manufacturerID in Swift (the Swift API Design Guidelines, swift-protobuf).
var initialisms = map[string]bool{
	"ID": true, "URL": true, "URI": true, "HTTP": true, "HTTPS": true, "JSON": true,
	"XML": true, "API": true, "UUID": true, "IP": true, "TCP": true, "UDP": true,
	"CPU": true, "GPU": true, "UI": true, "SQL": true, "HTML": true, "ASCII": true,
	"UTF8": true, "RGB": true, "RGBA": true,
}

// PascalInitialisms is Pascal with the common initialisms in capitals:
// "manufacturer_id" → "ManufacturerID".
func PascalInitialisms(name string) string {
	var b strings.Builder
	for _, w := range Words(name) {
		if initialisms[strings.ToUpper(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		b.WriteString(Pascal(w))
	}
	return b.String()
}

// CamelInitialisms is Camel with the common initialisms after the first
// word in capitals (the first word is lower case, an initialism too):
// "manufacturer_id" → "manufacturerID", "id" → "id", "url_path" → "urlPath".
func CamelInitialisms(name string) string { return camel(name, true) }
