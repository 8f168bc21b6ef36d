package randschema

// adversarial are names that are keywords or predeclared identifiers in some
// target language, or identifiers the generated code itself uses. Each
// backend must escape or avoid them; the generator draws from this list when
// Config.Adversarial is set. Names the schema checker rejects (built-in type
// names) are filtered out by the generator, not here, so the list can be
// generous.
var adversarial = []string{
	// Go
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
	"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
	"switch", "type", "var", "any", "append", "cap", "close", "complex", "copy", "delete", "error", "false",
	"float32", "float64", "imag", "int", "int8", "int16", "int32", "int64", "iota", "len", "make", "new",
	"nil", "panic", "print", "println", "real", "recover", "rune", "true", "uint", "uint8", "uint16",
	"uint32", "uint64", "uintptr", "byte", "comparable", "binary", "utf8", "io", "errors", "fmt", "math",
	"bits", "unsafe", "strconv", "bytes", "sync", "Reader", "Writer", "Marshal", "Unmarshal", "Error",
	"MarshalBinary", "UnmarshalBinary", "AppendBinary", "EncodedSize", "WriteTo", "ReadFrom", "String",
	"DecodeError", "DecodeOptions", "MessageReader", "MessageWriter", "DecodeMessage", "DecodeMessageInto", "Message",
	"MessageType", "TypeID", "Rule", "Offset", "Path",
	// Rust
	"as", "async", "await", "crate", "dyn", "enum", "extern", "fn", "impl", "in", "let", "loop",
	"match", "mod", "move", "mut", "pub", "ref", "self", "Self_", "static", "super", "trait", "unsafe",
	"use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv",
	"typeof", "unsized", "virtual", "yield", "try", "union", "Box", "Option", "Some", "None", "Result", "Ok",
	"Err", "Vec", "Sized", "Send", "Sync", "Copy", "Clone", "Default", "Drop", "Debug", "PartialEq",
	"Eq", "Hash", "Iterator", "From", "Into", "TryFrom", "AsRef", "ToOwned", "ToString", "Write", "Read",
	"std", "core", "alloc", "Limits", "Valid", "View", "Ref", "Rt", "rt", "ListView", "Cow", "Fn", "FnMut",
	"str_", "u128", "i128", "usize", "isize", "char", "bool_",
	// C and C++
	"auto", "char16_t", "char32_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
	"const_cast", "co_await", "co_return", "co_yield", "decltype", "double", "dynamic_cast", "explicit",
	"export", "float", "friend", "inline", "long", "mutable", "namespace", "noexcept", "nullptr",
	"operator", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict",
	"short", "signed", "sizeof", "static_assert", "static_cast", "template", "this", "thread_local",
	"throw", "typedef", "typeid", "typename", "unsigned", "using", "void", "volatile", "wchar_t", "and",
	"or", "not", "xor", "bitand", "bitor", "and_eq", "or_eq", "xor_eq", "not_eq", "catch", "asm",
	"errno", "NULL", "EOF", "assert", "stdin", "stdout", "stderr", "size_t", "uint8_t", "uint32_t",
	"int64_t", "memcpy", "memset", "malloc", "free", "main", "vector", "string", "optional", "variant",
	"monostate", "span", "string_view", "Status", "Arena", "arena", "_Bool", "_Alignas", "_Generic",
	"_Static_assert", "bool_t", "INT_MAX", "EINVAL", "offsetof", "size", "data", "begin", "end",
	"value", "has_value", "index", "get", "visit", "encode", "decode", "encoded_size", "encode_to",
	"AnyMessage", "ok", "error", "offset", "encode_message_into", "encoded_message_size", "EncodedMessageSize",
	"Bytes", "consumed",
	// Swift
	"associatedtype", "deinit", "extension", "fileprivate", "init", "inout", "internal", "open",
	"operator_", "precedencegroup", "protocol", "rethrows", "subscript", "Type", "Protocol", "Any",
	"AnyObject", "is", "as_", "throws", "defer_", "repeat", "guard", "Data", "Array", "Dictionary", "Set",
	"Int", "UInt", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Float",
	"Double", "Bool", "Character", "Optional", "Never", "Void", "Sendable", "Hashable", "Equatable",
	"Codable", "Encoder", "Decoder", "serializedBytes", "serialize", "encodedSize", "Foundation",
	"Swift", "description", "hashValue", "hash", "copy_", "get_", "set", "willSet", "didSet", "some",
	"lazy", "weak", "unowned", "dynamic", "convenience", "required", "prefix", "postfix", "infix",
	"left", "right", "none", "actor", "isolated", "nonisolated", "consume", "borrowing", "consuming",
	// Python
	"False", "True", "and_", "assert_", "del", "elif", "except", "finally", "from", "global", "lambda",
	"nonlocal", "pass", "raise", "with", "list", "dict", "tuple", "object", "bytes_", "memoryview",
	"property", "staticmethod", "classmethod", "dataclass", "IntEnum", "Enum", "field", "cls",
	// edge shapes
	"_x", "x_", "a1", "A", "a", "Z9", "__init__", "_Reserved", "T", "V", "E", "U", "i", "n", "b", "v",
	"out", "buf", "w", "r", "p", "d", "depth", "opts", "options", "pos", "input", "output", "result",
}
