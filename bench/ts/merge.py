#!/usr/bin/env python3
"""Adds the results of a run of some languages (bench/run --langs ts,tschromium
--no-report: bench/build/results/<lang>.json) to an earlier run file of the
whole suite (bench/results/*.json), as a new run file whose Conditions say
which languages were measured separately, when, at which commit and under
which load. bench/tools/report.py --from-json renders it; the next full run
of the suite replaces it.

Usage: merge.py --base bench/results/X.json --build bench/build --out bench/results/Y.json LANG...
"""

import argparse
import datetime
import json
import os
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("langs", nargs="+")
    a = ap.parse_args()
    with open(a.base) as f:
        run = json.load(f)
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(a.build)), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    names = []
    for lang in a.langs:
        with open(os.path.join(a.build, "results", lang + ".json")) as f:
            d = json.load(f)
        if d.get("quick"):
            raise SystemExit(f"merge.py: {lang}.json is a quick run")
        run["results"] = [r for r in run["results"] if r.get("lang") != lang]
        run["gaps"] = [g for g in run["gaps"] if g.get("lang") != lang]
        for r in d["results"]:
            run["results"].append(dict(r, lang=lang))
        for g in d["gaps"]:
            run["gaps"].append(dict(g, lang=lang))
        run["harness_toolchains"][lang] = d.get("toolchain", "")
        names.append(lang)
    run.setdefault("merged", []).append(
        f"{', '.join(names)}: measured separately (`bench/run --langs {','.join(names)}`) on {now}, git commit "
        f"{commit}, load average {load} when merged (Node: process CPU time; Chromium: wall time, "
        f"`performance.now()` in 5 µs steps); the other languages are from {os.path.basename(a.base)}.")
    with open(a.out, "w") as f:
        json.dump(run, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
