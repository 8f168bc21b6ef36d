package swift

import (
	"fmt"

	"sdp/gen/emit"
	"sdp/schema"
)

// testsFile writes XCTest tests of the generated package: every struct and
// union round-trips sample values built from the schema through every
// decode API, every proper prefix of an encoding is rejected, and so on.
func (g *generator) testsFile() []byte {
	p := g.header()
	p.P("import XCTest")
	p.P("import ", g.module)
	p.P()
	p.P("#if canImport(Foundation)")
	p.P("import Foundation")
	p.P("#endif")
	p.P()
	g.testAliases(p)
	g.testProtocols(p)
	p.P()
	p.Block(fmt.Sprintf("final class %sTests: XCTestCase {", g.module), "}", func() {
		for _, d := range g.s.Decls {
			var values []string
			switch d := d.(type) {
			case *schema.Struct:
				values = append(values, g.typeName(d)+"()")
			case *schema.Union:
				values = append(values, g.zero(&schema.Type{Kind: schema.UnionRef, Union: d}))
			case *schema.Enum:
				g.enumTests(p, d)
				p.P()
				continue
			default:
				continue
			}
			for seed := 0; seed < g.sampleCount(d); seed++ {
				values = append(values, g.sampleDecl(d, seed, 3))
			}
			p.Block(fmt.Sprintf("func test%sRoundTrip() throws {", g.plain[d]), "}", func() {
				p.Block(fmt.Sprintf("let values: [%s] = [", g.typeName(d)), "]", func() {
					for _, v := range values {
						p.P(v, ",")
					}
				})
				p.Block("for v in values {", "}", func() {
					p.P("try checkRoundTrip(v)")
					if st, ok := d.(*schema.Struct); ok {
						p.F("try checkMessage(v, typeID: %d, wrapped: AnyMessage.%s(v))", st.ID, member(st.Name))
					}
				})
				g.decodeIntoTest(p, d)
			})
			p.P()
		}
		if len(g.s.Structs) > 0 {
			g.streamTests(p)
			p.P()
			g.helloTests(p)
			p.P()
		}
		p.Block("func testDecodeErrorDescription() {", "}", func() {
			p.P("let e = DecodeError.invalidUTF8(offset: 7)")
			p.P(`XCTAssertEqual(e.rule, "utf8")`)
			p.P("XCTAssertEqual(e.offset, 7)")
			p.P(`XCTAssertEqual(e.description, "utf8 at offset 7: a string is not valid UTF-8")`)
			p.P(`XCTAssertEqual(e.path, "")`)
			p.P(`let q = DecodeError.invalidUTF8(offset: 9, path: "plugins[3].name")`)
			p.P(`XCTAssertEqual(q.path, "plugins[3].name")`)
			p.P(`XCTAssertEqual(q.description, "utf8 at offset 9 in plugins[3].name: a string is not valid UTF-8")`)
			p.P("let m = DecodeError.memoryExceeded(offset: 4)")
			p.P(`XCTAssertEqual(m.rule, "memory")`)
			p.P("XCTAssertEqual(m.offset, 4)")
			p.P("XCTAssertEqual(DecodeOptions().memoryLimit, 0)")
			p.P("XCTAssertEqual(DecodeOptions().maxDepth, DecodeOptions.defaultMaxDepth)")
			p.P("XCTAssertEqual(DecodeOptions.defaultMaxDepth, 64)")
			if len(g.s.Structs) > 0 {
				p.P("XCTAssertEqual(AnyMessage.headerSize, 10)")
				p.P("XCTAssertEqual(AnyMessage.helloTypeID, 0)")
			}
		})
	})
	return p.Bytes()
}

// testProtocols prints the test helpers that every struct and union goes
// through (over the module's public SDPValue and SDPMessageValue).
func (g *generator) testProtocols(p *emit.Printer) {
	p.P("/// SDPValue and the Foundation API every struct, union and enum offers.")
	p.Block("protocol SDPDataValue: SDPValue {", "}", func() {
		p.P("init<Bytes: ContiguousBytes>(serializedBytes: Bytes, options: DecodeOptions) throws(DecodeError)")
		p.P("func serializedData() -> Data")
		p.P("func checkedSerializedData() throws(EncodeError) -> Data")
	})
	p.P()
	for _, d := range g.s.Decls {
		switch d.(type) {
		case *schema.Struct, *schema.Union, *schema.Enum:
			p.F("extension %s: SDPDataValue {}", g.typeName(d))
		}
	}
	p.P()
	p.P("/// Asserts that decoding throws the error of the given rule.")
	p.Block("func assertRejects(_ rule: Swift.String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws(DecodeError) -> Void) {", "}", func() {
		p.Block("do {", "}", func() {
			p.P("try body()")
			p.P(`XCTFail("accepted an input that breaks rule \(rule)", file: file, line: line)`)
		})
		p.Block("catch {", "}", func() {
			p.P("XCTAssertEqual(error.rule, rule, file: file, line: line)")
		})
	})
	p.P()
	p.P("/// Round-trips v through every decode API and checks encodings are exact.")
	p.Block("func checkRoundTrip<T: SDPDataValue>(_ v: T, file: StaticString = #filePath, line: UInt = #line) throws {", "}", func() {
		p.P("let bytes = v.serializedBytes()")
		p.P("XCTAssertEqual(bytes.count, v.encodedSize, file: file, line: line)")
		p.P("XCTAssertEqual(try v.checkedSerializedBytes(), bytes, file: file, line: line)")
		p.P("var checked: [UInt8] = [0xAB]")
		p.P("try v.checkedSerialize(into: &checked)")
		p.P("XCTAssertEqual(checked, [0xAB] + bytes, file: file, line: line)")
		p.P("XCTAssertEqual(try T(serializedBytes: bytes), v, file: file, line: line)")
		p.P("XCTAssertEqual(try T(serializedBytes: bytes).serializedBytes(), bytes, file: file, line: line)")
		p.P("let viaPointer = try bytes.withUnsafeBytes { try T(serializedBytes: $0, options: DecodeOptions()) }")
		p.P("XCTAssertEqual(viaPointer, v, file: file, line: line)")
		p.P("var out: [UInt8] = [0xAB]")
		p.P("v.serialize(into: &out)")
		p.P("XCTAssertEqual(out, [0xAB] + bytes, file: file, line: line)")
		p.P("let prefix = try T.decodePrefix(bytes + [0xCD, 0xEF], options: DecodeOptions())")
		p.P("XCTAssertEqual(prefix.value, v, file: file, line: line)")
		p.P("XCTAssertEqual(prefix.bytesConsumed, bytes.count, file: file, line: line)")
		p.P("let longer = bytes + [0]")
		p.P(`assertRejects("trailing", file: file, line: line) { () throws(DecodeError) in _ = try T(serializedBytes: longer) }`)
		p.P("// A depth limit of 0 or less means the default (64).")
		p.P("XCTAssertEqual(try T(serializedBytes: bytes, options: DecodeOptions(maxDepth: 0)), v, file: file, line: line)")
		p.P("XCTAssertEqual(try T(serializedBytes: bytes, options: DecodeOptions(maxDepth: -1)), v, file: file, line: line)")

		p.Block("for n in 0..<bytes.count {", "}", func() {
			p.P("XCTAssertThrowsError(try T(serializedBytes: Array(bytes[..<n])), \"prefix of \\(n) bytes\", file: file, line: line)")
		})
		if g.plan.Charges {
			// Rule memory: a limit of 1 byte rejects a value holding a
			// charged array or optional, and takes the others, the same in
			// every decode API; no limit takes every value.
			p.P("let tight = DecodeOptions(memoryLimit: 1)")
			p.P("let limited = Swift.Result { () throws(DecodeError) in try T(serializedBytes: bytes, options: tight) }")
			switchBlock(p, "switch limited {", func() {
				p.P("case .success(let w): XCTAssertEqual(w, v, file: file, line: line)")
				p.P(`case .failure(let e): XCTAssertEqual(e.rule, "memory", file: file, line: line)`)
			})
			p.P("XCTAssertEqual(bytes.withUnsafeBytes { b in Swift.Result { () throws(DecodeError) in try T(serializedBytes: b, options: tight) } }, limited, file: file, line: line)")
			p.P("XCTAssertEqual(Swift.Result { () throws(DecodeError) in try T.decodePrefix(bytes + [0], options: tight).value }, limited, file: file, line: line)")
			p.P("#if canImport(Foundation)")
			p.P("XCTAssertEqual(Swift.Result { () throws(DecodeError) in try T(serializedBytes: Data(bytes), options: tight) }, limited, file: file, line: line)")
			p.P("#endif")
			p.P("XCTAssertEqual(try T(serializedBytes: bytes, options: DecodeOptions(memoryLimit: .max)), v, file: file, line: line)")
		}
		p.P("#if canImport(Foundation)")
		p.P("XCTAssertEqual(try T(serializedBytes: Data(bytes), options: DecodeOptions()), v, file: file, line: line)")
		p.P("XCTAssertEqual(v.serializedData(), Data(bytes), file: file, line: line)")
		p.P("XCTAssertEqual(try v.checkedSerializedData(), Data(bytes), file: file, line: line)")
		p.P("// Codable: a JSON round trip gives the value back, bit for bit.")
		p.P("let json = try JSONEncoder().encode(v)")
		p.P("XCTAssertEqual(try JSONDecoder().decode(T.self, from: json).serializedBytes(), bytes, file: file, line: line)")
		p.P("#endif")
	})
	p.P()
	if len(g.s.Structs) == 0 {
		return
	}
	p.P("/// Round-trips v as a message, alone and through AnyMessage.")
	p.Block("func checkMessage<T: SDPMessageValue>(_ v: T, typeID: UInt16, wrapped: AnyMessage, file: StaticString = #filePath, line: UInt = #line) throws {", "}", func() {
		p.P("XCTAssertEqual(T.messageTypeID, typeID, file: file, line: line)")
		p.P("let m = v.serializedMessage()")
		p.P("XCTAssertEqual(m.count, 10 + v.encodedSize, file: file, line: line)")
		p.P("XCTAssertEqual(v.encodedMessageSize, m.count, file: file, line: line)")
		p.P("XCTAssertEqual(wrapped.encodedMessageSize, m.count, file: file, line: line)")
		p.P("XCTAssertEqual(Array(m[0..<4]), Array(\"SDP2\".utf8), file: file, line: line)")
		p.P("XCTAssertEqual(UInt16(m[4]) | UInt16(m[5]) << 8, typeID, file: file, line: line)")
		p.P("XCTAssertEqual(Array(m[10...]), v.serializedBytes(), file: file, line: line)")
		p.P("XCTAssertEqual(try T(serializedMessage: m, options: DecodeOptions()), v, file: file, line: line)")
		p.P("XCTAssertEqual(try AnyMessage(serializedMessage: m), wrapped, file: file, line: line)")
		p.P("XCTAssertEqual(wrapped.messageTypeID, typeID, file: file, line: line)")
		p.P("XCTAssertEqual(wrapped.serializedMessage(), m, file: file, line: line)")
		p.P("XCTAssertEqual(try v.checkedSerializedMessage(), m, file: file, line: line)")
		p.P("XCTAssertEqual(try wrapped.checkedSerializedMessage(), m, file: file, line: line)")
		p.P("var badMagic = m")
		p.P("badMagic[3] = 0x31")
		p.P(`assertRejects("message", file: file, line: line) { () throws(DecodeError) in _ = try AnyMessage(serializedMessage: badMagic) }`)
		p.P("let longer = m + [0]")
		p.P("let shorter = [UInt8](m.dropLast())")
		p.P(`assertRejects("message", file: file, line: line) { () throws(DecodeError) in _ = try T(serializedMessage: longer, options: DecodeOptions()) }`)
		p.P(`XCTAssertThrowsError(try AnyMessage(serializedMessage: shorter), file: file, line: line)`)
		p.P("var otherID = m")
		p.P("otherID[4] ^= 0xFF")
		p.P("otherID[5] ^= 0xFF")
		p.P(`XCTAssertThrowsError(try T(serializedMessage: otherID, options: DecodeOptions()), file: file, line: line)`)
		if g.plan.Charges {
			// Rule memory in the message decoders: the same outcome as the
			// value's own decoder, 10 bytes further on.
			p.P("let tight = DecodeOptions(memoryLimit: 1)")
			p.P("let plain = Swift.Result { () throws(DecodeError) in try T(serializedBytes: v.serializedBytes(), options: tight) }")
			p.P("let framed = Swift.Result { () throws(DecodeError) in try T(serializedMessage: m, options: tight) }")
			switchBlock(p, "switch (plain, framed) {", func() {
				p.P("case (.success(let a), .success(let b)): XCTAssertEqual(a, b, file: file, line: line)")
				p.P(`case (.failure(let a), .failure(let b)): XCTAssertEqual([b.rule, "\(b.offset)"], [a.rule, "\(a.offset + 10)"], file: file, line: line)`)
				p.P(`default: XCTFail("the message decoder and the value decoder disagree under a memory limit", file: file, line: line)`)
			})
			p.P("XCTAssertEqual(Swift.Result { () throws(DecodeError) in try AnyMessage(serializedMessage: m, options: tight) }, framed.map { _ in wrapped }, file: file, line: line)")
		}
	})
	p.P()
	g.streamTestHelpers(p)
}

// sampleCount is how many sample values a declaration's test uses: enough
// to visit every variant of the unions it holds directly.
func (g *generator) sampleCount(d schema.Decl) int {
	n := 1
	var visit func(t *schema.Type)
	visit = func(t *schema.Type) {
		switch t.Kind {
		case schema.Array, schema.FixedArray, schema.Optional:
			visit(t.Elem)
		case schema.UnionRef:
			if len(t.Union.Variants) > n {
				n = len(t.Union.Variants)
			}
		}
	}
	switch d := d.(type) {
	case *schema.Struct:
		for _, f := range d.Fields {
			visit(f.Type)
		}
	case *schema.Union:
		n = len(d.Variants)
	}
	return n
}

// sampleDecl is a sample value of a struct or union.
func (g *generator) sampleDecl(d schema.Decl, seed, budget int) string {
	switch d := d.(type) {
	case *schema.Struct:
		return g.sample(&schema.Type{Kind: schema.StructRef, Struct: d}, seed, budget)
	case *schema.Union:
		return g.sample(&schema.Type{Kind: schema.UnionRef, Union: d}, seed, budget)
	}
	panic("swift: sample of " + d.DeclName())
}

// sample is a Swift expression of a non-zero value of t; seed varies the
// values and the union variants chosen, budget bounds recursion.
func (g *generator) sample(t *schema.Type, seed, budget int) string {
	switch t.Kind {
	case schema.Bool:
		return "true"
	case schema.U8:
		return fmt.Sprint(200 + seed%50)
	case schema.U16:
		return fmt.Sprint(60000 + seed)
	case schema.U32:
		return fmt.Sprint(uint32(4000000000) + uint32(seed))
	case schema.U64:
		return fmt.Sprint(uint64(18000000000000000000) + uint64(seed))
	case schema.I8:
		return fmt.Sprint(-100 - seed%20)
	case schema.I16:
		return fmt.Sprint(-30000 - seed)
	case schema.I32:
		return fmt.Sprint(-2000000000 - seed)
	case schema.I64:
		return fmt.Sprint(-9000000000000000000 - int64(seed))
	case schema.F32:
		return fmt.Sprintf("%d.5", 1+seed)
	case schema.F64:
		return fmt.Sprintf("-%d.25", 2+seed)
	case schema.String:
		return fmt.Sprintf("\"h\\u{E9}llo \\u{1F30D} %d\"", seed)
	case schema.Array:
		if budget <= 0 {
			return "[]"
		}
		n := 2
		if t.Elem.IsNumeric() {
			n = 3
		}
		return g.sampleList(t.Elem, n, seed, budget-1)
	case schema.FixedArray:
		return g.sampleList(t.Elem, int(t.Len), seed, budget-1)
	case schema.Optional:
		if budget <= 0 {
			return "nil"
		}
		return g.sample(t.Elem, seed, budget-1)
	case schema.EnumRef:
		vs := t.Enum.Values
		return g.typeName(t.Enum) + "." + member(vs[(seed+len(vs)-1)%len(vs)].Name)
	case schema.StructRef:
		st := t.Struct
		if budget <= 0 && st.Recursive {
			return g.zero(t)
		}
		var args []string
		for _, f := range st.Fields {
			args = append(args, label(f.Name)+": "+g.sample(f.Type, seed+f.Index, budget-1))
		}
		return g.typeName(st) + "(" + join(args) + ")"
	case schema.UnionRef:
		u := t.Union
		if budget <= 0 && u.Recursive {
			return g.zero(t)
		}
		v := u.Variants[seed%len(u.Variants)]
		if v.Kind == schema.VariantStruct {
			return g.typeName(u) + "." + variantCase(v) + "(" + g.sample(&schema.Type{Kind: schema.StructRef, Struct: v.Struct}, seed, budget-1) + ")"
		}
		return g.unionValue(u, v, func(f *schema.Field) string { return g.sample(f.Type, seed+f.Index, budget-1) })
	}
	panic("swift: sample of " + t.String())
}

func (g *generator) sampleList(elem *schema.Type, n, seed, budget int) string {
	var vs []string
	for i := 0; i < n; i++ {
		vs = append(vs, g.sample(elem, seed+i, budget))
	}
	return "[" + join(vs) + "]"
}

func join(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}

// enumTests prints the tests of an enum: every value round-trips through
// every API, and a number that names no value is rejected with rule "enum"
// at its offset by every decode API.
func (g *generator) enumTests(p *emit.Printer, e *schema.Enum) {
	name := g.typeName(e)
	p.Block(fmt.Sprintf("func test%sRoundTrip() throws {", g.plain[e]), "}", func() {
		p.F("XCTAssertEqual(%s.allCases.count, %d)", name, len(e.Values))
		p.Block(fmt.Sprintf("for v in %s.allCases {", name), "}", func() {
			p.P("try checkRoundTrip(v)")
			p.F("XCTAssertEqual(v.encodedSize, %d)", e.Base.Size())
		})
		p.F("let values = %s.allCases", name)
		g.decodeIntoTest(p, e)
		for _, v := range e.Values {
			var bs []string
			for i := 0; i < e.Base.Size(); i++ {
				bs = append(bs, fmt.Sprintf("0x%02X", byte(v.Value>>(8*uint(i)))))
			}
			p.F("XCTAssertEqual(%s.%s.serializedBytes(), [%s])", name, member(v.Name), join(bs))
		}
	})
	p.P()
	unknown, ok := unknownEnumValue(e)
	if !ok {
		return
	}
	var bs []string
	for i := 0; i < e.Base.Size(); i++ {
		bs = append(bs, fmt.Sprintf("0x%02X", byte(unknown>>(8*uint(i)))))
	}
	p.Block(fmt.Sprintf("func test%sRejectsUnknownValue() {", g.plain[e]), "}", func() {
		p.F("let bytes: [UInt8] = [%s]", join(bs))
		p.Block("do {", "}", func() {
			p.F("_ = try %s(serializedBytes: bytes)", name)
			p.P(`XCTFail("accepted an enum number that names no value")`)
		})
		p.Block("catch {", "}", func() {
			p.P(`XCTAssertEqual(error.rule, "enum")`)
			p.P("XCTAssertEqual(error.offset, 0)")
		})
		p.F(`assertRejects("enum") { () throws(DecodeError) in _ = try %s.decodePrefix(bytes + [0], options: DecodeOptions()) }`, name)
		p.P("#if canImport(Foundation)")
		p.F(`assertRejects("enum") { () throws(DecodeError) in _ = try %s(serializedBytes: Data(bytes), options: DecodeOptions()) }`, name)
		p.P("#endif")

	})
	p.P()
}

// unknownEnumValue is the smallest number of e's base type that names no
// value of e; ok is false when every number names one.
func unknownEnumValue(e *schema.Enum) (uint32, bool) {
	max := uint64(1)<<(8*uint(e.Base.Size())) - 1
	for v := uint64(0); v <= max && v <= uint64(len(e.Values)); v++ {
		if e.Value(uint32(v)) == nil {
			return uint32(v), true
		}
	}
	return 0, false
}

// decodeIntoTest prints the checks of decoding into an existing value
// (values holds the samples): every value decoded into the one before it
// (forwards and back), from an array and from a raw buffer, and for a
// struct as a message, equals the value; a copy made before is not
// changed; a rejected input resets the value to its default, from the last
// sample.
func (g *generator) decodeIntoTest(p *emit.Printer, d schema.Decl) {
	var def string
	switch d := d.(type) {
	case *schema.Struct:
		def = g.typeName(d) + "()"
	case *schema.Union:
		def = g.zero(&schema.Type{Kind: schema.UnionRef, Union: d})
	case *schema.Enum:
		def = g.zero(&schema.Type{Kind: schema.EnumRef, Enum: d})
	}
	_, isStruct := d.(*schema.Struct)
	p.F("var reused = %s", def)
	p.Block("for v in values + values.reversed() {", "}", func() {
		p.P("let previous = reused")
		p.P("let previousBytes = previous.serializedBytes()")
		p.P("try reused.decode(serializedBytes: v.serializedBytes())")
		p.P("XCTAssertEqual(reused, v)")
		p.P("XCTAssertEqual(previous.serializedBytes(), previousBytes)")
		if isStruct {
			p.P("try reused.decode(serializedMessage: v.serializedMessage())")
			p.P("XCTAssertEqual(reused, v)")
		}
		p.P("try v.serializedBytes().withUnsafeBytes { b in try reused.decode(serializedBytes: b) }")
		p.P("XCTAssertEqual(reused, v)")
	})
	p.P("try reused.decode(serializedBytes: values[values.count - 1].serializedBytes())")
	p.P(`assertRejects("trailing") { () throws(DecodeError) in try reused.decode(serializedBytes: values[values.count - 1].serializedBytes() + [0]) }`)
	p.F("XCTAssertEqual(reused, %s)", def)
	p.P("try reused.decode(serializedBytes: values[values.count - 1].serializedBytes())")
	p.Block("do {", "}", func() {
		p.P("try (values[values.count - 1].serializedBytes() + [0]).withUnsafeBytes { b in try reused.decode(serializedBytes: b) }")
		p.P(`XCTFail("decoding into a value from a raw buffer accepted trailing bytes")`)
	})
	p.Block("catch {", "}", func() {
		p.F("XCTAssertEqual(reused, %s)", def)
	})
}

// testAliases names every schema type through a file-private alias to the
// module's: XCTest re-exports Foundation, so a schema type named like one of
// Foundation's (Date, URL, UUID, Locale...) would be ambiguous in the tests.
// (Not when a type is named like the module, where Module.T would look in
// the type.)
func (g *generator) testAliases(p *emit.Printer) {
	if g.taken[g.module] {
		return
	}
	p.P("// The schema's types, not Foundation's types of the same names.")
	for _, d := range g.s.Decls {
		switch d.(type) {
		case *schema.Struct, *schema.Union, *schema.Enum:
			p.F("private typealias %s = %s.%s", g.typeName(d), g.module, g.typeName(d))
		}
	}
	p.P()
}
