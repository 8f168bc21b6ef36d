package golang

import (
	"sort"
	"strings"
	"unicode"

	"sdp/gen"
	"sdp/gen/naming"
	"sdp/schema"
)

// reservedNames declares the names a schema name must not become in Go
// (checked by TestReservedNames). Exported (capitalised) names never collide
// with a keyword or predeclared identifier; the package name can.
var reservedNames = gen.Names{
	Keywords: gen.Words(`break case chan const continue default defer else fallthrough for
		func go goto if import interface map package range return select struct switch type var
		any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32
		int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap
		close complex copy delete imag len make new panic print println real recover main`),
	// The exported names the generated package defines itself: a schema
	// type with one of these names gets a trailing underscore.
	TopLevel: gen.Words(`DecodeOptions DefaultMaxDepth DecodeError EncodeError
		Message NewMessage DecodeMessage DecodeMessageWith DecodeMessageInto
		MessageReader NewMessageReader MessageWriter NewMessageWriter
		MessageHeaderSize DefaultMaxMessageSize
		Rule RuleTruncated RuleTrailing RuleBool RulePresence RuleEnum
		RuleUnionTag RuleUTF8 RuleCount RuleDepth RuleMessage
		RuleMemory RuleSchema RuleSize StreamError HelloTypeID`),
	// The methods generated on struct and variant types: a field with one
	// of these names gets a trailing underscore.
	Members: gen.Words(`MarshalBinary UnmarshalBinary UnmarshalBinaryWith
		UnmarshalPrefix AppendBinary EncodedSize EncodedMessageSize
		WriteTo ReadFrom MarshalMessage
		AppendMessage UnmarshalMessage UnmarshalMessageWith MessageTypeID`),
}

// enumMethods are methods of enum types only, which have no fields; a field
// named like one still gets a trailing underscore, as it always has, so
// that generated APIs (a field `string` is String_) do not change.
var enumMethods = gen.Words(`String IsValid`)

var (
	goKeywords   = gen.Set(reservedNames.Keywords)
	packageLevel = reservedNames.TopLevel
	methodNames  = gen.Set(reservedNames.Members, enumMethods)
)

// names maps every schema name to its Go identifier.
type names struct {
	taken  map[string]bool
	decl   map[schema.Decl]string
	value  map[*schema.EnumValue]string // enum constants
	vtype  map[*schema.Variant]string   // variant types
	typeID map[*schema.Struct]string    // type id constants
	// fingerprint is the constant of every declaration's fingerprint.
	fingerprint map[schema.Decl]string
	// unionFuncs are a union's Decode, DecodeWith, DecodePrefix, Read and
	// DecodeInto functions.
	unionFuncs map[*schema.Union][5]string
}

func newNames(s *schema.Schema) *names {
	n := &names{
		taken:       map[string]bool{},
		decl:        map[schema.Decl]string{},
		value:       map[*schema.EnumValue]string{},
		vtype:       map[*schema.Variant]string{},
		typeID:      map[*schema.Struct]string{},
		fingerprint: map[schema.Decl]string{},
		unionFuncs:  map[*schema.Union][5]string{},
	}
	for _, h := range packageLevel {
		n.taken[h] = true
	}
	for _, d := range s.Decls {
		n.decl[d] = n.claim(naming.Pascal(d.DeclName()))
	}
	// Derived names start from the schema name, not the escaped Go name
	// (Message.Red → MessageRed, not Message_Red).
	for _, d := range s.Decls {
		base := naming.Pascal(d.DeclName())
		switch d := d.(type) {
		case *schema.Enum:
			for _, v := range d.Values {
				n.value[v] = n.claim(base + naming.Pascal(v.Name))
			}
		case *schema.Union:
			for _, v := range d.Variants {
				n.vtype[v] = n.claim(base + naming.Pascal(v.Name))
			}
			u := base
			n.unionFuncs[d] = [5]string{n.claim("Decode" + u), n.claim("Decode" + u + "With"),
				n.claim("Decode" + u + "Prefix"), n.claim("Read" + u), n.claim("Decode" + u + "Into")}
		case *schema.Struct:
			n.typeID[d] = n.claim(base + "TypeID")
		}
	}
	for _, d := range s.Decls {
		n.fingerprint[d] = n.claim(naming.Pascal(d.DeclName()) + "Fingerprint")
	}
	return n
}

// claim reserves name, adding underscores until it is unique.
func (n *names) claim(name string) string {
	for n.taken[name] {
		name += "_"
	}
	n.taken[name] = true
	return name
}

// fieldName is the Go name of a struct or inline-variant field.
func fieldName(f *schema.Field) string {
	name := pascalWithInitialisms(f.Name)
	if methodNames[name] {
		name += "_"
	}
	return name
}

// structVariantField is the field of a struct variant's type that holds the
// struct: named like the struct.
func structVariantField(goStruct string) string {
	if methodNames[goStruct] {
		return goStruct + "_"
	}
	return goStruct
}

// pascalWithInitialisms is naming.PascalInitialisms, "X" for a name with no
// letters or digits.
func pascalWithInitialisms(name string) string {
	if n := naming.PascalInitialisms(name); n != "" {
		return n
	}
	return "X"
}

// goPackage is the generated package's name: --package made valid, or by
// default the schema's name in lower case without underscores or hyphens,
// as Go names packages (enums_unions.sdp: package enumsunions).
func goPackage(s *schema.Schema, opt gen.Options) string {
	if opt.Package != "" {
		return packageName(opt.Package)
	}
	return packageName(strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s.Name)))
}

// packageName makes a valid Go package name: invalid characters become
// underscores, a leading digit gets a "p" prefix, a keyword an underscore.
func packageName(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || unicode.IsLetter(r):
			b.WriteRune(r)
		case unicode.IsDigit(r):
			if i == 0 {
				b.WriteByte('p')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || out == "_" {
		out = "sdp"
	}
	if goKeywords[out] {
		out += "_"
	}
	return out
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
