/* The runtime of the C accelerator of a generated SDP Python package: the
 * reader (bounds, counts, memory and depth rules, the error and its path),
 * the writer (a growing buffer, range-checked numbers), UTF-8 (strict, both
 * ways, through CPython's codec) and the classes the generated code builds
 * and reads. `sdp gen --lang python` copies it at the top of
 * <package>/_sdp_accel.c, before the per-type functions it prints from the
 * codec plan. CPython 3.9+ C API, C99, little-endian hosts (the module
 * refuses to load elsewhere, and the pure Python code runs). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* Every runtime function is static inline, and may be unused by a schema. */
#if defined(__GNUC__)
#define SDP_UNUSED __attribute__((unused))
#else
#define SDP_UNUSED
#endif
#define SDP_FN static inline SDP_UNUSED

#define SDP_DEFAULT_DEPTH 64
/* PyMemberDef types and flags (structmember.h's T_OBJECT_EX, READONLY). */
#define SDP_T_OBJECT_EX 16
#define SDP_READONLY 1

/* Objects the package hands over when it installs the module. */
static PyObject *sdp_DecodeError, *sdp_EncodeError, *sdp_Some, *sdp_py_numbers, *sdp_py_numpy, *sdp_py_refused,
    *sdp_py_bool;
static PyObject *sdp_array_type, *sdp_frombytes, *sdp_np_frombuffer, *sdp_np_dtype;
static PyObject *sdp_s_max_depth, *sdp_s_memory_limit, *sdp_s_numpy, *sdp_s_value, *sdp_s_cast,
    *sdp_s_toreadonly, *sdp_s_B;
static PyObject *sdp_codes[128]; /* array type codes as str, by letter */
static PyObject *sdp_dtypes[128]; /* numpy.dtype objects, by type code, once numpy is in use */
/* The last DecodeOptions a decoder read, and its values. */
static PyObject *sdp_last_options;
static long sdp_last_depth;
static unsigned long long sdp_last_limit;
static int sdp_last_numpy;

/* ---- classes ---- */

/* A dataclass the generated code builds (decode) and reads (encode). */
typedef struct {
    const char *name;          /* its name in the package */
    int nfields;
    const char *const *fields; /* its attributes, in field order */
    PyObject **attrs;          /* the same, interned */
    Py_ssize_t *offsets;       /* slot offsets, or NULL: attributes */
    PyObject *cls;
    PyTypeObject *tp;
    int slotted;
} sdp_class;

SDP_FN PyObject *sdp_lookup(PyObject *ns, const char *name) {
    PyObject *o = PyDict_GetItemString(ns, name);
    if (o == NULL) {
        PyErr_Format(PyExc_ImportError, "sdp accelerator: the package has no %s", name);
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

/* sdp_class_init finds the class in the package's namespace and, for a
 * dataclass with __slots__ (3.10+), where each field is stored. */
SDP_FN int sdp_class_init(sdp_class *c, PyObject *ns) {
    int i;
    c->cls = sdp_lookup(ns, c->name);
    if (c->cls == NULL) {
        return -1;
    }
    if (!PyType_Check(c->cls)) {
        PyErr_Format(PyExc_ImportError, "sdp accelerator: %s is not a class", c->name);
        return -1;
    }
    c->tp = (PyTypeObject *)c->cls;
    c->slotted = 1;
    for (i = 0; i < c->nfields; i++) {
        PyObject *d;
        c->attrs[i] = PyUnicode_InternFromString(c->fields[i]);
        if (c->attrs[i] == NULL) {
            return -1;
        }
        d = PyObject_GetAttr(c->cls, c->attrs[i]);
        if (d == NULL) {
            PyErr_Clear();
            c->slotted = 0;
            continue;
        }
        if (Py_TYPE(d) == &PyMemberDescr_Type && ((PyMemberDescrObject *)d)->d_member->type == SDP_T_OBJECT_EX &&
            !(((PyMemberDescrObject *)d)->d_member->flags & SDP_READONLY)) {
            c->offsets[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        } else {
            c->slotted = 0;
        }
        Py_DECREF(d);
    }
    return 0;
}

/* sdp_make builds an instance of c from its field values, whose references
 * it steals (all of them, also when it fails): into the slots of a fresh
 * instance, else by calling the class. */
SDP_FN PyObject *sdp_make(sdp_class *c, PyObject **vals) {
    int i;
    PyObject *o;
    if (c->slotted) {
        o = c->tp->tp_alloc(c->tp, 0);
        if (o == NULL) {
            for (i = 0; i < c->nfields; i++) {
                Py_CLEAR(vals[i]);
            }
            return NULL;
        }
        for (i = 0; i < c->nfields; i++) {
            *(PyObject **)((char *)o + c->offsets[i]) = vals[i];
            vals[i] = NULL;
        }
        return o;
    }
    o = PyObject_Vectorcall(c->cls, vals, (size_t)c->nfields, NULL);
    for (i = 0; i < c->nfields; i++) {
        Py_CLEAR(vals[i]);
    }
    return o;
}

/* sdp_get is field i of v (a new reference), read from its slot when v is
 * an instance of c, else as an attribute (any object with the fields
 * encodes, as in the pure Python encoder). */
SDP_FN PyObject *sdp_get(sdp_class *c, PyObject *v, int i) {
    if (c->slotted && Py_TYPE(v) == c->tp) {
        PyObject *x = *(PyObject **)((char *)v + c->offsets[i]);
        if (x == NULL) {
            PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute '%s'", c->name, c->fields[i]);
            return NULL;
        }
        Py_INCREF(x);
        return x;
    }
    return PyObject_GetAttr(v, c->attrs[i]);
}

/* ---- little-endian loads and stores ---- */

SDP_FN uint16_t sdp_ld16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
SDP_FN uint32_t sdp_ld32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
SDP_FN uint64_t sdp_ld64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
SDP_FN void sdp_st16(char *p, uint16_t v) { memcpy(p, &v, 2); }
SDP_FN void sdp_st32(char *p, uint32_t v) { memcpy(p, &v, 4); }
SDP_FN void sdp_st64(char *p, uint64_t v) { memcpy(p, &v, 8); }

SDP_FN int sdp_little_endian(void) {
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* sdp_f32 is an f32's value as a Python float; a NaN keeps its payload and
 * its signalling bit (the f64 is built from the bits, not converted). */
SDP_FN PyObject *sdp_f32(uint32_t bits) {
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu)) {
        uint64_t d = (uint64_t)(bits >> 31) << 63 | (uint64_t)0x7FF << 52 | (uint64_t)(bits & 0x7FFFFFu) << 29;
        double x;
        memcpy(&x, &d, 8);
        return PyFloat_FromDouble(x);
    }
    {
        float f;
        memcpy(&f, &bits, 4);
        return PyFloat_FromDouble((double)f);
    }
}

SDP_FN PyObject *sdp_f64(uint64_t bits) {
    double x;
    memcpy(&x, &bits, 8);
    return PyFloat_FromDouble(x);
}

/* ---- the reader ---- */

typedef struct {
    const char *name; /* a field's path segment, or NULL: an index */
    Py_ssize_t index;
} sdp_seg;

typedef struct {
    const unsigned char *buf;
    Py_ssize_t pos, end;
    long max_depth;
    unsigned long long mem_limit, mem_used;
    PyObject *np_src; /* numpy=True: what the views are made of */
    /* The pending DecodeError (rule set), or a Python exception (rule NULL). */
    const char *rule;
    Py_ssize_t err_off;
    int err_nopath;
    char msg[200];
    sdp_seg *segs;
    Py_ssize_t nsegs, capsegs;
    sdp_seg small[16];
    Py_buffer view;
    int has_view;
    PyObject *src; /* the object buf points into (a reference) */
} sdp_reader;

SDP_FN PyObject *sdp_fail(sdp_reader *r, const char *rule, Py_ssize_t off, const char *fmt, ...) {
    va_list ap;
    r->rule = rule;
    r->err_off = off;
    va_start(ap, fmt);
    PyOS_vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return NULL;
}

SDP_FN void sdp_push(sdp_reader *r, const char *name, Py_ssize_t index) {
    if (r->rule == NULL || r->err_nopath) {
        return;
    }
    if (r->nsegs == r->capsegs) {
        Py_ssize_t cap = r->capsegs * 2;
        sdp_seg *s = (sdp_seg *)PyMem_Malloc((size_t)cap * sizeof(sdp_seg));
        if (s == NULL) {
            r->err_nopath = 1; /* the error without its path: better than none */
            return;
        }
        memcpy(s, r->segs, (size_t)r->nsegs * sizeof(sdp_seg));
        if (r->segs != r->small) {
            PyMem_Free(r->segs);
        }
        r->segs = s;
        r->capsegs = cap;
    }
    r->segs[r->nsegs].name = name;
    r->segs[r->nsegs].index = index;
    r->nsegs++;
}

/* sdp_seg_name and sdp_seg_index add a segment to the path of the pending
 * error, from the inside out, as the decoders return. */
SDP_FN void sdp_seg_name(sdp_reader *r, const char *name) { sdp_push(r, name, 0); }
SDP_FN void sdp_seg_index(sdp_reader *r, Py_ssize_t i) { sdp_push(r, NULL, i); }

SDP_FN PyObject *sdp_trunc(sdp_reader *r, Py_ssize_t p, Py_ssize_t need, const char *what) {
    return sdp_fail(r, "truncated", p, "input ends inside %s: need %zd bytes, %zd remain", what, need, r->end - p);
}

SDP_FN PyObject *sdp_depth(sdp_reader *r, const char *name, long depth) {
    return sdp_fail(r, "depth", r->pos, "%s value at depth %ld: nesting exceeds the depth limit %ld", name, depth,
                    r->max_depth);
}

/* sdp_enter guards the C stack where nesting is deeper than the default
 * limit: past Python's recursion limit, a depth error (without a path, as
 * the pure Python decoder reports its RecursionError). */
SDP_FN int sdp_enter(sdp_reader *r, long depth) {
    if (depth > SDP_DEFAULT_DEPTH && Py_EnterRecursiveCall(" while decoding")) {
        if (PyErr_ExceptionMatches(PyExc_RecursionError)) {
            PyErr_Clear();
            sdp_fail(r, "depth", r->pos, "nesting exceeds Python's recursion limit");
            r->err_nopath = 1;
        }
        return -1;
    }
    return 0;
}

SDP_FN void sdp_leave(long depth) {
    if (depth > SDP_DEFAULT_DEPTH) {
        Py_LeaveRecursiveCall();
    }
}

/* sdp_len reads a u32 count or length at the reader's position. */
SDP_FN int sdp_len(sdp_reader *r, const char *what, Py_ssize_t *p, uint32_t *n) {
    *p = r->pos;
    if (r->end - r->pos < 4) {
        sdp_trunc(r, r->pos, 4, what);
        return -1;
    }
    *n = sdp_ld32(r->buf + r->pos);
    r->pos += 4;
    return 0;
}

/* sdp_count is rule 8: n elements of at least size bytes must fit. */
SDP_FN int sdp_count(sdp_reader *r, Py_ssize_t p, uint32_t n, Py_ssize_t size) {
    unsigned long long need = (unsigned long long)n * (unsigned long long)size;
    if (need > (unsigned long long)(r->end - r->pos)) {
        sdp_fail(r, "count", p, "count %lu needs at least %llu bytes, %zd remain", (unsigned long)n, need,
                 r->end - r->pos);
        return -1;
    }
    return 0;
}

/* sdp_charge is rule 11: n values of nominal size each, at p. */
SDP_FN int sdp_charge(sdp_reader *r, Py_ssize_t p, unsigned long long n, unsigned long long each) {
    unsigned long long left = r->mem_limit > r->mem_used ? r->mem_limit - r->mem_used : 0;
    if (n > left / each) {
        sdp_fail(r, "memory", p, "%llu values of nominal size %llu would exceed the memory limit of %llu bytes", n,
                 each, r->mem_limit);
        return -1;
    }
    r->mem_used += n * each;
    return 0;
}

#define SDP_NEED(r, n) ((r)->end - (r)->pos >= (Py_ssize_t)(n))

SDP_FN PyObject *sdp_r_bool(sdp_reader *r) {
    unsigned char b;
    if (!SDP_NEED(r, 1)) {
        return sdp_trunc(r, r->pos, 1, "a bool");
    }
    b = r->buf[r->pos];
    if (b > 1) {
        return sdp_fail(r, "bool", r->pos, "bool byte is 0x%x, not 0 or 1", (unsigned)b);
    }
    r->pos++;
    return PyBool_FromLong(b);
}

/* sdp_r_int reads an integer of size bytes (1, 2, 4, 8), signed or not. */
SDP_FN PyObject *sdp_int_at(const unsigned char *p, int size, int sign) {
    switch (size) {
    case 1:
        return PyLong_FromLong(sign ? (long)(int8_t)p[0] : (long)p[0]);
    case 2:
        return PyLong_FromLong(sign ? (long)(int16_t)sdp_ld16(p) : (long)sdp_ld16(p));
    case 4:
        return sign ? PyLong_FromLong((long)(int32_t)sdp_ld32(p)) : PyLong_FromUnsignedLong((unsigned long)sdp_ld32(p));
    default:
        return sign ? PyLong_FromLongLong((long long)sdp_ld64(p)) : PyLong_FromUnsignedLongLong(sdp_ld64(p));
    }
}

SDP_FN PyObject *sdp_r_int(sdp_reader *r, int size, int sign, const char *what) {
    PyObject *o;
    if (!SDP_NEED(r, size)) {
        return sdp_trunc(r, r->pos, size, what);
    }
    o = sdp_int_at(r->buf + r->pos, size, sign);
    r->pos += size;
    return o;
}

SDP_FN PyObject *sdp_r_f32(sdp_reader *r) {
    if (!SDP_NEED(r, 4)) {
        return sdp_trunc(r, r->pos, 4, "an f32");
    }
    r->pos += 4;
    return sdp_f32(sdp_ld32(r->buf + r->pos - 4));
}

SDP_FN PyObject *sdp_r_f64(sdp_reader *r) {
    if (!SDP_NEED(r, 8)) {
        return sdp_trunc(r, r->pos, 8, "an f64");
    }
    r->pos += 8;
    return sdp_f64(sdp_ld64(r->buf + r->pos - 8));
}

/* sdp_utf8 is n bytes at q as a str: strict UTF-8, never repaired. */
SDP_FN PyObject *sdp_utf8(sdp_reader *r, Py_ssize_t p, Py_ssize_t q, Py_ssize_t n) {
    PyObject *s = PyUnicode_DecodeUTF8((const char *)r->buf + q, n, NULL);
    if (s == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        Py_ssize_t at = 0;
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        if (value != NULL && PyUnicodeDecodeError_GetStart(value, &at) < 0) {
            PyErr_Clear();
        }
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return sdp_fail(r, "utf8", p, "string is not valid UTF-8 (at offset %zd)", q + at);
    }
    return s;
}

SDP_FN PyObject *sdp_r_str(sdp_reader *r) {
    Py_ssize_t p = r->pos, q = p + 4;
    uint32_t n;
    if (!SDP_NEED(r, 4)) {
        return sdp_trunc(r, p, 4, "a string length");
    }
    n = sdp_ld32(r->buf + p);
    if ((unsigned long long)n > (unsigned long long)(r->end - q)) {
        r->pos = q;
        return sdp_fail(r, "count", p, "string length %lu exceeds the %zd bytes remaining", (unsigned long)n, r->end - q);
    }
    r->pos = q + (Py_ssize_t)n;
    return sdp_utf8(r, p, q, (Py_ssize_t)n);
}

/* sdp_r_fixed checks that n elements of size bytes remain: else the first
 * incomplete element is truncated. */
SDP_FN int sdp_r_fixed(sdp_reader *r, Py_ssize_t n, Py_ssize_t size, const char *what) {
    if ((r->end - r->pos) / size < n) {
        Py_ssize_t i = (r->end - r->pos) / size;
        sdp_trunc(r, r->pos + i * size, size, what);
        sdp_seg_index(r, i);
        return -1;
    }
    return 0;
}

SDP_FN PyObject *sdp_r_bytes(sdp_reader *r, Py_ssize_t n) {
    PyObject *b = PyBytes_FromStringAndSize((const char *)r->buf + r->pos, n);
    r->pos += n;
    return b;
}

/* sdp_r_bools reads n bools (n checked): a list. */
SDP_FN PyObject *sdp_r_bools(sdp_reader *r, Py_ssize_t n) {
    Py_ssize_t i;
    PyObject *l;
    for (i = 0; i < n; i++) {
        if (r->buf[r->pos + i] > 1) {
            sdp_fail(r, "bool", r->pos + i, "bool byte is 0x%x, not 0 or 1", (unsigned)r->buf[r->pos + i]);
            sdp_seg_index(r, i);
            return NULL;
        }
    }
    l = PyList_New(n);
    if (l == NULL) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *b = r->buf[r->pos + i] ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(l, i, b);
    }
    r->pos += n;
    return l;
}

/* sdp_r_fixed_bools reads a [n]bool: bad bytes first, then truncation. */
SDP_FN PyObject *sdp_r_fixed_bools(sdp_reader *r, Py_ssize_t n) {
    Py_ssize_t avail = r->end - r->pos < n ? r->end - r->pos : n, i;
    for (i = 0; i < avail; i++) {
        if (r->buf[r->pos + i] > 1) {
            sdp_fail(r, "bool", r->pos + i, "bool byte is 0x%x, not 0 or 1", (unsigned)r->buf[r->pos + i]);
            sdp_seg_index(r, i);
            return NULL;
        }
    }
    if (avail < n) {
        sdp_trunc(r, r->pos + avail, 1, "a bool");
        sdp_seg_index(r, avail);
        return NULL;
    }
    return sdp_r_bools(r, n);
}

SDP_FN PyObject *sdp_code(char code) {
    if (sdp_codes[(int)code] == NULL) {
        char s[2] = {code, 0};
        sdp_codes[(int)code] = PyUnicode_InternFromString(s);
    }
    return sdp_codes[(int)code];
}

SDP_FN const char *sdp_dtype_name(char code) {
    switch (code) {
    case 'b': return "i1";
    case 'B': return "u1";
    case 'h': return "<i2";
    case 'H': return "<u2";
    case 'i': return "<i4";
    case 'I': return "<u4";
    case 'q': return "<i8";
    case 'Q': return "<u8";
    case 'f': return "<f4";
    default: return "<f8";
    }
}

/* sdp_r_numbers is n numbers of size bytes (checked) as an array.array of
 * code, one copy of the bytes, or with numpy=True a read-only view of the
 * input (numpy.frombuffer). */
SDP_FN PyObject *sdp_r_numbers(sdp_reader *r, char code, Py_ssize_t n, Py_ssize_t size) {
    PyObject *a, *mv, *res, *c;
    Py_ssize_t q = r->pos;
    if (r->np_src != NULL) {
        PyObject *dt = sdp_dtypes[(int)code], *args[4];
        if (dt == NULL) {
            /* numpy.dtype("<u4"), made once. */
            PyObject *name = PyUnicode_FromString(sdp_dtype_name(code));
            if (name == NULL) {
                return NULL;
            }
            dt = PyObject_CallOneArg(sdp_np_dtype, name);
            Py_DECREF(name);
            if (dt == NULL) {
                return NULL;
            }
            sdp_dtypes[(int)code] = dt;
        }
        args[0] = r->np_src;
        args[1] = dt;
        args[2] = PyLong_FromSsize_t(n);
        args[3] = PyLong_FromSsize_t(q);
        if (args[2] == NULL || args[3] == NULL) {
            Py_XDECREF(args[2]);
            Py_XDECREF(args[3]);
            return NULL;
        }
        res = PyObject_Vectorcall(sdp_np_frombuffer, args, 4, NULL);
        Py_DECREF(args[2]);
        Py_DECREF(args[3]);
        if (res != NULL) {
            r->pos = q + n * size;
        }
        return res;
    }
    c = sdp_code(code);
    if (c == NULL) {
        return NULL;
    }
    a = PyObject_CallOneArg(sdp_array_type, c);
    if (a == NULL || n == 0) {
        return a;
    }
    mv = PyMemoryView_FromMemory((char *)r->buf + q, n * size, PyBUF_READ);
    if (mv == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    res = PyObject_CallFunctionObjArgs(sdp_frombytes, a, mv, NULL);
    Py_DECREF(mv);
    if (res == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    Py_DECREF(res);
    r->pos = q + n * size;
    return a;
}

/* sdp_r_array reads a []T of a numeric T: count, rules 8 and 11, numbers. */
SDP_FN PyObject *sdp_r_array(sdp_reader *r, char code, Py_ssize_t size, unsigned long long each) {
    Py_ssize_t p;
    uint32_t n;
    if (sdp_len(r, "an array count", &p, &n) < 0 || sdp_count(r, p, n, size) < 0) {
        return NULL;
    }
    if (each && sdp_charge(r, p, n, each) < 0) {
        return NULL;
    }
    return sdp_r_numbers(r, code, (Py_ssize_t)n, size);
}

/* sdp_reader_init reads data (any bytes-like value) with options (a
 * DecodeOptions or None) from start. */
SDP_FN int sdp_reader_init(sdp_reader *r, PyObject *data, PyObject *options, Py_ssize_t start) {
    int numpy = 0;
    unsigned long long limit = 0;
    memset(r, 0, offsetof(sdp_reader, small));
    r->segs = r->small;
    r->capsegs = (Py_ssize_t)(sizeof r->small / sizeof r->small[0]);
    r->max_depth = SDP_DEFAULT_DEPTH;
    r->has_view = 0;
    r->src = NULL;
    if (options != NULL && options != Py_None && options == sdp_last_options) {
        /* DecodeOptions is frozen: the values of the last one read. */
        r->max_depth = sdp_last_depth;
        limit = sdp_last_limit;
        numpy = sdp_last_numpy;
    } else if (options != NULL && options != Py_None) {
        PyObject *o = PyObject_GetAttr(options, sdp_s_max_depth);
        if (o == NULL) {
            return -1;
        }
        r->max_depth = PyLong_AsLong(o);
        Py_DECREF(o);
        if (r->max_depth == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (r->max_depth <= 0) {
            r->max_depth = SDP_DEFAULT_DEPTH; /* 0 or less: the default */
        }
        o = PyObject_GetAttr(options, sdp_s_memory_limit);
        if (o == NULL) {
            return -1;
        }
        {
            /* 0 or less: the default. */
            int over = 0;
            long long x = PyLong_AsLongLongAndOverflow(o, &over);
            if (x == -1 && PyErr_Occurred()) {
                Py_DECREF(o);
                return -1;
            }
            limit = over > 0 ? PyLong_AsUnsignedLongLong(o) : over < 0 || x <= 0 ? 0 : (unsigned long long)x;
        }
        Py_DECREF(o);
        if (limit == (unsigned long long)-1 && PyErr_Occurred()) {
            return -1;
        }
        o = PyObject_GetAttr(options, sdp_s_numpy);
        if (o == NULL) {
            return -1;
        }
        numpy = PyObject_IsTrue(o);
        Py_DECREF(o);
        if (numpy < 0) {
            return -1;
        }
        Py_INCREF(options);
        Py_XSETREF(sdp_last_options, options);
        sdp_last_depth = r->max_depth;
        sdp_last_limit = limit;
        sdp_last_numpy = numpy;
    }
    if (PyBytes_CheckExact(data)) {
        Py_INCREF(data);
        r->src = data;
    } else if (numpy) {
        /* Views of the input itself, read-only: no copy. */
        PyObject *mv = PyMemoryView_FromObject(data), *c = NULL;
        if (mv != NULL) {
            c = PyObject_CallMethodObjArgs(mv, sdp_s_cast, sdp_s_B, NULL);
            Py_DECREF(mv);
        }
        if (c != NULL) {
            r->src = PyObject_CallMethodObjArgs(c, sdp_s_toreadonly, NULL);
            Py_DECREF(c);
        }
        if (r->src == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                return -1;
            }
            PyErr_Clear();
            r->src = PyBytes_FromObject(data);
        }
    } else if (PyObject_CheckBuffer(data)) {
        Py_INCREF(data);
        r->src = data;
    } else {
        r->src = PyBytes_FromObject(data);
    }
    if (r->src == NULL) {
        return -1;
    }
    if (PyBytes_CheckExact(r->src)) {
        r->buf = (const unsigned char *)PyBytes_AS_STRING(r->src);
        r->end = PyBytes_GET_SIZE(r->src);
    } else {
        if (PyObject_GetBuffer(r->src, &r->view, PyBUF_SIMPLE) < 0) {
            PyObject *b;
            if (!PyErr_ExceptionMatches(PyExc_BufferError) && !PyErr_ExceptionMatches(PyExc_TypeError)) {
                return -1;
            }
            PyErr_Clear();
            b = PyBytes_FromObject(r->src);
            if (b == NULL) {
                return -1;
            }
            Py_SETREF(r->src, b);
            r->buf = (const unsigned char *)PyBytes_AS_STRING(r->src);
            r->end = PyBytes_GET_SIZE(r->src);
        } else {
            r->has_view = 1;
            r->buf = (const unsigned char *)r->view.buf;
            r->end = r->view.len;
        }
    }
    if (numpy) {
        if (sdp_np_frombuffer == NULL) {
            PyObject *np = PyObject_CallNoArgs(sdp_py_numpy);
            if (np == NULL) {
                return -1;
            }
            sdp_np_frombuffer = PyObject_GetAttrString(np, "frombuffer");
            sdp_np_dtype = PyObject_GetAttrString(np, "dtype");
            Py_DECREF(np);
            if (sdp_np_frombuffer == NULL || sdp_np_dtype == NULL) {
                Py_CLEAR(sdp_np_frombuffer);
                Py_CLEAR(sdp_np_dtype);
                return -1;
            }
        }
        r->np_src = r->src;
    }
    r->pos = start;
    if (start > r->end) {
        r->pos = r->end;
    }
    r->mem_limit = limit ? limit : 32ULL * (unsigned long long)(r->end - r->pos) + 1048576ULL;
    return 0;
}

SDP_FN void sdp_reader_free(sdp_reader *r) {
    if (r->has_view) {
        PyBuffer_Release(&r->view);
        r->has_view = 0;
    }
    Py_CLEAR(r->src);
    if (r->segs != r->small) {
        PyMem_Free(r->segs);
        r->segs = r->small;
    }
}

/* sdp_raise turns the pending error into a DecodeError (rule, offset plus
 * base, message, path), set as the Python exception. */
SDP_FN void sdp_raise(sdp_reader *r, Py_ssize_t base, const char *path) {
    PyObject *e, *p;
    Py_ssize_t i;
    if (r->rule == NULL) {
        return; /* a Python exception is set */
    }
    if (path != NULL) {
        p = PyUnicode_FromString(path);
    } else {
        PyObject *parts = PyList_New(0), *sep;
        if (parts == NULL) {
            return;
        }
        for (i = r->nsegs - 1; i >= 0; i--) {
            PyObject *s;
            if (r->segs[i].name != NULL) {
                s = PyUnicode_FromFormat(PyList_GET_SIZE(parts) ? ".%s" : "%s", r->segs[i].name);
            } else {
                s = PyUnicode_FromFormat("[%zd]", r->segs[i].index);
            }
            if (s == NULL || PyList_Append(parts, s) < 0) {
                Py_XDECREF(s);
                Py_DECREF(parts);
                return;
            }
            Py_DECREF(s);
        }
        sep = PyUnicode_FromString("");
        p = sep == NULL ? NULL : PyUnicode_Join(sep, parts);
        Py_XDECREF(sep);
        Py_DECREF(parts);
    }
    if (p == NULL) {
        return;
    }
    e = PyObject_CallFunction(sdp_DecodeError, "snsO", r->rule, r->err_off + base, r->msg, p);
    Py_DECREF(p);
    if (e != NULL) {
        PyErr_SetObject(sdp_DecodeError, e);
        Py_DECREF(e);
    }
}

/* ---- the writer ---- */

/* The writer writes into a bytes object, resized as it grows and to its
 * length at the end: the result is not copied again. */
typedef struct {
    PyObject *out; /* a bytes object, or NULL */
    char *buf;
    Py_ssize_t len, cap;
} sdp_writer;

/* sdp_writer_init starts a writer of about hint bytes. */
SDP_FN int sdp_writer_init(sdp_writer *w, Py_ssize_t hint) {
    w->len = 0;
    w->cap = hint < 64 ? 64 : hint;
    w->out = PyBytes_FromStringAndSize(NULL, w->cap);
    w->buf = w->out == NULL ? NULL : PyBytes_AS_STRING(w->out);
    return w->out == NULL ? -1 : 0;
}

SDP_FN void sdp_writer_free(sdp_writer *w) {
    Py_CLEAR(w->out);
    w->buf = NULL;
}

/* sdp_writer_bytes is what the writer wrote (a new reference). */
SDP_FN PyObject *sdp_writer_bytes(sdp_writer *w) {
    PyObject *b = w->out;
    w->out = NULL;
    if (w->len != w->cap && _PyBytes_Resize(&b, w->len) < 0) {
        return NULL;
    }
    return b;
}

SDP_FN int sdp_grow(sdp_writer *w, Py_ssize_t n) {
    Py_ssize_t cap = w->cap;
    if (n > PY_SSIZE_T_MAX - w->len) {
        /* An encoding larger than the host's sizes (a 32-bit host): rule
         * size, with no path. */
        PyObject *e = PyObject_CallFunction(sdp_EncodeError, "sss", "size",
                                            "the encoding is larger than this host can hold", "");
        if (e != NULL) {
            PyErr_SetObject(sdp_EncodeError, e);
            Py_DECREF(e);
        }
        return -1;
    }
    while (cap - w->len < n) {
        if (cap > PY_SSIZE_T_MAX / 2) {
            cap = PY_SSIZE_T_MAX;
            break;
        }
        cap *= 2;
    }
    if (_PyBytes_Resize(&w->out, cap) < 0) {
        w->buf = NULL;
        return -1;
    }
    w->buf = PyBytes_AS_STRING(w->out);
    w->cap = cap;
    return 0;
}

/* sdp_reserve makes room for n more bytes. */
SDP_FN int sdp_reserve(sdp_writer *w, Py_ssize_t n) {
    return w->cap - w->len >= n ? 0 : sdp_grow(w, n);
}

SDP_FN int sdp_w_u8(sdp_writer *w, unsigned v) {
    if (sdp_reserve(w, 1) < 0) {
        return -1;
    }
    w->buf[w->len++] = (char)v;
    return 0;
}

SDP_FN int sdp_w_count(sdp_writer *w, Py_ssize_t n) {
    if ((unsigned long long)n >= (1ULL << 32)) {
        PyErr_Format(PyExc_ValueError, "count %zd does not fit in a u32", n);
        return -1;
    }
    if (sdp_reserve(w, 4) < 0) {
        return -1;
    }
    sdp_st32(w->buf + w->len, (uint32_t)n);
    w->len += 4;
    return 0;
}

/* sdp_int converts v (an int, or anything with __index__) to the bits of
 * an integer of size bytes, refusing a value out of its range. */
SDP_FN int sdp_int(PyObject *v, int size, int sign, uint64_t *out) {
    PyObject *i;
    int overflow = 0;
    if (PyLong_CheckExact(v)) {
        Py_INCREF(v);
        i = v;
    } else {
        i = PyNumber_Index(v);
        if (i == NULL) {
            return -1;
        }
    }
    if (sign) {
        long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
        long long lo = size == 8 ? INT64_MIN : -(1LL << (size * 8 - 1)), hi = size == 8 ? INT64_MAX : (1LL << (size * 8 - 1)) - 1;
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(i);
            return -1;
        }
        if (overflow || x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "%R is out of the range of an i%d", i, size * 8);
            Py_DECREF(i);
            return -1;
        }
        *out = (uint64_t)x;
    } else {
        /* A negative number is an OverflowError here. */
        unsigned long long x = PyLong_AsUnsignedLongLong(i);
        if (x == (unsigned long long)-1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "%R is out of the range of a u%d", i, size * 8);
            }
            Py_DECREF(i);
            return -1;
        }
        if (size < 8 && x >> (size * 8)) {
            PyErr_Format(PyExc_ValueError, "%R is out of the range of a u%d", i, size * 8);
            Py_DECREF(i);
            return -1;
        }
        *out = x;
    }
    Py_DECREF(i);
    return 0;
}

/* sdp_put_int stores an integer of size bytes at p (room reserved). */
SDP_FN void sdp_put_int(char *p, int size, uint64_t x) {
    switch (size) {
    case 1: p[0] = (char)x; break;
    case 2: sdp_st16(p, (uint16_t)x); break;
    case 4: sdp_st32(p, (uint32_t)x); break;
    default: sdp_st64(p, x);
    }
}

/* sdp_put_f32 stores v as an f32 at p: a NaN bit for bit (its payload's
 * top bits), a finite value too large for an f32 refused. */
SDP_FN int sdp_put_f32(char *p, PyObject *v) {
    double d = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : PyFloat_AsDouble(v);
    uint32_t bits;
    float f;
    if (d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (d != d) {
        uint64_t b;
        memcpy(&b, &d, 8);
        bits = (uint32_t)((b >> 63) << 31) | 0x7F800000u | (uint32_t)((b >> 29) & 0x7FFFFFu);
    } else {
        f = (float)d;
        if (isinf(f) && !isinf(d)) {
            PyErr_SetString(PyExc_OverflowError, "float too large to pack with f format");
            return -1;
        }
        memcpy(&bits, &f, 4);
    }
    sdp_st32(p, bits);
    return 0;
}

SDP_FN int sdp_put_f64(char *p, PyObject *v) {
    double d = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    memcpy(p, &d, 8);
    return 0;
}

/* sdp_w_str writes a str: its UTF-8 length, then the bytes (a lone
 * surrogate cannot be encoded: refused). */
SDP_FN int sdp_w_str(sdp_writer *w, PyObject *v) {
    Py_ssize_t n;
    const char *s;
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_ValueError, "a str field holds %.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
    if (PyUnicode_IS_COMPACT_ASCII(v)) {
        /* ASCII is its own UTF-8. */
        s = (const char *)(((PyASCIIObject *)v) + 1);
        n = PyUnicode_GET_LENGTH(v);
    } else {
        s = PyUnicode_AsUTF8AndSize(v, &n);
        if (s == NULL) {
            return -1;
        }
    }
    if ((unsigned long long)n >= (1ULL << 32)) {
        PyErr_Format(PyExc_ValueError, "count %zd does not fit in a u32", n);
        return -1;
    }
    if (sdp_reserve(w, n + 4) < 0) {
        return -1;
    }
    sdp_st32(w->buf + w->len, (uint32_t)n);
    memcpy(w->buf + w->len + 4, s, (size_t)n);
    w->len += n + 4;
    return 0;
}

/* sdp_w_bytes writes a bytes-like value (or a list or tuple of ints): with
 * fixed < 0 its count first, else it must hold exactly fixed bytes. */
SDP_FN int sdp_w_bytes(sdp_writer *w, PyObject *v, Py_ssize_t fixed) {
    Py_buffer b;
    int rc = -1;
    if (PyObject_GetBuffer(v, &b, PyBUF_SIMPLE) < 0) {
        PyObject *conv;
        if (!(PyList_Check(v) || PyTuple_Check(v)) || !PyErr_ExceptionMatches(PyExc_TypeError)) {
            return -1;
        }
        /* A list or tuple of ints: the bytes it holds (as in pure Python). */
        PyErr_Clear();
        conv = PyBytes_FromObject(v);
        if (conv == NULL) {
            return -1;
        }
        rc = sdp_w_bytes(w, conv, fixed);
        Py_DECREF(conv);
        return rc;
    }
    if (fixed >= 0 && b.len != fixed) {
        PyErr_Format(PyExc_ValueError, "fixed array of %zd elements has %zd", fixed, b.len);
    } else if ((fixed >= 0 || sdp_w_count(w, b.len) == 0) && sdp_reserve(w, b.len) == 0) {
        memcpy(w->buf + w->len, b.buf, (size_t)b.len);
        w->len += b.len;
        rc = 0;
    }
    PyBuffer_Release(&b);
    return rc;
}

/* sdp_same_numbers reports a buffer whose items are the wire's numbers
 * (code, size bytes) in the host's order: copied as they are. */
SDP_FN int sdp_same_numbers(const Py_buffer *b, char code, Py_ssize_t size) {
    const char *f = b->format == NULL ? "B" : b->format;
    char c;
    if (b->ndim != 1 || b->itemsize != size || (b->strides != NULL && b->strides[0] != size)) {
        return 0;
    }
    if (*f == '<' || *f == '@' || *f == '=') {
        f++;
    }
    if (f[0] == 0 || f[1] != 0) {
        return 0;
    }
    c = f[0];
    switch (code) {
    case 'f': return c == 'f';
    case 'd': return c == 'd';
    case 'b': case 'h': case 'i': case 'q':
        return c == 'b' || c == 'h' || c == 'i' || c == 'l' || c == 'q';
    default:
        return c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q';
    }
}

/* sdp_w_numbers writes a numeric array: an array.array or numpy array of
 * the wire's type is copied in one piece; anything else goes through the
 * package's _sdp_numbers (lists, other types, range checks), as in pure
 * Python. fixed < 0: a []T (count first), else a [fixed]T. */
SDP_FN int sdp_w_numbers(sdp_writer *w, PyObject *v, char code, Py_ssize_t size, Py_ssize_t fixed) {
    Py_buffer b;
    Py_ssize_t n;
    PyObject *conv, *c;
    int rc = -1;
    if (PyObject_CheckBuffer(v) && PyObject_GetBuffer(v, &b, PyBUF_FORMAT | PyBUF_STRIDES) == 0) {
        if (sdp_same_numbers(&b, code, size)) {
            n = b.len / size;
            if (fixed >= 0 && n != fixed) {
                PyErr_Format(PyExc_ValueError, "fixed array of %zd elements has %zd", fixed, n);
            } else if ((fixed >= 0 || sdp_w_count(w, n) == 0) && sdp_reserve(w, b.len) == 0) {
                memcpy(w->buf + w->len, b.buf, (size_t)b.len);
                w->len += b.len;
                rc = 0;
            }
            PyBuffer_Release(&b);
            return rc;
        }
        PyBuffer_Release(&b);
    } else {
        PyErr_Clear();
    }
    n = PyObject_Size(v);
    if (n < 0) {
        return -1;
    }
    if (fixed >= 0 && n != fixed) {
        PyErr_Format(PyExc_ValueError, "fixed array of %zd elements has %zd", fixed, n);
        return -1;
    }
    if (fixed < 0 && sdp_w_count(w, n) < 0) {
        return -1;
    }
    c = sdp_code(code);
    if (c == NULL) {
        return -1;
    }
    conv = PyObject_CallFunctionObjArgs(sdp_py_numbers, c, v, NULL);
    if (conv == NULL) {
        return -1;
    }
    if (PyObject_GetBuffer(conv, &b, PyBUF_SIMPLE) == 0) {
        if (sdp_reserve(w, b.len) == 0) {
            memcpy(w->buf + w->len, b.buf, (size_t)b.len);
            w->len += b.len;
            rc = 0;
        }
        PyBuffer_Release(&b);
    }
    Py_DECREF(conv);
    return rc;
}

/* sdp_seq is v as a sequence of its items (PySequence_Fast), after len(v)
 * (an object without a length is refused, as in pure Python). */
SDP_FN PyObject *sdp_seq(PyObject *v) {
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
        Py_INCREF(v);
        return v;
    }
    if (PyObject_Size(v) < 0) {
        return NULL;
    }
    return PySequence_Fast(v, "an array must be a sequence");
}

/* sdp_enter_e guards the C stack while encoding deep values. */
SDP_FN int sdp_enter_e(long depth) {
    return depth > SDP_DEFAULT_DEPTH ? Py_EnterRecursiveCall(" while encoding") : 0;
}

/* sdp_encode_error turns the error of a value the encoder refused
 * (TypeError, ValueError, OverflowError, AttributeError, BufferError; an
 * EncodeError is a ValueError) into the EncodeError the package's check
 * walk finds: _sdp_refused(check, v, e) names the rule and path of the
 * first bad value, as the pure Python encoder does. It runs only after the
 * encoder failed. */
SDP_FN void sdp_encode_error(PyObject *check, PyObject *v) {
    PyObject *type, *value, *tb, *found;
    if (!(PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError) ||
          PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_AttributeError) ||
          PyErr_ExceptionMatches(PyExc_BufferError))) {
        return;
    }
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (value == NULL) {
        return;
    }
    found = PyObject_CallFunctionObjArgs(sdp_py_refused, check, v, value, NULL);
    Py_DECREF(value);
    if (found != NULL) {
        PyErr_SetObject(sdp_EncodeError, found);
        Py_DECREF(found);
    }
}

/* sdp_runtime_init takes what the runtime needs from the package's
 * namespace and the standard library. */
SDP_FN int sdp_runtime_init(PyObject *ns) {
    PyObject *array;
    if (!sdp_little_endian()) {
        PyErr_SetString(PyExc_ImportError, "sdp accelerator: not a little-endian host");
        return -1;
    }
    if ((sdp_DecodeError = sdp_lookup(ns, "DecodeError")) == NULL ||
        (sdp_EncodeError = sdp_lookup(ns, "EncodeError")) == NULL || (sdp_Some = sdp_lookup(ns, "Some")) == NULL ||
        (sdp_py_numbers = sdp_lookup(ns, "_sdp_numbers")) == NULL ||
        (sdp_py_refused = sdp_lookup(ns, "_sdp_refused")) == NULL ||
        (sdp_py_bool = sdp_lookup(ns, "_SDP_BOOL")) == NULL ||
        (sdp_py_numpy = sdp_lookup(ns, "_sdp_numpy")) == NULL) {
        return -1;
    }
    array = PyImport_ImportModule("array");
    if (array == NULL) {
        return -1;
    }
    sdp_array_type = PyObject_GetAttrString(array, "array");
    Py_DECREF(array);
    if (sdp_array_type == NULL) {
        return -1;
    }
    sdp_frombytes = PyObject_GetAttrString(sdp_array_type, "frombytes");
    sdp_s_max_depth = PyUnicode_InternFromString("max_depth");
    sdp_s_memory_limit = PyUnicode_InternFromString("memory_limit");
    sdp_s_numpy = PyUnicode_InternFromString("numpy");
    sdp_s_value = PyUnicode_InternFromString("value");
    sdp_s_cast = PyUnicode_InternFromString("cast");
    sdp_s_toreadonly = PyUnicode_InternFromString("toreadonly");
    sdp_s_B = PyUnicode_InternFromString("B");
    if (sdp_frombytes == NULL || sdp_s_max_depth == NULL || sdp_s_memory_limit == NULL || sdp_s_numpy == NULL ||
        sdp_s_value == NULL || sdp_s_cast == NULL || sdp_s_toreadonly == NULL || sdp_s_B == NULL) {
        return -1;
    }
    return 0;
}

/* Unchecked reads, for the fields of a run whose size was checked once. */
SDP_FN PyObject *sdp_u_int(sdp_reader *r, int size, int sign) {
    PyObject *o = sdp_int_at(r->buf + r->pos, size, sign);
    r->pos += size;
    return o;
}

SDP_FN PyObject *sdp_u_f32(sdp_reader *r) {
    r->pos += 4;
    return sdp_f32(sdp_ld32(r->buf + r->pos - 4));
}

SDP_FN PyObject *sdp_u_f64(sdp_reader *r) {
    r->pos += 8;
    return sdp_f64(sdp_ld64(r->buf + r->pos - 8));
}

/* sdp_bool is the byte of a bool: True and False, else what the package's
 * _SDP_BOOL maps (what equals them: 1, 0, numpy's bools), as in pure
 * Python; anything else (None, 2, "yes") is refused. */
SDP_FN int sdp_bool(PyObject *v) {
    PyObject *b;
    if (v == Py_True) {
        return 1;
    }
    if (v == Py_False) {
        return 0;
    }
    b = PyDict_GetItemWithError(sdp_py_bool, v); /* borrowed */
    if (b == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "a bool field holds %.100s", Py_TYPE(v)->tp_name);
        }
        return -1;
    }
    return PyObject_IsTrue(b);
}

/* Encoders of scalars. */
SDP_FN int sdp_e_bool(sdp_writer *w, PyObject *v) {
    int b = sdp_bool(v);
    return b < 0 ? -1 : sdp_w_u8(w, (unsigned)b);
}

SDP_FN int sdp_e_int(sdp_writer *w, PyObject *v, int size, int sign) {
    uint64_t x;
    if (sdp_int(v, size, sign, &x) < 0 || sdp_reserve(w, size) < 0) {
        return -1;
    }
    sdp_put_int(w->buf + w->len, size, x);
    w->len += size;
    return 0;
}

SDP_FN int sdp_e_f32(sdp_writer *w, PyObject *v) {
    if (sdp_reserve(w, 4) < 0 || sdp_put_f32(w->buf + w->len, v) < 0) {
        return -1;
    }
    w->len += 4;
    return 0;
}

SDP_FN int sdp_e_f64(sdp_writer *w, PyObject *v) {
    if (sdp_reserve(w, 8) < 0 || sdp_put_f64(w->buf + w->len, v) < 0) {
        return -1;
    }
    w->len += 8;
    return 0;
}

/* Encoders of scalars into room reserved for a run. */
SDP_FN int sdp_ue_bool(sdp_writer *w, PyObject *v) {
    int b = sdp_bool(v);
    if (b < 0) {
        return -1;
    }
    w->buf[w->len++] = (char)b;
    return 0;
}

SDP_FN int sdp_ue_int(sdp_writer *w, PyObject *v, int size, int sign) {
    uint64_t x;
    if (sdp_int(v, size, sign, &x) < 0) {
        return -1;
    }
    sdp_put_int(w->buf + w->len, size, x);
    w->len += size;
    return 0;
}

SDP_FN int sdp_ue_f32(sdp_writer *w, PyObject *v) {
    if (sdp_put_f32(w->buf + w->len, v) < 0) {
        return -1;
    }
    w->len += 4;
    return 0;
}

SDP_FN int sdp_ue_f64(sdp_writer *w, PyObject *v) {
    if (sdp_put_f64(w->buf + w->len, v) < 0) {
        return -1;
    }
    w->len += 8;
    return 0;
}

/* sdp_e_enum writes an enum value of size bytes: a member of cls as it is,
 * anything else through cls(v) (which refuses a number it does not name). */
SDP_FN int sdp_e_enum(sdp_writer *w, PyObject *v, PyObject *cls, int size) {
    unsigned long long x;
    if (Py_TYPE(v) == (PyTypeObject *)cls) {
        x = PyLong_AsUnsignedLongLong(v);
    } else {
        PyObject *m = PyObject_CallOneArg(cls, v);
        if (m == NULL) {
            return -1;
        }
        x = PyLong_AsUnsignedLongLong(m);
        Py_DECREF(m);
    }
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    if (sdp_reserve(w, size) < 0) {
        return -1;
    }
    sdp_put_int(w->buf + w->len, size, x);
    w->len += size;
    return 0;
}

/* ---- the package's API ---- */

typedef PyObject *(*sdp_dec_fn)(sdp_reader *, long);
typedef int (*sdp_enc_fn)(sdp_writer *, PyObject *, long);

/* A struct that is a message type: its type id and functions. */
typedef struct {
    unsigned tid;
    sdp_dec_fn dec;
    sdp_enc_fn enc;
    Py_ssize_t hint; /* the size of the last encoding */
    sdp_class *cls;
    const char *check_name; /* the package's check walk of the type */
    PyObject *check;
} sdp_type;

enum { SDP_EXACT, SDP_PREFIX, SDP_MESSAGE };

/* sdp_args parses (data, options=None). */
SDP_FN int sdp_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **data,
                           PyObject **options) {
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames), i;
    *data = NULL;
    *options = Py_None;
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "decode takes at most 2 arguments (%zd given)", nargs);
        return -1;
    }
    if (nargs >= 1) {
        *data = args[0];
    }
    if (nargs == 2) {
        *options = args[1];
    }
    for (i = 0; i < nkw; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (*data == NULL && PyUnicode_CompareWithASCIIString(k, "data") == 0) {
            *data = args[nargs + i];
        } else if (nargs < 2 && PyUnicode_CompareWithASCIIString(k, "options") == 0) {
            *options = args[nargs + i];
        } else {
            PyErr_Format(PyExc_TypeError, "decode got an unexpected keyword argument %R", k);
            return -1;
        }
    }
    if (*data == NULL) {
        PyErr_SetString(PyExc_TypeError, "decode missing required argument 'data'");
        return -1;
    }
    return 0;
}

/* sdp_header checks a message's header (docs/wire-format.md, "Messages"):
 * the index in types of the struct it carries, or -1 (the error pending).
 * want >= 0 accepts only that type. */
SDP_FN int sdp_header(sdp_reader *r, const sdp_type *types, int ntypes, int want) {
    unsigned tid;
    uint32_t n;
    int i, found = -1;
    if (r->end < 10) {
        sdp_fail(r, "truncated", 0, "input ends inside the message header: need 10 bytes, %zd remain", r->end);
        return -1;
    }
    if (memcmp(r->buf, "SDP2", 4) != 0) {
        sdp_fail(r, "message", 0, "bad magic %02x%02x%02x%02x, want 53445032", r->buf[0], r->buf[1], r->buf[2],
                 r->buf[3]);
        return -1;
    }
    tid = sdp_ld16(r->buf + 4);
    for (i = 0; i < ntypes; i++) {
        if (types[i].tid == tid) {
            found = i;
        }
    }
    if (found < 0 || (want >= 0 && found != want)) {
        sdp_fail(r, "message", 4, "type id %u is not expected here", tid);
        return -1;
    }
    n = sdp_ld32(r->buf + 6);
    if ((Py_ssize_t)n != r->end - 10) {
        sdp_fail(r, "message", 6, "payload length is %lu, but %zd bytes follow the header", (unsigned long)n,
                 r->end - 10);
        return -1;
    }
    return found;
}

/* sdp_decode decodes data as types[which] (mode SDP_EXACT or SDP_PREFIX),
 * or as a message: of types[which], or with which < 0 of the type its
 * header names. */
SDP_FN PyObject *sdp_decode(const sdp_type *types, int ntypes, int which, int mode, PyObject *const *args,
                                   Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *data, *options, *v = NULL;
    sdp_reader r;
    if (sdp_args(args, nargs, kwnames, &data, &options) < 0) {
        return NULL;
    }
    if (sdp_reader_init(&r, data, options, mode == SDP_MESSAGE ? 10 : 0) < 0) {
        sdp_reader_free(&r);
        return NULL;
    }
    if (mode == SDP_MESSAGE) {
        which = sdp_header(&r, types, ntypes, which);
        if (which < 0) {
            sdp_raise(&r, 0, "message");
            sdp_reader_free(&r);
            return NULL;
        }
    }
    {
#if PY_VERSION_HEX >= 0x030A0000
        /* The cyclic garbage collector would run as the decoder creates
         * objects, and traverse the growing value again and again; the
         * decoder runs no Python code that makes garbage. */
        int gc = PyGC_Disable();
#endif
        v = types[which].dec(&r, 1);
#if PY_VERSION_HEX >= 0x030A0000
        if (gc) {
            PyGC_Enable();
        }
#endif
    }
    if (v != NULL && mode != SDP_PREFIX && r.pos != r.end) {
        Py_CLEAR(v);
        sdp_fail(&r, "trailing", r.pos, "%zd bytes remain after the value", r.end - r.pos);
    }
    if (v == NULL) {
        sdp_raise(&r, 0, NULL);
    } else if (mode == SDP_PREFIX) {
        PyObject *t = Py_BuildValue("(Nn)", v, r.pos);
        v = t;
    }
    sdp_reader_free(&r);
    return v;
}

/* sdp_encode encodes v as t, framed as a message or not; the writer starts
 * at the size of t's last encoding. */
SDP_FN PyObject *sdp_encode(sdp_type *t, PyObject *v, int message) {
    sdp_writer w;
    PyObject *b;
    if (sdp_writer_init(&w, t->hint + 10) < 0) {
        return NULL;
    }
    if (message) {
        memcpy(w.buf, "SDP2", 4);
        sdp_st16(w.buf + 4, (uint16_t)t->tid);
        w.len = 10;
    }
    if (t->enc(&w, v, 1) < 0) {
        sdp_writer_free(&w);
        sdp_encode_error(t->check, v);
        return NULL;
    }
    if (message) {
        if ((unsigned long long)(w.len - 10) >= (1ULL << 32)) {
            PyObject *e = PyObject_CallFunction(sdp_EncodeError, "sss", "message",
                                                "the payload does not fit in a message (4 GiB or more)", "message");
            sdp_writer_free(&w);
            if (e != NULL) {
                PyErr_SetObject(sdp_EncodeError, e);
                Py_DECREF(e);
            }
            return NULL;
        }
        sdp_st32(w.buf + 6, (uint32_t)(w.len - 10));
    }
    t->hint = w.len;
    b = sdp_writer_bytes(&w);
    sdp_writer_free(&w);
    return b;
}

/* sdp_decode_into decodes data exactly as t into self: every field of
 * self is replaced once the whole value decoded, none after an error. */
SDP_FN PyObject *sdp_decode_into(sdp_type *t, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
    sdp_class *c = t->cls;
    PyObject *v = sdp_decode(t, 1, 0, SDP_EXACT, args, nargs, kwnames);
    int i;
    if (v == NULL) {
        return NULL;
    }
    for (i = 0; i < c->nfields; i++) {
        PyObject *x = sdp_get(c, v, i);
        if (x == NULL) {
            Py_DECREF(v);
            return NULL;
        }
        if (c->slotted && Py_TYPE(self) == c->tp) {
            PyObject **slot = (PyObject **)((char *)self + c->offsets[i]), *old = *slot;
            *slot = x;
            Py_XDECREF(old);
        } else {
            int rc = PyObject_SetAttr(self, c->attrs[i], x);
            Py_DECREF(x);
            if (rc < 0) {
                Py_DECREF(v);
                return NULL;
            }
        }
    }
    Py_DECREF(v);
    Py_RETURN_NONE;
}

/* sdp_set_method installs a C function on a class: a classmethod, or a
 * method of its instances. */
SDP_FN int sdp_set_method(sdp_class *c, PyMethodDef *def, int classmethod) {
    PyObject *d = classmethod ? PyDescr_NewClassMethod(c->tp, def) : PyDescr_NewMethod(c->tp, def);
    int rc;
    if (d == NULL) {
        return -1;
    }
    rc = PyObject_SetAttrString(c->cls, def->ml_name, d);
    Py_DECREF(d);
    return rc;
}
