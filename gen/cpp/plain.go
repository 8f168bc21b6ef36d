package cpp

import (
	"fmt"
	"sort"
	"strings"

	"sdp/gen/emit"
	"sdp/gen/plan"
)

// Arrays of plain structs (gen.Plain: numbers only, no padding) are copied
// with one memcpy on little-endian targets, where such a struct's memory is
// its wire encoding (issue #15); a static_assert checks the layout. The
// portable byte-order build (SDP_PORTABLE_BYTE_ORDER, big-endian targets),
// and a bulk read the input or the depth limit does not allow, go element
// by element.

// plainArray reports an array copied in one piece (PlainArray, FixedPlain).
func plainArray(v *plan.Value) bool { return v.Op == plan.PlainArray || v.Op == plan.FixedPlain }

// plainRead emits the decoding of the n elements of the plain array v into
// lv (a vector, or a std::array; "" = check only). A vector is assigned its
// elements (assign_wire) rather than resized and then copied into, which
// would zero-fill it first.
func (r reader) plainRead(v *plan.Value, n, lv string) {
	p, l := r.p, v.Plain
	vector := lv != "" && v.Op == plan.PlainArray
	p.Block(fmt.Sprintf("if (r.plain(%s, %d, d + %d)) {", n, l.Size, l.Depth), "} else {", func() {
		switch {
		case vector:
			p.F("assign_wire(%s, r.p, %s);", lv, n)
		case lv != "":
			p.F("load_plain(%s.data(), r.p, %s * %d);", lv, n, l.Size)
		}
		p.F("r.p += %s * %d;", n, l.Size)
	})
	p.In()
	if vector {
		p.F("%s.resize(%s);", lv, n)
	}
	r.elemLoop(v, n, lv)
	p.Out()
	p.P("}")
}

// plainWrite emits the encoding of the elements of the plain array expr.
func (b fn) plainWrite(v *plan.Value, expr, count string) {
	p := b.p
	l := v.Plain
	p.Block("if constexpr (sdp::kLittleEndian) {", "} else {", func() {
		p.F("out = store_plain(out, %s.data(), %s * %d);", expr, count, l.Size)
	})
	p.In()
	e := b.tmp("e")
	p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
		p.F("out = sdp_write(out, %s);", e)
	})
	p.Out()
	p.P("}")
}

// appendPlain emits the appending of the plain array expr ([]T) to buf in
// sdp_append: its count, then its elements' bytes with one range insert on
// little-endian targets; elsewhere into room grown for them.
func (b fn) appendPlain(v *plan.Value, expr string) {
	p := b.p
	l := v.Plain
	p.Block("if constexpr (sdp::kLittleEndian) {", "} else {", func() {
		p.F("put_count(grow(buf, 4), %s.size());", expr)
		p.F("append_plain(buf, %s.data(), %s.size());", expr, expr)
	})
	p.In()
	p.F("std::uint8_t* out = put_count(grow(buf, 4 + %s.size() * %d), %s.size());", expr, l.Size, expr)
	e := b.tmp("e")
	p.Block(fmt.Sprintf("for (const auto& %s : %s) {", e, expr), "}", func() {
		p.F("out = sdp_write(out, %s);", e)
	})
	p.Out()
	p.P("}")
}

// plainAsserts emits, for every plain struct whose arrays are copied in
// one piece and the plain structs inside it, a static_assert of its layout,
// in name order.
func (g *generator) plainAsserts(p *emit.Printer) {
	var list []*plan.Decl
	seen := map[*plan.Decl]bool{}
	var add func(pd *plan.Decl)
	add = func(pd *plan.Decl) {
		if seen[pd] {
			return
		}
		seen[pd] = true
		list = append(list, pd)
		for _, f := range pd.Fields {
			if f.Value.Op == plan.Struct {
				add(f.Value.Decl)
			}
		}
	}
	var walk func(v *plan.Value)
	walk = func(v *plan.Value) {
		if plainArray(v) {
			add(v.Elem.Decl)
		}
		if v.Elem != nil {
			walk(v.Elem)
		}
	}
	for _, pd := range g.plan.Decls {
		for _, f := range pd.Fields {
			walk(f.Value)
		}
		for _, pv := range pd.Variants {
			for _, f := range pv.Fields {
				walk(f.Value)
			}
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	for _, pd := range list {
		n := g.name(pd.Decl)
		conds := []string{"std::is_trivially_copyable_v<" + n + ">", fmt.Sprintf("sizeof(%s) == %d", n, pd.Plain.Size)}
		for _, f := range pd.Fields {
			conds = append(conds, fmt.Sprintf("offsetof(%s, %s) == %d", n, fieldName(f.Field, n), f.Offset))
		}
		p.P()
		p.F("// On little-endian targets the memory of %s is its wire encoding", n)
		p.F("// (%d bytes, no padding), and arrays of it are copied in one piece.", pd.Plain.Size)
		p.P("static_assert(!sdp::kLittleEndian ||")
		p.F("                  (%s),", strings.Join(conds, " &&\n                   "))
		p.F("              \"%s: its memory must be its wire encoding\");", n)
	}
}
