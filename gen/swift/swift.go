// Package swift is the Swift backend: `sdp gen --lang swift` writes a
// SwiftPM package in pure Swift (standard library only; Foundation only in an
// optional Data convenience file), with the package, its library product and
// its module named by --package.
package swift

import (
	_ "embed"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/naming"
	"sdp/gen/plan"
	"sdp/schema"
)

func init() { gen.Register("swift", Generate) }

// support is the runtime every generated module carries (errors, options,
// reader and writer), written as Swift so it can be read and tested as such.
//
//go:embed support.swift
var support string

// Generate writes the SwiftPM package for s.
func Generate(s *schema.Schema, opt gen.Options) ([]gen.File, error) {
	g := newGen(s, opt)
	mod := g.module
	src := "Sources/" + mod + "/"
	files := []gen.File{
		{Path: "Package.swift", Content: g.packageFile()},
		{Path: src + "SDPSupport.swift", Content: g.supportFile()},
		{Path: src + "Types.swift", Content: g.typesFile()},
		{Path: src + "Codec.swift", Content: g.codecFile()},
		{Path: src + "Foundation.swift", Content: g.foundationFile()},
	}
	if len(s.Structs) > 0 {
		files = append(files, gen.File{Path: src + "Messages.swift", Content: g.messagesFile()})
	}
	files = append(files, gen.File{Path: "Tests/" + mod + "Tests/" + mod + "Tests.swift", Content: g.testsFile()})
	return files, nil
}

// gen holds the names chosen for one schema.
type generator struct {
	s      *schema.Schema
	plan   *plan.Plan // the codec plan every encoder and decoder prints
	pkg    string     // package and product name, as given
	module string     // module (target) name: pkg made a Swift identifier
	names  map[schema.Decl]string
	plain  map[schema.Decl]string // names without backticks, for derived identifiers
	taken  map[string]bool        // Swift type names the schema declares
	reuse  map[*plan.Decl]bool    // declReusable's answers (lookups only)
	checks map[*plan.Decl]bool    // declChecks's answers (lookups only)
}

func newGen(s *schema.Schema, opt gen.Options) *generator {
	g := &generator{
		s:     s,
		plan:  plan.Build(s),
		pkg:   opt.PackageName(s),
		names: map[schema.Decl]string{},
		plain: map[schema.Decl]string{},
		taken: map[string]bool{},
	}
	g.module = identifier(g.pkg)
	for _, d := range s.Decls {
		n := naming.Pascal(d.DeclName())
		if reservedTypes[n] || strings.HasPrefix(n, "_") {
			n += "_"
		}
		g.plain[d] = n
		g.taken[n] = true
		if keywords[n] {
			g.names[d] = "`" + n + "`"
		} else {
			g.names[d] = n
		}
	}
	return g
}

// identifier turns a package name into a Swift module name.
func identifier(s string) string {
	var b strings.Builder
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// reservedNames declares the names a schema name must not become in Swift
// (checked by TestReservedNames). A type or member named like a keyword is
// escaped with backticks; one named like another reserved name gets a
// trailing underscore.
var reservedNames = gen.Names{
	// Swift's reserved words and the contextual words that are safer
	// escaped. Backticks make any of them a valid identifier.
	Keywords: gen.Words(`
		associatedtype borrowing class consuming deinit enum extension fileprivate func import
		init inout internal let nonisolated open operator package precedencegroup private
		protocol public rethrows static struct subscript typealias var
		break case catch continue default defer do else fallthrough for guard if in repeat
		return throw switch where while
		Any as async await catch false is nil self Self super throws true try
		Type Protocol some any actor macro copy consume discard each`),
	// The standard-library, Foundation and XCTest names the runtime and the
	// generated code and tests use unqualified.
	Prelude: gen.Words(`Swift Foundation Data ContiguousBytes
		Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64
		Float Double Bool Optional Array Never Void Sendable Hashable Equatable
		CaseIterable Hasher UTF8 Unicode UnsafeRawBufferPointer MemoryLayout XCTest XCTestCase
		Self Any Protocol
		FixedWidthInteger CustomStringConvertible RandomAccessCollection
		IndexingIterator IteratorProtocol OutputSpan StaticString
		UnsafeRawPointer UnsafeMutableRawPointer UnsafePointer
		UnsafeBufferPointer UnsafeMutableBufferPointer
		XCTAssertEqual XCTAssertThrowsError XCTFail XCTAssert
		XCTAssertTrue XCTAssertFalse XCTAssertNil XCTAssertNotNil
		JSONEncoder JSONDecoder
		UnsafeMutableRawBufferPointer Glibc Musl Darwin`),
	// The types the generated module and its tests define.
	TopLevel: gen.Words(`DecodeError EncodeError DecodeOptions AnyMessage
		SDPValue SDPMessageValue SDPDataValue StreamError MessageReader MessageWriter`),
	// The members the generated API defines on every type; fields, cases
	// and variants with these names get a trailing underscore.
	Members: gen.Words(`encodedSize serializedBytes serialize serializedData
		checkedSerializedBytes checkedSerialize checkedSerializedData checkedSerializedMessage
		serializedMessage serializeMessage encodedMessageSize messageTypeID decodePrefix decode fingerprint
		headerSize helloTypeID` + " " + synthesizedMembers),
	// The runtime's private names (_SDPReader, _sdpRead); a schema name
	// starting with _ gets a trailing underscore.
	Prefixes: []string{"_"},
}

// synthesizedMembers are members the compiler synthesizes (Hashable,
// RawRepresentable, CaseIterable) or the enums' description.
const synthesizedMembers = "hashValue hash rawValue allCases description"

var (
	reservedTypes   = gen.Set(reservedNames.TopLevel, reservedNames.Prelude)
	reservedMembers = gen.Set(reservedNames.Members)
	keywords        = gen.Set(reservedNames.Keywords)
)

// member is the Swift name of a field, enum case or union variant.
func member(name string) string {
	n := plainMember(name)
	if keywords[n] {
		return "`" + n + "`"
	}
	return n
}

// plainMember is member without backticks, for derived identifiers.
// Initialisms after the first word are upper case, as the Swift API Design
// Guidelines and swift-protobuf write them: manufacturer_id is manufacturerID.
func plainMember(name string) string {
	n := naming.CamelInitialisms(name)
	if reservedMembers[n] || strings.HasPrefix(n, "_") {
		n += "_"
	}
	return n
}

// typeName is the Swift name of a declaration (escaped when needed).
func (g *generator) typeName(d schema.Decl) string { return g.names[d] }

// declName is the Swift name of the declaration a value of Op Enum, Struct
// or Union refers to.
func (g *generator) declName(v *plan.Value) string { return g.typeName(v.Decl.Decl) }

// str is the Swift string type, qualified when the schema declares its own String.
func (g *generator) str() string {
	if g.taken["String"] {
		return "Swift.String"
	}
	return "String"
}

var scalarTypes = map[schema.Kind]string{
	schema.Bool: "Bool", schema.U8: "UInt8", schema.U16: "UInt16", schema.U32: "UInt32", schema.U64: "UInt64",
	schema.I8: "Int8", schema.I16: "Int16", schema.I32: "Int32", schema.I64: "Int64",
	schema.F32: "Float", schema.F64: "Double",
}

// typ is the Swift type of a schema type.
func (g *generator) typ(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return g.str()
	case schema.Array, schema.FixedArray:
		return "[" + g.typ(t.Elem) + "]"
	case schema.Optional:
		return g.typ(t.Elem) + "?"
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.typeName(t.Decl())
	}
	if s, ok := scalarTypes[t.Kind]; ok {
		return s
	}
	panic("swift: unknown kind " + t.Kind.String())
}

// boxed reports whether a struct field coded as v must be stored in a box:
// an optional whose chain of optionals leads back to the struct holding it.
func boxed(v *plan.Value) bool {
	for ; v.Op == plan.Optional; v = v.Elem {
		if v.Boxed {
			return true
		}
	}
	return false
}

// header starts every Swift source file.
func (g *generator) header() *emit.Printer {
	p := emit.New("    ")
	p.P("// ", gen.Header(g.s))
	p.P()
	return p
}

// doc prints a declaration's `///` comment.
func doc(p *emit.Printer, lines []string) { p.Comment("/// ", lines) }

func (g *generator) supportFile() []byte {
	p := g.header()
	p.Line(strings.TrimRight(support, "\n"))
	return p.Bytes()
}

func (g *generator) packageFile() []byte {
	p := emit.New("    ")
	p.P("// swift-tools-version:6.0")
	p.P("// ", gen.Header(g.s))
	p.P()
	p.P("import PackageDescription")
	p.P()
	p.Block("let package = Package(", ")", func() {
		p.F("name: %q,", g.pkg)
		// The generated code uses String(unsafeUninitializedCapacity:)
		// (macOS 11, iOS 14) and Array.append(addingCapacity:) (macOS
		// 10.14.4); SwiftPM's default deployment targets are older.
		p.P("platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1)],")
		p.Block("products: [", "],", func() {
			p.F(".library(name: %q, targets: [%q]),", g.pkg, g.module)
		})
		p.Block("targets: [", "],", func() {
			p.F(".target(name: %q, path: %q),", g.module, "Sources/"+g.module)
			p.F(".testTarget(name: %q, dependencies: [%q], path: %q),", g.module+"Tests", g.module, "Tests/"+g.module+"Tests")
		})
		p.P("swiftLanguageModes: [.v6]")
	})
	return p.Bytes()
}

// structFields and friends make iteration read naturally below.
func variantCase(v *schema.Variant) string { return member(v.Name) }

func q(s string) string { return fmt.Sprintf("%q", s) }

// label is a field's argument label at a call site, where Swift wants
// keywords unescaped (it warns about a needless escape) except inout, which
// would be misread.
func label(name string) string {
	n := plainMember(name)
	if n == "inout" {
		return "`" + n + "`"
	}
	return n
}

// switchBlock prints a switch whose cases sit at the switch's own
// indentation, as Swift style has it.
func switchBlock(p *emit.Printer, open string, body func()) {
	p.Line(open)
	body()
	p.Line("}")
}

// caseBlock prints a case label with its statements one level in.
func caseBlock(p *emit.Printer, label string, body func()) {
	p.Line(label)
	p.In()
	body()
	p.Out()
}
