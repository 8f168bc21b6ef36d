package cpp

// cppKeywords lists C++ keywords (through C++20), alternative operator
// tokens, identifiers with special meaning, and macros the standard headers
// or common compilers define in lower or mixed case. Schema names equal to
// one of these get a trailing underscore (reservedNames.Keywords).
var cppKeywords = []string{
	// keywords
	"alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char",
	"char8_t", "char16_t", "char32_t", "class", "concept", "const", "consteval",
	"constexpr", "constinit", "const_cast", "continue", "co_await", "co_return",
	"co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
	"else", "enum", "explicit", "export", "extern", "false", "float", "for",
	"friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
	"noexcept", "nullptr", "operator", "private", "protected", "public", "register",
	"reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
	"static_assert", "static_cast", "struct", "switch", "template", "this",
	"thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
	"unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
	// alternative tokens
	"and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq",
	"xor", "xor_eq",
	// identifiers with special meaning, and module keywords
	"final", "override", "import", "module",
	// macros of the C and C++ standard libraries and of GNU compilers
	"errno", "assert", "NULL", "EOF", "BUFSIZ", "FILENAME_MAX", "stdin", "stdout",
	"stderr", "offsetof", "setjmp", "va_arg", "va_copy", "va_end", "va_start",
	"unix", "linux", "i386", "major", "minor", "makedev", "TRUE", "FALSE",
	"EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "CHAR_BIT",
	"SIZE_MAX", "INT_MAX", "INT_MIN", "UINT_MAX", "NAN", "INFINITY", "HUGE_VAL",
	"EDOM", "ERANGE", "EILSEQ", "SIGINT", "SIGTERM", "SIGABRT", "SIGSEGV",
	"SIGFPE", "SIGILL", "CLOCKS_PER_SEC", "TMP_MAX", "L_tmpnam", "SEEK_SET",
	"SEEK_CUR", "SEEK_END", "DOMAIN", "OVERFLOW", "UNDERFLOW",
	// namespaces the generated code refers to
	"std", "sdp",
}
