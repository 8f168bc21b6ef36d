package datagen

func v(name, typ, rule string, hex wire, why string) Vector {
	return Vector{Name: name, Type: typ, Hex: hex, Rule: rule, Why: why}
}

func msg(name, typ, rule string, hex wire, why string) Vector {
	return Vector{Name: name, Type: typ, Message: true, Hex: hex, Rule: rule, Why: why}
}

func primitivesInvalid() []Vector {
	head := allPrimitivesHead(1)
	valid := head.str("ok")
	out := []Vector{
		v("truncated_empty", "AllPrimitives", "truncated", wire{}, "no bytes at all: the input ends before the first field"),
		v("truncated_in_u16", "AllPrimitives", "truncated", wire{}.u8(1).u8(42).hex("e8"), "the input ends after one of u16_val's two bytes"),
		v("truncated_in_u64", "AllPrimitives", "truncated", head[:4].cat(wire{}.hex("15 81 e9 7d f4")), "the input ends after five of u64_val's eight bytes"),
		v("truncated_in_f64", "AllPrimitives", "truncated", head.cut(1), "the input ends one byte before the end of f64_val"),
		v("truncated_string_length", "AllPrimitives", "truncated", head.hex("02 00"), "the input ends inside label's u32 length"),
		v("truncated_text_length", "Text", "truncated", wire{}.hex("05 00 00"), "three of the four length bytes"),
		v("trailing_byte", "AllPrimitives", "trailing", valid.u8(0), "one zero byte after a complete AllPrimitives"),
		v("trailing_after_empty_struct", "Empty", "trailing", wire{}.u8(0), "Empty encodes to zero bytes, so any byte is trailing"),
		v("trailing_after_text", "Text", "trailing", wire{}.str("hi").hex("ff ff"), "two bytes after a complete Text"),
		v("bool_2", "AllPrimitives", "bool", allPrimitivesHead(2).str(""), "flag is 02"),
		v("bool_ff", "AllPrimitives", "bool", allPrimitivesHead(0xff).str(""), "flag is FF"),
		v("bool_80", "AllPrimitives", "bool", allPrimitivesHead(0x80).str(""), "flag is 80 (only the high bit set)"),
		v("count_text_length_ffffffff", "Text", "count", wire{}.u32(0xffffffff).hex("41 41 41 41"), "a string length of 4 GiB - 1 with 4 bytes left: reject before allocating"),
		v("count_text_length_one_over", "Text", "count", wire{}.u32(5).hex("68 65 6c 6c"), "length 5 with only 4 bytes left: the string's bytes are cut off"),
		v("count_label_bytes_cut", "AllPrimitives", "count", head.u32(3).hex("6f 6b"), "label's length says 3 but only 2 bytes follow"),
		msg("message_bool_2", "AllPrimitives", "bool", message(1, allPrimitivesHead(2).str("")), "a well-framed message whose payload has flag 02"),
		msg("message_truncated_payload", "Text", "truncated", message(2, wire{}.hex("01 00")), "a well-framed Text message whose 2-byte payload ends inside the length"),
	}
	for _, u := range badUTF8 {
		out = append(out, v("utf8_"+u.name, "Text", "utf8", wire{}.rawStr(u.hex), u.why))
	}
	out = append(out,
		v("utf8_in_label", "AllPrimitives", "utf8", head.rawStr("63 61 66 c3"), "label ends in half of a 2-byte sequence"),
		v("utf8_after_valid_multibyte", "Text", "utf8", wire{}.rawStr("e2 82 ac f0 9f 98 80 ed a0 bd"), "valid € and 😀, then a surrogate"),
		v("bool_before_truncation", "AllPrimitives", "bool", wire{}.u8(2).u8(42).hex("e8"),
			"flag is 02 and the input ends inside u16_val: reading front to back, the bad bool comes first (a decoder that bounds-checks a run of fixed-size fields at once must still report it)"),
	)
	return out
}

func arraysInvalid() []Vector {
	fixed := fixedParts()
	a := func(field int, tail wire) wire { return emptyArraysUpTo(field).cat(tail) }
	rest := func(field int) wire { return emptyArraysUpTo(arFields - field - 1) }
	return []Vector{
		v("truncated_array_count", "U32Array", "truncated", wire{}.hex("01 00"), "the input ends inside the u32 count"),
		v("truncated_empty_input", "Arrays", "truncated", wire{}, "no bytes: the first count is missing"),
		v("truncated_second_count", "Arrays", "truncated", a(arBytes, wire{}.hex("00 00 00")), "the input ends inside the second array's count"),
		v("truncated_array_element", "Arrays", "truncated", a(arStrings, wire{}.u32(2).str("A").hex("01 00 00")),
			"strings has 2 elements (8 bytes at least, 8 remain) but the second one's length is cut off"),
		v("truncated_nested_array", "Arrays", "truncated", a(arNested, wire{}.u32(2).u32(1).u32(5).hex("03 00")),
			"nested has 2 inner arrays (8 bytes at least, 10 remain); the second is cut off inside its count"),
		v("truncated_fixed_array", "Fixed", "truncated", wire{}.hex("ff 80"), "rgba is [4]u8 but only 2 bytes follow"),
		v("truncated_fixed_matrix", "Fixed", "truncated", fixed[0].cat(fixed[1].cut(6)), "the 3x3 f32 matrix ends 6 bytes early"),
		v("truncated_fixed_point", "Fixed", "truncated", join(fixed[:4]).cat(fixed[4].cut(1)), "the second Point of points ends one byte early"),
		v("trailing_after_u32_array", "U32Array", "trailing", wire{}.u32(1).u32(7).u8(0), "one byte after a complete U32Array"),
		v("trailing_after_fixed", "Fixed", "trailing", join(fixed).hex("00 00 00 00"), "four bytes after a complete Fixed"),
		v("bool_in_array", "Arrays", "bool", a(arBools, wire{}.u32(3).hex("01 00 02")).cat(rest(arBools)), "the third element of bools is 02"),
		v("bool_in_fixed_array", "Fixed", "bool", join(fixed[:3]).hex("01 ff 00").cat(join(fixed[4:])), "the second element of [3]bool flags is FF"),
		v("bool_in_small_arrays", "SmallArrays", "bool", wire{}.u32(0).u32(0).u32(0).u32(0).u32(2).hex("00 03"), "flags[1] is 03"),
		v("utf8_in_string_array", "Arrays", "utf8", a(arStrings, wire{}.u32(2).str("ok").rawStr("c0 80")).cat(rest(arStrings)), "strings[1] is an overlong NUL"),
		v("utf8_in_fixed_string", "Fixed", "utf8", fixed[0].cat(fixed[1]).str("ok").rawStr("ed b0 80").cat(join(fixed[3:])), "names[1] is a UTF-16 low surrogate"),
		v("count_bytes_ffffffff", "ByteArray", "count", wire{}.u32(0xffffffff).hex("00 01 02 03"), "[]u8 count 4294967295 with 4 bytes left"),
		v("count_bytes_one_over", "ByteArray", "count", wire{}.u32(5).hex("00 01 02 03"), "[]u8 count 5 with 4 bytes left"),
		v("count_u32_ffffffff", "U32Array", "count", wire{}.u32(0xffffffff).u32(7), "[]u32 count 4294967295 with 4 bytes left"),
		v("count_u32_one_over", "U32Array", "count", wire{}.u32(2).hex("07 00 00 00 08 00 00"), "[]u32 count 2 needs 8 bytes, 7 remain"),
		v("count_u32_overflow_32bit", "U32Array", "count", wire{}.u32(0x40000001).u32(7),
			"count 0x40000001 × 4 bytes wraps to 4 in 32-bit arithmetic; the real need is 4 GiB + 4 bytes"),
		v("count_f32_overflow_32bit", "F32Array", "count", wire{}.u32(0x40000000), "count 0x40000000 × 4 wraps to 0 in 32-bit arithmetic, with no bytes left"),
		v("count_i16_one_over", "I16Array", "count", wire{}.u32(3).hex("01 00 02 00 03"), "[]i16 count 3 needs 6 bytes, 5 remain"),
		v("count_u64_overflow_32bit", "Arrays", "count", a(arU64s, wire{}.u32(0x20000000)).cat(rest(arU64s)),
			"u64s count 0x20000000 × 8 wraps to 0 in 32-bit arithmetic"),
		v("count_strings_ffffffff", "Arrays", "count", a(arStrings, wire{}.u32(0xffffffff).u32(0)), "[]str count 4294967295 with 4 bytes left"),
		v("count_strings_min_size", "Arrays", "count", a(arStrings, wire{}.u32(3).u32(0).u32(0)),
			"[]str count 3 needs at least 12 bytes (three empty strings), 8 remain"),
		v("count_points_ffffffff", "Arrays", "count", a(arPoints, wire{}.u32(0xffffffff).u32(0)), "[]Point count 4294967295 with 4 bytes left"),
		v("count_points_one_over", "Arrays", "count", a(arPoints, wire{}.u32(1).f64(1).hex("00 00 00 00 00 00 f0")), "one Point needs 16 bytes, 15 remain"),
		v("count_points_overflow_32bit", "Arrays", "count", a(arPoints, wire{}.u32(0x10000000)).cat(rest(arPoints)),
			"points count 0x10000000 × 16 wraps to 0 in 32-bit arithmetic"),
		v("count_nested_inner", "Arrays", "count", a(arNested, wire{}.u32(1).u32(0xffffffff)).cat(rest(arNested)), "the inner []u32 of nested has count 4294967295"),
		v("count_blob_length", "Arrays", "count", a(arBlobs, wire{}.u32(1).u32(0x7fffffff).hex("00")), "blobs[0] claims 2 GiB, 1 byte remains"),
		v("count_string_length_in_array", "SmallArrays", "count", wire{}.u32(0).u32(0).u32(0).u32(1).u32(100).hex("61 62 63").u32(0),
			"names[0] has length 100 but 7 bytes remain"),
		v("count_fixed_list", "Fixed", "count", join(fixed[:5]).u32(0xffffffff).u32(0), "lists[0] ([]u16) has count 4294967295"),
		msg("message_count", "U32Array", "count", message(4, wire{}.u32(0xffffffff)), "a well-framed U32Array message whose count is far beyond its payload"),
		v("bool_before_truncation", "Fixed", "bool", join(fixed[:3]).hex("01 02"),
			"flags[1] is 02 and the input ends inside flags[2]: reading front to back, the bad bool comes first"),
	}
}

func enumsUnionsInvalid() []Vector {
	enums := func(small uint8, sparse uint16, wide uint32, def uint8, list wire, fixed string) wire {
		return wire{}.u8(small).u16(sparse).u32(wide).u8(def).cat(list).hex(fixed)
	}
	noList := wire{}.u32(0)
	// Unions: shape, shapes, nested, maybe.
	none := wire{}.u8(0)
	leaf := wire{}.u8(0).u8(0)
	unions := func(shape, shapes, nested, maybe wire) wire { return shape.cat(shapes).cat(nested).cat(maybe) }
	empty := wire{}.u32(0)
	absent := wire{}.u8(0)
	return []Vector{
		v("enum_small_3", "Enums", "enum", enums(3, 1, 0, 0, noList, "00 00"), "Small has values 0..2; 3 names nothing (u8 enum)"),
		v("enum_small_ff", "Enums", "enum", enums(0xff, 1, 0, 0, noList, "00 00"), "Small is FF"),
		v("enum_sparse_0", "Enums", "enum", enums(0, 0, 0, 0, noList, "00 00"), "Sparse starts at 1; 0 names nothing (u16 enum)"),
		v("enum_sparse_gap_3", "Enums", "enum", enums(0, 3, 0, 0, noList, "00 00"), "3 falls in the gap between Second = 2 and Tenth = 10"),
		v("enum_sparse_gap_9", "Enums", "enum", enums(0, 9, 0, 0, noList, "00 00"), "9 falls just below Tenth = 10"),
		v("enum_sparse_11", "Enums", "enum", enums(0, 11, 0, 0, noList, "00 00"), "11 falls just above Tenth = 10"),
		v("enum_sparse_fffe", "Enums", "enum", enums(0, 0xfffe, 0, 0, noList, "00 00"), "FFFE is one below Big = FFFF"),
		v("enum_sparse_high_byte", "Enums", "enum", enums(0, 0x0100, 0, 0, noList, "00 00"),
			"0x0100: a decoder that reads one byte of a u16 enum would see First"),
		v("enum_wide_1", "Enums", "enum", enums(0, 1, 1, 0, noList, "00 00"), "Wide has only 0 and 4294967295 (u32 enum)"),
		v("enum_wide_fffffffe", "Enums", "enum", enums(0, 1, 0xfffffffe, 0, noList, "00 00"), "one below Wide.Max"),
		v("enum_wide_high_bytes", "Enums", "enum", enums(0, 1, 0x00010000, 0, noList, "00 00"), "0x10000: the low 16 bits name Min"),
		v("enum_default_2", "Enums", "enum", enums(0, 1, 0, 2, noList, "00 00"), "Default (u8, no base written) has A and B only"),
		v("enum_in_list", "Enums", "enum", enums(0, 1, 0, 0, wire{}.u32(2).u16(10).u16(4), "00 00"), "list[1] is Sparse 4"),
		v("enum_in_fixed_array", "Enums", "enum", enums(0, 1, 0, 0, noList, "00 03"), "fixed[1] is Small 3"),
		v("enum_in_union", "Unions", "enum", unions(none, empty, wire{}.u8(0).u8(7), absent), "nested is Leaf with value Small 7"),
		v("enum_in_nested_union", "Unions", "enum", unions(none, empty, wire{}.u8(1).u8(0).u16(5), absent), "nested is Branch{None, Sparse 5}"),
		v("union_tag_count", "Unions", "union_tag", unions(wire{}.u8(6), empty, leaf, absent), "Shape has 6 variants; tag 6 is one past the last"),
		v("union_tag_ff", "Unions", "union_tag", unions(wire{}.u8(0xff), empty, leaf, absent), "Shape tag FF"),
		v("union_tag_in_array", "Unions", "union_tag", unions(none, wire{}.u32(2).u8(5).u8(9), leaf, absent), "shapes[1] has tag 9"),
		v("union_tag_nested_count", "Unions", "union_tag", unions(none, empty, wire{}.u8(2), absent), "Nested has 2 variants; tag 2"),
		v("union_tag_inside_variant", "Unions", "union_tag", unions(none, empty, wire{}.u8(1).u8(6).u16(1), absent), "Branch's shape has tag 6"),
		v("union_tag_in_optional", "Unions", "union_tag", unions(none, empty, leaf, wire{}.u8(1).u8(0x80)), "maybe is present with tag 80"),
		v("presence_union_optional", "Unions", "presence", unions(none, empty, leaf, wire{}.u8(2)), "maybe's presence byte is 02"),
		v("bool_in_inline_variant", "Unions", "bool", unions(wire{}.u8(3).u32(0).u8(2), empty, leaf, absent), "Polygon's closed is 02"),
		v("utf8_in_inline_variant", "Unions", "utf8", unions(wire{}.u8(4).rawStr("ed a0 80"), empty, leaf, absent), "Label's text is a surrogate"),
		v("count_in_inline_variant", "Unions", "count", unions(wire{}.u8(3).u32(0xffffffff).u8(1), empty, leaf, absent), "Polygon's points count is 4294967295"),
		v("truncated_union_tag", "Unions", "truncated", wire{}, "no bytes: the input ends before the first tag"),
		v("truncated_inline_payload", "Unions", "truncated", wire{}.u8(2).f32(1).hex("00 00 00"), "Rect's height is cut to 3 bytes"),
		v("truncated_struct_variant", "Unions", "truncated", wire{}.u8(1).hex("00 00 00 00 00 00"), "Circle's radius (f64) is cut to 6 bytes"),
		v("truncated_after_tag", "Unions", "truncated", unions(none, empty, wire{}.u8(1), wire{}), "the input ends right after Nested's Branch tag"),
		v("truncated_optional_union", "Unions", "truncated", unions(none, empty, leaf, wire{}.u8(1)), "maybe is present but the input ends before its tag"),
		v("truncated_enum_u32", "Enums", "truncated", wire{}.u8(0).u16(1).hex("ff ff"), "wide (u32) is cut to 2 bytes"),
		v("trailing_after_unions", "Unions", "trailing", unions(wire{}.u8(5), empty, leaf, absent).u8(0), "one byte after a complete Unions"),
		v("trailing_after_enums", "Enums", "trailing", enums(2, 0xffff, 0xffffffff, 1, noList, "02 02").u8(1), "one byte after a complete Enums"),
		v("enum_before_truncation", "Enums", "enum", wire{}.u8(7).hex("01"),
			"small is 7 (Small has 0-2) and the input ends inside sparse: the bad enum comes first"),
	}
}

func optionalsInvalid() []Vector {
	p := optionalsParts()
	return []Vector{
		v("presence_2", "Optionals", "presence", withPart(p, opBool, wire{}.u8(2)), "maybe_bool's presence byte is 02"),
		v("presence_ff_string", "Optionals", "presence", withPart(p, opStr, wire{}.u8(0xff)), "maybe_str's presence byte is FF"),
		v("presence_in_array", "Optionals", "presence", withPart(p, opListOfMaybe, wire{}.u32(2).u8(0).u8(3)), "list_of_maybe[1]'s presence byte is 03"),
		v("presence_inner_of_double", "Optionals", "presence", withPart(p, opMaybe, wire{}.u8(1).u8(2)), "maybe_maybe is present, its inner presence is 02"),
		v("presence_outer_of_double", "Optionals", "presence", withPart(p, opMaybe, wire{}.u8(2).u8(0)), "maybe_maybe's outer presence is 02"),
		v("presence_reading_note", "Reading", "presence", wire{}.u32(1).f64(20).u8(0).u8(0x10), "Reading.note's presence byte is 10"),
		v("bool_in_optional", "Optionals", "bool", withPart(p, opBool, wire{}.u8(1).u8(2)), "maybe_bool is present with value 02"),
		v("enum_in_optional", "Optionals", "enum", withPart(p, opLevel, wire{}.u8(1).u8(2)), "maybe_level is present with Level 2 (only Low, High)"),
		v("union_tag_in_optional", "Optionals", "union_tag", withPart(p, opChoice, wire{}.u8(1).u8(2)), "maybe_choice is present with Choice tag 2"),
		v("utf8_in_optional", "Optionals", "utf8", withPart(p, opStr, wire{}.u8(1).rawStr("c3 28")), "maybe_str is C3 28: a lead byte followed by ASCII"),
		v("utf8_in_optional_struct", "Optionals", "utf8", withPart(p, opInner, wire{}.u8(1).u32(1).rawStr("f8 88 80 80 80")), "maybe_inner.label is a 5-byte sequence (never valid)"),
		v("count_optional_list", "Optionals", "count", upTo(p, opList, wire{}.u8(1).u32(0xffffffff).u32(0)), "maybe_list is present with count 4294967295"),
		v("count_list_of_optionals", "Optionals", "count", upTo(p, opListOfMaybe, wire{}.u32(5).hex("00 00 00 00")),
			"list_of_maybe count 5 needs at least 5 presence bytes, 4 remain"),
		v("truncated_presence", "Optionals", "truncated", join(p[:opMaybe]), "the input ends before maybe_maybe's presence byte"),
		v("truncated_optional_payload", "Optionals", "truncated", upTo(p, opI64, wire{}.u8(1).hex("01 02 03")), "maybe_i64 is present but only 3 of its 8 bytes follow"),
		v("truncated_optional_u8", "Optionals", "truncated", upTo(p, opU8, wire{}.u8(1)), "maybe_u8 is present but the input ends"),
		v("truncated_optional_fixed", "Optionals", "truncated", upTo(p, opFixed, wire{}.u8(1).hex("01 00 02")), "maybe_fixed ([2]u16) is present with 3 of its 4 bytes"),
		v("truncated_double_optional", "Optionals", "truncated", upTo(p, opMaybe, wire{}.u8(1).u8(1).hex("ff ff")), "maybe_maybe's u32 is cut to 2 bytes"),
		v("truncated_reading_calibration", "Reading", "truncated", wire{}.u32(1).f64(20).u8(1).hex("00 00 00 00"), "calibration is present with 4 of its 8 bytes"),
		v("trailing_after_optionals", "Optionals", "trailing", join(p).u8(0), "one byte after a complete Optionals"),
		v("trailing_after_reading", "Reading", "trailing", wire{}.u32(1).f64(20).u8(0).u8(0).u8(0), "one byte after a Reading with both optionals absent"),
		msg("message_presence", "Reading", "presence", message(3, wire{}.u32(1).f64(20).u8(2).u8(0)), "a well-framed Reading message with presence byte 02"),
		v("presence_before_truncation", "Reading", "presence", wire{}.u32(7).f64(1).u8(2),
			"calibration's presence byte is 02 and the input ends right after it: the bad presence byte comes first"),
	}
}

func recursiveInvalid() []Vector {
	return []Vector{
		v("depth_65_tree", "Tree", "depth", treeChainWire(DepthLimit+1), "a chain of 65 Trees: the deepest is at depth 65, one past the default limit"),
		v("depth_65_node", "Node", "depth", nodeChainWire(DepthLimit+1), "a linked list of 65 Nodes (recursion through ?T)"),
		v("depth_65_dir", "Dir", "depth", dirChainWire(DepthLimit+1), "Dir/Entry alternating 65 levels deep (mutual recursion)"),
		v("depth_65_program", "Program", "depth", programChainWire(DepthLimit+1), "Program, then 63 nested Neg unions and a Lit at depth 65"),
		v("depth_200_tree_truncated", "Tree", "depth", treeChainWire(200).cut(8*130),
			"a chain of Trees cut off at depth 70: the depth limit is hit before the end of input"),
		v("count_tree_children", "Tree", "count", wire{}.i32(1).u32(0xffffffff).i32(2).u32(0), "children count 4294967295 (Tree is at least 8 bytes)"),
		v("count_tree_children_min_size", "Tree", "count", wire{}.i32(1).u32(2).i32(2).u32(0).hex("00 00 00 00 00 00 00"),
			"2 children need at least 16 bytes, 15 remain"),
		v("truncated_tree_child", "Tree", "truncated", wire{}.i32(1).u32(2).i32(2).u32(1).i32(3).u32(0),
			"2 children (16 bytes at least, 16 remain): the first uses all 16 with its own child, so the second is missing"),
		v("presence_node_next", "Node", "presence", wire{}.str("a").u8(1).str("b").u8(2), "the second node's next has presence 02"),
		v("presence_entry_sub", "Dir", "presence", wire{}.str("/").u32(1).str("x").u64(0).u8(0xff), "the entry's sub has presence FF"),
		v("union_tag_expr", "Program", "union_tag", wire{}.u8(2).u32(2).u8(0).u64(1).u8(3), "the second term of Add has tag 3 (Expr has 3 variants)"),
		v("union_tag_expr_ff", "Program", "union_tag", wire{}.u8(1).u8(1).u8(0xff), "Neg's inner has tag FF"),
		v("utf8_node_value", "Node", "utf8", wire{}.str("ok").u8(1).rawStr("e2 28 a1").u8(0), "the second node's value is E2 28 A1"),
		v("truncated_node_chain", "Node", "truncated", nodeChainWire(10).cut(1), "a 10-node list missing its last presence byte"),
		v("trailing_after_tree", "Tree", "trailing", treeChainWire(3).u8(0), "one byte after a complete Tree"),
		msg("message_depth_65", "Tree", "depth", message(1, treeChainWire(DepthLimit+1)), "a well-framed Tree message 65 levels deep"),
	}
}

func nestedInvalid() []Vector {
	rect := func(color uint32) wire { return wire{}.f32(0).f32(0).f32(10).f32(10).u32(color) }
	origin := wire{}.f32(1).f32(2)
	device := func(kind uint8, plugins wire) wire {
		return wire{}.u64(1).str("Built-in Output").u8(kind).u32(48000).u16(2).cat(plugins)
	}
	plugin := func(bypassed uint8, params wire) wire { return wire{}.str("EQ").u8(bypassed).cat(params) }
	return []Vector{
		v("enum_device_kind_3", "AudioDevice", "enum", device(3, wire{}.u32(0)), "DeviceKind has 3 values; 3 names nothing"),
		v("bool_bypassed", "AudioDevice", "bool", device(1, wire{}.u32(1).cat(plugin(2, wire{}.u32(0)))), "plugins[0].bypassed is 02"),
		v("utf8_parameter_name", "AudioDevice", "utf8", device(1, wire{}.u32(1).cat(plugin(0, wire{}.u32(1).u32(0).rawStr("80 80").f32(1)))), "a parameter name of two continuation bytes"),
		v("count_rects", "Scene", "count", wire{}.str("s").u32(0x0fffffff).cat(rect(0)), "rects count 0x0FFFFFFF, 20 bytes each, 20 bytes left"),
		v("count_rects_overflow_32bit", "Scene", "count", wire{}.str("s").u32(0xcccccccd).cat(origin),
			"rects count 0xCCCCCCCD × 20 bytes wraps to 4 in 32-bit arithmetic"),
		v("count_parameters", "AudioDevice", "count", device(0, wire{}.u32(1).cat(plugin(0, wire{}.u32(1000).u32(0)))), "a plugin claims 1000 parameters (12 bytes each at least), 4 bytes left"),
		v("truncated_rect", "Scene", "truncated", wire{}.str("s").u32(2).cat(rect(1)).cat(rect(2)).cat(origin).cut(4),
			"the input ends inside origin.y after two Rectangles"),
		v("truncated_point", "Scene", "truncated", wire{}.str("").u32(0).f32(1).hex("00 00"), "origin.y is cut to 2 bytes"),
		v("truncated_device_channels", "AudioDevice", "truncated", wire{}.u64(1).str("").u8(0).u32(44100).hex("02"), "channels (u16) is cut to 1 byte"),
		v("trailing_after_scene", "Scene", "trailing", wire{}.str("").u32(0).cat(origin).u8(0), "one byte after a complete Scene"),
	}
}

func pluginsInvalid() []Vector {
	param := parameterWire("Gain", 1)
	plugin := func(params ...wire) wire {
		w := pluginHead().u32(uint32(len(params)))
		for _, p := range params {
			w = w.cat(p)
		}
		return w
	}
	registry := func(plugins ...wire) wire {
		w := wire{}.u32(uint32(len(plugins)))
		for _, p := range plugins {
			w = w.cat(p)
		}
		return w.u32(uint32(len(plugins))).u32(0)
	}
	good := registry(plugin(param, param), plugin())
	return []Vector{
		v("bool_is_writable", "PluginRegistry", "bool", registry(plugin(param, parameterWire("Gain", 2))), "the second parameter's is_writable is 02"),
		v("utf8_display_name", "PluginRegistry", "utf8", registry(plugin(parameterWire("Gain \xc3", 1))), "a display_name ending in half of a 2-byte sequence"),
		v("count_plugins", "PluginRegistry", "count", wire{}.u32(0xffffffff).u32(0).u32(0), "plugins count 4294967295 with 8 bytes left"),
		v("count_parameters", "Plugin", "count", pluginHead().u32(1000).cat(param), "1000 parameters need at least 42,000 bytes"),
		v("count_parameters_overflow_32bit", "Plugin", "count", pluginHead().u32(0x79e79e7a).u32(0),
			"count 0x79E79E7A × 42 bytes (a Parameter's minimum) wraps to 4 in 32-bit arithmetic; 4 bytes remain"),
		v("count_identifier", "Parameter", "count", wire{}.u64(0).str("Gain").u32(0x10000),
			"identifier's length is 65536 with nothing left"),
		v("truncated_parameter", "PluginRegistry", "truncated", registry(plugin(param, param)).cut(15), "the registry ends inside its second parameter's current_value"),
		v("truncated_registry_totals", "PluginRegistry", "truncated", good.cut(2), "total_parameter_count is cut to 2 bytes"),
		v("trailing_after_registry", "PluginRegistry", "trailing", good.u8(0), "one byte after a complete PluginRegistry"),
		v("trailing_after_parameter", "Parameter", "trailing", param.hex("00 00 00 00 00 00 00 00"), "eight zero bytes after a Parameter"),
		msg("message_truncated_registry", "PluginRegistry", "truncated", message(3, good.cut(5)), "a well-framed registry message whose payload is cut short"),
		msg("message_wrong_length", "PluginRegistry", "message", message(3, good).cut(1), "the registry message says its payload is one byte longer than what follows"),
		v("bool_before_truncation", "Parameter", "bool", parameterWire("Gain", 2).cut(1),
			"is_writable is 02 and the input ends before can_ramp: the bad bool comes first"),
	}
}

func keywordsInvalid() []Vector {
	holder := func(result wire, kinds ...uint8) wire {
		w := result.u32(uint32(len(kinds)))
		for _, k := range kinds {
			w = w.u8(k)
		}
		return w
	}
	return []Vector{
		v("enum_type_5", "Error", "enum", errorWire(5, 1), "Type has 5 values (None..True); 5 names nothing"),
		v("enum_kinds", "Holder", "enum", holder(wire{}.u8(1).i32(-1), 0, 4, 200), "kinds[2] is Type 200"),
		v("bool_default", "Error", "bool", errorWire(0, 2), "the field named default is 02"),
		v("union_tag_result", "Holder", "union_tag", holder(wire{}.u8(3)), "Result has 3 variants; tag 3"),
		v("truncated_error_variant", "Holder", "truncated", wire{}.u8(2).cat(errorWire(4, 1).cut(3)), "the Error struct variant ends 3 bytes early"),
		v("trailing_after_holder", "Holder", "trailing", holder(wire{}.u8(1).i32(0), 1).u8(0), "one byte after a complete Holder"),
		v("utf8_match", "Error", "utf8", wire{}.u8(0).rawStr("ff fe"), "the field named match is FF FE"),
	}
}

func messagesInvalid() []Vector {
	point := wire{}.f64(3.14).f64(2.71)
	pointMsg := message(1, point)
	header := func(magic string, id uint16, n uint32) wire { return wire{}.hex(magic).u16(id).u32(n) }
	out := []Vector{
		msg("bad_magic", "Point", "message", header("53445031", 1, 16).cat(point), `magic "SDP1" instead of "SDP2"`),
		msg("bad_magic_lowercase", "Point", "message", header("73647032", 1, 16).cat(point), `magic "sdp2"`),
		msg("bad_magic_zero", "Point", "message", header("00000000", 1, 16).cat(point), "magic of zero bytes"),
		msg("unknown_type_id_0", "Point", "message", header("53445032", 0, 16).cat(point), "type id 0 (ids start at 1)"),
		msg("unknown_type_id_2", "Point", "message", header("53445032", 2, 16).cat(point), "type id 2: Ping has the explicit id 100, so no struct has 2"),
		msg("unknown_type_id_4", "Point", "message", header("53445032", 4, 0), "type id 4: Last has the explicit id 65535"),
		msg("unknown_type_id_99", "Point", "message", header("53445032", 99, 4).u32(1), "type id 99, next to Ping's 100"),
		msg("unknown_id_before_length", "Point", "message", header("53445032", 0x3030, 0x30303030).hex("0000"),
			"type id 0x3030 names no struct and the payload length 0x30303030 is not the 2 bytes that follow: the header is checked front to back, so the type id (offset 4) is reported, not the length (offset 6)"),
		msg("payload_length_shorter", "Point", "message", header("53445032", 1, 15).cat(point), "the header says 15 bytes, 16 follow"),
		msg("payload_length_longer", "Point", "message", header("53445032", 1, 17).cat(point), "the header says 17 bytes, 16 follow"),
		msg("payload_length_ffffffff", "Ping", "message", header("53445032", 100, 0xffffffff).u32(1), "the header says 4 GiB - 1 bytes, 4 follow"),
		msg("payload_length_zero_with_bytes", "Last", "message", header("53445032", 65535, 0).u8(0), "Last's header says 0 bytes, 1 follows"),
		msg("truncated_header_empty", "Point", "truncated", wire{}, "no bytes: a message shorter than its 10-byte header is truncated"),
		msg("truncated_header_magic", "Point", "truncated", wire{}.hex("53 44 50"), "three bytes of the magic"),
		msg("truncated_header_length", "Point", "truncated", pointMsg.cut(16+2), "the header ends inside the payload length"),
		msg("payload_truncated", "Ping", "truncated", header("53445032", 100, 3).hex("01 02 03"), "a consistent header, but Ping's payload needs 4 bytes and has 3"),
		msg("payload_trailing", "Ping", "trailing", header("53445032", 100, 5).u32(1).u8(0), "a consistent header, but the payload has a byte after the Ping"),
		msg("payload_trailing_empty_struct", "Last", "trailing", header("53445032", 65535, 1).u8(0), "Last encodes to zero bytes; its payload has one"),
		msg("payload_utf8", "Pong", "utf8", message(3, wire{}.u32(1).rawStr("f4 90 80 80")), "a Pong whose echo is U+110000"),
		msg("payload_count", "Pong", "count", message(3, wire{}.u32(1).u32(0xffffffff)), "a Pong whose echo length is 4 GiB - 1"),
		msg("payload_empty_point", "Point", "truncated", header("53445032", 1, 0), "a consistent header with an empty payload: a Point needs 16 bytes"),
		v("truncated_point", "Point", "truncated", point.cut(1), "a plain Point one byte short"),
		v("trailing_after_point", "Point", "trailing", point.u8(0), "a plain Point with one more byte"),
		v("plain_decode_of_a_message", "Ping", "trailing", message(100, wire{}.u32(7)),
			"a whole message given to the plain Ping decoder: the first 4 bytes decode, 10 bytes trail"),
	}
	return out
}

// hostileInvalid are rule 11 (memory) inputs: arrays of values whose nominal
// size is far above their encoding, just over the default memory limit.
func hostileInvalid() []Vector {
	absent := func(n int) wire {
		w := wire{}.u32(uint32(n))
		for i := 0; i < n; i++ {
			w = w.u8(0)
		}
		return w
	}
	nodes := wire{}.u32(1500)
	for i := 0; i < 1500; i++ {
		nodes = nodes.hex("00010000") // pad absent, next present: {pad absent, next absent}
	}
	return []Vector{
		v("holder_2200_absent", "Holder", "memory", absent(2200),
			"2,200 absent ?Big: 2,200 × 520 = 1,144,000 bytes of nominal size, over the limit of 32 × 2,204 + 1 MiB = 1,119,104"),
		msg("holder_2200_absent_message", "Holder", "memory", message(2, absent(2200)),
			"the same as a message: the limit counts the 2,204-byte payload, not the header"),
		v("holder_count_before_memory", "Holder", "count", wire{}.u32(3000).cat(absent(2200)[1:]),
			"3,000 elements of at least one byte in 2,200 bytes: rule 8 (count) is checked before rule 11"),
		v("events_2200_unit", "Events", "memory", absent(2200),
			"2,200 unit variants: 2,200 × 529 bytes of nominal size, over the limit of 1,119,104"),
		v("nodes_1500_next", "Nodes", "memory", nodes,
			"1,500 Nodes (792,000 bytes of nominal size) each with a present next (528 more each): element 849's next crosses the limit of 32 × 6,004 + 1 MiB = 1,240,704 at its presence byte"),
	}
}
