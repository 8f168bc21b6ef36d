package c

import (
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/naming"
	"sdp/gen/plan"
	"sdp/schema"
)

// reservedNames declares the names a schema name must not become in C
// (checked by TestReservedNames). Keywords are what a struct or union
// member cannot take: the keywords of C99 and C++ (the header is meant to be
// included from C++ too) and the lower-case object-like macros of the
// standard headers and common compilers; such names get a trailing
// underscore. Type names are prefixed with the package, so only TopLevel,
// the identifiers every generated package defines relative to the prefix,
// can collide with them; upper-case ones take the macro prefix.
var reservedNames = gen.Names{
	Keywords: gen.Words(`
		auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed
		sizeof static struct switch typedef union unsigned void volatile while
		_Bool _Complex _Imaginary
		alignas alignof and and_eq asm bitand bitor bool catch char16_t char32_t
		char8_t class compl concept consteval constexpr constinit const_cast
		co_await co_return co_yield decltype delete dynamic_cast explicit export
		false friend mutable namespace new noexcept not not_eq nullptr operator
		or or_eq private protected public reinterpret_cast requires static_assert
		static_cast template this thread_local throw true try typeid typename
		using virtual wchar_t xor xor_eq
		errno stdin stdout stderr complex imaginary noreturn unix linux i386
		assert offsetof setjmp va_arg va_start va_end va_copy math_errhandling`),
	TopLevel: gen.Words(`
	str arena arena_init arena_init_heap arena_reset arena_free arena_alloc arena_used
	arena_chunk_ decode_options decode_result strerror read_message_header
	message encoded_message_size encode_message decode_message decode_message_ex
	dec_ dec_init_ dec_done_ fail_ add_ mul_ alloc_ alloc_bytes_ arena_grow_ max_align_ align_probe_
	get_u16_ get_u32_ get_u64_ get_f32_ get_f64_ put_u16_ put_u32_ put_u64_ put_f32_ put_f64_
	get_le16s_ get_le32s_ get_le64s_ put_le16s_ put_le32s_ put_le64s_ put_str_ read_str_
	utf8_valid_ put_header_ read_header_ arena_release_ empty_ put_bytes_
	mem_init_ charge_ over_u32_ str_size_
	read_fn write_fn stream_result message_reader message_reader_init message_reader_free read_message
	message_writer message_writer_init message_writer_free write_message known_type_ read_full_
	reader_fail_ reader_grow_ reader_skip_ read_message_ in_field_ in_elem_ path_put_ path_out_ MAX_PATH
	write_hello message_reader_schema_checked stream_error_text check_hello_ text_put_ text_num_
	hello_entry_ hello_entries_ hello_count_ writer_reserve_ writer_flush_ HELLO_TYPE_ID ERR_SCHEMA
	H_INCLUDED LITTLE_ENDIAN ALIGN_ CHUNK_MIN_ CHUNK_MAX_ DEFAULT_MAX_DEPTH MESSAGE_HEADER_SIZE
	OK ERR_TRUNCATED ERR_TRAILING ERR_BOOL ERR_PRESENCE ERR_ENUM ERR_UNION_TAG ERR_UTF8
	ERR_COUNT ERR_DEPTH ERR_MESSAGE ERR_NO_MEMORY ERR_MEMORY MEMORY_RATIO MEMORY_ALLOWANCE
	ENCODE_UTF8_CHECK ERR_ENCODE ERR_WRITE ERR_BUFFER END DEFAULT_MAX_MESSAGE_SIZE encode_message_ex
	encode_result decode_error_text encode_error_text write_message_ex text_end_ text_code_ text_decode_ text_eq_
	check_fail_ check_str_ check_enum_ check_in_ check_at_ refuse_ refuse_message_ encoded_ reader_max_`),
}

var (
	reserved     = gen.Set(reservedNames.Keywords)
	runtimeNames = reservedNames.TopLevel
)

// prefixed is a runtime name as package pkg (upper case up) defines it.
func prefixed(pkg, up, n string) string {
	if strings.ToUpper(n) == n {
		return up + "_" + n
	}
	return pkg + "_" + n
}

// memberName is a field's or variant's C member name: snake case, escaped.
func memberName(name string) string {
	n := naming.Snake(name)
	if reserved[n] {
		n += "_"
	}
	return n
}

// packagePrefix turns a package name into a lower-case C identifier prefix.
func packagePrefix(name string) string {
	var b strings.Builder
	for _, r := range naming.Snake(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteByte('_')
		}
	}
	p := b.String()
	if p == "" || (p[0] >= '0' && p[0] <= '9') {
		p = "sdp_" + p
	}
	return p
}

func upper(s string) string { return strings.ToUpper(s) }

// assignNames picks every declaration's C name, escaping (with a trailing
// underscore) any name whose identifiers would collide with the runtime's
// or an earlier declaration's, then names the composite helper types.
func (g *generator) assignNames() error {
	for _, n := range runtimeNames {
		g.claimed[prefixed(g.pkg, g.up, n)] = true
	}
	for _, d := range g.s.Decls {
		b := naming.Snake(d.DeclName())
		for i := 0; ; i++ {
			if i > 8 {
				return fmt.Errorf("c: cannot find a name for %s that does not collide with other generated names", d.DeclName())
			}
			ids := g.declIDs(d, b)
			if g.free(ids) {
				for _, id := range ids {
					g.claimed[id] = true
				}
				g.base[d] = b
				break
			}
			b += "_"
		}
	}
	var walk, register func(v *plan.Value)
	walk = func(v *plan.Value) {
		if !v.Op.Counted() && !fixedOp(v.Op) && v.Op != plan.Optional {
			return
		}
		walk(v.Elem)
		pointer := v.Op.Counted() || (v.Op == plan.Optional && v.Boxed)
		if pointer && fixedOp(v.Elem.Op) {
			register(v.Elem) // stored behind a pointer: wrapped in a struct
		}
		if fixedOp(v.Op) || (v.Op == plan.Optional && v.Boxed) {
			return
		}
		register(v)
	}
	register = func(v *plan.Value) {
		key := g.mangle(v.Type)
		if g.helpers[key] != nil {
			return
		}
		// Escaped declaration names lose their underscore inside helper
		// names (no "__"); a resulting collision is escaped below.
		name := g.pkg + "_" + strings.ReplaceAll(key, "__", "_")
		for g.claimed[name] {
			name += "_"
		}
		g.claimed[name] = true
		h := &helper{name: name, v: v}
		g.helpers[key] = h
		g.helperOrder = append(g.helperOrder, h)
	}
	for _, d := range g.pl.Decls {
		for _, f := range d.Fields {
			walk(f.Value)
		}
		for _, v := range d.Variants {
			for _, f := range v.Fields {
				walk(f.Value)
			}
		}
	}
	return nil
}

func (g *generator) free(ids []string) bool {
	seen := map[string]bool{}
	for _, id := range ids {
		if g.claimed[id] || seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}

// declIDs lists the global identifiers a declaration defines under base.
func (g *generator) declIDs(d schema.Decl, base string) []string {
	t := g.pkg + "_" + base
	m := g.up + "_" + upper(base)
	switch d := d.(type) {
	case *schema.Struct:
		ids := []string{t, m + "_TYPE_ID", m + "_FINGERPRINT"}
		for _, f := range structFuncs {
			ids = append(ids, t+"_"+f)
		}
		return append(ids, t+"_write_", t+"_read_", t+"_puts_", t+"_gets_", t+"_is_plain_")
	case *schema.Enum:
		ids := []string{t, m + "_FINGERPRINT", t + "_name", t + "_valid_", t + "_encode", t + "_decode"}
		for _, v := range d.Values {
			ids = append(ids, m+"_"+naming.ScreamingSnake(v.Name))
		}
		return ids
	case *schema.Union:
		ids := []string{t, m + "_FINGERPRINT"}
		for _, f := range unionFuncs {
			ids = append(ids, t+"_"+f)
		}
		for _, v := range d.Variants {
			ids = append(ids, m+"_"+naming.ScreamingSnake(v.Name))
		}
		for _, v := range d.Variants {
			if vt, ok := variantTypes(d, t)[v]; ok {
				ids = append(ids, vt)
			}
		}
		return ids
	}
	return nil
}

// variantTypes names the struct types of a union's inline variants with
// fields, t_<variant>: a name that is one of the union's own functions
// (a variant Decode and t_decode) gets a trailing underscore.
func variantTypes(u *schema.Union, t string) map[*schema.Variant]string {
	own := map[string]bool{}
	for _, f := range unionFuncs {
		own[t+"_"+f] = true
	}
	out := map[*schema.Variant]string{}
	for _, v := range u.Variants {
		if v.Kind == schema.VariantInline && len(v.Fields) > 0 {
			vt := t + "_" + naming.Snake(v.Name)
			for own[vt] {
				vt += "_"
			}
			own[vt] = true
			out[v] = vt
		}
	}
	return out
}

var structFuncs = []string{"init", "encoded_size", "encode", "encode_ex", "decode", "decode_ex", "encoded_message_size",
	"encode_message", "encode_message_ex", "decode_message", "decode_message_ex"}

// unionFuncs are a union's functions: public, then static.
var unionFuncs = []string{"init", "encoded_size", "encode", "encode_ex", "decode", "decode_ex",
	"init_", "size_", "write_", "read_", "check_"}

// typeName is a declaration's C type name.
func (g *generator) typeName(d schema.Decl) string { return g.pkg + "_" + g.base[d] }

// macroName is the upper-case prefix of a declaration's constants.
func (g *generator) macroName(d schema.Decl) string { return g.up + "_" + upper(g.base[d]) }

// valueName is an enum value's or a union variant's constant.
func (g *generator) valueName(d schema.Decl, name string) string {
	return g.macroName(d) + "_" + naming.ScreamingSnake(name)
}

// variantType is the struct type of an inline variant with fields.
func (g *generator) variantType(u *schema.Union, v *schema.Variant) string {
	return variantTypes(u, g.typeName(u))[v]
}

// mangle names a type inside helper type names: "u32_slice", "str_opt".
func (g *generator) mangle(t *schema.Type) string {
	switch t.Kind {
	case schema.String:
		return "str"
	case schema.StructRef, schema.EnumRef, schema.UnionRef:
		return g.base[t.Decl()]
	case schema.Array:
		return g.mangle(t.Elem) + "_slice"
	case schema.FixedArray:
		return fmt.Sprintf("%s_x%d", g.mangle(t.Elem), t.Len)
	case schema.Optional:
		if t.Boxed {
			return g.mangle(t.Elem) + "_ptr"
		}
		return g.mangle(t.Elem) + "_opt"
	}
	return t.Kind.String()
}

// helperName is the C type of a slice or unboxed optional.
func (g *generator) helperName(t *schema.Type) string { return g.helpers[g.mangle(t)].name }
