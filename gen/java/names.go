package java

import (
	"strings"

	"sdp/schema"
)

// The one list of names a schema name must not take in Java: keywords and
// literals, the methods of java.lang.Object, the classes of the runtime and
// of the generated package, and the members every generated class declares.
// A schema name in this set gets a "_" suffix (types, fields, accessors,
// enum constants and variant classes alike). java.lang's types (String,
// Object, Override, Integer, ...) are not reserved: the generated code and
// the runtime name them fully qualified (java.lang.String), so a schema
// type named String works; "java" is reserved so that nothing obscures the
// package java. TestReservedCoversRuntime mines the runtime's identifiers.
var reserved = setOf(
	// Keywords, literals and contextual keywords (through Java 21).
	"abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
	"continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
	"for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
	"new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
	"super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
	"volatile", "while", "true", "false", "null", "var", "yield", "record", "sealed", "permits",
	"exports", "module", "open", "opens", "provides", "requires", "to", "transitive", "uses", "with",
	"when",
	// The root package.
	"java", "javax",
	// java.lang.Object's methods.
	"getClass", "hashCode", "equals", "toString", "notify", "notifyAll", "wait", "clone", "finalize",
	// The runtime's classes and the generated package's own classes.
	"Sdp", "SdpCodec", "SdpReader", "SdpWriter", "SdpMessage", "DecodeException", "EncodeException",
	"StreamException", "DecodeOptions", "MessageReader", "MessageWriter", "Messages",
	// Members of the generated classes: struct and union methods, the
	// nested Kind and Visitor of a union, constants.
	"typeId", "encode", "encodeTo", "encodedSize", "encodeMessage", "encodeMessageTo", "encodedMessageSize",
	"decode", "decodeInto", "decodePrefix", "decodeMessage", "decodeMessageInto", "kind", "accept", "Kind", "Visitor",
	"wire", "fromWire", "TYPE_ID", "FINGERPRINT",
)

// runtimeClasses are the classes of every generated package; a schema type
// whose name differs from one only in case gets the suffix too, so that no
// two files differ only in case.
var runtimeClasses = []string{"Sdp", "SdpCodec", "SdpReader", "SdpWriter", "SdpMessage", "DecodeException",
	"EncodeException", "StreamException", "DecodeOptions", "MessageReader", "MessageWriter", "Messages"}

func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// names holds the Java spelling of every schema name of one schema.
type names struct {
	pkg     string // the Java package
	decl    map[schema.Decl]string
	field   map[*schema.Field]string
	value   map[*schema.EnumValue]string
	variant map[*schema.Variant]string
}

func newNames(s *schema.Schema, pkg string) *names {
	n := &names{pkg: pkg, decl: map[schema.Decl]string{}, field: map[*schema.Field]string{},
		value: map[*schema.EnumValue]string{}, variant: map[*schema.Variant]string{}}
	first := strings.SplitN(pkg, ".", 2)[0]
	for _, d := range s.Decls {
		name := d.DeclName()
		if reserved[name] || name == first || isRuntimeClass(name) {
			name += "_"
		}
		n.decl[d] = name
	}
	fields := func(fs []*schema.Field) {
		for _, f := range fs {
			n.field[f] = memberName(camel(f.Name))
		}
	}
	for _, d := range s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			fields(d.Fields)
		case *schema.Enum:
			for _, v := range d.Values {
				n.value[v] = memberName(v.Name)
			}
		case *schema.Union:
			for _, v := range d.Variants {
				name := memberName(v.Name)
				if name == n.decl[d] {
					name += "_"
				}
				n.variant[v] = name
				fields(v.Fields)
			}
		}
	}
	return n
}

func isRuntimeClass(name string) bool {
	for _, c := range runtimeClasses {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

func memberName(n string) string {
	if reserved[n] {
		return n + "_"
	}
	return n
}

// camel spells a schema field name in lowerCamelCase: display_name is
// displayName. Names that differ only in case or underscores are one name
// to the schema checker, so camel never makes two fields one.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(strings.ToLower(part[:1]) + part[1:])
		} else {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// javaKeywords are the names a package segment cannot be.
func packageName(s *schema.Schema, pkg string) string {
	if pkg == "" {
		pkg = s.Name
	}
	var segs []string
	for _, seg := range strings.Split(pkg, ".") {
		var b strings.Builder
		for i, r := range seg {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r >= '0' && r <= '9' && i > 0:
				b.WriteRune(r)
			case r >= '0' && r <= '9':
				b.WriteString("_")
				b.WriteRune(r)
			default:
				b.WriteByte('_')
			}
		}
		seg = b.String()
		if seg == "" {
			seg = "sdp"
		}
		if reserved[seg] && seg != "java" {
			seg += "_"
		}
		segs = append(segs, seg)
	}
	return strings.Join(segs, ".")
}
