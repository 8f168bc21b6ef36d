"""Differential fuzzing of a package's C accelerator against its pure Python code.

Usage: python3 fuzz.py DIR MODULE VECTORS SEED N

Imports MODULE from DIR twice: as it is (the C accelerator, which must be
loaded) and, with SDP_PURE_PYTHON=1, under another name (pure Python).
VECTORS holds inputs (u8 op, u16 type id, u32 length, the bytes; op 1: a
struct's encoding, op 2: a message), the seeds of N mutated inputs (bit
flips, cut, grown, overwritten counts and lengths, spliced). Every input is
decoded by both, with the default options and with small depth and memory
limits; both must reject it with the same rule, offset and path, or accept
it and encode it back to the same bytes. Prints the first disagreement and
exits 1.
"""

import importlib
import importlib.util
import os
import random
import struct
import sys


def load(dir_, name):
    sys.path.insert(0, dir_)
    c = importlib.import_module(name)
    if c.IMPLEMENTATION != "c":
        raise SystemExit(name + ": the C accelerator is not loaded")
    os.environ["SDP_PURE_PYTHON"] = "1"
    try:
        spec = importlib.util.spec_from_file_location("sdp_pure_" + name, os.path.join(dir_, name, "__init__.py"),
                                                      submodule_search_locations=[os.path.join(dir_, name)])
        py = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = py
        spec.loader.exec_module(py)
    finally:
        del os.environ["SDP_PURE_PYTHON"]
    if py.IMPLEMENTATION != "python":
        raise SystemExit(name + ": the pure Python copy runs " + py.IMPLEMENTATION)
    return c, py


def vectors(path):
    out = []
    with open(path, "rb") as f:
        data = f.read()
    p = 0
    while p < len(data):
        op, tid, n = struct.unpack_from("<BHI", data, p)
        p += 7
        out.append((op, tid, data[p:p + n]))
        p += n
    return out


def outcome(m, op, tid, data, opts):
    try:
        if op == 1:
            v = m.MESSAGE_TYPES[tid].decode(data, opts)
            return ("ok", v.encode())
        v = m.decode_message(data, opts)
        return ("ok", v.encode_message())
    except m.DecodeError as e:
        return ("err", (e.rule, e.offset, e.path))


def mutate(rng, data, pool):
    b = bytearray(data)
    k = rng.randrange(8)
    if k == 0 and b:
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    elif k == 1 and b:
        del b[rng.randrange(len(b)):]
    elif k == 2:
        i = rng.randrange(len(b) + 1)
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    elif k == 3 and len(b) >= 4:
        i = rng.randrange(len(b) - 3)
        b[i:i + 4] = struct.pack("<I", rng.choice([0, 1, 2, 0x7F, 0xFFFF, 0x40000001, 0x7FFFFFFF, 0xFFFFFFFF, len(b)]))
    elif k == 4 and b:
        i = rng.randrange(len(b))
        b[i] = rng.choice([0, 1, 2, 0x7F, 0x80, 0xFF])
    elif k == 5 and pool:
        other = rng.choice(pool)[2]
        i, j = rng.randrange(len(b) + 1), rng.randrange(len(other) + 1)
        b = b[:i] + other[j:]
    elif k == 6 and len(b) > 1:
        i = rng.randrange(len(b))
        j = rng.randrange(i, len(b))
        b[j:j] = b[i:j]
    else:
        for _ in range(rng.randrange(1, 4)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def main():
    dir_, name, path, seed, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    c, py = load(dir_, name)
    pool = vectors(path)
    if not pool:
        return
    rng = random.Random(seed)
    optsets = [(None, None), (c.DecodeOptions(max_depth=3), py.DecodeOptions(max_depth=3)),
               (c.DecodeOptions(memory_limit=64), py.DecodeOptions(memory_limit=64))]
    inputs = [(op, tid, data) for op, tid, data in pool]
    for _ in range(n):
        op, tid, data = rng.choice(pool)
        inputs.append((op, tid, mutate(rng, data, pool)))
    for op, tid, data in inputs:
        for oc, op_ in optsets:
            got = outcome(c, op, tid, data, oc)
            want = outcome(py, op, tid, data, op_)
            if got != want:
                print("%s: op %d type %d input %s: C %r, pure Python %r" % (name, op, tid, data.hex(), got, want))
                sys.exit(1)


if __name__ == "__main__":
    main()
