"""Checks that the C accelerator leaks no memory and no references.

Usage: python3 leaks.py DIR MODULE VECTORS N

Decodes the inputs of VECTORS (fuzz.py's format) round and round, N decodes
in all (with the default options, small depth and memory limits, and
decode_prefix), encoding every value that decodes (encode, encode_message)
and encoding values that cannot be encoded; then the memory tracemalloc
traces must not have grown, nor the reference counts of the classes and
enum members (every instance holds a reference to its class).
"""

import dataclasses
import enum
import gc
import importlib
import struct
import sys
import tracemalloc


def main():
    dir_, name, path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sys.path.insert(0, dir_)
    m = importlib.import_module(name)
    if m.IMPLEMENTATION != "c":
        raise SystemExit(name + ": the C accelerator is not loaded")
    with open(path, "rb") as f:
        data = f.read()
    pool = []
    p = 0
    while p < len(data):
        op, tid, k = struct.unpack_from("<BHI", data, p)
        p += 7
        pool.append((op, tid, data[p:p + k]))
        p += k
    if not pool:
        return
    opts = [None, m.DecodeOptions(max_depth=3), m.DecodeOptions(memory_limit=64)]
    watched = [c for c in vars(m).values() if isinstance(c, type) and c.__module__ == m.__name__]
    for c in list(watched):
        if issubclass(c, enum.Enum):
            watched.extend(c)

    def run(count):
        done = 0
        while done < count:
            for op, tid, b in pool:
                for o in opts:
                    try:
                        if op == 1:
                            cls = m.MESSAGE_TYPES[tid]
                            v = cls.decode(b, o)
                            cls.decode_prefix(b, o)
                            v.encode()
                            v.encode_message()
                        else:
                            m.decode_message(b, o).encode()
                    except m.DecodeError:
                        pass
                    done += 1
            for cls in m.MESSAGE_TYPES.values():
                for bad in (cls(), object(), None):
                    for attr in ("encode", "encode_message"):
                        try:
                            getattr(cls, attr)(bad)
                        except (m.EncodeError, TypeError):
                            pass
                x = cls()
                for f in dataclasses.fields(cls):
                    try:
                        setattr(x, f.name, "\udc80")
                        x.encode()
                    except m.EncodeError:
                        pass

    run(len(pool) * len(opts) * 2)  # warm up: caches, interned strings
    gc.collect()
    refs = [sys.getrefcount(c) for c in watched]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run(n)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    snap = tracemalloc.take_snapshot()
    tracemalloc.stop()
    now = [sys.getrefcount(c) for c in watched]
    grew = [(c, r, k) for c, r, k in zip(watched, refs, now) if k != r]
    if after - before > 64 * 1024 or grew:
        print("%s: traced memory %d -> %d bytes over %d decodes; references grew: %r" % (name, before, after, n, grew))
        for s in snap.statistics("lineno")[:10]:
            print(s)
        sys.exit(1)


if __name__ == "__main__":
    main()
