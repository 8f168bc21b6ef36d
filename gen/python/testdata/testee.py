"""The Python testee of the conformance protocol (conformance/testee.go).

Usage: python3 testee.py DIR MODULE [--stack] [--numpy]: imports MODULE
from DIR and answers requests on stdin until it closes. Every input goes
through every decode API (decode from bytes, bytearray and memoryview,
decode_prefix, decode_message, the stream reader); disagreements answer
status 2. With --numpy every decode uses DecodeOptions(numpy=True): numeric
arrays must come back as read-only numpy views of the input, the outcome
must be the plain decoder's, and the answers are encoded from the views.
Without it numpy cannot be imported: the package must work without it.
"""

import array
import dataclasses
import importlib
import importlib.abc
import io
import os
import struct
import sys
import threading

OK, REJECTED, BROKEN = 0, 1, 2
OPTS = None  # the DecodeOptions of every decode: numpy=True with --numpy


class NoNumpy(importlib.abc.MetaPathFinder):
    """Makes numpy impossible to import, as where it is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numpy":
            raise ModuleNotFoundError("No module named 'numpy' (blocked by the testee)", name=name)
        return None


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    if "--numpy" not in sys.argv[3:]:
        sys.meta_path.insert(0, NoNumpy())
    m = importlib.import_module(sys.argv[2])
    want = os.environ.get("SDP_TESTEE_IMPL")
    if want and m.IMPLEMENTATION != want:
        raise SystemExit("the testee runs " + m.IMPLEMENTATION + ", not " + want)
    if "--numpy" in sys.argv[3:]:
        global OPTS
        OPTS = m.DecodeOptions(numpy=True)
    if "--stack" in sys.argv[3:]:
        threading.stack_size(512 * 1024)
        t = threading.Thread(target=serve, args=(m,))
        t.start()
        t.join()
    else:
        serve(m)


def serve(m):
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        (n,) = struct.unpack("<I", head)
        req = inp.read(n)
        op, tid = req[0], struct.unpack_from("<H", req, 1)[0]
        data = req[3:]
        try:
            status, body = handle(m, op, tid, data)
        except Exception as e:  # noqa: BLE001
            import traceback

            status, body = BROKEN, ("unexpected exception: " + traceback.format_exc()).encode()
        out.write(struct.pack("<IB", len(body) + 1, status))
        out.write(body)
        out.flush()


def outcome(fn):
    """Runs fn: ("ok", value) or ("err", DecodeError)."""
    try:
        return ("ok", fn())
    except Exception as e:
        return ("err", e)


def rejected(m, e):
    """The language's own error text: "<rule> at offset <offset> in <path>:
    <message>" (docs/api.md, "One layout of error text"), checked against
    the error's fields."""
    if not isinstance(e, m.DecodeError):
        raise e
    where = " in " + e.path if e.path else ""
    if str(e) != "%s at offset %d%s: %s" % (e.rule, e.offset, where, e.msg):
        return BROKEN, ("str(e) does not have the layout of its fields: " + str(e)).encode()
    return REJECTED, str(e).encode()


def views(m, v):
    """What is wrong with the numeric arrays of a value decoded with
    numpy=True: "" if they are all read-only 1-D views."""
    import numpy

    if isinstance(v, numpy.ndarray):
        if v.flags.writeable or v.flags.owndata or v.ndim != 1:
            return "a numpy array that is writable, owns its data or is not 1-D"
        return ""
    if isinstance(v, array.array):
        return "an array.array where numpy=True wants a numpy view"
    if isinstance(v, list):
        items = v
    elif dataclasses.is_dataclass(v):
        items = [getattr(v, f.name) for f in dataclasses.fields(v)]
    else:
        return ""
    for x in items:
        w = views(m, x)
        if w:
            return w
    return ""


def parts_disagree(m, v, b):
    """Encodes v again with every array kept out of the encoder's bytearray
    and joined at the end (as arrays of 16 KiB or more are), plainly and as
    a message: "" if both agree with b."""
    keep = m._SDP_PART_MIN
    m._SDP_PART_MIN = 0
    try:
        if v.encode() != b:
            return "the encoding with every array joined at the end differs"
        if v.encode_message() != m._SDP_HEADER.pack(m._SDP_MAGIC, v.TYPE_ID, len(b)) + b:
            return "the message encoding with every array joined at the end differs"
    finally:
        m._SDP_PART_MIN = keep
    return ""


def into_disagrees(encode_into, b):
    """Encodes with encode_into at offset 3 of a buffer with one byte to
    spare and into a buffer one byte short: "" if it writes b and returns
    its length, and refuses the short buffer with EncodeError."""
    buf = bytearray(b"\xaa" * (len(b) + 4))
    if encode_into(buf, 3) != len(b) or bytes(buf[3:3 + len(b)]) != b or buf[:3] != b"\xaa" * 3 or buf[-1:] != b"\xaa":
        return "did not write the encoding at the offset, and only there"
    try:
        encode_into(bytearray(len(b) + 2), 3)
    except Exception as e:  # noqa: BLE001 - the kind is checked
        if type(e).__name__ != "EncodeError":
            return "a short buffer raised " + type(e).__name__
        return ""
    return "a short buffer was not refused"


def handle(m, op, tid, data):
    if op == 1:
        cls = m.MESSAGE_TYPES.get(tid)
        if cls is None:
            return BROKEN, b"unknown type id"
        kind, v = outcome(lambda: cls.decode(data, OPTS))
        if OPTS is not None:
            # The plain decoder must agree, and the views be views.
            k0, v0 = outcome(lambda: cls.decode(data))
            if k0 != kind or (kind == "err" and (v0.rule, v0.offset, v0.path) != (v.rule, v.offset, v.path)):
                return BROKEN, ("numpy=True disagrees with the plain decoder: " + str(v) + " vs " + str(v0)).encode()
            if kind == "ok":
                w = views(m, v)
                if w:
                    return BROKEN, w.encode()
                if v.encode() != v0.encode():
                    return BROKEN, b"the encoding of the numpy views differs from the plain decoder's value's"
        # The other decode APIs must agree.
        for alt in (bytearray(data), memoryview(data)):
            k2, v2 = outcome(lambda: cls.decode(alt, OPTS))
            if k2 != kind or (kind == "err" and (v2.rule, v2.offset, v2.path) != (v.rule, v.offset, v.path)) or (kind == "ok" and v2.encode() != v.encode()):
                return BROKEN, b"decode of a bytearray or memoryview disagrees"
            if OPTS is not None and kind == "ok" and views(m, v2):
                return BROKEN, views(m, v2).encode()
        # decode_into: the same outcome; nothing changed after an error.
        into = cls()
        before = into.encode()
        ki, vi = outcome(lambda: into.decode_into(data, OPTS))
        if ki != kind or (kind == "err" and ((vi.rule, vi.offset, vi.path) != (v.rule, v.offset, v.path) or into.encode() != before)):
            return BROKEN, b"decode_into disagrees with decode"
        if kind == "ok" and into.encode() != v.encode():
            return BROKEN, b"decode_into decodes differently"
        kp, vp = outcome(lambda: cls.decode_prefix(data, OPTS))
        if kind == "ok":
            if kp != "ok" or vp[1] != len(data) or vp[0].encode() != v.encode():
                return BROKEN, b"decode_prefix disagrees with decode"
        elif v.rule == "trailing":
            if kp != "ok" or vp[1] != v.offset:
                return BROKEN, b"decode_prefix does not stop where decode found trailing bytes"
        elif kp != "err" or (vp.rule, vp.offset, vp.path) != (v.rule, v.offset, v.path):
            return BROKEN, b"decode_prefix rejects differently"
        msg = struct.pack("<4sHI", b"SDP2", tid, len(data)) + data
        km, vm = outcome(lambda: m.decode_message(msg, OPTS))
        kc, vc = outcome(lambda: cls.decode_message(msg, OPTS))
        ks, vs = outcome(lambda: m.MessageReader(io.BytesIO(msg), options=OPTS).read_message())
        for k3, v3, what in ((km, vm, "decode_message"), (kc, vc, "T.decode_message"), (ks, vs, "the stream reader")):
            if k3 != kind:
                return BROKEN, (what + " disagrees with decode: " + str(v3)).encode()
            if kind == "err" and (v3.rule != v.rule or v3.offset != v.offset + 10 or v3.path != v.path):
                return BROKEN, (what + " rejects differently: " + str(v3) + " vs " + str(v)).encode()
            if kind == "ok" and v3.encode() != v.encode():
                return BROKEN, (what + " decodes differently").encode()
        if kind == "err":
            return rejected(m, v)
        b = v.encode()
        if v.encoded_size() != len(b):
            return BROKEN, b"encoded_size differs from the encoding's length"
        w = into_disagrees(v.encode_into, b)
        if w:
            return BROKEN, ("encode_into: " + w).encode()
        if b != cls.decode(b, OPTS).encode():
            return BROKEN, b"re-decoding the encoding differs"
        w = parts_disagree(m, v, b)
        if w:
            return BROKEN, w.encode()
        return OK, b
    if op == 2:
        kind, v = outcome(lambda: m.decode_message(data, OPTS))
        if kind == "err":
            return rejected(m, v)
        b = v.encode_message()
        ks, vs = outcome(lambda: m.MessageReader(io.BytesIO(data), options=OPTS).read_message())
        if ks != "ok" or vs.encode_message() != b:
            return BROKEN, b"the stream reader disagrees with decode_message"
        if v.encoded_message_size() != len(b):
            return BROKEN, b"encoded_message_size differs from the message's length"
        w = into_disagrees(v.encode_message_into, b)
        if w:
            return BROKEN, ("encode_message_into: " + w).encode()
        return OK, b
    if op == 3:
        (mx,) = struct.unpack_from("<I", data, 0)
        # The protocol's 0 is "no maximum".
        reader = m.MessageReader(io.BytesIO(data[4:]), max_size=mx or 0xFFFFFFFF, options=OPTS)
        out = io.BytesIO()
        writer = m.MessageWriter(out, max_size=mx or 0xFFFFFFFF)
        hello = False
        try:
            for v in reader:
                if reader.schema_checked and not hello:
                    writer.write_hello()  # the stream began with one: answer with ours
                    hello = True
                writer.write_message(v)
        except m.DecodeError as e:
            # The language's own text: "message <index> at stream offset
            # <start>: <rule> at offset <offset - start> in <path>: <message>".
            where = " in " + e.path if e.path else ""
            want = "message %d at stream offset %d: %s at offset %d%s: %s" % (e.index, e.start, e.rule, e.offset - e.start, where, e.msg)
            if str(e) != want:
                return BROKEN, ("str(e) does not have the layout of its fields: " + str(e)).encode()
            return REJECTED, str(e).encode()
        if reader.schema_checked and not hello:
            writer.write_hello()
        return OK, out.getvalue()
    if op == 4:
        return stream_all(m, data)
    return BROKEN, b"unknown op"


def stream_all(m, data):
    """OpStreamAll: the stream read to its end with MessageReader.read_message(),
    going on after every skippable error and reading once more after one
    that ends the stream; the error lines, then what MessageWriter wrote."""
    (mx,) = struct.unpack_from("<I", data, 0)
    reader = m.MessageReader(io.BytesIO(data[4:]), max_size=mx or 0xFFFFFFFF, options=OPTS)
    out = io.BytesIO()
    writer = m.MessageWriter(out, max_size=mx or 0xFFFFFFFF)
    lines = []
    hello = False

    def line(e):
        if not isinstance(e, m.DecodeError):
            raise e
        lines.append("%s %d %d %d\n" % (e.rule, e.index, e.offset, 1 if e.skippable else 0))

    while True:
        try:
            v = reader.read_message()
        except m.DecodeError as e:
            if reader.schema_checked and not hello:
                writer.write_hello()
                hello = True
            line(e)
            if e.skippable:
                continue
            # The stream ends here: a second read must repeat the error.
            try:
                again = reader.read_message()
                lines.append("end\n" if again is None else "message\n")
            except m.DecodeError as e2:
                line(e2)
            break
        if reader.schema_checked and not hello:
            writer.write_hello()  # the stream began with one: answer with ours
            hello = True
        if v is None:
            break
        writer.write_message(v)
    text = "".join(lines).encode()
    return OK, struct.pack("<I", len(text)) + text + out.getvalue()


if __name__ == "__main__":
    main()
