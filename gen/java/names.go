package java

import (
	"strings"

	"sdp/gen"
	"sdp/schema"
)

// reservedNames declares, once, the names a schema name must not take in
// Java (checked by TestReservedNames, gentest.ReservedNames). A schema name
// in any of these lists gets a "_" suffix, types, fields, accessors, enum
// constants and variant classes alike. java.lang's types (String, Object,
// Override, Integer, ...) are not reserved: the generated code and the
// runtime name them fully qualified (java.lang.String), so a schema type
// named String works; "java" and "javax" are keywords here so that nothing
// obscures the package java. Identifiers of the generated code that hold a
// "$" (read$Zqa, reset$, r$) cannot be schema names and are not listed.
var reservedNames = gen.Names{
	// Keywords, literals and contextual keywords (through Java 21), and the
	// root packages.
	Keywords: gen.Words(`abstract assert boolean break byte case catch char class const continue default do double
else enum extends final finally float for goto if implements import instanceof int interface long native new
package private protected public return short static strictfp super switch synchronized this throw throws
transient try void volatile while true false null var yield record sealed permits exports module open opens
provides requires to transitive uses with when java javax`),
	// The runtime's classes and the generated package's own: schema types
	// share the package.
	TopLevel: gen.Words(`Sdp SdpCodec SdpReader SdpWriter SdpMessage DecodeException EncodeException
StreamException DecodeOptions MessageReader MessageWriter Messages`),
	// What the generated classes define that a field's accessor or an enum
	// constant could clash with: java.lang.Object's methods, the methods of
	// structs, unions and enums, their constants, a union's nested Kind and
	// Visitor.
	Members: gen.Words(`getClass hashCode equals toString notify notifyAll wait clone finalize
typeId encode encodeTo encodedSize encodeMessage encodeMessageTo encodedMessageSize
decode decodeInto decodePrefix decodeMessage decodeMessageInto kind accept Kind Visitor wire fromWire
TYPE_ID FINGERPRINT`),
}

// objectMethods are reservedNames.Members that the generated code does not
// spell out (inherited from java.lang.Object).
var objectMethods = gen.Words(`getClass notify notifyAll wait clone finalize`)

// reserved is every reserved name: a schema name in it gets a "_" suffix.
var reserved = gen.Set(reservedNames.Keywords, reservedNames.TopLevel, reservedNames.Members)

// runtimeClasses are the classes of every generated package; a schema type
// whose name differs from one only in case gets the suffix too, so that no
// two files differ only in case.
var runtimeClasses = reservedNames.TopLevel

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
