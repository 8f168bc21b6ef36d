package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sdp/codec"
	"sdp/schema"
)

// The invalid-value corpus (docs/conformance.md, "Values that have no
// encoding"): unencodable/schema.sdp and unencodable/cases.json. Each case
// takes the valid value "base" of cases.json, changes one value inside it
// (at "target", as "change" says) into one the format cannot carry, and
// the reference codec says which rule and path every language must report
// when asked to encode the result.

// Change is what a case does to the value at its target.
type Change string

const (
	// ChangeEnum: the enum (the value of an optional enum) holds the number
	// N, which none of its values has.
	ChangeEnum Change = "enum"
	// ChangeNoVariant: the union holds no variant (C's tag outside the
	// declared ones, Python's None, JavaScript's undefined, Java's null, ...).
	// Go's nil interface is not one: it is the union's zero value, the first
	// variant (docs/go.md).
	ChangeNoVariant Change = "no_variant"
	// ChangeBadUTF8: the string (the value of an optional string) holds the
	// bytes 'a', 0xFF, 'b' where strings are bytes, or 'a', U+D800 (a lone
	// surrogate), 'b' where strings are UTF-16 or code points.
	ChangeBadUTF8 Change = "bad_utf8"
	// ChangeLength: the fixed array holds N elements: its first N, or all
	// of them followed by copies of its last one when N is larger.
	ChangeLength Change = "length"
	// ChangeNull: none (nil, null, None, undefined) where the schema has no
	// optional (never a union: that is ChangeNoVariant).
	ChangeNull Change = "null"
	// ChangeRange: the integer holds N, outside its type.
	ChangeRange Change = "range"
	// ChangeWrongType: the value is the number 3 where the schema wants a
	// string or a struct.
	ChangeWrongType Change = "wrong_type"
)

// ChangeRule is the rule a change breaks (docs/wire-format.md, "Values that
// have no encoding"); the reference codec must agree on every case.
var ChangeRule = map[Change]string{
	ChangeEnum:      codec.RuleEnum,
	ChangeNoVariant: codec.RuleUnionTag,
	ChangeBadUTF8:   codec.RuleUTF8,
	ChangeLength:    codec.RuleLength,
	ChangeNull:      codec.RuleType,
	ChangeRange:     codec.RuleRange,
	ChangeWrongType: codec.RuleType,
}

// Step is one step from a value to a value inside it: a field of a struct
// (Field), or an element of an array (Field nil, Index).
type Step struct {
	Field *schema.Field
	Index int
}

// Unencodable is one case of the invalid-value corpus.
type Unencodable struct {
	Name   string
	Type   *schema.Struct // the value's type
	Base   []byte         // the valid value, encoded: decode it, then make the change
	Target []Step         // from the value to the one changed, through structs and arrays only
	Elem   *schema.Type   // the type of the value changed (for an element, the array's element type)
	Change Change
	N      int64 // the number of ChangeEnum, ChangeLength and ChangeRange

	// What the reference codec reports for the changed value: every
	// language must report the same rule and path.
	Rule string
	Path string
}

// TargetText is the target as cases.json writes it: "items[1].color".
func (u Unencodable) TargetText() string {
	var b strings.Builder
	for _, st := range u.Target {
		if st.Field == nil {
			b.WriteString("[" + strconv.Itoa(st.Index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(st.Field.Name)
	}
	return b.String()
}

// UnencodableSchemaPath is the path of the invalid-value corpus's schema.
func UnencodableSchemaPath() string { return filepath.Join(Dir(), "unencodable", "schema.sdp") }

// Unencodables loads the invalid-value corpus, parsed against s (the schema
// of UnencodableSchemaPath), with the reference codec's rule and path for
// every case. It fails if a case is malformed or if the reference codec
// encodes a changed value, or refuses it with another rule than the
// change's (ChangeRule).
func Unencodables(s *schema.Schema) ([]Unencodable, error) {
	path := filepath.Join(Dir(), "unencodable", "cases.json")
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Type  string
		Base  json.RawMessage
		Cases []struct {
			Name, Target, Change string
			N                    *int64
		}
	}
	if err := json.Unmarshal(text, &file); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	st, ok := s.Lookup(file.Type).(*schema.Struct)
	if !ok {
		return nil, fmt.Errorf("%s: %q is not a struct of the schema", path, file.Type)
	}
	base, err := codec.Encode(s, file.Type, file.Base)
	if err != nil {
		return nil, fmt.Errorf("%s: base: %v", path, err)
	}
	var out []Unencodable
	seen := map[string]bool{}
	for _, c := range file.Cases {
		u := Unencodable{Name: c.Name, Type: st, Base: base, Change: Change(c.Change)}
		fail := func(format string, args ...interface{}) error {
			return fmt.Errorf("%s: case %q: %s", path, c.Name, fmt.Sprintf(format, args...))
		}
		if c.Name == "" || seen[c.Name] {
			return nil, fail("a case needs a name of its own")
		}
		seen[c.Name] = true
		rule, ok := ChangeRule[u.Change]
		if !ok {
			return nil, fail("unknown change %q", c.Change)
		}
		needsN := u.Change == ChangeEnum || u.Change == ChangeLength || u.Change == ChangeRange
		if needsN != (c.N != nil) {
			return nil, fail("change %s takes n: %v", c.Change, needsN)
		}
		if c.N != nil {
			u.N = *c.N
		}
		if u.Target, u.Elem, err = parseTarget(st, c.Target); err != nil {
			return nil, fail("%v", err)
		}
		if u.TargetText() != c.Target {
			return nil, fail("target %q reads back as %q", c.Target, u.TargetText())
		}
		if err := checkChange(u); err != nil {
			return nil, fail("%v", err)
		}
		changed, err := changeJSON(file.Base, u)
		if err != nil {
			return nil, fail("%v", err)
		}
		_, err = codec.Encode(s, file.Type, changed)
		var ee *codec.EncodeError
		if !errors.As(err, &ee) {
			return nil, fail("the reference codec encodes the changed value %s (error %v)", changed, err)
		}
		if ee.Rule != rule {
			return nil, fail("the reference codec refuses it with rule %s, not %s: %v", ee.Rule, rule, err)
		}
		u.Rule, u.Path = ee.Rule, ee.Path
		out = append(out, u)
	}
	return out, nil
}

// parseTarget parses "items[1].color" from the struct st.
func parseTarget(st *schema.Struct, text string) ([]Step, *schema.Type, error) {
	var steps []Step
	var t *schema.Type
	fields := st.Fields
	rest := text
	for rest != "" {
		if rest[0] == '[' {
			end := strings.IndexByte(rest, ']')
			if t == nil || end < 0 || (t.Kind != schema.Array && t.Kind != schema.FixedArray) {
				return nil, nil, fmt.Errorf("target %q: an index of what is not an array", text)
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 {
				return nil, nil, fmt.Errorf("target %q: bad index", text)
			}
			steps = append(steps, Step{Index: i})
			t = t.Elem
			rest = rest[end+1:]
		} else {
			if len(steps) > 0 {
				if rest[0] != '.' {
					return nil, nil, fmt.Errorf("target %q: expected '.'", text)
				}
				rest = rest[1:]
			}
			if t != nil {
				if t.Kind != schema.StructRef {
					return nil, nil, fmt.Errorf("target %q: a field of what is not a struct", text)
				}
				fields = t.Struct.Fields
			}
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			var f *schema.Field
			for _, cand := range fields {
				if cand.Name == rest[:end] {
					f = cand
				}
			}
			if f == nil {
				return nil, nil, fmt.Errorf("target %q: no field %q", text, rest[:end])
			}
			steps = append(steps, Step{Field: f})
			t = f.Type
			rest = rest[end:]
		}
	}
	if len(steps) == 0 {
		return nil, nil, fmt.Errorf("empty target")
	}
	// Only the last step may be an optional's: the value inside is changed.
	for _, st := range steps[:len(steps)-1] {
		if st.Field != nil && st.Field.Type.Kind == schema.Optional {
			return nil, nil, fmt.Errorf("target %q goes through an optional", text)
		}
	}
	return steps, t, nil
}

// checkChange checks that the change fits the type it changes.
func checkChange(u Unencodable) error {
	t := u.Elem
	if t.Kind == schema.Optional && u.Change != ChangeNull {
		t = t.Elem
	}
	ok := false
	switch u.Change {
	case ChangeEnum:
		ok = t.Kind == schema.EnumRef
	case ChangeNoVariant:
		ok = t.Kind == schema.UnionRef
	case ChangeBadUTF8:
		ok = t.Kind == schema.String
	case ChangeLength:
		ok = t.Kind == schema.FixedArray && u.N >= 0 && u.N != int64(t.Len)
	case ChangeNull:
		ok = t.Kind != schema.Optional && t.Kind != schema.UnionRef
	case ChangeRange:
		ok = t.Kind.IsInteger()
	case ChangeWrongType:
		ok = t.Kind == schema.String || t.Kind == schema.StructRef
	}
	if !ok {
		return fmt.Errorf("change %s does not apply to a %s", u.Change, u.Elem)
	}
	return nil
}

// badUTF8 stands for the JSON string "a\ud800b" while the changed value is
// built.
const badUTF8 = "sdp-unencodable-bad-utf8"

// changeJSON returns the JSON text of base with u's change made.
func changeJSON(base json.RawMessage, u Unencodable) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(base))
	dec.UseNumber()
	var root interface{}
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	var change func(v interface{}) (interface{}, error)
	switch u.Change {
	case ChangeEnum:
		// Not a name of the enum: the reference codec refuses it by rule enum.
		change = func(interface{}) (interface{}, error) { return strconv.FormatInt(u.N, 10), nil }
	case ChangeNoVariant:
		change = func(interface{}) (interface{}, error) { return map[string]interface{}{}, nil }
	case ChangeBadUTF8:
		change = func(interface{}) (interface{}, error) { return badUTF8, nil }
	case ChangeLength:
		change = func(v interface{}) (interface{}, error) {
			a, ok := v.([]interface{})
			if !ok || len(a) == 0 {
				return nil, fmt.Errorf("the base holds no elements at the target")
			}
			var out []interface{}
			for i := int64(0); i < u.N; i++ {
				out = append(out, a[min64(i, int64(len(a)-1))])
			}
			if out == nil {
				out = []interface{}{}
			}
			return out, nil
		}
	case ChangeNull:
		change = func(interface{}) (interface{}, error) { return nil, nil }
	case ChangeRange:
		change = func(interface{}) (interface{}, error) { return json.Number(strconv.FormatInt(u.N, 10)), nil }
	case ChangeWrongType:
		change = func(interface{}) (interface{}, error) { return json.Number("3"), nil }
	}
	root, err := changeAt(root, u.Target, change)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(out, []byte(`"`+badUTF8+`"`), []byte(`"a\ud800b"`)), nil
}

func changeAt(v interface{}, steps []Step, change func(interface{}) (interface{}, error)) (interface{}, error) {
	if len(steps) == 0 {
		return change(v)
	}
	st := steps[0]
	if st.Field != nil {
		obj, ok := v.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("the base holds no object where field %s is", st.Field.Name)
		}
		inner, err := changeAt(obj[st.Field.Name], steps[1:], change)
		obj[st.Field.Name] = inner
		return obj, err
	}
	a, ok := v.([]interface{})
	if !ok || st.Index >= len(a) {
		return nil, fmt.Errorf("the base holds no element %d there", st.Index)
	}
	inner, err := changeAt(a[st.Index], steps[1:], change)
	a[st.Index] = inner
	return a, err
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}
