package conformance

import (
	"errors"
	"strconv"
	"strings"

	"sdp/codec"
)

// Rejection is the text of a testee's StatusRejected reply to OpRoundtrip or
// OpMessage, parsed. The language's own error text, in the layout of every
// language (docs/api.md, "One layout of error text"), reads
// "<rule> at offset <offset> in <path>: <message>", or without " in
// <path>" for a problem at the top level (Native). The older forms of the
// testee protocol are "<rule>: <message>"; with the error's offset
// "<rule> @<offset>: <message>"; with its offset and path
// "<rule> @<offset> <path>: <message>" (docs/conformance.md, "The testee
// protocol"). The path holds no space and no colon (schema names, '.',
// "[i]"), and is empty for a problem at the top level, which reads
// "<rule> @<offset> : <message>".
type Rejection struct {
	Rule    string
	Detail  bool // the text carries Offset
	HasPath bool // the text carries Path (Detail too)
	Native  bool // the text has the layout of docs/api.md (Detail and HasPath too)
	Offset  int
	Path    string
	Msg     string
}

// String formats r as a testee reports it.
func (r Rejection) String() string {
	if r.Native {
		if r.Path == "" {
			return r.Rule + " at offset " + strconv.Itoa(r.Offset) + ": " + r.Msg
		}
		return r.Rule + " at offset " + strconv.Itoa(r.Offset) + " in " + r.Path + ": " + r.Msg
	}
	if !r.Detail {
		return r.Rule + ": " + r.Msg
	}
	if !r.HasPath {
		return r.Rule + " @" + strconv.Itoa(r.Offset) + ": " + r.Msg
	}
	return r.Rule + " @" + strconv.Itoa(r.Offset) + " " + r.Path + ": " + r.Msg
}

// Where is the detail alone, "@<offset> <path>", for messages.
func (r Rejection) Where() string {
	if !r.Detail {
		return "(no offset and path)"
	}
	if !r.HasPath {
		return "@" + strconv.Itoa(r.Offset) + " (no path)"
	}
	return "@" + strconv.Itoa(r.Offset) + " " + strconv.Quote(r.Path)
}

// ParseRejection parses a rejection text; ok is false when it has neither
// form.
func ParseRejection(text string) (r Rejection, ok bool) {
	i := strings.IndexAny(text, " :")
	if i <= 0 {
		return Rejection{}, false
	}
	r.Rule = text[:i]
	for _, c := range r.Rule {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return Rejection{}, false
		}
	}
	rest := text[i:]
	if strings.HasPrefix(rest, " at offset ") {
		return parseNative(r.Rule, rest[len(" at offset "):])
	}
	if strings.HasPrefix(rest, ": ") {
		r.Msg = rest[2:]
		return r, true
	}
	if !strings.HasPrefix(rest, " @") {
		return Rejection{}, false
	}
	if r.Offset, rest, ok = leadingNumber(rest[2:], 12); !ok || rest == "" {
		return Rejection{}, false
	}
	if strings.HasPrefix(rest, ": ") {
		r.Detail = true
		r.Msg = rest[2:]
		return r, true
	}
	if rest[0] != ' ' {
		return Rejection{}, false
	}
	rest = rest[1:]
	k := strings.Index(rest, ": ")
	if k < 0 {
		return Rejection{}, false
	}
	r.Path = rest[:k]
	if !validPath(r.Path) {
		return Rejection{}, false
	}
	r.Detail, r.HasPath = true, true
	r.Msg = rest[k+2:]
	return r, true
}

// parseNative parses the rest of "<rule> at offset <offset>[ in <path>]:
// <message>" after "at offset ".
func parseNative(rule, rest string) (Rejection, bool) {
	r := Rejection{Rule: rule, Detail: true, HasPath: true, Native: true}
	var ok bool
	if r.Offset, rest, ok = leadingNumber(rest, 12); !ok {
		return Rejection{}, false
	}
	if strings.HasPrefix(rest, " in ") {
		rest = rest[len(" in "):]
		k := strings.Index(rest, ": ")
		if k <= 0 || !validPath(rest[:k]) {
			return Rejection{}, false
		}
		r.Path, rest = rest[:k], rest[k:]
	}
	if !strings.HasPrefix(rest, ": ") {
		return Rejection{}, false
	}
	r.Msg = rest[2:]
	return r, true
}

func validPath(p string) bool {
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// ParseStreamRejection parses a stream error in the layout of every
// language (docs/api.md, "One layout of error text"): "message <index> at
// stream offset <start>: " and a decode error whose offset counts from
// the message's first byte. It returns the stream form of the testee
// protocol, "<rule> <index> <offset>" with the problem's stream offset
// (start + the decode error's offset), and the decode error.
func ParseStreamRejection(text string) (stream string, r Rejection, ok bool) {
	var index, start int
	rest, found := cutPrefix(text, "message ")
	if !found {
		return "", Rejection{}, false
	}
	if index, rest, ok = leadingNumber(rest, 12); !ok {
		return "", Rejection{}, false
	}
	rest, found = cutPrefix(rest, " at stream offset ")
	if !found {
		return "", Rejection{}, false
	}
	if start, rest, ok = leadingNumber(rest, 15); !ok {
		return "", Rejection{}, false
	}
	rest, found = cutPrefix(rest, ": ")
	if !found {
		return "", Rejection{}, false
	}
	r, ok = ParseRejection(rest)
	if !ok || !r.Native {
		return "", Rejection{}, false
	}
	return r.Rule + " " + strconv.Itoa(index) + " " + strconv.Itoa(start+r.Offset), r, true
}

// leadingNumber reads the decimal digits that start s (at least one, at
// most maxDigits) and returns their value and what follows them.
func leadingNumber(s string, maxDigits int) (n int, rest string, ok bool) {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || j > maxDigits {
		return 0, s, false
	}
	n, _ = strconv.Atoi(s[:j])
	return n, s[j:], true
}

// cutPrefix is strings.CutPrefix, which Go 1.19 lacks.
func cutPrefix(s, prefix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// ReferenceRejection is the reference codec's rejection of err (a
// *codec.DecodeError), with its offset and path.
func ReferenceRejection(err error) (Rejection, bool) {
	var de *codec.DecodeError
	if !errors.As(err, &de) {
		return Rejection{}, false
	}
	return Rejection{Rule: de.Rule, Detail: true, HasPath: true, Offset: de.Offset, Path: de.Path, Msg: de.Msg}, true
}

// Detail is what a language's rejections must carry.
type Detail int

const (
	DetailNone   Detail = iota // "<rule>: <message>" is enough
	DetailOffset               // at least "<rule> @<offset>: <message>"
	DetailPath                 // "<rule> @<offset> <path>: <message>"
	// DetailNative: the language's own error text, in the layout of
	// docs/api.md ("One layout of error text"), for plain, message and
	// stream vectors alike.
	DetailNative
)

// detailed lists the backends whose testees report the offset (and path) of
// every OpRoundtrip and OpMessage rejection: for them the runners fail a
// rejection with less, so a converted backend cannot fall back to a shorter
// form. The reference testee is one of them.
var detailed = map[string]Detail{
	"reference": DetailPath,
	"go":        DetailNative,
	"python":    DetailNative,
	"rust":      DetailNative,
	"c":         DetailNative,
	"cpp":       DetailPath,
	"swift":     DetailNative,
	"ts":        DetailNative,
	"js":        DetailNative,
	"java":      DetailNative,
}

// RequiresDetail reports what lang's rejections must carry.
func RequiresDetail(lang string) Detail { return detailed[lang] }
