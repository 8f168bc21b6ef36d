"""The invalid-value program of gen/python's TestUnencodable.

Usage: python3 unencodable.py DIR MODULE CASES: imports MODULE from DIR
and, for each case of CASES (JSON: name, base in hex, target steps, change,
n), decodes the base Box, makes the change in Python and calls every encode
API. It prints "implementation <c or python>", then per case and API a line
"<case>\t<api>\t<rule>\t<path>\t<text>", or "<case>\t<api>\tencoded\t\t"
when the API did not refuse the value. An API that raises anything but an
EncodeError, or writes something while refusing, fails the program.
"""

import importlib
import io
import json
import sys

APIS = ("encoded_size", "encode", "encode_into", "encoded_message_size", "encode_message", "encode_message_into", "MessageWriter.write_message")


def change(old, kind, n):
    """The changed value of a case."""
    if kind == "enum":
        return n
    if kind in ("no_variant", "null"):
        return None
    if kind == "bad_utf8":
        return "a\ud800b"
    if kind == "length":
        # The first n elements, or all then copies of the last one; of the
        # container's own type (bytes, array.array, list).
        out = old[:n]
        while len(out) < n:
            out = out + old[-1:]
        return out
    if kind == "range":
        return n
    if kind == "wrong_type":
        return 3
    raise SystemExit("unknown change " + kind)


def get(v, st):
    return getattr(v, st["field"]) if "field" in st else v[st["index"]]


def put(v, st, x):
    if "field" in st:
        setattr(v, st["field"], x)
    else:
        v[st["index"]] = x


def apply(root, target, kind, n):
    """Makes the change at target. An element is changed in a list: a
    bytes or array.array that holds it is replaced by a list first (they
    cannot hold a value out of their range)."""
    holders = [root]
    for st in target[:-1]:
        holders.append(get(holders[-1], st))
    for i in range(1, len(holders)):
        st = target[i - 1]
        if "field" not in target[i] and not isinstance(holders[i], list):
            holders[i] = list(holders[i])
            put(holders[i - 1], st, holders[i])
    last = target[-1]
    put(holders[-1], last, change(get(holders[-1], last), kind, n))


def main():
    sys.path.insert(0, sys.argv[1])
    m = importlib.import_module(sys.argv[2])
    with open(sys.argv[3], encoding="utf-8") as f:
        cases = json.load(f)
    print("implementation " + m.IMPLEMENTATION)
    for c in cases:
        v = m.Box.decode(bytes.fromhex(c["base"]))
        apply(v, c["target"], c["change"], c["n"])
        for api in APIS:
            buf = bytearray(b"\xaa" * 4096)
            out = io.BytesIO()
            calls = {
                "encoded_size": v.encoded_size,
                "encode": v.encode,
                "encode_into": lambda: v.encode_into(buf, 3),
                "encoded_message_size": v.encoded_message_size,
                "encode_message": v.encode_message,
                "encode_message_into": lambda: v.encode_message_into(buf, 3),
                "MessageWriter.write_message": lambda: m.MessageWriter(out).write_message(v),
            }
            try:
                calls[api]()
            except m.EncodeError as e:
                if buf != bytearray(b"\xaa" * 4096) or out.getvalue():
                    raise SystemExit(c["name"] + ": " + api + " wrote something while refusing the value")
                if str(e) != (e.rule + " in " + e.path + ": " + e.msg if e.path else e.rule + ": " + e.msg):
                    raise SystemExit(c["name"] + ": " + api + ": str(e) is not \"<rule> in <path>: <message>\": " + str(e))
                print("\t".join((c["name"], api, e.rule, e.path, str(e))))
                continue
            print("\t".join((c["name"], api, "encoded", "", "")))


if __name__ == "__main__":
    main()
