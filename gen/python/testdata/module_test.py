"""Checks the generated API beyond the conformance protocol.

Usage: python3 module_test.py DIR [--numpy]: imports the corpus packages
and pynames from DIR; prints every failed check and exits 1 if any failed.
Without --numpy, numpy cannot be imported (as where it is not installed):
the packages must work, and DecodeOptions(numpy=True) must say it needs
numpy. With --numpy, the numpy views and encoding from ndarrays are checked.
"""

import array
import importlib
import importlib.abc
import io
import os
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def raises(fn, exc, what):
    try:
        fn()
    except exc as e:
        return e
    failures.append(what + ": no " + exc.__name__)
    return None


def defaults(m):
    """Every struct's default value encodes and decodes back equal."""
    for tid, cls in m.MESSAGE_TYPES.items():
        v = cls()
        b = v.encode()
        check(cls.TYPE_ID == tid, m.__name__ + "." + cls.__name__ + ": TYPE_ID")
        check(v.encoded_size() == len(b), m.__name__ + "." + cls.__name__ + ": encoded_size")
        check(cls.decode(b) == v, m.__name__ + "." + cls.__name__ + ": default round trip")
        check(m.decode_message(v.encode_message()) == v, m.__name__ + "." + cls.__name__ + ": message round trip")


class NoNumpy(importlib.abc.MetaPathFinder):
    """Makes numpy impossible to import, as where it is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numpy":
            raise ModuleNotFoundError("No module named 'numpy' (blocked by module_test.py)", name=name)
        return None


def without_numpy(a):
    """The option without numpy: a clear ImportError, and nothing else changes."""
    check("numpy" not in sys.modules, "numpy imported without the option")
    b = a.U32Array(values=[1, 2, 3]).encode()
    e = raises(lambda: a.U32Array.decode(b, a.DecodeOptions(numpy=True)), ImportError, "numpy=True without numpy")
    if e:
        check("DecodeOptions(numpy=True) needs numpy" in str(e), "numpy=True without numpy: " + str(e))
    check(a.U32Array.decode(b).values == array.array("I", [1, 2, 3]), "decode after the ImportError")


def with_numpy(a, p):
    """DecodeOptions(numpy=True): read-only views of the input, no copy;
    encoding from ndarrays of any byte order and strides, validated."""
    import numpy as np

    on = a.DecodeOptions(numpy=True)
    v = a.Arrays(i8s=[-1, 2], u16s=[65535], i16s=[-2], u32s=[1, 2, 3], i32s=[-3], u64s=[1 << 63], i64s=[-(1 << 63)],
                 f32s=[1.5, float("nan")], f64s=[2.5], nested=[[7], []], bytes=b"xy", bools=[True])
    b = v.encode()
    d = a.Arrays.decode(b, on)
    dtypes = {"i8s": "int8", "u16s": "<u2", "i16s": "<i2", "u32s": "<u4", "i32s": "<i4", "u64s": "<u8", "i64s": "<i8",
              "f32s": "<f4", "f64s": "<f8"}
    for name, dt in dtypes.items():
        x = getattr(d, name)
        check(isinstance(x, np.ndarray) and x.dtype == np.dtype(dt) and not x.flags.writeable, "numpy view " + name)
        check(np.array_equal(x, np.asarray(getattr(a.Arrays.decode(b), name)), equal_nan=True), "numpy values " + name)
    check(isinstance(d.nested[0], np.ndarray) and d.nested[0].tolist() == [7] and len(d.nested[1]) == 0, "nested views")
    check(isinstance(d.bytes, bytes) and d.bools == [True], "[]u8 stays bytes, []bool a list")
    check(d.encode() == b and d.encoded_size() == len(b), "encode from the views")
    fx = a.Fixed(matrix=[array.array("f", [1, 2, 3])] * 3)
    df = a.Fixed.decode(fx.encode(), on)
    check(isinstance(df.matrix[2], np.ndarray) and df.matrix[2].tolist() == [1, 2, 3], "[N]f32 views")
    check(df.encode() == fx.encode(), "encode [N]f32 from views")
    # No copy: the views are of the input, also a bytearray's (which then
    # cannot be resized while they live) or a memoryview's.
    buf = bytearray(b)
    d = a.Arrays.decode(buf, on)
    check(np.shares_memory(d.u32s, np.frombuffer(buf, np.uint8)), "views of a bytearray share its memory")
    at = b.index((1).to_bytes(4, "little") + (2).to_bytes(4, "little"))
    buf[at] = 9
    check(d.u32s[0] == 9, "a change of the input shows in the view")
    raises(lambda: buf.append(0), BufferError, "resizing a bytearray with live views")
    d = a.Arrays.decode(memoryview(b), on)
    check(np.shares_memory(d.u32s, np.frombuffer(b, np.uint8)), "views of a memoryview share its memory")
    e = raises(lambda: d.u32s.__setitem__(0, 5), ValueError, "writing to a view")
    # Messages and streams take the option too.
    check(isinstance(a.decode_message(v.encode_message(), on).u32s, np.ndarray), "decode_message with numpy=True")
    got = list(a.MessageReader(io.BytesIO(v.encode_message()), options=on))
    check(len(got) == 1 and isinstance(got[0].f64s, np.ndarray), "MessageReader with numpy=True")

    # Encoding from ndarrays: any byte order and strides, converted.
    want = a.U32Array(values=[3, 2, 1]).encode()
    for x in (np.array([1, 2, 3], dtype=">u4")[::-1], np.array([3, 0, 2, 0, 1], dtype="<i8")[::2],
              np.array([3, 2, 1], dtype=np.uint16), np.array([3, 2, 1], dtype=object)):
        check(a.U32Array(values=x).encode() == want, "encode from %r" % x)
        check(a.U32Array(values=x).encoded_size() == len(want), "encoded_size of %r" % x)
    fa = a.F32Array(values=np.array([0.5, 1, 2], dtype=">f8"))
    check(a.F32Array.decode(fa.encode()).values == array.array("f", [0.5, 1, 2]), "f64 ndarray as []f32")
    check(a.F32Array(values=np.array([1, 2], dtype=np.int64)).encode() == a.F32Array(values=[1.0, 2.0]).encode(),
          "integer ndarray as []f32")
    for x, what in ((np.array([1.0]), "floats as []u32"), (np.array([-1]), "-1 as a u32"),
                    (np.array([1 << 32], dtype=np.uint64), "2^32 as a u32"), (np.zeros((2, 2), np.uint32), "a 2-D array"),
                    (np.array(["a"]), "strings"), (np.array([1j]), "complex numbers")):
        raises(a.U32Array(values=x).encode, a.EncodeError, "encode " + what)
    raises(a.I16Array(samples=np.array([40000], dtype=np.int32)).encode, a.EncodeError, "40000 as an i16")
    check(a.I16Array(samples=np.array([-32768, 32767], dtype=np.int64)).encode() ==
          a.I16Array(samples=[-32768, 32767]).encode(), "i16 bounds from int64")
    # [N]T validates the length of an ndarray.
    m3 = a.Fixed(matrix=[np.zeros(3, np.float32), np.zeros(4, np.float32), np.zeros(3, np.float32)])
    raises(m3.encode, a.EncodeError, "[3]f32 from an ndarray of 4")
    # The registry decodes the same with the option (it has no numeric arrays).
    reg = p.PluginRegistry(plugins=[p.Plugin(name="EQ")], total_plugin_count=1)
    check(p.PluginRegistry.decode(bytearray(reg.encode()), p.DecodeOptions(numpy=True)) == reg, "registry with numpy=True")


def main():
    sys.path.insert(0, sys.argv[1])
    numpy_mode = "--numpy" in sys.argv[2:]
    if not numpy_mode:
        sys.meta_path.insert(0, NoNumpy())
    names = ["arrays", "enums_unions", "hostile", "keywords", "messages", "nested", "optionals", "plugins",
             "primitives", "recursive", "pynames"]
    mods = {n: importlib.import_module(n) for n in names}
    want = os.environ.get("SDP_TESTEE_IMPL")
    for m in mods.values():
        check(not want or m.IMPLEMENTATION == want, m.__name__ + ": IMPLEMENTATION is " + m.IMPLEMENTATION + ", not " + str(want))
        defaults(m)

    # Errors: rule, offset, path.
    p = mods["plugins"]
    reg = p.PluginRegistry(plugins=[p.Plugin(name="EQ", manufacturer_id="acme",
                                             parameters=[p.Parameter(address=7, display_name="Gain", unit="dB")])],
                           total_plugin_count=1)
    b = reg.encode()
    e = raises(lambda: p.PluginRegistry.decode(b[:40]), p.DecodeError, "cut registry")
    if e:
        # The parameters' count needs 25 bytes per Parameter: rule 8.
        check(e.rule == "count" and e.offset == 26, "cut registry: %s at %d" % (e.rule, e.offset))
        check(e.path == "plugins[0].parameters", "cut registry: path " + e.path)
        check(str(e) == "count at offset 26 in plugins[0].parameters: " + e.msg, "decode error text: " + str(e))
    e = raises(lambda: p.Parameter.decode(reg.plugins[0].parameters[0].encode()[:14]), p.DecodeError, "cut string")
    if e:
        check(e.rule == "count" and e.offset == 8 and e.path == "display_name", "cut string: %s" % e)
    e = raises(lambda: p.PluginRegistry.decode(b + b"\x00"), p.DecodeError, "trailing byte")
    if e:
        check(e.rule == "trailing" and e.offset == len(b), "trailing: %s at %d" % (e.rule, e.offset))
    buf = bytearray(len(b) + 3)
    check(reg.encode_into(buf, 3) == len(b) and bytes(buf[3:]) == b, "encode_into")
    e = raises(lambda: reg.encode_into(buf, 4), p.EncodeError, "encode_into a buffer too small")
    if e:
        check(e.rule == "size" and e.path == "" and str(e) == "size: " + e.msg, "encode_into a buffer too small: %s" % e)
    check(bytes(buf[3:]) == b, "a refused encode_into writes nothing")
    # A value of another type names the field and the type expected (issue #35).
    e = raises(lambda: p.Plugin(name=3).encode(), p.EncodeError, "Plugin(name=3)")
    if e:
        check((e.rule, e.path, str(e)) == ("type", "name", "type in name: expected a str, got int"), "Plugin(name=3): %s" % e)
    v, n = p.PluginRegistry.decode_prefix(b + b"\x00\x01")
    check(v == reg and n == len(b), "decode_prefix")
    into = p.PluginRegistry(total_plugin_count=9)
    into.decode_into(b)
    check(into == reg, "decode_into")
    keep = p.PluginRegistry(total_plugin_count=9)
    raises(lambda: keep.decode_into(b[:-1]), p.DecodeError, "decode_into of a cut input")
    check(keep == p.PluginRegistry(total_plugin_count=9), "decode_into changed the value before an error")
    check(p.PluginRegistry.decode(memoryview(bytearray(b))) == reg, "decode from a memoryview")
    e = raises(lambda: p.Plugin.decode_message(reg.encode_message()), p.DecodeError, "decode_message of another type")
    if e:
        check(e.rule == "message" and e.offset == 4, "decode_message of another type: %s at %d" % (e.rule, e.offset))

    # Options: depth and memory.
    r = mods["recursive"]
    tree = r.Tree(value=1, children=[r.Tree(value=2, children=[r.Tree(value=3)])])
    tb = tree.encode()
    check(r.Tree.decode(tb, r.DecodeOptions(max_depth=3)) == tree, "depth 3 within max_depth 3")
    e = raises(lambda: r.Tree.decode(tb, r.DecodeOptions(max_depth=2)), r.DecodeError, "depth over max_depth")
    if e:
        check(e.rule == "depth" and e.path == "children[0].children[0]", "depth: %s at %s" % (e.rule, e.path))
    # 0 or less means the default depth limit, 64 (docs/api.md, "Options").
    deep = r.Tree(value=0)
    for i in range(63):
        deep = r.Tree(value=i, children=[deep])
    db = deep.encode()
    for d in (0, -1):
        check(r.Tree.decode(tb, r.DecodeOptions(max_depth=d)) == tree, "max_depth=%d decodes" % d)
        check(r.Tree.decode(db, r.DecodeOptions(max_depth=d)) == deep, "max_depth=%d: depth 64 within the default" % d)
        e = raises(lambda: r.Tree.decode(r.Tree(children=[deep]).encode(), r.DecodeOptions(max_depth=d)), r.DecodeError,
                   "max_depth=%d: depth 65" % d)
        if e:
            check(e.rule == "depth", "max_depth=%d: %s" % (d, e))
    h = mods["hostile"]
    holder = h.Holder(items=[None] * 10)
    e = raises(lambda: h.Holder.decode(holder.encode(), h.DecodeOptions(memory_limit=100)), h.DecodeError,
               "memory limit")
    if e:
        check(e.rule == "memory" and e.offset == 0, "memory: %s at %d" % (e.rule, e.offset))
    # 0 or less means the default memory limit, 32 x input + 1 MiB.
    for lim in (0, -1, -(1 << 70)):
        check(h.Holder.decode(holder.encode(), h.DecodeOptions(memory_limit=lim)) == holder, "memory_limit=%d decodes" % lim)
    huge = h.Holder(items=[None] * 40000)
    for lim in (0, -1):
        e = raises(lambda: h.Holder.decode(huge.encode(), h.DecodeOptions(memory_limit=lim)), h.DecodeError,
                   "memory_limit=%d: over the default" % lim)
        if e:
            check(e.rule == "memory", "memory_limit=%d: %s" % (lim, e))

    # Encoding validates: the rule and path of the first bad value.
    def refused(fn, rule, path, what):
        e = raises(fn, EncodeError, what)
        if e:
            check((e.rule, e.path) == (rule, path), "%s: %s" % (what, e))
            for other in (lambda: len(fn.__self__.encode_message()), fn.__self__.encoded_size):
                e2 = raises(other, EncodeError, what + " (another API)")
                check(e2 is None or str(e2) == str(e), "%s: another API says %s" % (what, e2))

    eu = mods["enums_unions"]
    EncodeError = eu.EncodeError
    enums = eu.Enums()
    enums.small = 99
    refused(enums.encode, "enum", "small", "invalid enum value")
    unions = eu.Unions()
    unions.shape = None
    refused(unions.encode, "union_tag", "shape", "unset union")
    a = mods["arrays"]
    EncodeError = a.EncodeError
    fixed = a.Fixed()
    fixed.rgba = b"\x01\x02\x03"
    refused(fixed.encode, "length", "rgba", "fixed array of the wrong length")
    fixed.rgba = [1, 2, 3, 4]
    check(a.Fixed.decode(fixed.encode()).rgba == b"\x01\x02\x03\x04", "a list of ints encodes as bytes")
    fixed.rgba = [1, 2, 300, 4]
    refused(fixed.encode, "range", "rgba[2]", "a u8 out of range in a list")
    arr = a.U32Array(values=[1, 2, 3])
    check(a.U32Array.decode(arr.encode()).values == array.array("I", [1, 2, 3]), "a list encodes as an array")
    arr.values = [1, 1 << 32]
    refused(arr.encode, "range", "values[1]", "u32 out of range")
    arr.values = [1, 2.5]
    refused(arr.encode, "type", "values[1]", "a float in a []u32")

    class Huge:
        """An array of 2^32 elements (its length only)."""

        def __len__(self):
            return 1 << 32

        def __iter__(self):
            return iter(())

    arr.values = Huge()
    refused(arr.encode, "count", "values", "an array of 2^32 elements")
    # A bool is True or False (or what equals them: 1, 0); None is not false.
    prim = mods["primitives"]
    EncodeError = prim.EncodeError
    ap = prim.AllPrimitives()
    for x, byte in ((True, 1), (1, 1), (0, 0), (False, 0)):
        ap.flag = x
        check(ap.encode()[0] == byte, "bool %r encodes as %d" % (x, byte))
    for x in (None, 2, "yes"):
        ap.flag = x
        refused(ap.encode, "type", "flag", "bool %r" % (x,))
    EncodeError = a.EncodeError
    ar = a.Arrays()
    ar.bools = [True, None]
    refused(ar.encode, "type", "bools[1]", "None in a []bool")
    prim = mods["primitives"]
    nan = prim.Floats() if hasattr(prim, "Floats") else None
    if nan is not None:
        check(prim.Floats.decode(nan.encode()) == nan, "primitives default")

    # Streams over a real file.
    msgs = mods["messages"]
    with tempfile.TemporaryFile() as f:
        w = msgs.MessageWriter(f)
        vals = [cls() for cls in msgs.MESSAGE_TYPES.values()]
        for v in vals:
            w.write_message(v)
        f.seek(0)
        got = list(msgs.MessageReader(f))
        check(got == vals, "stream round trip")
        f.seek(0)
        big = max(len(v.encode()) for v in vals)
        if big > 0:
            e = raises(lambda: list(msgs.MessageReader(f, max_size=big - 1)), msgs.DecodeError, "max_size")
            if e:
                check(e.rule == "message" and e.index is not None, "max_size: %s index %s" % (e.rule, e.index))
    # The maximum payload size: 64 MiB by default, as in every language, in
    # the reader and the writer; 0 is a maximum of 0, not none.
    check(msgs.DEFAULT_MAX_MESSAGE_SIZE == 64 << 20 and msgs.MESSAGE_HEADER_SIZE == 10 and msgs.HELLO_TYPE_ID == 0,
          "stream constants")
    check(msgs.MessageReader(io.BytesIO()).max_size == msgs.DEFAULT_MAX_MESSAGE_SIZE, "reader default max_size")
    check(msgs.MessageWriter(io.BytesIO()).max_size == msgs.DEFAULT_MAX_MESSAGE_SIZE, "writer default max_size")
    sized = sorted(msgs.MESSAGE_TYPES.values(), key=lambda cls: len(cls().encode()))
    small, large = sized[0](), sized[-1]()
    if len(large.encode()) > max(len(small.encode()), 1):
        out = io.BytesIO()
        w = msgs.MessageWriter(out, max_size=len(large.encode()) - 1)
        e = raises(lambda: w.write_message(large), msgs.EncodeError, "writer max_size")
        if e:
            check(e.rule == "message" and e.path == "message", "writer max_size: rule %s path %s" % (e.rule, e.path))
            check(str(e).startswith("message in message: ") and "maximum size of %d" % (len(large.encode()) - 1) in str(e),
                  "writer max_size message: %s" % e)
        check(out.getvalue() == b"", "a refused message writes nothing")
        w.write_message(small)
        check(out.getvalue() == small.encode_message(), "the writer goes on after a refusal")
        e = raises(lambda: msgs.MessageReader(io.BytesIO(large.encode_message()), max_size=len(large.encode()) - 1).read_message(),
                   msgs.DecodeError, "reader max_size")
        if e:
            check(e.rule == "message" and e.offset == 6, "reader max_size: %s" % e)
    # 0 or less means the default maximum, 64 MiB, in the reader and the writer.
    for mx in (0, -1):
        check(msgs.MessageReader(io.BytesIO(), max_size=mx).max_size == msgs.DEFAULT_MAX_MESSAGE_SIZE, "reader max_size=%d" % mx)
        check(msgs.MessageWriter(io.BytesIO(), max_size=mx).max_size == msgs.DEFAULT_MAX_MESSAGE_SIZE, "writer max_size=%d" % mx)
        out = io.BytesIO()
        msgs.MessageWriter(out, max_size=mx).write_message(large)
        check(list(msgs.MessageReader(io.BytesIO(out.getvalue()), max_size=mx)) == [large], "max_size=%d round trip" % mx)
    e = raises(lambda: msgs.MessageReader(io.BytesIO(b"SDP2\x01\x00")).read_message(), msgs.DecodeError, "cut header")
    if e:
        check(e.rule == "truncated" and e.index == 0 and e.offset == 0, "cut header: %s" % e)
        check(str(e) == "message 0 at stream offset 0: truncated at offset 0 in message: " + e.msg, "stream error text: %s" % e)

    # The schema check: a hello written first, checked by a reader that requires it.
    out = io.BytesIO()
    w = msgs.MessageWriter(out)
    w.write_hello()
    hello = out.getvalue()
    ids = sorted(msgs.MESSAGE_TYPES)
    check(hello[:10] == b"SDP2\x00\x00" + (4 + 10 * len(ids)).to_bytes(4, "little"), "hello header")
    for i, tid in enumerate(ids):
        at = 14 + 10 * i
        fp = int.from_bytes(hello[at + 2:at + 10], "little")
        check(int.from_bytes(hello[at:at + 2], "little") == tid and fp == msgs.MESSAGE_TYPES[tid].FINGERPRINT, "hello entry %d" % i)
    vals = [cls() for cls in msgs.MESSAGE_TYPES.values()]
    for v in vals:
        w.write_message(v)
    r = msgs.MessageReader(io.BytesIO(out.getvalue()), require_hello=True)
    check(not r.schema_checked, "schema_checked before reading")
    first = r.read_message()
    check(first == vals[0] and r.schema_checked and r.index == 2, "hello then the first message (index 1)")
    check(list(r) == vals[1:], "the messages after the hello")
    # Another version of Ping: rule schema at its fingerprint, naming it; the error sticks.
    ping = ids.index(msgs.Ping.TYPE_ID)
    changed = bytearray(out.getvalue())
    changed[14 + 10 * ping + 2 + 5] ^= 1
    r = msgs.MessageReader(io.BytesIO(bytes(changed)))
    e = raises(r.read_message, msgs.DecodeError, "changed fingerprint")
    if e:
        theirs = msgs.Ping.FINGERPRINT ^ (1 << 40)
        want = "the writer's schema has another version of Ping (type id %d): fingerprint %016x, here %016x; run `sdp compat`" % (
            msgs.Ping.TYPE_ID, theirs, msgs.Ping.FINGERPRINT)
        check(e.rule == "schema" and e.index == 0 and e.offset == 14 + 10 * ping + 2, "changed fingerprint: %s" % e)
        check(want in str(e), "changed fingerprint message: %s" % e)
        check(raises(r.read_message, msgs.DecodeError, "changed fingerprint again") is e and not r.schema_checked, "the error sticks")
    # A reader that requires a hello refuses a stream without one, but not an empty stream.
    plain = vals[0].encode_message()
    e = raises(lambda: msgs.MessageReader(io.BytesIO(plain), require_hello=True).read_message(), msgs.DecodeError, "missing hello")
    if e:
        check(e.rule == "schema" and e.index == 0 and e.offset == 4, "missing hello: %s" % e)
    check(msgs.MessageReader(io.BytesIO(b""), require_hello=True).read_message() is None, "empty stream with require_hello")
    r = msgs.MessageReader(io.BytesIO(plain))
    check(r.read_message() == vals[0] and not r.schema_checked, "no hello, not required")
    # A hello after the first message is an unknown type id.
    e = raises(lambda: list(msgs.MessageReader(io.BytesIO(plain + hello))), msgs.DecodeError, "second hello")
    if e:
        check(e.rule == "message" and e.index == 1 and e.offset == len(plain) + 4, "second hello: %s" % e)
        check(e.skippable, "a second hello is skippable")
    # A message of an unknown type id is skipped: the reader goes on with the next one.
    unknown = b"SDP2\xfe\xff" + plain[6:]
    r = msgs.MessageReader(io.BytesIO(unknown + plain))
    e = raises(r.read_message, msgs.DecodeError, "unknown type id")
    if e:
        check(e.rule == "message" and e.index == 0 and e.offset == 4 and e.skippable, "unknown type id: %s" % e)
        check(r.read_message() == vals[0] and r.index == 2 and r.read_message() is None, "the message after an unknown type id")
    # An error that ends the stream comes back on every read, never a message.
    r = msgs.MessageReader(io.BytesIO(b"SDP3" + plain[4:] + plain))
    e = raises(r.read_message, msgs.DecodeError, "bad magic")
    if e:
        check(e.rule == "message" and e.offset == 0 and not e.skippable, "bad magic: %s" % e)
        check(raises(r.read_message, msgs.DecodeError, "bad magic again") is e, "a bad magic sticks")

    # numpy: optional, and the views when it is there.
    if numpy_mode:
        with_numpy(mods["arrays"], mods["plugins"])
    else:
        without_numpy(mods["arrays"])

    # Names and docs.
    pn = mods["pynames"]
    check('"""triple quotes"""' in (pn.value.__doc__ or ""), "docstring with triple quotes")
    check("a backslash \\\n" in (pn.value.__doc__ or ""), "docstring with a backslash")
    check("\\N{BULLET} \\x00" in (pn.value.__doc__ or ""), "docstring escapes stay text")
    check((pn.Some_.__doc__ or "").startswith('"starts with a quote'), "docstring starting with a quote")
    s = pn.Some_(self=1, cls=2, classmethod=True, encode_="x", TYPE_ID_=3, int=array.array("i", [4]), bytes=b"5", float=6.0,
                 list=[pn.value.real_, pn.value.None_], x_sdp_x=7, x__init__=8, type_=pn.value.match_)
    check(pn.Some_.decode(s.encode()) == s, "pynames round trip")
    la = pn.list_A(list=pn.list__B(x=1, int=pn.int_(str="s", Some=s)), bool=pn.Some(None))
    back = pn.list_A.decode(la.encode())
    check(back == la and back.bool == pn.Some(None), "??bool present-absent")
    check(pn.Wrapper.decode(pn.Wrapper(lists=[pn.list__A(), pn.int_()], nested=[None, ["a", "b"]]).encode())
          .lists[1] == pn.int_(), "struct variant")

    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
