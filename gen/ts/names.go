package ts

import (
	"sdp/gen"
	"sdp/schema"
)

// reservedNames declares, once, the names a schema name must not take in
// TypeScript or JavaScript (checked by TestReservedNames,
// gentest.ReservedNames). A type that takes a Keywords, Prelude, TopLevel
// or params name is renamed with a trailing "_" (again until free); a field
// or an enum value that takes a Members name likewise. Fields are
// properties, where keywords are valid names, so keywords do not rename
// fields. The generated code's own helpers all start with "$" ($d_Zqa,
// $structs, the runtime's namespace $), which no schema name can.
var reservedNames = gen.Names{
	// Reserved words, strict-mode and TypeScript keywords, contextual ones
	// included.
	Keywords: gen.Words(`break case catch class const continue debugger default delete do else enum export extends false
finally for function if import in instanceof new null return super switch this throw true try
typeof var void while with yield let static implements interface package private protected public
await async of get set as any boolean number string symbol bigint unknown never object type
declare module namespace readonly abstract is keyof infer unique require global from
arguments eval satisfies override accessor out asserts`),
	// The global values and types the generated code and its users name,
	// and what every object has, the global object included (an export
	// named then makes the module's namespace a thenable).
	Prelude: gen.Words(`undefined NaN Infinity constructor prototype __proto__ toString valueOf hasOwnProperty then
Object Function Array Number Boolean String Symbol BigInt Math JSON Date RegExp Error TypeError
RangeError SyntaxError Map Set WeakMap WeakSet Promise Proxy Reflect ArrayBuffer SharedArrayBuffer
DataView Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array
Float64Array BigInt64Array BigUint64Array Uint8ClampedArray TextEncoder TextDecoder ReadableStream
WritableStream WritableStreamDefaultWriter Iterable AsyncIterable Iterator AsyncIterator
IterableIterator Partial Readonly Record ReadonlyMap ArrayLike PromiseLike ArrayBufferView
globalThis console process window self exports`),
	// The runtime's exports (runtime/runtime.ts: index re-exports some and
	// names the rest as $.X, but both modules are the package's), and the
	// names the generated index module defines.
	TopLevel: gen.Words(`DEFAULT_MAX_DEPTH DEFAULT_MAX_MESSAGE_SIZE MESSAGE_HEADER_SIZE HELLO_TYPE_ID Rule DecodeOptions
DecodeError EncodeError at finish tuple bytesOf getF32 setF32 NumbersType Reader NumberKind decodeTop
decodePrefix decodePayload utf8Length Writer NumberArray encodeNew encodeAt encodeMessageNew
encodeMessageAt badKind fixedLength strSize header readHeader MessageInfo encodeHello
limit EncodeRule UNENCODABLE bad cu8 ci8 cu16 ci16 cu32 ci32 cu64 ci64 cf64 cbool cobj ctuple Size
encodedSize encodedMessageSize kint kfloat kbool kenum kstr kbytes knumbers karray ktuple kobj kunion
MessageReaderOptions MessageWriterOptions ByteSource PayloadDecoder MessageReaderBase ByteSink MessageWriterBase
Message MessageReader MessageWriter decodeMessage HELLO`),
	// What a field (an instance property) or an enum value (a property of
	// the enum's object) could clash with: the instance methods of the
	// generated classes, and the names every object has.
	Members: gen.Words(`constructor encode encodeInto encodedSize encodeMessage encodeMessageInto encodedMessageSize
messageTypeId
__proto__ prototype toString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable toLocaleString then
__defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__`),
	Prefixes: []string{"$"},
}

// objectMembers are the reservedNames.Members the generated code does not
// spell out (every object has them).
var objectMembers = gen.Words(`__proto__ prototype toString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable
toLocaleString then __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__`)

// params are the parameters of generated functions and methods: a type of
// the same name would be shadowed inside them (decodeInto's value, a
// constructor's init). TestReservedNames checks them against the probe's.
var params = gen.Words(`bytes opts value buf offset init source sink _init _r _w`)

// reservedTop are the names a schema's types cannot take at a module's top
// level; reservedMember those a field or an enum value cannot take.
var (
	reservedTop    = gen.Set(reservedNames.Keywords, reservedNames.Prelude, reservedNames.TopLevel, params)
	reservedMember = gen.Set(reservedNames.Members)
)

// names holds every identifier of one generated module, decided once
// before printing.
type names struct {
	decl    map[schema.Decl]string
	variant map[*schema.Variant]string // inline variants' classes
	field   map[*schema.Field]string
	value   map[*schema.EnumValue]string
}

// free appends "_" to name until taken does not hold it, then takes it.
func free(name string, taken map[string]bool) string {
	for taken[name] {
		name += "_"
	}
	taken[name] = true
	return name
}

func newNames(s *schema.Schema) *names {
	n := &names{
		decl:    map[schema.Decl]string{},
		variant: map[*schema.Variant]string{},
		field:   map[*schema.Field]string{},
		value:   map[*schema.EnumValue]string{},
	}
	taken := map[string]bool{}
	for w := range reservedTop { // membership only: the order does not matter
		taken[w] = true
	}
	// Declared names first, so a declared name keeps its spelling when an
	// inline variant's class would take it.
	for _, d := range s.Decls {
		n.decl[d] = free(d.DeclName(), taken)
	}
	members := func(fs []*schema.Field) {
		used := map[string]bool{}
		for w := range reservedMember {
			used[w] = true
		}
		for _, f := range fs {
			n.field[f] = free(f.Name, used)
		}
	}
	for _, d := range s.Decls {
		switch d := d.(type) {
		case *schema.Struct:
			members(d.Fields)
		case *schema.Enum:
			used := map[string]bool{}
			for w := range reservedMember {
				used[w] = true
			}
			for _, v := range d.Values {
				n.value[v] = free(v.Name, used)
			}
		case *schema.Union:
			for _, v := range d.Variants {
				if v.Kind == schema.VariantInline {
					n.variant[v] = free(n.decl[d]+"_"+v.Name, taken)
					members(v.Fields)
				}
			}
		}
	}
	return n
}
