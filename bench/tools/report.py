#!/usr/bin/env python3
"""Merges the harnesses' results (bench/build/results/<lang>.json and
bench/build/gaps/<lang>.tsv) into one run file
(<json-dir>/<date>-<host>.json) and renders the report (RESULTS.md) and SVG
charts from it. Standard library only. Every number it prints comes from
that run file."""

import argparse
import datetime
import glob
import html
import json
import math
import os
import platform
import socket
import statistics
import subprocess
import sys

OPS = ["encode", "encode_reuse", "decode", "decode_reuse", "decode_view", "decode_read", "roundtrip", "roundtrip_reuse",
       "msg_encode", "msg_decode", "copy"]
OP_TITLES = {
    "encode": "encode",
    "encode_reuse": "encode (reused buffer)",
    "decode": "decode (owned)",
    "decode_reuse": "decode (into existing value)",
    "decode_view": "decode (view)",
    "roundtrip": "roundtrip",
    "msg_encode": "message encode",
    "msg_decode": "message decode (dispatch)",
    "roundtrip_reuse": "roundtrip (reused buffer, into existing value)",
    "decode_read": "decode + read every field",
    "copy": "copy (floor)",
}
LANG_TITLES = {"c": "C", "cpp": "C++", "cppclang": "C++ (clang)", "go": "Go", "rust": "Rust", "swift": "Swift",
               "swiftcxx": "Swift (C++ interop)", "python": "Python", "ts": "TypeScript/JS (Node)",
               "tschromium": "TypeScript/JS (Chromium)"}
SDP_IMPLS = ("sdp", "sdp_view", "sdp_cxx_interop", "sdp_numpy", "sdp_c", "sdp_c_numpy")


def sh(*cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        out = (p.stdout or p.stderr).strip().splitlines()
        return out[0] if out else ""
    except Exception:
        return ""


def machine_info():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    load = ""
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        pass
    osname = ""
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    osname = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return {
        "host": socket.gethostname(),
        "os": osname,
        "kernel": platform.release(),
        "arch": platform.machine(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "load_average_at_report": load,
    }


def libc_note(build):
    """What bench/run set about glibc's memcpy (bench/README.md, "memcpy on AMD")."""
    try:
        with open(os.path.join(build, "libc.txt")) as f:
            return f.read().strip()
    except OSError:
        return ""


def toolchains():
    return {
        "go": sh("go", "version"),
        "gcc": sh("gcc", "--version"),
        "g++": sh("g++", "--version"),
        "rustc": sh("rustc", "--version"),
        "swift": sh("swift", "--version"),
        "protoc": sh("protoc", "--version"),
        "flatc": sh("flatc", "--version"),
        "capnp": sh("capnp", "--version"),
    }


def read_workloads(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, schema, typ, doc, kind = line.rstrip("\n").split("\t")
            rows.append(dict(name=name, schema=schema, type=typ, doc=doc, kind=kind))
    return rows


def merge(build, workloads, quick):
    results, gaps, langs = [], [], {}
    for path in sorted(glob.glob(os.path.join(build, "results", "*.json"))):
        with open(path) as f:
            d = json.load(f)
        lang = d["language"]
        langs[lang] = d.get("toolchain", "")
        for r in d.get("results") or []:
            r["lang"] = lang
            results.append(r)
        for g in d.get("gaps") or []:
            g["lang"] = lang
            gaps.append(g)
    for path in sorted(glob.glob(os.path.join(build, "gaps", "*.tsv"))):
        lang = os.path.basename(path)[:-4]
        with open(path) as f:
            for line in f:
                if line.strip():
                    impl, reason = line.rstrip("\n").split("\t", 1)
                    g = dict(lang=lang, impl=impl, reason=reason)
                    if g not in gaps:
                        gaps.append(g)
    sizes = {}
    for w in workloads:
        p = os.path.join(build, "data", w["name"] + ".sdpb")
        if os.path.exists(p):
            sizes[w["name"]] = os.path.getsize(p)
    paired = []
    for path in sorted(glob.glob(os.path.join(build, "paired", "*.json"))):
        lang, n = os.path.basename(path)[:-5].rsplit("-", 1)
        with open(path) as f:
            d = json.load(f)
        for r in d.get("results") or []:
            paired.append(dict(lang=lang, pair=int(n), impl=r["impl"], workload=r["workload"], op=r["op"],
                               median_ns=r["median_ns"]))
    commit = sh("git", "-C", os.path.dirname(build), "rev-parse", "--short", "HEAD")
    now = datetime.datetime.now(datetime.timezone.utc)
    return {
        "date": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "quick": quick,
        "method": ("each benchmark once, cold" if quick else
                   "process CPU time (CLOCK_PROCESS_CPUTIME_ID); median, min and max of 11 runs of ~5 ms "
                   "(3 runs above 50 ms per op; one call after warm-up above 0.5 s)"),
        "git_commit": commit,
        "machine": machine_info(),
        "libc": libc_note(build),
        "toolchains": toolchains(),
        "harness_toolchains": langs,
        "workloads": [dict(w, sdpb_bytes=sizes.get(w["name"])) for w in workloads],
        "results": results,
        "paired": paired,
        "gaps": gaps,
    }


# ---- formatting ------------------------------------------------------------

def fmt_ns(ns):
    if ns is None:
        return ""
    if ns < 1000:
        return f"{ns:.0f} ns" if ns >= 10 else f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.3g} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.3g} ms"
    return f"{ns / 1e9:.3g} s"


def fmt_cell(r):
    s = fmt_ns(r["median_ns"])
    if r.get("runs", 1) > 1 and r["median_ns"] > 0:
        lo = (r["min_ns"] / r["median_ns"] - 1) * 100
        hi = (r["max_ns"] / r["median_ns"] - 1) * 100
        s += f" <sub>{lo:+.0f}/{hi:+.0f}%</sub>"
    return s


def fmt_ratio(x):
    if x is None:
        return ""
    if x >= 1:
        return f"{x:.2g}× faster" if x < 10 else f"{x:.0f}× faster"
    return f"{1 / x:.2g}× slower" if 1 / x < 10 else f"{1 / x:.0f}× slower"


def fmt_times(x):
    return f"{x:.2g}×" if x < 10 else f"{x:.0f}×"


def fmt_bytes(n):
    return f"{n:,}" if n is not None else ""


def fmt_allocs(a):
    if a is None or a < 0:
        return "–"
    return f"{a:.0f}" if abs(a - round(a)) < 0.05 else f"{a:.1f}"


def row_name(lang, impl):
    names = {
        "sdp": "SDP", "sdp_view": "SDP (views)", "sdp_cxx_interop": "SDP C++ via Swift interop",
        "protobuf": "Protocol Buffers", "prost": "prost (protobuf)", "flatbuffers": "FlatBuffers",
        "capnp": "Cap'n Proto", "msgpack": "MessagePack", "bincode": "bincode + serde",
        "json": "JSONEncoder/Decoder (Codable)", "plist": "PropertyListEncoder binary (Codable)",
        "memcpy": "memcpy (floor)", "new_array": "new array + copy (floor)",
        "copy_floor": "copy() into a slice made once (floor)",
        "offset_writer": "hand-written offset writer, no UTF-8 check (floor)",
        "alloc_floor": "the allocations of an owned decode, no decoding (floor)",
        "sdp_numpy": "SDP (numpy=True views)",
        "sdp_c": "SDP, C accelerator", "sdp_c_numpy": "SDP, C accelerator (numpy=True views)",
        "msgspec": "msgspec (MessagePack, typed Structs)",
        "numpy_frombuffer": "numpy.frombuffer (floor)", "numpy_tobytes": "ndarray.tobytes() (floor)",
        "frombuffer_value": "the count and its check, numpy.frombuffer and the value's constructor (floor)",
        "read_floor": "read every field and str.encode every string, nothing written (floor)",
        "json_js": "JSON.stringify + TextEncoder / TextDecoder + JSON.parse", "cbor": "CBOR (node-cbor)",
        "slice": "Uint8Array.prototype.slice (floor)", "set": "Uint8Array.prototype.set into a kept buffer (floor)",
    }
    return f"{LANG_TITLES.get(lang, lang)} · {names.get(impl, impl)}"


FLOOR_IMPLS = ("memcpy", "new_array", "copy_floor", "offset_writer", "alloc_floor", "numpy_frombuffer", "numpy_tobytes",
               "frombuffer_value", "read_floor", "slice", "set")


def is_peer(impl):
    return impl not in SDP_IMPLS and impl not in FLOOR_IMPLS


def index(run):
    by = {}
    for r in run["results"]:
        by.setdefault(r["workload"], {}).setdefault((r["lang"], r["impl"]), {})[r["op"]] = r
    return by


def best_peer(rows, lang, op):
    best = None
    for (l, impl), ops in rows.items():
        if l == lang and is_peer(impl) and op in ops:
            if best is None or ops[op]["median_ns"] < best[1]["median_ns"]:
                best = (impl, ops[op])
    return best


def memcpy_ns(rows):
    for (l, impl), ops in rows.items():
        if impl == "memcpy" and "copy" in ops:
            return ops["copy"]["median_ns"]
    return None


def swift_rust_pairs(run):
    """(workload, op) -> [(swift ns, rust ns)] over the paired runs that
    measured both; op "copy" is the new-array floor."""
    by = {}
    for r in run.get("paired") or []:
        if r.get("impl", "sdp") == "sdp" or (r.get("impl") == "new_array" and r["op"] == "copy"):
            by.setdefault((r["workload"], r["op"], r["pair"]), {})[r["lang"]] = r["median_ns"]
    out = {}
    for (w, op, _), v in sorted(by.items()):
        if "swift" in v and "rust" in v:
            out.setdefault((w, op), []).append((v["swift"], v["rust"]))
    return out


def render_md(run, charts_rel):
    by = index(run)
    m = run["machine"]
    out = []
    p = out.append
    p("# SDP benchmark results")
    p("")
    p("Generated by `bench/run` (bench/tools/report.py) from "
      f"`{run.get('file', '')}`. Do not edit: rerun the suite.")
    p("")
    p("## Conditions")
    p("")
    p(f"- Date (UTC): {run['date']}; git commit {run['git_commit'] or 'unknown'}"
      + ("; **quick mode: each benchmark ran once, cold, to prove the suite builds and runs; these numbers are not measurements**" if run["quick"] else ""))
    p(f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}, {m['os']} ({m['kernel']}, {m['arch']}); "
      f"load average when the report was written: {m['load_average_at_report']}")
    if run.get("libc"):
        p(f"- {run['libc']}: bench/README.md, \"memcpy on AMD\".")
    p("- A shared virtual machine: other processes (including other builds) may have run during the "
      "measurement, so treat differences under ~10% as noise. Times are the process's CPU time "
      "(user + system, all threads: `CLOCK_PROCESS_CPUTIME_ID`), which leaves out time spent waiting for a CPU. "
      "Each cell is the median of "
      "repeated timed runs (11 runs, each calibrated to ~5 ms); the small numbers are the fastest and slowest "
      "run relative to the median.")
    for note in run.get("merged") or []:
        p(f"- {note}")
    tc = run["toolchains"]
    p("- Toolchains: " + "; ".join(f"{k}: `{v}`" for k, v in tc.items() if v))
    p("- Release builds: Go `go build`; C/C++ `-O2`; Rust `cargo build --release`; Swift `swiftc -O`. "
      "All implementations of a language run in the same process, on the same data: the workload's "
      "JSON document (from `conformance/datagen`) encoded once by `sdp encode`. SDP decodes those .sdpb "
      "bytes; peers are filled from the same JSON document with their own JSON reader.")
    p("- Operations: *encode* builds the wire bytes from native values into a fresh buffer (including size "
      "computation); *encode (reused buffer)* appends into a buffer kept between iterations; *decode* "
      "produces owned native values; *decode (into existing value)* decodes into the value the previous "
      "iteration decoded, reusing its strings, arrays and boxes (peers: protobuf parsing into a cleared "
      "message, prost `clear` + `merge`); *decode (view)* builds a zero-copy accessor and reads every field; "
      "*roundtrip* is encode then decode. Allocations are per operation, counted by the language "
      "(Go `testing.AllocsPerRun`, counting malloc in C/C++, a counting global allocator in Rust); "
      "– where not countable.")
    p("- Ratios: *vs best peer* compares with the fastest non-SDP serializer of the same language on the same "
      "operation (higher is better for SDP); *vs memcpy* divides by the C `memcpy` of the same number of "
      "bytes (1.0 = as fast as copying the wire bytes).")
    p("")
    gaps = run["gaps"]
    if gaps:
        p("## Not measured")
        p("")
        p("| language | implementation | workload | reason |")
        p("|---|---|---|---|")
        for g in gaps:
            p(f"| {LANG_TITLES.get(g['lang'], g['lang'])} | {g['impl']} | {g.get('workload', '') or 'all'} | {g['reason']} |")
        p("")

    # Headline: the registry and the large arrays.
    p("## Headline")
    p("")
    if os.path.exists(os.path.join(run.get("charts_dir", ""), "registry.svg")):
        p(f"![plugin registry]({charts_rel}/registry.svg)")
        p("")
    p("SDP against the fastest peer serializer of the same language (median per operation; "
      "*decode* is the owned decode). For the arrays, the last column is SDP's decode time divided "
      "by a C `memcpy` of the same bytes (1.0 = as fast as copying).")
    p("")
    p("| workload | language | SDP encode | best peer encode | SDP decode | best peer decode | SDP decode / memcpy |")
    p("|---|---|---|---|---|---|---|")
    for w in ("registry", "f32_1m", "i16_48k", "u32_1k"):
        rows = by.get(w, {})
        for lang in ("c", "cpp", "cppclang", "go", "rust", "swift"):
            s = rows.get((lang, "sdp"))
            if not s:
                continue
            def pair(op):
                bp = best_peer(rows, lang, op)
                me = s.get(op)
                if not me:
                    return "", ""
                if not bp:
                    return fmt_ns(me["median_ns"]), ""
                return fmt_ns(me["median_ns"]), f"{fmt_ns(bp[1]['median_ns'])} ({bp[0]}; SDP {fmt_ratio(bp[1]['median_ns'] / me['median_ns'])})"
            e1, e2 = pair("encode")
            d1, d2 = pair("decode")
            mc = memcpy_ns(rows)
            vs = f"{s['decode']['median_ns'] / mc:.2f}" if mc and w != "registry" and "decode" in s else ""
            p(f"| {w} | {LANG_TITLES[lang]} | {e1} | {e2} | {d1} | {d2} | {vs} |")
    p("")

    # The targets, computed from this run (judged here, never asserted).
    p("## Targets")
    p("")
    p("From the issue: on the plugin registry SDP encodes ≥ 10× and decodes ≥ 4× faster than Protocol "
      "Buffers in Go, C++ and Rust; numeric arrays encode and decode within 1.5× of `memcpy` in every "
      "language; Swift within 2× of Rust on every workload. Ratios from this run (owned decode; "
      "encode into a fresh buffer):")
    p("")
    reg = by.get("registry", {})
    p("| registry, SDP vs Protocol Buffers | encode | decode |")
    p("|---|---|---|")
    for lang, pb_impl in (("go", "protobuf"), ("cpp", "protobuf"), ("rust", "prost"), ("python", "protobuf")):
        sd, pb = reg.get((lang, "sdp"), {}), reg.get((lang, pb_impl), {})
        cells = []
        for op in ("encode", "decode"):
            if op in sd and op in pb:
                cells.append(fmt_ratio(pb[op]['median_ns'] / sd[op]['median_ns']))
            else:
                cells.append("not measured")
        p(f"| {LANG_TITLES[lang]} | " + " | ".join(cells) + " |")
    p("")
    arrays = [w["name"] for w in run["workloads"] if w["kind"] == "array"]
    p("| SDP time / memcpy time | " + " | ".join(arrays) + " |")
    p("|---|" + "---|" * len(arrays))
    for lang in ("c", "cpp", "cppclang", "go", "rust", "swift"):
        cells = []
        for a in arrays:
            rows = by.get(a, {})
            mc, sd = memcpy_ns(rows), rows.get((lang, "sdp"), {})
            if mc and "encode" in sd and "decode" in sd:
                cells.append(f"enc {sd['encode']['median_ns'] / mc:.2f}, dec {sd['decode']['median_ns'] / mc:.2f}")
            else:
                cells.append("not measured")
        p(f"| {LANG_TITLES[lang]} | " + " | ".join(cells) + " |")
    p("")
    reuse_targets(p, by, arrays)
    go_floors(p, by)
    leaderboards(p, by)
    python_targets(p, by)
    ts_targets(p, by)
    paired = swift_rust_pairs(run)
    if paired:
        n = max(len(v) for v in paired.values())
        p(f"Swift against Rust, side by side: the two harnesses (SDP and the new-array floor only) ran "
          f"alternately {n} times, so that each pair saw the same state of the machine, whose speed drifts "
          "by 10-50% over minutes (the full run above is one process per language). Each pair gives a ratio, "
          "Swift time / Rust time (below 1: Swift is faster); the table gives the median ratio, its range "
          "over the pairs, and the median times. The *floor* is allocating a new array of the encoding's "
          "size, copying the wire bytes into it and releasing it (`[UInt8](UnsafeRawBufferPointer)` in Swift, "
          "`to_vec()` in Rust): no encoder that returns a fresh array can be faster.")
        p("")
        p("| workload | encode: Swift / Rust | range | Swift | Rust | decode: Swift / Rust | range | Swift | Rust "
          "| floor: Swift / Rust | Swift floor | Rust floor |")
        p("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for w in run["workloads"]:
            cells = []
            for op in ("encode", "decode", "copy"):
                v = paired.get((w["name"], op))
                if not v:
                    cells += ["not measured", "", ""] + ([""] if op != "copy" else [])
                    continue
                ratios = sorted(sw / rs for sw, rs in v)
                cells.append(f"{statistics.median(ratios):.2f}")
                if op != "copy":
                    cells.append(f"{ratios[0]:.2f}-{ratios[-1]:.2f}")
                cells += [fmt_ns(statistics.median(sw for sw, _ in v)), fmt_ns(statistics.median(rs for _, rs in v))]
            p(f"| {w['name']} | " + " | ".join(cells) + " |")
    else:
        p("| Swift SDP time / Rust SDP time (this run) | encode | decode |")
        p("|---|---|---|")
        for w in run["workloads"]:
            rows = by.get(w["name"], {})
            sw, rs = rows.get(("swift", "sdp"), {}), rows.get(("rust", "sdp"), {})
            cells = []
            for op in ("encode", "decode"):
                cells.append(f"{sw[op]['median_ns'] / rs[op]['median_ns']:.2f}" if op in sw and op in rs else "not measured")
            p(f"| {w['name']} | " + " | ".join(cells) + " |")
    p("")

    interop = [(w["name"], by[w["name"]]) for w in run["workloads"]
               if ("swift", "sdp_cxx_interop") in by.get(w["name"], {}) and ("swift", "sdp") in by[w["name"]]]
    if interop:
        p("## Swift: the pure-Swift backend vs the C++ backend through Swift's C++ interoperability")
        p("")
        p("Both produce and consume Swift values: the interop rows include converting the C++ values "
          "(std::string, std::vector) to Swift types and back, which is what a Swift program calling the "
          "C++ backend has to do.")
        p("")
        p("| workload | pure Swift encode | via C++ interop encode | pure Swift decode | via C++ interop decode |")
        p("|---|---|---|---|---|")
        for name, rows in interop:
            a, b = rows[("swift", "sdp")], rows[("swift", "sdp_cxx_interop")]
            cells = []
            for op in ("encode", "decode"):
                x, y = a.get(op), b.get(op)
                cells.append(fmt_ns(x["median_ns"]) if x else "")
                cells.append(f"{fmt_ns(y['median_ns'])} ({fmt_times(y['median_ns'] / x['median_ns'])} the time)" if x and y else "")
            p(f"| {name} | " + " | ".join(cells) + " |")
        p("")

    ipc_section(p, run)

    for w in run["workloads"]:
        name = w["name"]
        rows = by.get(name)
        p(f"## {name}: `{w['schema']}.sdp` {w['type']}")
        p("")
        if w.get("sdpb_bytes") is not None:
            p(f"SDP wire size: {w['sdpb_bytes']:,} bytes.")
            p("")
        if not rows:
            p("No results.")
            p("")
            continue
        ops = [o for o in OPS if any(o in r for r in rows.values())]
        large = w["kind"] == "array" and (w.get("sdpb_bytes") or 0) >= 4096
        mc = memcpy_ns(rows) if w["kind"] == "array" else None
        head = ["implementation", "wire bytes"] + [OP_TITLES[o] for o in ops]
        if large:
            head += ["encode MB/s", "decode MB/s"]
        head += ["allocs enc/dec", "encode vs best peer", "decode vs best peer"]
        if mc:
            head += ["encode vs memcpy", "decode vs memcpy"]
        p("| " + " | ".join(head) + " |")
        p("|" + "---|" * len(head))
        def order(k):
            lang, impl = k
            return (0 if impl == "memcpy" else 1, lang, 0 if impl in SDP_IMPLS else 1 if impl in FLOOR_IMPLS else 2, impl)
        for key in sorted(rows, key=order):
            lang, impl = key
            ops_r = rows[key]
            any_r = next(iter(ops_r.values()))
            cells = [row_name(lang, impl), fmt_bytes(any_r.get("bytes"))]
            for o in ops:
                cells.append(fmt_cell(ops_r[o]) if o in ops_r else "")
            if large:
                for o in ("encode", "decode"):
                    r = ops_r.get(o) or (ops_r.get("copy") if impl in FLOOR_IMPLS else None)
                    cells.append(f"{r['bytes'] / r['median_ns'] * 1e3:,.0f}" if r and r["median_ns"] > 0 else "")
            ea = ops_r.get("encode", {}).get("allocs")
            da = (ops_r.get("decode") or ops_r.get("decode_view") or {}).get("allocs")
            if impl in FLOOR_IMPLS:
                cells.append(fmt_allocs(ops_r.get("copy", {}).get("allocs")))
            else:
                cells.append(f"{fmt_allocs(ea)} / {fmt_allocs(da)}")
            for o in ("encode", "decode"):
                me = ops_r.get(o) or (ops_r.get("decode_view") if o == "decode" else None)
                bp = best_peer(rows, lang, o)
                if me and bp and impl in SDP_IMPLS:
                    cells.append(fmt_ratio(bp[1]["median_ns"] / me["median_ns"]))
                else:
                    cells.append("")
            if mc:
                for o in ("encode", "decode"):
                    me = ops_r.get(o) or (ops_r.get("decode_view") if o == "decode" else None)
                    cells.append(f"{me['median_ns'] / mc:.2f}" if me and impl not in FLOOR_IMPLS else "")
            p("| " + " | ".join(cells) + " |")
        p("")
        if os.path.exists(os.path.join(run.get("charts_dir", ""), name + ".svg")):
            p(f"![{name}]({charts_rel}/{name}.svg)")
            p("")
    return "\n".join(out) + "\n"


# ---- charts ----------------------------------------------------------------

COLORS = {"encode": "#4e79a7", "decode": "#f28e2b"}


def render_svg(title, rows):
    """Horizontal bars, log scale: one group per implementation, an encode
    and a decode bar each (decode = owned decode, or the view decode when
    that is all an implementation has)."""
    items = []
    for (lang, impl), ops in rows.items():
        if impl in FLOOR_IMPLS:
            c = ops.get("copy")
            if c:
                items.append((row_name(lang, impl), c["median_ns"], c["median_ns"], True))
            continue
        e = ops.get("encode")
        d = ops.get("decode") or ops.get("decode_view")
        if e or d:
            items.append((row_name(lang, impl), e["median_ns"] if e else None, d["median_ns"] if d else None, False))
    if not items:
        return None
    items.sort(key=lambda it: (it[2] or it[1] or 0))
    vals = [v for it in items for v in it[1:3] if v]
    lo = 10 ** math.floor(math.log10(min(vals)))
    hi = 10 ** math.ceil(math.log10(max(vals)))
    if hi <= lo:
        hi = lo * 10
    label_w, plot_w, bar_h, gap, top = 300, 520, 11, 8, 48
    height = top + len(items) * (2 * bar_h + gap) + 40
    width = label_w + plot_w + 90

    def x(v):
        return label_w + plot_w * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="10" y="18" font-size="14" font-weight="bold">{html.escape(title)}</text>',
         f'<rect x="{label_w}" y="26" width="10" height="10" fill="{COLORS["encode"]}"/>'
         f'<text x="{label_w + 14}" y="35">encode</text>'
         f'<rect x="{label_w + 70}" y="26" width="10" height="10" fill="{COLORS["decode"]}"/>'
         f'<text x="{label_w + 84}" y="35">decode</text>'
         f'<text x="{label_w + 140}" y="35" fill="#555">median ns/op, log scale, shorter is faster</text>']
    d = lo
    while d <= hi * 1.0001:
        xx = x(d)
        s.append(f'<line x1="{xx:.1f}" y1="{top - 4}" x2="{xx:.1f}" y2="{height - 30}" stroke="#ddd"/>')
        s.append(f'<text x="{xx:.1f}" y="{height - 16}" text-anchor="middle" fill="#555">{fmt_ns(d)}</text>')
        d *= 10
    y = top
    for name, e, dd, is_floor in items:
        s.append(f'<text x="{label_w - 6}" y="{y + bar_h + 3}" text-anchor="end">{html.escape(name)}</text>')
        for k, v in (("encode", e), ("decode", dd)):
            if v:
                color = "#999" if is_floor else COLORS[k]
                s.append(f'<rect x="{label_w}" y="{y}" width="{max(x(v) - label_w, 1):.1f}" height="{bar_h - 1}" fill="{color}"/>')
                s.append(f'<text x="{x(v) + 4:.1f}" y="{y + bar_h - 2}" fill="#333">{fmt_ns(v)}</text>')
            y += bar_h
        y += gap
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--workloads", required=True)
    ap.add_argument("--json-dir", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--charts", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--from-json", help="render an existing run file instead of merging a new one")
    a = ap.parse_args()
    if a.from_json:
        with open(a.from_json) as f:
            run = json.load(f)
        path = a.from_json
    else:
        run = merge(a.build, read_workloads(a.workloads), a.quick)
        os.makedirs(a.json_dir, exist_ok=True)
        stamp = run["date"].replace(":", "").replace("-", "")
        path = os.path.join(a.json_dir, f"{stamp}-{run['machine']['host']}.json")
        with open(path, "w") as f:
            json.dump(run, f, indent=1)
            f.write("\n")
    md_dir = os.path.dirname(os.path.abspath(a.md))
    run["file"] = os.path.relpath(os.path.abspath(path), md_dir)
    os.makedirs(a.charts, exist_ok=True)
    run["charts_dir"] = a.charts
    meta = {w["name"]: w for w in run["workloads"]}
    for w, rows in index(run).items():
        m = meta.get(w, {})
        title = w
        if m:
            title = f"{w}: {m['schema']}.sdp {m['type']}"
            if m.get("sdpb_bytes") is not None:
                title += f", {m['sdpb_bytes']:,} bytes"
            title += " (decode: owned, or the view where a library has only views)"
        svg = render_svg(title, rows)
        if svg:
            with open(os.path.join(a.charts, w + ".svg"), "w") as f:
                f.write(svg)
    rel = os.path.relpath(os.path.abspath(a.charts), md_dir)
    with open(a.md, "w") as f:
        f.write(render_md(run, rel))
    print(f"report: {path}, {a.md}, {a.charts}/", file=sys.stderr)


def reuse_targets(p, by, arrays):
    """Decoding into an existing value (issues #17 and #21): the registry
    against the peers' reuse and owned decodes, the arrays against memcpy."""
    reg = by.get("registry", {})
    rows = []
    for lang in ("c", "cpp", "cppclang", "go", "rust", "swift"):
        sd = reg.get((lang, "sdp"), {})
        if "decode_reuse" not in sd:
            continue
        r = sd["decode_reuse"]
        peers = []
        for (l, impl), ops in sorted(reg.items()):
            if l != lang or not is_peer(impl):
                continue
            for op in ("decode_reuse", "decode"):
                if op in ops:
                    peers.append(f"{ops[op]['median_ns'] / r['median_ns']:.1f}× faster than {row_name(l, impl).split(' · ')[1]} "
                                 f"{'into a cleared/used message' if op == 'decode_reuse' else 'owned'}")
        owned = f"{sd['decode']['median_ns'] / r['median_ns']:.1f}×" if "decode" in sd else "–"
        cells = [fmt_ns(r["median_ns"]), fmt_allocs(r.get("allocs")), owned, "; ".join(peers) or "no peer"]
        arr = []
        for a in arrays:
            ar = by.get(a, {})
            mc, sa = memcpy_ns(ar), ar.get((lang, "sdp"), {})
            arr.append(f"{sa['decode_reuse']['median_ns'] / mc:.2f}" if mc and "decode_reuse" in sa else "–")
        rows.append((lang, cells, arr))
    if not rows:
        return
    p("Decoding into an existing value (issues #17 and #21: each iteration decodes into the value the previous "
      "one decoded, reusing its strings, arrays and boxes). Targets: zero allocations per registry decode in "
      "Rust, C++ and Swift; Rust ≥ 4× prost's owned decode and faster than prost's clear + merge; C++ ≥ 6× "
      "protobuf parsing into a cleared message; numeric arrays within 1.2× of `memcpy` (1.5× in Go) from "
      "1,000 elements up.")
    p("")
    p("| language | registry decode into existing | allocs | vs its owned decode | vs peers | "
      + " | ".join(f"{a} / memcpy" for a in arrays) + " |")
    p("|---|---|---|---|---|" + "---|" * len(arrays))
    for lang, cells, arr in rows:
        p(f"| {LANG_TITLES[lang]} | " + " | ".join(cells + arr) + " |")
    p("")
    go_copy_floor(p, by, arrays)


def go_copy_floor(p, by, arrays):
    """Go's decode into an existing value against Go's own copy() of the
    same bytes (issue #21): the C memcpy above is glibc's, which Go's
    runtime memmove does not match on large copies."""
    cells = []
    for a in arrays:
        ar = by.get(a, {})
        mc = memcpy_ns(ar)
        cp = ar.get(("go", "copy_floor"), {}).get("copy")
        sd = ar.get(("go", "sdp"), {}).get("decode_reuse")
        if mc and cp and sd:
            cells.append((a, sd["median_ns"], cp["median_ns"], mc))
    if not cells:
        return
    p("Go's floor for the arrays is its own `copy` of the wire bytes into a slice made once (Go's runtime "
      "memmove, not glibc's memcpy), measured in the same process:")
    p("")
    p("| Go, decode into existing | SDP | Go copy() | SDP / Go copy() | Go copy() / C memcpy |")
    p("|---|---|---|---|---|")
    for a, sd, cp, mc in cells:
        p(f"| {a} | {fmt_ns(sd)} | {fmt_ns(cp)} | {sd / cp:.2f} | {cp / mc:.2f} |")
    p("")


# Figures the public leaderboards publish for their leaders, measured on
# their own machines: shown next to our ratios against the same peers, never
# compared with our times directly.
PUBLISHED = [
    # (workload, language, our op, peer op, leader, leader ns, peer impl, peer ns there, source)
    ("struct_a", "go", "roundtrip", "roundtrip", "", 0, "protobuf", 643,
     "alecthomas/go_serialization_benchmarks: marshal + unmarshal"),
    ("struct_a", "go", "roundtrip_reuse", "roundtrip", "mus/unsafe_reuse", 105, "protobuf", 643,
     "alecthomas/go_serialization_benchmarks, Jul 2025 (marshal + unmarshal)"),
    ("struct_a", "go", "roundtrip_reuse", "roundtrip", "bebop/reuse", 162, "protobuf", 643,
     "alecthomas/go_serialization_benchmarks, Jul 2025 (marshal + unmarshal)"),
    ("mesh", "rust", "encode", "encode", "speedy 0.8.6", 467_290, "prost", 11_821_000,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("mesh", "rust", "decode", "decode", "savefile 0.16.2", 468_370, "prost", 17_081_000,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("mesh", "rust", "encode", "encode", "speedy 0.8.6", 467_290, "bincode", 4_952_400,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("mesh", "rust", "decode", "decode", "savefile 0.16.2", 468_370, "bincode", 5_317_700,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("log", "rust", "encode", "encode", "alkahest 0.1.5", 229_960, "prost", 565_640,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("log", "rust", "decode", "decode", "speedy 0.8.6", 2_847_200, "prost", 4_135_800,
     "djkoloski/rust_serialization_benchmark, 2023-09-06 (fastest validating deserializer)"),
    ("log", "rust", "encode", "encode", "alkahest 0.1.5", 229_960, "bincode", 591_860,
     "djkoloski/rust_serialization_benchmark, 2023-09-06"),
    ("log", "rust", "decode", "decode", "speedy 0.8.6", 2_847_200, "bincode", 3_299_600,
     "djkoloski/rust_serialization_benchmark, 2023-09-06 (fastest validating deserializer)"),
]


def leaderboards(p, by):
    """The public suites' shapes (issue #15): our ratios against the peers we
    run, next to the ratios the public leaderboards publish for their
    leaders against the same peers."""
    if not any(by.get(w) for w in ("struct_a", "mesh", "log")):
        return
    p("The shapes of the public benchmarks (issue #15: `leaderboard.sdp`): struct A of "
      "go_serialization_benchmarks, the mesh (125,000 triangles) and log (10,000 entries) data sets of "
      "rust_serialization_benchmark. *SDP vs peer* is the peer's time / SDP's time in this run (above 1: SDP "
      "is faster); *published leader vs peer* is the same ratio for the leaderboard's fastest entry, from "
      "figures the leaderboard publishes (its machine, its date), shown for scale only. Targets: mesh encode "
      "and decode within 1.3× of `memcpy` (Go with decode into an existing value); log faster than every peer "
      "we run; struct A (Go, marshal + unmarshal) ≥ 6× protobuf-go, ≥ 8× with reuse (both against "
      "protobuf-go's plain marshal + unmarshal, as the leaderboard compares). Our struct A reuse roundtrip "
      "decodes the same record every time, so its strings, equal to the ones the value holds, are kept "
      "without an allocation; the leaderboard's records vary.")
    p("")
    p("| workload | language | SDP | peer | SDP vs peer | published leader vs peer | source |")
    p("|---|---|---|---|---|---|---|")
    for w, lang, op, peer_op, leader, lns, peer, pns, src in PUBLISHED:
        rows = by.get(w, {})
        sd, pe = rows.get((lang, "sdp"), {}), rows.get((lang, peer), {})
        mine = sd.get(op)
        theirs = pe.get(peer_op)
        ours = f"{theirs['median_ns'] / mine['median_ns']:.1f}×" if mine and theirs else "not measured"
        pub = f"{leader}: {pns / lns:.1f}× ({fmt_ns(lns)} vs {fmt_ns(pns)})" if leader else "–"
        p(f"| {w} | {LANG_TITLES[lang]} | {OP_TITLES.get(op, op)}: {fmt_ns(mine['median_ns']) if mine else '–'} | "
          f"{row_name(lang, peer).split(' · ')[1]} {OP_TITLES.get(peer_op, peer_op)}: "
          f"{fmt_ns(theirs['median_ns']) if theirs else '–'} | {ours} | {pub} | {src} |")
    p("")
    mesh = by.get("mesh", {})
    mc = memcpy_ns(mesh)
    if mc:
        p("| mesh / memcpy | encode | decode | decode into existing |")
        p("|---|---|---|---|")
        for lang in ("c", "cpp", "cppclang", "go", "rust", "swift", "python"):
            sd = mesh.get((lang, "sdp"), {})
            if not sd:
                continue
            cells = [f"{sd[o]['median_ns'] / mc:.2f}" if o in sd else "–" for o in ("encode", "decode", "decode_reuse")]
            p(f"| {LANG_TITLES[lang]} | " + " | ".join(cells) + " |")
        p("")
    log = by.get("log", {})
    rows = []
    for lang in ("c", "cpp", "go", "rust", "swift", "python"):
        sd = log.get((lang, "sdp"), {})
        if not sd:
            continue
        cells = []
        for op in ("encode", "decode"):
            bp = best_peer(log, lang, op)
            if op in sd and bp:
                cells.append(f"{fmt_ratio(bp[1]['median_ns'] / sd[op]['median_ns'])} ({bp[0]})")
            else:
                cells.append("no peer")
        rows.append((lang, cells))
    if rows:
        p("| log: SDP vs the fastest peer | encode | decode |")
        p("|---|---|---|")
        for lang, cells in rows:
            p(f"| {LANG_TITLES[lang]} | " + " | ".join(cells) + " |")
        p("")


def python_targets(p, by):
    """The Python backend against protobuf's Python package (upb) and numpy
    (issue #16)."""
    reg = by.get("registry", {})
    sd, pb = reg.get(("python", "sdp"), {}), reg.get(("python", "protobuf"), {})
    if not sd:
        return
    p("Python (issue #16; protobuf's Python package runs upb, its C parser and encoder): targets registry encode "
      "faster than protobuf's, registry decode + read every field within 1.5× of protobuf's, numeric arrays "
      "decoded with `numpy=True` within 2× of `numpy.frombuffer` and encoded within 2× of `ndarray.tobytes()`.")
    p("")
    p("| Python | SDP | peer or floor | SDP / peer |")
    p("|---|---|---|---|")
    for op, peer_op, what in (("encode", "encode", "registry encode vs protobuf"),
                              ("decode_read", "decode_read", "registry decode + read vs protobuf")):
        if op in sd and peer_op in pb:
            p(f"| {what} | {fmt_ns(sd[op]['median_ns'])} | {fmt_ns(pb[peer_op]['median_ns'])} | "
              f"{sd[op]['median_ns'] / pb[peer_op]['median_ns']:.2f} |")
    rf = by.get("registry", {}).get(("python", "read_floor"), {}).get("encode")
    if rf and "encode" in pb:
        p(f"| registry: reading every field and encoding every string (floor) vs protobuf's encode | "
          f"{fmt_ns(rf['median_ns'])} | {fmt_ns(pb['encode']['median_ns'])} | "
          f"{rf['median_ns'] / pb['encode']['median_ns']:.2f} |")
    for w in ("u32_1k", "i16_48k", "f32_1m"):
        rows = by.get(w, {})
        npy = rows.get(("python", "sdp_numpy"), {})
        fv = rows.get(("python", "frombuffer_value"), {}).get("decode")
        fb = rows.get(("python", "numpy_frombuffer"), {}).get("decode")
        if fv and fb:
            p(f"| {w}: the count, frombuffer and the constructor (floor) vs numpy.frombuffer | "
              f"{fmt_ns(fv['median_ns'])} | {fmt_ns(fb['median_ns'])} | {fv['median_ns'] / fb['median_ns']:.2f} |")
        for op, floor in (("decode", "numpy_frombuffer"), ("encode", "numpy_tobytes")):
            fl = rows.get(("python", floor), {}).get(op)
            if op in npy and fl:
                p(f"| {w} {op} (numpy) vs {row_name('python', floor).split(' · ')[1]} | {fmt_ns(npy[op]['median_ns'])} | "
                  f"{fmt_ns(fl['median_ns'])} | {npy[op]['median_ns'] / fl['median_ns']:.2f} |")
    p("")


def ts_targets(p, by):
    """The TypeScript/JavaScript backend in Node against JSON and node-cbor,
    and the numeric arrays against Uint8Array's slice and set (issue #34)."""
    langs = [lang for lang in ("ts", "tschromium") if by.get("registry", {}).get((lang, "sdp"))]
    if not langs:
        return
    p("TypeScript/JavaScript in Node and in headless Chromium (issue #34): targets registry decode ≥ 3× faster than `JSON.parse` of its "
      "JSON and encode ≥ 3× `JSON.stringify` (and ≥ 2× protobufjs, which is not packaged in Debian 12: not "
      "measured); numeric arrays from 1,000 elements decode within 1.3× of `Uint8Array.prototype.slice` of the "
      "same bytes (views: O(1)) and encode into a kept buffer within 1.3× of `Uint8Array.prototype.set`. "
      "Ratios peer time / SDP time (above 1: SDP is faster); for the floors SDP time / floor time. "
      "node-cbor runs in Node only.")
    p("")
    for lang in langs:
        ts_target_rows(p, by, lang)


def ts_target_rows(p, by, lang):
    p(f"| {LANG_TITLES[lang]} | encode | decode |")
    p("|---|---|---|")
    for w in ("registry", "struct_a", "log", "mesh"):
        rows = by.get(w, {})
        s = rows.get((lang, "sdp"), {})
        for peer in ("json_js", "cbor"):
            pr = rows.get((lang, peer), {})
            if not pr:
                continue
            cells = []
            for op in ("encode", "decode"):
                if op in s and op in pr:
                    cells.append(fmt_ratio(pr[op]['median_ns'] / s[op]['median_ns']))
                else:
                    cells.append("not measured")
            p(f"| {w}: SDP vs {'JSON' if peer == 'json_js' else 'CBOR'} | " + " | ".join(cells) + " |")
    for w in ("u32_1k", "i16_48k", "f32_1m", "bytes_64k"):
        rows = by.get(w, {})
        s, v = rows.get((lang, "sdp"), {}), rows.get((lang, "sdp_view"), {})
        sl = rows.get((lang, "slice"), {}).get("decode")
        st = rows.get((lang, "set"), {}).get("encode_reuse")
        sl = sl if sl and sl["median_ns"] > 0 else None
        st = st if st and st["median_ns"] > 0 else None
        dec = f"{s['decode']['median_ns'] / sl['median_ns']:.2f} of slice" if sl and "decode" in s else "not measured"
        if sl and "decode" in v:
            dec += f" (views: {fmt_ns(v['decode']['median_ns'])})"
        enc = f"{s['encode_reuse']['median_ns'] / st['median_ns']:.2f} of set" if st and "encode_reuse" in s else "not measured"
        p(f"| {w}: SDP / floor | {enc} | {dec} |")
    p("")


def go_floors(p, by):
    """The Go backend against its hand-written floors (issue #21)."""
    reg = by.get("registry", {})
    sd = reg.get(("go", "sdp"), {})
    ow = reg.get(("go", "offset_writer"), {})
    af = reg.get(("go", "alloc_floor"), {})
    if sd and (ow or af):
        p("Go against its floors on the registry (issue #21: the generated encoder within 1.3× of a hand-written "
          "offset writer that skips UTF-8 validation, as SDP 0.2's does; the owned decode against the bare "
          "allocations it must make):")
        p("")
        p("| Go, registry | SDP | floor | SDP / floor |")
        p("|---|---|---|---|")
        if "encode" in sd and "encode" in ow:
            p(f"| encode (fresh buffer) vs offset writer | {fmt_ns(sd['encode']['median_ns'])} | "
              f"{fmt_ns(ow['encode']['median_ns'])} | {sd['encode']['median_ns'] / ow['encode']['median_ns']:.2f} |")
        if "encode_reuse" in sd and "encode_reuse" in ow:
            p(f"| encode into a reused buffer vs offset writer into a reused buffer | "
              f"{fmt_ns(sd['encode_reuse']['median_ns'])} | {fmt_ns(ow['encode_reuse']['median_ns'])} | "
              f"{sd['encode_reuse']['median_ns'] / ow['encode_reuse']['median_ns']:.2f} |")
        if "encode_reuse" in sd and "encode" in ow:
            p(f"| encode into a reused buffer vs offset writer (fresh buffer) | {fmt_ns(sd['encode_reuse']['median_ns'])} | "
              f"{fmt_ns(ow['encode']['median_ns'])} | {sd['encode_reuse']['median_ns'] / ow['encode']['median_ns']:.2f} |")
        if "decode" in sd and "decode" in af:
            p(f"| owned decode vs its allocations | {fmt_ns(sd['decode']['median_ns'])} | "
              f"{fmt_ns(af['decode']['median_ns'])} | {sd['decode']['median_ns'] / af['decode']['median_ns']:.2f} |")
        p("")
    sa = by.get("struct_a", {})
    ssd, saf, spb = sa.get(("go", "sdp"), {}), sa.get(("go", "alloc_floor"), {}), sa.get(("go", "protobuf"), {})
    if "roundtrip" in ssd and "roundtrip" in saf and "roundtrip" in spb:
        rt, fl, pb = ssd["roundtrip"]["median_ns"], saf["roundtrip"]["median_ns"], spb["roundtrip"]["median_ns"]
        p(f"Struct A's plain-API roundtrip (`MarshalBinary`, then `UnmarshalBinary` into a new value) makes three "
          f"allocations: the encoding, the value and one block for its two strings. Those allocations alone, "
          f"with the strings copied and nothing encoded or decoded, take {fmt_ns(fl)}: protobuf-go's roundtrip "
          f"({fmt_ns(pb)}) is {pb / fl:.1f}× that floor: the most a roundtrip that makes them could gain on "
          f"protobuf-go (issue #21's target is 6×). SDP's roundtrip takes {fmt_ns(rt)}, {rt / fl:.2f}× the floor.")
        p("")

def ipc_section(p, run):
    """The cross-language IPC workload (bench/ipc, issue #15 item 3): one
    process writes a message stream with its language's SDP stream writer,
    another reads and decodes it, over a pipe and a Unix socket; next to the
    raw-pipe floor and length-delimited protobuf (C++ -> Go). Wall time."""
    rows = [r for r in run["results"] if r.get("lang") == "ipc"]
    gaps = [g for g in run["gaps"] if g.get("lang") == "ipc"]
    if not rows and not gaps:
        return
    p("## IPC: message streams between processes")
    p("")
    p("One process writes N messages with its language's SDP stream writer, another reads them with its "
      "language's stream reader and decodes every one into owned values (C++: into one reused `AnyMessage`, "
      "its reader's only form), checking the count and a checksum of the decoded fields at the end "
      "(of an i16_48k message: its length, every 64th sample and the last; bench/README.md says why) "
      "(`bench/ipc`). **Time is wall time** (unlike the rest of this report): from the writer's first write "
      "to the reader's last decoded message, both processes running, `CLOCK_MONOTONIC`; the median of "
      "the runs (N calibrated to ~0.5 s per run). MB/s counts the wire bytes of the stream (SDP messages with their 10-byte headers; protobuf its own, smaller, bytes). *floor*: the "
      "same message bytes, pre-encoded, written through the same 64 KiB buffer and read and discarded "
      "(Go → Go). *protobuf*: length-delimited protobuf (varint length + message, "
      "`SerializeDelimitedToZeroCopyStream` in C++, read by protobuf-go) of the same values. *socket* is a "
      "Unix stream socket pair. On a shared 2-core machine both processes compete for the cores with "
      "other work, so these numbers move more than the CPU times above. Every message of a stream is the "
      "same value, so a reader decoding into the previous value keeps its equal strings without "
      "allocating; in a stream whose strings vary, such a reader allocates each new string, as an owned "
      "reader does.")
    p("")
    loads = [float(r["load_average"].split()[0]) for r in rows if r.get("load_average", "unknown") != "unknown"]
    if loads:
        p(f"Load average (1 minute) while the IPC pairs ran: {min(loads):.1f} to {max(loads):.1f} "
          f"on {run.get('machine', {}).get('cores', '?')} cores.")
        p("")
    if run.get("quick"):
        p("**Quick mode: a few messages per pair, to prove that every pair works; not measurements.**")
        p("")
    kinds = []
    for r in rows:
        if r["kind"] not in kinds:
            kinds.append(r["kind"])
    by = {(r["kind"], r["impl"], r["transport"]): r for r in rows}
    order = ["floor", "go_go", "go_go_reuse", "cpp_go", "cpp_go_reuse", "rust_go", "rust_go_reuse", "swift_go",
             "swift_go_reuse", "go_swift", "go_swift_reuse", "go_rust", "go_rust_reuse", "go_cpp", "protobuf"]

    def rate(x):
        return f"{x / 1e6:.2f} M/s" if x >= 1e6 else (f"{x / 1e3:.1f} k/s" if x >= 1e3 else f"{x:.0f}/s")

    for kind in kinds:
        any_r = next(r for r in rows if r["kind"] == kind)
        p(f"### IPC {kind}: {any_r['message_bytes']:,}-byte messages")
        p("")
        p("| pair (writer → reader) | pipe msgs/s | pipe MB/s | pipe time / floor | socket msgs/s | socket MB/s | "
          "socket time / floor | N |")
        p("|---|---|---|---|---|---|---|---|")
        impls = sorted({r["impl"] for r in rows if r["kind"] == kind},
                       key=lambda i: order.index(i) if i in order else len(order))
        for impl in impls:
            cells, title, n = [], impl, ""
            for tr in ("pipe", "socket"):
                r, fl = by.get((kind, impl, tr)), by.get((kind, "floor", tr))
                if not r:
                    cells += ["", "", ""]
                    continue
                title, n = r["title"], f"{r['messages']:,}"
                ratio = f"{r['median_ns'] / fl['median_ns']:.2f}" if fl and impl != "floor" else ""
                mb = r["mb_per_s"]
                cells += [rate(r["msgs_per_s"]), f"{mb:,.0f}" if mb >= 10 else f"{mb:.1f}", ratio]
            p(f"| {title} | " + " | ".join(cells) + f" | {n} |")
        p("")

    p("Targets (issue #15): large messages (i16_48k) within 1.5× of the raw-pipe floor's time; small "
      "messages (struct_a, sensor) at least 3× the protobuf peer's messages/s.")
    if run.get("quick"):
        p("(Quick mode: the ratios are not judged.)")
    p("")
    p("| pair | transport | i16_48k time / floor (≤ 1.5) | struct_a msgs/s vs protobuf (≥ 3) | "
      "sensor msgs/s vs protobuf (≥ 3) |")
    p("|---|---|---|---|---|")
    sdp_pairs = [i for i in order if i not in ("floor", "protobuf") and any(r["impl"] == i for r in rows)]
    for impl in sdp_pairs:
        for tr in ("pipe", "socket"):
            cells = []
            r, fl = by.get(("i16_48k", impl, tr)), by.get(("i16_48k", "floor", tr))
            if r and fl:
                x = r["median_ns"] / fl["median_ns"]
                cells.append(f"{x:.2f}" + ("" if run.get("quick") else f" ({'met' if x <= 1.5 else 'not met'})"))
            else:
                cells.append("not measured")
            for kind in ("struct_a", "sensor"):
                r, pb = by.get((kind, impl, tr)), by.get((kind, "protobuf", tr))
                if r and pb:
                    x = r["msgs_per_s"] / pb["msgs_per_s"]
                    cells.append(f"{x:.2f}" + ("" if run.get("quick") else f" ({'met' if x >= 3 else 'not met'})"))
                elif r:
                    cells.append("no protobuf peer")
                else:
                    cells.append("not measured")
            title = next(r["title"] for r in rows if r["impl"] == impl)
            p(f"| {title} | {tr} | " + " | ".join(cells) + " |")
    p("")
    if gaps:
        p("IPC pairs not measured:")
        p("")
        for g in gaps:
            p(f"- {g['impl']} ({g.get('workload', '') or 'all'}): {g['reason']}")
        p("")


if __name__ == "__main__":
    main()

