package rust

import (
	"strings"
	"unicode"

	"sdp/gen"
	"sdp/gen/naming"
	"sdp/schema"
)

// reservedNames declares the names a schema name must not become in Rust
// (checked by TestReservedNames). Fields and methods live in separate
// namespaces, so there are no Members.
var reservedNames = gen.Names{
	// Rust's strict and reserved keywords (all editions up to 2024).
	Keywords: gen.Words(`as break const continue crate else enum extern false fn for if impl in
		let loop match mod move mut pub ref return self Self static struct super trait true type
		unsafe use where while async await dyn abstract become box do final macro override priv
		typeof unsized virtual yield try gen union`),
	// The methods returning Self, in PascalCase: a type named like one
	// fails clippy's self_named_constructors.
	Prelude: gen.Words(`Decode DecodeWith DecodeMessage DecodeMessageWith
		Read ReadFields ReadValid ToOwnedValue`),
	// The types the generated crate defines at its root (the runtime's it
	// re-exports, and the messages module's): a schema type with one of
	// these names gets a trailing underscore.
	TopLevel: gen.Words(`DecodeError DecodeErrorKind DecodeResult DecodeOptions
		Reader ReadFn LeSlice LeIter ListView ListIter Scalar StreamError Message
		MessageRef MessageReader MessageWriter SdpType SdpMessage EnumValueError EncodeError
		HelloEntry`),
}

var (
	keywords     = gen.Set(reservedNames.Keywords)
	runtimeNames = append(append([]string{}, reservedNames.TopLevel...), reservedNames.Prelude...)
)

// notRaw are keywords that cannot be raw identifiers (r#self is invalid).
var notRaw = map[string]bool{"self": true, "Self": true, "crate": true, "super": true, "_": true}

// ident escapes a snake_case value name (field, binding): raw identifiers
// for keywords, a trailing underscore where raw identifiers are not allowed.
func ident(name string) string {
	if notRaw[name] {
		return name + "_"
	}
	if keywords[name] {
		return "r#" + name
	}
	return name
}

// fieldName is a struct field's Rust name: snake_case, escaped.
func fieldName(f *schema.Field) string { return ident(naming.Snake(f.Name)) }

// bindName is a pattern binding for a field: like the field, but never one
// of the generated code's own locals.
func bindName(f *schema.Field) string {
	n := fieldName(f)
	switch n {
	case "out", "r", "depth", "n", "e", "v", "d", "x":
		return n + "_"
	}
	return n
}

// typeIdent escapes a PascalCase name (type, variant).
func typeIdent(name string) string {
	if keywords[name] {
		return name + "_"
	}
	return name
}

// pascal converts a schema name to PascalCase, keeping a trailing
// underscore the schema used to avoid a keyword ("Self_").
func pascal(name string) string {
	return typeIdent(naming.Pascal(name))
}

// crateName turns a package name into a valid Cargo package and library
// name: snake_case ASCII letters, digits and underscores, not starting with
// a digit, not a keyword or a name Cargo reserves.
func crateName(pkg string) string {
	var b strings.Builder
	for _, r := range naming.Snake(pkg) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte('_')
		}
	}
	n := strings.Trim(b.String(), "_")
	for strings.Contains(n, "__") {
		n = strings.ReplaceAll(n, "__", "_")
	}
	switch {
	case n == "":
		return "sdp_schema"
	case n[0] >= '0' && n[0] <= '9':
		n = "sdp_" + n
	}
	switch n {
	case "std", "core", "alloc", "test", "proc_macro", "build", "deps", "examples", "sdp":
		return n + "_schema"
	}
	if keywords[n] {
		return n + "_schema"
	}
	return n
}

// names assigns every declaration its Rust type name and view name.
func (g *generator) assignNames() {
	used := map[string]bool{}
	for _, k := range runtimeNames {
		used[k] = true
	}
	for _, d := range g.s.Decls {
		n := pascal(d.DeclName())
		for used[n] {
			n += "_"
		}
		used[n] = true
		g.name[d] = n
	}
	for _, d := range g.s.Decls {
		if _, isEnum := d.(*schema.Enum); isEnum {
			continue
		}
		n := strings.TrimRight(g.name[d], "_") + "Ref"
		for used[n] {
			n += "_"
		}
		used[n] = true
		g.view[d] = n
	}
}
