"""Checks the generated API beyond the conformance protocol.

Usage: python3 module_test.py DIR: imports the corpus packages and pynames
from DIR; prints every failed check and exits 1 if any failed.
"""

import array
import importlib
import io
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


def main():
    sys.path.insert(0, sys.argv[1])
    names = ["arrays", "enums_unions", "hostile", "keywords", "messages", "nested", "optionals", "plugins",
             "primitives", "recursive", "pynames"]
    mods = {n: importlib.import_module(n) for n in names}
    for m in mods.values():
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
    e = raises(lambda: p.Parameter.decode(reg.plugins[0].parameters[0].encode()[:14]), p.DecodeError, "cut string")
    if e:
        check(e.rule == "count" and e.offset == 8 and e.path == "display_name", "cut string: %s" % e)
    e = raises(lambda: p.PluginRegistry.decode(b + b"\x00"), p.DecodeError, "trailing byte")
    if e:
        check(e.rule == "trailing" and e.offset == len(b), "trailing: %s at %d" % (e.rule, e.offset))
    buf = bytearray(len(b) + 3)
    check(reg.encode_into(buf, 3) == len(b) and bytes(buf[3:]) == b, "encode_into")
    raises(lambda: reg.encode_into(buf, 4), p.EncodeError, "encode_into a buffer too small")
    v, n = p.PluginRegistry.decode_prefix(b + b"\x00\x01")
    check(v == reg and n == len(b), "decode_prefix")
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
    h = mods["hostile"]
    holder = h.Holder(items=[None] * 10)
    e = raises(lambda: h.Holder.decode(holder.encode(), h.DecodeOptions(memory_limit=100)), h.DecodeError,
               "memory limit")
    if e:
        check(e.rule == "memory" and e.offset == 0, "memory: %s at %d" % (e.rule, e.offset))

    # Encoding validates.
    eu = mods["enums_unions"]
    enums = eu.Enums()
    enums.small = 99
    raises(enums.encode, eu.EncodeError, "invalid enum value")
    unions = eu.Unions()
    unions.shape = None
    raises(unions.encode, eu.EncodeError, "unset union")
    a = mods["arrays"]
    fixed = a.Fixed()
    fixed.rgba = b"\x01\x02\x03"
    raises(fixed.encode, a.EncodeError, "fixed array of the wrong length")
    arr = a.U32Array(values=[1, 2, 3])
    check(a.U32Array.decode(arr.encode()).values == array.array("I", [1, 2, 3]), "a list encodes as an array")
    arr.values = [1 << 32]
    raises(arr.encode, a.EncodeError, "u32 out of range")
    prim = mods["primitives"]
    nan = prim.Floats() if hasattr(prim, "Floats") else None
    if nan is not None:
        check(prim.Floats.decode(nan.encode()) == nan, "primitives default")

    # Streams over a real file.
    msgs = mods["messages"]
    with tempfile.TemporaryFile() as f:
        w = msgs.StreamWriter(f)
        vals = [cls() for cls in msgs.MESSAGE_TYPES.values()]
        for v in vals:
            w.write(v)
        f.seek(0)
        got = list(msgs.StreamReader(f))
        check(got == vals, "stream round trip")
        f.seek(0)
        big = max(len(v.encode()) for v in vals)
        if big > 0:
            e = raises(lambda: list(msgs.StreamReader(f, max_size=big - 1)), msgs.DecodeError, "max_size")
            if e:
                check(e.rule == "message" and e.index is not None, "max_size: %s index %s" % (e.rule, e.index))
    e = raises(lambda: msgs.StreamReader(io.BytesIO(b"SDP2\x01\x00")).read(), msgs.DecodeError, "cut header")
    if e:
        check(e.rule == "truncated" and e.index == 0 and e.offset == 0, "cut header: %s" % e)

    # The schema check: a hello written first, checked by a reader that requires it.
    out = io.BytesIO()
    w = msgs.StreamWriter(out)
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
        w.write(v)
    r = msgs.StreamReader(io.BytesIO(out.getvalue()), require_hello=True)
    check(not r.schema_checked, "schema_checked before reading")
    first = r.read()
    check(first == vals[0] and r.schema_checked and r.index == 2, "hello then the first message (index 1)")
    check(list(r) == vals[1:], "the messages after the hello")
    # Another version of Ping: rule schema at its fingerprint, naming it; the error sticks.
    ping = ids.index(msgs.Ping.TYPE_ID)
    changed = bytearray(out.getvalue())
    changed[14 + 10 * ping + 2 + 5] ^= 1
    r = msgs.StreamReader(io.BytesIO(bytes(changed)))
    e = raises(r.read, msgs.DecodeError, "changed fingerprint")
    if e:
        theirs = msgs.Ping.FINGERPRINT ^ (1 << 40)
        want = "the writer's schema has another version of Ping (type id %d): fingerprint %016x, here %016x; run `sdp compat`" % (
            msgs.Ping.TYPE_ID, theirs, msgs.Ping.FINGERPRINT)
        check(e.rule == "schema" and e.index == 0 and e.offset == 14 + 10 * ping + 2, "changed fingerprint: %s" % e)
        check(want in str(e), "changed fingerprint message: %s" % e)
        check(raises(r.read, msgs.DecodeError, "changed fingerprint again") is e and not r.schema_checked, "the error sticks")
    # A reader that requires a hello refuses a stream without one, but not an empty stream.
    plain = vals[0].encode_message()
    e = raises(lambda: msgs.StreamReader(io.BytesIO(plain), require_hello=True).read(), msgs.DecodeError, "missing hello")
    if e:
        check(e.rule == "schema" and e.index == 0 and e.offset == 4, "missing hello: %s" % e)
    check(msgs.StreamReader(io.BytesIO(b""), require_hello=True).read() is None, "empty stream with require_hello")
    r = msgs.StreamReader(io.BytesIO(plain))
    check(r.read() == vals[0] and not r.schema_checked, "no hello, not required")
    # A hello after the first message is an unknown type id.
    e = raises(lambda: list(msgs.StreamReader(io.BytesIO(plain + hello))), msgs.DecodeError, "second hello")
    if e:
        check(e.rule == "message" and e.index == 1 and e.offset == len(plain) + 4, "second hello: %s" % e)

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
