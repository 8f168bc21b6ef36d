// Package codec is the schema-driven reference codec of SDP: it converts
// values between the JSON mapping (docs/json-mapping.md) and the wire format
// (docs/wire-format.md) for any schema, with no code generation.
//
// It produces the conformance corpus's golden vectors and backs the
// `sdp encode` and `sdp decode` commands. Decoding is strict and safe on
// untrusted input: every rule of the wire format is checked, counts are
// checked against the remaining input before anything is allocated, nesting
// is limited, and no input makes it panic. Encoding is canonical, so decoding
// to JSON and encoding that JSON reproduces the input byte for byte.
package codec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sdp/schema"
)

// DefaultMaxDepth is the nesting limit used when Options.MaxDepth is 0.
const DefaultMaxDepth = 64

// HeaderSize is the size of a message header: magic, type id, payload length.
const HeaderSize = 10

// Magic starts every message: "SDP2".
const Magic = "SDP2"

// Options tune decoding.
type Options struct {
	// MaxDepth is the nesting limit (docs/wire-format.md, rule 9): the
	// top-level value is at depth 1 and every nested struct or union value one
	// deeper. 0 (or less) means DefaultMaxDepth.
	MaxDepth int

	// MemoryLimit is the memory limit of rule 11 (docs/wire-format.md) in
	// bytes of nominal size. 0 means the default: 32 × the input's length
	// (a message's payload length) + 1 MiB (schema.DefaultMemoryLimit).
	MemoryLimit uint64

	// AnnotateElems is how many elements of each array AnnotateWith and
	// AnnotateMessageWith describe one by one before they summarize the
	// rest in one line: 0 means the default (16 elements of numbers, bools
	// and enums, 8 of other types). Decoding ignores it.
	AnnotateElems int

	// AnnotateFull makes the annotations describe every element of every
	// array, every byte of long strings and byte arrays, and the whole text
	// of long strings, instead of summarizing them. Decoding ignores it.
	AnnotateFull bool
}

func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

// The rule names of docs/wire-format.md; DecodeError.Rule is one of them.
const (
	RuleTruncated = "truncated"
	RuleTrailing  = "trailing"
	RuleBool      = "bool"
	RulePresence  = "presence"
	RuleEnum      = "enum"
	RuleUnionTag  = "union_tag"
	RuleUTF8      = "utf8"
	RuleCount     = "count"
	RuleDepth     = "depth"
	RuleMessage   = "message"
	RuleMemory    = "memory"
)

// Rules lists every rule name, in the order of docs/wire-format.md.
var Rules = []string{RuleTruncated, RuleTrailing, RuleBool, RulePresence, RuleEnum, RuleUnionTag, RuleUTF8, RuleCount, RuleDepth, RuleMessage, RuleMemory}

// DecodeError says why bytes were rejected: where, which rule they break,
// and at which value (the path uses the JSON mapping's names:
// `plugins[0].name`, `shape.Rect.width`).
type DecodeError struct {
	Offset int    // byte offset of the offending value in the input
	Rule   string // one of Rules
	Path   string // field path of the value; empty at the top level
	Msg    string
}

// Error has the layout of every language's decode error (docs/api.md, "One
// layout of error text"): "<rule> at offset <offset> in <path>: <message>".
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s at offset %d: %s", e.Rule, e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s at offset %d in %s: %s", e.Rule, e.Offset, e.Path, e.Msg)
}

// The rules of a value that has no encoding (docs/wire-format.md, "Values
// that have no encoding"); EncodeError.Rule is one of them, or RuleJSON.
// RuleEnum, RuleUnionTag, RuleUTF8 and RuleCount are decoding's names too.
const (
	RuleLength = "length"
	RuleRange  = "range"
	RuleType   = "type"
	RuleSize   = "size"
	// RuleJSON is not a rule of the format: the JSON text itself is
	// malformed, or names a field the struct does not have, or lacks one.
	RuleJSON = "json"
)

// EncodeRules lists the rules of values that have no encoding, in the order
// of docs/wire-format.md (RuleSize is never the reference codec's: it has
// no host limit below the format's).
var EncodeRules = []string{RuleEnum, RuleUnionTag, RuleUTF8, RuleLength, RuleCount, RuleRange, RuleType, RuleSize, RuleMessage}

// EncodeError says why a JSON value could not be encoded: a value that has
// no encoding (Rule one of EncodeRules) or JSON text that is not a value of
// the type (Rule RuleJSON).
type EncodeError struct {
	Rule   string // one of EncodeRules, or RuleJSON
	Path   string // field path of the value, `plugins[3].parameters[0].min_value`; empty at the top level
	Offset int    // byte offset in the JSON text
	Msg    string
}

// Error has the layout of every language's encode error (docs/api.md, "One
// layout of error text"): "<rule> in <path>: <message>".
func (e *EncodeError) Error() string {
	rule := e.Rule
	if rule == "" {
		rule = RuleJSON
	}
	if e.Path == "" {
		return rule + ": " + e.Msg
	}
	return rule + " in " + e.Path + ": " + e.Msg
}

// topType returns a Type that refers to the declaration named typeName.
func topType(s *schema.Schema, typeName string) (*schema.Type, error) {
	switch d := s.Lookup(typeName).(type) {
	case *schema.Struct:
		return &schema.Type{Kind: schema.StructRef, Struct: d}, nil
	case *schema.Enum:
		return &schema.Type{Kind: schema.EnumRef, Enum: d}, nil
	case *schema.Union:
		return &schema.Type{Kind: schema.UnionRef, Union: d}, nil
	}
	return nil, fmt.Errorf("schema %s has no type %q%s", s.Name, typeName, typeList(s))
}

func typeList(s *schema.Schema) string {
	var names []string
	for _, d := range s.Decls {
		names = append(names, d.DeclName())
	}
	if len(names) == 0 {
		return ""
	}
	return " (types: " + strings.Join(names, ", ") + ")"
}

func structOf(s *schema.Schema, typeName string) (*schema.Struct, error) {
	if st := s.Struct(typeName); st != nil {
		return st, nil
	}
	if s.Lookup(typeName) != nil {
		return nil, fmt.Errorf("%s is not a struct: only structs are messages", typeName)
	}
	_, err := topType(s, typeName)
	return nil, err
}

// Encode encodes jsonValue, a value of the named type in the JSON mapping,
// to the wire format (no message header).
func Encode(s *schema.Schema, typeName string, jsonValue []byte) ([]byte, error) {
	t, err := topType(s, typeName)
	if err != nil {
		return nil, err
	}
	return encodeTop(t, jsonValue, nil)
}

// EncodeMessage encodes jsonValue, a value of the named struct, as a message:
// the 10-byte header (magic, type id, payload length), then the payload.
func EncodeMessage(s *schema.Schema, typeName string, jsonValue []byte) ([]byte, error) {
	st, err := structOf(s, typeName)
	if err != nil {
		return nil, err
	}
	hdr := make([]byte, HeaderSize, HeaderSize+64)
	copy(hdr, Magic)
	binary.LittleEndian.PutUint16(hdr[4:], st.ID)
	out, err := encodeTop(&schema.Type{Kind: schema.StructRef, Struct: st}, jsonValue, hdr)
	if err != nil {
		return nil, err
	}
	n := len(out) - HeaderSize
	if uint64(n) > 0xFFFFFFFF {
		return nil, fmt.Errorf("payload of %d bytes is too large for a message", n)
	}
	binary.LittleEndian.PutUint32(out[6:], uint32(n))
	return out, nil
}

// Envelope is the JSON of a message whose type is not known in advance:
// {"type": "Name", "value": {...}}. The conformance case files use it too.
type Envelope struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// ParseEnvelope reads {"type": "Name", "value": {...}}; other keys are an error.
func ParseEnvelope(envelope []byte) (Envelope, error) {
	var env Envelope
	if i := invalidUTF8At(envelope); i >= 0 {
		return env, &EncodeError{Rule: RuleJSON, Offset: i, Msg: "JSON text is not valid UTF-8 at byte " + strconv.Itoa(i)}
	}
	l := &lexer{src: envelope}
	if err := l.punct('{'); err != nil {
		return env, err
	}
	for l.peek() != '}' {
		key, err := l.str()
		if err != nil {
			return env, err
		}
		if err := l.punct(':'); err != nil {
			return env, err
		}
		switch {
		case key == "type" && env.Type == "":
			if env.Type, err = l.str(); err != nil {
				return env, err
			}
			if env.Type == "" {
				return env, l.fail("empty type name")
			}
		case key == "value" && env.Value == nil:
			l.ws()
			start := l.pos
			if err := l.skip(); err != nil {
				return env, err
			}
			env.Value = json.RawMessage(envelope[start:l.pos])
		default:
			return env, l.fail(`unexpected key %q in a message envelope: want {"type": "Name", "value": {...}}`, key)
		}
		if l.peek() == '}' {
			break
		}
		if l.peek() != ',' {
			return env, l.syntax("',' or '}'")
		}
		l.pos++
		if l.peek() == '}' {
			return env, l.syntax("a key")
		}
	}
	l.pos++
	if l.peek() != 0 {
		return env, l.fail("unexpected data after the JSON value")
	}
	if env.Type == "" || env.Value == nil {
		return env, l.fail(`a message envelope is {"type": "Name", "value": {...}}`)
	}
	return env, nil
}

// EncodeEnvelope encodes {"type": "Name", "value": {...}} as a message of
// that type.
func EncodeEnvelope(s *schema.Schema, envelope []byte) (typeName string, msg []byte, err error) {
	env, err := ParseEnvelope(envelope)
	if err != nil {
		return "", nil, err
	}
	msg, err = EncodeMessage(s, env.Type, env.Value)
	return env.Type, msg, err
}

// Decode decodes data, the wire encoding of a value of the named type (no
// message header), to JSON: indented by two spaces, fields in declaration
// order, ending with a newline. Errors are *DecodeError.
func Decode(s *schema.Schema, typeName string, data []byte, opt Options) ([]byte, error) {
	t, err := topType(s, typeName)
	if err != nil {
		return nil, err
	}
	d := &decoder{data: data, maxDepth: opt.maxDepth(), memLimit: opt.MemoryLimit, out: &jsonWriter{}}
	if err := d.top(t); err != nil {
		return nil, err
	}
	return d.out.finish(), nil
}

// DecodeMessage decodes a message of any struct of the schema, chosen by the
// header's type id, and returns the struct's name and the value's JSON.
func DecodeMessage(s *schema.Schema, data []byte, opt Options) (typeName string, jsonValue []byte, err error) {
	return decodeMessage(s, nil, data, opt)
}

// DecodeMessageAs decodes a message that must hold the named struct; another
// type id is a "message" error.
func DecodeMessageAs(s *schema.Schema, typeName string, data []byte, opt Options) ([]byte, error) {
	st, err := structOf(s, typeName)
	if err != nil {
		return nil, err
	}
	_, out, err := decodeMessage(s, st, data, opt)
	return out, err
}

func decodeMessage(s *schema.Schema, want *schema.Struct, data []byte, opt Options) (string, []byte, error) {
	d := &decoder{data: data, maxDepth: opt.maxDepth(), memLimit: opt.MemoryLimit, out: &jsonWriter{}}
	st, err := d.header(s, want)
	if err != nil {
		return "", nil, err
	}
	if err := d.top(&schema.Type{Kind: schema.StructRef, Struct: st}); err != nil {
		return "", nil, err
	}
	return st.Name, d.out.finish(), nil
}

// EnvelopeJSON wraps a decoded value's JSON (as returned by Decode) as
// {"type": "Name", "value": ...}, in the same indented style.
func EnvelopeJSON(typeName string, jsonValue []byte) []byte {
	var b []byte
	b = append(b, "{\n  \"type\": "...)
	b = appendJSONString(b, typeName)
	b = append(b, ",\n  \"value\": "...)
	v := strings.TrimSuffix(string(jsonValue), "\n")
	b = append(b, strings.ReplaceAll(v, "\n", "\n  ")...)
	b = append(b, "\n}\n"...)
	return b
}

// Annotate decodes data like Decode and describes it byte by byte: one line
// per scalar, length, count, presence byte or union tag, with its offset, its
// bytes in hex and its field path and value. Long strings and byte arrays are
// wrapped and cut after a few lines; long arrays are summarized after their
// first elements (AnnotateWith's Options.AnnotateElems and AnnotateFull
// change this). On a decode error it returns the lines up to the error, a
// line describing the error, and the error.
func Annotate(s *schema.Schema, typeName string, data []byte) (string, error) {
	return AnnotateWith(s, typeName, data, Options{})
}

// AnnotateWith is Annotate with options.
func AnnotateWith(s *schema.Schema, typeName string, data []byte, opt Options) (string, error) {
	t, err := topType(s, typeName)
	if err != nil {
		return "", err
	}
	a := newAnnotator(fmt.Sprintf("%s (%s.sdp)", typeName, s.Name), len(data), opt)
	d := &decoder{data: data, maxDepth: opt.maxDepth(), memLimit: opt.MemoryLimit, ann: a}
	err = d.top(t)
	return a.finish(err), err
}

// AnnotateMessage annotates a message like Annotate, header included. An
// empty typeName accepts any struct of the schema.
func AnnotateMessage(s *schema.Schema, typeName string, data []byte) (string, error) {
	return AnnotateMessageWith(s, typeName, data, Options{})
}

// AnnotateMessageWith is AnnotateMessage with options.
func AnnotateMessageWith(s *schema.Schema, typeName string, data []byte, opt Options) (string, error) {
	var want *schema.Struct
	if typeName != "" {
		st, err := structOf(s, typeName)
		if err != nil {
			return "", err
		}
		want = st
	}
	a := newAnnotator(fmt.Sprintf("message (%s.sdp)", s.Name), len(data), opt)
	d := &decoder{data: data, maxDepth: opt.maxDepth(), memLimit: opt.MemoryLimit, ann: a}
	st, err := d.header(s, want)
	if err == nil {
		err = d.top(&schema.Type{Kind: schema.StructRef, Struct: st})
	}
	return a.finish(err), err
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}
