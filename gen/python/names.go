package python

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sdp/gen"
	"sdp/gen/naming"
	"sdp/gen/plan"
	"sdp/schema"
)

// reservedNames declares the names a schema name must not become in Python
// (checked by TestReservedNames).
var reservedNames = gen.Names{
	// Python's keywords and soft keywords.
	Keywords: gen.Words(`False None True and as assert async await break class continue def del elif else except
finally for from global if import in is lambda nonlocal not or pass raise return try while with yield
match case type _`),
	// Python's builtin names: a module-level name never shadows one, so the
	// generated and runtime code can use any of them.
	Prelude: gen.Words(`ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError InterruptedError
IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError
NotADirectoryError NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning
PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError
RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError
TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError abs aiter all anext
any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits
delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr
hash help hex id input int isinstance issubclass iter len license list locals map max memoryview min next
object oct open ord pow print property quit range repr reversed round set setattr slice sorted
staticmethod str sum super tuple type vars zip`),
	// The module-level names of the generated module's runtime.
	TopLevel: gen.Words(`DecodeError EncodeError DecodeOptions Some MessageReader MessageWriter decode_message MESSAGE_TYPES FINGERPRINTS
MESSAGE_HEADER_SIZE HELLO_TYPE_ID DEFAULT_MAX_MESSAGE_SIZE IMPLEMENTATION annotations`),
	// The names a struct's or variant's fields may not take: the generated
	// methods and class constants.
	Members: gen.Words(memberNames),
	// Names starting with _ are the runtime's private ones (_sdp...) or
	// special; a schema name starting with _ gets an x prefix.
	Prefixes: []string{"_"},
}

const memberNames = `decode decode_prefix decode_message decode_into encode encode_into encoded_size encode_message
encode_message_into encoded_message_size TYPE_ID FINGERPRINT`

var (
	keywords = gen.Set(reservedNames.Keywords)
	builtins = gen.Set(reservedNames.Prelude)
	api      = gen.Set(reservedNames.TopLevel)
	members  = gen.Set(reservedNames.Members)
)

// enumMembers are names an IntEnum member may not take.
var enumMembers = set(`FINGERPRINT name value mro as_integer_ratio bit_count bit_length conjugate denominator from_bytes
imag numerator real to_bytes`)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// escape returns name, changed so that it is none of the reserved names and
// not one of taken: dunder and `_sdp` names and reserved words get a `_`
// suffix, names starting with `_` a `x` prefix where they would be private
// or special, and a `_` is appended until the name is free.
func escape(name string, reserved []map[string]bool, taken map[string]bool) string {
	n := name
	if strings.HasPrefix(n, "_") {
		n = "x" + n
	}
	bad := func(s string) bool {
		if keywords[s] || taken[s] || strings.HasPrefix(strings.ToLower(s), "_sdp") {
			return true
		}
		for _, r := range reserved {
			if r[s] {
				return true
			}
		}
		return false
	}
	for bad(n) {
		n += "_"
	}
	taken[n] = true
	return n
}

// names holds the Python names of one schema's declarations.
type names struct {
	decl    map[schema.Decl]string
	variant map[*schema.Variant]string // variant classes (unit and inline)
	fields  map[*schema.Field]string
	values  map[*schema.EnumValue]string
	top     map[schema.Decl]topNames // unions and enums
}

// topNames are the module-level functions that encode and decode a union or
// an enum on its own (a union is a typing alias, not a class, so it has no
// methods; enums have the same functions, so that an enum value may be named
// like a method).
type topNames struct {
	encode, size, decode, prefix string
}

func newNames(s *schema.Schema) *names {
	n := &names{decl: map[schema.Decl]string{}, variant: map[*schema.Variant]string{},
		fields: map[*schema.Field]string{}, values: map[*schema.EnumValue]string{},
		top: map[schema.Decl]topNames{}}
	global := map[string]bool{}
	for _, d := range s.Decls {
		n.decl[d] = escape(d.DeclName(), []map[string]bool{builtins, api}, global)
	}
	fieldNames := func(fs []*schema.Field) {
		taken := map[string]bool{}
		for _, f := range fs {
			n.fields[f] = escape(f.Name, []map[string]bool{members}, taken)
		}
	}
	for _, d := range s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			fieldNames(d.Fields)
		case *schema.Enum:
			taken := map[string]bool{}
			for _, v := range d.Values {
				n.values[v] = escape(v.Name, []map[string]bool{enumMembers}, taken)
			}
		case *schema.Union:
			for _, v := range d.Variants {
				if v.Kind != schema.VariantStruct {
					n.variant[v] = escape(n.decl[d]+"_"+v.Name, []map[string]bool{builtins, api}, global)
					fieldNames(v.Fields)
				}
			}
		}
	}
	// After every class, so that no class is renamed for them: where one of
	// a type's four names is taken, all four get the same `_` suffix.
	for _, d := range s.Decls {
		switch d.(type) {
		case *schema.Union, *schema.Enum:
			sn := naming.Snake(d.DeclName())
			for suffix := ""; ; suffix += "_" {
				f := topNames{encode: "encode_" + sn + suffix, size: sn + "_encoded_size" + suffix,
					decode: "decode_" + sn + suffix, prefix: "decode_" + sn + "_prefix" + suffix}
				all := []string{f.encode, f.size, f.decode, f.prefix}
				free := true
				for _, name := range all {
					if escape(name, []map[string]bool{builtins, api}, map[string]bool{}) != name || global[name] {
						free = false
					}
				}
				if free {
					for _, name := range all {
						global[name] = true
					}
					n.top[d] = f
					break
				}
			}
		}
	}
	return n
}

// canon is a canonical spelling of a value's type, for helper function
// names: two values with the same spelling are coded alike.
func canon(v *plan.Value) string {
	switch v.Op {
	case plan.Bytes, plan.Numbers, plan.PlainArray, plan.Array:
		return "list_" + canon(v.Elem)
	case plan.FixedBytes, plan.FixedNumbers, plan.FixedPlain, plan.FixedArray:
		return "arr" + itoa(int(v.Len)) + "_" + canon(v.Elem)
	case plan.Optional:
		// A boxed optional (recursion) has another nominal size, and so
		// other memory charges (rule 11), than the same ?T elsewhere.
		if v.Boxed {
			return "box_" + canon(v.Elem)
		}
		return "opt_" + canon(v.Elem)
	case plan.Struct, plan.Enum, plan.Union:
		name := v.Decl.Name()
		return "t" + itoa(len(name)) + name
	case plan.String:
		return "str"
	}
	return v.Kind.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// pyString quotes s as a Python string literal body for a triple-quoted
// docstring: backslashes, quotes and control characters are escaped, so any
// text is safe.
func pyString(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\x`)
			b.WriteString(hex2(s[0]))
			s = s[1:]
			continue
		}
		s = s[size:]
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString("\n")
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + hex2(byte(r)))
		case r == 0x2028 || r == 0x2029 || r == 0x85 || r == 0xfeff:
			b.WriteString(`\u` + hex2(byte(r>>8)) + hex2(byte(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// commentText makes s safe inside a `#` comment: no line breaks, NULs or
// other control characters.
func commentText(s string) string {
	t := pyString(strings.TrimRightFunc(s, unicode.IsSpace))
	return strings.ReplaceAll(t, "\n", `\n`)
}
