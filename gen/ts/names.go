package ts

import "sdp/schema"

// reservedTop are the names a schema's types cannot take at a module's top
// level in TypeScript or JavaScript: reserved words and keywords (of strict
// mode and of TypeScript's types), the global values and types the
// generated code and its users name, the runtime's exports (re-exported or
// used by the generated code; TestReservedRuntime checks the list against
// runtime/runtime.ts), and the names the generated code defines itself.
// A type that takes one is renamed with a trailing "_" (again until free).
var reservedTop = words(
	// Reserved words, strict-mode and TypeScript keywords.
	"break case catch class const continue debugger default delete do else enum export extends false",
	"finally for function if import in instanceof new null return super switch this throw true try",
	"typeof var void while with yield let static implements interface package private protected public",
	"await async of get set as any boolean number string symbol bigint unknown never object type",
	"declare module namespace readonly abstract is keyof infer unique require global from",
	"constructor arguments eval undefined NaN Infinity prototype __proto__ toString valueOf",
	"hasOwnProperty then satisfies override accessor out asserts",
	// Globals.
	"Object Function Array Number Boolean String Symbol BigInt Math JSON Date RegExp Error TypeError",
	"RangeError SyntaxError Map Set WeakMap WeakSet Promise Proxy Reflect ArrayBuffer SharedArrayBuffer",
	"DataView Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array",
	"Float64Array BigInt64Array BigUint64Array Uint8ClampedArray TextEncoder TextDecoder ReadableStream",
	"WritableStream WritableStreamDefaultWriter Iterable AsyncIterable Iterator AsyncIterator",
	"IterableIterator Partial Readonly Record ReadonlyMap ArrayLike PromiseLike ArrayBufferView",
	"globalThis console process window self require module exports",
	// The runtime's exports (runtime/runtime.ts).
	"DEFAULT_MAX_DEPTH DEFAULT_MAX_MESSAGE_SIZE MESSAGE_HEADER_SIZE HELLO_TYPE_ID Rule DecodeOptions",
	"DecodeError EncodeError at finish tuple bytesOf getF32 setF32 NumbersType Reader NumberKind decodeTop",
	"decodePrefix decodePayload utf8Length Writer NumberArray encodeNew encodeAt encodeMessageNew",
	"encodeMessageAt badEnum badKind fixedLength strSize header readHeader MessageInfo encodeHello",
	"MessageReaderOptions MessageWriterOptions ByteSource PayloadDecoder MessageReaderBase ByteSink MessageWriterBase",
	// What the generated code defines.
	"Message MessageReader MessageWriter decodeMessage HELLO",
	// The parameters of generated functions and methods (a type of the same
	// name would be shadowed inside them).
	"bytes opts value buf offset init source sink _init _r _w _m",
)

// reservedMember are the names a field or an enum value cannot take as a
// property: the ones with a meaning of their own on objects and classes,
// and the methods the generated classes define. A field that takes one is
// renamed with a trailing "_".
var reservedMember = words(
	"constructor __proto__ prototype toString valueOf hasOwnProperty isPrototypeOf",
	"propertyIsEnumerable toLocaleString then __defineGetter__ __defineSetter__",
	"__lookupGetter__ __lookupSetter__",
	"encode encodeInto encodedSize encodeMessage encodeMessageInto encodedMessageSize messageTypeId",
)

func words(lines ...string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lines {
		w := ""
		for i := 0; i <= len(l); i++ {
			if i == len(l) || l[i] == ' ' {
				if w != "" {
					m[w] = true
				}
				w = ""
				continue
			}
			w += string(l[i])
		}
	}
	return m
}

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
