"""The Python code sdp generates, on the audio plugin registry: builds a
registry, encodes it, decodes it back, shows a rejected input, streams a few
messages, and prints the sizes.

    python3 examples/python/main.py
    python3 examples/python/main.py registry.sdpb   # decode a file made elsewhere

The package registry/ is generated from registry.sdp:

    go run ./cmd/sdp gen --lang python --out examples/python/registry examples/python/registry.sdp

(go test ./gen/python checks that it is up to date and runs this example).
Only the standard library is needed; `pip install examples/python/registry`
installs the package, here it is imported from the directory. pip builds
the package's C accelerator where a C compiler and Python's headers are
present; imported from the directory it runs pure Python, unless the
accelerator was built in place (python3 setup.py build_ext --inplace in
registry/). The first line printed says which runs (r.IMPLEMENTATION).
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "registry"))

import registry as r


def f32(x: float) -> float:
    """x rounded to the nearest f32, as the wire keeps it."""
    v: float = struct.unpack("<f", struct.pack("<f", x))[0]
    return v


def build_registry(plugins: int) -> r.PluginRegistry:
    """A deterministic registry that looks like a real scan."""
    kinds = ["aufx", "aumu", "aumf", "auou"]
    vendors = ["Appl", "FabF", "Valh", "SoTo", "NatI", "UADx"]
    names = ["Gain", "Frequency", "Resonance", "Attack", "Release", "Mix", "Drive", "Threshold", "Ratio", "Decay"]
    units = ["dB", "Hz", "%", "ms", ""]
    seed = 1

    def next_() -> int:  # a small LCG keeps the data reproducible
        nonlocal seed
        seed = (seed * 1664525 + 1013904223) & 0xFFFFFFFF
        return seed >> 8

    reg = r.PluginRegistry()
    for i in range(plugins):
        p = r.Plugin(
            name=f"{vendors[i % len(vendors)]} {names[i % len(names)]} {i}",
            manufacturer_id=vendors[i % len(vendors)],
            component_type=kinds[i % len(kinds)],
            component_subtype=f"p{i:03d}",
        )
        for j in range(10 + next_() % 40):
            name = names[next_() % len(names)]
            lo = -float(next_() % 100)
            hi = float(next_() % 20000) + 1
            p.parameters.append(r.Parameter(
                address=i << 32 | j,
                display_name=f"{name} {j + 1}",
                identifier=f"param.{i}.{j}",
                unit=units[next_() % len(units)],
                min_value=lo,
                max_value=hi,
                default_value=f32((lo + hi) / 2),
                current_value=f32(lo + (next_() % 1000) / 1000 * (hi - lo)),
                raw_flags=next_(),
                is_writable=next_() % 4 != 0,
                can_ramp=next_() % 2 == 0,
            ))
        reg.total_parameter_count += len(p.parameters)
        reg.plugins.append(p)
    reg.total_plugin_count = len(reg.plugins)
    return reg


def run(out: io.TextIOBase | None = None) -> None:
    w = out or sys.stdout
    # "c" when the package's C accelerator is loaded, else "python" (also
    # with SDP_PURE_PYTHON=1 in the environment).
    print(f"runs:      {r.IMPLEMENTATION}", file=w)
    reg = build_registry(62)
    print(f"registry:  {reg.total_plugin_count} plugins, {reg.total_parameter_count} parameters", file=w)

    # Encode: bytes; encoded_size() computes the length without encoding.
    data = reg.encode()
    print(f"binary:    {len(data)} bytes (encoded_size {reg.encoded_size()})", file=w)
    print(f"JSON:      {len(json.dumps(_plain(reg)).encode())} bytes (json.dumps, for comparison)", file=w)

    # Decode: strict, safe on untrusted input; errors are registry.DecodeError.
    back = r.PluginRegistry.decode(data)
    if back != reg:
        raise SystemExit("the decoded registry differs from the original")
    n = sum(len(p.parameters) for p in back.plugins)
    print(f"decoded:   {len(back.plugins)} plugins, {n} parameters, equal to the original", file=w)

    # A damaged copy is rejected with the rule it breaks, the offset and the field.
    try:
        r.PluginRegistry.decode(data[:-3])
        raise SystemExit("a truncated registry decoded")
    except r.DecodeError as e:
        print(f"truncated: {e} (rule {e.rule})", file=w)

    # Into a buffer the caller keeps (a bytearray, a memoryview, an mmap).
    buf = bytearray(reg.encoded_size() + 16)
    k = reg.encode_into(buf, 16)
    print(f"into:      {k} bytes at offset 16 of a {len(buf)}-byte bytearray", file=w)

    # Messages: a 10-byte header names the type, so a reader can dispatch.
    stream = io.BytesIO()
    writer = r.MessageWriter(stream)
    writer.write_hello()  # the schema's fingerprints: a reader of another version refuses the stream
    for m in (reg, reg.plugins[0], reg.plugins[0].parameters[0]):
        writer.write_message(m)
    print(f"stream:    {len(stream.getvalue())} bytes, a hello and 3 messages", file=w)
    stream.seek(0)
    reader = r.MessageReader(stream, max_size=1 << 20)  # refuse a message above 1 MiB before reading it
    for m in reader:
        if isinstance(m, r.PluginRegistry):
            print(f"  read a PluginRegistry with {len(m.plugins)} plugins", file=w)
        elif isinstance(m, r.Plugin):
            print(f"  read a Plugin: {m.name} ({len(m.parameters)} parameters)", file=w)
        elif isinstance(m, r.Parameter):
            print(f"  read a Parameter: {m.display_name} [{m.min_value:g}, {m.max_value:g}] {m.unit}", file=w)
    print(f"schema:    checked against the hello: {reader.schema_checked}", file=w)


def _plain(v: object) -> object:
    """A value as JSON-ready dicts and lists."""
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if hasattr(v, "__dataclass_fields__"):
        return {k: _plain(getattr(v, k)) for k in v.__dataclass_fields__}
    return v


def decode_file(path: str) -> None:
    """Decodes a PluginRegistry written by any SDP implementation (`sdp
    encode`, another language's generated code), prints what it holds, and
    checks that re-encoding reproduces the file byte for byte."""
    with open(path, "rb") as f:
        data = f.read()
    reg = r.PluginRegistry.decode(data)
    print(f"decoded:   {path}: {len(reg.plugins)} plugins, {sum(len(p.parameters) for p in reg.plugins)} parameters")
    if reg.plugins and reg.plugins[0].parameters:
        p, q = reg.plugins[0], reg.plugins[0].parameters[0]
        print(f"first:     {p.name} by {p.manufacturer_id}, parameter {q.display_name!r} [{q.min_value:g}, {q.max_value:g}] {q.unit}")
    if reg.encode() != data:
        raise SystemExit(f"re-encoding {path} gave different bytes")
    print(f"encoded:   {len(data)} bytes again, identical to the file")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        try:
            decode_file(sys.argv[1])
        except r.DecodeError as e:
            raise SystemExit(f"example: {e}") from None
    else:
        run()
