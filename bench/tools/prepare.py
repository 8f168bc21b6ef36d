#!/usr/bin/env python3
"""Turns the conformance data generator's documents into the benchmark's
input files: for each workload of bench/workloads.tsv,
<out>/<workload>.json (the value in SDP's JSON mapping) and
<out>/<workload>.sdpb (the same value encoded by the reference codec,
`sdp encode`). Every harness reads these files, so every language and every
peer measures the same data."""

import argparse
import json
import os
import subprocess
import sys


def workloads(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, schema, typ, doc, kind = line.rstrip("\n").split("\t")
            rows.append(dict(name=name, schema=schema, type=typ, doc=doc, kind=kind))
    return rows


def manifest(gen_dir):
    """sdp-datagen's manifest.json: {"seed": N, "documents": [{name, schema,
    type, file}]} (a bare list of entries is accepted too)."""
    with open(os.path.join(gen_dir, "manifest.json")) as f:
        m = json.load(f)
    seed = None
    if isinstance(m, dict):
        seed = m.get("seed")
        entries = next((v for v in m.values() if isinstance(v, list)), [])
    else:
        entries = m
    return seed, {e["name"]: e for e in entries}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="repository root")
    ap.add_argument("--sdp", required=True, help="the sdp binary")
    ap.add_argument("--gen", required=True, help="directory the data generator wrote")
    ap.add_argument("--workloads", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    seed, docs = manifest(a.gen)
    print(f"prepare: data generator seed {seed}", file=sys.stderr)
    for w in workloads(a.workloads):
        e = docs.get(w["doc"])
        if e is None:
            print(f"prepare: {w['name']}: the data generator wrote no document {w['doc']!r}", file=sys.stderr)
            bad += 1
            continue
        if (e["schema"], e["type"]) != (w["schema"], w["type"]):
            print(f"prepare: {w['name']}: document {w['doc']} is {e['schema']}.{e['type']}, "
                  f"the workload table says {w['schema']}.{w['type']}", file=sys.stderr)
            bad += 1
            continue
        src = os.path.join(a.gen, e["file"])
        with open(src) as f:
            doc = json.load(f)
        # Accept both a bare value and the corpus form {"type": T, "value": V}.
        if isinstance(doc, dict) and set(doc) == {"type", "value"}:
            if doc["type"] != w["type"]:
                print(f"prepare: {w['name']}: {src} holds a {doc['type']}, want {w['type']}", file=sys.stderr)
                bad += 1
                continue
            doc = doc["value"]
        text = json.dumps(doc, separators=(",", ":"))
        jpath = os.path.join(a.out, w["name"] + ".json")
        with open(jpath, "w") as f:
            f.write(text)
        schema = os.path.join(a.root, "conformance", "schemas", w["schema"] + ".sdp")
        p = subprocess.run([a.sdp, "encode", "--schema", schema, "--type", w["type"]],
                           input=text.encode(), capture_output=True)
        if p.returncode != 0:
            print(f"prepare: {w['name']}: sdp encode failed: {p.stderr.decode().strip()}", file=sys.stderr)
            bad += 1
            continue
        with open(os.path.join(a.out, w["name"] + ".sdpb"), "wb") as f:
            f.write(p.stdout)
        print(f"prepare: {w['name']:16} {len(p.stdout):>9} bytes ({w['schema']}.{w['type']})", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
