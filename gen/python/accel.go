package python

import (
	_ "embed"
	"fmt"
	"strings"

	"sdp/gen"
	"sdp/gen/emit"
	"sdp/gen/plan"
	"sdp/schema"
)

// The C accelerator: <package>/_sdp_accel.c, a CPython extension module
// that decodes into and encodes from the package's own classes. It prints
// the same plan as the pure Python helpers: one C function per value the
// schema uses (sdp_d<i> decodes, sdp_e<i> encodes), switching on its op,
// after the runtime (accel_runtime.h). The package installs it at import
// (IMPLEMENTATION = "c"): the struct classes' decode, decode_prefix,
// decode_message, encode and encode_message, and the dispatcher
// decode_message, which the stream reader calls.

//go:embed accel_runtime.h
var accelRuntime string

type accel struct {
	g     *generator
	p     *emit.Printer
	index map[string]int // helper index by canon
	todo  []*plan.Value
	vals  []*plan.Value
	// classes are the dataclasses built and read (structs, variant
	// classes), by Python name; enums by declaration.
	classes   []string
	classOf   map[string]int
	classFlds map[string][]string
	enums     map[*plan.Decl]int
	enumList  []*plan.Decl
}

// accelSource prints the C source of the accelerator.
func (g *generator) accelSource() []byte {
	a := &accel{g: g, p: emit.New("    "), index: map[string]int{}, classOf: map[string]int{},
		classFlds: map[string][]string{}, enums: map[*plan.Decl]int{}}
	p := a.p
	p.Line("/* " + gen.Header(g.s) + " */")
	p.Line("/* The C accelerator of the package " + cComment(g.s.Name) + ": see docs/python.md. */")
	for _, l := range strings.Split(strings.TrimRight(accelRuntime, "\n"), "\n") {
		p.Directive(l)
	}
	// Classes and enums, in declaration order.
	for _, d := range g.plan.Decls {
		switch {
		case d.Struct != nil:
			a.class(g.n.decl[d.Decl], d.Fields)
		case d.Union != nil:
			for _, pv := range d.Variants {
				if pv.Carries == nil {
					a.class(g.n.variant[pv.Variant], pv.Fields)
				}
			}
		case d.Enum != nil:
			a.enums[d] = len(a.enumList)
			a.enumList = append(a.enumList, d)
		}
	}
	p.Line("")
	for i, c := range a.classes {
		fs := a.classFlds[c]
		n := len(fs)
		if n == 0 {
			p.F("static PyObject *sdp_ca%d[1];", i)
			p.F("static Py_ssize_t sdp_co%d[1];", i)
			continue
		}
		var qs []string
		for _, f := range fs {
			qs = append(qs, cString(f))
		}
		p.F("static const char *const sdp_cf%d[] = {%s};", i, strings.Join(qs, ", "))
		p.F("static PyObject *sdp_ca%d[%d];", i, n)
		p.F("static Py_ssize_t sdp_co%d[%d];", i, n)
	}
	p.Line("static sdp_class sdp_classes[] = {")
	for i, c := range a.classes {
		f := "NULL"
		if len(a.classFlds[c]) > 0 {
			f = fmt.Sprintf("sdp_cf%d", i)
		}
		p.F("    {%s, %d, %s, sdp_ca%d, sdp_co%d, NULL, NULL, 0},", cString(c), len(a.classFlds[c]), f, i, i)
	}
	if len(a.classes) == 0 {
		p.Line("    {NULL, 0, NULL, NULL, NULL, NULL, NULL, 0},")
	}
	p.Line("};")
	for i, d := range a.enumList {
		p.F("static PyObject *sdp_enum%d, *sdp_members%d[%d];", i, i, len(d.Enum.Values))
	}
	// Prototypes, then the helpers, on demand from every declaration.
	for _, d := range g.plan.Decls {
		a.need(d.Ref)
	}
	var body []*plan.Value
	for len(a.todo) > 0 {
		v := a.todo[0]
		a.todo = a.todo[1:]
		body = append(body, v)
		// Queue what v refers to before printing (need is idempotent).
		a.refs(v)
	}
	p.Line("")
	for _, v := range body {
		i := a.index[canon(v)]
		p.F("static SDP_UNUSED PyObject *sdp_d%d(sdp_reader *r, long depth); /* %s */", i, cComment(canon(v)))
		p.F("static SDP_UNUSED int sdp_e%d(sdp_writer *w, PyObject *v, long depth);", i)
	}
	for _, v := range body {
		p.Line("")
		a.decoder(v)
		p.Line("")
		a.encoder(v)
	}
	a.api()
	return p.Bytes()
}

// class registers a dataclass the accelerator builds and reads.
func (a *accel) class(name string, fields []*plan.Field) {
	a.classOf[name] = len(a.classes)
	a.classes = append(a.classes, name)
	var fs []string
	for _, f := range fields {
		fs = append(fs, a.g.n.fields[f.Field])
	}
	a.classFlds[name] = fs
}

// need returns the index of v's helpers, queueing them.
func (a *accel) need(v *plan.Value) int {
	c := canon(v)
	if i, ok := a.index[c]; ok {
		return i
	}
	i := len(a.vals)
	a.index[c] = i
	a.vals = append(a.vals, v)
	a.todo = append(a.todo, v)
	return i
}

// inline reports the values coded in place, without a helper.
func inline(v *plan.Value) bool {
	switch v.Op {
	case plan.Scalar, plan.String, plan.Numbers:
		return true
	}
	return false
}

// refs queues the helpers of the values v holds.
func (a *accel) refs(v *plan.Value) {
	var fields []*plan.Field
	switch v.Op {
	case plan.Struct:
		fields = v.Decl.Fields
	case plan.Union:
		for _, pv := range v.Decl.Variants {
			fields = append(fields, pv.Fields...)
		}
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain, plan.Optional:
		if !inline(v.Elem) {
			a.need(v.Elem)
		}
	}
	for _, f := range fields {
		if !inline(f.Value) {
			a.need(f.Value)
		}
	}
}

// cString is s as a C string literal: printable ASCII as it is, anything
// else as octal escapes.
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f && c != '?':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cComment is s made safe inside a C comment.
func cComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r >= 0x7f {
			b.WriteByte('?')
			continue
		}
		b.WriteRune(r)
	}
	return strings.ReplaceAll(b.String(), "*/", "*?/")
}

func sign(k schema.Kind) int {
	if k.IsSigned() {
		return 1
	}
	return 0
}

// decExpr is a C expression decoding a value of v (a new reference, or
// NULL with the error pending), held at depth; unchecked when the bytes of
// a run are known to be there.
func (a *accel) decExpr(v *plan.Value, unchecked bool) string {
	switch v.Op {
	case plan.Scalar:
		k := v.Kind
		switch {
		case k == schema.Bool:
			return "sdp_r_bool(r)"
		case k == schema.F32 && unchecked:
			return "sdp_u_f32(r)"
		case k == schema.F32:
			return "sdp_r_f32(r)"
		case k == schema.F64 && unchecked:
			return "sdp_u_f64(r)"
		case k == schema.F64:
			return "sdp_r_f64(r)"
		case unchecked:
			return fmt.Sprintf("sdp_u_int(r, %d, %d)", k.Size(), sign(k))
		default:
			return fmt.Sprintf("sdp_r_int(r, %d, %d, %s)", k.Size(), sign(k), cString(article(k)))
		}
	case plan.String:
		return "sdp_r_str(r)"
	case plan.Numbers:
		return fmt.Sprintf("sdp_r_array(r, '%s', %d, %dULL)", typecode(v.Kind), v.Elem.Fixed, v.Charge)
	case plan.Struct, plan.Union:
		return fmt.Sprintf("sdp_d%d(r, depth + 1)", a.need(v))
	}
	return fmt.Sprintf("sdp_d%d(r, depth)", a.need(v))
}

// encExpr is a C expression encoding x (a value of v) into w: 0, or -1
// with a Python exception set.
func (a *accel) encExpr(v *plan.Value, x string) string {
	switch v.Op {
	case plan.Scalar:
		k := v.Kind
		switch {
		case k == schema.Bool:
			return "sdp_e_bool(w, " + x + ")"
		case k == schema.F32:
			return "sdp_e_f32(w, " + x + ")"
		case k == schema.F64:
			return "sdp_e_f64(w, " + x + ")"
		default:
			return fmt.Sprintf("sdp_e_int(w, %s, %d, %d)", x, k.Size(), sign(k))
		}
	case plan.String:
		return "sdp_w_str(w, " + x + ")"
	case plan.Bytes:
		return "sdp_w_bytes(w, " + x + ", -1)"
	case plan.FixedBytes:
		return fmt.Sprintf("sdp_w_bytes(w, %s, %d)", x, v.Len)
	case plan.Numbers:
		return fmt.Sprintf("sdp_w_numbers(w, %s, '%s', %d, -1)", x, typecode(v.Kind), v.Elem.Fixed)
	case plan.FixedNumbers:
		return fmt.Sprintf("sdp_w_numbers(w, %s, '%s', %d, %d)", x, typecode(v.Kind), v.Elem.Fixed, v.Len)
	case plan.Struct, plan.Union:
		return fmt.Sprintf("sdp_e%d(w, %s, depth + 1)", a.need(v), x)
	}
	return fmt.Sprintf("sdp_e%d(w, %s, depth)", a.need(v), x)
}

// decoder prints sdp_d<i>, which decodes a value of v held at depth.
func (a *accel) decoder(v *plan.Value) {
	p := a.p
	i := a.index[canon(v)]
	p.F("static PyObject *sdp_d%d(sdp_reader *r, long depth) {", i)
	p.In()
	if !usesDepth(v) {
		p.Line("(void)depth;")
	}
	defer func() {
		p.Out()
		p.Line("}")
	}()
	switch v.Op {
	case plan.Enum:
		a.enumDecode(v.Decl)
	case plan.Struct:
		a.structDecode(v.Decl)
	case plan.Union:
		a.unionDecode(v.Decl)
	case plan.Optional:
		p.Line("Py_ssize_t p = r->pos;")
		p.Line("unsigned b;")
		p.Line("PyObject *x;")
		p.Line("if (!SDP_NEED(r, 1)) {")
		p.Line(`    return sdp_trunc(r, p, 1, "an optional's presence byte");`)
		p.Line("}")
		p.Line("b = r->buf[p];")
		p.Line("r->pos++;")
		p.Line("if (b == 0) {")
		p.Line("    Py_RETURN_NONE;")
		p.Line("}")
		p.Line("if (b != 1) {")
		p.Line(`    return sdp_fail(r, "presence", p, "presence byte is 0x%x, not 0 or 1", b);`)
		p.Line("}")
		if v.Charge > 0 {
			p.F("if (sdp_charge(r, p, 1, %dULL) < 0) {", v.Charge)
			p.Line("    return NULL;")
			p.Line("}")
		}
		p.F("x = %s;", a.decExpr(v.Elem, false))
		if v.Elem.Op == plan.Optional {
			p.Line("if (x != NULL) {")
			p.Line("    PyObject *s = PyObject_CallOneArg(sdp_Some, x);")
			p.Line("    Py_DECREF(x);")
			p.Line("    x = s;")
			p.Line("}")
		}
		p.Line("return x;")
	case plan.Bytes, plan.PlainArray, plan.Array:
		p.Line("Py_ssize_t p, i;")
		p.Line("uint32_t n;")
		p.Line("PyObject *l;")
		p.F("if (sdp_len(r, \"an array count\", &p, &n) < 0 || sdp_count(r, p, n, %d) < 0) {", v.MinElem)
		p.Line("    return NULL;")
		p.Line("}")
		if v.Charge > 0 {
			p.F("if (sdp_charge(r, p, n, %dULL) < 0) {", v.Charge)
			p.Line("    return NULL;")
			p.Line("}")
		}
		switch {
		case v.Op == plan.Bytes:
			p.Line("(void)i;")
			p.Line("(void)l;")
			p.Line("return sdp_r_bytes(r, (Py_ssize_t)n);")
			return
		case v.Elem.Op == plan.Scalar && v.Elem.Kind == schema.Bool:
			p.Line("(void)i;")
			p.Line("(void)l;")
			p.Line("return sdp_r_bools(r, (Py_ssize_t)n);")
			return
		}
		a.loop(v.Elem, "(Py_ssize_t)n")
	case plan.FixedBytes:
		p.F("if (sdp_r_fixed(r, %d, 1, \"a u8\") < 0) {", v.Len)
		p.Line("    return NULL;")
		p.Line("}")
		p.F("return sdp_r_bytes(r, %d);", v.Len)
	case plan.FixedNumbers:
		p.F("if (sdp_r_fixed(r, %d, %d, %s) < 0) {", v.Len, v.Elem.Fixed, cString(article(v.Kind)))
		p.Line("    return NULL;")
		p.Line("}")
		p.F("return sdp_r_numbers(r, '%s', %d, %d);", typecode(v.Kind), v.Len, v.Elem.Fixed)
	case plan.FixedPlain, plan.FixedArray:
		if v.Elem.Op == plan.Scalar && v.Elem.Kind == schema.Bool {
			p.F("return sdp_r_fixed_bools(r, %d);", v.Len)
			return
		}
		p.Line("Py_ssize_t i;")
		p.Line("PyObject *l;")
		a.loop(v.Elem, fmt.Sprint(v.Len))
	default:
		// Scalars, strings and numbers are decoded in place (decExpr).
		p.F("return %s;", a.decExpr(v, false))
	}
}

// loop decodes n elements of e into a list l, each adding its index to
// the error path.
func (a *accel) loop(e *plan.Value, n string) {
	p := a.p
	p.F("l = PyList_New(%s);", n)
	p.Line("if (l == NULL) {")
	p.Line("    return NULL;")
	p.Line("}")
	p.F("for (i = 0; i < %s; i++) {", n)
	p.F("    PyObject *x = %s;", a.decExpr(e, false))
	p.Line("    if (x == NULL) {")
	p.Line("        sdp_seg_index(r, i);")
	p.Line("        Py_DECREF(l);")
	p.Line("        return NULL;")
	p.Line("    }")
	p.Line("    PyList_SET_ITEM(l, i, x);")
	p.Line("}")
	p.Line("return l;")
}

// enumDecode reads an enum's number and returns its member.
func (a *accel) enumDecode(d *plan.Decl) {
	p := a.p
	k := a.enums[d]
	size := d.Enum.Base.Size()
	p.Line("Py_ssize_t p = r->pos;")
	p.Line("unsigned long long n;")
	p.Line("int i;")
	p.F("if (!SDP_NEED(r, %d)) {", size)
	p.F("    return sdp_trunc(r, p, %d, %s);", size, cString("enum "+d.Name()))
	p.Line("}")
	switch size {
	case 1:
		p.Line("n = r->buf[p];")
	case 2:
		p.Line("n = sdp_ld16(r->buf + p);")
	default:
		p.Line("n = sdp_ld32(r->buf + p);")
	}
	p.F("r->pos += %d;", size)
	p.Line("switch (n) {")
	for j, ev := range d.Enum.Values {
		p.F("case %dULL: i = %d; break;", ev.Value, j)
	}
	p.Line("default:")
	p.F("    return sdp_fail(r, \"enum\", p, \"%%llu is not a value of enum %s\", n);", cFormat(d.Name()))
	p.Line("}")
	p.F("Py_INCREF(sdp_members%d[i]);", k)
	p.F("return sdp_members%d[i];", k)
}

// cFormat is s as the body of a C format string literal.
func cFormat(s string) string {
	q := cString(s)
	return strings.ReplaceAll(q[1:len(q)-1], "%", "%%")
}

// fieldsDecode decodes fields into f[0...] by the plan's steps: a run's
// size is checked once and its numbers read unchecked; every field's error
// gets its path segment (prefix and its name).
func (a *accel) fieldsDecode(fields []*plan.Field, steps []plan.Step, prefix string) {
	p := a.p
	i := 0
	one := func(j int, unchecked bool) {
		f := fields[j]
		p.F("seg = %s;", cString(prefix+f.Name))
		p.F("if ((f[%d] = %s) == NULL) {", j, a.decExpr(f.Value, unchecked))
		p.Line("    goto fail;")
		p.Line("}")
	}
	for _, s := range steps {
		if s.Run == nil || len(s.Fields) == 0 {
			one(i, false)
			i++
			continue
		}
		p.F("if (SDP_NEED(r, %d)) {", s.Run.Size)
		p.In()
		for j := range s.Fields {
			one(i+j, true)
		}
		p.Out()
		p.Line("} else {")
		p.In()
		for j := range s.Fields {
			one(i+j, false)
		}
		p.Out()
		p.Line("}")
		i += len(s.Fields)
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// structDecode decodes a struct: its depth, its fields, its instance.
func (a *accel) structDecode(d *plan.Decl) {
	p := a.p
	n := len(d.Fields)
	if n == 0 {
		p.Line("PyObject *f[1] = {NULL};")
		p.Line("if (depth > r->max_depth) {")
		p.F("    return sdp_depth(r, %s, depth);", cString(d.Name()))
		p.Line("}")
		p.F("return sdp_make(&sdp_classes[%d], f);", a.classOf[a.g.n.decl[d.Decl]])
		return
	}
	p.F("PyObject *f[%d] = {NULL};", n)
	p.Line("const char *seg = NULL;")
	p.Line("int k;")
	p.Line("if (depth > r->max_depth) {")
	p.F("    return sdp_depth(r, %s, depth);", cString(d.Name()))
	p.Line("}")
	p.Line("if (sdp_enter(r, depth) < 0) {")
	p.Line("    return NULL;")
	p.Line("}")
	a.fieldsDecode(d.Fields, d.Steps, "")
	p.Line("sdp_leave(depth);")
	p.F("return sdp_make(&sdp_classes[%d], f);", a.classOf[a.g.n.decl[d.Decl]])
	a.fail(n)
}

// fail prints the exit of a struct or union decoder that failed in a field.
func (a *accel) fail(n int) {
	p := a.p
	p.Line("fail:")
	p.Line("sdp_seg_name(r, seg);")
	p.F("for (k = 0; k < %d; k++) {", n)
	p.Line("    Py_XDECREF(f[k]);")
	p.Line("}")
	p.Line("sdp_leave(depth);")
	p.Line("return NULL;")
}

// unionDecode decodes a union: its depth, its tag, then the variant.
func (a *accel) unionDecode(d *plan.Decl) {
	p := a.p
	n := 1
	for _, pv := range d.Variants {
		n = maxInt(n, len(pv.Fields))
	}
	p.F("PyObject *f[%d] = {NULL}, *v;", n)
	p.Line("const char *seg = NULL;")
	p.Line("(void)seg;")
	p.Line("(void)f;")
	p.Line("Py_ssize_t p = r->pos;")
	p.Line("unsigned tag;")
	p.Line("int k;")
	p.Line("if (depth > r->max_depth) {")
	p.F("    return sdp_depth(r, %s, depth);", cString(d.Name()))
	p.Line("}")
	p.Line("if (!SDP_NEED(r, 1)) {")
	p.F("    return sdp_trunc(r, p, 1, %s);", cString("the tag of union "+d.Name()))
	p.Line("}")
	p.Line("tag = r->buf[p];")
	p.Line("r->pos++;")
	p.Line("if (sdp_enter(r, depth) < 0) {")
	p.Line("    return NULL;")
	p.Line("}")
	p.Line("switch (tag) {")
	for _, pv := range d.Variants {
		p.F("case %d:", pv.Tag)
		p.In()
		if s := pv.Carries; s != nil {
			p.F("seg = %s;", cString(pv.Name))
			p.F("if ((v = %s) == NULL) {", a.decExpr(s.Value, false))
			p.Line("    goto fail;")
			p.Line("}")
		} else {
			a.fieldsDecode(pv.Fields, pv.Steps, pv.Name+".")
			p.F("v = sdp_make(&sdp_classes[%d], f);", a.classOf[a.g.n.variant[pv.Variant]])
		}
		p.Line("sdp_leave(depth);")
		p.Line("return v;")
		p.Out()
	}
	p.Line("default:")
	p.Line("    sdp_leave(depth);")
	p.F("    return sdp_fail(r, \"union_tag\", p, \"tag %%u is not a variant of union %s (it has %d)\", tag);", cFormat(d.Name()), len(d.Variants))
	p.Line("}")
	p.Line("goto fail; /* unreachable: every case returns */")
	a.fail(n)
}

// encoder prints sdp_e<i>, which encodes a value of v held at depth.
func (a *accel) encoder(v *plan.Value) {
	p := a.p
	i := a.index[canon(v)]
	p.F("static int sdp_e%d(sdp_writer *w, PyObject *v, long depth) {", i)
	p.In()
	if !usesDepth(v) {
		p.Line("(void)depth;")
	}
	defer func() {
		p.Out()
		p.Line("}")
	}()
	switch v.Op {
	case plan.Enum:
		p.F("return sdp_e_enum(w, v, sdp_enum%d, %d);", a.enums[v.Decl], v.Decl.Enum.Base.Size())
	case plan.Struct:
		p.Line("PyObject *x = NULL;")
		p.Line("int rc;")
		if len(v.Decl.Fields) == 0 {
			p.Line("(void)w;")
			p.Line("(void)v;")
		}
		p.Line("if (sdp_enter_e(depth) < 0) {")
		p.Line("    return -1;")
		p.Line("}")
		a.fieldsEncode(v.Decl.Fields, v.Decl.Steps, a.classOf[a.g.n.decl[v.Decl.Decl]])
		p.Line("rc = 0;")
		p.Line("goto done;")
		p.Line("done:")
		p.Line("(void)x;")
		p.Line("if (depth > SDP_DEFAULT_DEPTH) {")
		p.Line("    Py_LeaveRecursiveCall();")
		p.Line("}")
		p.Line("return rc;")
	case plan.Union:
		a.unionEncode(v.Decl)
	case plan.Optional:
		p.Line("int rc;")
		p.Line("if (v == Py_None) {")
		p.Line("    return sdp_w_u8(w, 0);")
		p.Line("}")
		p.Line("if (sdp_w_u8(w, 1) < 0) {")
		p.Line("    return -1;")
		p.Line("}")
		if v.Elem.Op == plan.Optional {
			// An optional of an optional holds a Some.
			p.Line("v = PyObject_GetAttr(v, sdp_s_value);")
			p.Line("if (v == NULL) {")
			p.Line("    return -1;")
			p.Line("}")
			p.F("rc = %s;", a.encExpr(v.Elem, "v"))
			p.Line("Py_DECREF(v);")
		} else {
			p.F("rc = %s;", a.encExpr(v.Elem, "v"))
		}
		p.Line("return rc;")
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain:
		p.Line("Py_ssize_t i, n;")
		p.Line("int rc = 0;")
		p.Line("PyObject *s = sdp_seq(v);")
		p.Line("if (s == NULL) {")
		p.Line("    return -1;")
		p.Line("}")
		p.Line("n = PySequence_Fast_GET_SIZE(s);")
		if v.Op.Counted() {
			p.Line("rc = sdp_w_count(w, n);")
		} else {
			p.F("if (n != %d) {", v.Len)
			p.F("    PyErr_Format(PyExc_ValueError, \"fixed array of %d elements has %%zd\", n);", v.Len)
			p.Line("    rc = -1;")
			p.Line("}")
		}
		p.Line("for (i = 0; i < n && rc == 0; i++) {")
		p.Line("    PyObject *x = PySequence_Fast_GET_ITEM(s, i);")
		p.Line("    Py_INCREF(x);")
		p.F("    rc = %s;", a.encExpr(v.Elem, "x"))
		p.Line("    Py_DECREF(x);")
		p.Line("}")
		p.Line("Py_DECREF(s);")
		p.Line("return rc;")
	default:
		p.F("return %s;", a.encExpr(v, "v"))
	}
}

// fieldsEncode encodes the fields of class c read from v by the plan's
// steps: a run's bytes are reserved at once.
func (a *accel) fieldsEncode(fields []*plan.Field, steps []plan.Step, c int) {
	p := a.p
	i := 0
	for _, s := range steps {
		if s.Run != nil {
			p.F("if (sdp_reserve(w, %d) < 0) {", s.Run.Size)
			p.Line("    rc = -1;")
			p.Line("    goto done;")
			p.Line("}")
		}
		for range s.Fields {
			f := fields[i]
			p.F("if ((x = sdp_get(&sdp_classes[%d], v, %d)) == NULL) {", c, i)
			p.Line("    rc = -1;")
			p.Line("    goto done;")
			p.Line("}")
			if s.Run != nil && f.Value.Op == plan.Scalar {
				// The run's room is reserved.
				p.F("rc = %s;", strings.Replace(a.encExpr(f.Value, "x"), "sdp_e_", "sdp_ue_", 1))
			} else {
				p.F("rc = %s;", a.encExpr(f.Value, "x"))
			}
			p.Line("Py_DECREF(x);")
			p.Line("if (rc < 0) {")
			p.Line("    goto done;")
			p.Line("}")
			i++
		}
	}
}

// unionEncode encodes a union by the class of its value: the tag, then the
// variant's fields or the struct it carries.
func (a *accel) unionEncode(d *plan.Decl) {
	p := a.p
	p.Line("PyObject *x = NULL;")
	p.Line("int rc = 0;")
	p.Line("if (sdp_enter_e(depth) < 0) {")
	p.Line("    return -1;")
	p.Line("}")
	for _, pv := range d.Variants {
		var c int
		if s := pv.Carries; s != nil {
			c = a.classOf[a.g.n.decl[s.Value.Decl.Decl]]
		} else {
			c = a.classOf[a.g.n.variant[pv.Variant]]
		}
		p.F("if (PyObject_TypeCheck(v, sdp_classes[%d].tp)) {", c)
		p.In()
		p.F("if ((rc = sdp_w_u8(w, %d)) < 0) {", pv.Tag)
		p.Line("    goto done;")
		p.Line("}")
		if s := pv.Carries; s != nil {
			p.F("rc = %s;", a.encExpr(s.Value, "v"))
		} else {
			a.fieldsEncode(pv.Fields, pv.Steps, c)
		}
		p.Line("goto done;")
		p.Out()
		p.Line("}")
	}
	p.F("PyErr_Format(PyExc_ValueError, \"union %s: %%R is not one of its variants\", v);", cFormat(d.Name()))
	p.Line("rc = -1;")
	p.Line("done:")
	p.Line("(void)x;")
	p.Line("if (depth > SDP_DEFAULT_DEPTH) {")
	p.Line("    Py_LeaveRecursiveCall();")
	p.Line("}")
	p.Line("return rc;")
}

// api prints the message types, the methods installed on their classes,
// the dispatcher and the module.
func (a *accel) api() {
	p := a.p
	g := a.g
	structs := g.s.Structs
	p.Line("")
	p.Line("static sdp_type sdp_types[] = {")
	for _, st := range structs {
		i := a.index[canon(g.plan.Of(st).Ref)]
		p.F("    {%d, sdp_d%d, sdp_e%d, 0, &sdp_classes[%d], %s, NULL},", st.ID, i, i, a.classOf[g.n.decl[st]],
			cString("_sdp_k_"+canon(g.plan.Of(st).Ref)))
	}
	if len(structs) == 0 {
		p.Line("    {0, NULL, NULL, 0, NULL, NULL, NULL},")
	}
	p.Line("};")
	p.F("#define SDP_NTYPES %d", len(structs))
	type method struct{ name, fn, flags, doc string }
	for t, st := range structs {
		p.Line("")
		p.F("/* %s */", cComment(st.Name))
		for _, m := range []struct{ name, mode string }{{"decode", "SDP_EXACT"}, {"decode_prefix", "SDP_PREFIX"}, {"decode_message", "SDP_MESSAGE"}} {
			p.F("static PyObject *sdp_%s%d(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {", m.name, t)
			p.Line("    (void)cls;")
			p.F("    return sdp_decode(sdp_types, SDP_NTYPES, %d, %s, args, nargs, kwnames);", t, m.mode)
			p.Line("}")
		}
		p.F("static PyObject *sdp_decode_into%d(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {", t)
		p.F("    return sdp_decode_into(&sdp_types[%d], self, args, nargs, kwnames);", t)
		p.Line("}")
		for _, m := range []struct{ name, msg string }{{"encode", "0"}, {"encode_message", "1"}} {
			p.F("static PyObject *sdp_%s%d(PyObject *self, PyObject *unused) {", m.name, t)
			p.Line("    (void)unused;")
			p.F("    return sdp_encode(&sdp_types[%d], self, %s);", t, m.msg)
			p.Line("}")
		}
		ms := []method{
			{"decode", fmt.Sprintf("sdp_decode%d", t), "METH_FASTCALL | METH_KEYWORDS", "Decodes data (bytes, bytearray or memoryview) exactly: trailing bytes are an error."},
			{"decode_prefix", fmt.Sprintf("sdp_decode_prefix%d", t), "METH_FASTCALL | METH_KEYWORDS", "Decodes a value at the start of data; returns it and the bytes consumed."},
			{"decode_message", fmt.Sprintf("sdp_decode_message%d", t), "METH_FASTCALL | METH_KEYWORDS", fmt.Sprintf("Decodes a message that must carry a %s (type id %d).", st.Name, st.ID)},
			{"decode_into", fmt.Sprintf("sdp_decode_into%d", t), "METH_FASTCALL | METH_KEYWORDS", "Decodes data exactly into this value, replacing every field; after an error no field has changed."},
			{"encode", fmt.Sprintf("sdp_encode%d", t), "METH_NOARGS", "Encodes the value; raises EncodeError for a value that has no encoding."},
			{"encode_message", fmt.Sprintf("sdp_encode_message%d", t), "METH_NOARGS", "Encodes the value as a message: header, then payload."},
		}
		p.F("static PyMethodDef sdp_methods%d[] = {", t)
		for _, m := range ms {
			p.F("    {%q, (PyCFunction)(void (*)(void))%s, %s, %s},", m.name, m.fn, m.flags, cString(m.doc))
		}
		p.Line("};")
	}
	p.Line("")
	p.Line("static PyObject *sdp_decode_any(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {")
	p.Line("    (void)self;")
	p.Line("    return sdp_decode(sdp_types, SDP_NTYPES, -1, SDP_MESSAGE, args, nargs, kwnames);")
	p.Line("}")
	p.Line("")
	p.Line("static PyMethodDef sdp_decode_any_def = {\"decode_message\", (PyCFunction)(void (*)(void))sdp_decode_any, METH_FASTCALL | METH_KEYWORDS,")
	p.Line("    \"Decodes a message (header and payload) as the struct its type id names.\"};")
	p.Line("")
	p.Line("/* install takes the package's namespace: its classes and runtime, and")
	p.Line(" * installs the C functions on the struct classes and as decode_message. */")
	p.Line("static PyObject *sdp_install(PyObject *module, PyObject *ns) {")
	p.In()
	p.Line("int i;")
	p.Line("PyObject *f;")
	p.Line("(void)module;")
	p.Line("if (!PyDict_Check(ns)) {")
	p.Line(`    PyErr_SetString(PyExc_TypeError, "install takes the package's globals()");`)
	p.Line("    return NULL;")
	p.Line("}")
	p.Line("if (sdp_runtime_init(ns) < 0) {")
	p.Line("    return NULL;")
	p.Line("}")
	p.F("for (i = 0; i < %d; i++) {", len(a.classes))
	p.Line("    if (sdp_class_init(&sdp_classes[i], ns) < 0) {")
	p.Line("        return NULL;")
	p.Line("    }")
	p.Line("}")
	for k, d := range a.enumList {
		p.F("if ((sdp_enum%d = sdp_lookup(ns, %s)) == NULL) {", k, cString(g.n.decl[d.Decl]))
		p.Line("    return NULL;")
		p.Line("}")
		for j, ev := range d.Enum.Values {
			p.F("if ((sdp_members%d[%d] = PyObject_CallFunction(sdp_enum%d, \"K\", %dULL)) == NULL) {", k, j, k, ev.Value)
			p.Line("    return NULL;")
			p.Line("}")
		}
	}
	p.Line("for (i = 0; i < SDP_NTYPES; i++) {")
	p.Line("    if ((sdp_types[i].check = sdp_lookup(ns, sdp_types[i].check_name)) == NULL) {")
	p.Line("        return NULL;")
	p.Line("    }")
	p.Line("}")
	for t, st := range structs {
		c := a.classOf[g.n.decl[st]]
		p.F("for (i = 0; i < 6; i++) {")
		p.F("    if (sdp_set_method(&sdp_classes[%d], &sdp_methods%d[i], i < 3) < 0) {", c, t)
		p.Line("        return NULL;")
		p.Line("    }")
		p.Line("}")
	}
	p.Line("f = PyCFunction_New(&sdp_decode_any_def, NULL);")
	p.Line(`if (f == NULL || PyDict_SetItemString(ns, "decode_message", f) < 0) {`)
	p.Line("    Py_XDECREF(f);")
	p.Line("    return NULL;")
	p.Line("}")
	p.Line("Py_DECREF(f);")
	p.Line("Py_RETURN_NONE;")
	p.Out()
	p.Line("}")
	p.Line("")
	p.Line("static PyMethodDef sdp_module_methods[] = {")
	p.Line(`    {"install", sdp_install, METH_O, "Installs the C functions in the package (its globals())."},`)
	p.Line("    {NULL, NULL, 0, NULL},")
	p.Line("};")
	p.Line("")
	p.Line("static struct PyModuleDef sdp_module = {")
	p.Line(`    PyModuleDef_HEAD_INIT, "_sdp_accel", "The C accelerator of an SDP package.", -1, sdp_module_methods,`)
	p.Line("    NULL, NULL, NULL, NULL,")
	p.Line("};")
	p.Line("")
	p.Line("PyMODINIT_FUNC PyInit__sdp_accel(void) { return PyModule_Create(&sdp_module); }")
}

// usesDepth reports whether the helpers of v use their depth: structs and
// unions check it, and pass it to what they hold, as arrays and optionals
// of those do; a helper of anything else ignores it.
func usesDepth(v *plan.Value) bool {
	switch v.Op {
	case plan.Struct, plan.Union:
		return true
	case plan.Array, plan.PlainArray, plan.FixedArray, plan.FixedPlain, plan.Optional:
		return usesDepth(v.Elem)
	}
	return false
}
