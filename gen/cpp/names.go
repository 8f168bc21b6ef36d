package cpp

import "sdp/gen"

// reservedNames declares the names a schema name must not become in C++
// (checked by TestReservedNames): a type or field named like one gets a
// trailing underscore.
var reservedNames = gen.Names{
	Keywords: append(append([]string{}, cppKeywords...), headerMacros...),
	// The parameters and locals of the generated functions: a type of the
	// same name would be hidden by them where a function names it
	// (`Tag<x>{}`, `out.emplace<options>()`).
	// The namespace std, which the generated code names unqualified.
	Prelude: gen.Words(`a b buf cap consumed d data e f has i id message n o options out p r s size
		st tag v value view x y std`),
	// The identifiers the generated code declares in the schema's
	// namespace (or its anonymous namespace).
	TopLevel: gen.Words(`sdp Reader Tag kMessages
		with_path decode_payload is_message_type_id kWrongType kUnknownType
		put put_count kTooLarge too_long add_size checked_size payload_size put_str copy_bytes kLowBytes
		SDP_INLINE get_count put_header check_header load_array store_array assign_array append_array grow
		load_plain store_plain append_plain assign_wire WireIter
		utf8_ok SDP_ENCODE_UTF8_CHECK SDP_COLD enum_name is_valid
		encode decode encoded_size encode_to decode_prefix
		to_owned encode_message encode_message_to encoded_message_size
		decode_message decode_any_message message_type_id
		AnyMessage AnyMessageView MessageReader MessageWriter kDefaultMaxMessageSize
		kFingerprint HelloEntry kHelloEntries encode_hello`),
	// The static members of every struct and union, and the view's
	// to_owned: a field named like one gets a trailing underscore.
	Members: gen.Words(`kTypeId kFingerprint to_owned`),
	// sdp_ prefixes the generated functions (sdp_size, sdp_rd_u32), SDP_
	// the macros (SDP_INLINE, the include guard SDP_<PACKAGE>_HPP).
	Prefixes: []string{"sdp_", "SDP_"},
}

var (
	cppReserved  = gen.Set(reservedNames.Keywords)
	runtimeNames = gen.Set(reservedNames.TopLevel)
	localNames   = gen.Set(reservedNames.Prelude)
	memberNames  = gen.Set(reservedNames.Members)
)
