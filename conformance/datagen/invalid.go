package datagen

import "sort"

// Rules are the decoding rules of docs/wire-format.md, by name.
var Rules = []string{"truncated", "trailing", "bool", "presence", "enum", "union_tag", "utf8", "count", "depth", "message", "memory"}

// Vector is an invalid input: bytes every decoder must reject, with the
// rule they break (conformance.Invalid has the same JSON form).
type Vector struct {
	Name    string
	Type    string
	Message bool // decode through the message dispatcher
	Hex     wire
	Rule    string
	Why     string
}

// badUTF8 lists malformed UTF-8 byte strings, each with why it is malformed.
var badUTF8 = []struct{ name, hex, why string }{
	{"lone_continuation", "80", "a continuation byte with no lead byte"},
	{"continuation_after_ascii", "41 bf", "'A' then a stray continuation byte"},
	{"extra_continuation", "c3 a9 a9", "'é' followed by one continuation byte too many"},
	{"overlong_nul", "c0 80", "overlong 2-byte encoding of U+0000 (C0 80)"},
	{"overlong_c1", "c1 bf", "overlong 2-byte encoding of U+007F (C1 is never valid)"},
	{"overlong_3byte", "e0 80 af", "overlong 3-byte encoding of '/'"},
	{"overlong_4byte", "f0 82 82 ac", "overlong 4-byte encoding of U+20AC"},
	{"overlong_2byte_max", "c1 bf 41", "C1 BF: an overlong 2-byte encoding of U+007F, then 'A'"},
	{"overlong_3byte_max", "e0 9f bf", "E0 9F BF: an overlong 3-byte encoding of U+07FF"},
	{"overlong_4byte_max", "f0 8f bf bf", "F0 8F BF BF: an overlong 4-byte encoding of U+FFFF"},
	{"surrogate_high", "ed a0 80", "UTF-16 high surrogate U+D800 encoded as UTF-8"},
	{"surrogate_pair_cesu8", "ed a0 bd ed b8 80", "CESU-8: the emoji U+1F600 as two encoded UTF-16 surrogates"},
	{"surrogate_low", "ed bf bf", "UTF-16 low surrogate U+DFFF encoded as UTF-8"},
	{"truncated_2byte_at_end", "63 61 66 c3", "'caf' then the lead byte of 'é' without its continuation"},
	{"truncated_3byte", "e2 82", "the first two bytes of the 3-byte sequence for U+20AC"},
	{"truncated_4byte_at_end", "41 f0 9f 98", "a 4-byte emoji missing its last byte at the end of the string"},
	{"truncated_then_ascii", "e2 41 41", "a 3-byte lead byte followed by ASCII"},
	{"above_max", "f4 90 80 80", "code point U+110000, above U+10FFFF"},
	{"lead_f5", "f5 80 80 80", "F5 can never start a sequence"},
	{"byte_ff", "ff", "FF is never valid in UTF-8"},
	{"byte_fe", "fe fe ff ff", "a UTF-16 byte-order mark pattern, not UTF-8"},
	{"five_byte_form", "f8 88 80 80 80", "the obsolete 5-byte form (F8 lead byte)"},
	{"invalid_after_nul", "00 80", "a NUL (valid) then a stray continuation byte: C strings must not stop at the NUL"},
}

// InvalidSchemas lists the schemas that have invalid vectors, sorted.
func InvalidSchemas() []string {
	var out []string
	for name := range invalidBuilders {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// InvalidVectors returns a schema's invalid vectors.
func InvalidVectors(schema string) []Vector { return invalidBuilders[schema]() }

// MarshalInvalid renders vectors as an invalid/<schema>.json file.
func MarshalInvalid(vs []Vector) []byte {
	list := make([]interface{}, len(vs))
	for i, v := range vs {
		list[i] = Obj("name", v.Name, "type", v.Type, "message", v.Message, "hex", v.Hex.String(), "rule", v.Rule, "why", v.Why)
	}
	return Marshal(list)
}

var invalidBuilders = map[string]func() []Vector{
	"primitives":   primitivesInvalid,
	"arrays":       arraysInvalid,
	"enums_unions": enumsUnionsInvalid,
	"optionals":    optionalsInvalid,
	"recursive":    recursiveInvalid,
	"nested":       nestedInvalid,
	"plugins":      pluginsInvalid,
	"keywords":     keywordsInvalid,
	"messages":     messagesInvalid,
	"hostile":      hostileInvalid,
	"leaderboard":  leaderboardInvalid,
}
