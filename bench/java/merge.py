#!/usr/bin/env python3
"""Adds a Java run to an earlier run file of the whole suite and renders the
report from the result, so that bench/RESULTS.md shows Java beside the other
languages without rerunning them (a full bench/run takes an hour):

    bench/run --langs java --no-report          # bench/build/results/java.json
    python3 bench/java/merge.py bench/results/<earlier run>.json

It writes bench/results/<now>-<host>.json: the earlier run's results (its
Java rows dropped) and the new Java rows, with a note in the report's
conditions (the run file's "merged" list, as bench/ts/merge.py writes it)
saying when and at which commit the Java rows were measured,
then runs bench/tools/report.py --from-json on it. Java's SDP and
protobuf-java rows always come from one run of the same JVM."""
import datetime
import json
import os
import socket
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
bench = os.path.dirname(here)
root = os.path.dirname(bench)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        run = json.load(f)
    with open(os.path.join(bench, "build", "results", "java.json")) as f:
        java = json.load(f)
    if java.get("quick"):
        sys.exit("merge: bench/build/results/java.json is a quick run, not a measurement")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    run["results"] = [r for r in run["results"] if r.get("lang") != "java"]
    for r in java["results"]:
        r["lang"] = "java"
        run["results"].append(r)
    run["gaps"] = [g for g in run.get("gaps", []) if g.get("lang") != "java"]
    run.setdefault("harness_toolchains", {})["java"] = java.get("toolchain", "")
    run.setdefault("merged", []).append(
        f"java: measured separately (`bench/run --langs java`, {java.get('toolchain', '')}) on {now}, git commit "
        f"{commit}, load average {' '.join(load)} when merged by bench/java/merge.py onto "
        f"{os.path.basename(sys.argv[1])}, whose languages are unchanged. Times are the measuring thread's CPU time "
        "(`ThreadMXBean.getCurrentThreadCpuTime`: the collector's threads are left out), the median over 3 JVM "
        "forks (1 GiB heaps, touched at start: `-XX:+AlwaysPreTouch`) of each fork's median of 15 batches of "
        "~25 ms after 0.4 s of warm-up; protobuf-java's messages "
        "are built from the decoded SDP values; *new array + copy* is `new byte[n]` and `System.arraycopy`.")
    stamp = now.replace(":", "").replace("-", "")
    out = os.path.join(bench, "results", f"{stamp}-{socket.gethostname()}.json")
    with open(out, "w") as f:
        json.dump(run, f, indent=1)
        f.write("\n")
    subprocess.run([sys.executable, os.path.join(bench, "tools", "report.py"), "--build", os.path.join(bench, "build"),
                    "--workloads", os.path.join(bench, "workloads.tsv"), "--json-dir", os.path.join(bench, "results"),
                    "--md", os.path.join(bench, "RESULTS.md"), "--charts", os.path.join(bench, "charts"),
                    "--from-json", out], check=True)


if __name__ == "__main__":
    main()
